//! stub

/// stub
#[must_use]
pub fn is_uuid(_value: &str) -> bool {
    true
}
