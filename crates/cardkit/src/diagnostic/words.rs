//! The words of diagnostics: every message, and the `expected` and `found`
//! of the JSON report, are made here from a diagnostic's [`Detail`], for
//! every renderer alike.

use crate::model::Kind;
use crate::schema::words::{quoted, type_with_article as a_type};
use cardkit_json::{Expect, FoundByte, FoundValue, Syntax};

use super::detail::Detail;

/// The message of a diagnostic: what was expected and what was found.
#[must_use]
pub fn message(detail: &Detail) -> String {
    match detail {
        Detail::Syntax(syntax) => syntax_message(syntax),
        Detail::MissingField { model, field } => missing_fields(model, &[field]),
        Detail::WrongType { expected, found } => {
            format!("expected {}, found {}", a_type(expected), value(found))
        }
        Detail::Fraction { found } => format!(
            "expected an integer, found {} (it has a fractional part)",
            value(found)
        ),
        Detail::DocumentsNotInArray { found } => format!(
            "expected the list's documents in an array, found {}",
            value(found)
        ),
        Detail::SetsNotInObject { found } => format!(
            "expected the catalog's sets in an object by set code, found {}",
            value(found)
        ),
        Detail::NullNotAllowed { expected } => format!(
            "expected {}, found null (null is not allowed here)",
            a_type(expected)
        ),
        Detail::Constant { expected, found } => {
            format!(
                "expected the constant \"{expected}\", found {}",
                value(found)
            )
        }
        Detail::Enum {
            name,
            values,
            found,
        } => format!(
            "expected a {name} (one of {}), found {}",
            quoted(values),
            value(found)
        ),
        Detail::Format { format, found } => format!(
            "expected a {} string, found {}",
            format.name(),
            value(found)
        ),
        Detail::MissingTag { union } => format!(
            "{} has no `{}`: expected one of {}",
            with_article(union.name),
            union.tag,
            quoted(&tags(union))
        ),
        Detail::UnknownTag { union, found } => format!(
            "unknown {} `{}`: expected one of {}, found {}",
            union.name,
            union.tag,
            quoted(&tags(union)),
            value(found)
        ),
        Detail::NoMatchingShape {
            shapes,
            member,
            found,
        } => {
            let names: Vec<&str> = shapes.iter().map(|(name, _)| *name).collect();
            let allowed: Vec<&str> = shapes.iter().map(|(_, value)| *value).collect();
            let why = match found {
                None => format!("it has no `{member}`"),
                Some(found) => format!("its `{member}` is {}", value(found)),
            };
            format!(
                "matches none of {}: {why} (expected `{member}` to be one of {})",
                names.join(", "),
                quoted(&allowed)
            )
        }
        Detail::OutOfRange { found } => format!(
            "integer {} is out of range: integers must fit a signed or unsigned 64-bit integer",
            literal(found)
        ),
        Detail::TooDeep { limit } => {
            format!("nesting deeper than {limit} arrays and objects is not followed")
        }
        Detail::UnknownKind => format!(
            "cannot tell whether this is a {}: name the kind with --kind",
            Kind::listed()
        ),
        Detail::ClassicEntry => format!(
            "cannot tell whether this is a {}: it is an entry of the design tool's classic save \
             file (`key`, `data`), which `cardkit import` converts to card designs",
            Kind::listed()
        ),
        Detail::KindAfterData { key, kind, layout } => {
            let key = name(key);
            format!(
                "`{key}` is a field of a {kind}, but this object's `data` was read as a {layout}: name the kind with --kind, or put `data` after `{key}`"
            )
        }
        Detail::ForeignStart { first, field } => {
            let first = name(first);
            match field {
                Some(field) => format!(
                    "`{}` is a document field, but the first mebibyte of this object holds only members that are no document's field (from `{first}`), so it was read as a container and they were skipped: put the document's fields first",
                    name(field)
                ),
                None => format!(
                    "the first mebibyte of this object holds only members that are no document's field (from `{first}`), and no `data` follows: it is neither a document nor a container of documents"
                ),
            }
        }
        Detail::UnknownField {
            model,
            name: key,
            suggestion,
        } => {
            let hint = suggestion
                .map(|near| format!("; did you mean `{near}`?"))
                .unwrap_or_default();
            format!("unknown field `{}` in {model}{hint}", name(key))
        }
        Detail::DuplicateKey { name: key } => format!(
            "duplicate key `{}`: this later value replaces the earlier one",
            name(key)
        ),
        Detail::NewerField {
            model,
            field,
            since,
            as_of,
        } => format!(
            "field `{field}` of {model}{} was introduced in {since}, after {as_of}",
            spec_name(model, field)
        ),
        Detail::DeprecatedField { model, field } => {
            format!(
                "field `{field}` of {model}{} is deprecated",
                spec_name(model, field)
            )
        }
        Detail::DroppedMember { member, reason } => {
            format!("`{}` is not carried over: {reason}", name(member))
        }
        Detail::DerivedValue { field, value, from } => {
            format!("`{field}` is {value}, {from}")
        }
        Detail::UnknownTextCode { text_code } => format!(
            "the text code `{}` means nothing to the spec's text layers: it stays in the text as written",
            name(text_code)
        ),
        Detail::NotConvertible { reason } => format!("cannot be converted: {reason}"),
        Detail::DanglingReference { value, target } => format!(
            "names the {} `{}`, which the documents read do not hold",
            target.words(),
            name(value)
        ),
        Detail::DuplicateId { value, target } => format!(
            "`{}` is the id of another {} too",
            name(value),
            target.words()
        ),
        Detail::DuplicatePrinting { key } => {
            format!("another record of the set is the printing {key} too")
        }
        Detail::SetCodeMismatch { found, expected } => format!(
            "the set code `{}` is not its set's: expected {expected}",
            name(found)
        ),
        Detail::AsymmetricFaces { face } => format!(
            "names `{}` as another face, which does not name this record back",
            name(face)
        ),
        Detail::VariationElsewhere { value, set } => format!(
            "names `{}` as a variation, a record of another set (`{}`): variations are printings of the same set",
            name(value),
            name(set)
        ),
    }
}

