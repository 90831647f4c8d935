//! Reading a document into its typed model, after validating it.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::model::Kind;
use crate::model::{Card, Migration, Set, Template};
use crate::schema::Model;
use crate::validate::{validate, FileReport, Layout, Options};

/// A model that is a whole document of one kind.
pub trait Document: Model + DeserializeOwned {
    /// The document's kind.
    const KIND: Kind;

    /// Fills in what the model derives from the document (the ids of a set).
    fn complete(&mut self) {}
}

impl Document for Template {
    const KIND: Kind = Kind::Template;
}

impl Document for Card {
    const KIND: Kind = Kind::Card;
}

impl Document for Migration {
    const KIND: Kind = Kind::Migration;
}

impl Document for Set {
    const KIND: Kind = Kind::Set;

    fn complete(&mut self) {
        self.enforce_ids();
    }
}

/// Why a document could not be read into its model.
#[derive(Debug)]
pub enum ParseError {
    /// The document is invalid; the report says where and why.
    Invalid(Box<FileReport>),
    /// The input holds documents in a container, not one bare document.
    NotBare(Layout),
    /// A valid document the model cannot hold (an integer beyond `i64`).
    Model(serde_json::Error),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Invalid(report) => {
                let errors = report
                    .documents
                    .iter()
                    .flat_map(|d| &d.diagnostics)
                    .filter(|d| d.severity == crate::Severity::Error);
                let mut first = true;
                for d in errors {
                    if !first {
                        f.write_str("; ")?;
                    }
                    first = false;
                    write!(
                        f,
                        "{}:{}: {} at {:?}: {}",
                        d.line,
                        d.column,
                        d.code,
                        d.pointer,
                        d.message()
                    )?;
                }
                Ok(())
            }
            ParseError::NotBare(layout) => write!(
                f,
                "expected one bare document, found a {} container",
                layout.as_str()
            ),
            ParseError::Model(error) => write!(f, "the document does not fit the model: {error}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Validates one bare document of `T`'s kind and reads it into `T`, applying
/// the spec's `enforce_id` to sets.
///
/// ```
/// use cardkit::model::Migration;
///
/// let json = br#"{"object": "migration", "uri": "https://api.example.org/m/1",
///   "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}"#;
/// let migration: Migration = cardkit::from_slice(json).unwrap();
/// assert_eq!(migration.migration_strategy, "delete");
///
/// let error = cardkit::from_slice::<Migration>(br#"{"object": "migration"}"#).unwrap_err();
/// assert!(error.to_string().contains("missing_field"));
/// ```
///
/// # Errors
/// [`ParseError::Invalid`] with the full report when the document has errors;
/// [`ParseError::NotBare`] for a container; [`ParseError::Model`] for a valid
/// integer beyond `i64`.
pub fn from_slice<T: Document>(input: &[u8]) -> Result<T, ParseError> {
    let options = Options {
        kind: Some(T::KIND),
        ..Options::default()
    };
    let report = validate(input, &options);
    if !report.is_valid() {
        return Err(ParseError::Invalid(Box::new(report)));
    }
    if report.layout != Layout::Bare {
        return Err(ParseError::NotBare(report.layout));
    }
    let mut document: T = serde_json::from_slice(input).map_err(ParseError::Model)?;
    document.complete();
    Ok(document)
}

/// [`from_slice`] for text.
///
/// # Errors
/// As [`from_slice`].
pub fn from_str<T: Document>(input: &str) -> Result<T, ParseError> {
    from_slice(input.as_bytes())
}
