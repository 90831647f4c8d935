//! What the import says about one document, collected as it converts: each
//! note at a JSON Pointer in the input, made into located diagnostics once
//! the whole input is converted (one pass finds every pointer's offset).

use cardkit::diagnostic::Detail;
use cardkit::Diagnostic;
use cardkit::Severity;
use serde_json::Value;

use super::offsets;

/// The most characters of a value a note quotes.
const QUOTED_CHARS: usize = 80;

/// The notes of one document.
#[derive(Debug, Default)]
pub(super) struct Notes {
    notes: Vec<Note>,
    /// Diagnostics that came located (the validator's `invalid_json`).
    located: Vec<Diagnostic>,
}

#[derive(Debug)]
struct Note {
    /// In the input.
    pointer: String,
    /// The spec's `Model.field`, when there is one.
    field: Option<String>,
    detail: Detail,
    severity: Severity,
    /// A byte offset known already, instead of the pointer's.
    offset: Option<usize>,
}

impl Notes {
    /// A member left out of the output.
    pub fn dropped(&mut self, pointer: &str, member: &str, reason: impl Into<String>) {
        self.push(
            pointer,
            None,
            Detail::DroppedMember {
                member: cut(member),
                reason: reason.into(),
            },
        );
    }

    /// A value of the output that is derived, not carried over.
    pub fn derived(&mut self, pointer: &str, field: &str, value: &Value, from: impl Into<String>) {
        self.push(
            pointer,
            Some(field.to_owned()),
            Detail::DerivedValue {
                field: field.to_owned(),
                value: quoted(value),
                from: from.into(),
            },
        );
    }

    /// A text code the spec's text layers do not read.
    pub fn text_code(&mut self, pointer: &str, text_code: &str) {
        self.push(
            pointer,
            Some("Text.text".to_owned()),
            Detail::UnknownTextCode {
                text_code: cut(text_code),
            },
        );
    }

    /// The document, or the input, cannot be converted.
    pub fn not_convertible(&mut self, pointer: &str, reason: String) {
        self.push(pointer, None, Detail::NotConvertible { reason });
    }

    /// As [`Notes::not_convertible`], at a byte offset.
    pub fn not_convertible_at(&mut self, offset: usize, reason: String) {
        self.notes.push(Note {
            pointer: String::new(),
            field: None,
            detail: Detail::NotConvertible { reason },
            severity: Severity::Error,
            offset: Some(offset),
        });
    }

    /// A diagnostic of the validator about the output, at `pointer` in the
    /// input.
    pub fn validator(&mut self, pointer: String, diagnostic: &Diagnostic) {
        self.notes.push(Note {
            pointer,
            field: diagnostic.field.clone(),
            detail: diagnostic.detail.clone(),
            severity: diagnostic.severity,
            offset: None,
        });
    }

    /// A diagnostic located already.
    pub fn located(&mut self, diagnostic: Diagnostic) {
        self.located.push(diagnostic);
    }

    /// An error is among the notes: the document is not written.
    pub fn has_error(&self) -> bool {
        self.notes
            .iter()
            .any(|note| note.severity == Severity::Error)
            || self
                .located
                .iter()
                .any(|diagnostic| diagnostic.severity == Severity::Error)
    }

    fn push(&mut self, pointer: &str, field: Option<String>, detail: Detail) {
        let severity = detail.code().default_severity();
        self.notes.push(Note {
            pointer: pointer.to_owned(),
            field,
            detail,
            severity,
            offset: None,
        });
    }
}

/// The diagnostics of each document's notes, located in `bytes`, each
/// document's in input order. All are located in one pass over the bytes,
/// whatever the number of documents.
pub(super) fn diagnostics(bytes: &[u8], all: Vec<Notes>) -> Vec<Vec<Diagnostic>> {
    let pointers: Vec<&str> = all
        .iter()
        .flat_map(|notes| &notes.notes)
        .filter(|note| note.offset.is_none())
        .map(|note| note.pointer.as_str())
        .collect();
    let found = offsets::Offsets::find(bytes, &pointers);
    let mut made: Vec<(usize, Diagnostic)> = Vec::new();
    let mut located: Vec<Vec<Diagnostic>> = Vec::with_capacity(all.len());
    for (document, notes) in all.into_iter().enumerate() {
        for note in notes.notes {
            let offset = note.offset.unwrap_or_else(|| found.of(&note.pointer));
            let diagnostic =
                Diagnostic::new(note.detail, note.severity, note.pointer, note.field, offset);
            made.push((document, diagnostic));
        }
        located.push(notes.located);
    }
    let mut diagnostics: Vec<Diagnostic> = Vec::with_capacity(made.len());
    let owners: Vec<usize> = made
        .into_iter()
        .map(|(document, diagnostic)| {
            diagnostics.push(diagnostic);
            document
        })
        .collect();
    cardkit::validate::locate_in(bytes, &mut diagnostics);
    let mut documents = located;
    for (document, diagnostic) in owners.into_iter().zip(diagnostics) {
        documents[document].push(diagnostic);
    }
    for diagnostics in &mut documents {
        diagnostics.sort_by_key(|diagnostic| diagnostic.offset);
    }
    documents
}

/// A value as a note quotes it: JSON, cut after [`QUOTED_CHARS`]
/// characters.
fn quoted(value: &Value) -> String {
    let text = match value {
        // A long string (a `data:` picture) is cut before it is written.
        Value::String(text) if text.len() > 4 * QUOTED_CHARS => {
            let head: String = text.chars().take(QUOTED_CHARS).collect();
            Value::String(head).to_string()
        }
        other => other.to_string(),
    };
    if text.chars().count() <= QUOTED_CHARS {
        return text;
    }
    let head: String = text.chars().take(QUOTED_CHARS).collect();
    format!("{head}…")
}

/// A name from the input as a message quotes it: cut after
/// [`QUOTED_CHARS`] characters (a member name may be megabytes long).
fn cut(name: &str) -> String {
    if name.len() <= QUOTED_CHARS {
        return name.to_owned();
    }
    let mut head: String = name.chars().take(QUOTED_CHARS).collect();
    if head.len() < name.len() {
        head.push('…');
    }
    head
}
