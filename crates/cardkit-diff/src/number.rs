//! JSON numbers compared by value, exactly: a literal is normalised to its
//! sign, its significant digits and the power of ten they are scaled by, so
//! that `10`, `10.0`, `1e1` and `100E-1` are one value, while numbers that
//! one float cannot tell apart (`9007199254740993` and `9007199254740992`,
//! `0.1` and `0.10000000000000000001`) stay two. No float is involved, so
//! no literal is too long or too large to compare.

/// A number's value: `0.DIGITS × 10^exponent`, negative or not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decimal {
    /// Below zero (never for zero: `-0` is `0`).
    negative: bool,
    /// The significant digits, without leading or trailing zeros (empty
    /// for zero).
    digits: Box<str>,
    /// The power of ten (`0` for zero).
    exponent: Exponent,
}

/// An exponent, exactly: literals may carry exponents of any length.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Exponent {
    /// One that fits (every exponent a float could hold, and far beyond).
    Small(i128),
    /// One that does not: below zero or not, and its digits without
    /// leading zeros.
    Large(bool, Box<str>),
}

impl Decimal {
    /// The value of a JSON number literal (`-12.50e+3`); `None` when it is
    /// not one (no leading `+`, no leading zeros, digits on both sides of
    /// the point).
    #[must_use]
    pub fn parse(literal: &str) -> Option<Decimal> {
        let bytes = literal.as_bytes();
        let (negative, rest) = match bytes.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, bytes),
        };
        let int_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (int, rest) = rest.split_at(int_len);
        if int.is_empty() || (int.len() > 1 && int[0] == b'0') {
            return None;
        }
        let (frac, rest) = match rest.split_first() {
            Some((b'.', rest)) => {
                let len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                if len == 0 {
                    return None;
                }
                rest.split_at(len)
            }
            _ => (&[][..], rest),
        };
        let (exponent_negative, exponent_digits) = match rest.split_first() {
            None => (false, &[][..]),
            Some((b'e' | b'E', rest)) => {
                let (negative, digits) = match rest.split_first() {
                    Some((b'-', digits)) => (true, digits),
                    Some((b'+', digits)) => (false, digits),
                    _ => (false, rest),
                };
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                (negative, digits)
            }
            Some(_) => return None,
        };
        // All the digits, the point after the integer part's.
        let all: Vec<u8> = int.iter().chain(frac).copied().collect();
        let leading = all.iter().take_while(|&&d| d == b'0').count();
        let significant = &all[leading..];
        let trailing = significant.iter().rev().take_while(|&&d| d == b'0').count();
        let significant = &significant[..significant.len() - trailing];
        if significant.is_empty() {
            return Some(Decimal {
                negative: false,
                digits: Box::from(""),
                exponent: Exponent::Small(0),
            });
        }
        // `0.significant × 10^shift` is the mantissa's value; the literal's
        // exponent is added to `shift`. Both counts are within the
        // literal's length.
        let shift = i128::try_from(int.len()).unwrap_or(i128::MAX)
            - i128::try_from(leading).unwrap_or(i128::MAX);
        let exponent = exponent_plus(exponent_negative, exponent_digits, shift);
        Some(Decimal {
            negative,
            digits: String::from_utf8_lossy(significant).into(),
            exponent,
        })
    }
}

/// The literal's exponent (its sign and digits) plus `shift`, exactly.
fn exponent_plus(negative: bool, digits: &[u8], shift: i128) -> Exponent {
    let start = digits.iter().take_while(|&&d| d == b'0').count();
    let digits = &digits[start..];
    // 37 digits fit in an i128 with room for any shift.
    if digits.len() <= 37 {
        let magnitude = digits
            .iter()
            .fold(0i128, |n, d| n * 10 + i128::from(d - b'0'));
        let exponent = if negative { -magnitude } else { magnitude };
        return Exponent::Small(exponent + shift);
    }
    // Larger than any shift: the sign is the exponent's, and the shift
    // adds to its magnitude or takes from it.
    let toward = (shift < 0) == negative;
    let mut magnitude: Vec<u8> = digits.iter().map(|d| d - b'0').collect();
    let mut carry = shift.unsigned_abs();
    for digit in magnitude.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let step = (carry % 10) as u8;
        carry /= 10;
        if toward {
            let sum = *digit + step;
            *digit = sum % 10;
            carry += u128::from(sum / 10);
        } else if *digit >= step {
            *digit -= step;
        } else {
            *digit = *digit + 10 - step;
            carry += 1;
        }
    }
    // The magnitude is larger than the shift, so a carry left over adds a
    // digit in front and a borrow never is.
    let mut text = if carry > 0 {
        carry.to_string()
    } else {
        String::new()
    };
    text.extend(magnitude.iter().map(|d| char::from(b'0' + d)));
    let zeros = text.bytes().take_while(|&d| d == b'0').count();
    text.drain(..zeros);
    if text.len() <= 37 {
        // Taking the shift off may bring it down to one that fits: the
        // same value has one form.
        let magnitude = text
            .bytes()
            .fold(0i128, |n, d| n * 10 + i128::from(d - b'0'));
        return Exponent::Small(if negative { -magnitude } else { magnitude });
    }
    Exponent::Large(negative, text.into_boxed_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        Decimal::parse(a).unwrap() == Decimal::parse(b).unwrap()
    }

    #[test]
    fn one_value_written_many_ways() {
        for other in ["10.0", "1e1", "1E+1", "10.00", "100e-1", "0.1e2", "1.0E1"] {
            assert!(same("10", other), "{other}");
        }
        assert!(same("0", "-0"));
        assert!(same("0", "0.000e5"));
        assert!(same("-3.50", "-35e-1"));
        assert!(same("0.001", "1e-3"));
    }

    #[test]
    fn values_one_float_cannot_tell_apart_stay_apart() {
        assert!(!same("9007199254740993", "9007199254740992"));
        assert!(!same("9007199254740993.0", "9007199254740992.0"));
        assert!(!same("0.1", "0.10000000000000000001"));
        assert!(!same(
            "123456789012345678901234567890",
            "123456789012345678901234567891"
        ));
        assert!(!same("1e400", "1e401"));
        assert!(same("1e400", "10e399"));
        assert!(!same("10", "-10"));
        assert!(!same("1", "1e-1000"));
    }

    #[test]
    fn exponents_of_any_length() {
        let big = "1e100000000000000000000000000000000000000000";
        assert!(same(big, "10e99999999999999999999999999999999999999999"));
        assert!(same(big, "0.01e100000000000000000000000000000000000000002"));
        assert!(!same(big, "1e100000000000000000000000000000000000000001"));
        let tiny = "1e-100000000000000000000000000000000000000000";
        assert!(same(tiny, "10e-100000000000000000000000000000000000000001"));
        assert!(!same(tiny, big));
        // Brought down to an exponent that fits (37 digits), from either
        // side of zero.
        let (ten_37, nines_37) = (format!("1{}", "0".repeat(37)), "9".repeat(37));
        assert!(same(&format!("0.01e{ten_37}"), &format!("0.1e{nines_37}")));
        assert!(same(&format!("1e-{ten_37}"), &format!("0.1e-{nines_37}")));
        assert!(!same(&format!("1e-{ten_37}"), &format!("1e-{nines_37}")));
    }

    #[test]
    fn what_is_not_a_number() {
        for bad in [
            "", "-", "01", "1.", ".5", "+1", "1e", "1e+", "0x10", "1 ", "NaN",
        ] {
            assert_eq!(Decimal::parse(bad), None, "{bad:?}");
        }
    }
}
