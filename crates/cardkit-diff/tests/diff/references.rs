//! The references a change breaks: a removed card leaves the faces and
//! variations that name it dangling, a re-keyed card leaves its other face
//! naming the old uuid, a uuid given twice is a duplicate; what was already
//! wrong in the old build is not reported again, whatever its place now;
//! what the change mends is counted. And, over generated builds, the
//! references broken are exactly the findings of `validate --references`
//! on the new build that the old build did not have.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cardkit::references::check_slice;
use cardkit::{Options, Severity};
use cardkit_diff::{diff, Diff, DiffOptions};
use proptest::prelude::*;
use serde_json::{json, Value};
use support::pairs::Rng;

fn options() -> DiffOptions {
    DiffOptions {
        jobs: 1,
        references: true,
        ..DiffOptions::default()
    }
}

fn uuid(i: usize) -> String {
    format!("00000000-0000-4000-8000-{i:012}")
}

/// The example set's first card as card `i`: its uuid, number and name
/// made from `i`.
fn card(i: usize) -> Value {
    let set = example();
    let mut card = set["cards"][0].clone();
    card["uuid"] = uuid(i).into();
    card["number"] = (i + 1).to_string().into();
    card["name"] = format!("Card {i}").into();
    card
}

fn example() -> Value {
    let text = std::fs::read_to_string("../../examples/valid/set.json").unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The example set with `cards` (and no tokens), as `dir/name`.
fn build(dir: &Path, name: &str, cards: &[Value]) -> PathBuf {
    let mut set = example();
    set["cards"] = cards.to_vec().into();
    set["tokens"] = json!([]);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(&set).unwrap()).unwrap();
    path
}

/// Cards 0 and 1, each the other's face, and card 2, a variation of card 0.
fn faces_and_a_variation() -> Vec<Value> {
    let mut cards = vec![card(0), card(1), card(2)];
    cards[0]["otherFaceIds"] = json!([uuid(1)]);
    cards[1]["otherFaceIds"] = json!([uuid(0)]);
    cards[2]["variations"] = json!([uuid(0)]);
    cards
}

/// The references broken, as checked.
fn refs(d: &Diff) -> &[cardkit_diff::BrokenReference] {
    d.references.as_deref().expect("the references checked")
}

/// The references broken: code, record, field and value.
fn broken(d: &Diff) -> BTreeSet<(String, Option<String>, String, String)> {
    refs(d)
        .iter()
        .map(|r| {
            (
                r.code.to_owned(),
                r.record.clone(),
                r.field.clone(),
                r.value.clone(),
            )
        })
        .collect()
}

fn finding(
    code: &str,
    record: usize,
    field: &str,
    value: &str,
) -> (String, Option<String>, String, String) {
    (
        code.to_owned(),
        Some(uuid(record)),
        format!("CardSet.{field}"),
        value.to_owned(),
    )
}

#[test]
fn a_removed_card_leaves_its_face_and_its_variation_dangling() {
    let dir = tempfile::tempdir().unwrap();
    let cards = faces_and_a_variation();
    let old = build(dir.path(), "old.json", &cards);
    let new = build(dir.path(), "new.json", &cards[1..]);
    let d = diff(&old, &new, &options()).unwrap();
    assert_eq!(
        broken(&d),
        BTreeSet::from([
            finding("dangling_reference", 1, "otherFaceIds", &uuid(0)),
            finding("dangling_reference", 2, "variations", &uuid(0)),
        ])
    );
    let face = refs(&d)
        .iter()
        .find(|r| r.field.ends_with("otherFaceIds"))
        .unwrap();
    // Its place in the new build: card 1 is now the first.
    assert_eq!(face.pointer, "/cards/0/otherFaceIds/0");
    assert_eq!(face.set, "EXA");
    assert_eq!(face.file, None);
    assert!(face.message.contains(&uuid(0)), "{}", face.message);
    assert_eq!(
        (d.summary.references_broken, d.summary.references_fixed),
        (Some(2), Some(0))
    );
    // Put back, the change mends them.
    let back = diff(&new, &old, &options()).unwrap();
    assert!(refs(&back).is_empty(), "{:?}", back.references);
    assert_eq!(
        (
            back.summary.references_broken,
            back.summary.references_fixed
        ),
        (Some(0), Some(2))
    );
}

