//! The diff as typed data; the renderers only format it.

use serde::Serialize;

use crate::value::Json;

/// A document that is not a whole valid set.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// The file.
    pub path: String,
    /// The document's pointer (`/data/10E`), or its line for JSON Lines.
    pub at: String,
    /// What is wrong.
    pub message: String,
    /// The document was read (and is diffed with `--on-invalid keep`).
    pub read: bool,
    /// The document is invalid: its report's diagnostics say why (the
    /// others are valid documents that are not sets).
    #[serde(skip)]
    pub invalid: bool,
}

/// What happened to a set or a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// In the new build only.
    Added,
    /// In the old build only.
    Removed,
    /// In both, with other values.
    Changed,
    /// A printing whose uuid changed: removed from the old build and added
    /// to the new one with the same natural key.
    Rekeyed,
}

impl Change {
    /// The change's name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
            Change::Rekeyed => "rekeyed",
        }
    }
}

/// One value that changed, at its pointer within its record (or set).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    /// The JSON Pointer within the record (`/identifiers/catalogAId`).
    pub pointer: String,
    /// The old value; absent when the member was absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Json>,
    /// The new value; absent when the member is absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Json>,
}

/// A card, token or sealed product that was added, removed or changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordDiff {
    /// The set's list it is in (`cards`, `tokens`, `sealedProduct`).
    pub list: &'static str,
    /// What happened.
    pub change: Change,
    /// Its uuid (the new one when re-keyed).
    pub uuid: String,
    /// The uuid it had, when re-keyed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_uuid: Option<String>,
    /// Its collector number, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<String>,
    /// Its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its pointer in the old file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_pointer: Option<String>,
    /// Its pointer in the new file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_pointer: Option<String>,
    /// Some of its identifiers changed (on the same uuid, or re-keyed).
    pub reidentified: bool,
    /// Every value that changed, by pointer (identifiers included).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldChange>,
}

/// A set that was added, removed or changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetDiff {
    /// Its code.
    pub code: String,
    /// What happened.
    pub change: Change,
    /// Its file in the old build, when that build is a directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_file: Option<String>,
    /// Its file in the new build, when that build is a directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_file: Option<String>,
    /// Its pointer in the old file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_pointer: Option<String>,
    /// Its pointer in the new file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_pointer: Option<String>,
    /// Records in the set (in the build it is in, for added and removed
    /// sets; in the new build for changed ones).
    pub records: usize,
    /// Set-level values that changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldChange>,
    /// Records added, removed, re-keyed and changed (for changed sets), in
    /// list order, then the new build's order (the old one's for removed
    /// records).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<RecordDiff>,
}

/// Kinds of drift.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DriftKind {
    /// A field the old build never had.
    NewField,
    /// A field the new build no longer has.
    VanishedField,
    /// A field with values of a JSON type it had none of.
    TypeChanged,
    /// A field with few values that gained values.
    NewValues,
}

impl DriftKind {
    /// The kind's name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            DriftKind::NewField => "new_field",
            DriftKind::VanishedField => "vanished_field",
            DriftKind::TypeChanged => "type_changed",
            DriftKind::NewValues => "new_values",
        }
    }
}

/// How one field drifted, summed up over every set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DriftReport {
    /// The field's pattern (`/cards/*/rarity`).
    pub pattern: String,
    /// What drifted.
    pub kind: DriftKind,
    /// How many values it concerns: the field's values in the build that has
    /// it, those of the new types, those that are new values.
    pub count: u64,
    /// The pointer of one of them (in the new file; in the old one for a
    /// vanished field).
    pub example: String,
    /// The JSON types of its values in the old build.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub old_types: Vec<String>,
    /// The JSON types of its values in the new build.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub new_types: Vec<String>,
    /// For new values: each value with how many times it occurs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<(String, u64)>,
}

/// A reference the change breaks: what `validate --references` finds in the
/// new build and not in the old one. Findings are known by their code, the
/// record they are in (its uuid; the set's code for a set's own members, and
/// for a printing given twice, as which of its records comes second moves
/// when they are reordered), their field and their value, never by their
/// place, which moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BrokenReference {
    /// Its code (`dangling_reference`, `duplicate_id`, …).
    pub code: &'static str,
    /// The code of the set it is in.
    pub set: String,
    /// The uuid of the record whose member it is (`#N`, its place, when it
    /// has none); absent for a set's own members.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// The referring member (`CardSet.otherFaceIds`).
    pub field: String,
    /// The value the finding is about: the id, name or code named, given
    /// twice or not named back; the set code a record gives; a printing
    /// given twice, in words.
    pub value: String,
    /// Its file in the new build, when that build is a directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Its pointer in the new file.
    pub pointer: String,
    /// What is wrong, in the words of `validate --references`.
    pub message: String,
}

/// What was read of one build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideSummary {
    /// The file or directory, as given.
    pub path: String,
    /// Documents read.
    pub documents: usize,
    /// Sets.
    pub sets: usize,
    /// Cards, tokens and sealed products.
    pub records: usize,
    /// The build's date (`meta.date`), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Bytes read.
    pub bytes: u64,
}

/// Totals of a diff.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Sets added.
    pub sets_added: usize,
    /// Sets removed.
    pub sets_removed: usize,
    /// Sets changed.
    pub sets_changed: usize,
    /// Records added.
    pub records_added: usize,
    /// Records removed.
    pub records_removed: usize,
    /// Records changed on the same uuid.
    pub records_changed: usize,
    /// Printings whose uuid changed.
    pub records_rekeyed: usize,
    /// Records (changed or re-keyed) whose identifiers changed.
    pub records_reidentified: usize,
    /// Values changed, in every changed or re-keyed record and set.
    pub field_changes: usize,
    /// Numbers the same by value but written another way (`3.0` for `3`,
    /// `1e1` for `10`) in the records and sets compared: not changes, so
    /// no record or set changed for them alone.
    pub numbers_rewritten: usize,
    /// Fields that drifted.
    pub drift: usize,
    /// Migration notices made.
    pub migrations: usize,
    /// References the change breaks ([`BrokenReference`]), when they were
    /// checked ([`crate::DiffOptions::references`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub references_broken: Option<usize>,
    /// References the change mends, when they were checked: findings of
    /// the old build's references that the new build no longer has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub references_fixed: Option<usize>,
}

impl Summary {
    /// Whether nothing changed (numbers written another way are the same
    /// values; references checked and none broken or fixed are no
    /// change).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self
            == Summary {
                migrations: self.migrations,
                numbers_rewritten: self.numbers_rewritten,
                references_broken: self.references_broken.map(|_| 0),
                references_fixed: self.references_fixed.map(|_| 0),
                ..Summary::default()
            }
    }
}

/// What changed between two builds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diff {
    /// The old build.
    pub old: SideSummary,
    /// The new build.
    pub new: SideSummary,
    /// Documents that are invalid or not sets (with `--on-invalid keep`,
    /// those read were diffed as far as they parse).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
    /// With `--on-invalid skip`, the codes of the sets left out (an invalid
    /// set with that code is on either side), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// Sets added, removed and changed, by code.
    pub sets: Vec<SetDiff>,
    /// How the fields drifted.
    pub drift: Vec<DriftReport>,
    /// The references the change breaks, in the new build's order, when
    /// they were checked ([`crate::DiffOptions::references`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub references: Option<Vec<BrokenReference>>,
    /// Migration notices for the catalog ids the new build no longer has.
    #[serde(skip)]
    pub migrations: Vec<crate::notices::MigrationNotice>,
    /// Totals.
    pub summary: Summary,
}
