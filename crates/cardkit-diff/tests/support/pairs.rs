//! A seeded generator of build pairs: an old catalog of valid sets (cards
//! made from the repository's example set, tokens, a sealed product) and a
//! new one with known changes: cards removed, added, changed, re-keyed
//! (with and without a new catalog id), re-identified, a field new to the
//! build, a field that vanished, a type change, a new rarity, a set name
//! changed, a set added and one removed. What was changed is returned, so
//! that tests can check that the diff reports each change exactly once.
//!
//! Both catalogs are written set by set, so that a pair of any size takes
//! little memory (the benchmark makes 500 MB ones).

use std::collections::BTreeSet;
use std::io::{self, Write};

use serde_json::{json, Value};

/// What pair to make.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub seed: u64,
    pub sets: usize,
    pub cards: usize,
    pub changes: usize,
    /// Also a set added and a set removed, and a set's name changed.
    pub set_changes: bool,
}

/// A record change made, as the diff should report it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Made {
    pub code: String,
    pub change: &'static str,
    pub uuid: String,
    pub reidentified: bool,
}

/// What the new build should be to a diff.
#[derive(Debug, Default)]
pub struct Expected {
    pub records: BTreeSet<Made>,
    /// `(kind, pattern)` of each drift.
    pub drift: BTreeSet<(&'static str, String)>,
    /// `(code, change)` of each set added, removed or changed.
    pub sets: BTreeSet<(String, &'static str)>,
    /// Old catalog id to what it should become: `Some(new)` or `None`
    /// (deleted); ids that stay are not listed.
    pub catalog: Vec<(String, Option<String>)>,
}

/// A small deterministic generator (xorshift).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn uuid(&mut self) -> String {
        let (a, b) = (self.next(), self.next());
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            b >> 52,
            b & 0xffff_ffff_ffff
        )
    }
}

const EXAMPLE: &str = include_str!("../../../../examples/valid/set.json");

fn example() -> Value {
    let set: Value = serde_json::from_str(EXAMPLE).expect("the example set");
    set.get("data").cloned().unwrap_or(set)
}

const RARITIES: [&str; 3] = ["common", "uncommon", "rare"];

fn card(template: &Value, rng: &mut Rng, code: &str, i: usize) -> Value {
    let mut card = template.clone();
    card["uuid"] = json!(rng.uuid());
    card["number"] = json!(i.to_string());
    card["name"] = json!(format!("Card {code} {i}"));
    card["setCode"] = json!(code);
    card["rarity"] = json!(RARITIES[i % RARITIES.len()]);
    card["identifiers"]["catalogAId"] = json!(rng.uuid());
    // A member the spec does not define (a warning, not an error), whose
    // type may change.
    card["popularity"] = json!(i.to_string());
    card
}

/// The kinds of change, in the order they are dealt out.
const KINDS: [&str; 10] = [
    "changed",
    "removed",
    "added",
    "rekeyed",
    "rekeyed_reidentified",
    "reidentified",
    "new_field",
    "type_changed",
    "new_value",
    "vanished",
];

fn code(i: usize) -> String {
    format!("S{i:03}")
}

fn set(template: &Value, code: &str, name: &str, cards: Vec<Value>) -> Value {
    let mut set = template.clone();
    set["code"] = json!(code);
    set["name"] = json!(name);
    set["baseSetSize"] = json!(cards.len());
    set["totalSetSize"] = json!(cards.len());
    set["cards"] = Value::Array(cards);
    set
}