#[test]
fn a_rekeyed_card_leaves_its_face_naming_the_old_uuid() {
    let dir = tempfile::tempdir().unwrap();
    let cards = faces_and_a_variation();
    let old = build(dir.path(), "old.json", &cards);
    let mut rekeyed = cards.clone();
    rekeyed[1]["uuid"] = uuid(9).into();
    let new = build(dir.path(), "new.json", &rekeyed);
    let d = diff(&old, &new, &options()).unwrap();
    assert_eq!(d.summary.records_rekeyed, 1);
    assert_eq!(
        broken(&d),
        BTreeSet::from([
            // Card 0 names the uuid card 1 had…
            finding("dangling_reference", 0, "otherFaceIds", &uuid(1)),
            // …and card 1, under its new uuid, names card 0, which does
            // not name it back.
            finding("asymmetric_faces", 9, "otherFaceIds", &uuid(0)),
        ])
    );
}

#[test]
fn a_uuid_given_twice_and_a_printing_given_twice_are_broken() {
    let dir = tempfile::tempdir().unwrap();
    let cards = faces_and_a_variation();
    let old = build(dir.path(), "old.json", &cards);
    let mut more = cards.clone();
    let mut twice = card(3);
    twice["uuid"] = uuid(2).into();
    more.push(twice);
    let mut printing = card(4);
    printing["number"] = "1".into();
    more.push(printing);
    let new = build(dir.path(), "new.json", &more);
    let d = diff(&old, &new, &options()).unwrap();
    assert_eq!(
        broken(&d),
        BTreeSet::from([
            finding("duplicate_id", 2, "uuid", &uuid(2)),
            finding(
                "duplicate_printing",
                4,
                "number",
                "card number `1`, in English"
            ),
        ])
    );
    let duplicate = &refs(&d)[0];
    assert_eq!(duplicate.pointer, "/cards/3/uuid");
}

#[test]
fn what_was_wrong_before_is_not_broken_again_wherever_it_is_now() {
    let dir = tempfile::tempdir().unwrap();
    let mut cards = faces_and_a_variation();
    // Already wrong: a face no record has, a printing given twice (card
    // 3's, the second of number 1), a uuid given twice.
    cards[2]["otherFaceIds"] = json!([uuid(7)]);
    let mut printing = card(3);
    printing["number"] = "1".into();
    cards.push(printing);
    let mut twice = card(4);
    twice["uuid"] = uuid(2).into();
    cards.push(twice);
    let old = build(dir.path(), "old.json", &cards);
    // The same cards in the reverse order: every finding has moved, and
    // the printing given twice is now found on card 0, which comes second.
    let mut reversed = cards.clone();
    reversed.reverse();
    let new = build(dir.path(), "new.json", &reversed);
    let d = diff(&old, &old, &options()).unwrap();
    assert!(
        refs(&d).is_empty() && d.summary.is_empty(),
        "{:?}",
        d.summary
    );
    let d = diff(&old, &new, &options()).unwrap();
    assert!(refs(&d).is_empty(), "{:?}", d.references);
    assert_eq!(d.summary.references_fixed, Some(0));
}

#[test]
fn a_build_that_is_a_directory_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    std::fs::create_dir_all(&old).unwrap();
    std::fs::create_dir_all(&new).unwrap();
    let cards = faces_and_a_variation();
    build(&old, "exa.json", &cards);
    build(&new, "exa.json", &cards[..2]);
    let mut gone = cards.clone();
    gone[0]["otherFaceIds"] = json!([uuid(5)]);
    let d = diff(&old, &new, &options()).unwrap();
    assert!(refs(&d).is_empty(), "{:?}", d.references);
    build(&new, "exa.json", &gone);
    let d = diff(&old, &new, &options()).unwrap();
    // Card 0 names a face no record has, and so no longer names card 1,
    // which names it.
    let codes: Vec<&str> = refs(&d).iter().map(|r| r.code).collect();
    assert_eq!(codes, ["dangling_reference", "asymmetric_faces"]);
    for r in refs(&d) {
        let file = r.file.as_deref().unwrap();
        assert!(file.ends_with("exa.json"), "{file}");
    }
}

