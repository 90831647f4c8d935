//! The year `{year}` stands for when none is given: the current one (UTC).

/// The current year (UTC), from the system clock.
#[must_use]
pub fn current_year() -> i32 {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    #[allow(clippy::cast_possible_wrap)] // days since 1970 fit an i64
    let days = (seconds / 86_400) as i64;
    year_of_days(days)
}

/// The proleptic-Gregorian year of a count of days since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn year_of_days(days: i64) -> i32 {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    i32::try_from(year).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    #[test]
    fn years_of_days() {
        assert_eq!(super::year_of_days(0), 1970);
        assert_eq!(super::year_of_days(364), 1970);
        assert_eq!(super::year_of_days(365), 1971);
        // 2024-12-31 and 2025-01-01.
        assert_eq!(super::year_of_days(20_088), 2024);
        assert_eq!(super::year_of_days(20_089), 2025);
    }
}
