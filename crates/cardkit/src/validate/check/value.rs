//! A value against a type of the field tables.

use crate::diagnostic::Detail;
use crate::schema::Type;
use cardkit_json::{FoundValue, Num, Str};

use super::super::tape::Step;
use super::checker::{Checker, Flow, Site};

impl Checker<'_> {
    /// Validates the value at the cursor against `ty`.
    pub(crate) fn value(&mut self, ty: &'static Type, nullable: bool, site: Site) -> Flow {
        self.read.scan.ws();
        let at = self.pos();
        let Some(first) = self.read.scan.peek() else {
            let end = self.read.scan.unexpected(cardkit_json::Expect::Value);
            return self.malformed(end);
        };
        if first == b'n' {
            let null = self.read.scan.literal();
            self.json(null)?;
            if !nullable {
                self.report(
                    Detail::NullNotAllowed { expected: ty },
                    at,
                    None,
                    site.label(),
                );
            }
            return Ok(());
        }
        match (ty, first) {
            (Type::String { format }, b'"') => {
                let token = self.read.scan.string();
                let token = self.json(token)?;
                if let Some(format) = *format {
                    if !self.text_passes(token, |text| format.check_bytes(text)) {
                        let found = self.found_at(at);
                        self.report(Detail::Format { format, found }, at, None, site.label());
                    }
                }
                Ok(())
            }
            (Type::Integer, b'-' | b'0'..=b'9') => {
                let number = self.read.scan.number();
                let number = self.json(number)?;
                self.integer(number, site);
                Ok(())
            }
            (Type::Number, b'-' | b'0'..=b'9') => {
                let number = self.read.scan.number();
                self.json(number).map(drop)
            }
            (Type::Boolean, b't' | b'f') => {
                let literal = self.read.scan.literal();
                self.json(literal).map(drop)
            }
            (Type::Const { value }, b'"') => {
                let token = self.read.scan.string();
                let token = self.json(token)?;
                if !self.text_passes(token, |text| text == value.as_bytes()) {
                    let found = self.found_at(at);
                    let detail = Detail::Constant {
                        expected: value,
                        found,
                    };
                    self.report(detail, at, None, site.label());
                }
                Ok(())
            }
            (Type::Enum { name, values }, b'"') => {
                let token = self.read.scan.string();
                let token = self.json(token)?;
                if !self.text_passes(token, |text| values.iter().any(|v| v.as_bytes() == text)) {
                    let found = self.found_at(at);
                    let detail = Detail::Enum {
                        name,
                        values,
                        found,
                    };
                    self.report(detail, at, None, site.label());
                }
                Ok(())
            }
            (Type::List { item }, b'[') if self.recording() && holds_objects(item) => {
                self.enter(|c| {
                    c.items(|c, index| {
                        c.step(|_| Step::Item(index));
                        c.value(item, false, site)
                    })
                })
            }
            (Type::List { item }, b'[') => {
                self.enter(|c| c.items(|c, _| c.value(item, false, site)))
            }
            (Type::FreeObject, b'{') => self.skip_value(),
            (Type::Model { model }, b'{') => {
                let model = model();
                self.enter(|c| c.object(model, None))
            }
            (Type::Tagged(union), b'{') => self.tagged(union),
            (Type::AnyOf { types, .. }, _) => self.any_of(ty, types, site),
            _ => self.wrong_type(at, ty, site),
        }
    }

    /// Whether the text of the string `token` passes `test`, given as
    /// bytes: a string without escapes as it stands (no copy, and no UTF-8
    /// check: the scanner checked it, and the tests compare with text or
    /// look for ASCII shapes), one with escapes decoded first.
    #[inline]
    fn text_passes(&self, token: Str, test: impl FnOnce(&[u8]) -> bool) -> bool {
        if token.escaped() {
            test(self.read.scan.decode(token).as_bytes())
        } else {
            test(&self.read.scan.bytes[token.start..token.end])
        }
    }

    /// The value at `at`, described for a report.
    pub(crate) fn found_at(&self, at: usize) -> FoundValue {
        cardkit_json::found_at(self.read.scan.bytes, at)
    }

    /// Reads past a value of the wrong JSON type and reports it; something
    /// that is no JSON value at all is malformed JSON instead.
    pub(crate) fn wrong_type(&mut self, at: usize, ty: &'static Type, site: Site) -> Flow {
        self.skip_value()?;
        let found = self.found_at(at);
        let detail = Detail::WrongType {
            expected: ty,
            found,
        };
        self.report(detail, at, None, site.label());
        Ok(())
    }

    /// Checks that a number token is an integer within 64-bit range.
    fn integer(&mut self, number: Num, site: Site) {
        // Up to 18 digits always fit: the common case needs no parsing.
        if number.plain && number.end - number.start <= 18 {
            return;
        }
        let literal = self.read.scan.ascii(number.start, number.end);
        let verdict = if number.plain {
            if literal.parse::<i64>().is_ok() || literal.parse::<u64>().is_ok() {
                Integral::Yes
            } else {
                Integral::OutOfRange
            }
        } else {
            integral(literal)
        };
        let found = || FoundValue::number(&self.read.scan.bytes[number.start..number.end]);
        let detail = match verdict {
            Integral::Yes => return,
            Integral::Fraction => Detail::Fraction { found: found() },
            Integral::OutOfRange => Detail::OutOfRange { found: found() },
        };
        self.report(detail, number.start, None, site.label());
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

/// Whether the items of a list of `item` are read as objects of a model
/// (their places are on the tape).
fn holds_objects(item: &Type) -> bool {
    matches!(item, Type::Model { .. } | Type::Tagged(_))
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
