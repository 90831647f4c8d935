//! Validation of whole files: finding the documents in a file, validating each
//! against the field tables, and locating every diagnostic.
//!
//! ```
//! use cardkit::validate::{validate, Options};
//!
//! let report = validate(br#"{"object": "migration"}"#, &Options::default());
//! let codes: Vec<&str> = report.documents[0]
//!     .diagnostics
//!     .iter()
//!     .map(|d| d.code.as_str())
//!     .collect();
//! assert_eq!(codes, ["missing_field", "missing_field", "missing_field"]);
//! ```

mod describe;
mod engine;
mod layout;
mod walker;

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::schema::{Describe, Model, ModelDef, Type, Version};

pub use layout::Layout;
pub use walker::MAX_DEPTH;

use engine::Site;
use walker::{DuplicateKeys, Flow, Malformed, Walker};

/// The four kinds of document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A card-design template.
    Template,
    /// A card design on its own.
    Card,
    /// A card set.
    Set,
    /// A catalog migration notice.
    Migration,
}

impl Kind {
    /// Every kind.
    pub const ALL: &'static [Kind] = &[Kind::Template, Kind::Card, Kind::Set, Kind::Migration];

    /// `template`, `card`, `set` or `migration`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Template => "template",
            Kind::Card => "card",
            Kind::Set => "set",
            Kind::Migration => "migration",
        }
    }

    /// The top-level model of the kind.
    #[must_use]
    pub fn model(self) -> &'static ModelDef {
        match self {
            Kind::Template => crate::model::Template::model(),
            Kind::Card => crate::model::Card::model(),
            Kind::Set => crate::model::Set::model(),
            Kind::Migration => crate::model::Migration::model(),
        }
    }

    fn root_type(self) -> &'static Type {
        match self {
            Kind::Template => crate::model::Template::TYPE,
            Kind::Card => crate::model::Card::TYPE,
            Kind::Set => crate::model::Set::TYPE,
            Kind::Migration => crate::model::Migration::TYPE,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Kind::ALL
            .iter()
            .copied()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| {
                format!("unknown kind `{text}`: expected template, card, set or migration")
            })
    }
}

/// How to validate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The kind of every document; `None` detects it from the content.
    pub kind: Option<Kind>,
    /// Report unknown fields as errors rather than warnings.
    pub deny_unknown_fields: bool,
    /// The input is JSON Lines: one document (or container) per line.
    pub json_lines: bool,
    /// Validate as consumers of this version of the format see a document:
    /// fields introduced after it are `newer_field`, and not required.
    pub as_of: Option<Version>,
    /// With `as_of`, fields newer than that version are errors, not warnings.
    pub strict_version: bool,
    /// Report deprecated fields that are present (`deprecated_field`).
    pub warn_deprecated: bool,
}

impl Options {
    /// The options of [`Options::default`], as a constant.
    pub const DEFAULT: Options = Options {
        kind: None,
        deny_unknown_fields: false,
        json_lines: false,
        as_of: None,
        strict_version: false,
        warn_deprecated: false,
    };
}

/// Reads the version for [`Options::as_of`]: `vX.Y.Z` (or `X.Y.Z`), no older
/// than the first version tag of the format.
///
/// # Errors
/// A message saying what is wrong with `text`, for a usage error.
pub fn as_of_version(text: &str) -> Result<Version, String> {
    let version: Version = text.parse().map_err(|e| format!("{e}"))?;
    let roots: Vec<&'static ModelDef> = Kind::ALL.iter().map(|k| k.model()).collect();
    let tags = crate::schema::versions(&roots);
    match tags.first() {
        Some(&first) if version < first => Err(format!(
            "{version} is older than the first version of the format ({first}); known versions are {}",
            tags.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        )),
        _ => Ok(version),
    }
}

/// The validation of one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentReport {
    /// JSON Pointer of the document within its file (or line); `""` for the
    /// root.
    pub pointer: String,
    /// For JSON Lines, the 1-based line the document is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The document's kind; `None` for problems found outside any document
    /// (malformed JSON around documents, a kind that cannot be told).
    pub kind: Option<Kind>,
    /// Every problem found, in document order.
    pub diagnostics: Vec<Diagnostic>,
}

impl DocumentReport {
    /// No diagnostic of the document is an error.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.diagnostics
            .iter()
            .all(|d| d.severity != Severity::Error)
    }
}

/// The validation of one file (or one input).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileReport {
    /// How the documents were found in the file.
    pub layout: Layout,
    /// One report per document, in file order.
    pub documents: Vec<DocumentReport>,
}

