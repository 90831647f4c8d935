//! The scanner's tests: numbers and strings against serde_json.

use super::{overflows_f64, Scanner};
use proptest::prelude::*;

#[test]
fn overflow_is_decided_by_value() {
    let over = |s: &str| overflows_f64(s.as_bytes());
    assert!(over("1e400") && over("-1e309") && over("1.8e308"));
    assert!(!over("1e308") && !over("1.7976931348623157e308") && !over("1e-400"));
    assert!(!over("0e999999999999999999999") && !over("0.000e5") && !over("-0"));
    // 10^655360 brought back to 1 by its exponent.
    let one = format!("1{}e-655360", "0".repeat(655_360));
    assert!(!over(&one));
    let big = format!("1{}e-655051", "0".repeat(655_360));
    assert!(over(&big));
    let small = format!("0.{}1e655361", "0".repeat(655_360));
    assert!(!over(&small));
    // Past the digits kept, a non-zero digit still rounds up to infinity.
    let edge = format!("1.7976931348623158{}1e308", "0".repeat(2000));
    assert_eq!(over(&edge), edge.parse::<f64>().unwrap().is_infinite());
    assert!(!over(&"9".repeat(308)) && over(&"9".repeat(310)));
}

/// The string token at the start of `json`, scanned and decoded.
fn decoded(json: &str) -> String {
    let mut scan = Scanner::new(json.as_bytes(), 0);
    let token = scan.string().expect("a well-formed string");
    scan.decode(token).into_owned()
}

/// `text` as a JSON string with every character that is not ASCII
/// written as `\u` escapes (surrogate pairs beyond the BMP).
fn escaped(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => {
                let mut units = [0; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

#[test]
fn decode_reads_every_escape() {
    let json = r#""a\"b\\c\/d\be\ff\ng\rh\ti\u00e9j\ud83c\udccfk""#;
    assert_eq!(
        decoded(json),
        "a\"b\\c/d\u{8}e\u{c}f\ng\rh\ti\u{e9}j\u{1f0cf}k"
    );
    assert_eq!(decoded(r#""Æther \"Vial\"\nmüde""#), "Æther \"Vial\"\nmüde");
}

proptest! {
    #[test]
    fn decode_gives_back_what_serde_json_wrote(text in any::<String>()) {
        let json = serde_json::to_string(&text).expect("a JSON string");
        prop_assert_eq!(decoded(&json), text.clone());
        prop_assert_eq!(decoded(&escaped(&text)), text);
    }
}

/// What scanning the string at the start of `bytes` gives: the token's
/// range and escapes, or the error; and where the cursor stops.
fn scanned(scan: &mut Scanner<'_>) -> (Result<(usize, usize, bool), String>, usize) {
    let token = scan.string();
    let outcome = token
        .map(|s| (s.start, s.end, s.escaped()))
        .map_err(|e| format!("{e:?}"));
    (outcome, scan.pos)
}

/// Bytes after an opening quote: string content, escapes good and bad,
/// quotes, control characters, characters beyond ASCII and bytes that are
/// not UTF-8, long runs across blocks of the index.
fn string_like() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => "[a-zA-Z0-9 ,:{}]{1,80}".prop_map(String::into_bytes),
        2 => Just(b"\"".to_vec()),
        2 => prop::sample::select(vec![
            &b"\\n"[..], b"\\\"", b"\\\\", b"\\u00e9", b"\\ud83c\\udccf", b"\\x", b"\\u12", b"\\",
        ]).prop_map(<[u8]>::to_vec),
        2 => Just("é𝄞Æ".as_bytes().to_vec()),
        1 => prop::sample::select(vec![0x00u8, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]).prop_map(|b| vec![b]),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| {
        let mut bytes = vec![b'"'];
        bytes.extend(pieces.concat());
        bytes
    })
}

proptest! {
    /// A string scanned with the index of its stops, whole or in part (the
    /// rest read byte by byte), from any offset, with its UTF-8 checked in
    /// bulk or not, gives what it gives without.
    #[test]
    fn a_string_scanned_with_its_stops_is_scanned_as_without(
        prefix in 0usize..70,
        bytes in string_like(),
        cut in 0usize..400,
        bulk_checked in any::<bool>(),
    ) {
        let mut padded = vec![b' '; prefix];
        padded.extend_from_slice(&bytes);
        let utf8_checked = if bulk_checked {
            crate::utf8_prefix(&padded)
        } else {
            0
        };
        let mut plain = Scanner::new(&padded, prefix);
        plain.utf8_checked = utf8_checked;
        let expected = scanned(&mut plain);
        for range in [0..padded.len(), prefix..padded.len(), prefix..(prefix + cut).min(padded.len())] {
            let mut stops = crate::StringStops::new();
            stops.index(&padded, range.clone());
            let mut indexed = Scanner::new(&padded, prefix).with_string_stops(&stops);
            indexed.utf8_checked = utf8_checked;
            prop_assert_eq!(scanned(&mut indexed), expected.clone(), "indexed {:?}", range);
        }
    }
}

/// What a reading of an object's members found: each member's name and
/// offsets, and how the iteration ended.
#[derive(Debug, PartialEq)]
struct MembersRead {
    found: Vec<(String, usize, usize)>,
    complete: bool,
    cut_short: bool,
    error: Option<usize>,
}

/// The members read byte by byte, then over the index.
fn members_both_ways(bytes: &[u8]) -> [MembersRead; 2] {
    [false, true].map(|indexed| {
        let scan = Scanner::new(bytes, 0);
        let mut members = if indexed {
            scan.members().over_index()
        } else {
            scan.members()
        };
        let found = members
            .by_ref()
            .map(|m| (m.name.into_owned(), m.name_at, m.value_at))
            .collect();
        MembersRead {
            found,
            complete: members.complete(),
            cut_short: members.cut_short(),
            error: members.error().map(|e| e.at),
        }
    })
}

#[test]
fn members_over_the_index_are_those_read_byte_by_byte_whole_cut_short_or_malformed() {
    let long = format!(
        r#"{{"data": {{"cards": [{}], "name": "a \"quoted\" {{[ name"}}, "meta": {{"version": "5.2.1"}}, "n": -1.5e3, "s": "x\\\\"}}"#,
        r#"{"name": "Card", "text": "{ [ \" ] }", "n": [1, 2, {"a": null}]},"#.repeat(40) + "{}"
    );
    let mut inputs: Vec<Vec<u8>> = (0..=long.len())
        .step_by(7)
        .map(|cut| long.as_bytes()[..cut].to_vec())
        .collect();
    inputs.push(long.clone().into_bytes());
    inputs.push(long.replacen("]}", "}}", 1).into_bytes());
    inputs.push(br#"{"a": [1, 2}, "b": 3}"#.to_vec());
    inputs.push(br#"{"a": "\"}", "b": {"c": "\\"}}"#.to_vec());
    for bytes in &inputs {
        let [raw, indexed] = members_both_ways(bytes);
        assert_eq!(indexed, raw, "{:?}", String::from_utf8_lossy(bytes));
    }
    let [whole, _] = members_both_ways(long.as_bytes());
    assert!(whole.complete && whole.found.len() == 4, "{whole:?}");
}
