//! Finding the field at a JSON Pointer of a document kind:
//! `/cards/3/identifiers/shopAId` and `/cards/*/identifiers/shopAId` both
//! name `Identifiers.shopAId`.
//!
//! ```
//! use cardkit::schema::lookup::lookup;
//! use cardkit::Kind;
//!
//! let found = lookup(Kind::Set, "/cards/3/identifiers/shopAId").unwrap();
//! assert_eq!(found[0].pointer, "/cards/*/identifiers/shopAId");
//! assert_eq!(found[0].model, "Identifiers");
//!
//! let error = lookup(Kind::Set, "/cards/0/identifiers/shopAid").unwrap_err();
//! assert_eq!(error.nearest.as_deref(), Some("/cards/0/identifiers/shopAId"));
//! ```
//!
//! The pointer follows RFC 6901 (`~1` is `/`, `~0` is `~`); a list item is
//! named by its index or by `*`. Lookups follow the types, so they go as deep
//! into layers in layers as the pointer does. Where the pointer goes into a
//! union, every branch that has the member is found (`/data/children/0/name`
//! is the name of a group, an image or a text).

use std::fmt;

use crate::model::Kind;
use crate::schema::fields::{escape_token, Branch, Choice, Member, Place};
use crate::schema::words::{nearest_name, type_words};
use crate::schema::{ModelDef, Type};

/// A pointer that names no field of the kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupError {
    /// The pointer asked for.
    pub pointer: String,
    /// Why it names nothing.
    pub reason: String,
    /// A pointer that does name something, when one is close.
    pub nearest: Option<String>,
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.pointer, self.reason)?;
        if let Some(nearest) = &self.nearest {
            write!(f, "; did you mean `{nearest}`?")?;
        }
        Ok(())
    }
}

impl std::error::Error for LookupError {}

/// The places that `pointer` names in a document of `kind`: one, or one per
/// union branch that has the member. Each place's `pointer` is the pattern
/// (list indexes as `*`).
///
/// # Errors
/// The pointer is malformed, or names no field (with the nearest pointer that
/// does, when one is close).
pub fn lookup(kind: Kind, pointer: &str) -> Result<Vec<Place>, LookupError> {
    let error = |reason: String, nearest: Option<String>| LookupError {
        pointer: pointer.to_owned(),
        reason,
        nearest,
    };
    let tokens = parse(pointer).map_err(|reason| error(reason, None))?;
    if tokens.is_empty() {
        return Err(error(
            format!(
                "the empty pointer is the whole document (a {}); name a field, e.g. `/{}`",
                kind.model().name,
                kind.model().fields[0].name
            ),
            None,
        ));
    }
    let mut here = vec![Spot {
        value: Value::Model(kind.model(), None),
        place: None,
        branches: Vec::new(),
        pattern: String::new(),
    }];
    for (i, token) in tokens.iter().enumerate() {
        let spots = expand(here);
        let next: Vec<Spot> = spots.iter().filter_map(|spot| step(spot, token)).collect();
        if next.is_empty() {
            let (reason, nearest) = why_not(kind, &spots, &tokens, i);
            return Err(error(reason, nearest));
        }
        here = next;
    }
    Ok(here.into_iter().filter_map(|spot| spot.place).collect())
}

/// Splits an RFC 6901 pointer into its reference tokens, unescaped.
fn parse(pointer: &str) -> Result<Vec<String>, String> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err("a JSON Pointer starts with `/`, e.g. `/name`".to_owned());
    };
    rest.split('/')
        .map(|token| {
            let mut out = String::new();
            let mut chars = token.chars();
            while let Some(c) = chars.next() {
                match (c, c == '~') {
                    (_, false) => out.push(c),
                    (_, true) => match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => {
                            return Err(format!(
                                "`~` must be followed by 0 or 1 in a JSON Pointer (`~0` is `~`, \
                                 `~1` is `/`), in `{token}`"
                            ))
                        }
                    },
                }
            }
            Ok(out)
        })
        .collect()
}

