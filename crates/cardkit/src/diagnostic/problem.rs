//! One problem found in a document ([`Diagnostic`]): its code, severity,
//! place and what was expected and found, with the source line around it
//! ([`Excerpt`]).

use serde::Serialize;

use super::code::{Code, Severity};
use super::detail::Detail;
use super::quote;
use super::words;

/// One problem found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of problem.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// RFC 6901 JSON Pointer of the offending value from the file's root; for
    /// a missing member, the pointer the member would have. One longer than
    /// [`quote::QUOTED_BYTES`] is cut to that, then `…` (no longer a
    /// pointer), and `pointer_bytes` says so.
    pub pointer: String,
    /// The whole pointer's length in bytes when `pointer` was cut; `None`
    /// when it is whole.
    pub pointer_bytes: Option<usize>,
    /// The spec's `Model.field` the problem is about, e.g. `CardSet.uuid`,
    /// when there is one (cut as the pointer is, when long).
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
    /// A second place the problem is about, when there is one (where a
    /// duplicated id was first given, say).
    pub related: Option<Box<Related>>,
}

/// A second place a diagnostic is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Related {
    /// The file, when it is another than the diagnostic's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// RFC 6901 JSON Pointer of the value there.
    pub pointer: String,
    /// Its byte offset in the file.
    pub offset: usize,
    /// Its 1-based line.
    pub line: usize,
    /// Its 1-based column, in characters.
    pub column: usize,
    /// What is there, in words.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic about the value at file offset `offset`, not yet
    /// located (line, column and excerpt are filled in later).
    #[must_use]
    pub fn new(
        detail: Detail,
        severity: Severity,
        pointer: impl Into<quote::Quoted>,
        mut field: Option<String>,
        offset: usize,
    ) -> Self {
        let quote::Quoted {
            text: pointer,
            whole: pointer_bytes,
        } = pointer.into();
        if let Some(field) = &mut field {
            quote::cut(field);
        }
        Diagnostic {
            code: detail.code(),
            severity,
            pointer,
            pointer_bytes,
            field,
            detail,
            offset,
            line: 0,
            column: 0,
            excerpt: None,
            related: None,
        }
    }

    /// What was expected and what was found, in words.
    #[must_use]
    pub fn message(&self) -> String {
        words::message(&self.detail)
    }

    /// The pointer as shown to people: with its whole length after it when
    /// it was cut (`/kkkk… (100000000 bytes)`).
    #[must_use]
    pub fn pointer_shown(&self) -> std::borrow::Cow<'_, str> {
        quote::shown(&self.pointer, self.pointer_bytes)
    }
}

/// One problem found in a document, in JSON (documented in the README): its
/// data, the message in words, and what was expected and found, where the
/// code has them. (What a `Diagnostic` serializes as; with the `openapi`
/// feature, the OpenAPI schema `Diagnostic`.)
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Diagnostic))]
pub struct DiagnosticJson<'a> {
    /// What kind of problem.
    code: Code,
    /// `error` makes the document invalid; `warning` does not.
    severity: Severity,
    /// RFC 6901 JSON Pointer of the offending value from the file's root
    /// (for a missing member, the pointer it would have); cut after 16 KiB,
    /// then `…`, when it is longer.
    pointer: &'a str,
    /// The whole pointer's length in bytes, when `pointer` was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer_bytes: Option<usize>,
    /// The spec's `Model.field` the problem is about, e.g. `CardSet.uuid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    /// What was expected and what was found, in words.
    message: String,
    /// What the field takes, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<String>,
    /// The values the field allows (a constant or an enumeration).
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed: Option<Vec<&'static str>>,
    /// What was found, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    found: Option<String>,
    /// The known member meant, for an unknown one close to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<&'static str>,
    /// Byte offset in the file of the offending value.
    offset: usize,
    /// 1-based line of `offset`.
    line: usize,
    /// 1-based column of `offset`, in characters.
    column: usize,
    /// A second place the problem is about (`--references`).
    #[serde(skip_serializing_if = "Option::is_none")]
    related: Option<&'a Related>,
}

impl<'a> From<&'a Diagnostic> for DiagnosticJson<'a> {
    fn from(diagnostic: &'a Diagnostic) -> Self {
        DiagnosticJson {
            code: diagnostic.code,
            severity: diagnostic.severity,
            pointer: &diagnostic.pointer,
            pointer_bytes: diagnostic.pointer_bytes,
            field: diagnostic.field.as_deref(),
            message: diagnostic.message(),
            expected: words::expected(&diagnostic.detail),
            allowed: diagnostic.detail.allowed(),
            found: words::found(&diagnostic.detail),
            suggestion: diagnostic.detail.suggestion(),
            offset: diagnostic.offset,
            line: diagnostic.line,
            column: diagnostic.column,
            related: diagnostic.related.as_deref(),
        }
    }
}

impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        DiagnosticJson::from(self).serialize(serializer)
    }
}

/// A diagnostic's schema is that of its JSON form.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Diagnostic {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <DiagnosticJson<'_> as utoipa::PartialSchema>::schema()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Diagnostic {
    fn name() -> std::borrow::Cow<'static, str> {
        <DiagnosticJson<'_> as utoipa::ToSchema>::name()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <DiagnosticJson<'_> as utoipa::ToSchema>::schemas(schemas);
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
