//! JSON Pointers into the input (RFC 6901), as the notes and the offsets
//! write them: a member name as a token, and a pointer with a member after
//! it.

/// A JSON Pointer token for `key` (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(super) fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `pointer` with `key` after it.
pub(super) fn join(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", token(key))
}
