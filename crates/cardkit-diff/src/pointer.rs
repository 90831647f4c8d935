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
    /// The text does not start with `/`, or has a `~` not followed by `0`
    /// or `1` (RFC 6901): a message saying so.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let Some(rest) = text.strip_prefix('/') else {
            return Err(format!(
                "`{text}` is not a JSON Pointer: it must start with `/` (e.g. /cards/*/purchaseUrls)"
            ));
        };
        let mut tokens = Vec::new();
        for token in rest.split('/') {
            let mut chars = token.chars();
            while let Some(c) = chars.next() {
                if c == '~' && !matches!(chars.next(), Some('0' | '1')) {
                    return Err(format!(
                        "`{text}` is not a JSON Pointer: `~` is written `~0` and `/` within a token `~1` (RFC 6901), and `{token}` has a `~` followed by neither"
                    ));
                }
            }
            tokens.push(unescape(token));
        }
        Ok(Pattern(tokens))
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

/// The array index a reference token names: digits without a leading
/// zero (RFC 6901: `0`, `12`; not `01`, `+1` or `-0`); `None` for any
/// other token, which names no item.
#[must_use]
pub fn array_index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
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

    #[test]
    fn malformed_escapes_are_refused_and_leading_zeros_are_no_index() {
        for bad in ["/~", "/~2", "/cards/~x/id", "/a~"] {
            assert!(Pattern::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Pattern::parse("/~01").unwrap().0, ["~1"]);
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("12"), Some(12));
        for no in ["01", "+1", "-0", "", "1a", "00"] {
            assert_eq!(array_index(no), None, "{no}");
        }
    }
}
