//! The string formats of the spec: uuid, date, uri and color.

mod color;
pub mod color_patterns;
mod date;
mod uri;
mod uuid;

pub use color::is_color;
pub use date::{is_date, is_date_bytes};
pub use uri::is_uri;
pub use uuid::{is_uuid, is_uuid_bytes};
