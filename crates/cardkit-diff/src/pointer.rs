//! Pointer patterns as diff and apply walk them (`/cards/*/purchaseUrls`:
//! `*` stands for any one reference token), read by the workspace's one
//! JSON Pointer module.

use std::borrow::Cow;

use cardkit_json::pointer::{self, PointerError};

/// A pointer pattern, split into reference tokens (unescaped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(pub Vec<String>);

impl Pattern {
    /// Reads `/a/*/b` (RFC 6901 escapes `~0`, `~1` in tokens; `*` alone is
    /// any token).
    ///
    /// # Errors
    /// The text does not start with `/`, or has a `~` not followed by `0`
    /// or `1` (RFC 6901): a message saying so.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        if text.is_empty() {
            return Err(format!("`{text}`: {}", PointerError::NoSlash));
        }
        let tokens = pointer::tokens(text).map_err(|e| format!("`{text}`: {e}"))?;
        Ok(Pattern(tokens.into_iter().map(Cow::into_owned).collect()))
    }

    /// The pattern matches `tokens` exactly (same length).
    #[must_use]
    pub fn matches<T: AsRef<str>>(&self, tokens: &[T]) -> bool {
        self.0.len() == tokens.len()
            && self
                .0
                .iter()
                .zip(tokens)
                .all(|(p, t)| p == "*" || p == t.as_ref())
    }

    /// The pattern as written.
    #[must_use]
    pub fn text(&self) -> String {
        self.0.iter().map(|t| format!("/{}", escape(t))).collect()
    }
}

pub use cardkit_json::pointer::{array_index, escape, join, unescape};

/// Patterns to leave out of a comparison (`--ignore`), set-relative.
#[derive(Debug, Clone, Default)]
pub struct Ignore(pub Vec<Pattern>);

impl Ignore {
    /// Whether the value at `tokens` (from the set's root) is left out.
    #[must_use]
    pub fn covers<T: AsRef<str>>(&self, tokens: &[T]) -> bool {
        self.0.iter().any(|p| p.matches(tokens))
    }

    /// Whether nothing is ignored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_one_token_per_star() {
        let p = Pattern::parse("/cards/*/purchaseUrls").unwrap();
        assert!(p.matches(&["cards", "3", "purchaseUrls"]));
        assert!(!p.matches(&["cards", "3", "purchaseUrls", "shopA"]));
        assert!(!p.matches(&["tokens", "3", "purchaseUrls"]));
        assert_eq!(Pattern::parse("/a~1b/~0").unwrap().0, ["a/b", "~"]);
        assert_eq!(join("/data", &["a/b", "~"]), "/data/a~1b/~0");
        assert!(Pattern::parse("cards").is_err());
    }

    #[test]
    fn malformed_escapes_are_refused_and_leading_zeros_are_no_index() {
        for bad in ["/~", "/~2", "/cards/~x/id", "/a~"] {
            assert!(Pattern::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Pattern::parse("/~01").unwrap().0, ["~1"]);
    }
}
