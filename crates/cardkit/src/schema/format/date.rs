//! The `date` format: a `YYYY-MM-DD` calendar date.

/// Whether `value` is a calendar date written `YYYY-MM-DD`.
///
/// Exactly ten ASCII characters: four-digit year, two-digit month and day, separated by
/// hyphens. The date must exist in the proleptic Gregorian calendar, in the years 0001 to
/// 9999. No time part, no surrounding whitespace.
#[must_use]
pub fn is_date(value: &str) -> bool {
    is_date_bytes(value.as_bytes())
}

/// [`is_date`] of the bytes of a text: bytes that are not UTF-8 are no date.
#[must_use]
pub fn is_date_bytes(b: &[u8]) -> bool {
    let shape_ok = b.len() == 10
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            _ => c.is_ascii_digit(),
        });
    if !shape_ok {
        return false;
    }
    let number = |range: std::ops::Range<usize>| {
        b[range]
            .iter()
            .fold(0_u32, |n, &c| n * 10 + u32::from(c - b'0'))
    };
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    year >= 1
        && i32::try_from(year)
            .ok()
            .and_then(|year| chrono::NaiveDate::from_ymd_opt(year, month, day))
            .is_some()
}

#[cfg(test)]
mod tests {
    use super::is_date;

    #[test]
    fn accepts_real_dates() {
        assert!(is_date("2020-01-01"));
        assert!(is_date("0001-01-01"));
        assert!(is_date("9999-12-31"));
        assert!(is_date("1999-12-31"));
        assert!(is_date("2021-04-30"));
    }

    #[test]
    fn leap_days_follow_the_gregorian_rules() {
        assert!(is_date("2000-02-29"));
        assert!(is_date("2024-02-29"));
        assert!(is_date("1600-02-29"));
        assert!(is_date("0004-02-29"));
        assert!(!is_date("1900-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("2100-02-29"));
        assert!(!is_date("2000-02-30"));
    }

    #[test]
    fn rejects_impossible_dates() {
        assert!(!is_date("0000-01-01"));
        assert!(!is_date("2020-00-01"));
        assert!(!is_date("2020-13-01"));
        assert!(!is_date("2020-01-00"));
        assert!(!is_date("2020-01-32"));
        assert!(!is_date("2021-04-31"));
    }

    #[test]
    fn rejects_other_shapes() {
        assert!(!is_date(""));
        assert!(!is_date("2020-1-01"));
        assert!(!is_date("2020-01-1"));
        assert!(!is_date("20-01-01"));
        assert!(!is_date("12020-01-01"));
        assert!(!is_date("+2020-01-01"));
        assert!(!is_date("-2020-01-01"));
        assert!(!is_date(" 2020-01-01"));
        assert!(!is_date("2020-01-01 "));
        assert!(!is_date("2020/01/01"));
        assert!(!is_date("20200101"));
        assert!(!is_date("2020-01-01T00:00:00"));
        assert!(!is_date("2020-01-01T00:00:00Z"));
        assert!(!is_date("2020-01-01Z"));
        assert!(!is_date("2020-0a-01"));
        // Non-ASCII digits (fullwidth, Arabic-Indic).
        assert!(!is_date("２０２０-01-01"));
        assert!(!is_date("\u{662}\u{660}\u{662}\u{660}-01-01"));
    }
}
