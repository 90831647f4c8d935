//! What was found where something else was expected, taken from the bytes
//! while they are at hand and kept short whatever the input holds.

use serde::Serialize;

/// The longest literal quoted in a report, in characters; longer ones are cut
/// with their length said.
pub const QUOTED_CHARS: usize = 40;

/// The byte (or character) found where a token was expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoundByte {
    /// The input ends there.
    End,
    /// A character.
    Char(char),
    /// A byte that starts no UTF-8 character.
    NotUtf8(u8),
}

impl FoundByte {
    /// What is at `at` of `bytes`.
    #[must_use]
    pub fn at(bytes: &[u8], at: usize) -> FoundByte {
        let Some(&first) = bytes.get(at) else {
            return FoundByte::End;
        };
        let width = match first {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        let end = (at + width).min(bytes.len());
        match std::str::from_utf8(&bytes[at..end])
            .ok()
            .and_then(|s| s.chars().next())
        {
            Some(c) => FoundByte::Char(c),
            None => FoundByte::NotUtf8(first),
        }
    }
}

/// A JSON value found where another was expected: its JSON type and, for
/// scalars, its literal as written (cut to [`QUOTED_CHARS`] characters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FoundValue {
    /// An object.
    Object,
    /// An array.
    Array,
    /// A string, with its literal (quotes and escapes as written).
    String {
        /// The literal, cut when long.
        literal: String,
        /// Its length in characters when it was cut.
        #[serde(skip_serializing_if = "Option::is_none")]
        cut_from: Option<usize>,
    },
    /// A number, with its literal.
    Number {
        /// The literal, cut when long.
        literal: String,
        /// Its length in characters when it was cut.
        #[serde(skip_serializing_if = "Option::is_none")]
        cut_from: Option<usize>,
    },
    /// `true` or `false`.
    Boolean {
        /// Which.
        value: bool,
    },
    /// `null`.
    Null,
    /// Nothing: the input ends.
    Nothing,
}

impl FoundValue {
    /// A number whose literal spans `bytes`.
    #[must_use]
    pub fn number(bytes: &[u8]) -> FoundValue {
        let (literal, cut_from) = cut(bytes);
        FoundValue::Number { literal, cut_from }
    }
}

/// The text of `bytes`, cut to [`QUOTED_CHARS`] characters (a string keeps
/// its closing quote); the length in characters when it was cut.
pub(super) fn cut(bytes: &[u8]) -> (String, Option<usize>) {
    // Only the start of a long literal is ever shown: decode no more of it.
    let head = &bytes[..bytes.len().min(4 * (QUOTED_CHARS + 3))];
    let text = String::from_utf8_lossy(head);
    let chars = if head.len() == bytes.len() {
        text.chars().count()
    } else {
        bytecount::num_chars(bytes)
    };
    if chars <= QUOTED_CHARS + 2 {
        return (text.into_owned(), None);
    }
    let end = if bytes.first() == Some(&b'"') {
        escape_boundary(&text)
    } else {
        text.char_indices()
            .nth(QUOTED_CHARS)
            .map_or(text.len(), |(at, _)| at)
    };
    let mut shown = text[..end].to_owned();
    shown.push('…');
    if bytes.first() == Some(&b'"') {
        shown.push('"');
    }
    (shown, Some(chars))
}

/// Where a string literal's text is cut: after at most [`QUOTED_CHARS`]
/// characters, never inside an escape (`\n`, `\u00e9`) nor between the two
/// halves of an escaped surrogate pair, so that what is shown reads as JSON.
fn escape_boundary(literal: &str) -> usize {
    let bytes = literal.as_bytes();
    let (mut at, mut chars) = (0, 0);
    while at < literal.len() {
        let width = match bytes[at] {
            b'\\' if bytes.get(at + 1) == Some(&b'u') => {
                let pair =
                    is_high_surrogate(&bytes[at..]) && bytes.get(at + 6..at + 8) == Some(b"\\u");
                if pair {
                    12
                } else {
                    6
                }
            }
            b'\\' => 2,
            _ => literal[at..].chars().next().map_or(1, char::len_utf8),
        };
        let width = width.min(literal.len() - at);
        let counted = literal[at..at + width].chars().count();
        if chars + counted > QUOTED_CHARS {
            break;
        }
        chars += counted;
        at += width;
    }
    at
}

/// Whether `escape` (`\uXXXX…`) writes the first half of a surrogate pair.
fn is_high_surrogate(escape: &[u8]) -> bool {
    escape
        .get(2..6)
        .and_then(|hex| std::str::from_utf8(hex).ok())
        .and_then(|hex| u16::from_str_radix(hex, 16).ok())
        .is_some_and(|unit| (0xD800..0xDC00).contains(&unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_string_is_cut_between_escapes() {
        // 39 characters, then an escape that would straddle the 40th.
        let literal = format!("\"{}\\u00e9{}\"", "a".repeat(38), "b".repeat(20));
        let (shown, whole) = cut(literal.as_bytes());
        assert_eq!(shown, format!("\"{}…\"", "a".repeat(38)));
        assert_eq!(whole, Some(literal.chars().count()));
        // An escaped surrogate pair is kept whole or not at all.
        let literal = format!("\"{}\\ud83d\\ude00{}\"", "a".repeat(30), "b".repeat(20));
        let (shown, _) = cut(literal.as_bytes());
        assert_eq!(shown, format!("\"{}…\"", "a".repeat(30)));
        // A short escape at the end is kept when it fits.
        let literal = format!("\"{}\\n{}\"", "a".repeat(37), "b".repeat(20));
        let (shown, _) = cut(literal.as_bytes());
        assert_eq!(shown, format!("\"{}\\n…\"", "a".repeat(37)));
        // Numbers are cut by characters as before.
        let (shown, whole) = cut("1".repeat(50).as_bytes());
        assert_eq!(shown, format!("{}…", "1".repeat(40)));
        assert_eq!(whole, Some(50));
    }
}