impl FileReport {
    /// Every document of the file is valid.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.documents.iter().all(DocumentReport::is_valid)
    }
}

impl Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Whether text that is not in a `.jsonl` file looks like JSON Lines: a
/// first value that ends on its line, followed by more values on later lines.
#[must_use]
pub fn looks_like_json_lines(input: &[u8]) -> bool {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let start = input.iter().position(|b| !b.is_ascii_whitespace());
    let Some(end) = start.and_then(|start| walker::skip_raw(input, start)) else {
        return false;
    };
    let rest = &input[end..];
    let next = rest.iter().position(|b| !b.is_ascii_whitespace());
    next.is_some_and(|next| rest[..next].contains(&b'\n'))
}

/// Validates every document of a file.
#[must_use]
pub fn validate(input: &[u8], options: &Options) -> FileReport {
    let text = match std::str::from_utf8(input) {
        Ok(text) => text,
        Err(error) => return not_utf8(input, error.valid_up_to()),
    };
    let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let mut report = if options.json_lines {
        lines(text, start, options)
    } else {
        let (layout, documents) = value(text, start, options);
        FileReport { layout, documents }
    };
    locate(text, &mut report.documents);
    report
}

/// Validates each line of JSON Lines as its own value.
fn lines(text: &str, start: usize, options: &Options) -> FileReport {
    let mut documents = Vec::new();
    let mut line_start = start;
    let mut number = 0;
    while line_start < text.len() {
        number += 1;
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |i| line_start + i);
        if !text[line_start..line_end].trim().is_empty() {
            let (_, found) = value(&text[..line_end], line_start, options);
            documents.extend(found.into_iter().map(|mut document| {
                document.line = Some(number);
                document
            }));
        }
        line_start = line_end + 1;
    }
    if documents.is_empty() {
        documents.push(outside(vec![empty(text, start)]));
    }
    FileReport {
        layout: Layout::Array,
        documents,
    }
}

/// Validates the JSON value at `start` of `text`, which must end with it.
fn value(text: &str, start: usize, options: &Options) -> (Layout, Vec<DocumentReport>) {
    let mut walker = Walker::new(text, start, options);
    walker.ws();
    if walker.peek().is_none() {
        return (Layout::Bare, vec![outside(vec![empty(text, start)])]);
    }
    let (mut layout, kind) = layout::detect(text, walker.pos, options.kind);
    let mut documents = Vec::new();
    let at = walker.pos;
    let mut outcome = walk(&mut walker, layout, kind, options.kind, &mut documents);
    if let Ok(Some(kind)) = outcome {
        // Not a container after all: read the value again as one document.
        layout = Layout::Bare;
        documents.clear();
        walker = Walker::new(text, at, options);
        outcome = document(
            &mut walker,
            Some(options.kind.unwrap_or(kind)),
            &mut documents,
        )
        .map(|()| None);
    }
    let outcome = outcome.map(drop);
    if outcome.is_ok() {
        walker.ws();
        if walker.peek().is_some() {
            let at = walker.pos;
            let _ = walker.malformed::<()>(at, "unexpected content after the JSON value");
        }
    }
    // Problems outside any document, and a malformed document cut short.
    let rest = std::mem::take(&mut walker.out);
    if !rest.is_empty() {
        match (outcome, documents.last_mut()) {
            (Err(Malformed), Some(last))
                if last
                    .diagnostics
                    .last()
                    .is_none_or(|d| d.code != Code::InvalidJson) =>
            {
                last.diagnostics.extend(rest);
            }
            _ => documents.push(outside(rest)),
        }
    }
    (layout, documents)
}

