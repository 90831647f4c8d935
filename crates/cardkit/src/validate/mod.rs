//! Validation of whole files: finding the documents in a file, validating each
//! against the field tables, and locating every diagnostic.
//!
//! [`Validator`] is the one way in: options, threads, and what to hand out
//! (reports alone, or with what an extractor makes of each document).
//! [`validate`] is its shorthand for a file held in memory.
//!
//! ```
//! use cardkit::validate::{validate, Options};
//!
//! let report = validate(br#"{"object": "migration"}"#, &Options::default());
//! let codes: Vec<&str> = report.documents[0]
//!     .diagnostics
//!     .iter()
//!     .map(|d| d.code.as_str())
//!     .collect();
//! assert_eq!(codes, ["missing_field", "missing_field", "missing_field"]);
//! ```

mod around;
mod check;
mod container;
mod dispatch;
mod documents;
mod filter;
mod findings;
mod fold;
mod layout;
mod locate;
mod options;
mod parallel;
mod part;
mod reader;
mod source;
mod stops;
mod stream;
mod tape;
mod validator;

pub use crate::report::{
    DocumentReport, FileReport, Layout, Omitted, KEPT_ERRORS, KEPT_WARNINGS_PER_CODE,
};
pub use crate::schema::MAX_DEPTH;
pub use filter::Filter;
pub use locate::{locate_in, Locator};
pub use options::{as_of_version, Options};
pub use part::AROUND_LIMIT;
#[doc(hidden)]
pub use source::Buffering;
pub use tape::{Step, Tape, TapeScope};
pub use validator::{Extracting, Found, Validated, Validator, MAX_JOBS};

use cardkit_json::BOM;

#[doc(hidden)]
pub use layout::first_kind_told;

/// Validates every document of a file held in memory: the shorthand of
/// [`Validator::slice`] on one thread.
#[must_use]
pub fn validate(input: &[u8], options: &Options) -> FileReport {
    Validator::new(*options).slice(input)
}

/// Whether text that is not in a `.jsonl` file looks like JSON Lines: a
/// first value that ends on its line, followed by more values on later lines.
/// `input` may be the first part of a longer input.
#[must_use]
pub fn looks_like_json_lines(input: &[u8]) -> bool {
    let input = input.strip_prefix(BOM).unwrap_or(input);
    let start = input.iter().position(|b| !b.is_ascii_whitespace());
    let Some(Ok(end)) = start.map(|start| cardkit_json::skip_raw(input, start)) else {
        return false;
    };
    let rest = &input[end..];
    let next = rest.iter().position(|b| !b.is_ascii_whitespace());
    next.is_some_and(|next| rest[..next].contains(&b'\n'))
}
