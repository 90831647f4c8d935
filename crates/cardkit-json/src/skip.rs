//! A structural skip: where a value ends, found several times faster than
//! reading it, by brackets and quotes alone. It finds where each document of
//! a container ends before the document is handed to another thread, either
//! eight bytes at a time ([`skip_raw`]) or from the structural index
//! ([`skip_indexed`]), which give the same answer.

use super::found::FoundValue;
use super::index::Indexer;
use super::lanes::{lanes_equal, string_stop, HIGH, ONES};
use super::scan::scalar_extent;

/// Skips one value structurally (strings, brackets), without checking it
/// closely or recording anything; returns the offset after it. `Err(at)`:
/// the value is cut short (`at` is the end of `bytes`) or a bracket at `at`
/// does not match. Iterative, so any depth is safe.
///
/// This is what finds where each document ends before it is sent to another
/// thread, so it reads eight bytes at a time: a word with no backslash and
/// no bracket outside strings only toggles whether the scan is in a string.
pub fn skip_raw(bytes: &[u8], mut pos: usize) -> Result<usize, usize> {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
        pos += 1;
    }
    match bytes.get(pos) {
        None => return Err(bytes.len()),
        Some(b'{' | b'[') => {}
        Some(b'"') => return skip_string(bytes, pos + 1),
        Some(b'}' | b']') => return Err(pos),
        // A number or literal ends where the scanner stops reading it (a
        // document `0` followed by `true` ends before it).
        Some(_) => return Ok(scalar_extent(bytes, pos)),
    }
    let mut open: Vec<u8> = Vec::new();
    let mut in_string = false;
    loop {
        // Whole words while they hold no backslash (escapes are read byte by
        // byte), with the brackets outside strings taken in turn.
        while let Some(word) = bytes.get(pos..pos + 8) {
            let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
            if lanes_equal(x, b'\\') != 0 {
                break;
            }
            let quotes = lanes_equal(x, b'"');
            // Lanes inside a string: a prefix XOR of the quotes, from the
            // state the word starts in.
            let mut inside = quotes ^ (quotes << 8);
            inside ^= inside << 16;
            inside ^= inside << 32;
            if in_string {
                inside ^= HIGH;
            }
            // `[` and `]` are `{` and `}` without the 0x20 bit.
            let brackets =
                lanes_equal(x | (ONES * 0x20), b'{') | lanes_equal(x | (ONES * 0x20), b'}');
            let mut outside = brackets & !inside;
            while outside != 0 {
                let lane = outside.trailing_zeros() / 8;
                let at = pos + lane as usize;
                match bytes[at] {
                    b'{' => open.push(b'}'),
                    b'[' => open.push(b']'),
                    close => {
                        if open.pop() != Some(close) {
                            return Err(at);
                        }
                        if open.is_empty() {
                            return Ok(at + 1);
                        }
                    }
                }
                outside &= outside - 1;
            }
            in_string = inside >> 63 != 0;
            pos += 8;
            // A word all inside a string is the middle of a long one (a
            // card's text): jump to its next quote or backslash.
            if in_string && quotes == 0 {
                match memchr::memchr2(b'"', b'\\', &bytes[pos..]) {
                    Some(i) => pos += i,
                    None => return Err(bytes.len()),
                }
            }
        }
        // One byte at a time up to the next word boundary (or the end).
        let stop = (pos + 8).min(bytes.len());
        if pos >= stop {
            return Err(bytes.len());
        }
        while pos < stop {
            let byte = bytes[pos];
            pos += 1;
            if in_string {
                match byte {
                    b'"' => in_string = false,
                    b'\\' => pos += 1,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => in_string = true,
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                b'}' | b']' => {
                    if open.pop() != Some(byte) {
                        return Err(pos - 1);
                    }
                    if open.is_empty() {
                        return Ok(pos);
                    }
                }
                _ => {}
            }
        }
        // An escape may have stepped over the end.
        if pos > bytes.len() {
            return Err(bytes.len());
        }
    }
}

