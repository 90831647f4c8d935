//! What a run over many files adds up to: counts by code, and which
//! repeated warnings are shown and which are only counted.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

mod document;
mod reading;

pub use crate::model::Layout;
pub use document::{
    DocumentReport, FileReport, Folded, FoldedCount, Omitted, KEPT_ERRORS, KEPT_WARNINGS_PER_CODE,
};
pub use reading::{Reading, VersionFrom, WayOut};

use crate::diagnostic::{Code, Diagnostic, Severity};

/// Totals of a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Paths that could not be read.
    pub unreadable: usize,
    /// Documents validated.
    pub documents: usize,
    /// Documents without errors.
    pub valid: usize,
    /// Documents with at least one error.
    pub invalid: usize,
    /// Errors by code.
    pub errors: BTreeMap<Code, usize>,
    /// Warnings by code.
    pub warnings: BTreeMap<Code, usize>,
    /// Diagnostics a configuration's `ignore` left out: never shown, never
    /// an error, but counted, so that nothing vanishes silently.
    #[serde(skip_serializing_if = "document::is_zero")]
    pub ignored: usize,
    /// Where that configuration is (`cardkit.toml`), when one was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored_by: Option<&'static str>,
    /// Files found in directories searched (or in archives) that are no
    /// card documents: their first document's kind cannot be told (a
    /// `package.json`). Not read further, not counted in `files`, never an
    /// error; counted, so that nothing vanishes silently.
    #[serde(skip_serializing_if = "document::is_zero")]
    pub skipped: usize,
    /// Bytes read (decoded, of a compressed input).
    pub bytes: u64,
    /// Of `bytes`, those decoded from compressed inputs (zip members too).
    /// With `compressed`, what the text report's throughput line names; not
    /// in the JSON report, whose `bytes` are the bytes validated.
    #[serde(skip)]
    pub decompressed: u64,
    /// The bytes those compressed inputs had as stored.
    #[serde(skip)]
    pub compressed: u64,
    /// How long the run took, in seconds, when it was timed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// Files by the names they were read under (`spec`, `upstream`), of
    /// those whose documents have names to tell (sets, migrations).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub read_under: BTreeMap<String, usize>,
    /// Files by the version they were checked as of (`v5.2.0`), of those
    /// whose documents have versioned fields (sets).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub checked_as_of: BTreeMap<String, usize>,
    /// The options that would change the verdict of some files (`--names
    /// auto`), with how many files each.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ways_out: BTreeMap<String, usize>,
}

impl Summary {
    /// Adds one file's report.
    pub fn add(&mut self, report: &FileReport, bytes: u64) {
        self.add_file(bytes);
        for document in &report.documents {
            self.add_document(document);
        }
    }

    /// Counts a file of `bytes` bytes.
    pub fn add_file(&mut self, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
    }

    /// Counts, of the bytes read, `decoded` bytes decoded from a
    /// compressed input of `stored` bytes as stored.
    pub fn add_compressed(&mut self, stored: u64, decoded: u64) {
        self.compressed += stored;
        self.decompressed += decoded;
    }

    /// Adds one document's report.
    pub fn add_document(&mut self, document: &DocumentReport) {
        // A report without a kind holds a document whose kind cannot be
        // told, or problems around documents (malformed JSON between them):
        // it counts as an invalid document when it has errors, so that no
        // error goes by without failing the run.
        if document.kind.is_some() || !document.is_valid() {
            self.documents += 1;
            if document.is_valid() {
                self.valid += 1;
            } else {
                self.invalid += 1;
            }
        }
        for diagnostic in &document.diagnostics {
            let counts = match diagnostic.severity {
                Severity::Error => &mut self.errors,
                Severity::Warning => &mut self.warnings,
            };
            *counts.entry(diagnostic.code).or_default() += 1;
        }
        self.ignored += document.ignored;
        // Counted, not kept: the totals stay exact.
        for (counts, omitted) in [
            (&mut self.errors, &document.omitted.errors),
            (&mut self.warnings, &document.omitted.warnings),
        ] {
            for (&code, &n) in omitted {
                *counts.entry(code).or_default() += n;
            }
        }
        for folded in document.folded.iter() {
            *self.warnings.entry(folded.code).or_default() += folded.count;
        }
    }

