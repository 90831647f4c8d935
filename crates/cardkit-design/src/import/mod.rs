//! `cardkit import`: the design tool's own files converted to the spec's
//! shapes, with a report of everything that could not be carried over.
//!
//! Three formats are told apart ([`Format`]):
//!
//! - the **layered** format of templates (`metadata.name`, `context.ui`,
//!   image sets, variants and masks as objects keyed by id,
//!   `context.symbolExtension.symbolSets`) and of saved card designs (a tree
//!   of layers, as the spec's Card), converted to a Template or a Card;
//! - the **spec's** shape of a template (root `name`, lists), passed through
//!   unchanged (so importing an import's output changes nothing);
//! - the **classic** save file: an array of `{key, data}`, one Card each.
//!
//! Everything the output cannot hold is reported as a diagnostic at its JSON
//! Pointer in the input, with the library's codes: `dropped_member`,
//! `derived_value`, `unknown_text_code` (warnings) and `not_convertible` (an
//! error: nothing is written for that document). The report is a
//! [`FileReport`], rendered by the library's renderers as `validate`'s are.
//!
//! ```
//! use cardkit_design::import::{import, ImportOptions};
//!
//! let layered = br#"{"metadata": {"name": "Plain", "creator": "A. Designer"},
//!   "context": {"imageSets": {}}, "card": {"name": "", "width": 750, "height": 1050}}"#;
//! let imported = import(layered, &ImportOptions::default());
//! assert_eq!(imported.documents[0].value["name"], "Plain");
//! let report = &imported.report.documents[0];
//! assert_eq!(report.diagnostics[0].pointer, "/metadata/creator");
//! assert!(imported.report.is_valid());
//! ```

mod card;
mod classic;
mod detect;
mod document;
mod layered;
mod names;
mod notes;
mod offsets;
mod options;
mod ordered;

use cardkit::report::{DocumentReport, FileReport, Layout, Omitted};
use cardkit::Code;
use serde_json::Value;

pub use detect::Format;
pub use document::ImportedDocument;
pub use names::file_names;
pub use options::{From, ImportOptions};

use crate::limit::MAX_DESIGN_BYTES;
use document::Part;
use notes::Notes;

/// What importing one input gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The format the input was read as; `None` when it is none.
    pub format: Option<Format>,
    /// The documents converted, in input order (those with an error in the
    /// report are not among them).
    pub documents: Vec<ImportedDocument>,
    /// One report per document of the input (converted or not), with the
    /// diagnostics at pointers in the input; a report without a kind for a
    /// problem of the whole input.
    pub report: FileReport,
}

/// Imports one input (the bytes of a file).
#[must_use]
pub fn import(bytes: &[u8], options: &ImportOptions) -> Imported {
    let (format, parts) = convert(bytes, options);
    let layout = if format == Some(Format::Classic) {
        Layout::Array
    } else {
        Layout::Bare
    };
    let mut documents = Vec::new();
    let mut reports = Vec::new();
    let mut all_notes: Vec<Notes> = Vec::new();
    for part in parts {
        if let Some(document) = part.document {
            if !part.notes.has_error() {
                documents.push(document);
            }
        }
        reports.push((part.pointer, part.kind));
        all_notes.push(part.notes);
    }
    let diagnostics = notes::diagnostics(bytes, all_notes);
    let report = FileReport {
        layout,
        documents: reports
            .into_iter()
            .zip(diagnostics)
            .map(|((pointer, kind), diagnostics)| DocumentReport {
                pointer,
                pointer_bytes: None,
                line: None,
                kind,
                diagnostics,
                omitted: Omitted::default(),
                folded: cardkit::report::Folded::default(),
                ignored: 0,
                names: cardkit::schema::Names::Spec,
            })
            .collect(),
    };
    Imported {
        format,
        documents,
        report,
    }
}

fn convert(bytes: &[u8], options: &ImportOptions) -> (Option<Format>, Vec<Part>) {
    if bytes.len() > MAX_DESIGN_BYTES {
        return (
            None,
            vec![Part::failed(format!(
                "the input is {} bytes, more than the import's limit of {MAX_DESIGN_BYTES} bytes",
                bytes.len()
            ))],
        );
    }
    let value = match read(bytes) {
        Ok(value) => value,
        Err(part) => return (None, vec![*part]),
    };
    let format = match detect::detect(&value, options.from) {
        Ok(format) => format,
        // What it is instead, when the validator can tell.
        Err(why) => {
            let why = detect::other_kind(bytes).unwrap_or(why);
            return (None, vec![Part::failed(why)]);
        }
    };
    // A card design is told by members a set or a migration may have too
    // (`data`): the validator's reading of the file says which it is.
    if format == Format::Layered && !detect::is_template(&value) {
        if let Some(what) = detect::other_kind(bytes) {
            return (None, vec![Part::failed(what)]);
        }
    }
    let parts = match format {
        Format::Layered | Format::Spec => vec![layered::convert(value, format, options, bytes)],
        Format::Classic => classic::convert(value, options, bytes),
    };
    (Some(format), parts)
}

/// The input as a `Value`: malformed JSON is reported as `validate`
/// reports it (its `invalid_json` diagnostic, located), nesting deeper than
/// the validator reads as `not_convertible`.
fn read(bytes: &[u8]) -> Result<Value, Box<Part>> {
    if let Some(depth) = offsets::deeper_than(bytes, cardkit::validate::MAX_DEPTH) {
        let mut notes = Notes::default();
        notes.not_convertible_at(
            depth,
            format!(
                "arrays and objects are nested more than {} deep here, deeper than documents \
                 may nest",
                cardkit::validate::MAX_DEPTH
            ),
        );
        return Err(Box::new(Part {
            pointer: String::new(),
            kind: None,
            document: None,
            notes,
        }));
    }
    let text = bytes.strip_prefix(cardkit_json::BOM).unwrap_or(bytes);
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    deserializer.disable_recursion_limit();
    let deserializer = serde_stacker::Deserializer::new(&mut deserializer);
    let parsed = serde::Deserialize::deserialize(deserializer);
    match parsed {
        Ok(value) => Ok(value),
        Err(_) => {
            // The validator's reader says exactly what is wrong, and where.
            let report = cardkit::validate(bytes, &cardkit::Options::default());
            let found = report
                .documents
                .into_iter()
                .flat_map(|document| document.diagnostics)
                .find(|diagnostic| diagnostic.code == Code::InvalidJson);
            let mut notes = Notes::default();
            match found {
                Some(diagnostic) => notes.located(diagnostic),
                None => notes.not_convertible("", "the input is not well-formed JSON".to_owned()),
            }
            Err(Box::new(Part {
                pointer: String::new(),
                kind: None,
                document: None,
                notes,
            }))
        }
    }
}
