//! JSON Pointers and pointer patterns (`/cards/*/purchaseUrls`: `*` stands
//! for any one reference token).

/// A pointer pattern, split into reference tokens (unescaped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(pub Vec<String>);

impl Pattern {
    /// Reads `/a/*/b` (RFC 6901 escapes `~0`, `~1` in tokens; `*` alone is
    /// any token).
    ///
    /// # Errors
    /// The text does not start with `/` (a message saying so).
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let Some(rest) = text.strip_prefix('/') else {
            return Err(format!(
                "`{text}` is not a JSON Pointer: it must start with `/` (e.g. /cards/*/purchaseUrls)"
            ));
        };
        Ok(Pattern(rest.split('/').map(unescape).collect()))
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

/// `~1` → `/`, `~0` → `~`.
#[must_use]
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// `~` → `~0`, `/` → `~1`.
#[must_use]
pub fn escape(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_owned()
    }
}

/// `base` followed by `tokens`, as a pointer.
#[must_use]
pub fn join<T: AsRef<str>>(base: &str, tokens: &[T]) -> String {
    let mut out = base.to_owned();
    for token in tokens {
        out.push('/');
        out.push_str(&escape(token.as_ref()));
    }
    out
}

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
}
