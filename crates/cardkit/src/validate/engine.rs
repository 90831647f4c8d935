//! Validation of a value against a type of the field tables.

use std::borrow::Cow;
use std::ops::Range;

use crate::diagnostic::Code;
use crate::schema::words::{nearest_field, type_with_article as expected};
use crate::schema::{FieldDef, ModelDef, TaggedUnion, Type};

use super::walker::{skip_raw, DuplicateKeys, Flow, Num, Walker};

/// Where a value sits in the spec, for the `field` of diagnostics.
#[derive(Clone, Copy)]
pub(crate) struct Site {
    pub model: &'static str,
    pub field: &'static str,
}

impl Site {
    /// A document's root, which is no field.
    pub const ROOT: Site = Site {
        model: "",
        field: "",
    };

    fn label(self) -> Option<String> {
        (!self.model.is_empty()).then(|| format!("{}.{}", self.model, self.field))
    }
}

/// What a member lookup in a not-yet-read object found.
enum Lookup {
    Absent,
    Found(usize),
    Malformed,
}

impl Walker<'_> {
    /// Validates the value at the cursor against `ty`.
    pub(crate) fn value(&mut self, ty: &'static Type, nullable: bool, site: Site) -> Flow {
        self.ws();
        let at = self.pos;
        let Some(first) = self.peek() else {
            return self.unexpected("a JSON value");
        };
        if first == b'n' {
            self.literal()?;
            if !nullable {
                self.report(
                    Code::NullNotAllowed,
                    at,
                    None,
                    site.label(),
                    format!(
                        "expected {}, found null (null is not allowed here)",
                        expected(ty)
                    ),
                );
            }
            return Ok(());
        }
        match (ty, first) {
            (Type::String { format }, b'"') => {
                let token = self.string()?;
                if let Some(format) = format {
                    let text = self.decode(token);
                    if !format.check(&text) {
                        let found = self.describe_value(at);
                        self.report(
                            Code::InvalidFormat,
                            at,
                            None,
                            site.label(),
                            format!("expected a {} string, found {found}", format.name()),
                        );
                    }
                }
                Ok(())
            }
            (Type::Integer, b'-' | b'0'..=b'9') => {
                let number = self.number()?;
                self.integer(number, site);
                Ok(())
            }
            (Type::Number, b'-' | b'0'..=b'9') => self.number().map(drop),
            (Type::Boolean, b't' | b'f') => self.literal().map(drop),
            (Type::Const { value }, b'"') => {
                let token = self.string()?;
                if self.decode(token) != *value {
                    let found = self.describe_value(at);
                    self.report(
                        Code::ConstMismatch,
                        at,
                        None,
                        site.label(),
                        format!("expected the constant \"{value}\", found {found}"),
                    );
                }
                Ok(())
            }
            (Type::Enum { name, values }, b'"') => {
                let token = self.string()?;
                let text = self.decode(token);
                if !values.contains(&text.as_ref()) {
                    let found = self.describe_value(at);
                    self.report(
                        Code::EnumMismatch,
                        at,
                        None,
                        site.label(),
                        format!("expected a {name} ({}), found {found}", expected(ty)),
                    );
                }
                Ok(())
            }
            (Type::List { item }, b'[') => {
                self.enter(|w| w.items(|w, _| w.value(item, false, site)))
            }
            (Type::FreeObject, b'{') => self.skip_value(),
            (Type::Model { model }, b'{') => {
                let model = model();
                self.enter(|w| w.object(model, None))
            }
            (Type::Tagged(union), b'{') => self.tagged(union),
            (Type::AnyOf { types, .. }, _) => self.any_of(ty, types, site),
            _ => self.wrong_type(at, ty, site),
        }
    }

    /// Reads past a value of the wrong JSON type and reports it; something
    /// that is no JSON value at all is malformed JSON instead.
    fn wrong_type(&mut self, at: usize, ty: &'static Type, site: Site) -> Flow {
        self.skip_value()?;
        let found = self.describe_value(at);
        self.report(
            Code::WrongType,
            at,
            None,
            site.label(),
            format!("expected {}, found {found}", expected(ty)),
        );
        Ok(())
    }

    /// Checks that a number token is an integer within 64-bit range.
    fn integer(&mut self, number: Num, site: Site) {
        // Up to 18 digits always fit: the common case needs no parsing.
        if number.plain && number.end - number.start <= 18 {
            return;
        }
        let literal = self.ascii(number.start, number.end);
        let verdict = if number.plain {
            if literal.parse::<i64>().is_ok() || literal.parse::<u64>().is_ok() {
                Integral::Yes
            } else {
                Integral::OutOfRange
            }
        } else {
            integral(literal)
        };
        match verdict {
            Integral::Yes => {}
            Integral::Fraction => self.report(
                Code::WrongType,
                number.start,
                None,
                site.label(),
                format!("expected an integer, found number {literal} (it has a fractional part)"),
            ),
            Integral::OutOfRange => self.report(
                Code::OutOfRange,
                number.start,
                None,
                site.label(),
                format!(
                    "integer {literal} is out of range: integers must fit a signed or unsigned 64-bit integer"
                ),
            ),
        }
    }

    /// At `{`: validates an object against a model. `tag` names a member the
    /// enclosing union has already checked.
    pub(crate) fn object(&mut self, model: &'static ModelDef, tag: Option<&'static str>) -> Flow {
        let start = self.pos;
        let mut seen: u128 = 0;
        let mut others = DuplicateKeys::default();
        let mut earlier = EarlierValues::default();
        self.members(|w, key, key_at| {
            let found = if key.escaped {
                model.field(&w.decode(key))
            } else {
                model.field_at(w.bytes, key.start, key.end)
            };
            if let Some((index, field)) = found {
                let bit = 1u128 << index;
                if seen & bit != 0 {
                    earlier.discard(w, field.name);
                    w.duplicate_key(key_at, field.name, Some(label(model, field)));
                }
                seen |= bit;
                let newer = w.version_checks(model, field, key_at);
                let from = w.out.len();
                let site = Site {
                    model: model.name,
                    field: field.name,
                };
                // Inside a field its consumers do not know, the fields of its
                // value are not news of their own.
                let outer = w.inside_newer;
                w.inside_newer |= newer;
                let flow = w.value(field.ty, field.nullable, site);
                w.inside_newer = outer;
                flow?;
                earlier.record(w, Cow::Borrowed(field.name), from);
                return Ok(());
            }
            let name = w.decode(key);
            if !others.insert(name.clone()) {
                earlier.discard(w, &name);
                w.duplicate_key(key_at, &name, None);
            }
            if tag != Some(name.as_ref()) {
                let hint = nearest_field(model, &name)
                    .map(|near| format!("; did you mean `{near}`?"))
                    .unwrap_or_default();
                w.report(
                    Code::UnknownField,
                    key_at,
                    None,
                    Some(format!("{}.{name}", model.name)),
                    format!("unknown field `{name}` in {}{hint}", model.name),
                );
            }
            let from = w.out.len();
            w.skip_value()?;
            earlier.record(w, name, from);
            Ok(())
        })?;
        let required = self.required(model);
        if seen & required != required {
            for (index, field) in model.fields.iter().enumerate() {
                if required & !seen & (1u128 << index) != 0 {
                    self.report(
                        Code::MissingField,
                        start,
                        Some(field.name),
                        Some(label(model, field)),
                        format!("missing required field `{}` of {}", field.name, model.name),
                    );
                }
            }
        }
        Ok(())
    }

    /// The fields of `model` that must be present: with `as_of`, those
    /// introduced after that version are not required yet.
    fn required(&self, model: &ModelDef) -> u128 {
        let Some(as_of) = self.options.as_of else {
            return model.required;
        };
        model
            .fields
            .iter()
            .enumerate()
            .filter(|(_, field)| field.since.is_some_and(|since| since > as_of))
            .fold(model.required, |mask, (index, _)| mask & !(1u128 << index))
    }

    /// The version-aware warnings about a present field: introduced after
    /// `as_of`, or deprecated (when asked for). Whether it is newer than
    /// `as_of`.
    #[inline]
    fn version_checks(&mut self, model: &ModelDef, field: &FieldDef, key_at: usize) -> bool {
        if self.options.as_of.is_none() && !self.options.warn_deprecated {
            return false;
        }
        let mut newer = false;
        if let (Some(as_of), Some(since)) = (self.options.as_of, field.since) {
            newer = since > as_of;
            if newer && !self.inside_newer {
                self.report(
                    Code::NewerField,
                    key_at,
                    None,
                    Some(label(model, field)),
                    format!(
                        "field `{}` of {} was introduced in {since}, after {as_of}",
                        field.name, model.name
                    ),
                );
            }
        }
        if self.options.warn_deprecated && field.deprecated {
            self.report(
                Code::DeprecatedField,
                key_at,
                None,
                Some(label(model, field)),
                format!("field `{}` of {} is deprecated", field.name, model.name),
            );
        }
        newer
    }

    /// At `{`: validates an object of a tagged union.
    fn tagged(&mut self, union: &'static TaggedUnion) -> Flow {
        let start = self.pos;
        let model = match self.find_member(union.tag) {
            Lookup::Malformed => return self.skip_value(),
            Lookup::Absent if union.tag_optional => union.variants[0].1(),
            Lookup::Absent => {
                self.report(
                    Code::MissingDiscriminator,
                    start,
                    Some(union.tag),
                    Some(format!("{}.{}", union.name, union.tag)),
                    format!(
                        "{} has no `{}`: expected one of {}",
                        article(union.name),
                        union.tag,
                        tag_list(union)
                    ),
                );
                return self.skip_value();
            }
            Lookup::Found(at) => {
                let value = self.string_at(at);
                match value.as_deref().and_then(|tag| union.variant(tag)) {
                    Some(model) => model,
                    // A union of one shape (the card's top group): its tag is
                    // a constant, and the rest is still that shape.
                    None if union.variants.len() == 1 => {
                        let (tag, model) = union.variants[0];
                        let found = self.describe_value(at);
                        self.report(
                            Code::ConstMismatch,
                            at,
                            Some(union.tag),
                            Some(format!("{}.{}", union.name, union.tag)),
                            format!("expected the constant \"{tag}\", found {found}"),
                        );
                        model()
                    }
                    None => {
                        let found = self.describe_value(at);
                        self.report(
                            Code::UnknownDiscriminator,
                            at,
                            Some(union.tag),
                            Some(format!("{}.{}", union.name, union.tag)),
                            format!(
                                "unknown {} `{}`: expected one of {}, found {found}",
                                union.name,
                                union.tag,
                                tag_list(union)
                            ),
                        );
                        return self.skip_value();
                    }
                }
            }
        };
        self.enter(|w| w.object(model, Some(union.tag)))
    }

    /// Validates a value of a plain union: by JSON type where that decides,
    /// else by the constant member the object shapes carry.
    fn any_of(&mut self, ty: &'static Type, types: &'static [&'static Type], site: Site) -> Flow {
        let at = self.pos;
        let first = self.peek().unwrap_or(b' ');
        let mut fitting = types.iter().copied().filter(|t| accepts(t, first));
        let (Some(only), None) = (fitting.next(), fitting.next()) else {
            if types.iter().any(|t| accepts(t, first)) {
                return self.by_constant(ty, types, site);
            }
            return self.wrong_type(at, ty, site);
        };
        self.value(only, false, site)
    }

    /// At `{`: picks the shape of a plain union whose constant member (such as
    /// a filter's `type`) matches, or reports that none does.
    fn by_constant(
        &mut self,
        ty: &'static Type,
        types: &'static [&'static Type],
        site: Site,
    ) -> Flow {
        let at = self.pos;
        let shapes = types.iter().filter_map(|t| match t {
            Type::Model { model } => {
                let model = model();
                model.fields.iter().find_map(|f| match f.ty {
                    Type::Const { value } => Some((model, f.name, *value)),
                    _ => None,
                })
            }
            _ => None,
        });
        let shapes: Vec<_> = shapes.collect();
        let Some(&(_, member, _)) = shapes.first() else {
            return self.wrong_type(at, ty, site);
        };
        let found = match self.find_member(member) {
            Lookup::Malformed => return self.skip_value(),
            Lookup::Absent => None,
            Lookup::Found(value_at) => Some(value_at),
        };
        let tag = found.and_then(|value_at| self.string_at(value_at));
        if let Some(&(model, ..)) = shapes
            .iter()
            .find(|(_, _, value)| Some(*value) == tag.as_deref())
        {
            return self.enter(|w| w.object(model, None));
        }
        let names: Vec<&str> = shapes.iter().map(|(m, ..)| m.name).collect();
        let why = match found {
            None => format!("it has no `{member}`"),
            Some(value_at) => format!("its `{member}` is {}", self.describe_value(value_at)),
        };
        let allowed: Vec<String> = shapes.iter().map(|(.., v)| format!("\"{v}\"")).collect();
        self.report(
            Code::NoMatchingShape,
            at,
            None,
            site.label(),
            format!(
                "matches none of {}: {why} (expected `{member}` to be one of {})",
                names.join(", "),
                allowed.join(", ")
            ),
        );
        self.skip_value()
    }

    /// At `{`: finds the value of member `name` without consuming anything;
    /// of duplicate members the last one counts, as when the object is read.
    fn find_member(&self, name: &str) -> Lookup {
        let bytes = self.bytes;
        let mut pos = self.pos + 1;
        let mut found = Lookup::Absent;
        let ws = |pos: &mut usize| {
            while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(*pos) {
                *pos += 1;
            }
        };
        loop {
            ws(&mut pos);
            match bytes.get(pos) {
                Some(b'}') => return found,
                Some(b'"') => {}
                _ => return Lookup::Malformed,
            }
            let Ok(key_end) = skip_raw(bytes, pos) else {
                return Lookup::Malformed;
            };
            let key = self.string_at(pos);
            pos = key_end;
            ws(&mut pos);
            if bytes.get(pos) != Some(&b':') {
                return Lookup::Malformed;
            }
            pos += 1;
            ws(&mut pos);
            if key.as_deref() == Some(name) {
                found = Lookup::Found(pos);
            }
            let Ok(value_end) = skip_raw(bytes, pos) else {
                return Lookup::Malformed;
            };
            pos = value_end;
            ws(&mut pos);
            match bytes.get(pos) {
                Some(b',') => pos += 1,
                Some(b'}') => return found,
                _ => return Lookup::Malformed,
            }
        }
    }
}

