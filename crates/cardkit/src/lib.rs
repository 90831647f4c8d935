//! cardkit: typed models and complete validation of trading-card data documents.
#![deny(missing_docs)]

// The derive macro names this crate by its absolute path, also from inside it.
extern crate self as cardkit;

pub mod diagnostic;
pub mod format;
pub mod model;
pub mod render;
pub mod report;
pub mod schema;
pub mod validate;

pub use diagnostic::{Code, Diagnostic, Severity};
pub use validate::{validate, DocumentReport, FileReport, Kind, Options};

pub use cardkit_derive::Model;

#[doc(hidden)]
pub mod __private {
    pub use serde_json;

    /// A default value as JSON, for the field tables.
    pub fn to_json<T: serde::Serialize>(value: &T) -> serde_json::Value {
        serde_json::to_value(value).expect("defaults serialize to JSON")
    }
}
