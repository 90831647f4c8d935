//! The diff formatted: text in the style of the validator (summary first,
//! then each set, then the drift), one JSON document, or JSON Lines (one
//! line per set, record, drift and problem, then the summary).

mod json;
mod text;

pub use json::{json, json_lines};
pub use text::{count, text};
