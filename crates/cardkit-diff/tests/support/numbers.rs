//! Builds written another way, the same values: every number rewritten.

/// `text` (JSON) with every number written another way, the same value:
/// `10` as `10.0`, `1e1`, `10.00` or `100e-1` in turn, `5.0` as `5.00`,
/// `5.0e0` or `5.0E+0`, `1e5` as `1.0e5`; and how many numbers were
/// rewritten.
pub fn rewrite_numbers(text: &str) -> (String, usize) {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(text.len() * 2);
    let (mut count, mut at, mut in_string, mut escaped) = (0, 0, false, false);
    while at < bytes.len() {
        let b = bytes[at];
        let number = !in_string && (b == b'-' || b.is_ascii_digit());
        if !number {
            if in_string {
                in_string = escaped || b != b'"';
                escaped = !escaped && b == b'\\';
            } else {
                in_string = b == b'"';
            }
            out.push(b);
            at += 1;
            continue;
        }
        let end = at
            + bytes[at..]
                .iter()
                .take_while(|c| matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                .count();
        let literal = &text[at..end];
        out.extend_from_slice(rewritten(literal, count).as_bytes());
        count += 1;
        at = end;
    }
    (String::from_utf8(out).expect("UTF-8 in, UTF-8 out"), count)
}

/// `literal` written in the `nth` of the other ways it can be.
fn rewritten(literal: &str, nth: usize) -> String {
    if let Some(e) = literal.find(['e', 'E']) {
        let (mantissa, exponent) = literal.split_at(e);
        let zero = if mantissa.contains('.') { "0" } else { ".0" };
        return format!("{mantissa}{zero}{exponent}");
    }
    if literal.contains('.') {
        return match nth % 3 {
            0 => format!("{literal}0"),
            1 => format!("{literal}e0"),
            _ => format!("{literal}E+0"),
        };
    }
    match nth % 4 {
        0 => format!("{literal}.0"),
        1 if literal.ends_with('0')
            && literal[..literal.len() - 1].ends_with(|c: char| c.is_ascii_digit()) =>
        {
            format!("{}e1", &literal[..literal.len() - 1])
        }
        1 => format!("{literal}e0"),
        2 => format!("{literal}.00"),
        _ => format!("{literal}0e-1"),
    }
}
