//! What the checker finds in one unit: diagnostics, with their severity
//! chosen by the options, kept up to a bound per document and counted past
//! it, so that no document can hold memory without bound.

use std::borrow::Cow;

use crate::diagnostic::quote::Quoted;
use crate::diagnostic::{Code, Detail, Diagnostic, Severity};

use crate::report::{Folded, Omitted, KEPT_ERRORS, KEPT_WARNINGS_PER_CODE};

use super::filter::Filter;
use super::fold::Fold;
use super::options::Options;

pub(crate) struct Findings<'o> {
    options: &'o Options,
    /// Where the unit's root is in its pointers (the length of its prefix):
    /// a configuration's pointer globs match from the document's root.
    within: usize,
    /// Every diagnostic kept, in the order found.
    pub out: Vec<Diagnostic>,
    errors: usize,
    warnings: [usize; Code::ALL.len()],
    /// What was counted but not kept.
    pub omitted: Omitted,
    /// How many a configuration's filter left out.
    pub ignored: usize,
    /// Warnings past what the report shows, counted (when asked for).
    fold: Option<Fold>,
}

/// What became of a diagnostic recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Added {
    /// Kept, at the end of `out`.
    Kept,
    /// Past the bounds: only counted, in `omitted`.
    Counted,
    /// Left out by the configuration: only counted, in `ignored`.
    Ignored,
    /// Past what the report shows of its kind: only counted, in the fold.
    Folded,
}

impl<'o> Findings<'o> {
    pub fn new(options: &'o Options) -> Self {
        Findings {
            options,
            within: 0,
            out: Vec::new(),
            errors: 0,
            warnings: [0; Code::ALL.len()],
            omitted: Omitted::default(),
            ignored: 0,
            fold: options.warnings_shown.map(Fold::new),
        }
    }

    /// The findings of a unit whose root is at `prefix` in the file.
    pub fn within(mut self, prefix: &str) -> Self {
        self.within = prefix.len();
        self
    }

    /// Records a problem about the value at file offset `offset`, of
    /// `field` (`Model.field`): `pointer` gives its pointer, made only when
    /// it is kept (or when a configuration's filter needs it to decide).
    pub fn add(
        &mut self,
        detail: Detail,
        offset: usize,
        field: Option<Cow<'_, str>>,
        pointer: impl FnOnce() -> Quoted,
    ) -> Added {
        // Without a configuration this branch is all the filter costs.
        if let Some(filter) = self.options.filter {
            if Filter::may_ignore(detail.code()) {
                return self.add_filtered(filter, detail, offset, field, pointer);
            }
        }
        self.keep(detail, offset, field, pointer)
    }

    /// [`Findings::add`] under a configuration's filter. Kept out of line,
    /// so that the sites that report (inlined all over the checker) stay as
    /// small as they were without it.
    #[inline(never)]
    fn add_filtered(
        &mut self,
        filter: &Filter,
        detail: Detail,
        offset: usize,
        field: Option<Cow<'_, str>>,
        pointer: impl FnOnce() -> Quoted,
    ) -> Added {
        if filter.ignores_code(detail.code()) {
            self.ignored += 1;
            return Added::Ignored;
        }
        if filter.by_place() {
            let pointer = pointer();
            if filter.ignores_at(&pointer.text, self.within, field.as_deref()) {
                self.ignored += 1;
                return Added::Ignored;
            }
            return self.keep(detail, offset, field, || pointer);
        }
        self.keep(detail, offset, field, pointer)
    }

    /// Keeps a problem within the bounds, or counts it past them.
    fn keep(
        &mut self,
        detail: Detail,
        offset: usize,
        field: Option<Cow<'_, str>>,
        pointer: impl FnOnce() -> Quoted,
    ) -> Added {
        let code = detail.code();
        let severity = severity(self.options, code);
        let count = match severity {
            Severity::Error => &mut self.errors,
            Severity::Warning => &mut self.warnings[code.index()],
        };
        let bound = match severity {
            Severity::Error => KEPT_ERRORS,
            Severity::Warning => KEPT_WARNINGS_PER_CODE,
        };
        if *count >= bound {
            self.omitted.add(code, severity);
            return Added::Counted;
        }
        *count += 1;
        // Folded within the bounds, as if kept: a report says the same of
        // what was left out past them.
        if let (Some(fold), Some(field), Severity::Warning) = (&mut self.fold, &field, severity) {
            if fold.folds(code, field, offset) {
                return Added::Folded;
            }
        }
        self.out.push(Diagnostic::new(
            detail,
            severity,
            pointer(),
            field.map(Cow::into_owned),
            offset,
        ));
        Added::Kept
    }
}

impl Findings<'_> {
    /// How many errors have been found, kept or only counted.
    pub fn errors_found(&self) -> usize {
        if self.omitted.errors.is_empty() {
            self.errors
        } else {
            self.errors + self.omitted.errors.values().sum::<usize>()
        }
    }

    /// Whether a diagnostic of `code` about `field` found now would be
    /// kept, not only counted (or whether a configuration's filter needs
    /// its field to decide).
    pub fn keeps(&self, code: Code, field: Option<&str>) -> bool {
        if let Some(filter) = self.options.filter.filter(|_| Filter::may_ignore(code)) {
            if filter.ignores_code(code) {
                return false;
            }
            if filter.by_place() {
                return true;
            }
        }
        match severity(self.options, code) {
            Severity::Error => self.errors < KEPT_ERRORS,
            Severity::Warning => {
                let folds = match (&self.fold, field) {
                    (Some(fold), Some(field)) => !fold.keeps(code, field),
                    _ => false,
                };
                !folds && self.warnings[code.index()] < KEPT_WARNINGS_PER_CODE
            }
        }
    }

    /// Forgets one diagnostic of `code` that was only counted (past the
    /// bounds), as [`Findings::discard`] forgets kept ones.
    pub fn uncount(&mut self, code: Code) {
        self.omitted.remove(code, severity(self.options, code));
    }

    /// Forgets the diagnostics in `range` of `out` (an earlier value that a
    /// later duplicate replaces), so they no longer count against the bounds.
    pub fn discard(&mut self, range: std::ops::Range<usize>) {
        for gone in self.out.drain(range) {
            if let (Some(fold), Some(field), Severity::Warning) =
                (&mut self.fold, &gone.field, gone.severity)
            {
                fold.discarded(gone.code, field);
            }
            let count = match gone.severity {
                Severity::Error => &mut self.errors,
                Severity::Warning => &mut self.warnings[gone.code.index()],
            };
            *count = count.saturating_sub(1);
        }
    }
}

impl Findings<'_> {
    /// A key came again in an object: its earlier value goes.
    pub fn duplicate_key(&mut self) {
        if let Some(fold) = &mut self.fold {
            fold.duplicate_key();
        }
    }

    /// Whether what was folded can no longer be trusted to leave the same
    /// warnings shown: the unit is to be walked again without folding.
    pub fn fold_broken(&self) -> bool {
        self.fold.as_ref().is_some_and(Fold::broken)
    }

    /// The counts of the warnings folded.
    pub fn take_folded(&mut self) -> Folded {
        self.fold.take().map(Fold::into_folded).unwrap_or_default()
    }
}

/// The severity of a code under `options`: some warnings are errors when
/// asked for.
pub(crate) fn severity(options: &Options, code: Code) -> Severity {
    let raised = match code {
        Code::UnknownField => options.deny_unknown_fields,
        Code::NewerField => options.strict_version,
        _ => false,
    };
    if raised {
        Severity::Error
    } else {
        code.default_severity()
    }
}
