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
    let mut shown: String = text.chars().take(QUOTED_CHARS).collect();
    shown.push('…');
    if bytes.first() == Some(&b'"') {
        shown.push('"');
    }
    (shown, Some(chars))
}
