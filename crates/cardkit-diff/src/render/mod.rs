//! The diff formatted: text in the style of the validator (summary first,
//! then each set, then the drift, then the references broken), one JSON
//! document, or JSON Lines (one line per set, record, drift, reference
//! broken and problem, then the summary); or, each in the same shapes, the
//! summary alone (`--stat`).

mod json;
mod text;

pub use json::{json, json_lines, json_lines_stat, json_stat};
pub use text::{count, text, text_stat, THE_ROOT};
