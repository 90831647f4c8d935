//! stub

/// stub
#[must_use]
pub fn is_color(_value: &str) -> bool {
    true
}