/// What is at a spot of the document.
#[derive(Clone, Copy)]
enum Value {
    /// An object of a model; the tag member of the union it is a branch of.
    Model(&'static ModelDef, Option<&'static str>),
    /// A value of a type.
    Type(&'static Type),
    /// A union's tag value: a string.
    Tag,
}

/// One way to read the pointer so far.
#[derive(Clone)]
struct Spot {
    value: Value,
    /// The place so far (`None` at the root).
    place: Option<Place>,
    branches: Vec<Branch>,
    pattern: String,
}

/// Replaces unions by their branches, and models by their objects.
fn expand(spots: Vec<Spot>) -> Vec<Spot> {
    fn one(spot: Spot, out: &mut Vec<Spot>) {
        match spot.value {
            Value::Type(Type::Model { model }) => one(
                Spot {
                    value: Value::Model(model(), None),
                    ..spot
                },
                out,
            ),
            Value::Type(Type::Tagged(union)) => {
                // The tag member itself, then each branch.
                out.push(spot.clone());
                for &(value, model) in union.variants {
                    let mut branches = spot.branches.clone();
                    if union.variants.len() > 1 {
                        branches.push(Branch {
                            at: spot.pattern.clone(),
                            choice: Choice::Tag { union, value },
                        });
                    }
                    out.push(Spot {
                        value: Value::Model(model(), Some(union.tag)),
                        branches,
                        ..spot.clone()
                    });
                }
            }
            Value::Type(Type::AnyOf { name, types }) => {
                for &ty in *types {
                    let mut branches = spot.branches.clone();
                    branches.push(Branch {
                        at: spot.pattern.clone(),
                        choice: Choice::Shape { union: name, ty },
                    });
                    one(
                        Spot {
                            value: Value::Type(ty),
                            branches,
                            ..spot.clone()
                        },
                        out,
                    );
                }
            }
            _ => out.push(spot),
        }
    }
    let mut out = Vec::new();
    for spot in spots {
        one(spot, &mut out);
    }
    out
}

/// The spot that `token` leads to from `spot`, if any.
fn step(spot: &Spot, token: &str) -> Option<Spot> {
    match spot.value {
        Value::Model(model, tag) => {
            let (_, field) = model.field(token).filter(|_| tag != Some(token))?;
            Some(Spot {
                value: Value::Type(field.ty),
                place: Some(Place {
                    pointer: format!("{}/{}", spot.pattern, escape_token(token)),
                    model: model.name,
                    member: Member::Field(field),
                    item: None,
                    branches: spot.branches.clone(),
                    repeats: None,
                }),
                branches: spot.branches.clone(),
                pattern: format!("{}/{}", spot.pattern, escape_token(token)),
            })
        }
        Value::Type(Type::Tagged(union)) if token == union.tag => {
            let pattern = format!("{}/{}", spot.pattern, escape_token(token));
            Some(Spot {
                value: Value::Tag,
                place: Some(Place {
                    pointer: pattern.clone(),
                    model: union.name,
                    member: Member::Tag(union),
                    item: None,
                    branches: spot.branches.clone(),
                    repeats: None,
                }),
                branches: spot.branches.clone(),
                pattern,
            })
        }
        Value::Type(Type::List { item }) if is_index(token) => {
            let pattern = format!("{}/*", spot.pattern);
            let place = spot.place.clone().map(|place| Place {
                pointer: pattern.clone(),
                item: Some(item),
                branches: spot.branches.clone(),
                ..place
            });
            Some(Spot {
                value: Value::Type(item),
                place,
                branches: spot.branches.clone(),
                pattern,
            })
        }
        _ => None,
    }
}

/// `*` or an array index as RFC 6901 writes it (no leading zeros).
fn is_index(token: &str) -> bool {
    token == "*"
        || token == "0"
        || (!token.is_empty()
            && !token.starts_with('0')
            && token.bytes().all(|b| b.is_ascii_digit()))
}

/// Why token `i` leads nowhere from `spots`, and the nearest pointer that
/// names something.
fn why_not(kind: Kind, spots: &[Spot], tokens: &[String], i: usize) -> (String, Option<String>) {
    let token = &tokens[i];
    let at = if spots[0].pattern.is_empty() {
        "the document".to_owned()
    } else {
        format!("`{}`", spots[0].pattern)
    };
    let with = |replacement: &str| {
        let mut tokens = tokens.to_vec();
        tokens[i] = replacement.to_owned();
        tokens
    };
    let names = |tokens: &[String]| -> String {
        tokens
            .iter()
            .map(|t| format!("/{}", escape_token(t)))
            .collect()
    };
    let resolves = |tokens: &[String]| lookup(kind, &names(tokens)).is_ok();

    let lists = spots
        .iter()
        .any(|s| matches!(s.value, Value::Type(Type::List { .. })));
    if lists {
        // `/cards/uuid`: the item index is missing.
        let mut inserted = tokens.to_vec();
        inserted.insert(i, "*".to_owned());
        let nearest = resolves(&inserted).then(|| names(&inserted));
        return (
            format!("{at} is a list: its items are named by index or `*`, not `{token}`"),
            nearest,
        );
    }
    let mut known: Vec<&'static str> = Vec::new();
    for spot in spots {
        match spot.value {
            Value::Model(model, tag) => known.extend(
                model
                    .fields
                    .iter()
                    .map(|f| f.name)
                    .filter(|name| Some(*name) != tag),
            ),
            Value::Type(Type::Tagged(union)) => known.push(union.tag),
            _ => {}
        }
    }
    if known.is_empty() {
        let what = match spots[0].value {
            Value::Type(Type::FreeObject) => {
                "a free-form object: the spec does not show its members".to_owned()
            }
            Value::Type(ty) => format!("{}: it has no members", type_words(ty)),
            _ => "a string: it has no members".to_owned(),
        };
        return (format!("{at} is {what}"), None);
    }
    known.sort_unstable();
    known.dedup();
    let nearest = nearest_name(known.iter().copied(), token).map(|name| {
        let full = with(name);
        if resolves(&full) {
            names(&full)
        } else {
            names(&with(name)[..=i])
        }
    });
    let owner = match spots[0].value {
        Value::Model(model, _) if spots.len() == 1 => model.name.to_owned(),
        _ => "its shapes".to_owned(),
    };
    (
        format!(
            "{at} has no member `{token}` ({owner} has {})",
            list(&known)
        ),
        nearest,
    )
}

fn list(names: &[&str]) -> String {
    const SHOWN: usize = 12;
    let mut quoted: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
    if names.len() > SHOWN {
        quoted.push(format!("and {} more", names.len() - SHOWN));
    }
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(kind: Kind, pointer: &str) -> Place {
        let found = lookup(kind, pointer).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found.len(), 1, "{pointer}");
        found.into_iter().next().unwrap()
    }