/// [`skip_raw`]'s answer, found from the structural index for an object or
/// an array: strings are already masked, so only its brackets are visited,
/// each checked against the one it closes. What the index does not settle
/// (a bracket that does not match, a backslash outside strings) and values
/// that are no container are left to [`skip_raw`], so the answer is the
/// same for every input, malformed or not.
///
/// This is what finds where each document ends before it is sent to
/// another thread: with SIMD, several times faster than [`skip_raw`].
pub fn skip_indexed(bytes: &[u8], pos: usize) -> Result<usize, usize> {
    let start = pos
        + bytes
            .get(pos..)
            .unwrap_or_default()
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
            .count();
    if !matches!(bytes.get(start), Some(b'{' | b'[')) {
        return skip_raw(bytes, pos);
    }
    let mut open: Vec<u8> = Vec::new();
    let mut indexer = Indexer::new();
    for (block, at) in indexer.blocks(&bytes[start..]).zip((start..).step_by(64)) {
        if block.stray_backslashes != 0 {
            return skip_raw(bytes, pos);
        }
        let mut brackets = block.brackets;
        while brackets != 0 {
            let here = at + brackets.trailing_zeros() as usize;
            match bytes[here] {
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                close => {
                    if open.pop() != Some(close) {
                        return skip_raw(bytes, pos);
                    }
                    if open.is_empty() {
                        return Ok(here + 1);
                    }
                }
            }
            brackets &= brackets - 1;
        }
    }
    Err(bytes.len())
}

/// Where the number or literal that `bytes` start with ends: at the first
/// byte that cannot be part of one; `None` if that is beyond `bytes` (more
/// of it may follow).
#[must_use]
pub fn scalar_end(bytes: &[u8]) -> Option<usize> {
    bytes
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || b"+-.".contains(b)))
}

/// Inside a string at `pos`: the offset after its closing quote.
fn skip_string(bytes: &[u8], mut pos: usize) -> Result<usize, usize> {
    loop {
        let mut ascii = true;
        let rest = bytes.get(pos..).unwrap_or_default();
        let Some((i, stop)) = string_stop(rest, &mut ascii) else {
            return Err(bytes.len());
        };
        pos += i + 1;
        match stop {
            b'"' => return Ok(pos),
            b'\\' => pos += 1,
            _ => {}
        }
    }
}

