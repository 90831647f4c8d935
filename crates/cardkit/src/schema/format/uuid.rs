//! The `uuid` format: the hyphenated 8-4-4-4-12 hexadecimal form.

/// Whether `value` is a UUID in its hyphenated form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`
/// with hexadecimal digits of either case.
///
/// Any version and variant digits are accepted (the nil UUID too). Braces, a `urn:uuid:`
/// prefix, the 32-digit form without hyphens and surrounding whitespace are not.
#[must_use]
pub fn is_uuid(value: &str) -> bool {
    is_uuid_bytes(value.as_bytes())
}

/// [`is_uuid`] of the bytes of a text: bytes that are not UTF-8 are no UUID.
#[must_use]
pub fn is_uuid_bytes(bytes: &[u8]) -> bool {
    // Checked by hand: the `uuid` crate's parser also accepts the other forms.
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, &b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::is_uuid;

    #[test]
    fn accepts_hyphenated_hex_of_any_case_version_and_variant() {
        assert!(is_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(is_uuid("123E4567-E89B-12D3-A456-426614174000"));
        assert!(is_uuid("123e4567-E89B-12d3-A456-426614174000"));
        assert!(is_uuid("00000000-0000-0000-0000-000000000000"));
        assert!(is_uuid("ffffffff-ffff-ffff-ffff-ffffffffffff"));
        // Version 0 and an unusual variant digit.
        assert!(is_uuid("6ba7b812-9dad-01d1-f0b4-00c04fd430c8"));
    }

    #[test]
    fn rejects_other_forms() {
        assert!(!is_uuid(""));
        assert!(!is_uuid("{123e4567-e89b-12d3-a456-426614174000}"));
        assert!(!is_uuid("urn:uuid:123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567e89b12d3a456426614174000"));
        assert!(!is_uuid(" 123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-426614174000 "));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-42661417400"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-4266141740000"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456_426614174000"));
        assert!(!is_uuid("123e4567e-89b-12d3-a456-426614174000"));
        assert!(!is_uuid("g23e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-42661417400\u{e9}"));
        assert!(!is_uuid("123e4567-e89b-12d3-a456-4266141740\u{ff10}"));
    }
}
