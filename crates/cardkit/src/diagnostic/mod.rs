//! Diagnostics: what is wrong, where and why, as plain data. The words of a
//! diagnostic's message come from [`words`]; laying diagnostics out is the
//! business of [`crate::render`].

mod code;
mod detail;
mod problem;
pub mod quote;
pub mod words;

pub use code::{Code, Severity};
pub use detail::Detail;
pub use problem::{Diagnostic, DiagnosticJson, Excerpt, Related};
