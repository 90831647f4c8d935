//! Diagnostics: what is wrong, where and why, as plain data. The words of a
//! diagnostic's message come from [`words`]; laying diagnostics out is the
//! business of [`crate::render`].

mod detail;
pub mod explain;
pub mod words;

use std::fmt;

use serde::ser::SerializeMap;
use serde::Serialize;

pub use detail::Detail;

/// A stable machine code for each kind of problem. The strings returned by
/// [`Code::as_str`] are part of cardkit's public interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Code {
    /// The input is not well-formed JSON (syntax, encoding, a number beyond
    /// 64-bit float range, trailing content, an empty input).
    InvalidJson,
    /// A required member is absent.
    MissingField,
    /// A value has another JSON type than the field's (no coercion).
    WrongType,
    /// `null` where the field does not allow it.
    NullNotAllowed,
    /// A constant field has another value.
    ConstMismatch,
    /// A value outside its enumeration.
    EnumMismatch,
    /// A string that is not a valid uuid, date, uri or color.
    InvalidFormat,
    /// A layer or filter without its `type` tag.
    MissingDiscriminator,
    /// A `type` tag with a value that names no known shape.
    UnknownDiscriminator,
    /// A value of a plain union that matches none of its shapes.
    NoMatchingShape,
    /// An integer beyond the 64-bit range.
    OutOfRange,
    /// Nesting deeper than the documented limit.
    TooDeep,
    /// The document's kind could not be told from its content.
    UnknownKind,
    /// A member the spec does not define (a warning unless unknown fields are
    /// denied).
    UnknownField,
    /// The same key twice in one object; the last one wins.
    DuplicateKey,
    /// A field introduced after the version validated against (`--as-of`); a
    /// warning unless versions are strict.
    NewerField,
    /// A deprecated field is present (reported when asked for).
    DeprecatedField,
}

impl Code {
    /// Every code, in documentation order.
    pub const ALL: &'static [Code] = &[
        Code::InvalidJson,
        Code::MissingField,
        Code::WrongType,
        Code::NullNotAllowed,
        Code::ConstMismatch,
        Code::EnumMismatch,
        Code::InvalidFormat,
        Code::MissingDiscriminator,
        Code::UnknownDiscriminator,
        Code::NoMatchingShape,
        Code::OutOfRange,
        Code::TooDeep,
        Code::UnknownKind,
        Code::UnknownField,
        Code::DuplicateKey,
        Code::NewerField,
        Code::DeprecatedField,
    ];

    /// The code's place in [`Code::ALL`].
    #[must_use]
    pub fn index(self) -> usize {
        Code::ALL.iter().position(|&c| c == self).unwrap_or(0)
    }

    /// The stable code string, e.g. `missing_field`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidJson => "invalid_json",
            Code::MissingField => "missing_field",
            Code::WrongType => "wrong_type",
            Code::NullNotAllowed => "null_not_allowed",
            Code::ConstMismatch => "const_mismatch",
            Code::EnumMismatch => "enum_mismatch",
            Code::InvalidFormat => "invalid_format",
            Code::MissingDiscriminator => "missing_discriminator",
            Code::UnknownDiscriminator => "unknown_discriminator",
            Code::NoMatchingShape => "no_matching_shape",
            Code::OutOfRange => "out_of_range",
            Code::TooDeep => "too_deep",
            Code::UnknownKind => "unknown_kind",
            Code::UnknownField => "unknown_field",
            Code::DuplicateKey => "duplicate_key",
            Code::NewerField => "newer_field",
            Code::DeprecatedField => "deprecated_field",
        }
    }

    /// The severity of the code unless options change it.
    #[must_use]
    pub fn default_severity(self) -> Severity {
        match self {
            Code::UnknownField | Code::DuplicateKey | Code::NewerField | Code::DeprecatedField => {
                Severity::Warning
            }
            _ => Severity::Error,
        }
    }
}

impl std::str::FromStr for Code {
    type Err = String;