/// Walks the container, validating each document in it. `Ok(Some(kind))`:
/// a member beside `data` shows that the value is one document of `kind`,
/// not a container.
fn walk(
    w: &mut Walker<'_>,
    layout: Layout,
    kind: Option<Kind>,
    forced: Option<Kind>,
    documents: &mut Vec<DocumentReport>,
) -> Result<Option<Kind>, Malformed> {
    let mut contradicted = None;
    match layout {
        Layout::Bare => document(w, kind, documents)?,
        Layout::Array => w.enter(|w| {
            w.items(|w, _| {
                let kind = forced.or_else(|| layout::kind_of(w.text, w.pos));
                document(w, kind, documents)
            })
        })?,
        Layout::Wrapped | Layout::Catalog | Layout::List => w.enter(|w| {
            let mut keys = DuplicateKeys::default();
            w.members(|w, key, key_at| {
                let name = w.decode(key);
                if !keys.insert(name.clone()) {
                    w.duplicate_key(key_at, &name, None);
                }
                if name != "data" {
                    if contradicted.is_none() {
                        contradicted = layout::contradicting_kind(w.text, &name, w.pos);
                    }
                    return w.skip_value();
                }
                match layout {
                    Layout::Wrapped => document(w, kind, documents),
                    Layout::Catalog => w.enter(|w| {
                        let mut codes = DuplicateKeys::default();
                        w.members(|w, code, code_at| {
                            let code = w.decode(code);
                            if !codes.insert(code.clone()) {
                                w.duplicate_key(code_at, &code, None);
                            }
                            document(w, Some(forced.unwrap_or(Kind::Set)), documents)
                        })
                    }),
                    _ if w.peek() == Some(b'[') => w.enter(|w| {
                        w.items(|w, _| {
                            let kind = forced
                                .or_else(|| layout::kind_of(w.text, w.pos))
                                .unwrap_or(Kind::Migration);
                            document(w, Some(kind), documents)
                        })
                    }),
                    _ => {
                        let at = w.pos;
                        let found = w.describe_value(at);
                        w.report(
                            Code::WrongType,
                            at,
                            None,
                            None,
                            format!("expected the list's documents in an array, found {found}"),
                        );
                        w.skip_value()
                    }
                }
            })
        })?,
        Layout::CodeMap => w.enter(|w| {
            let mut codes = DuplicateKeys::default();
            w.members(|w, code, code_at| {
                let code = w.decode(code);
                if !codes.insert(code.clone()) {
                    w.duplicate_key(code_at, &code, None);
                }
                document(w, Some(forced.unwrap_or(Kind::Set)), documents)
            })
        })?,
    }
    Ok(contradicted)
}

/// Validates the document at the cursor as `kind`, collecting its report.
fn document(w: &mut Walker<'_>, kind: Option<Kind>, documents: &mut Vec<DocumentReport>) -> Flow {
    w.ws();
    let outer = std::mem::take(&mut w.out);
    let pointer = w.pointer(None);
    let outcome = match kind {
        Some(kind) => w.value(
            kind.root_type(),
            false,
            Site {
                model: "",
                field: "",
            },
        ),
        None => {
            let at = w.pos;
            w.report(
                Code::UnknownKind,
                at,
                None,
                None,
                "cannot tell whether this is a template, card, set or migration: name the kind with --kind".to_owned(),
            );
            w.skip_value()
        }
    };
    let mut diagnostics = std::mem::replace(&mut w.out, outer);
    // Missing members are found at the end of their object but belong where
    // it starts: keep the report in document order.
    diagnostics.sort_by_key(|d| d.offset);
    documents.push(DocumentReport {
        pointer,
        line: None,
        kind,
        diagnostics,
    });
    outcome
}

fn outside(diagnostics: Vec<Diagnostic>) -> DocumentReport {
    DocumentReport {
        pointer: String::new(),
        line: None,
        kind: None,
        diagnostics,
    }
}

fn empty(text: &str, at: usize) -> Diagnostic {
    let mut walker = Walker::new(text, at, &Options::DEFAULT);
    let _ = walker.malformed::<()>(text.len(), "empty input: expected a JSON document");
    walker.out.remove(0)
}

fn not_utf8(input: &[u8], valid_up_to: usize) -> FileReport {
    let text = std::str::from_utf8(&input[..valid_up_to]).unwrap_or_default();
    let mut walker = Walker::new(text, 0, &Options::DEFAULT);
    let _ = walker.malformed::<()>(valid_up_to, "invalid UTF-8: JSON text must be UTF-8");
    let mut documents = vec![outside(walker.out)];
    locate(text, &mut documents);
    FileReport {
        layout: Layout::Bare,
        documents,
    }
}

/// Fills in the line and column of every diagnostic, in one sweep of the text.
fn locate(text: &str, documents: &mut [DocumentReport]) {
    let mut all: Vec<&mut Diagnostic> = documents
        .iter_mut()
        .flat_map(|d| d.diagnostics.iter_mut())
        .collect();
    all.sort_by_key(|d| d.offset);
    let (mut line, mut line_start, mut column, mut counted) = (1, 0, 1, 0);
    for diagnostic in all {
        let offset = diagnostic.offset.min(text.len());
        let mut from = counted;
        while let Some(i) = text.as_bytes()[from..offset]
            .iter()
            .position(|&b| b == b'\n')
        {
            line += 1;
            line_start = from + i + 1;
            from = line_start;
            column = 1;
        }
        let scan_from = counted.max(line_start);
        column += text
            .get(scan_from..offset)
            .map_or(offset - scan_from, |s| s.chars().count());
        counted = offset;
        diagnostic.line = line;
        diagnostic.column = column;
    }
}
