//! How documents sit in a file (bare, wrapped, catalog, list, array), and how
//! `--kind auto` tells their kind. The rules are documented in the README.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::walker::{skip_raw, string_at};
use crate::model::card::LAYERS as LAYER_TAG;
use crate::model::Kind;

/// How the documents of one JSON value are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The value is one document.
    Bare,
    /// `{"meta": {...}, "data": <document>}`.
    Wrapped,
    /// `{"meta": {...}, "data": {"<CODE>": <Set>, ...}}` (`meta` optional).
    Catalog,
    /// `{"<CODE>": <Set>, ...}` without a wrapper.
    CodeMap,
    /// `{"object": "list", "data": [<document>, ...]}`.
    List,
    /// `[<document>, ...]`.
    Array,
}

impl Layout {
    /// A short name for reports: `bare`, `wrapped`, `catalog`, `code_map`,
    /// `list`, `array`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Bare => "bare",
            Layout::Wrapped => "wrapped",
            Layout::Catalog => "catalog",
            Layout::CodeMap => "code_map",
            Layout::List => "list",
            Layout::Array => "array",
        }
    }
}

/// The bytes end before the question is answered: read more and ask again.
#[derive(Debug)]
pub(crate) struct NeedMore;

/// The layout of the value at `pos` and, for a single document, its kind
/// (`None`: cannot tell). `complete`: `bytes` hold the whole input, so an
/// early `data` can be checked against every later member.
pub(crate) fn detect(
    bytes: &[u8],
    pos: usize,
    complete: bool,
    forced: Option<Kind>,
) -> Result<(Layout, Option<Kind>), NeedMore> {
    Ok(match bytes.get(pos) {
        Some(b'[') => (Layout::Array, forced),
        Some(b'{') => match root(bytes, pos, complete)? {
            Guess::Kind(kind) => (Layout::Bare, forced.or(Some(kind))),
            Guess::Container(layout, kind) => (layout, forced.or(kind)),
            Guess::Unknown => (Layout::Bare, forced),
        },
        _ => (Layout::Bare, forced),
    })
}

/// The kind of a single document at `pos` (an element of a container), whose
/// bytes are all there.
pub(crate) fn kind_of(bytes: &[u8], pos: usize) -> Option<Kind> {
    match root(bytes, pos, true) {
        Ok(Guess::Kind(kind)) => Some(kind),
        _ => None,
    }
}

enum Guess {
    Kind(Kind),
    Container(Layout, Option<Kind>),
    Unknown,
}

/// Reads the members of the object at `pos` until one decides what it is. A
/// container decided by an early `data` gives way to a later member that
/// names a document kind (`{"data": [], "width": 5, ...}` is a card), when
/// the whole object is at hand.
fn root(bytes: &[u8], pos: usize, complete: bool) -> Result<Guess, NeedMore> {
    let mut guess = Guess::Unknown;
    let mut need_more = false;
    let scan = for_members(bytes, pos, |key, value_at| {
        match member(bytes, key, value_at, complete) {
            Err(NeedMore) => {
                need_more = true;
                true
            }
            Ok(said) => match (&guess, said) {
                (Guess::Unknown, Guess::Unknown) => false,
                (Guess::Unknown, decided @ Guess::Container(..)) if complete => {
                    guess = decided;
                    false
                }
                (Guess::Unknown, decided) => {
                    guess = decided;
                    true
                }
                (Guess::Container(..), Guess::Kind(kind)) => {
                    guess = Guess::Kind(kind);
                    true
                }
                _ => false,
            },
        }
    });
    let undecided = scan == Scan::Truncated && matches!(guess, Guess::Unknown);
    if !complete && (need_more || undecided) {
        return Err(NeedMore);
    }
    Ok(guess)
}

/// What one member of an object says the object is, if anything.
fn member(bytes: &[u8], key: &str, value_at: usize, complete: bool) -> Result<Guess, NeedMore> {
    let signs = &*SIGNS;
    let first = bytes.get(value_at).copied();
    if key == "object" {
        return Ok(match string_at(bytes, value_at).as_deref() {
            Some("list") => Guess::Container(Layout::List, None),
            Some("migration") => Guess::Kind(Kind::Migration),
            _ => Guess::Unknown,
        });
    }
    if key == "data" {
        return Ok(match first {
            Some(b'[') => Guess::Container(Layout::List, None),
            Some(b'{') => match data(bytes, value_at)? {
                Data::Document(kind) => Guess::Container(Layout::Wrapped, Some(kind)),
                Data::Layers => Guess::Kind(Kind::Card),
                Data::Sets => Guess::Container(Layout::Catalog, Some(Kind::Set)),
                Data::Unknown => Guess::Unknown,
            },
            _ => Guess::Unknown,
        });
    }
    if let Some(kind) = signs.kind_of_key(key) {
        return Ok(Guess::Kind(kind));
    }
    if first == Some(b'{') && !signs.known.contains(key) {
        if let Guess::Kind(Kind::Set) = root(bytes, value_at, complete)? {
            return Ok(Guess::Container(Layout::CodeMap, Some(Kind::Set)));
        }
    }
    Ok(Guess::Unknown)
}

