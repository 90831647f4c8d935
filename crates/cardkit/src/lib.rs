//! cardkit: typed models and complete validation of trading-card data
//! documents: card-design templates, card designs, card sets and catalog
//! migrations.
//!
//! - [`validate`] checks every document of a file and reports every problem
//!   ([`Diagnostic`]: code, JSON Pointer, line, column, message).
//! - [`from_slice`] validates one document and reads it into its typed model
//!   ([`model`]).
//! - [`schema`] holds the field tables derived from the models: the single
//!   source of every field's facts.
//! - [`render`] turns reports into text or JSON.
#![deny(missing_docs)]

// The derive macro names this crate by its absolute path, also from inside it.
extern crate self as cardkit;

pub mod diagnostic;
pub mod model;
mod parse;
pub mod references;
pub mod report;
pub mod schema;
mod table;
pub mod validate;

pub use diagnostic::{Code, Diagnostic, Severity};
pub use model::Kind;
pub use parse::{from_slice, from_str, Document, ParseError};
pub use validate::{validate, DocumentReport, FileReport, Options, Validator};

pub use cardkit_derive::Model;

#[doc(hidden)]
pub mod __private {
    pub use serde_json;

    /// A default value as JSON, for the field tables.
    pub fn to_json<T: serde::Serialize>(value: &T) -> serde_json::Value {
        serde_json::to_value(value).expect("defaults serialize to JSON")
    }
}

// The README's Rust examples run as doctests, so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

// So do the book's: its chapter on the library (docs/library.md).
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
struct BookLibraryDoctests;
