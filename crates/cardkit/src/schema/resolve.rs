//! What a user pastes into `cardkit explain`, resolved to the places of a
//! document kind: a JSON Pointer from the document's root, a pointer from
//! the file's root as reports give it (through the container the validator
//! found the document in), or a report's `Model.field`.
//!
//! ```
//! use cardkit::schema::resolve::resolve;
//! use cardkit::Kind;
//!
//! // A set of a catalog, `{"meta": …, "data": {"NEO": <Set>, …}}`.
//! let found = resolve(Kind::Set, "/data/NEO/cards/3/uuid").unwrap();
//! assert_eq!(found.places[0].pointer, "/cards/*/uuid");
//! let in_file = found.in_file.unwrap();
//! assert_eq!((in_file.document.as_str(), in_file.layout), ("/data/NEO", "catalog"));
//!
//! // A report's `field`: every place of the kind where it is.
//! let found = resolve(Kind::Set, "Identifiers.shopAId").unwrap();
//! assert_eq!(found.places.len(), 3);
//!
//! // A pointer without its leading `/`.
//! let error = resolve(Kind::Set, "cards/0/uuid").unwrap_err();
//! assert_eq!(error.nearest.as_deref(), Some("/cards/0/uuid"));
//! ```
//!
//! A pointer that names a field from the document's root is read so, as
//! [`lookup`](crate::schema::lookup::lookup) reads it. Otherwise the shapes
//! of file the validator recognises are tried, in this order, and the first
//! that names a field is taken:
//!
//! - `/data/…`: a wrapped document, `{"meta": …, "data": <document>}`;
//! - `/0/…` (an index): an item of an array, `[<document>, …]`;
//! - `/CODE/…` (sets only): a set of a code map, `{"CODE": <Set>, …}`;
//! - `/data/0/…` (an index): an item of a list object, `{"object": "list",
//!   "data": [<document>, …]}`;
//! - `/data/CODE/…` (sets only): a set of a catalog, `{"meta": …, "data":
//!   {"CODE": <Set>, …}}`.
//!
//! JSON Lines files hold one such value per line, each with pointers from
//! its own root. When no reading names a field, the error is that of the
//! reading that went furthest into the document (then, the one with a
//! suggestion; then the document's root), its suggestion written from the
//! file's root.

use serde::Serialize;

use crate::model::Kind;
use crate::model::Layout;
use crate::schema::fields::{escape_token, fields, Place};
use crate::schema::lookup::{is_index, lookup_tokens, parse, LookupError, Miss};
use crate::schema::words::nearest_name;

/// The places an input names, and where in a file the document is when the
/// input was a pointer from the file's root.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The places named: one, one per union branch that has the member, or
    /// (for `Model.field`) one per place the field is at.
    pub places: Vec<Place>,
    /// The container around the document, when the pointer went through
    /// one.
    pub in_file: Option<InFile>,
}

/// Where a document is in a file, for a pointer from the file's root.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InFile {
    /// The document's pointer in the file: `/data`, `/data/NEO`, `/0`, …
    pub document: String,
    /// How the file holds it, as `validate --format json` names layouts:
    /// `wrapped`, `catalog`, `code_map`, `list` or `array`.
    pub layout: &'static str,
    /// The rest of the pointer, from the document's root.
    pub pointer: String,
    /// All of it in words.
    pub text: String,
}

/// The model and the member of a report's `field` (`CardSet.language`),
/// when `input` is written as one: a model's name (letters and digits,
/// starting with a capital), a dot, and the member's name.
#[must_use]
pub fn as_field(input: &str) -> Option<(&str, &str)> {
    let (model, member) = input.split_once('.')?;
    let model_name = model.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && model.chars().all(|c| c.is_ascii_alphanumeric());
    (model_name && !member.is_empty()).then_some((model, member))
}

