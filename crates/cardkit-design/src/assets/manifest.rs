//! The manifest of a design's assets: every `src`, `thumb` and `srcPrefix`
//! of a template or card design, with where it is in the file (a JSON
//! Pointer and the byte span of its string), what it is for, and where the
//! resolver puts it; `data:` URIs with their media type, size and SHA-256.
//!
//! The members are found in the file's text itself, so that a rebase can
//! rewrite their strings and leave every other byte as it was
//! ([`super::rebase`]). Nothing is fetched: a `data:` URI is decoded only
//! within [`DATA_LIMIT`] bytes, a local file is looked at only by
//! [`check`].

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

use cardkit_json::{Scanner, SyntaxError, BOM};
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::{AssetError, Location, Resolver};
use crate::token::pointer_name;

/// The largest `data:` URI decoded to measure and hash it, in bytes after
/// decoding: beyond it the URI is reported with the size its length gives,
/// and not decoded.
pub const DATA_LIMIT: u64 = 4 * 1024 * 1024;

/// The members that name assets.
const ASSET_KEYS: [&str; 3] = ["src", "thumb", "srcPrefix"];

/// What an asset is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// An image of an image set's variant, or a layer made from one (a
    /// layer with a `thumb`): a frame of the card.
    Frame,
    /// A mask of an image layer or of an image set.
    Mask,
    /// A font.
    Font,
    /// A symbol's image, or the prefix of a symbol set's images.
    Symbol,
    /// Another image layer: art, a set icon, a watermark.
    Image,
    /// A thumbnail.
    Thumb,
}

impl Role {
    /// The role's name (`frame`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Frame => "frame",
            Role::Mask => "mask",
            Role::Font => "font",
            Role::Symbol => "symbol",
            Role::Image => "image",
            Role::Thumb => "thumb",
        }
    }
}

/// A string member of the file, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringMember {
    /// Its JSON Pointer.
    pub pointer: String,
    /// Its name (`src`).
    pub key: String,
    /// The byte range of its string in the file, quotes included.
    pub span: (usize, usize),
    /// The string, decoded.
    pub value: String,
}

/// How deep [`asset_members`] reads: as deep as documents may nest (the
/// validator's limit, [`cardkit::validate::MAX_DEPTH`] arrays and objects,
/// more than 512 levels of groups).
pub const MAX_DEPTH: usize = cardkit::validate::MAX_DEPTH;

/// Why the asset members of a text cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MembersError {
    /// The text is not JSON.
    Syntax(SyntaxError),
    /// Objects and arrays nested deeper than [`MAX_DEPTH`]: where the first
    /// one too deep starts, in bytes.
    TooDeep(usize),
}

impl fmt::Display for MembersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MembersError::Syntax(error) => {
                write!(f, "not JSON at byte {}: {:?}", error.at, error.syntax)
            }
            MembersError::TooDeep(at) => {
                write!(f, "nested deeper than {MAX_DEPTH} levels at byte {at}")
            }
        }
    }
}

impl std::error::Error for MembersError {}

impl From<SyntaxError> for MembersError {
    fn from(error: SyntaxError) -> Self {
        MembersError::Syntax(error)
    }
}

/// Every string member named `src`, `thumb`, `srcPrefix` or
/// `asset_root_url`, at any depth up to [`MAX_DEPTH`], in the file's order.
///
/// # Errors
/// The text is not JSON, or is nested too deep: where and why.
pub fn asset_members(bytes: &[u8]) -> Result<Vec<StringMember>, MembersError> {
    let mut found = Vec::new();
    // A UTF-8 byte order mark is skipped, as `validate` skips it; the spans
    // stay offsets in `bytes`.
    let start = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let mut scan = Scanner::new(bytes, start);
    scan.ws();
    walk(&mut scan, &mut String::new(), None, 0, &mut found)?;
    Ok(found)
}

/// Reads the value at the cursor, recording the strings of asset members.
/// Recursive, to [`MAX_DEPTH`] levels.
fn walk(
    scan: &mut Scanner<'_>,
    pointer: &mut String,
    key: Option<&str>,
    depth: usize,
    found: &mut Vec<StringMember>,
) -> Result<(), MembersError> {
    if depth > MAX_DEPTH {
        return Err(MembersError::TooDeep(scan.pos));
    }
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        walk_value(scan, pointer, key, depth, found)
    })
}