/// The spec's name of a field that a document names with the publishers'
/// name (`--names upstream`), in words after that name.
fn spec_name(model: &str, field: &str) -> String {
    crate::table::names::spec_name(model, field)
        .map(|spec| format!(" (the spec's `{spec}`)"))
        .unwrap_or_default()
}

/// The message of several required members of one object missing
/// together, as the text report shows them in one block: `missing required
/// fields `language`, `relatedCards` of CardToken`. One member's is the
/// message of its own diagnostic. A member named with the publishers' name
/// says the spec's.
#[must_use]
pub fn missing_fields(model: &str, fields: &[&str]) -> String {
    let named = |field: &&str| format!("`{field}`{}", spec_name(model, field));
    match fields {
        [field] => format!(
            "missing required field `{field}` of {model}{}",
            spec_name(model, field)
        ),
        fields => {
            let listed: Vec<String> = fields.iter().map(named).collect();
            format!("missing required fields {} of {model}", listed.join(", "))
        }
    }
}

/// What was expected, in words, for the JSON report.
#[must_use]
pub fn expected(detail: &Detail) -> Option<String> {
    Some(match detail {
        Detail::Syntax(Syntax::Expected { expected, .. }) => expect(*expected).to_owned(),
        Detail::WrongType { expected, .. } | Detail::NullNotAllowed { expected } => {
            crate::schema::words::type_words(expected)
        }
        Detail::Fraction { .. } => "integer".to_owned(),
        Detail::OutOfRange { .. } => "integer within the 64-bit range".to_owned(),
        Detail::DocumentsNotInArray { .. } => "array".to_owned(),
        Detail::SetsNotInObject { .. } => "object".to_owned(),
        Detail::Constant { expected, .. } => format!("constant \"{expected}\""),
        Detail::Enum { name, values, .. } => format!("{name} ({})", quoted(values)),
        Detail::Format { format, .. } => format!("{} string", format.name()),
        Detail::MissingTag { union } | Detail::UnknownTag { union, .. } => {
            format!("one of {}", quoted(&tags(union)))
        }
        Detail::NoMatchingShape { shapes, member, .. } => {
            let allowed: Vec<&str> = shapes.iter().map(|(_, value)| *value).collect();
            format!("`{member}` one of {}", quoted(&allowed))
        }
        _ => return None,
    })
}

/// What was found, in words, for the JSON report.
#[must_use]
pub fn found(detail: &Detail) -> Option<String> {
    match detail {
        Detail::Syntax(Syntax::Expected { found, .. }) => Some(byte(*found)),
        other => other.found().map(value),
    }
}

