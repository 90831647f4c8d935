//! What a diagnostic says, as data: the problem, what was expected and what
//! was found. Every message is made from this by [`super::words`].

use crate::model::Kind;
use crate::references::Target;
use crate::table::{Format, TaggedUnion, Type, Version};
use cardkit_json::{FoundValue, Syntax};

use super::code::Code;

/// The data of one problem. Each variant belongs to one [`Code`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Detail {
    /// Malformed JSON.
    Syntax(Syntax),
    /// A required member is absent.
    MissingField {
        /// The model the member belongs to.
        model: &'static str,
        /// The member's name.
        field: &'static str,
    },
    /// A value of another JSON type than expected.
    WrongType {
        /// The type expected.
        expected: &'static Type,
        /// The value found.
        found: FoundValue,
    },
    /// A number with a fractional part where an integer is expected.
    Fraction {
        /// The number found.
        found: FoundValue,
    },
    /// The value of a container's `data` that should hold documents in an
    /// array.
    DocumentsNotInArray {
        /// The value found.
        found: FoundValue,
    },
    /// The value of a catalog's `data` (a later one, beside the `data` that
    /// made it a catalog) that should hold its sets in an object.
    SetsNotInObject {
        /// The value found.
        found: FoundValue,
    },
    /// `null` where the field does not allow it.
    NullNotAllowed {
        /// The type expected.
        expected: &'static Type,
    },
    /// A constant with another value.
    Constant {
        /// The constant.
        expected: &'static str,
        /// The value found.
        found: FoundValue,
    },
    /// A value outside its enumeration.
    Enum {
        /// The enumeration's name.
        name: &'static str,
        /// Its values.
        values: &'static [&'static str],
        /// The value found.
        found: FoundValue,
    },
    /// A string that does not have its format.
    Format {
        /// The format.
        format: Format,
        /// The string found.
        found: FoundValue,
    },
    /// An object of a tagged union without its tag.
    MissingTag {
        /// The union.
        union: &'static TaggedUnion,
    },
    /// A tag that names no shape of its union.
    UnknownTag {
        /// The union.
        union: &'static TaggedUnion,
        /// The tag's value.
        found: FoundValue,
    },
    /// A value of a plain union that matches none of its shapes, told apart
    /// by a constant member.
    NoMatchingShape {
        /// Each shape's model name and the value of its constant member.
        shapes: Vec<(&'static str, &'static str)>,
        /// The constant member's name.
        member: &'static str,
        /// The member's value, when it is there.
        found: Option<FoundValue>,
    },
    /// An integer beyond the 64-bit range.
    OutOfRange {
        /// The number found.
        found: FoundValue,
    },
    /// Nesting deeper than the limit.
    TooDeep {
        /// The limit: arrays and objects within one another.
        limit: usize,
    },
    /// The kind of a document cannot be told.
    UnknownKind,
    /// The kind of a document cannot be told, and it has the members `key`
    /// and `data` of an entry of the design tool's classic save file.
    ClassicEntry,
    /// A member names a document kind, but the object's `data` came first
    /// and was read as a container.
    KindAfterData {
        /// The member's name.
        key: String,
        /// The kind it names.
        kind: Kind,
        /// The container `data` was read as (`wrapped`, `catalog`, `list`).
        layout: &'static str,
    },
    /// The first mebibyte of a root object holds only members that are no
    /// document's field (a long `meta`), so it was read as a container and
    /// those members were skipped; `field` is a document field that came
    /// after them, `None` when no `data` came either.
    ForeignStart {
        /// The name of the object's first member.
        first: String,
        /// The document field found after them.
        field: Option<String>,
    },
    /// A member the model does not define.
    UnknownField {
        /// The model.
        model: &'static str,
        /// The member's name.
        name: String,
        /// The nearest known field name, when one is close.
        suggestion: Option<&'static str>,
    },
    /// The same key again in one object.
    DuplicateKey {
        /// The key.
        name: String,
    },
    /// A field introduced after the version validated against.
    NewerField {
        /// The model.
        model: &'static str,
        /// The field.
        field: &'static str,
        /// Its version tag.
        since: Version,
        /// The version validated against.
        as_of: Version,
    },
    /// A deprecated field that is present.
    DeprecatedField {
        /// The model.
        model: &'static str,
        /// The field.
        field: &'static str,
    },
    /// Importing: a member the output has no place for.
    DroppedMember {
        /// The member's name (or what it is, e.g. `the id "black"`).
        member: String,
        /// Why it has no place, in words.
        reason: String,
    },
    /// Importing: a value of the output derived rather than carried over.
    DerivedValue {
        /// The output's field, e.g. `SymbolSet.name`.
        field: String,
        /// The value written, as JSON.
        value: String,
        /// Where it comes from, in words.
        from: String,
    },
    /// Importing: a text code the spec's text layers give no meaning.
    UnknownTextCode {
        /// The code, braces included.
        text_code: String,
    },
    /// Importing: the input, or a document of it, cannot be converted.
    NotConvertible {
        /// Why, in words.
        reason: String,
    },
    /// References: a member names a record, card or set the run does not
    /// hold.
    DanglingReference {
        /// The value named.
        value: String,
        /// What it names.
        target: Target,
    },
    /// References: an id or set code that another record or set has too.
    DuplicateId {
        /// The id or code.
        value: String,
        /// Whose it is.
        target: Target,
    },
    /// References: a printing (number, side and language) given twice in a
    /// set.
    DuplicatePrinting {
        /// The printing's key, in words.
        key: String,
    },
    /// References: a record's set code is not its set's.
    SetCodeMismatch {
        /// The record's.
        found: String,
        /// The set's, or the codes allowed.
        expected: String,
    },
    /// References: a record's other face does not name it back.
    AsymmetricFaces {
        /// The face's id.
        face: String,
    },
    /// References: a variation that is a record of another set.
    VariationElsewhere {
        /// The variation's id.
        value: String,
        /// The set it is in.
        set: String,
    },
}

