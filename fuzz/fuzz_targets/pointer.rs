//! `cardkit_json::pointer` against RFC 6901 as serde_json reads it: a
//! pointer joined from tokens splits back into them and finds the value
//! serde_json's `Value::pointer` finds at the end of the same path; any text
//! is a pointer exactly when each `~` is followed by `0` or `1` (after a
//! leading `/`), and then splits as serde_json splits it; an array index is
//! what serde_json takes as one; a pattern reads back as written and
//! matches a pointer exactly when a plain matcher over token lists says so.
#![no_main]

use arbitrary::Arbitrary;
use cardkit_json::pointer::{array_index, check, join, tokens, Pattern};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

#[derive(Debug, Arbitrary)]
struct Input {
    /// A pointer's tokens, unescaped.
    tokens: Vec<String>,
    /// A pattern's steps.
    steps: Vec<Step>,
    /// Any text, read as a pointer.
    text: String,
}

#[derive(Debug, Arbitrary)]
enum Step {
    Exact(String),
    One,
    Any,
}

/// RFC 6901's splitting, as serde_json's `Value::pointer` does it.
fn reference_tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Whether `text` is a JSON Pointer by RFC 6901's grammar.
fn reference_check(text: &str) -> bool {
    if !text.is_empty() && !text.starts_with('/') {
        return false;
    }
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .all(|(at, &b)| b != b'~' || matches!(bytes.get(at + 1), Some(b'0' | b'1')))
}

/// serde_json's array index: no `+`, no leading zero.
fn reference_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// A plain backtracking matcher over token lists.
fn reference_match(steps: &[&Step], tokens: &[String]) -> bool {
    match steps.split_first() {
        None => tokens.is_empty(),
        Some((Step::Any, rest)) => (0..=tokens.len()).any(|n| reference_match(rest, &tokens[n..])),
        Some((Step::One, rest)) => !tokens.is_empty() && reference_match(rest, &tokens[1..]),
        Some((Step::Exact(token), rest)) => {
            tokens.first() == Some(token) && reference_match(rest, &tokens[1..])
        }
    }
}

fuzz_target!(|input: Input| {
    // Joined from tokens, a pointer splits back into them, and serde_json
    // finds at its end the value placed there.
    let pointer = join("", &input.tokens);
    assert_eq!(check(&pointer), Ok(()), "{pointer:?}");
    let split: Vec<String> = tokens(&pointer)
        .unwrap()
        .into_iter()
        .map(|token| token.into_owned())
        .collect();
    assert_eq!(split, input.tokens);
    assert_eq!(reference_tokens(&pointer), input.tokens);
    let mut value = json!("found");
    for token in input.tokens.iter().rev() {
        let mut object = serde_json::Map::new();
        object.insert(token.clone(), value);
        value = Value::Object(object);
    }
    assert_eq!(value.pointer(&pointer), Some(&json!("found")), "{pointer:?}");

    // Any text: a pointer exactly when the grammar says so, split as
    // serde_json splits it, and written back the same.
    let text = &input.text;
    assert_eq!(check(text).is_ok(), reference_check(text), "{text:?}");
    if let Ok(found) = tokens(text) {
        let found: Vec<String> = found.into_iter().map(|t| t.into_owned()).collect();
        assert_eq!(found, reference_tokens(text));
        assert_eq!(&join("", &found), text);
    }
    for token in text.split('/') {
        assert_eq!(array_index(token), reference_index(token), "{token:?}");
    }

    // A pattern (its exact tokens other than the wild words) reads back as
    // written and matches as the plain matcher does.
    let steps: Vec<&Step> = input
        .steps
        .iter()
        .filter(|step| !matches!(step, Step::Exact(token) if token == "*" || token == "**"))
        .take(6)
        .collect();
    let mut written = String::new();
    for step in &steps {
        match step {
            Step::Exact(token) => written.push_str(&join("", &[token])),
            Step::One => written.push_str("/*"),
            Step::Any => written.push_str("/**"),
        }
    }
    let pattern = Pattern::parse(&written).expect("a pattern written from steps");
    assert_eq!(pattern.text(), written);
    if input.tokens.len() <= 12 {
        assert_eq!(
            pattern.matches_pointer(&pointer),
            reference_match(&steps, &input.tokens),
            "{written:?} against {pointer:?}"
        );
    }
});
