//! stub

/// stub
#[must_use]
pub fn is_uri(_value: &str) -> bool {
    true
}
