//! A design moved to another asset root: another host, or a local mirror.
//!
//! The file's `asset_root_url` is set to the new root (added as the first
//! member of the root object when the file has none; a template's card's own
//! `asset_root_url` is changed when it is set), and each absolute URL under
//! the old root is moved under the new one: to the new URL when the new root
//! is a URL, to the path relative to the root when it is a folder (a folder
//! has no URL to put before it). Relative paths stay as they are, since they
//! follow the root. Each change rewrites the bytes of one string and nothing
//! else: the rest of the file is kept byte for byte, so that moving a design
//! to a root and back to the first (a URL) gives the file back as it was.

use std::fmt;

use super::manifest::{asset_members, MembersError};
use super::Root;

/// One string rewritten.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Where the member is.
    pub pointer: String,
    /// The byte range of the string in the original file, quotes included
    /// (empty for a member added).
    pub span: (usize, usize),
    /// The string before (none for a member added).
    pub before: Option<String>,
    /// The string after.
    pub after: String,
}

/// A design moved to another root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rebased {
    /// The file, rewritten.
    pub bytes: Vec<u8>,
    /// What was rewritten, in the file's order.
    pub edits: Vec<Edit>,
}

/// Why a design cannot be moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RebaseError {
    /// The file is not JSON, or is nested too deep.
    Unreadable(MembersError),
    /// The file's root is not an object.
    NotAnObject,
}

impl fmt::Display for RebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RebaseError::Unreadable(why) => write!(f, "{why}"),
            RebaseError::NotAnObject => f.write_str("the file's root is not an object"),
        }
    }
}

impl std::error::Error for RebaseError {}

impl From<MembersError> for RebaseError {
    fn from(error: MembersError) -> Self {
        RebaseError::Unreadable(error)
    }
}

/// `bytes` (a template or card design) moved from the root `old` (the
/// design's own, or the one given for it; none when it has none) to the
/// root written `new`.
///
/// # Errors
/// The file is not JSON, is nested too deep, or its root is not an object.
pub fn rebase(bytes: &[u8], old: Option<&Root>, new: &str) -> Result<Rebased, RebaseError> {
    let members = asset_members(bytes)?;
    let old_prefix = match old {
        Some(Root::Url(url)) => Some(with_slash(url.as_str())),
        _ => None,
    };
    let new_prefix = match Root::parse(new) {
        Root::Url(url) => with_slash(url.as_str()),
        Root::Dir(_) => String::new(),
    };
    let mut edits = Vec::new();
    if !members.iter().any(|m| m.pointer == "/asset_root_url") {
        edits.push(Edit {
            pointer: "/asset_root_url".to_owned(),
            span: insertion_point(bytes)?,
            before: None,
            after: new.to_owned(),
        });
    }
    for member in &members {
        let after = if member.key == "asset_root_url" {
            // A template's card without a root of its own keeps none.
            (member.pointer == "/asset_root_url" || !member.value.is_empty())
                .then(|| new.to_owned())
        } else {
            old_prefix
                .as_deref()
                .and_then(|prefix| member.value.strip_prefix(prefix))
                .map(|rest| format!("{new_prefix}{rest}"))
        };
        if let Some(after) = after.filter(|after| *after != member.value) {
            edits.push(Edit {
                pointer: member.pointer.clone(),
                span: member.span,
                before: Some(member.value.clone()),
                after,
            });
        }
    }
    edits.sort_by_key(|edit| edit.span.0);

    let mut out = Vec::with_capacity(bytes.len() + 64);
    let mut at = 0;
    for edit in &edits {
        out.extend_from_slice(&bytes[at..edit.span.0]);
        let string = serde_json::to_string(&edit.after).expect("a string serializes");
        if edit.before.is_some() {
            out.extend_from_slice(string.as_bytes());
        } else {
            // A member added first in the root object, indented as the
            // member after it.
            let indent = whitespace_after(bytes, edit.span.0);
            let empty = bytes.get(edit.span.0 + indent.len()) == Some(&b'}');
            out.extend_from_slice(indent);
            out.extend_from_slice(format!("\"asset_root_url\": {string}").as_bytes());
            if !empty {
                out.push(b',');
            }
        }
        at = edit.span.1;
    }
    out.extend_from_slice(&bytes[at..]);
    Ok(Rebased { bytes: out, edits })
}

/// Just after the `{` of the root object.
fn insertion_point(bytes: &[u8]) -> Result<(usize, usize), RebaseError> {
    let start = bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        .filter(|&i| bytes[i] == b'{')
        .ok_or(RebaseError::NotAnObject)?;
    Ok((start + 1, start + 1))
}

fn whitespace_after(bytes: &[u8], at: usize) -> &[u8] {
    let end = bytes[at..]
        .iter()
        .position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        .map_or(bytes.len(), |i| at + i);
    &bytes[at..end]
}

fn with_slash(url: &str) -> String {
    if url.ends_with('/') {
        url.to_owned()
    } else {
        format!("{url}/")
    }
}