fn walk_value(
    scan: &mut Scanner<'_>,
    pointer: &mut String,
    key: Option<&str>,
    depth: usize,
    found: &mut Vec<StringMember>,
) -> Result<(), MembersError> {
    match scan.peek() {
        Some(b'{') => {
            if !scan.open()? {
                return Ok(());
            }
            loop {
                let (name, _) = scan.member_name()?;
                let name = scan.decode(name).into_owned();
                let length = pointer.len();
                pointer.push('/');
                // A long name is cut (`crate::token`): each pointer under it
                // holds its head, not a copy of the whole.
                cardkit_json::pointer::push_escaped(pointer, &pointer_name(&name));
                walk(scan, pointer, Some(&name), depth + 1, found)?;
                pointer.truncate(length);
                if !scan.after_member()? {
                    return Ok(());
                }
            }
        }
        Some(b'[') => {
            if !scan.open()? {
                return Ok(());
            }
            let mut index = 0usize;
            loop {
                let length = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                walk(scan, pointer, None, depth + 1, found)?;
                pointer.truncate(length);
                index += 1;
                if !scan.after_item()? {
                    return Ok(());
                }
            }
        }
        Some(b'"') => {
            let open = scan.pos;
            let token = scan.string()?;
            if let Some(key) = key.filter(|k| ASSET_KEYS.contains(k) || *k == "asset_root_url") {
                found.push(StringMember {
                    pointer: pointer.clone(),
                    key: key.to_owned(),
                    span: (open, scan.pos),
                    value: scan.decode(token).into_owned(),
                });
            }
            Ok(())
        }
        _ => Ok(scan.scalar()?),
    }
}

/// One asset of a design.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// Where its `src` is (`/card/data/children/0/children/1/src`).
    pub pointer: String,
    /// What it is for.
    pub role: Role,
    /// The `src` as written; serialized cut after the comma for a `data:`
    /// URI (`data:image/png;base64,…`), whose content [`Entry::data`]
    /// describes.
    #[serde(serialize_with = "short_src")]
    pub src: String,
    /// What is resolved: `src`, or a symbol set's prefix and the symbol's
    /// `src`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joined: Option<String>,
    /// Where it is: a local file, a URL, or `data:` with its media type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Whether it is a local `file`, a `remote` URL, inline `data`, or
    /// `empty` (no asset yet, as a template's art).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// What its inline data is, for a `data:` URI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Data>,
    /// Why it cannot be located or its data read: it is reported, never
    /// followed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The byte span of the `src` string in the file, quotes included.
    #[serde(skip)]
    pub span: (usize, usize),
}

/// A `src` as the manifest shows it: a `data:` URI without its content.
fn short_src<S: serde::Serializer>(src: &str, serializer: S) -> Result<S::Ok, S::Error> {
    match src.find(',') {
        Some(comma) if src.starts_with("data:") && src.len() > comma + 1 => {
            serializer.serialize_str(&format!("{},…", &src[..comma]))
        }
        _ => serializer.serialize_str(src),
    }
}

/// What a `data:` URI holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Data {
    /// Its media type (`image/png`).
    pub media_type: String,
    /// Its size in bytes, decoded (or, when too large to decode, the size
    /// its length gives).
    pub size: u64,
    /// The SHA-256 of the decoded bytes, in hex; none when not decoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// The manifest of a design's assets, in the file's order: the asset
/// members of `bytes` (a template or card design, already read), each
/// resolved by `resolver`.
///
/// # Errors
/// As [`asset_members`].
pub fn manifest(bytes: &[u8], resolver: &Resolver) -> Result<Vec<Entry>, MembersError> {
    let members = asset_members(bytes)?;
    // The prefix of each symbol set, by the set's pointer; the layers that
    // have a thumbnail (made from a variant).
    let prefixes: HashMap<&str, &str> = members
        .iter()
        .filter(|m| m.key == "srcPrefix")
        .map(|m| (parent(&m.pointer), m.value.as_str()))
        .collect();
    let with_thumb: HashSet<&str> = members
        .iter()
        .filter(|m| m.key == "thumb")
        .map(|m| parent(&m.pointer))
        .collect();
    let entries = members
        .iter()
        .filter(|m| ASSET_KEYS.contains(&m.key.as_str()))
        .map(|member| {
            let role = role(member, with_thumb.contains(parent(&member.pointer)));
            // A symbol's `src` follows its set's prefix
            // (`/context/symbolSets/N` for `/context/symbolSets/N/symbols/M/src`).
            let joined = (role == Role::Symbol && member.key == "src")
                .then(|| parent(parent(parent(&member.pointer))))
                .and_then(|set| prefixes.get(set))
                .map(|prefix| format!("{prefix}{}", member.value));
            entry(member, role, joined, resolver)
        })
        .collect();
    Ok(entries)
}