/// The diagnostics of member values read so far in one object, so that when
/// a key comes again the earlier value, which the later one replaces, takes
/// its diagnostics with it. Empty (no allocation) while nothing is wrong.
#[derive(Default)]
struct EarlierValues<'a> {
    /// Key and range in `Walker::out` of each value that had diagnostics.
    spans: Vec<(Cow<'a, str>, Range<usize>)>,
}

impl<'a> EarlierValues<'a> {
    /// Notes the diagnostics recorded since `from` as those of `key`'s value.
    #[inline]
    fn record(&mut self, w: &Walker<'_>, key: Cow<'a, str>, from: usize) {
        if w.out.len() > from {
            self.spans.push((key, from..w.out.len()));
        }
    }

    /// Drops the diagnostics of the earlier value of `key`.
    fn discard(&mut self, w: &mut Walker<'_>, key: &str) {
        let Some(i) = self.spans.iter().position(|(k, _)| k == key) else {
            return;
        };
        let (_, range) = self.spans.remove(i);
        let removed = range.len();
        w.out.drain(range.clone());
        for (_, later) in &mut self.spans[i..] {
            *later = later.start - removed..later.end - removed;
        }
    }
}

/// Whether a value starting with `first` has the JSON type of `ty`.
fn accepts(ty: &Type, first: u8) -> bool {
    match ty {
        Type::String { .. } | Type::Const { .. } | Type::Enum { .. } => first == b'"',
        Type::Integer | Type::Number => matches!(first, b'-' | b'0'..=b'9'),
        Type::Boolean => matches!(first, b't' | b'f'),
        Type::List { .. } => first == b'[',
        Type::FreeObject | Type::Model { .. } | Type::Tagged(_) => first == b'{',
        Type::AnyOf { types, .. } => types.iter().any(|t| accepts(t, first)),
    }
}

