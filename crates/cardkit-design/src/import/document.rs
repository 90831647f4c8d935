//! What a conversion makes: one document in the spec's shape
//! ([`ImportedDocument`]), and one document of the input as converted, with
//! its notes ([`Part`]).

use cardkit::Kind;
use serde_json::Value;

use super::notes::Notes;
use super::ordered;

/// One document the import made.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedDocument {
    /// Template or card.
    pub kind: Kind,
    /// The document's name (a card's `name`, a template's), for file names.
    pub name: String,
    /// The document, in the spec's shape.
    pub value: Value,
    /// Where it comes from in the input: `""` for the root, `/3` for the
    /// fourth entry of a classic save file.
    pub pointer: String,
}

impl ImportedDocument {
    /// The document as indented JSON (and a final new line), its members in
    /// the spec's order.
    #[must_use]
    pub fn to_json_pretty(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.ordered()).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The document as one line of JSON (without the new line), its members
    /// in the spec's order.
    #[must_use]
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(&self.ordered()).unwrap_or_default()
    }

    fn ordered(&self) -> ordered::Ordered<'_> {
        ordered::Ordered {
            value: &self.value,
            shape: ordered::Shape::Model(self.kind.model()),
        }
    }
}

/// One document of the input as converted: the document (unless it could
/// not be made), its notes.
pub(super) struct Part {
    pub(super) pointer: String,
    pub(super) kind: Option<Kind>,
    pub(super) document: Option<ImportedDocument>,
    pub(super) notes: Notes,
}

impl Part {
    /// A problem of the whole input.
    pub(super) fn failed(reason: String) -> Part {
        let mut notes = Notes::default();
        notes.not_convertible("", reason);
        Part {
            pointer: String::new(),
            kind: None,
            document: None,
            notes,
        }
    }
}
