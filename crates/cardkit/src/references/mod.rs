//! The references between the documents of a catalog, checked over
//! everything one run reads (`cardkit validate --references`): the ids and
//! codes records and sets are known by, and the members that name them, as
//! the field tables declare them ([`Link`]). Each set document's facts are
//! read from the validator's tape as it goes ([`SetFacts::read`]); what
//! one document settles is settled at once, and what names another
//! document is kept, compactly, until the run ends ([`References::finish`]).
//!
//! The rules, and why each is what the publishers' data means, are in the
//! book's chapter on references.

mod digest;
mod extract;
mod place;
mod rules;

pub use digest::Digest;
pub use extract::{Mention, Record, RecordKind, SetFacts, Value};
pub use place::At;
pub use rules::{Finding, Findings, Outcome, Placed, References};

use crate::diagnostic::Severity;
use crate::schema::Link;
use crate::validate::{Options, Validator};

/// Checks the references of one input held in memory, validated with
/// `options`, as a run over it alone does: findings of `severity`, by
/// document.
///
/// ```
/// use cardkit::references::check_slice;
/// use cardkit::{Code, Options, Severity};
///
/// let set = br#"{"code": "A", "cards": [{"uuid": "5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a",
///   "otherFaceIds": ["00000000-0000-4000-8000-000000000000"]}], "tokens": []}"#;
/// let outcome = check_slice(set, &Options::default(), Severity::Warning);
/// let (_, report, _) = &outcome.reports[0];
/// assert_eq!(report.diagnostics[0].code, Code::DanglingReference);
/// assert_eq!(report.diagnostics[0].pointer, "/cards/0/otherFaceIds/0");
/// ```
#[must_use]
pub fn check_slice(input: &[u8], options: &Options, severity: Severity) -> Outcome {
    let mut references = References::new(severity).filtered(options.filter);
    // What cannot be read is reported by validation; the references of what
    // was read are still given.
    let _ = references.read(Validator::new(*options).jobs(1), "", input, |_| {});
    references.finish()
}

/// What a dangling or duplicated value names: a record (by `uuid`), a card
/// (by name) or a set (by code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// A card, token or sealed product, by its `uuid`.
    Record,
    /// A card, by its name.
    Card,
    /// A set, by its code.
    Set,
}

impl Target {
    /// In words: `record`, `card`, `set`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Target::Record => "record",
            Target::Card => "card",
            Target::Set => "set",
        }
    }

    /// What the values of a link name.
    #[must_use]
    pub fn of(link: Link) -> Target {
        match link {
            Link::CardNames | Link::Name => Target::Card,
            Link::Code | Link::SetCode | Link::ParentSet | Link::TokenSet => Target::Set,
            _ => Target::Record,
        }
    }
}