enum Integral {
    Yes,
    Fraction,
    OutOfRange,
}

/// Whether a number literal with a fraction or exponent is an exact integer
/// within [-2^63, 2^64 - 1], judged on its decimal digits (no rounding).
fn integral(literal: &str) -> Integral {
    let negative = literal.starts_with('-');
    let unsigned = literal.trim_start_matches('-');
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], &unsigned[i + 1..]),
        None => (unsigned, "0"),
    };
    let exponent: i64 =
        exponent
            .trim_start_matches('+')
            .parse()
            .unwrap_or(if exponent.starts_with('-') {
                i64::MIN / 2
            } else {
                i64::MAX / 2
            });
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        return Integral::Yes; // zero
    }
    let scale = exponent - fraction.len() as i64 + (digits.len() - significant.len()) as i64;
    if scale < 0 {
        return Integral::Fraction;
    }
    if significant.len() as i64 + scale > 20 {
        return Integral::OutOfRange;
    }
    let magnitude = significant
        .parse::<u128>()
        .ok()
        .and_then(|m| m.checked_mul(10u128.checked_pow(u32::try_from(scale).ok()?)?));
    let limit = if negative {
        1u128 << 63
    } else {
        u128::from(u64::MAX)
    };
    match magnitude {
        Some(m) if m <= limit => Integral::Yes,
        _ => Integral::OutOfRange,
    }
}

fn label(model: &ModelDef, field: &FieldDef) -> String {
    format!("{}.{}", model.name, field.name)
}

fn tag_list(union: &TaggedUnion) -> String {
    let tags: Vec<String> = union
        .variants
        .iter()
        .map(|(t, _)| format!("\"{t}\""))
        .collect();
    tags.join(", ")
}

fn article(name: &str) -> String {
    let vowel = name.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integral_follows_the_decimal_digits() {
        let yes = |s| matches!(integral(s), Integral::Yes);
        let fraction = |s| matches!(integral(s), Integral::Fraction);
        let range = |s| matches!(integral(s), Integral::OutOfRange);
        assert!(yes("5.0") && yes("5e0") && yes("50E-1") && yes("-3.000") && yes("0.0e-7"));
        assert!(yes("1.5e1") && yes("-9223372036854775808.0") && yes("18446744073709551615.0"));
        assert!(fraction("5.5") && fraction("5.0000000000000000001") && fraction("1e-1"));
        assert!(
            range("18446744073709551616.0") && range("-9223372036854775809.0") && range("1e20")
        );
        assert!(yes("1e19") && range("1e300"));
    }
}
