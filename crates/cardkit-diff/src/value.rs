//! A value read again from its file, for comparing: like
//! `serde_json::Value`, but numbers keep their literal as written, so that
//! they are compared by value exactly ([`crate::number::Decimal`]) and
//! reported as written, whatever their size or precision (a float would
//! round `9007199254740993.0`, and refuse `1e400`).

use std::collections::BTreeMap;
use std::fmt;

use cardkit_json::Scanner;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;

/// Values nested deeper than this are kept as their text (white space
/// outside strings left out), compared as text: the walks over values
/// recurse, and no record of a valid set comes near this depth.
pub const MAX_DEPTH: usize = 128;

/// A JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number, as written (`3.0`).
    Number(Box<str>),
    String(String),
    Array(Vec<Json>),
    /// Members by name (the last of a name written twice, as the
    /// validator reads it).
    Object(BTreeMap<String, Json>),
    /// A value nested past [`MAX_DEPTH`], as its text without white space.
    Deep(Box<str>),
}

impl Json {
    /// The value that `bytes` hold (white space around it allowed).
    ///
    /// # Errors
    /// The bytes are not one JSON value: where and why.
    pub fn parse(bytes: &[u8]) -> Result<Json, String> {
        let mut scan = Scanner::new(bytes, 0);
        scan.ws();
        let value = read(&mut scan, 0)?;
        scan.ws();
        if !scan.at_end() {
            return Err(format!("more than one value, at byte {}", scan.pos));
        }
        Ok(value)
    }

    /// A member of an object.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.get(name),
            _ => None,
        }
    }

    /// The text of a string.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }
}

fn syntax(error: &cardkit_json::SyntaxError) -> String {
    format!("malformed JSON at byte {}", error.at)
}

fn read(scan: &mut Scanner<'_>, depth: usize) -> Result<Json, String> {
    match scan.peek() {
        Some(b'{' | b'[') if depth >= MAX_DEPTH => {
            let start = scan.pos;
            scan.skip_structure().map_err(|e| syntax(&e))?;
            Ok(Json::Deep(compact(&scan.bytes[start..scan.pos]).into()))
        }
        Some(b'{') => {
            let mut members = BTreeMap::new();
            if scan.open().map_err(|e| syntax(&e))? {
                loop {
                    let (name, _) = scan.member_name().map_err(|e| syntax(&e))?;
                    let name = scan.decode(name).into_owned();
                    members.insert(name, read(scan, depth + 1)?);
                    if !scan.after_member().map_err(|e| syntax(&e))? {
                        break;
                    }
                }
            }
            Ok(Json::Object(members))
        }
        Some(b'[') => {
            let mut items = Vec::new();
            if scan.open().map_err(|e| syntax(&e))? {
                loop {
                    items.push(read(scan, depth + 1)?);
                    if !scan.after_item().map_err(|e| syntax(&e))? {
                        break;
                    }
                }
            }
            Ok(Json::Array(items))
        }
        Some(b'"') => {
            let token = scan.string().map_err(|e| syntax(&e))?;
            Ok(Json::String(scan.decode(token).into_owned()))
        }
        // The literal's extent only: whether it is a number is asked when
        // it is compared. The scanner's own reading of numbers refuses
        // those a float cannot hold, which a document diffed as far as it
        // parses may have.
        Some(b'-' | b'0'..=b'9') => {
            let start = scan.pos;
            while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = scan.peek() {
                scan.pos += 1;
            }
            Ok(Json::Number(scan.ascii(start, scan.pos).into()))
        }
        Some(b't' | b'f' | b'n') => match scan.literal().map_err(|e| syntax(&e))? {
            "true" => Ok(Json::Bool(true)),
            "false" => Ok(Json::Bool(false)),
            _ => Ok(Json::Null),
        },
        _ => Err(format!("a value was expected at byte {}", scan.pos)),
    }
}

/// JSON text without the white space outside its strings.
fn compact(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in bytes {
        if in_string {
            in_string = escaped || b != b'"';
            escaped = !escaped && b == b'\\';
        } else if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            continue;
        } else {
            in_string = b == b'"';
        }
        out.push(b);
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            // Written as it was read; a literal that JSON readers refuse
            // (`1e400`, in a document diffed as far as it parses) is
            // written as a string.
            Json::Number(literal) => {
                match raw(literal, literal.parse::<serde_json::Number>().is_ok()) {
                    Some(raw) => raw.serialize(serializer),
                    None => serializer.serialize_str(literal),
                }
            }
            Json::String(text) => serializer.serialize_str(text),
            Json::Deep(text) => match raw(text, true) {
                Some(raw) => raw.serialize(serializer),
                None => serializer.serialize_str(text),
            },
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (name, value) in members {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
        }
    }
}

/// `text` as JSON written as it is, when `readable` and it is JSON.
fn raw(text: &str, readable: bool) -> Option<Box<RawValue>> {
    readable
        .then(|| RawValue::from_string(text.to_owned()).ok())
        .flatten()
}

/// Compact JSON, as `serde_json::Value` writes it.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_their_literal_and_values_their_shape() {
        let text = br#" {"b": [1.50, -0, 1e400, 9007199254740993.0], "a": {"x": null, "y": true}, "s": "\u00e9\"", "b2": false} "#;
        let value = Json::parse(text).unwrap();
        assert_eq!(
            value.to_string(),
            r#"{"a":{"x":null,"y":true},"b":[1.50,-0,"1e400",9007199254740993.0],"b2":false,"s":"é\""}"#
        );
        assert_eq!(value.get("s").and_then(Json::as_str), Some("é\""));
    }

    #[test]
    fn the_last_member_of_a_name_written_twice_is_kept() {
        let value = Json::parse(br#"{"a": 1, "a": 2}"#).unwrap();
        assert_eq!(value.get("a"), Some(&Json::Number("2".into())));
    }

    #[test]
    fn values_nested_past_the_limit_are_kept_as_text() {
        let depth = MAX_DEPTH + 10;
        let text = format!("{}{}", "[ ".repeat(depth), "] ".repeat(depth));
        let value = Json::parse(text.as_bytes()).unwrap();
        let mut inner = &value;
        for _ in 0..MAX_DEPTH {
            match inner {
                Json::Array(items) => inner = &items[0],
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(
            *inner,
            Json::Deep(format!("{}{}", "[".repeat(10), "]".repeat(10)).into())
        );
        assert_eq!(compact(br#"{ "a b" : "c \" d" }"#), r#"{"a b":"c \" d"}"#);
    }

    #[test]
    fn what_is_not_one_value() {
        for bad in [&b""[..], b"{", b"[1,]", b"1 2", b"{\"a\" 1}", b"nul"] {
            assert!(
                Json::parse(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
