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
//! into layers in layers as the pointer does, up to the depth documents may
//! nest ([`MAX_DEPTH`] reference tokens); a deeper pointer names nothing.
//! Where the pointer goes into a union, every branch that has the member is
//! found (`/data/children/0/name` is the name of a group, an image or a text).
//!
//! A lookup takes time and memory in proportion to the pointer's length: the
//! patterns and branches of the ways of reading it share their prefixes, and
//! are written out only for the places found. Nested values that take the
//! same branch (a group in a group in a group) are one
//! [`Branch`](crate::schema::fields::Branch) with a
//! [`Run`](crate::schema::fields::Run), so a place's description grows with
//! its pointer, not with the square of it.

use std::borrow::Cow;

use cardkit_json::pointer::PointerError;
use std::fmt;

use crate::model::Kind;
use crate::schema::fields::Place;
use crate::table::MAX_DEPTH;

pub(crate) use walk::is_index;
use walk::Walk;

#[cfg(test)]
mod tests;
mod walk;

/// A pointer that names no field of the kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupError {
    /// The kind of document the pointer was looked up in.
    pub kind: Kind,
    /// The pointer asked for.
    pub pointer: String,
    /// Why it names nothing.
    pub reason: String,
    /// A pointer that does name something, when one is close.
    pub nearest: Option<String>,
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` names no field of a {}: {}",
            shortened(&self.pointer),
            self.kind,
            self.reason
        )?;
        if let Some(nearest) = &self.nearest {
            write!(f, "; did you mean `{nearest}`?")?;
        }
        Ok(())
    }
}

impl std::error::Error for LookupError {}

/// A pointer to show in a message: whole, or when it is very long, its
/// start and its end around `…`.
fn shortened(pointer: &str) -> std::borrow::Cow<'_, str> {
    const HEAD: usize = 80;
    const TAIL: usize = 40;
    let chars = pointer.chars().count();
    if chars <= 2 * (HEAD + TAIL) {
        return pointer.into();
    }
    let head: String = pointer.chars().take(HEAD).collect();
    let tail: String = pointer.chars().skip(chars - TAIL).collect();
    format!("{head}…{tail}").into()
}

/// The places that `pointer` names in a document of `kind`: one, or one per
/// union branch that has the member. Each place's `pointer` is the pattern
/// (list indexes as `*`).
///
/// # Errors
/// The pointer is malformed, deeper than documents may nest, or names no
/// field (with the nearest pointer that does, when one is close).
pub fn lookup(kind: Kind, pointer: &str) -> Result<Vec<Place>, LookupError> {
    let tokens = parse(pointer).map_err(|reason| LookupError {
        kind,
        pointer: pointer.to_owned(),
        reason,
        nearest: None,
    })?;
    lookup_tokens(kind, pointer, &tokens).map_err(|miss| miss.error)
}

/// A lookup that found nothing: why, and how many reference tokens led
/// somewhere before one did not (to tell which way of reading a pointer got
/// furthest).
pub(crate) struct Miss {
    pub error: LookupError,
    pub resolved: usize,
}

impl Miss {
    /// How good an explanation of the miss is: tokens that led somewhere,
    /// then whether there is a suggestion.
    pub fn rank(&self) -> (usize, bool) {
        (self.resolved, self.error.nearest.is_some())
    }
}

/// [`lookup`] of a pointer already split into its reference tokens;
/// `pointer` is how errors show it.
pub(crate) fn lookup_tokens(
    kind: Kind,
    pointer: &str,
    tokens: &[String],
) -> Result<Vec<Place>, Miss> {
    let error = |reason: String, nearest: Option<String>, resolved: usize| Miss {
        error: LookupError {
            kind,
            pointer: pointer.to_owned(),
            reason,
            nearest,
        },
        resolved,
    };
    if tokens.is_empty() {
        return Err(error(
            format!(
                "the empty pointer is the whole document (a {}); name a field, e.g. `/{}`",
                kind.model().name,
                kind.model().fields[0].name
            ),
            None,
            0,
        ));
    }
    if tokens.len() > MAX_DEPTH {
        return Err(error(
            format!(
                "the pointer is {} levels deep, deeper than documents may nest (at most \
                 {MAX_DEPTH} arrays and objects, one inside the next)",
                tokens.len()
            ),
            None,
            0,
        ));
    }
    let mut walk = Walk::new();
    match walk.follow(kind, tokens) {
        Ok(found) => Ok(found.iter().filter_map(|spot| walk.place(spot)).collect()),
        Err((spots, i)) => {
            let (reason, nearest) = walk.why_not(kind, &spots, tokens, i);
            Err(error(reason, nearest, i))
        }
    }
}

/// Splits an RFC 6901 pointer into its reference tokens, unescaped.
pub(crate) fn parse(pointer: &str) -> Result<Vec<String>, String> {
    match cardkit_json::pointer::tokens(pointer) {
        Ok(tokens) => Ok(tokens.into_iter().map(Cow::into_owned).collect()),
        Err(PointerError::NoSlash) => {
            Err("a JSON Pointer starts with `/`, e.g. `/name`".to_owned())
        }
        Err(PointerError::Tilde { token }) => Err(format!(
            "`~` must be followed by 0 or 1 in a JSON Pointer (`~0` is `~`, `~1` is `/`), in `{token}`"
        )),
    }
}
