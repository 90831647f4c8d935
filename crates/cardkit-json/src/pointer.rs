//! JSON Pointers (RFC 6901) and the one pattern language over them, written
//! once for every crate: a reference token escaped (`~` as `~0`, `/` as
//! `~1`) and unescaped, a pointer split into its tokens, an array index, and
//! [`Pattern`]s where a token `*` stands for any one token and `**` for any
//! number of them (`/cards/*/purchaseUrls`, `/**/uuid`).

use std::borrow::Cow;
use std::fmt;

/// A reference token escaped: `~` → `~0`, `/` → `~1`.
#[must_use]
pub fn escape(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Appends `/` and `token`, escaped, to the pointer `out`.
#[inline]
pub fn push_token(out: &mut String, token: &str) {
    out.push('/');
    push_escaped(out, token);
}

/// Appends `token`, escaped, to the pointer `out` (after its `/`).
#[inline(always)]
pub fn push_escaped(out: &mut String, token: &str) {
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Appends `/` and the array index `index` to the pointer `out`, without
/// the formatting machinery (pointers are written for millions of values).
#[inline]
pub fn push_index(out: &mut String, index: usize) {
    out.push('/');
    out.push_str(itoa::Buffer::new().format(index));
}

/// `base` followed by one `token`, as a pointer.
#[must_use]
pub fn child(base: &str, token: &str) -> String {
    let mut out = base.to_owned();
    push_token(&mut out, token);
    out
}

/// `base` followed by `tokens`, as a pointer.
#[must_use]
pub fn join<T: AsRef<str>>(base: &str, tokens: &[T]) -> String {
    let mut out = base.to_owned();
    for token in tokens {
        push_token(&mut out, token.as_ref());
    }
    out
}

/// A reference token unescaped: `~1` → `/`, `~0` → `~` (in that order, so
/// `~01` is `~1`). A `~` followed by neither is kept as it is; [`check`]
/// refuses it where a pointer is read from a user.
#[must_use]
pub fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// The reference tokens of `pointer`, unescaped (none for `""`, the root).
///
/// # Errors
/// As [`check`].
pub fn tokens(pointer: &str) -> Result<Vec<Cow<'_, str>>, PointerError> {
    check(pointer)?;
    Ok(escaped_tokens(pointer).map(unescape).collect())
}

/// The reference tokens of a checked `pointer`, as written (escaped).
fn escaped_tokens(pointer: &str) -> impl Iterator<Item = &str> {
    pointer
        .strip_prefix('/')
        .into_iter()
        .flat_map(|rest| rest.split('/'))
}

/// Whether `pointer` is a JSON Pointer: `""`, or tokens each after a `/`,
/// where a `~` is followed by `0` or `1`.
///
/// # Errors
/// What is wrong, as a [`PointerError`].
pub fn check(pointer: &str) -> Result<(), PointerError> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(PointerError::NoSlash);
    }
    for token in escaped_tokens(pointer) {
        let mut rest = token;
        while let Some(at) = rest.find('~') {
            if !matches!(rest.as_bytes().get(at + 1), Some(b'0' | b'1')) {
                return Err(PointerError::Tilde {
                    token: token.to_owned(),
                });
            }
            rest = &rest[at + 2..];
        }
    }
    Ok(())
}

/// Why a text is no JSON Pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointerError {
    /// It does not start with `/` (and is not `""`).
    NoSlash,
    /// A `~` in `token` (as written) is followed by neither `0` nor `1`.
    Tilde {
        /// The token.
        token: String,
    },
}

impl fmt::Display for PointerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointerError::NoSlash => {
                f.write_str("a JSON Pointer starts with `/` (e.g. /cards/*/purchaseUrls)")
            }
            PointerError::Tilde { .. } => {
                f.write_str("`~` in a JSON Pointer is `~0` or `~1` (for `~` and `/`)")
            }
        }
    }
}

impl std::error::Error for PointerError {}

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

/// A pointer pattern: a JSON Pointer whose token `*` stands for any one
/// token and `**` for any number of tokens, none included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(Vec<Step>);

/// One token of a [`Pattern`].
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// This token (unescaped).
    Exact(String),
    /// `*`: any one token.
    One,
    /// `**`: any number of tokens.
    Any,
}

