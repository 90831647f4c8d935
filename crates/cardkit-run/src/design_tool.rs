//! A file of the design tool's own told from its report: a template in its
//! older layered layout (members only that layout has, at the places the
//! design crate's reader looks) or its classic save file (entries with
//! `key` and `data`). The verdict stays the validator's; the report only
//! says what the file is and what converts it.

use cardkit::diagnostic::Detail;
use cardkit::report::DocumentReport;
use cardkit::{Code, Kind};

/// What the documents of one file seen so far say of it.
#[derive(Debug, Default)]
pub(crate) struct DesignTool {
    /// The members of the older layered layout found on a template.
    layered: Vec<&'static str>,
    /// Entries of the classic save file found.
    classic: usize,
}

/// The members only a template of the older layered layout has, with the
/// code the validator gives each.
const LAYERED: [(&str, Code, &str); 4] = [
    ("/metadata", Code::UnknownField, "/metadata"),
    (
        "/context/imageSets",
        Code::WrongType,
        "/context/imageSets is an object",
    ),
    (
        "/context/symbolExtension",
        Code::UnknownField,
        "/context/symbolExtension",
    ),
    ("/context/ui", Code::UnknownField, "/context/ui"),
];

impl DesignTool {
    /// Looks at one document's report.
    pub(crate) fn see(&mut self, document: &DocumentReport) {
        for diagnostic in &document.diagnostics {
            if diagnostic.detail == Detail::ClassicEntry {
                self.classic += 1;
                continue;
            }
            if document.kind != Some(Kind::Template) {
                continue;
            }
            let relative = diagnostic
                .pointer
                .strip_prefix(document.pointer.as_str())
                .unwrap_or(&diagnostic.pointer);
            for (pointer, code, said) in LAYERED {
                if relative == pointer && diagnostic.code == code && !self.layered.contains(&said) {
                    self.layered.push(said);
                }
            }
        }
    }

    /// What the file is, and what converts it, when it is the design
    /// tool's own.
    pub(crate) fn hint(&self) -> Option<String> {
        if self.classic > 0 {
            let entries = if self.classic == 1 {
                "entry"
            } else {
                "entries"
            };
            return Some(format!(
                "this is the design tool's classic save file ({} {entries} of `key` and `data`), \
                 not documents of the spec: `cardkit import` converts it to card designs, and \
                 the design commands (layers, assets, render…) take it as it is",
                self.classic
            ));
        }
        if self.layered.is_empty() {
            return None;
        }
        Some(format!(
            "this is a template in the design tool's older layered layout ({}), not the spec's \
             shape: `cardkit import` converts it, and the design commands (layers, assets, \
             render…) take it as it is",
            self.layered.join(", ")
        ))
    }
}