    /// Parses a code's string, e.g. `missing_field`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == text)
            .ok_or_else(|| format!("`{text}` is no diagnostic code"))
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a diagnostic makes its document invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The document is invalid.
    Error,
    /// Worth knowing; the document stays valid.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of problem.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// RFC 6901 JSON Pointer of the offending value from the file's root; for
    /// a missing member, the pointer the member would have.
    pub pointer: String,
    /// The spec's `Model.field` the problem is about, e.g. `CardSet.uuid`,
    /// when there is one.
    pub field: Option<String>,
    /// What was expected and what was found, as data; [`Diagnostic::message`]
    /// puts it in words.
    pub detail: Detail,
    /// Byte offset in the file of the offending value (of the enclosing
    /// object for a missing member).
    pub offset: usize,
    /// 1-based line of `offset`.
    pub line: usize,
    /// 1-based column of `offset`, counted in characters.
    pub column: usize,
    /// The source line around `offset`, taken while the bytes were at hand,
    /// for renderers that show it.
    pub excerpt: Option<Excerpt>,
}

impl Diagnostic {
    /// A diagnostic about the value at file offset `offset`, not yet
    /// located (line, column and excerpt are filled in later).
    #[must_use]
    pub fn new(
        detail: Detail,
        severity: Severity,
        pointer: String,
        field: Option<String>,
        offset: usize,
    ) -> Self {
        Diagnostic {
            code: detail.code(),
            severity,
            pointer,
            field,
            detail,
            offset,
            line: 0,
            column: 0,
            excerpt: None,
        }
    }

    /// What was expected and what was found, in words.
    #[must_use]
    pub fn message(&self) -> String {
        words::message(&self.detail)
    }
}

/// The JSON form of a diagnostic, documented in the README: its data, the
/// message in words, and what was expected and found, where the code has them.
impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", &self.code)?;
        map.serialize_entry("severity", &self.severity)?;
        map.serialize_entry("pointer", &self.pointer)?;
        if let Some(field) = &self.field {
            map.serialize_entry("field", field)?;
        }
        map.serialize_entry("message", &self.message())?;
        if let Some(expected) = words::expected(&self.detail) {
            map.serialize_entry("expected", &expected)?;
        }
        if let Some(allowed) = self.detail.allowed() {
            map.serialize_entry("allowed", &allowed)?;
        }
        if let Some(found) = words::found(&self.detail) {
            map.serialize_entry("found", &found)?;
        }
        if let Some(suggestion) = self.detail.suggestion() {
            map.serialize_entry("suggestion", suggestion)?;
        }
        map.serialize_entry("offset", &self.offset)?;
        map.serialize_entry("line", &self.line)?;
        map.serialize_entry("column", &self.column)?;
        map.end()
    }
}

/// The source line around a diagnostic, as bytes taken while the input was
/// at hand; [`Excerpt::shown`] makes the text a renderer shows, only for the
/// diagnostics that are shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The line, or the part of it within reach of the offset.
    pub line: Vec<u8>,
    /// Where the offending byte is in `line`.
    pub at: usize,
    /// The line goes on before `line`.
    pub cut_before: bool,
    /// The line goes on after `line`.
    pub cut_after: bool,
    /// The offset is at the end of the input.
    pub at_end: bool,
}

impl Excerpt {
    /// How many characters are shown on each side of the offending one.
    pub const CONTEXT: usize = 60;

    /// The line as shown (cut to [`Excerpt::CONTEXT`] characters on each
    /// side of the offending one, `…` marking cuts, control characters as
    /// spaces) and the caret's place in it, in characters; `None` when
    /// there is nothing worth showing (only white space before the end of
    /// the line).
    #[must_use]
    pub fn shown(&self) -> Option<(String, usize)> {
        let before = String::from_utf8_lossy(&self.line[..self.at]);
        let after = String::from_utf8_lossy(&self.line[self.at..]);
        let after = after.strip_suffix('\r').unwrap_or(&after);
        let shown_before: Vec<char> = before.chars().rev().take(Self::CONTEXT + 1).collect();
        let shown_after: Vec<char> = after.chars().take(Self::CONTEXT + 1).collect();
        let more_before =
            shown_before.len() > Self::CONTEXT || (self.cut_before && !before.is_empty());
        let more_after = shown_after.len() > Self::CONTEXT || (self.cut_after && !after.is_empty());
        let visible = |c: &char| if c.is_control() { ' ' } else { *c };
        let mut text = String::new();
        if more_before {
            text.push('…');
        }
        text.extend(shown_before.iter().take(Self::CONTEXT).rev().map(visible));
        let caret = text.chars().count();
        text.extend(shown_after.iter().take(Self::CONTEXT).map(visible));
        if more_after {
            text.push('…');
        }
        // An empty line: show it only at the end of the input, where the
        // caret has nowhere else to go.
        if text.is_empty() && !self.at_end {
            return None;
        }
        Some((text, caret))
    }
}