impl Pattern {
    /// Reads a pattern: a JSON Pointer ([`check`]) whose tokens `*` and
    /// `**` are wild.
    ///
    /// # Errors
    /// As [`check`].
    pub fn parse(text: &str) -> Result<Pattern, PointerError> {
        check(text)?;
        Ok(Pattern(
            escaped_tokens(text)
                .map(|token| match token {
                    "*" => Step::One,
                    "**" => Step::Any,
                    _ => Step::Exact(unescape(token).into_owned()),
                })
                .collect(),
        ))
    }

    /// Whether the pattern matches `pointer`, a JSON Pointer as written
    /// (escaped), read one token at a time: a diagnostic's pointer is not
    /// split into a list.
    #[must_use]
    pub fn matches_pointer(&self, pointer: &str) -> bool {
        match pointer.strip_prefix('/') {
            Some(tokens) => matches_written(&self.0, Some(tokens)),
            // The root, `""`: no token.
            None => pointer.is_empty() && matches_written(&self.0, None),
        }
    }

    /// The pattern as written.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        for step in &self.0 {
            match step {
                Step::Exact(token) => push_token(&mut out, token),
                Step::One => out.push_str("/*"),
                Step::Any => out.push_str("/**"),
            }
        }
        out
    }
}

/// The length of the first of `tokens` (as written), and the others.
fn split(tokens: &str) -> (usize, Option<&str>) {
    match tokens.split_once('/') {
        Some((first, rest)) => (first.len(), Some(rest)),
        None => (tokens.len(), None),
    }
}

/// Whether `steps` match the tokens of a pointer as written (`a/b~1c`;
/// `None` for none). A `**` tries each number of tokens in turn, so this
/// is at most quadratic in a pointer's depth, and linear without `**`.
fn matches_written(steps: &[Step], tokens: Option<&str>) -> bool {
    match steps.split_first() {
        None => tokens.is_none(),
        Some((Step::Any, rest)) => {
            let mut at = tokens;
            loop {
                if matches_written(rest, at) {
                    return true;
                }
                match at {
                    Some(tokens) => at = split(tokens).1,
                    None => return false,
                }
            }
        }
        Some((step, rest)) => match tokens {
            None => false,
            Some(tokens) => {
                let (length, others) = split(tokens);
                let here = match step {
                    Step::Exact(exact) => unescape(&tokens[..length]) == exact.as_str(),
                    _ => true,
                };
                here && matches_written(rest, others)
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_is_written_as_display_writes_it() {
        for index in [0, 7, 10, 1234, usize::MAX] {
            let mut pointer = String::from("/cards");
            push_index(&mut pointer, index);
            assert_eq!(pointer, format!("/cards/{index}"));
        }
    }

    #[test]
    fn tokens_are_escaped_and_unescaped_in_rfc_6901_order() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert_eq!(unescape("~01"), "~1");
        assert_eq!(join("/data", &["a/b", "~"]), "/data/a~1b/~0");
        assert_eq!(tokens("/a~1b/~0/").unwrap(), ["a/b", "~", ""]);
        assert!(tokens("").unwrap().is_empty());
        assert_eq!(tokens("cards"), Err(PointerError::NoSlash));
        for bad in ["/~", "/~2", "/cards/~x/id", "/a~"] {
            assert!(
                matches!(tokens(bad), Err(PointerError::Tilde { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn array_indexes_have_no_leading_zero() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("12"), Some(12));
        for no in ["01", "+1", "-0", "", "1a", "00"] {
            assert_eq!(array_index(no), None, "{no}");
        }
    }

    #[test]
    fn one_star_is_one_token_and_two_are_any_number() {
        let p = |text: &str| Pattern::parse(text).unwrap();
        assert!(p("/cards/*/purchaseUrls").matches_pointer("/cards/3/purchaseUrls"));
        assert!(!p("/cards/*/purchaseUrls").matches_pointer("/cards/3/purchaseUrls/x"));
        assert!(!p("/cards/*/purchaseUrls").matches_pointer("/cards/3/x/purchaseUrls"));
        assert!(!p("/cards/*/purchaseUrls").matches_pointer("/cards/3"));
        assert!(p("/**/purchaseUrls").matches_pointer("/cards/3/purchaseUrls"));
        assert!(p("/**/purchaseUrls").matches_pointer("/purchaseUrls"));
        assert!(p("/cards/**").matches_pointer("/cards"));
        assert!(p("/cards/**").matches_pointer("/cards/1/name"));
        assert!(!p("/cards/**").matches_pointer("/tokens/1"));
        assert!(p("/**").matches_pointer(""));
        assert!(p("/a~1b").matches_pointer("/a~1b"));
        assert_eq!(p("/a~1b/*/**").text(), "/a~1b/*/**");
    }
}