/// Resolves what `input` names in a document of `kind`: a pointer from the
/// document's root or from the file's root, or a `Model.field`.
///
/// # Errors
/// The input names no field: a malformed pointer (one without its leading
/// `/` suggests the pointer with it), a pointer that names nothing in any
/// reading, or a `Model.field` the kind does not have; each with the nearest
/// that does name something, when one is close.
pub fn resolve(kind: Kind, input: &str) -> Result<Resolved, LookupError> {
    if let Some((model, member)) = as_field(input) {
        let places = field_places(kind, input, model, member)?;
        return Ok(Resolved {
            places,
            in_file: None,
        });
    }
    let tokens = match parse(input) {
        Ok(tokens) => tokens,
        Err(reason) => {
            // `cards/0/uuid`: the pointer with its slash, if it names something.
            let corrected = format!("/{input}");
            let nearest = if input.starts_with('/') {
                None
            } else {
                match resolve(kind, &corrected) {
                    Ok(_) => Some(corrected),
                    Err(error) => error.nearest,
                }
            };
            return Err(LookupError {
                kind,
                pointer: input.to_owned(),
                reason,
                nearest,
            });
        }
    };
    let direct = match lookup_tokens(kind, input, &tokens) {
        Ok(places) => {
            return Ok(Resolved {
                places,
                in_file: None,
            })
        }
        Err(miss) => miss,
    };
    let mut furthest: Option<(InFile, Miss)> = None;
    for (prefix, layout) in readings(kind, &tokens) {
        let (outer, inner) = tokens.split_at(prefix);
        let pointer = joined(inner);
        let in_file = InFile::new(kind, joined(outer), layout, pointer.clone());
        match lookup_tokens(kind, &pointer, inner) {
            Ok(places) => {
                return Ok(Resolved {
                    places,
                    in_file: Some(in_file),
                })
            }
            Err(miss) => {
                let best = furthest.as_ref().map_or(&direct, |(_, m)| m);
                if miss.rank() > best.rank() {
                    furthest = Some((in_file, miss));
                }
            }
        }
    }
    Err(match furthest {
        None => direct.error,
        Some((in_file, miss)) => LookupError {
            kind,
            pointer: input.to_owned(),
            reason: format!("read as {}: {}", in_file.text, miss.error.reason),
            nearest: miss
                .error
                .nearest
                .map(|nearest| format!("{}{nearest}", in_file.document)),
        },
    })
}

/// The containers a pointer from a file's root may go through: how many of
/// its reference tokens are the container's, and which container. Only
/// readings that leave a pointer into the document are tried.
fn readings(kind: Kind, tokens: &[String]) -> Vec<(usize, Layout)> {
    // Catalogs and code maps are told by the sets they hold.
    let sets = kind == Kind::Set;
    let mut out = Vec::new();
    if let [first, _, ..] = tokens {
        if first == "data" {
            out.push((1, Layout::Wrapped));
        } else if is_index(first) {
            out.push((1, Layout::Array));
        } else if sets {
            out.push((1, Layout::CodeMap));
        }
    }
    if let [first, second, _, ..] = tokens {
        if first == "data" && is_index(second) {
            out.push((2, Layout::List));
        } else if first == "data" && sets {
            out.push((2, Layout::Catalog));
        }
    }
    out
}

/// Reference tokens as a pointer.
fn joined(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|token| format!("/{}", escape_token(token)))
        .collect()
}

impl InFile {
    fn new(kind: Kind, document: String, layout: Layout, pointer: String) -> Self {
        let model = kind.model().name;
        let what = match layout {
            Layout::Wrapped => {
                format!("the {kind} of a wrapped file ({{\"meta\": …, \"data\": <{model}>}})")
            }
            Layout::Catalog => format!(
                "a {kind} of a catalog ({{\"meta\": …, \"data\": {{\"<CODE>\": <{model}>, …}}}})"
            ),
            Layout::CodeMap => format!("a {kind} of a code map ({{\"<CODE>\": <{model}>, …}})"),
            Layout::List => format!(
                "an item of a list object ({{\"object\": \"list\", \"data\": [<{model}>, …]}})"
            ),
            Layout::Array | Layout::Bare => format!("an item of an array ([<{model}>, …])"),
        };
        let text = format!("{document} is {what}; within it, {pointer}");
        InFile {
            document,
            layout: layout.as_str(),
            pointer,
            text,
        }
    }
}

