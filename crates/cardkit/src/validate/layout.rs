//! How documents sit in a file (bare, wrapped, catalog, list, array), and how
//! `--kind auto` tells their kind. The rules are documented in the README.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::walker::skip_raw;
use super::Kind;
use crate::model::card::LAYERS as LAYER_TAG;

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

/// The layout of the value at `pos` and, for a single document, its kind
/// (`None`: cannot tell).
pub(crate) fn detect(text: &str, pos: usize, forced: Option<Kind>) -> (Layout, Option<Kind>) {
    match text.as_bytes().get(pos) {
        Some(b'[') => (Layout::Array, forced),
        Some(b'{') => match root(text, pos) {
            Guess::Kind(kind) => (Layout::Bare, forced.or(Some(kind))),
            Guess::Container(layout, kind) => (layout, forced.or(kind)),
            Guess::Unknown => (Layout::Bare, forced),
        },
        _ => (Layout::Bare, forced),
    }
}

/// The kind of a single document at `pos` (an element of a container).
pub(crate) fn kind_of(text: &str, pos: usize) -> Option<Kind> {
    match root(text, pos) {
        Guess::Kind(kind) => Some(kind),
        _ => None,
    }
}

enum Guess {
    Kind(Kind),
    Container(Layout, Option<Kind>),
    Unknown,
}

/// Reads the members of the object at `pos` until one decides what it is.
fn root(text: &str, pos: usize) -> Guess {
    let mut guess = Guess::Unknown;
    for_members(text, pos, |key, value_at| {
        match member(text, key, value_at) {
            Guess::Unknown => false,
            decided => {
                guess = decided;
                true
            }
        }
    });
    guess
}

/// What one member of an object says the object is, if anything.
fn member(text: &str, key: &str, value_at: usize) -> Guess {
    let signs = &*SIGNS;
    let first = text.as_bytes().get(value_at).copied();
    if key == "object" {
        return match string_at(text, value_at).as_deref() {
            Some("list") => Guess::Container(Layout::List, None),
            Some("migration") => Guess::Kind(Kind::Migration),
            _ => Guess::Unknown,
        };
    }
    if key == "data" {
        return match first {
            Some(b'[') => Guess::Container(Layout::List, None),
            Some(b'{') => match data(text, value_at) {
                Data::Document(kind) => Guess::Container(Layout::Wrapped, Some(kind)),
                Data::Layers => Guess::Kind(Kind::Card),
                Data::Sets => Guess::Container(Layout::Catalog, Some(Kind::Set)),
                Data::Unknown => Guess::Unknown,
            },
            _ => Guess::Unknown,
        };
    }
    if let Some(kind) = signs.kind_of_key(key) {
        return Guess::Kind(kind);
    }
    if first == Some(b'{')
        && !signs.known.contains(key)
        && kind_of(text, value_at) == Some(Kind::Set)
    {
        return Guess::Container(Layout::CodeMap, Some(Kind::Set));
    }
    Guess::Unknown
}

/// The kind a member beside a container's `data` says the whole object is: a
/// container was guessed from an early `data`, but a later member such as
/// `width` shows a document that merely has a `data` field.
pub(crate) fn contradicting_kind(text: &str, key: &str, value_at: usize) -> Option<Kind> {
    match member(text, key, value_at) {
        Guess::Kind(kind) => Some(kind),
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
fn data(text: &str, pos: usize) -> Data {
    let signs = &*SIGNS;
    let mut found = Data::Unknown;
    for_members(text, pos, |key, value_at| {
        // A set has a `type` too, but not one that names a layer kind.
        let layer_tag = key == LAYER_TAG.tag
            && string_at(text, value_at)
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
        let object = text.as_bytes().get(value_at) == Some(&b'{');
        if object && !signs.known.contains(key) {
            found = Data::Sets;
            return true;
        }
        false
    });
    found
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

/// Calls `visit(key, value_offset)` for each member of the object at `pos`
/// until it returns `true`; stops quietly at anything malformed (validation
/// reports it).
fn for_members(text: &str, pos: usize, mut visit: impl FnMut(&str, usize) -> bool) {
    let bytes = text.as_bytes();
    let ws = |pos: &mut usize| {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(*pos) {
            *pos += 1;
        }
    };
    let mut pos = pos + 1;
    loop {
        ws(&mut pos);
        if bytes.get(pos) != Some(&b'"') {
            return;
        }
        let Some(key_end) = skip_raw(bytes, pos) else {
            return;
        };
        let key = string_at(text, pos);
        pos = key_end;
        ws(&mut pos);
        if bytes.get(pos) != Some(&b':') {
            return;
        }
        pos += 1;
        ws(&mut pos);
        if visit(key.as_deref().unwrap_or(""), pos) {
            return;
        }
        let Some(value_end) = skip_raw(bytes, pos) else {
            return;
        };
        pos = value_end;
        ws(&mut pos);
        if bytes.get(pos) != Some(&b',') {
            return;
        }
        pos += 1;
    }
}

/// The decoded string at `at`, if one is there.
fn string_at(text: &str, at: usize) -> Option<String> {
    let end = skip_raw(text.as_bytes(), at)?;
    serde_json::from_str::<String>(text.get(at..end)?).ok()
}
