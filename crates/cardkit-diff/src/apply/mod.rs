//! Migration notices applied to stored references to catalog ids.
pub mod notices;
pub use notices::{Notice, Outcome, Plan};