fn syntax_message(syntax: &Syntax) -> String {
    match syntax {
        Syntax::Expected { expected, found } => {
            format!("expected {}, found {}", expect(*expected), byte(*found))
        }
        Syntax::LeadingZero => {
            "a number with a leading zero: JSON numbers start with `0` only as `0`, `0.…` or `0e…`"
                .to_owned()
        }
        Syntax::UnterminatedString => "unterminated string".to_owned(),
        Syntax::InvalidUtf8 => "invalid UTF-8 in a string".to_owned(),
        Syntax::ControlCharacter => "control character in a string (it must be escaped)".to_owned(),
        Syntax::LoneLowSurrogate => "lone low surrogate in a \\u escape".to_owned(),
        Syntax::LoneHighSurrogate => "lone high surrogate in a \\u escape".to_owned(),
        Syntax::InvalidEscape => "invalid escape in a string".to_owned(),
        Syntax::ShortUnicodeEscape => "a \\u escape needs four hex digits".to_owned(),
        Syntax::FloatOverflow { literal: found } => format!(
            "number {} is beyond the range of a 64-bit float",
            literal(found)
        ),
        Syntax::EmptyInput => "empty input: expected a JSON document".to_owned(),
        Syntax::TrailingContent => "unexpected content after the JSON value".to_owned(),
        Syntax::MalformedTooDeep => "malformed JSON inside a value nested too deep".to_owned(),
        Syntax::Utf16 { big_endian, bom } => format!(
            "the input is UTF-16 ({}{}), not UTF-8: save it as UTF-8",
            if *big_endian {
                "big-endian"
            } else {
                "little-endian"
            },
            if *bom { ", with a byte order mark" } else { "" }
        ),
    }
}

fn expect(expected: Expect) -> &'static str {
    match expected {
        Expect::Value => "a JSON value",
        Expect::Digit => "a digit",
        Expect::FractionDigit => "a digit after the decimal point",
        Expect::ExponentDigit => "a digit in the exponent",
        Expect::MemberName => "a member name in double quotes",
        Expect::Colon => "`:` after the member name",
        Expect::CommaOrBrace => "`,` or `}` after an object member",
        Expect::CommaOrBracket => "`,` or `]` after an array item",
    }
}

/// A byte found where a token was expected: a visible character in
/// backquotes, any other as an escape, so that it cannot disturb a terminal.
fn byte(found: FoundByte) -> String {
    match found {
        FoundByte::End => "the end of the input".to_owned(),
        FoundByte::Char(c) if invisible(c) => format!("{c:?}"),
        FoundByte::Char(c) => format!("`{c}`"),
        FoundByte::NotUtf8(b) => format!("the byte 0x{b:02X}, which is not UTF-8"),
    }
}

/// Characters that show as nothing, move the cursor or reorder text.
fn invisible(c: char) -> bool {
    c.is_control()
        || c.is_whitespace()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// A value found, in words: `string "750"`, `an object`, `number 5.5`.
fn value(found: &FoundValue) -> String {
    match found {
        FoundValue::Object => "an object".to_owned(),
        FoundValue::Array => "an array".to_owned(),
        FoundValue::String { .. } => format!("string {}", literal(found)),
        FoundValue::Number { .. } => format!("number {}", literal(found)),
        FoundValue::Boolean { value } => format!("boolean {value}"),
        FoundValue::Null => "null".to_owned(),
        FoundValue::Nothing => "nothing".to_owned(),
    }
}

/// The literal of a scalar as written, with its length when it was cut.
fn literal(found: &FoundValue) -> String {
    match found {
        FoundValue::String { literal, cut_from } | FoundValue::Number { literal, cut_from } => {
            match cut_from {
                Some(chars) => format!("{literal} ({chars} characters)"),
                None => literal.clone(),
            }
        }
        other => value(other),
    }
}

/// A member name quoted in a message: the diagnostic holds it quoted,
/// already cut when long (see [`super::quote::name`]); the pointer says
/// where it is.
fn name(key: &str) -> &str {
    key
}

fn with_article(name: &str) -> String {
    let vowel = name.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

fn tags(union: &crate::schema::TaggedUnion) -> Vec<&'static str> {
    union.variants.iter().map(|(tag, _)| *tag).collect()
}
