//! `--references` on generated sets: a catalog (or a single set) of cards
//! whose ids, faces, variations, printings and names come from a small pool,
//! so that they collide, dangle and hold; written compact or pretty, with
//! strings escaped or not, with a BOM or not. Never a panic; and every
//! finding's place is the value it names: its offset is where that string
//! starts, its line and column are the offset's (counted here), its pointer
//! leads `serde_json` to that string, and the second place, when there is
//! one, holds a value too.
#![no_main]

use arbitrary::Arbitrary;
use cardkit::references::check_slice;
use cardkit::{Options, Severity};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

#[derive(Debug, Arbitrary)]
struct Input {
    catalog: bool,
    pretty: bool,
    escaped: bool,
    bom: bool,
    sets: Vec<Set>,
}

#[derive(Debug, Arbitrary)]
struct Set {
    code: u8,
    token_set: Option<u8>,
    parent: Option<u8>,
    cards: Vec<Card>,
}

#[derive(Debug, Arbitrary)]
struct Card {
    id: u8,
    number: u8,
    side: Option<bool>,
    name: u8,
    set_code: Option<u8>,
    faces: Vec<u8>,
    variations: Vec<u8>,
    printings: Vec<u8>,
    names: Vec<u8>,
    token: bool,
}

fn id(n: u8) -> String {
    format!("{:08x}-0000-4000-8000-{:012x}", n % 12, n % 12)
}

fn code(n: u8) -> String {
    format!("S\u{e9}{}", n % 4)
}

fn card(card: &Card, set: &str) -> Value {
    let mut value = json!({
        "uuid": id(card.id), "name": format!("N\"{}", card.name % 6), "number": (card.number % 4).to_string(),
        "setCode": card.set_code.map_or_else(|| set.to_owned(), code), "language": "English",
        "layout": "normal", "type": "T", "types": [], "subtypes": [], "supertypes": [], "colors": [],
        "colorIdentity": [], "availability": [], "finishes": [], "borderColor": "black",
        "frameVersion": "2015", "hasFoil": false, "hasNonFoil": true, "identifiers": {},
        "relatedCards": {"reverseRelated": card.names.iter().take(4).map(|n| format!("N\"{}", n % 8)).collect::<Vec<_>>()}
    });
    if let Some(side) = card.side {
        value["side"] = json!(if side { "a" } else { "b" });
    }
    let ids = |list: &[u8]| list.iter().take(4).map(|&n| id(n)).collect::<Vec<_>>();
    value["otherFaceIds"] = json!(ids(&card.faces));
    if !card.token {
        value["variations"] = json!(ids(&card.variations));
        value["originalPrintings"] = json!(ids(&card.printings));
        value["convertedManaCost"] = json!(1);
        value["manaValue"] = json!(1);
        value["rarity"] = json!("common");
        value["foreignData"] = json!([]);
        value["legalities"] = json!({});
        value["purchaseUrls"] = json!({});
    } else {
        value["reverseRelated"] = json!([]);
    }
    value
}

fn set(set: &Set) -> Value {
    let code = code(set.code);
    let (tokens, cards): (Vec<&Card>, Vec<&Card>) = set.cards.iter().take(8).partition(|c| c.token);
    let mut value = json!({
        "code": code, "name": "S", "type": "expansion", "releaseDate": "2024-01-05",
        "baseSetSize": 0, "totalSetSize": 0, "isFoilOnly": false, "isOnlineOnly": false,
        "iconCode": "s", "languages": [], "translations": {}, "sealedProduct": null,
        "cards": cards.iter().map(|c| card(c, &code)).collect::<Vec<_>>(),
        "tokens": tokens.iter().map(|c| card(c, &code)).collect::<Vec<_>>(),
    });
    if let Some(n) = set.token_set {
        value["tokenSetcode"] = json!(self::code(n));
    }
    if let Some(n) = set.parent {
        value["parentCode"] = json!(self::code(n));
    }
    value
}

/// `value` as JSON, every non-ASCII character and quote of a string
/// escaped as `\u` when asked.
fn write(value: &Value, pretty: bool, escaped: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .expect("JSON");
    if !escaped {
        return text;
    }
    text.chars()
        .map(|c| if c.is_ascii() { c.to_string() } else { format!("\\u{:04x}", c as u32) })
        .collect()
}

/// The 1-based line and column (in characters) of `offset` in `text`.
fn line_column(text: &[u8], offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut column = std::str::from_utf8(&before[start..]).expect("UTF-8").chars().count() + 1;
    if start == 0 && before.starts_with("\u{feff}".as_bytes()) {
        column -= 1;
    }
    (line, column)
}

fuzz_target!(|input: Input| {
    let sets: Vec<Value> = input.sets.iter().take(4).map(set).collect();
    let value = if input.catalog {
        let data: serde_json::Map<String, Value> = sets
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("K{i}"), s.clone()))
            .collect();
        json!({"meta": {"version": "5.2.1"}, "data": data})
    } else if let Some(first) = sets.into_iter().next() {
        first
    } else {
        return;
    };
    let mut text = write(&value, input.pretty, input.escaped);
    if input.bom {
        text.insert(0, '\u{feff}');
    }
    let bytes = text.as_bytes();
    let outcome = check_slice(bytes, &Options::default(), Severity::Warning);
    let body = if input.bom { &text[3..] } else { &text[..] };
    let parsed: Value = serde_json::from_str(body).expect("written as JSON");
    for (_, report, _) in &outcome.reports {
        for d in &report.diagnostics {
            assert_eq!(bytes[d.offset], b'"', "{d:?}");
            assert_eq!(line_column(bytes, d.offset), (d.line, d.column), "{d:?}");
            let named = parsed.pointer(&d.pointer).unwrap_or_else(|| panic!("{d:?}"));
            let read: Value = serde_json::Deserializer::from_slice(&bytes[d.offset..])
                .into_iter::<Value>()
                .next()
                .expect("a value")
                .expect("a string");
            assert_eq!(named, &read, "{d:?}");
            if let Some(related) = &d.related {
                if related.file.is_none() {
                    assert!(parsed.pointer(&related.pointer).is_some(), "{d:?}");
                    assert_eq!(line_column(bytes, related.offset), (related.line, related.column), "{d:?}");
                }
            }
        }
    }
});