/// The kind a member beside a container's `data` says the whole object is,
/// when the container was decided before that member could be seen.
pub(crate) fn contradicting_kind(bytes: &[u8], key: &str, value_at: usize) -> Option<Kind> {
    match member(bytes, key, value_at, true) {
        Ok(Guess::Kind(kind)) => Some(kind),
        _ => None,
    }
}

enum Data {
    Document(Kind),
    Layers,
    Sets,
    Unknown,
}

/// What the `data` object at `pos` holds.
fn data(bytes: &[u8], pos: usize) -> Result<Data, NeedMore> {
    let signs = &*SIGNS;
    let mut found = Data::Unknown;
    let scan = for_members(bytes, pos, |key, value_at| {
        // A set has a `type` too, but not one that names a layer kind.
        let layer_tag = key == LAYER_TAG.tag
            && string_at(bytes, value_at)
                .is_some_and(|tag| LAYER_TAG.variants.iter().any(|(t, _)| *t == tag));
        if layer_tag {
            found = Data::Layers;
            return true;
        }
        if let Some(kind) = signs.kind_of_key(key) {
            found = Data::Document(kind);
            return true;
        }
        if signs.layer_keys.contains(key) {
            found = Data::Layers;
            return true;
        }
        let object = bytes.get(value_at) == Some(&b'{');
        if object && !signs.known.contains(key) {
            found = Data::Sets;
            return true;
        }
        false
    });
    match (scan, found) {
        (Scan::Truncated, Data::Unknown) => Err(NeedMore),
        (_, found) => Ok(found),
    }
}

/// Member names that tell a kind apart, taken from the field tables.
struct Signs {
    /// Keys that only one kind's top-level model has.
    unique: Vec<(&'static str, Kind)>,
    /// Keys of a group layer that no top-level model has.
    layer_keys: HashSet<&'static str>,
    /// Every key of a top-level model.
    known: HashSet<&'static str>,
}

impl Signs {
    fn kind_of_key(&self, key: &str) -> Option<Kind> {
        self.unique
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, kind)| kind)
    }
}

static SIGNS: LazyLock<Signs> = LazyLock::new(|| {
    let names = |kind: Kind| kind.model().fields.iter().map(|f| f.name);
    let known: HashSet<&str> = Kind::ALL.iter().flat_map(|&k| names(k)).collect();
    let mut unique = Vec::new();
    for &kind in Kind::ALL {
        for name in names(kind) {
            let shared = Kind::ALL
                .iter()
                .any(|&other| other != kind && names(other).any(|n| n == name));
            if !shared {
                unique.push((name, kind));
            }
        }
    }
    let group = <crate::model::Group as crate::schema::Model>::model();
    let layer_keys = group
        .fields
        .iter()
        .map(|f| f.name)
        .filter(|name| !known.contains(name))
        .collect();
    Signs {
        unique,
        layer_keys,
        known,
    }
});

/// How a scan of an object's members ended.
#[derive(Debug, PartialEq, Eq)]
enum Scan {
    /// The visitor asked to stop.
    Stopped,
    /// At the object's end, or at something malformed (validation reports it).
    Done,
    /// The bytes end inside the object.
    Truncated,
}

/// Calls `visit(key, value_offset)` for each member of the object at `pos`
/// until it returns `true`. A string value is all there when it is called;
/// of an object or array value, only its first bytes may be.
fn for_members(bytes: &[u8], pos: usize, mut visit: impl FnMut(&str, usize) -> bool) -> Scan {
    let ws = |pos: &mut usize| {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(*pos) {
            *pos += 1;
        }
    };
    let cut = |at: usize| {
        if at >= bytes.len() {
            Scan::Truncated
        } else {
            Scan::Done
        }
    };
    let mut pos = pos + 1;
    loop {
        ws(&mut pos);
        if bytes.get(pos) != Some(&b'"') {
            return cut(pos);
        }
        let key_end = match skip_raw(bytes, pos) {
            Ok(end) => end,
            Err(at) => return cut(at),
        };
        let key = string_at(bytes, pos);
        pos = key_end;
        ws(&mut pos);
        if bytes.get(pos) != Some(&b':') {
            return cut(pos);
        }
        pos += 1;
        ws(&mut pos);
        // A string value (a tag) is read whole by the visitor.
        let scalar_cut = bytes.get(pos) == Some(&b'"')
            && skip_raw(bytes, pos).is_err_and(|at| at >= bytes.len());
        if pos >= bytes.len() || scalar_cut {
            return Scan::Truncated;
        }
        if visit(key.as_deref().unwrap_or(""), pos) {
            return Scan::Stopped;
        }
        pos = match skip_raw(bytes, pos) {
            Ok(end) => end,
            Err(at) => return cut(at),
        };
        ws(&mut pos);
        if bytes.get(pos) != Some(&b',') {
            return cut(pos);
        }
        pos += 1;
    }
}
