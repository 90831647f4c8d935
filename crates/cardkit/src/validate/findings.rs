//! What the checker finds in one unit: diagnostics, with their severity
//! chosen by the options, kept up to a bound per document and counted past
//! it, so that no document can hold memory without bound.

use crate::diagnostic::{Code, Detail, Diagnostic, Severity};

use crate::report::{Omitted, KEPT_ERRORS, KEPT_WARNINGS_PER_CODE};

use super::options::Options;

pub(crate) struct Findings<'o> {
    options: &'o Options,
    /// Every diagnostic kept, in the order found.
    pub out: Vec<Diagnostic>,
    errors: usize,
    warnings: [usize; Code::ALL.len()],
    /// What was counted but not kept.
    pub omitted: Omitted,
}

impl<'o> Findings<'o> {
    pub fn new(options: &'o Options) -> Self {
        Findings {
            options,
            out: Vec::new(),
            errors: 0,
            warnings: [0; Code::ALL.len()],
            omitted: Omitted::default(),
        }
    }

    /// Records a problem about the value at file offset `offset`: `make`
    /// gives its pointer and field, made only when it is kept. `false` when
    /// it is only counted.
    pub fn add(
        &mut self,
        detail: Detail,
        offset: usize,
        make: impl FnOnce() -> (String, Option<String>),
    ) -> bool {
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
            return false;
        }
        *count += 1;
        let (pointer, field) = make();
        self.out
            .push(Diagnostic::new(detail, severity, pointer, field, offset));
        true
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

    /// Whether a diagnostic of `code` found now would be kept, not only
    /// counted.
    pub fn keeps(&self, code: Code) -> bool {
        match severity(self.options, code) {
            Severity::Error => self.errors < KEPT_ERRORS,
            Severity::Warning => self.warnings[code.index()] < KEPT_WARNINGS_PER_CODE,
        }
    }

    /// Forgets the diagnostics in `range` of `out` (an earlier value that a
    /// later duplicate replaces), so they no longer count against the bounds.
    pub fn discard(&mut self, range: std::ops::Range<usize>) {
        for gone in self.out.drain(range) {
            let count = match gone.severity {
                Severity::Error => &mut self.errors,
                Severity::Warning => &mut self.warnings[gone.code.index()],
            };
            *count = count.saturating_sub(1);
        }
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