/// Writes the old build to `old` and the new one to `new` (catalogs, each
/// `{"meta": {"date"}, "data": {CODE: set}}`), and says what changed.
///
/// # Errors
/// Writing failed.
pub fn write_pair(spec: &Spec, old: &mut dyn Write, new: &mut dyn Write) -> io::Result<Expected> {
    let mut rng = Rng::new(spec.seed);
    let base = example();
    let template = base["cards"][0].clone();
    let mut expected = Expected::default();
    // Which cards change, and how: distinct (set, card) targets.
    let mut targets: Vec<(usize, usize, &str)> = Vec::new();
    let mut taken = BTreeSet::new();
    for k in 0..spec.changes.min(spec.sets * spec.cards) {
        let kind = KINDS[k % KINDS.len()];
        loop {
            let target = (rng.below(spec.sets), rng.below(spec.cards));
            if taken.insert(target) {
                targets.push((target.0, target.1, kind));
                break;
            }
        }
    }
    // The vanished field is on the cards that lose it only.
    let vanishing: BTreeSet<(usize, usize)> = targets
        .iter()
        .filter(|t| t.2 == "vanished")
        .map(|t| (t.0, t.1))
        .collect();
    writeln!(
        old,
        "{{\"meta\": {{\"date\": \"2024-05-01\"}}, \"data\": {{"
    )?;
    writeln!(
        new,
        "{{\"meta\": {{\"date\": \"2024-05-02\"}}, \"data\": {{"
    )?;
    let mut first = (true, true);
    let sep = |out: &mut dyn Write, first: &mut bool| -> io::Result<()> {
        if !std::mem::take(first) {
            writeln!(out, ",")?;
        }
        Ok(())
    };
    for s in 0..spec.sets {
        let code = code(s);
        let mut before = Vec::with_capacity(spec.cards);
        for i in 0..spec.cards {
            let mut c = card(&template, &mut rng, &code, i);
            if vanishing.contains(&(s, i)) {
                c["flavorName"] = json!("Going Away");
            }
            before.push(c);
        }
        let mut after: Vec<Value> = Vec::with_capacity(spec.cards);
        for (i, c) in before.iter().enumerate() {
            let kind = targets.iter().find(|t| t.0 == s && t.1 == i).map(|t| t.2);
            let uuid = c["uuid"].as_str().unwrap_or_default().to_owned();
            let catalog = c["identifiers"]["catalogAId"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let mut made = |change: &'static str, uuid: String, reidentified: bool| {
                expected.records.insert(Made {
                    code: code.clone(),
                    change,
                    uuid,
                    reidentified,
                });
            };
            let mut c = c.clone();
            match kind {
                None => {}
                Some("changed") => {
                    c["artist"] = json!(format!("Artist {}", rng.next()));
                    made("changed", uuid, false);
                }
                Some("removed") => {
                    made("removed", uuid, false);
                    expected.catalog.push((catalog, None));
                    continue;
                }
                Some("added") => {
                    let mut added = card(&template, &mut rng, &code, spec.cards + i);
                    added["number"] = json!(format!("A{i}"));
                    made(
                        "added",
                        added["uuid"].as_str().unwrap_or_default().to_owned(),
                        false,
                    );
                    after.push(c);
                    after.push(added);
                    continue;
                }
                Some("rekeyed") => {
                    c["uuid"] = json!(rng.uuid());
                    made(
                        "rekeyed",
                        c["uuid"].as_str().unwrap_or_default().to_owned(),
                        false,
                    );
                }
                Some("rekeyed_reidentified") => {
                    c["uuid"] = json!(rng.uuid());
                    let now = rng.uuid();
                    c["identifiers"]["catalogAId"] = json!(now);
                    made(
                        "rekeyed",
                        c["uuid"].as_str().unwrap_or_default().to_owned(),
                        true,
                    );
                    expected.catalog.push((catalog, Some(now)));
                }
                Some("reidentified") => {
                    let now = rng.uuid();
                    c["identifiers"]["catalogAId"] = json!(now);
                    made("changed", uuid, true);
                    expected.catalog.push((catalog, Some(now)));
                }
                Some("new_field") => {
                    c["releaseNote"] = json!("new in this build");
                    made("changed", uuid, false);
                    expected
                        .drift
                        .insert(("new_field", "/cards/*/releaseNote".into()));
                }
                Some("type_changed") => {
                    c["popularity"] = json!(i);
                    made("changed", uuid, false);
                    expected
                        .drift
                        .insert(("type_changed", "/cards/*/popularity".into()));
                }
                Some("new_value") => {
                    c["rarity"] = json!("special");
                    made("changed", uuid, false);
                    expected
                        .drift
                        .insert(("new_values", "/cards/*/rarity".into()));
                }
                Some("vanished") => {
                    c.as_object_mut().map(|m| m.remove("flavorName"));
                    made("changed", uuid, false);
                    expected
                        .drift
                        .insert(("vanished_field", "/cards/*/flavorName".into()));
                }
                Some(other) => unreachable!("{other}"),
            }
            after.push(c);
        }
        let name = format!("Set {code}");
        let renamed = if spec.set_changes && s == 0 {
            format!("{name} (renamed)")
        } else {
            name.clone()
        };
        if expected.records.iter().any(|m| m.code == code) || renamed != name {
            expected.sets.insert((code.clone(), "changed"));
        }
        sep(old, &mut first.0)?;
        write!(old, "{:?}: ", code)?;
        serde_json::to_writer(&mut *old, &set(&base, &code, &name, before))?;
        sep(new, &mut first.1)?;
        write!(new, "{:?}: ", code)?;
        serde_json::to_writer(&mut *new, &set(&base, &code, &renamed, after))?;
    }
    if spec.set_changes {
        let gone = "GONE".to_owned();
        let cards: Vec<Value> = (0..3)
            .map(|i| card(&template, &mut rng, &gone, i))
            .collect();
        for c in &cards {
            let id = c["identifiers"]["catalogAId"].as_str().unwrap_or_default();
            expected.catalog.push((id.to_owned(), None));
        }
        sep(old, &mut first.0)?;
        write!(old, "\"GONE\": ")?;
        serde_json::to_writer(&mut *old, &set(&base, &gone, "Gone", cards))?;
        expected.sets.insert((gone, "removed"));
        let fresh = "ZNEW".to_owned();
        let cards: Vec<Value> = (0..3)
            .map(|i| card(&template, &mut rng, &fresh, i))
            .collect();
        sep(new, &mut first.1)?;
        write!(new, "\"ZNEW\": ")?;
        serde_json::to_writer(&mut *new, &set(&base, &fresh, "New", cards))?;
        expected.sets.insert((fresh, "added"));
    }
    writeln!(old, "\n}}}}")?;
    writeln!(new, "\n}}}}")?;
    Ok(expected)
}