impl Detail {
    /// The code of the problem.
    #[must_use]
    pub fn code(&self) -> Code {
        match self {
            Detail::Syntax(_) => Code::InvalidJson,
            Detail::MissingField { .. } => Code::MissingField,
            Detail::WrongType { .. }
            | Detail::Fraction { .. }
            | Detail::DocumentsNotInArray { .. }
            | Detail::SetsNotInObject { .. } => Code::WrongType,
            Detail::NullNotAllowed { .. } => Code::NullNotAllowed,
            Detail::Constant { .. } => Code::ConstMismatch,
            Detail::Enum { .. } => Code::EnumMismatch,
            Detail::Format { .. } => Code::InvalidFormat,
            Detail::MissingTag { .. } => Code::MissingDiscriminator,
            Detail::UnknownTag { .. } => Code::UnknownDiscriminator,
            Detail::NoMatchingShape { .. } => Code::NoMatchingShape,
            Detail::OutOfRange { .. } => Code::OutOfRange,
            Detail::TooDeep { .. } => Code::TooDeep,
            Detail::UnknownKind
            | Detail::ClassicEntry
            | Detail::KindAfterData { .. }
            | Detail::ForeignStart { .. } => Code::UnknownKind,
            Detail::UnknownField { .. } => Code::UnknownField,
            Detail::DuplicateKey { .. } => Code::DuplicateKey,
            Detail::NewerField { .. } => Code::NewerField,
            Detail::DeprecatedField { .. } => Code::DeprecatedField,
            Detail::DroppedMember { .. } => Code::DroppedMember,
            Detail::DerivedValue { .. } => Code::DerivedValue,
            Detail::UnknownTextCode { .. } => Code::UnknownTextCode,
            Detail::NotConvertible { .. } => Code::NotConvertible,
            Detail::DanglingReference { .. } => Code::DanglingReference,
            Detail::DuplicateId { .. } => Code::DuplicateId,
            Detail::DuplicatePrinting { .. } => Code::DuplicatePrinting,
            Detail::SetCodeMismatch { .. } => Code::SetCodeMismatch,
            Detail::AsymmetricFaces { .. } => Code::AsymmetricFaces,
            Detail::VariationElsewhere { .. } => Code::VariationElsewhere,
        }
    }

    /// The values allowed where one of a list was expected (an enumeration,
    /// a constant, the tags of a union).
    #[must_use]
    pub fn allowed(&self) -> Option<Vec<&'static str>> {
        match self {
            Detail::Constant { expected, .. } => Some(vec![*expected]),
            Detail::Enum { values, .. } => Some(values.to_vec()),
            Detail::MissingTag { union } | Detail::UnknownTag { union, .. } => {
                Some(union.variants.iter().map(|(tag, _)| *tag).collect())
            }
            Detail::NoMatchingShape { shapes, .. } => {
                Some(shapes.iter().map(|(_, value)| *value).collect())
            }
            _ => None,
        }
    }

    /// The nearest known name of an unknown field, when one is close.
    #[must_use]
    pub fn suggestion(&self) -> Option<&'static str> {
        match self {
            Detail::UnknownField { suggestion, .. } => *suggestion,
            _ => None,
        }
    }

    /// The value found, when the problem is about one.
    #[must_use]
    pub fn found(&self) -> Option<&FoundValue> {
        match self {
            Detail::WrongType { found, .. }
            | Detail::Fraction { found }
            | Detail::DocumentsNotInArray { found }
            | Detail::SetsNotInObject { found }
            | Detail::Constant { found, .. }
            | Detail::Enum { found, .. }
            | Detail::Format { found, .. }
            | Detail::UnknownTag { found, .. }
            | Detail::OutOfRange { found } => Some(found),
            Detail::NoMatchingShape { found, .. } => found.as_ref(),
            Detail::NullNotAllowed { .. } => Some(&FoundValue::Null),
            _ => None,
        }
    }
}