    /// Counts the diagnostics of a document counted before (`was_valid`
    /// then) that a check across documents found later: a document they
    /// make invalid moves from the valid to the invalid.
    pub fn add_later(&mut self, document: &DocumentReport, was_valid: bool) {
        let (documents, valid, invalid) = (self.documents, self.valid, self.invalid);
        self.add_document(document);
        self.documents = documents;
        let made_invalid = was_valid && !document.is_valid();
        self.valid = valid - usize::from(made_invalid);
        self.invalid = invalid + usize::from(made_invalid);
    }

    /// The throughput of a timed run, in MB (10^6 bytes) per second.
    #[must_use]
    pub fn megabytes_per_second(&self) -> Option<f64> {
        #[allow(clippy::cast_precision_loss)] // a rate, not a count
        self.seconds
            .filter(|&s| s > 0.0)
            .map(|s| self.bytes as f64 / 1e6 / s)
    }

    /// Counts how a file was read.
    pub fn add_reading(&mut self, reading: &Reading) {
        *self.read_under.entry(reading.names.to_owned()).or_default() += 1;
        if let Some(as_of) = &reading.as_of {
            *self.checked_as_of.entry(as_of.clone()).or_default() += 1;
        }
        if let Some(way_out) = &reading.way_out {
            *self.ways_out.entry(way_out.said.clone()).or_default() += 1;
        }
    }

    /// Counts a file found that is no card document, skipped.
    pub fn add_skipped(&mut self) {
        self.skipped += 1;
    }

    /// Counts a path that could not be read.
    pub fn add_unreadable(&mut self) {
        self.unreadable += 1;
    }

    /// Total errors.
    #[must_use]
    pub fn error_count(&self) -> usize {
        self.errors.values().sum()
    }

    /// Total warnings.
    #[must_use]
    pub fn warning_count(&self) -> usize {
        self.warnings.values().sum()
    }

    /// The exit status the CLI documents: 2 when a path could not be read, 1
    /// when a document is invalid, 0 otherwise.
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        if self.unreadable > 0 {
            2
        } else if self.invalid > 0 {
            1
        } else {
            0
        }
    }
}

/// Lets through the first few warnings of each kind and counts the rest, so a
/// warning repeated on every card of a catalog is summarised, not flooded.
/// Errors always pass.
#[derive(Debug, Clone)]
pub struct WarningFilter {
    limit: usize,
    /// How many errors of each kind are shown; `None`: every error.
    error_limit: Option<usize>,
    /// How many of each kind were seen, by code and pattern.
    seen: HashMap<Code, HashMap<String, usize>>,
    order: Vec<(Code, String, Severity)>,
    /// Distinct patterns of each code and model so far.
    distinct: HashMap<(Code, String), usize>,
}

/// Diagnostics of one kind that were counted but not shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Suppressed {
    /// Their code.
    pub code: Code,
    /// Errors or warnings (`severity` is written for errors only: a report
    /// without folded errors is as it always was).
    #[serde(skip_serializing_if = "is_warning")]
    pub severity: Severity,
    /// What they have in common: the spec's `Model.field`, or the pointer with
    /// array indexes as `*`.
    pub pattern: String,
    /// How many there were in all.
    pub total: usize,
    /// How many of them were shown.
    pub shown: usize,
}

impl WarningFilter {
    /// How many warnings of each kind are shown by default.
    pub const DEFAULT_LIMIT: usize = 3;
    /// How many distinct patterns of one code and model are told apart.
    pub const DISTINCT_PATTERNS: usize = 64;

    /// How many errors of each kind the text report shows by default.
    pub const DEFAULT_ERROR_LIMIT: usize = 10;

    /// A filter showing `limit` warnings of each kind, and every error.
    #[must_use]
    pub fn new(limit: usize) -> Self {
        WarningFilter {
            limit,
            error_limit: None,
            seen: HashMap::new(),
            order: Vec::new(),
            distinct: HashMap::new(),
        }
    }

