//! `diff` on generated builds: sets with cards, in every container the
//! validator reads (bare, wrapped, catalog, code map, list, array), with a
//! BOM or not, pretty or not, duplicate keys in the cards. A build diffed
//! against a copy of itself (written out differently, but the same values)
//! has no change; a build diffed against itself with one card's `name`
//! changed has exactly that one change: one set changed, one record
//! changed, one value changed.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use cardkit_diff::{diff, DiffOptions, OnInvalid};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

#[derive(Debug, Arbitrary)]
struct Input {
    sets: Vec<Set>,
    container: u8,
    other_container: u8,
    bom: bool,
    pretty: bool,
    duplicate_artist: bool,
    /// Which card's name changes, counted over the build.
    change: u16,
    new_name: String,
}

#[derive(Debug, Arbitrary)]
struct Set {
    code: u8,
    cards: Vec<(String, String)>,
}

/// The build's sets as values: distinct codes, distinct uuids.
fn sets(input: &Input) -> Vec<Value> {
    let mut seen = std::collections::BTreeSet::new();
    let mut uuid = 0;
    let mut out = Vec::new();
    for set in input.sets.iter().take(4) {
        let code = format!("S{}", set.code % 16);
        if !seen.insert(code.clone()) {
            continue;
        }
        let cards: Vec<Value> = set
            .cards
            .iter()
            .take(8)
            .map(|(name, artist)| {
                uuid += 1;
                json!({
                    "uuid": format!("00000000-0000-4000-8000-{uuid:012}"),
                    "name": name,
                    "artist": artist,
                    "number": uuid.to_string(),
                })
            })
            .collect();
        out.push(json!({"code": code, "name": code, "cards": cards}));
    }
    out
}

/// A card as text, its `artist` written twice (the first one a decoy that
/// the later one replaces) when asked.
fn card_text(card: &Value, duplicate: bool, pretty: bool) -> String {
    let text = if pretty {
        serde_json::to_string_pretty(card).unwrap()
    } else {
        serde_json::to_string(card).unwrap()
    };
    if duplicate {
        format!("{{\"artist\": \"decoy\", {}", &text[1..])
    } else {
        text
    }
}

fn set_text(set: &Value, input: &Input) -> String {
    let cards: Vec<String> = set["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| card_text(c, input.duplicate_artist, input.pretty))
        .collect();
    format!(
        "{{\"code\": {}, \"name\": {}, \"cards\": [{}]}}",
        set["code"],
        set["name"],
        cards.join(if input.pretty { ",\n" } else { "," })
    )
}

/// The build written in container `container`.
fn build_text(sets: &[Value], container: u8, input: &Input) -> String {
    let texts: Vec<String> = sets.iter().map(|s| set_text(s, input)).collect();
    let body = match (container % 6, texts.len()) {
        (0 | 1, 1) if container % 6 == 0 => texts[0].clone(),
        (0 | 1, 1) => format!(
            "{{\"meta\": {{\"version\": \"5.2.2\"}}, \"data\": {}}}",
            texts[0]
        ),
        (2, _) => {
            let members: Vec<String> = sets
                .iter()
                .zip(&texts)
                .map(|(s, t)| format!("{}: {t}", s["code"]))
                .collect();
            format!("{{\"meta\": {{}}, \"data\": {{{}}}}}", members.join(","))
        }
        (3, _) => {
            let members: Vec<String> = sets
                .iter()
                .zip(&texts)
                .map(|(s, t)| format!("{}: {t}", s["code"]))
                .collect();
            format!("{{{}}}", members.join(","))
        }
        (4, _) => format!("{{\"data\": [{}]}}", texts.join(",")),
        _ => format!("[{}]", texts.join(",")),
    };
    if input.bom {
        format!("\u{FEFF}{body}")
    } else {
        body
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let old_sets = sets(&input);
    if old_sets.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let old = dir.path().join("old.json");
    let same = dir.path().join("same.json");
    let changed = dir.path().join("changed.json");
    std::fs::write(&old, build_text(&old_sets, input.container, &input)).unwrap();
    std::fs::write(&same, build_text(&old_sets, input.other_container, &input)).unwrap();
    let options = DiffOptions {
        on_invalid: OnInvalid::Keep,
        jobs: 1,
        ..DiffOptions::default()
    };
    let text = || std::fs::read_to_string(&old).unwrap();
    let result = diff(&old, &same, &options).unwrap_or_else(|e| panic!("{e}\n{}", text()));
    assert!(
        result.summary.is_empty(),
        "a build against itself: {:?}\n{}",
        result.summary,
        text()
    );

    let cards: usize = old_sets
        .iter()
        .map(|s| s["cards"].as_array().unwrap().len())
        .sum();
    if cards == 0 {
        return;
    }
    let mut new_sets = old_sets.clone();
    let mut which = usize::from(input.change) % cards;
    let mut changed_one = false;
    for set in &mut new_sets {
        let list = set["cards"].as_array_mut().unwrap();
        if which < list.len() {
            changed_one = list[which]["name"] != Value::String(input.new_name.clone());
            list[which]["name"] = Value::String(input.new_name.clone());
            break;
        }
        which -= list.len();
    }
    std::fs::write(
        &changed,
        build_text(&new_sets, input.other_container, &input),
    )
    .unwrap();
    let result = diff(&old, &changed, &options).unwrap_or_else(|e| panic!("{e}\n{}", text()));
    let s = &result.summary;
    let expected = usize::from(changed_one);
    assert_eq!(
        (
            s.sets_changed,
            s.records_changed,
            s.field_changes,
            s.sets_added,
            s.sets_removed,
            s.records_added,
            s.records_removed,
            s.records_rekeyed
        ),
        (expected, expected, expected, 0, 0, 0, 0, 0),
        "one name changed: {s:?}\n{}",
        text()
    );
});
