//! What the checker finds in one unit: diagnostics, with their severity
//! chosen by the options.

use crate::diagnostic::{Code, Detail, Diagnostic, Severity};

use super::Options;

pub(crate) struct Findings<'o> {
    options: &'o Options,
    /// Every diagnostic kept, in the order found.
    pub out: Vec<Diagnostic>,
}

impl<'o> Findings<'o> {
    pub fn new(options: &'o Options) -> Self {
        Findings {
            options,
            out: Vec::new(),
        }
    }

    /// Records a problem about the value at file offset `offset`.
    pub fn add(&mut self, detail: Detail, pointer: String, field: Option<String>, offset: usize) {
        let severity = severity(self.options, detail.code());
        self.out
            .push(Diagnostic::new(detail, severity, pointer, field, offset));
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