    /// The same filter, showing only `limit` errors of each kind (same code
    /// and `Model.field`); the rest are counted, as warnings are.
    #[must_use]
    pub fn with_error_limit(mut self, limit: usize) -> Self {
        self.error_limit = Some(limit);
        self
    }

    /// How many diagnostics of each kind of this severity are shown.
    fn limit_of(&self, code: Code, severity: Severity) -> Option<usize> {
        match severity {
            Severity::Error => self.error_limit,
            // A file checked as of the version it declares carries the
            // fields its own build added on every record: one line per
            // field says it, unless every warning was asked for.
            Severity::Warning if code == Code::NewerField && self.limit != usize::MAX => Some(1),
            Severity::Warning => Some(self.limit),
        }
    }

    /// How many warnings of each kind are shown (`None`: every one): what
    /// a validation may fold ([`crate::Options::warnings_shown`]).
    #[must_use]
    pub fn warnings_shown(&self) -> Option<usize> {
        (self.limit != usize::MAX).then_some(self.limit)
    }

    /// Whether to show this diagnostic.
    pub fn admit(&mut self, diagnostic: &Diagnostic) -> bool {
        let Some(limit) = self.limit_of(diagnostic.code, diagnostic.severity) else {
            return true;
        };
        self.count(diagnostic.code, diagnostic.severity, pattern(diagnostic), 1) <= limit
    }

    /// Counts the warnings a document folded, after its diagnostics were
    /// admitted: none of them would have been shown, since each follows at
    /// least as many shown or counted of its code and field as are shown.
    pub fn admit_folded(&mut self, folded: &Folded) {
        for folded in folded.iter() {
            let pattern = Cow::Borrowed(folded.field.as_str());
            self.count(folded.code, Severity::Warning, pattern, folded.count);
        }
    }

    /// Counts `n` diagnostics of `code` and `pattern`; returns how many of
    /// their kind were seen so far.
    fn count(
        &mut self,
        code: Code,
        severity: Severity,
        mut pattern: Cow<'_, str>,
        n: usize,
    ) -> usize {
        // The same warnings come back on every record of a catalog: a
        // pattern is made into a key of its own once. Past a few distinct
        // patterns of one code and model (unknown keys all different), the
        // rest share one (`Model.*`), so the filter stays small.
        let seen = self.seen.entry(code).or_default();
        if !seen.contains_key(pattern.as_ref()) {
            let model = pattern.split('.').next().unwrap_or_default().to_owned();
            let distinct = self.distinct.entry((code, model.clone())).or_default();
            if *distinct >= Self::DISTINCT_PATTERNS {
                pattern = Cow::Owned(format!("{model}.*"));
            } else {
                *distinct += 1;
            }
        }
        let count = match seen.get_mut(pattern.as_ref()) {
            Some(count) => count,
            None => {
                self.order
                    .push((code, pattern.clone().into_owned(), severity));
                seen.entry(pattern.into_owned()).or_default()
            }
        };
        *count += n;
        *count
    }

    /// The kinds of diagnostic of which some were not shown, in order of
    /// first appearance.
    #[must_use]
    pub fn suppressed(&self) -> Vec<Suppressed> {
        self.order
            .iter()
            .filter_map(|(code, pattern, severity)| {
                let limit = self.limit_of(*code, *severity)?;
                let total = self.seen[code][pattern];
                (total > limit).then(|| Suppressed {
                    code: *code,
                    severity: *severity,
                    pattern: pattern.clone(),
                    total,
                    shown: limit,
                })
            })
            .collect()
    }
}

fn is_warning(severity: &Severity) -> bool {
    *severity == Severity::Warning
}

impl Default for WarningFilter {
    fn default() -> Self {
        WarningFilter::new(Self::DEFAULT_LIMIT)
    }
}

/// What repeated diagnostics have in common: the spec's `Model.field`, or the
/// pointer with array indexes as `*`.
#[must_use]
pub fn pattern(diagnostic: &Diagnostic) -> Cow<'_, str> {
    if let Some(field) = &diagnostic.field {
        return Cow::Borrowed(field);
    }
    let pattern = diagnostic
        .pointer
        .split('/')
        .map(|token| {
            if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                token
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    Cow::Owned(pattern)
}