    #[test]
    fn indexes_and_stars_name_the_same_field() {
        for pointer in [
            "/cards/3/identifiers/shopAId",
            "/cards/*/identifiers/shopAId",
        ] {
            let place = one(Kind::Set, pointer);
            assert_eq!(place.pointer, "/cards/*/identifiers/shopAId");
            assert_eq!(place.model, "Identifiers");
            assert_eq!(place.member.name(), "shopAId");
            assert!(place.item.is_none());
        }
    }

    #[test]
    fn escapes_and_keys_with_spaces() {
        let place = one(Kind::Set, "/translations/Portuguese (Brazil)");
        assert_eq!(place.model, "Translations");
        assert!(lookup(Kind::Set, "/translations/Portuguese ~1Brazil").is_err());
        let error = lookup(Kind::Set, "/code~2").unwrap_err();
        assert!(
            error.reason.contains("`~` must be followed by 0 or 1"),
            "{error}"
        );
        let error = lookup(Kind::Set, "code").unwrap_err();
        assert!(error.reason.contains("starts with `/`"), "{error}");
        // `~1` and `~0` decode before the name is looked up.
        let error = lookup(Kind::Set, "/co~1de").unwrap_err();
        assert!(error.reason.contains("no member `co/de`"), "{error}");
    }

    #[test]
    fn items_tags_and_recursion() {
        let item = one(Kind::Set, "/cards/0");
        assert_eq!(item.pointer, "/cards/*");
        assert_eq!(item.member.name(), "cards");
        assert!(matches!(item.item, Some(Type::Model { .. })));

        let tag = one(Kind::Card, "/data/children/2/type");
        assert!(matches!(tag.member, Member::Tag(union) if union.name == "Layer"));

        let deep = one(
            Kind::Template,
            "/card/data/children/0/children/1/children/*/src",
        );
        assert_eq!(deep.model, "Image");
        assert_eq!(
            deep.pointer,
            "/card/data/children/*/children/*/children/*/src"
        );
        assert_eq!(deep.branches.len(), 3);

        let names = lookup(Kind::Card, "/data/children/0/name").unwrap();
        let models: Vec<&str> = names.iter().map(|p| p.model).collect();
        assert_eq!(models, ["Group", "Image", "Text"]);

        let symbol = one(Kind::Template, "/context/symbolSets/0/symbols/1/name/0");
        assert_eq!(symbol.member.name(), "name");
        assert!(matches!(symbol.item, Some(Type::String { format: None })));
        assert_eq!(
            symbol.branches.len(),
            1,
            "the list alternative of SymbolName"
        );

        let shadow_x = lookup(Kind::Card, "/data/children/0/filters/0/x").unwrap();
        assert_eq!(
            shadow_x.len(),
            2,
            "image filters by tag, text filters by shape"
        );
        assert!(shadow_x.iter().all(|p| p.model == "FilterShadow"));
    }

    #[test]
    fn unknown_pointers_name_the_nearest() {
        let error = lookup(Kind::Set, "/cards/0/identifiers/shopAid").unwrap_err();
        assert_eq!(
            error.nearest.as_deref(),
            Some("/cards/0/identifiers/shopAId")
        );
        let error = lookup(Kind::Set, "/tokenSetCode").unwrap_err();
        assert_eq!(error.nearest.as_deref(), Some("/tokenSetcode"));
        let error = lookup(Kind::Set, "/cards/uuid").unwrap_err();
        assert_eq!(error.nearest.as_deref(), Some("/cards/*/uuid"));
        let error = lookup(Kind::Set, "/cdoe/x").unwrap_err();
        assert_eq!(error.nearest.as_deref(), Some("/code"));
        // The validator's threshold: `codd` is not near enough to `code`.
        let error = lookup(Kind::Set, "/codd/x").unwrap_err();
        assert_eq!(error.nearest, None);
        let error = lookup(Kind::Set, "/zzzzzz").unwrap_err();
        assert_eq!(error.nearest, None);
        let error = lookup(Kind::Set, "/code/x").unwrap_err();
        assert!(error.reason.contains("no members"), "{error}");
        let error = lookup(Kind::Set, "/booster/x").unwrap_err();
        assert!(error.reason.contains("free-form"), "{error}");
        assert!(lookup(Kind::Set, "").is_err());
        assert!(lookup(Kind::Set, "/cards/01/uuid").is_err());
    }
}
