//! How documents sit in a file (bare, wrapped, catalog, list, array), and how
//! `--kind auto` tells their kind. The rules are documented in the README.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::model::card::LAYERS as LAYER_TAG;
use crate::model::Kind;
use crate::model::Layout;
use cardkit_json::{skip_raw, Scanner};

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
        Some(b'{') => match root(bytes, pos, complete, Depth::Root)? {
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
    match root(bytes, pos, true, Depth::Root) {
        Ok(Guess::Kind(kind)) => Some(kind),
        _ => None,
    }
}

enum Guess {
    Kind(Kind),
    Container(Layout, Option<Kind>),
    Unknown,
}

/// Whether the object being read is the root, or a member's value looked
/// at to tell a code map: a code map's values are sets, not code maps, so
/// that look goes no deeper, and every input is read a bounded number of
/// times whatever its nesting.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Depth {
    Root,
    MemberValue,
}

/// Reads the members of the object at `pos` until one decides what it is. A
/// container decided by an early `data` gives way to a later member that
/// names a document kind (`{"data": [], "width": 5, ...}` is a card), when
/// the whole object is at hand.
fn root(bytes: &[u8], pos: usize, complete: bool, depth: Depth) -> Result<Guess, NeedMore> {
    let mut guess = Guess::Unknown;
    let mut members = Scanner::new(bytes, pos).members();
    for member in members.by_ref() {
        // A string value (a tag) must be whole to be read.
        let value = &bytes[member.value_at..];
        let cut = value.is_empty()
            || (value[0] == b'"'
                && skip_raw(bytes, member.value_at).is_err_and(|at| at >= bytes.len()));
        if cut {
            if complete {
                break;
            }
            return Err(NeedMore);
        }
        let said = match self::member(bytes, &member.name, member.value_at, complete, depth) {
            Ok(said) => said,
            Err(NeedMore) if complete => Guess::Unknown,
            Err(NeedMore) => return Err(NeedMore),
        };
        let stop = match (&guess, said) {
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
        };
        if stop {
            return Ok(guess);
        }
    }
    let undecided = members.cut_short() && matches!(guess, Guess::Unknown);
    if !complete && undecided {
        return Err(NeedMore);
    }
    Ok(guess)
}

/// What one member of an object says the object is, if anything.
fn member(
    bytes: &[u8],
    key: &str,
    value_at: usize,
    complete: bool,
    depth: Depth,
) -> Result<Guess, NeedMore> {
    let signs = &*SIGNS;
    let first = bytes.get(value_at).copied();
    if key == "object" {
        return Ok(
            match Scanner::new(bytes, value_at).string_here().as_deref() {
                Some("list") => Guess::Container(Layout::List, None),
                Some("migration") => Guess::Kind(Kind::Migration),
                _ => Guess::Unknown,
            },
        );
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
        return Ok(match key {
            COMMON_TYPE => Guess::Unknown,
            COMMON_DEPENDENCIES => dependencies(bytes, value_at, complete)?,
            _ => Guess::Kind(kind),
        });
    }
    let unknown_object = first == Some(b'{') && !signs.known.contains(key);
    if unknown_object && depth == Depth::Root {
        if let Guess::Kind(Kind::Set) = root(bytes, value_at, complete, Depth::MemberValue)? {
            return Ok(Guess::Container(Layout::CodeMap, Some(Kind::Set)));
        }
    }
    Ok(Guess::Unknown)
}

/// Members that only one kind's top-level model has, but that other JSON
/// files have too: a package manifest's (`package.json`) `type` and
/// `dependencies`. `type` tells nothing on its own (a set has members that
/// do); `dependencies` tells a card design only when it holds the spec's
/// `Dependencies` members.
const COMMON_TYPE: &str = "type";
const COMMON_DEPENDENCIES: &str = "dependencies";

/// What a root's `dependencies` at `value_at` says: a card design when it
/// is an object of `Dependencies` members (`extensions`, `template`) or no
/// object at all (a card's `dependencies` of the wrong type); nothing when
/// it is empty or holds other members (a package's `{"lodash": "^4"}`).
fn dependencies(bytes: &[u8], value_at: usize, complete: bool) -> Result<Guess, NeedMore> {
    if bytes.get(value_at) != Some(&b'{') {
        return Ok(Guess::Kind(Kind::Card));
    }
    let fields = <crate::model::Dependencies as crate::schema::Model>::model().fields;
    let mut members = Scanner::new(bytes, value_at).members();
    let mut any = false;
    for member in members.by_ref() {
        if !fields.iter().any(|field| field.name == member.name) {
            return Ok(Guess::Unknown);
        }
        any = true;
    }
    if members.cut_short() && !complete {
        return Err(NeedMore);
    }
    Ok(if any {
        Guess::Kind(Kind::Card)
    } else {
        Guess::Unknown
    })
}