/// Every place of `kind` where `model`'s member `member` is.
fn field_places(
    kind: Kind,
    input: &str,
    model: &str,
    member: &str,
) -> Result<Vec<Place>, LookupError> {
    let all = fields(kind);
    let places: Vec<Place> = all
        .iter()
        // Items of lists, and where layers come back in layers, are the
        // field's own place again.
        .filter(|p| p.model == model && p.member.name() == member)
        .filter(|p| p.item.is_none() && p.repeats.is_none())
        .cloned()
        .collect();
    if !places.is_empty() {
        return Ok(places);
    }
    let mut models: Vec<&str> = all.iter().map(|p| p.model).collect();
    models.sort_unstable();
    models.dedup();
    let members_of = |model: &str| {
        let mut members: Vec<&str> = all
            .iter()
            .filter(|p| p.model == model)
            .map(|p| p.member.name())
            .collect();
        members.sort_unstable();
        members.dedup();
        members
    };
    let renamed = crate::table::names::spec_name(model, member)
        .filter(|spec| members_of(model).contains(spec));
    let (reason, nearest) = if let Some(spec) = renamed {
        (
            format!("{model} has no member `{member}` under the spec's names; `{member}` is the publishers' name of `{spec}`, read as it under --names auto (the default) or upstream"),
            Some(format!("{model}.{spec}")),
        )
    } else if models.contains(&model) {
        let nearest = nearest_name(members_of(model), member).map(|near| format!("{model}.{near}"));
        (format!("{model} has no member `{member}`"), nearest)
    } else {
        let nearest = nearest_name(models.iter().copied(), model)
            .filter(|near| members_of(near).contains(&member))
            .map(|near| format!("{near}.{member}"));
        (format!("no model of a {kind} is named `{model}`"), nearest)
    };
    Err(LookupError {
        kind,
        pointer: input.to_owned(),
        reason,
        nearest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_file(kind: Kind, input: &str) -> (String, &'static str, String) {
        let found = resolve(kind, input).unwrap_or_else(|e| panic!("{e}"));
        let in_file = found.in_file.expect("through a container");
        (
            in_file.document,
            in_file.layout,
            found.places[0].pointer.clone(),
        )
    }

    #[test]
    fn every_container_shape() {
        let cases = [
            (
                Kind::Set,
                "/data/cards/0/language",
                "/data",
                "wrapped",
                "/cards/*/language",
            ),
            (
                Kind::Set,
                "/data/NEO/cards/3/uuid",
                "/data/NEO",
                "catalog",
                "/cards/*/uuid",
            ),
            (
                Kind::Set,
                "/ARC/cards/0/uuid",
                "/ARC",
                "code_map",
                "/cards/*/uuid",
            ),
            (Kind::Migration, "/data/0/uri", "/data/0", "list", "/uri"),
            (Kind::Set, "/data/12/code", "/data/12", "list", "/code"),
            (Kind::Template, "/0/card/name", "/0", "array", "/card/name"),
            (
                Kind::Card,
                "/data/data/children/0/src",
                "/data",
                "wrapped",
                "/data/children/*/src",
            ),
            (Kind::Card, "/3/width", "/3", "array", "/width"),
        ];
        for (kind, input, document, layout, place) in cases {
            let found = in_file(kind, input);
            assert_eq!(
                found,
                (document.to_owned(), layout, place.to_owned()),
                "{input}"
            );
        }
        let text = resolve(Kind::Set, "/data/NEO/cards/3/uuid")
            .unwrap()
            .in_file
            .unwrap()
            .text;
        assert!(
            text.starts_with("/data/NEO is a set of a catalog"),
            "{text}"
        );
        assert!(text.ends_with("within it, /cards/3/uuid"), "{text}");
    }

    #[test]
    fn a_pointer_from_the_document_root_is_read_so_first() {
        // A card's own `data` is its top group, not a container.
        let found = resolve(Kind::Card, "/data/children/0/src").unwrap();
        assert!(found.in_file.is_none());
        assert_eq!(found.places[0].pointer, "/data/children/*/src");
        // Catalogs and code maps hold sets only.
        assert!(resolve(Kind::Migration, "/ABC/uri").is_err());
        assert!(resolve(Kind::Migration, "/data/ABC/uri").is_err());
        // A code alone is the whole document, not a field.
        let error = resolve(Kind::Set, "/nothingLikeIt").unwrap_err();
        assert!(error.nearest.is_none(), "{error}");
    }

    #[test]
    fn an_unknown_member_through_a_container_names_the_nearest_from_the_file_root() {
        let error = resolve(Kind::Set, "/data/cards/0/tokenSetCode").unwrap_err();
        assert!(
            error
                .reason
                .starts_with("read as /data is the set of a wrapped file"),
            "{error}"
        );
        assert!(
            error.to_string().contains("`/data/cards/0/tokenSetCode`"),
            "{error}"
        );
        let error = resolve(Kind::Set, "/ARC/tokenSetCode").unwrap_err();
        assert_eq!(error.nearest.as_deref(), Some("/ARC/tokenSetcode"));
        let error = resolve(Kind::Set, "/data/SET/cards/0/flavr").unwrap_err();
        assert_eq!(
            error.nearest.as_deref(),
            Some("/data/SET/cards/0/flavorText")
        );
        // Where the document's root reading goes as far, its error is kept.
        let error = resolve(Kind::Set, "/cards/uuid").unwrap_err();
        assert_eq!(error.nearest.as_deref(), Some("/cards/*/uuid"));
    }

    #[test]
    fn a_pointer_without_its_slash_suggests_it() {
        for (kind, input, nearest) in [
            (Kind::Set, "cards/0/uuid", Some("/cards/0/uuid")),
            (Kind::Set, "data/NEO/code", Some("/data/NEO/code")),
            (Kind::Migration, "uri", Some("/uri")),
            (Kind::Set, "cards/0/uuuid", Some("/cards/0/uuid")),
            (Kind::Set, "nothing/like/it", None),
        ] {
            let error = resolve(kind, input).unwrap_err();
            assert!(error.reason.contains("starts with `/`"), "{error}");
            assert_eq!(error.nearest.as_deref(), nearest, "{input}");
        }
    }

    #[test]
    fn model_field_at_each_place() {
        let found = resolve(Kind::Set, "CardSet.language").unwrap();
        let pointers: Vec<&str> = found.places.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(pointers, ["/cards/*/language"]);
        let found = resolve(Kind::Set, "Identifiers.shopAId").unwrap();
        let pointers: Vec<&str> = found.places.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/cards/*/identifiers/shopAId",
                "/sealedProduct/*/identifiers/shopAId",
                "/tokens/*/identifiers/shopAId"
            ]
        );
        // A union's tag, and a member of layers in layers, said once.
        assert_eq!(resolve(Kind::Card, "Layer.type").unwrap().places.len(), 1);
        assert!(!resolve(Kind::Template, "Text.color")
            .unwrap()
            .places
            .is_empty());
        let spaced = resolve(Kind::Set, "Translations.Portuguese (Brazil)").unwrap();
        assert_eq!(
            spaced.places[0].pointer,
            "/translations/Portuguese (Brazil)"
        );

        let error = resolve(Kind::Set, "Set.tokenSetCode").unwrap_err();
        assert_eq!(error.nearest.as_deref(), Some("Set.tokenSetcode"));
        assert!(
            error.reason.contains("Set has no member `tokenSetCode`"),
            "{error}"
        );
        let error = resolve(Kind::Set, "CardSett.language").unwrap_err();
        assert_eq!(error.nearest.as_deref(), Some("CardSet.language"));
        let error = resolve(Kind::Migration, "CardSet.language").unwrap_err();
        assert!(
            error
                .reason
                .contains("no model of a migration is named `CardSet`"),
            "{error}"
        );
    }

    #[test]
    fn what_reads_as_a_field() {
        assert_eq!(as_field("CardSet.language"), Some(("CardSet", "language")));
        assert_eq!(
            as_field("Translations.zh.hans"),
            Some(("Translations", "zh.hans"))
        );
        for input in [
            "/CardSet.language",
            "cards.0",
            "CardSet.",
            ".x",
            "Card Set.x",
            "code",
        ] {
            assert_eq!(as_field(input), None, "{input}");
        }
    }
}
