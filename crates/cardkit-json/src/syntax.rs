//! What is wrong with malformed JSON, as data: [`Syntax`], what was
//! expected ([`Expect`]) and where ([`SyntaxError`]); and the encodings that
//! are not UTF-8, told from an input's first bytes.

use super::found::{FoundByte, FoundValue};

/// The UTF-8 byte order mark, skipped at the start of an input.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether `bytes`, the start of an input, are UTF-16 rather than UTF-8:
/// a UTF-16 byte order mark, or two ASCII characters each beside a zero
/// byte.
#[must_use]
pub fn utf16(bytes: &[u8]) -> Option<Syntax> {
    match bytes {
        [0xFF, 0xFE, ..] => Some(Syntax::Utf16 {
            big_endian: false,
            bom: true,
        }),
        [0xFE, 0xFF, ..] => Some(Syntax::Utf16 {
            big_endian: true,
            bom: true,
        }),
        [a, 0, b, 0, ..] if ascii_nonzero(*a) && ascii_nonzero(*b) => Some(Syntax::Utf16 {
            big_endian: false,
            bom: false,
        }),
        [0, a, 0, b, ..] if ascii_nonzero(*a) && ascii_nonzero(*b) => Some(Syntax::Utf16 {
            big_endian: true,
            bom: false,
        }),
        _ => None,
    }
}

fn ascii_nonzero(byte: u8) -> bool {
    byte != 0 && byte.is_ascii()
}

/// What is wrong with malformed JSON.
// Exhaustive: every variant has its words in `cardkit`'s diagnostics, which
// a new one must not slip past.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Syntax {
    /// Something else was expected here.
    Expected {
        /// What was expected.
        expected: Expect,
        /// What was found instead.
        found: FoundByte,
    },
    /// A number starts with `0` followed by more digits (`01`).
    LeadingZero,
    /// A string without its closing quote.
    UnterminatedString,
    /// Bytes in a string that are not UTF-8.
    InvalidUtf8,
    /// A raw control character (below U+0020) in a string.
    ControlCharacter,
    /// A `\uDC00`–`\uDFFF` escape without a high surrogate before it.
    LoneLowSurrogate,
    /// A `\uD800`–`\uDBFF` escape without a low surrogate after it.
    LoneHighSurrogate,
    /// A backslash followed by something that is no escape.
    InvalidEscape,
    /// `\u` followed by fewer than four hex digits.
    ShortUnicodeEscape,
    /// A number beyond the range of a 64-bit float (`1e400`).
    FloatOverflow {
        /// The literal as written (cut short when long).
        literal: FoundValue,
    },
    /// Nothing but white space.
    EmptyInput,
    /// More content after the one JSON value.
    TrailingContent,
    /// Malformed JSON inside a value that is not followed for its depth.
    MalformedTooDeep,
    /// The input is UTF-16, not UTF-8.
    Utf16 {
        /// Big-endian (else little-endian).
        big_endian: bool,
        /// It starts with a byte order mark.
        bom: bool,
    },
}

/// What the reader expected where it found something else.
// Exhaustive, as `Syntax` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Any JSON value.
    Value,
    /// A digit (after `-`).
    Digit,
    /// A digit after the decimal point.
    FractionDigit,
    /// A digit in the exponent.
    ExponentDigit,
    /// A member name in double quotes.
    MemberName,
    /// `:` after a member name.
    Colon,
    /// `,` or `}` after an object member.
    CommaOrBrace,
    /// `,` or `]` after an array item.
    CommaOrBracket,
}

/// Malformed JSON at a byte offset of the bytes read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where, as an index into the bytes read.
    pub at: usize,
    /// What is wrong.
    pub syntax: Syntax,
}