fn entry(member: &StringMember, role: Role, joined: Option<String>, resolver: &Resolver) -> Entry {
    let target = joined.as_deref().unwrap_or(&member.value);
    let mut entry = Entry {
        pointer: member.pointer.clone(),
        role,
        src: member.value.clone(),
        joined: joined.clone(),
        location: None,
        kind: None,
        data: None,
        problem: None,
        span: member.span,
    };
    // An empty `src` is a layer waiting for its image (a template's art):
    // no asset, and nothing wrong.
    if target.is_empty() {
        entry.kind = Some("empty");
        return entry;
    }
    match resolver.locate(target) {
        Ok(location) => {
            entry.kind = Some(kind(&location));
            entry.location = Some(location.to_string());
            if let Location::Data(data) = &location {
                let (decoded, problem) = match resolver.load(target, DATA_LIMIT) {
                    Ok(asset) => {
                        let size = asset.bytes.len() as u64;
                        (Some((size, hex(&Sha256::digest(&asset.bytes)))), None)
                    }
                    Err(error) => (None, Some(error.to_string())),
                };
                let size = decoded.as_ref().map_or_else(
                    || {
                        if data.base64 {
                            data.encoded_len as u64 / 4 * 3
                        } else {
                            data.encoded_len as u64
                        }
                    },
                    |(size, _)| *size,
                );
                entry.data = Some(Data {
                    media_type: data.media_type.clone(),
                    size,
                    sha256: decoded.map(|(_, sha)| sha),
                });
                entry.problem = problem;
            }
        }
        Err(error) => entry.problem = Some(error.to_string()),
    }
    entry
}

/// What an asset member is for, from where it is: the key, and the names
/// of the members above it.
fn role(member: &StringMember, layer_has_thumb: bool) -> Role {
    let pointer = member.pointer.as_str();
    let segments: Vec<&str> = pointer.split('/').collect();
    let above = |name: &str| segments.iter().rev().skip(1).take(4).any(|s| *s == name);
    if member.key == "thumb" {
        Role::Thumb
    } else if member.key == "srcPrefix" || pointer.contains("/symbolSets/") {
        Role::Symbol
    } else if pointer.contains("/fonts/") {
        Role::Font
    } else if segments.len() >= 3 && segments[segments.len() - 3] == "masks" {
        Role::Mask
    } else if above("variants") || layer_has_thumb {
        Role::Frame
    } else {
        Role::Image
    }
}

/// The pointer of the object a member is in.
fn parent(pointer: &str) -> &str {
    pointer.rsplit_once('/').map_or("", |(parent, _)| parent)
}

fn kind(location: &Location) -> &'static str {
    match location {
        Location::Data(_) => "data",
        Location::File(_) => "file",
        Location::Remote(_) => "remote",
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut out, byte| {
            let _ = write!(out, "{byte:02x}");
            out
        })
}

/// An asset the local mirror lacks, or cannot hold.
#[derive(Debug, Clone, Serialize)]
pub struct Missing {
    /// Where its `src` is.
    pub pointer: String,
    /// The `src` (joined to its prefix for a symbol).
    pub src: String,
    /// Why: the file that is not there, or why the `src` has no place in a
    /// mirror.
    pub why: String,
}

/// The assets of `entries` that a local mirror `dir` of the design's root
/// lacks, found offline: a relative path or a URL is looked for as a file
/// under `dir` (a URL of another host than the root's under `dir/HOST/`);
/// `data:` URIs need nothing. A `src` that cannot be located (it leaves
/// the root, or has a scheme never followed) is missing too.
#[must_use]
pub fn check(entries: &[Entry], resolver: &Resolver, dir: &Path) -> Vec<Missing> {
    let mirrored = resolver.clone().with_mirror(dir);
    entries
        .iter()
        .filter(|entry| entry.kind != Some("empty") && !entry.src.is_empty())
        .filter_map(|entry| {
            let target = entry.joined.clone().unwrap_or_else(|| entry.src.clone());
            // A set's prefix is a folder, not a file.
            let is_prefix = entry.pointer.ends_with("/srcPrefix");
            let why = match mirrored.locate(&target) {
                Ok(Location::Data(_)) => return None,
                // Looked for with its links followed, and only under the
                // mirror, as a render reads it.
                Ok(Location::File(path)) => match mirrored.confined(&path) {
                    Ok(resolved) if is_prefix && resolved.is_dir() => return None,
                    Ok(resolved) if !is_prefix && resolved.is_file() => return None,
                    Ok(_) if is_prefix => format!("{} is not a folder", path.display()),
                    Ok(_) | Err(AssetError::Missing(_)) => {
                        format!("{} does not exist", path.display())
                    }
                    Err(error) => error.to_string(),
                },
                Ok(Location::Remote(url)) => AssetError::Remote(url).to_string(),
                Err(error) => error.to_string(),
            };
            Some(Missing {
                pointer: entry.pointer.clone(),
                src: target,
                why,
            })
        })
        .collect()
}