/// The kind a member beside a container's `data` says the whole object is,
/// when the container was decided before that member could be seen.
pub(crate) fn contradicting_kind(bytes: &[u8], key: &str, value_at: usize) -> Option<Kind> {
    match member(bytes, key, value_at, true, Depth::Root) {
        Ok(Guess::Kind(kind)) => Some(kind),
        _ => None,
    }
}

/// The container that a root object's `data` at `value_at` makes of it, if
/// any.
pub(crate) fn data_layout(
    bytes: &[u8],
    value_at: usize,
) -> Result<Option<(Layout, Option<Kind>)>, NeedMore> {
    Ok(match member(bytes, "data", value_at, false, Depth::Root)? {
        Guess::Container(layout, kind) => Some((layout, kind)),
        Guess::Kind(_) | Guess::Unknown => None,
    })
}

/// Whether the object at `pos` has members, and every one of them, as far
/// as the bytes go, is no field of any document (such as `meta`).
pub(crate) fn only_foreign_members(bytes: &[u8], pos: usize) -> bool {
    let mut any = false;
    let all_foreign = Scanner::new(bytes, pos).members().all(|member| {
        any = true;
        !is_document_field(&member.name)
    });
    any && all_foreign
}

/// Whether `key` is a field of some document kind's top-level model.
pub(crate) fn is_document_field(key: &str) -> bool {
    SIGNS.known.contains(key)
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
    let mut members = Scanner::new(bytes, pos).members();
    for member in members.by_ref() {
        let key = member.name.as_ref();
        // A set has a `type` too, but not one that names a layer kind.
        if key == LAYER_TAG.tag {
            let tag = Scanner::new(bytes, member.value_at).string_here();
            let cut = tag.is_none()
                && bytes.get(member.value_at) == Some(&b'"')
                && skip_raw(bytes, member.value_at).is_err_and(|at| at >= bytes.len());
            if cut {
                return Err(NeedMore);
            }
            let layer_tag =
                tag.is_some_and(|tag| LAYER_TAG.variants.iter().any(|(t, _)| *t == tag));
            if layer_tag {
                return Ok(Data::Layers);
            }
        }
        if member.value_at >= bytes.len() {
            return Err(NeedMore);
        }
        if let Some(kind) = signs.kind_of_key(key) {
            return Ok(Data::Document(kind));
        }
        if signs.layer_keys.contains(key) {
            return Ok(Data::Layers);
        }
        let object = bytes.get(member.value_at) == Some(&b'{');
        if object && !signs.known.contains(key) {
            return Ok(Data::Sets);
        }
    }
    if members.cut_short() {
        return Err(NeedMore);
    }
    Ok(Data::Unknown)
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

/// Whether the kind of an input's first document can be told from `head`,
/// the input's first bytes (`complete`: all of them; `json_lines`: one
/// document or container per line). `false` when it cannot: the first
/// document's members name no kind (a `package.json`), the items of an
/// array are no objects, or the input is no JSON where it starts
/// (comments, text, nothing). `true` when it can, or may be past `head`;
/// for an empty array, a container of no documents; and for UTF-16, which
/// the validator reports as such.
#[doc(hidden)]
pub fn first_kind_told(head: &[u8], complete: bool, json_lines: bool) -> bool {
    let head = head.strip_prefix(cardkit_json::BOM).unwrap_or(head);
    if cardkit_json::utf16(head).is_some() {
        return true;
    }
    let (bytes, complete) = if json_lines {
        // The first line that is not blank: whole when its newline is in
        // `head`, or `head` is the whole input.
        let mut rest = head;
        loop {
            match rest.iter().position(|&b| b == b'\n') {
                Some(end) if rest[..end].trim_ascii().is_empty() => rest = &rest[end + 1..],
                Some(end) => break (&rest[..end], true),
                None if rest.trim_ascii().is_empty() => return !complete,
                None => break (rest, complete),
            }
        }
    } else {
        (head, complete)
    };
    let Some(pos) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
        return !complete;
    };
    let first = match bytes[pos] {
        b'{' => pos,
        b'[' => match bytes[pos + 1..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
        {
            Some(at) if bytes[pos + 1 + at] == b'{' => pos + 1 + at,
            // An empty array is a container of no documents (a day's feed
            // of migrations with none): it is checked.
            Some(at) if bytes[pos + 1 + at] == b']' => return true,
            // Items that are no objects.
            Some(_) => return false,
            None => return !complete,
        },
        _ => return false,
    };
    match root(bytes, first, complete, Depth::Root) {
        Ok(Guess::Kind(_)) => true,
        // An array's item is a document only by its own members.
        Ok(Guess::Container(..)) => first == pos,
        Ok(Guess::Unknown) => false,
        Err(NeedMore) => true,
    }
}
