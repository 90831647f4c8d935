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
/// another thread: with SIMD, several times faster than [`skip_raw`]. To
/// go on where the bytes at hand end once more are read, see
/// [`IndexedSkip`].
pub fn skip_indexed(bytes: &[u8], pos: usize) -> Result<usize, usize> {
    IndexedSkip::new(pos).resume(bytes, 0, true)
}

/// [`skip_indexed`] over an input read a part at a time: where the bytes at
/// hand end, it keeps what it knows (the brackets open, whether it stopped
/// inside a string) after the last whole block of 64 bytes, and goes on
/// from there when more are at hand, so that each byte of a long document
/// is indexed once however many reads it takes.
#[derive(Debug)]
pub struct IndexedSkip {
    /// The input offset the value is looked for from.
    pos: usize,
    state: SkipState,
}

#[derive(Debug)]
enum SkipState {
    /// Nothing read yet past white space.
    Start,
    /// In an object or array: the closing brackets expected, innermost
    /// last, and the input offset of the next block to index.
    Container {
        open: Vec<u8>,
        indexer: Indexer,
        next: usize,
    },
    /// Not a container, or one the index does not settle: [`skip_raw`]'s
    /// answer, from the start each time.
    Raw,
    /// The container's end, once found.
    Found(usize),
}

impl IndexedSkip {
    /// A skip over the value at input offset `pos` (white space before it
    /// is skipped too).
    #[must_use]
    pub fn new(pos: usize) -> Self {
        IndexedSkip {
            pos,
            state: SkipState::Start,
        }
    }

    /// [`skip_indexed`]'s answer in input offsets, `bytes` holding the
    /// input from offset `base` on: from `pos`, and from where the last
    /// call stopped. `complete`: no more bytes follow them (a short last
    /// block is then indexed too). `Err` at the end of `bytes`: more is
    /// needed.
    ///
    /// # Panics
    /// If `bytes` start after `pos`, or after where the last call stopped.
    pub fn resume(&mut self, bytes: &[u8], base: usize, complete: bool) -> Result<usize, usize> {
        let end = base + bytes.len();
        if let SkipState::Start = self.state {
            let rest = bytes.get(self.pos - base..).unwrap_or_default();
            let blank = rest
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
                .count();
            self.state = match rest.get(blank) {
                None => return Err(end),
                Some(b'{' | b'[') => SkipState::Container {
                    open: Vec::new(),
                    indexer: Indexer::new(),
                    next: self.pos + blank,
                },
                Some(_) => SkipState::Raw,
            };
        }
        let SkipState::Container {
            open,
            indexer,
            next,
        } = &mut self.state
        else {
            return match self.state {
                SkipState::Found(at) => Ok(at),
                _ => raw(bytes, base, self.pos),
            };
        };
        let rest = &bytes[*next - base..];
        let now = if complete {
            rest.len()
        } else {
            rest.len() / 64 * 64
        };
        for (block, at) in indexer.blocks(&rest[..now]).zip((*next..).step_by(64)) {
            if block.stray_backslashes != 0 {
                self.state = SkipState::Raw;
                return raw(bytes, base, self.pos);
            }
            let mut brackets = block.brackets;
            while brackets != 0 {
                let here = at + brackets.trailing_zeros() as usize;
                match bytes[here - base] {
                    b'{' => open.push(b'}'),
                    b'[' => open.push(b']'),
                    close => {
                        if open.pop() != Some(close) {
                            self.state = SkipState::Raw;
                            return raw(bytes, base, self.pos);
                        }
                        if open.is_empty() {
                            self.state = SkipState::Found(here + 1);
                            return Ok(here + 1);
                        }
                    }
                }
                brackets &= brackets - 1;
            }
        }
        *next += now;
        Err(end)
    }
}

/// [`skip_raw`] from input offset `pos`, `bytes` holding the input from
/// offset `base` on; its answer in input offsets.
fn raw(bytes: &[u8], base: usize, pos: usize) -> Result<usize, usize> {
    skip_raw(bytes, pos - base)
        .map(|end| base + end)
        .map_err(|end| base + end)
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
        fn an_indexed_skip_resumed_read_by_read_ends_where_it_does_on_the_whole(
            text in prop_oneof![jsonish(), json_text()],
            start in prop::option::of(any::<prop::sample::Index>()),
            dropped in any::<prop::sample::Index>(),
            reads in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
        ) {
            // From the first value (most often a container), or anywhere.
            let start = start.map_or(0, |start| start.index(text.len() + 1));
            // What a reader still holds: the bytes from `base` on, at most
            // from the value's start.
            let base = dropped.index(start + 1);
            let mut ends: Vec<usize> = reads.iter().map(|r| r.index(text.len() + 1)).collect();
            ends.push(text.len());
            ends.sort_unstable();
            let mut skip = IndexedSkip::new(start);
            let mut answer = None;
            for end in ends.into_iter().filter(|&end| end >= start) {
                let complete = end == text.len();
                match skip.resume(&text[base..end], base, complete) {
                    Ok(at) if at < end || complete => answer = Some(Ok(at)),
                    Err(at) if at < end || complete => answer = Some(Err(at)),
                    _ => continue,
                }
                break;
            }
            prop_assert_eq!(answer, Some(skip_indexed(&text, start)));
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

    /// JSON values one after the other, most of them objects or arrays
    /// spanning many blocks.
    fn json_text() -> impl Strategy<Value = Vec<u8>> {
        let container = json_value().prop_map(|value| match value {
            serde_json::Value::Array(_) | serde_json::Value::Object(_) => value,
            leaf => serde_json::Value::Array(vec![leaf]),
        });
        (prop::collection::vec(container, 1..4), any::<bool>()).prop_map(|(values, pretty)| {
            let mut text = Vec::new();
            for value in &values {
                text.push(b' ');
                if pretty {
                    serde_json::to_writer_pretty(&mut text, value).unwrap();
                } else {
                    serde_json::to_writer(&mut text, value).unwrap();
                }
            }
            text
        })
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

    /// Every place a read may end, in a document whose strings hold escaped
    /// quotes and backslashes across blocks: one read up to there, then the
    /// rest. (An escaped quote read as a closing one would end the first
    /// object early: `"\"}"` would close it, with no backslash in the
    /// block after it to send the skip to `skip_raw`.)
    #[test]
    fn an_indexed_skip_resumed_after_any_cut_ends_where_it_does_on_the_whole() {
        let text = br#" {"q": "\"}", "r": "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnop", "a": ["\"}", "\\", "x\\\"]"], "b": {"c": "\\\\\"{"}, "d": [[1, 2], {"e": "]\"\\"}]}  "#
            .repeat(3);
        let whole = skip_indexed(&text, 0);
        assert_eq!(whole, Ok(text.len() / 3 - 2));
        for cut in 0..text.len() {
            let mut skip = IndexedSkip::new(0);
            let first = skip.resume(&text[..cut], 0, false);
            let answer = match first {
                Ok(at) | Err(at) if at < cut => first,
                _ => skip.resume(&text, 0, true),
            };
            assert_eq!(answer, whole, "a read ending at {cut}");
        }
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