#[test]
fn references_are_not_read_unless_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let cards = faces_and_a_variation();
    let old = build(dir.path(), "old.json", &cards);
    let new = build(dir.path(), "new.json", &cards[1..]);
    let off = DiffOptions {
        references: false,
        ..options()
    };
    let d = diff(&old, &new, &off).unwrap();
    assert_eq!(d.references, None);
    assert_eq!(
        (d.summary.references_broken, d.summary.references_fixed),
        (None, None)
    );
    assert_eq!(d.summary.records_removed, 1);
    // Nor by default.
    assert!(!DiffOptions::default().references);
}

#[test]
fn checking_the_references_changes_nothing_else_in_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let spec = support::pairs::Spec {
        seed: 5,
        sets: 6,
        cards: 40,
        changes: 60,
        set_changes: true,
    };
    let (old, new, _) = support::pair(dir.path(), &spec);
    let on = |references| DiffOptions {
        jobs: 2,
        references,
        ..DiffOptions::default()
    };
    let without = diff(&old, &new, &on(false)).unwrap();
    let mut with = diff(&old, &new, &on(true)).unwrap();
    // Every generated set names the token set `TEXA`, which none is: the
    // added set's is a reference broken, the removed set's one fixed. The
    // rest of what they name is named the same by every set (their tokens
    // share a uuid), and so was there before.
    let found: Vec<(&str, &str, Option<&str>, &str)> = refs(&with)
        .iter()
        .map(|r| {
            (
                r.code,
                r.set.as_str(),
                r.record.as_deref(),
                r.field.as_str(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [("dangling_reference", "ZNEW", None, "Set.tokenSetcode")]
    );
    assert_eq!(with.summary.references_fixed, Some(1));
    with.references = None;
    with.summary.references_broken = None;
    with.summary.references_fixed = None;
    assert_eq!(with, without);
}

/// What a finding is known by: code, the record's uuid (the set's code for
/// a set's own members and for a printing given twice), field, value.
type Key = (String, String, String, String);

/// The findings of `validate --references` on a catalog, keyed from their
/// pointers (the record is the one the pointer goes through).
fn findings(catalog: &Value) -> BTreeSet<Key> {
    let bytes = serde_json::to_vec(catalog).unwrap();
    let outcome = check_slice(&bytes, &Options::default(), Severity::Warning);
    let mut out = BTreeSet::new();
    for (_, report, _) in &outcome.reports {
        assert!(report.omitted.warnings.is_empty());
        for d in &report.diagnostics {
            let parts: Vec<&str> = d.pointer.split('/').collect();
            // /data/CODE/cards/N/…
            let code = parts[2].to_owned();
            let owner = match parts.get(3) {
                Some(&"cards") if d.code != cardkit::Code::DuplicatePrinting => {
                    let record = format!("/data/{code}/cards/{}", parts[4]);
                    catalog.pointer(&record).unwrap()["uuid"]
                        .as_str()
                        .unwrap()
                        .to_owned()
                }
                _ => code,
            };
            let value = match &d.detail {
                cardkit::diagnostic::Detail::DanglingReference { value, .. }
                | cardkit::diagnostic::Detail::DuplicateId { value, .. }
                | cardkit::diagnostic::Detail::VariationElsewhere { value, .. } => value.clone(),
                cardkit::diagnostic::Detail::DuplicatePrinting { key } => key.clone(),
                cardkit::diagnostic::Detail::SetCodeMismatch { found, .. } => found.clone(),
                cardkit::diagnostic::Detail::AsymmetricFaces { face } => face.clone(),
                other => panic!("{other:?}"),
            };
            out.insert((
                d.code.as_str().to_owned(),
                owner,
                d.field.clone().unwrap(),
                value,
            ));
        }
    }
    out
}

/// A catalog of `sets` sets of `cards` cards, some naming each other as
/// faces (within their set) and variations (in any set, or none).
fn catalog(rng: &mut Rng, sets: usize, cards: usize) -> Value {
    let mut data = serde_json::Map::new();
    let mut next = 0;
    for s in 0..sets {
        let code = format!("S{s}");
        let mut list: Vec<Value> = (0..cards)
            .map(|i| {
                let mut c = card(next + i);
                c["setCode"] = code.clone().into();
                c
            })
            .collect();
        for i in (0..cards.saturating_sub(1)).step_by(2) {
            if rng.below(3) > 0 {
                list[i]["otherFaceIds"] = json!([uuid(next + i + 1)]);
                list[i + 1]["otherFaceIds"] = json!([uuid(next + i)]);
            }
        }
        for card in &mut list {
            if rng.below(4) == 0 {
                // A card of this set or another, or of none.
                let of = rng.below(cards * sets + cards / 2);
                card["variations"] = json!([uuid(of)]);
            }
        }
        let mut set = example();
        set["code"] = code.clone().into();
        set["cards"] = list.into();
        set["tokens"] = json!([]);
        set.as_object_mut().unwrap().remove("tokenSetcode");
        data.insert(code, set);
        next += cards;
    }
    json!({ "meta": { "date": "2024-05-01" }, "data": data })
}

/// Changes made at random: cards removed, re-keyed, given another card's
/// uuid or number, made to name nothing, mended, moved.
fn change(rng: &mut Rng, catalog: &mut Value, changes: usize) {
    let codes: Vec<String> = catalog["data"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    for k in 0..changes {
        let code = &codes[rng.below(codes.len())];
        let cards = catalog["data"][code]["cards"].as_array_mut().unwrap();
        if cards.len() < 2 {
            continue;
        }
        let i = rng.below(cards.len());
        let j = rng.below(cards.len());
        match rng.below(7) {
            0 => {
                cards.remove(i);
            }
            1 => cards[i]["uuid"] = uuid(10_000 + k).into(),
            2 => cards[i]["uuid"] = cards[j]["uuid"].clone(),
            3 => cards[i]["number"] = cards[j]["number"].clone(),
            4 => cards[i]["otherFaceIds"] = json!([uuid(20_000 + k)]),
            5 => {
                let card = cards[i].as_object_mut().unwrap();
                card.remove("otherFaceIds");
                card.remove("variations");
            }
            _ => cards.swap(i, j),
        }
    }
}

proptest! {
    #![proptest_config(support::config(16))]

    #[test]
    fn the_references_broken_are_the_new_findings(
        seed in any::<u64>(),
        sets in 1usize..4,
        cards in 2usize..12,
        changes in 0usize..8,
    ) {
        let mut rng = Rng::new(seed);
        let old = catalog(&mut rng, sets, cards);
        let mut new = old.clone();
        change(&mut rng, &mut new, changes);
        let dir = tempfile::tempdir().unwrap();
        let (old_path, new_path) = (dir.path().join("old.json"), dir.path().join("new.json"));
        std::fs::write(&old_path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
        std::fs::write(&new_path, serde_json::to_string(&new).unwrap()).unwrap();
        let d = diff(&old_path, &new_path, &options()).unwrap();
        prop_assert!(d.problems.is_empty(), "{:?}", d.problems);
        let (before, after) = (findings(&old), findings(&new));
        let expected: BTreeSet<Key> = after.difference(&before).cloned().collect();
        let reported: Vec<Key> = refs(&d)
            .iter()
            .map(|r| {
                let owner = match (&r.record, r.code) {
                    (Some(uuid), code) if code != "duplicate_printing" => uuid.clone(),
                    _ => r.set.clone(),
                };
                (r.code.to_owned(), owner, r.field.clone(), r.value.clone())
            })
            .collect();
        let unique: BTreeSet<Key> = reported.iter().cloned().collect();
        prop_assert_eq!(unique.len(), reported.len(), "a finding reported twice");
        prop_assert_eq!(&unique, &expected);
        prop_assert_eq!(d.summary.references_broken, Some(expected.len()));
        prop_assert_eq!(d.summary.references_fixed, Some(before.difference(&after).count()));
    }
}
