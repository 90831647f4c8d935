//! The report of a validation: each document's diagnostics and where the
//! documents sat in their file. Plain data, made by the validator and read by
//! the renderers, which need nothing else of the engine.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::diagnostic::{quote, Code, Diagnostic, Severity};
use crate::model::{Kind, Layout};
use crate::table::Names;

/// The most errors one document keeps; the rest are counted.
pub const KEPT_ERRORS: usize = 100_000;
/// The most warnings of one code one document keeps; the rest are counted.
pub const KEPT_WARNINGS_PER_CODE: usize = 100_000;

/// The validation of one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentReport {
    /// JSON Pointer of the document within its file (or line); `""` for the
    /// root. Cut to [`crate::diagnostic::quote::QUOTED_BYTES`] when longer
    /// (a set code of megabytes), as a diagnostic's pointer is.
    pub pointer: String,
    /// The pointer's whole length in bytes, when it was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer_bytes: Option<usize>,
    /// For JSON Lines, the 1-based line the document is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The document's kind; `None` for problems found outside any document
    /// (malformed JSON around documents, a kind that cannot be told).
    pub kind: Option<Kind>,
    /// Every problem found, in document order, up to the bounds a document
    /// keeps ([`KEPT_ERRORS`], [`KEPT_WARNINGS_PER_CODE`]).
    pub diagnostics: Vec<Diagnostic>,
    /// The problems past those bounds, counted but not kept.
    #[serde(skip_serializing_if = "Omitted::is_empty")]
    pub omitted: Omitted,
    /// The warnings past what the run's report shows of each kind, counted
    /// but not built (see [`crate::Options::warnings_shown`]); empty
    /// unless asked for.
    #[serde(skip_serializing_if = "Folded::is_empty")]
    pub folded: Folded,
    /// How many problems a configuration's `ignore` left out (counted, never
    /// kept: they make no document invalid).
    #[serde(skip_serializing_if = "is_zero")]
    pub ignored: usize,
    /// The names the document was read under ([`Names::Auto`]: it has no
    /// member that tells, and reads alike under either). A file's report
    /// says it once for its documents.
    #[serde(skip)]
    pub names: Names,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's signature
pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Diagnostics counted but not kept, by severity and code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Omitted {
    /// Errors by code.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<Code, usize>,
    /// Warnings by code.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub warnings: BTreeMap<Code, usize>,
}

impl Omitted {
    /// Nothing was left out.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty() && self.warnings.is_empty()
    }

    /// How many were left out.
    #[must_use]
    pub fn total(&self) -> usize {
        self.errors.values().chain(self.warnings.values()).sum()
    }

    pub(crate) fn add(&mut self, code: Code, severity: Severity) {
        let counts = match severity {
            Severity::Error => &mut self.errors,
            Severity::Warning => &mut self.warnings,
        };
        *counts.entry(code).or_default() += 1;
    }

    pub(crate) fn remove(&mut self, code: Code, severity: Severity) {
        let counts = match severity {
            Severity::Error => &mut self.errors,
            Severity::Warning => &mut self.warnings,
        };
        if let Some(count) = counts.get_mut(&code) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&code);
            }
        }
    }

    /// Adds the counts of `other`.
    pub(crate) fn merge(&mut self, other: Omitted) {
        for (mine, theirs) in [
            (&mut self.errors, other.errors),
            (&mut self.warnings, other.warnings),
        ] {
            for (code, count) in theirs {
                *mine.entry(code).or_default() += count;
            }
        }
    }
}

/// Warnings of one document that a report would not show, counted by code
/// and `Model.field` instead of built: a catalog's hundred thousand
/// `unknown_field` warnings of one field cost a count each.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Folded {
    /// Code, `Model.field` and how many, in code and field order.
    counts: Vec<FoldedCount>,
}

/// How many warnings of one code and field were folded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoldedCount {
    /// Their code.
    pub code: Code,
    /// Their `Model.field`.
    pub field: String,
    /// How many.
    pub count: usize,
}

impl Folded {
    /// Folded counts, in code and field order.
    pub(crate) fn new(mut counts: Vec<FoldedCount>) -> Self {
        counts.sort_by(|a, b| (a.code, &a.field).cmp(&(b.code, &b.field)));
        Folded { counts }
    }

    /// Nothing was folded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// How many warnings were folded in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.counts.iter().map(|c| c.count).sum()
    }

    /// The counts, in code and field order.
    pub fn iter(&self) -> impl Iterator<Item = &FoldedCount> {
        self.counts.iter()
    }
}

impl DocumentReport {
    /// Where the document is in its file, in words, as notes name it: its
    /// line for JSON Lines (`line 3`, with the pointer within the line when
    /// the line holds a container), else its pointer (`/data/NEO`, `/` for
    /// the root).
    #[must_use]
    pub fn at(&self) -> String {
        let pointer = quote::shown(&self.pointer, self.pointer_bytes);
        match (self.line, pointer.as_ref()) {
            (Some(line), "") => format!("line {line}"),
            (Some(line), pointer) => format!("line {line} {pointer}"),
            (None, "") => "/".to_owned(),
            (None, pointer) => pointer.to_owned(),
        }
    }

    /// The document's place with its file's name, as notes name it:
    /// `path:3` for a line of JSON Lines, `path /data/NEO` otherwise.
    #[must_use]
    pub fn place(&self, path: &str) -> String {
        let pointer = quote::shown(&self.pointer, self.pointer_bytes);
        match (self.line, pointer.as_ref()) {
            (Some(line), "") => format!("{path}:{line}"),
            (Some(line), pointer) => format!("{path}:{line} {pointer}"),
            (None, _) => format!("{path} {}", self.at()),
        }
    }

    /// No diagnostic of the document is an error.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.omitted.errors.is_empty()
            && self
                .diagnostics
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
