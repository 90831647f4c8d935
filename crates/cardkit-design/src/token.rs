//! A member name as the design tools write it into the JSON Pointers they
//! report: whole when short; a long one (a set's id of a megabyte) cut to
//! its head, with its length and a hash of the whole name, so that a
//! pointer's size does not grow with the names above it and the pointers
//! of values under one long name, made apart, still name the same place.

use std::borrow::Cow;
use std::hash::{Hash, Hasher};

/// A member name longer than this many bytes is cut in pointers.
pub const LONG_NAME_BYTES: usize = 256;

/// The characters of a cut name a pointer keeps.
const HEAD_CHARS: usize = 64;

/// `name` as a pointer's reference token holds it (before RFC 6901
/// escaping): itself when at most [`LONG_NAME_BYTES`] bytes long, else its
/// first 64 characters, `…`, then its length in bytes and a hash of it in
/// parentheses (`kkkk…(1048576 bytes, #5f0c…)`). The hash tells two long
/// names with the same head and length apart; the same name always gives the
/// same token.
///
/// ```
/// use cardkit_design::token::pointer_name;
///
/// assert_eq!(pointer_name("frame"), "frame");
/// let long = "k".repeat(1 << 20);
/// let token = pointer_name(&long);
/// assert!(token.starts_with(&format!("{}…(1048576 bytes, #", "k".repeat(64))));
/// assert!(token.len() < 128);
/// assert_eq!(token, pointer_name(&long));
/// assert_ne!(token, pointer_name(&format!("{}j", &long[1..])));
/// ```
#[must_use]
pub fn pointer_name(name: &str) -> Cow<'_, str> {
    if name.len() <= LONG_NAME_BYTES {
        return Cow::Borrowed(name);
    }
    let end = name
        .char_indices()
        .nth(HEAD_CHARS)
        .map_or(name.len(), |(at, _)| at);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut hasher);
    Cow::Owned(format!(
        "{}…({} bytes, #{:016x})",
        &name[..end],
        name.len(),
        hasher.finish()
    ))
}
