//! What kind of problem a diagnostic is ([`Code`], stable strings that are
//! part of the public interface), and whether it makes a document invalid
//! ([`Severity`]).

use std::fmt;

use serde::Serialize;

/// A stable machine code for each kind of problem. The strings returned by
/// [`Code::as_str`] are part of cardkit's public interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(
        description = "What kind of problem: a stable code (`cardkit explain CODE` explains it)."
    )
)]
#[serde(rename_all = "snake_case")]
// Exhaustive on purpose: the explanations, the words and the SARIF rules
// match every code, so a new code does not compile until it is explained
// everywhere.
pub enum Code {
    /// The input is not well-formed JSON (syntax, encoding, a number beyond
    /// 64-bit float range, trailing content, an empty input).
    InvalidJson,
    /// A required member is absent.
    MissingField,
    /// A value has another JSON type than the field's (no coercion).
    WrongType,
    /// `null` where the field does not allow it.
    NullNotAllowed,
    /// A constant field has another value.
    ConstMismatch,
    /// A value outside its enumeration.
    EnumMismatch,
    /// A string that is not a valid uuid, date, uri or color.
    InvalidFormat,
    /// A layer or filter without its `type` tag.
    MissingDiscriminator,
    /// A `type` tag with a value that names no known shape.
    UnknownDiscriminator,
    /// A value of a plain union that matches none of its shapes.
    NoMatchingShape,
    /// An integer beyond the 64-bit range.
    OutOfRange,
    /// Nesting deeper than the documented limit.
    TooDeep,
    /// The document's kind could not be told from its content.
    UnknownKind,
    /// A member the spec does not define (a warning unless unknown fields are
    /// denied).
    UnknownField,
    /// The same key twice in one object; the last one wins.
    DuplicateKey,
    /// A field introduced after the version validated against (`--as-of`); a
    /// warning unless versions are strict.
    NewerField,
    /// A deprecated field is present (reported when asked for).
    DeprecatedField,
    /// `cardkit import`: a member of the design tool's file that the spec's
    /// shapes have no place for; it is not in the output.
    DroppedMember,
    /// `cardkit import`: a value of the output that the input does not hold
    /// as such, derived from other members or from the tool's conventions.
    DerivedValue,
    /// `cardkit import`: a text code of the design tool (`{fontbelerenb}`)
    /// that the spec's text layers give no meaning; kept in the text.
    UnknownTextCode,
    /// `cardkit import`: an input, or a document in it, that cannot be
    /// converted to the spec's shapes at all.
    NotConvertible,
    /// `--references`: a member names a record, card or set that the
    /// documents read do not hold.
    DanglingReference,
    /// `--references`: a `uuid` or set code that another record or set has
    /// too.
    DuplicateId,
    /// `--references`: two records of a set are the same printing (number,
    /// side and language).
    DuplicatePrinting,
    /// `--references`: a record's `setCode` is not its set's code.
    SetCodeMismatch,
    /// `--references`: a record's other face does not name it back.
    AsymmetricFaces,
    /// `--references`: a variation that is a record of another set.
    VariationElsewhere,
}

impl Code {
    /// Every code, in documentation order.
    pub const ALL: &'static [Code] = &[
        Code::InvalidJson,
        Code::MissingField,
        Code::WrongType,
        Code::NullNotAllowed,
        Code::ConstMismatch,
        Code::EnumMismatch,
        Code::InvalidFormat,
        Code::MissingDiscriminator,
        Code::UnknownDiscriminator,
        Code::NoMatchingShape,
        Code::OutOfRange,
        Code::TooDeep,
        Code::UnknownKind,
        Code::UnknownField,
        Code::DuplicateKey,
        Code::NewerField,
        Code::DeprecatedField,
        Code::DroppedMember,
        Code::DerivedValue,
        Code::UnknownTextCode,
        Code::NotConvertible,
        Code::DanglingReference,
        Code::DuplicateId,
        Code::DuplicatePrinting,
        Code::SetCodeMismatch,
        Code::AsymmetricFaces,
        Code::VariationElsewhere,
    ];

    /// The code's place in [`Code::ALL`].
    #[must_use]
    pub fn index(self) -> usize {
        Code::ALL.iter().position(|&c| c == self).unwrap_or(0)
    }

    /// The stable code string, e.g. `missing_field`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidJson => "invalid_json",
            Code::MissingField => "missing_field",
            Code::WrongType => "wrong_type",
            Code::NullNotAllowed => "null_not_allowed",
            Code::ConstMismatch => "const_mismatch",
            Code::EnumMismatch => "enum_mismatch",
            Code::InvalidFormat => "invalid_format",
            Code::MissingDiscriminator => "missing_discriminator",
            Code::UnknownDiscriminator => "unknown_discriminator",
            Code::NoMatchingShape => "no_matching_shape",
            Code::OutOfRange => "out_of_range",
            Code::TooDeep => "too_deep",
            Code::UnknownKind => "unknown_kind",
            Code::UnknownField => "unknown_field",
            Code::DuplicateKey => "duplicate_key",
            Code::NewerField => "newer_field",
            Code::DeprecatedField => "deprecated_field",
            Code::DroppedMember => "dropped_member",
            Code::DerivedValue => "derived_value",
            Code::UnknownTextCode => "unknown_text_code",
            Code::NotConvertible => "not_convertible",
            Code::DanglingReference => "dangling_reference",
            Code::DuplicateId => "duplicate_id",
            Code::DuplicatePrinting => "duplicate_printing",
            Code::SetCodeMismatch => "set_code_mismatch",
            Code::AsymmetricFaces => "asymmetric_faces",
            Code::VariationElsewhere => "variation_elsewhere",
        }
    }

    /// A code of `cardkit import`, which only converting a design tool's
    /// file gives (the validator never does).
    #[must_use]
    pub fn is_import(self) -> bool {
        matches!(
            self,
            Code::DroppedMember | Code::DerivedValue | Code::UnknownTextCode | Code::NotConvertible
        )
    }

    /// A code of `--references`, which only checking the references
    /// between documents gives.
    #[must_use]
    pub fn is_reference(self) -> bool {
        matches!(
            self,
            Code::DanglingReference
                | Code::DuplicateId
                | Code::DuplicatePrinting
                | Code::SetCodeMismatch
                | Code::AsymmetricFaces
                | Code::VariationElsewhere
        )
    }

    /// The severity of the code unless options change it.
    #[must_use]
    pub fn default_severity(self) -> Severity {
        match self {
            Code::UnknownField
            | Code::DuplicateKey
            | Code::NewerField
            | Code::DeprecatedField
            | Code::DroppedMember
            | Code::DerivedValue
            | Code::UnknownTextCode => Severity::Warning,
            code if code.is_reference() => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl std::str::FromStr for Code {
    type Err = String;

    /// Parses a code's string, e.g. `missing_field`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == text)
            .ok_or_else(|| format!("`{text}` is no diagnostic code"))
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a diagnostic makes its document invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The document is invalid.
    Error,
    /// Worth knowing; the document stays valid.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}
