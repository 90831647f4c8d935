//! The diff formatted: text in the style of the validator (summary first,
//! then each set, then the drift), one JSON document, or JSON Lines (one
//! line per set, record, drift and problem, then the summary).

mod json;
mod text;

pub use json::{json, json_lines};
pub use text::text;

/// A number with thousands separators (`12,345`).
#[must_use]
pub fn count(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