/// The value at `at` of `bytes`, described for a report: its type, and the
/// literal of a string or number (cut when long), found by structure.
#[must_use]
pub fn found_at(bytes: &[u8], at: usize) -> FoundValue {
    let literal = |at: usize| {
        let end = skip_raw(bytes, at).unwrap_or(bytes.len());
        super::found::cut(&bytes[at..end])
    };
    match bytes.get(at) {
        Some(b'{') => FoundValue::Object,
        Some(b'[') => FoundValue::Array,
        Some(b'"') => {
            let (literal, cut_from) = literal(at);
            FoundValue::String { literal, cut_from }
        }
        Some(b't') => FoundValue::Boolean { value: true },
        Some(b'f') => FoundValue::Boolean { value: false },
        Some(b'n') => FoundValue::Null,
        Some(_) => {
            let (literal, cut_from) = literal(at);
            FoundValue::Number { literal, cut_from }
        }
        None => FoundValue::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The byte-at-a-time skip that `skip_raw` must agree with.
    fn skip_reference(bytes: &[u8], mut pos: usize) -> Result<usize, usize> {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
            pos += 1;
        }
        let mut open = Vec::new();
        let mut in_string = false;
        let scalar = !matches!(bytes.get(pos), Some(b'{' | b'[' | b'"' | b'}' | b']'));
        if scalar {
            let len = bytes.get(pos..).ok_or(bytes.len())?;
            if len.is_empty() {
                return Err(bytes.len());
            }
            return Ok(scalar_extent(bytes, pos));
        }
        while let Some(&byte) = bytes.get(pos) {
            pos += 1;
            if in_string {
                match byte {
                    b'"' => in_string = false,
                    b'\\' => pos += 1,
                    _ => {}
                }
                if !in_string && open.is_empty() {
                    return Ok(pos);
                }
                continue;
            }
            match byte {
                b'"' => in_string = true,
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                b'}' | b']' => {
                    if open.pop() != Some(byte) {
                        return Err(pos - 1);
                    }
                    if open.is_empty() {
                        return Ok(pos);
                    }
                }
                _ => {}
            }
        }
        Err(bytes.len())
    }

    #[test]
    fn skip_raw_agrees_with_a_byte_at_a_time_skip() {
        let pieces: [&[u8]; 14] = [
            b"{",
            b"}",
            b"[",
            b"]",
            b"\"",
            b"\\",
            b"\\\"",
            b"abc",
            b",",
            b":",
            b" ",
            b"{\"key\": [1, 2, {\"x\": \"y\"}]}",
            b"\"a]{\"",
            b"0123456789",
        ];
        // A small generator of many mixtures: every seed gives one text.
        for seed in 0..20_000u64 {
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut text = Vec::new();
            let len = 1 + (seed % 40) as usize;
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.extend_from_slice(pieces[(state % pieces.len() as u64) as usize]);
            }
            for start in [0, 1, 2] {
                let expected = skip_reference(&text, start);
                let shown = String::from_utf8_lossy(&text);
                assert_eq!(skip_raw(&text, start), expected, "{shown:?} from {start}");
                assert_eq!(
                    skip_indexed(&text, start),
                    expected,
                    "{shown:?} from {start}"
                );
            }
        }
    }

    /// Bytes that make JSON, and bytes that break it: long strings, so that
    /// values span blocks of the index.
    fn jsonish() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            4 => Just(b"\"".to_vec()),
            2 => Just(b"\\".to_vec()),
            1 => Just(b"\\\\".to_vec()),
            6 => prop::sample::select(b"{}[]{}[]:, \n".to_vec()).prop_map(|b| vec![b]),
            1 => Just("é𝄞".as_bytes().to_vec()),
            3 => "[a-z0-9]{1,90}".prop_map(String::into_bytes),
            1 => any::<u8>().prop_map(|b| vec![b]),
        ];
        prop::collection::vec(piece, 0..160).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn skip_indexed_agrees_with_skip_raw_from_every_start(text in jsonish()) {
            for start in 0..=text.len() {
                prop_assert_eq!(skip_indexed(&text, start), skip_raw(&text, start), "from {}", start);
            }
        }

        #[test]
        fn skip_indexed_finds_every_end_serde_json_finds(
            values in prop::collection::vec(json_value(), 1..6),
            pretty in any::<bool>(),
        ) {
            let mut text = Vec::new();
            for value in &values {
                text.extend_from_slice(b" \n");
                if pretty {
                    serde_json::to_writer_pretty(&mut text, value).unwrap();
                } else {
                    serde_json::to_writer(&mut text, value).unwrap();
                }
            }
            let mut stream = serde_json::Deserializer::from_slice(&text)
                .into_iter::<serde::de::IgnoredAny>();
            let mut start = 0;
            while let Some(value) = stream.next() {
                prop_assert!(value.is_ok());
                let end = stream.byte_offset();
                prop_assert_eq!(skip_indexed(&text, start), Ok(end));
                start = end;
            }
        }
    }

    /// Any JSON value, with long strings full of what must be escaped.
    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "([a-z\"\\\\{}\\[\\]:,é𝄞\u{1}]|\\\\\\\\){0,100}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 200, 12, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
                prop::collection::vec(("[a-z\"\\\\{}]{0,12}", inner), 0..12)
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    #[test]
    fn skip_raw_tells_cut_short_from_mismatched() {
        assert_eq!(skip_raw(br#"{"a": [1, "]"]} x"#, 0), Ok(15));
        assert_eq!(skip_raw(br#"{"a": [1, 2}"#, 0), Err(11));
        assert_eq!(skip_raw(br#"{"a": [1, 2"#, 0), Err(11));
        assert_eq!(skip_raw(br#""abc\"de"  "#, 0), Ok(9));
        assert_eq!(skip_raw(b"12345", 0), Ok(5));
    }
}
