//! Eight bytes at a time: the lanes of a word that hold a given byte, and
//! where a run of plain string content stops. Shared by the scanner and the
//! structural skip, which must agree on every string.

pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
pub(super) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that equals `byte`, and no other bit.
#[inline]
pub(super) fn lanes_equal(x: u64, byte: u8) -> u64 {
    let y = x ^ (ONES * u64::from(byte));
    !(((y & !HIGH) + !HIGH) | y) & HIGH
}

/// The first byte of `bytes` that ends a run of plain string content (`"`,
/// `\` or a control character), with its index; clears `ascii` when a byte
/// beyond ASCII comes before it. Eight bytes at a time.
#[inline]
pub(super) fn string_stop(bytes: &[u8], ascii: &mut bool) -> Option<(usize, u8)> {
    let mut i = 0;
    while let Some(word) = bytes.get(i..i + 8) {
        let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        // Lanes that are `"`, `\` or below 0x20 get their high bit set; a
        // borrow may set one in a later lane too, never in an earlier one,
        // so the lowest is exact.
        let stops = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (x.wrapping_sub(ONES * 0x20) & !x))
            & HIGH;
        if stops != 0 {
            let lane = stops.trailing_zeros() as usize / 8;
            let before = (1u64 << (lane * 8)).wrapping_sub(1);
            if x & HIGH & before != 0 {
                *ascii = false;
            }
            return Some((i + lane, word[lane]));
        }
        if x & HIGH != 0 {
            *ascii = false;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return Some((i, b));
        }
        if b >= 0x80 {
            *ascii = false;
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_stop_finds_the_first_stop_and_notes_non_ascii() {
        for text in [
            "abc\"",
            "abcdefghijklmnop\"",
            "abcdefgh\\n\"",
            "héllo wörld, longer than eight\"",
            "0123456\u{1}",
            "ab\"cdé fghijkl",
            "abcdéfg\"h",
            "",
        ] {
            let bytes = text.as_bytes();
            let mut ascii = true;
            let expected = bytes
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .map(|i| (i, bytes[i]));
            assert_eq!(string_stop(bytes, &mut ascii), expected, "{text:?}");
            let upto = expected.map_or(bytes.len(), |(i, _)| i);
            assert_eq!(ascii, bytes[..upto].is_ascii(), "{text:?}");
        }
    }
}
