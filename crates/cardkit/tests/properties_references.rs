//! The references' property: in a generated catalog whose references all
//! hold, removing one record makes exactly the references to it dangle,
//! and nothing else is found.

mod support;

use std::collections::BTreeSet;

use cardkit::references::check_slice;
use cardkit::{Code, Options, Severity};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A record's uuid, from its set and place.
fn uuid(set: usize, card: usize) -> String {
    format!("{:08x}-0000-4000-8000-{:012x}", set + 1, card + 1)
}

/// What each card names: another face in its set (both ways), a
/// variation in its set, a printing anywhere.
#[derive(Debug, Clone)]
struct Shape {
    /// Cards in each set.
    sets: Vec<usize>,
    /// Pairs of faces, by set and places.
    faces: Vec<(usize, usize, usize)>,
    /// Variations: set, card, the card it names.
    variations: Vec<(usize, usize, usize)>,
    /// Printings: (set, card) names (set, card).
    printings: Vec<((usize, usize), (usize, usize))>,
    /// The record removed.
    removed: (usize, usize),
}

fn shape() -> impl Strategy<Value = Shape> {
    prop::collection::vec(2usize..6, 1..4).prop_flat_map(|sets| {
        let n = sets.len();
        let card = {
            let sets = sets.clone();
            (0..n).prop_flat_map(move |s| (Just(s), 0..sets[s]))
        };
        let pair = {
            let sets = sets.clone();
            (0..n).prop_flat_map(move |s| (Just(s), 0..sets[s], 0..sets[s]))
        };
        (
            Just(sets),
            prop::collection::vec(pair.clone(), 0..3),
            prop::collection::vec(pair, 0..4),
            prop::collection::vec((card.clone(), card.clone()), 0..4),
            card,
        )
            .prop_map(|(sets, faces, variations, printings, removed)| Shape {
                sets,
                faces,
                variations,
                printings,
                removed,
            })
    })
}

/// A card with the members every card must have.
fn card(set: usize, index: usize) -> Value {
    json!({
        "uuid": uuid(set, index), "name": format!("Card {set} {index}"),
        "number": (index + 1).to_string(), "setCode": code(set), "language": "English",
        "layout": "normal", "type": "Creature", "types": ["Creature"], "subtypes": [],
        "supertypes": [], "colors": [], "colorIdentity": [], "availability": ["paper"],
        "finishes": ["nonfoil"], "borderColor": "black", "frameVersion": "2015",
        "hasFoil": false, "hasNonFoil": true, "convertedManaCost": 1, "manaValue": 1,
        "rarity": "common", "foreignData": [], "identifiers": {}, "legalities": {},
        "purchaseUrls": {}
    })
}

fn code(set: usize) -> String {
    format!("S{set}")
}

/// The catalog, every reference holding; each face pair shares a number.
fn catalog(shape: &Shape) -> Vec<Vec<Value>> {
    let mut sets: Vec<Vec<Value>> = shape
        .sets
        .iter()
        .enumerate()
        .map(|(s, &n)| (0..n).map(|c| card(s, c)).collect())
        .collect();
    let mut paired = BTreeSet::new();
    for &(s, a, b) in &shape.faces {
        if a == b || paired.contains(&(s, a)) || paired.contains(&(s, b)) {
            continue;
        }
        paired.extend([(s, a), (s, b)]);
        let number = sets[s][a]["number"].clone();
        for (this, other, side) in [(a, b, "a"), (b, a, "b")] {
            let card = &mut sets[s][this];
            card["otherFaceIds"] = json!([uuid(s, other)]);
            card["number"] = number.clone();
            card["side"] = json!(side);
        }
    }
    for &(s, a, b) in &shape.variations {
        if a != b {
            push(&mut sets[s][a], "variations", uuid(s, b));
        }
    }
    for &((s, a), (t, b)) in &shape.printings {
        if (s, a) != (t, b) {
            push(&mut sets[s][a], "originalPrintings", uuid(t, b));
        }
    }
    sets
}

fn push(card: &mut Value, member: &str, id: String) {
    let list = card[member].as_array().cloned().unwrap_or_default();
    if !list.contains(&json!(id)) {
        let mut list = list;
        list.push(json!(id));
        card[member] = json!(list);
    }
}

fn document(sets: &[Vec<Value>]) -> Vec<u8> {
    let data: serde_json::Map<String, Value> = sets
        .iter()
        .enumerate()
        .map(|(s, cards)| {
            let set = json!({
                "code": code(s), "name": code(s), "type": "expansion", "releaseDate": "2024-01-05",
                "baseSetSize": cards.len(), "totalSetSize": cards.len(), "isFoilOnly": false,
                "isOnlineOnly": false, "iconCode": "x", "languages": ["English"],
                "translations": {}, "cards": cards, "tokens": [], "sealedProduct": null
            });
            (code(s), set)
        })
        .collect();
    serde_json::to_vec_pretty(&json!({"meta": {"version": "5.2.1"}, "data": data})).expect("JSON")
}

/// The pointers of every finding, by code.
fn findings(input: &[u8]) -> BTreeSet<(Code, String)> {
    let outcome = check_slice(input, &Options::default(), Severity::Warning);
    assert_eq!(outcome.unchecked, 0, "a whole catalog checks everything");
    outcome
        .reports
        .iter()
        .flat_map(|(_, report, valid)| {
            assert!(valid, "{:?}", report.pointer);
            report
                .diagnostics
                .iter()
                .map(|d| (d.code, d.pointer.clone()))
        })
        .collect()
}

proptest! {
    #![proptest_config(support::properties::config(64, 1))]

    #[test]
    fn removing_a_record_makes_exactly_the_references_to_it_dangle(shape in shape()) {
        let mut sets = catalog(&shape);
        prop_assert_eq!(findings(&document(&sets)), BTreeSet::new());
        let (s, c) = shape.removed;
        let gone = uuid(s, c);
        sets[s].remove(c);
        // The references to it, where they are once it is gone.
        let mut expected = BTreeSet::new();
        for (t, cards) in sets.iter().enumerate() {
            for (index, card) in cards.iter().enumerate() {
                for member in ["otherFaceIds", "variations", "originalPrintings"] {
                    for (k, id) in card[member].as_array().into_iter().flatten().enumerate() {
                        if id == &json!(gone) {
                            expected.insert((
                                Code::DanglingReference,
                                format!("/data/{}/cards/{index}/{member}/{k}", code(t)),
                            ));
                        }
                    }
                }
            }
        }
        prop_assert_eq!(findings(&document(&sets)), expected);
    }
}

/// A card naming more missing faces than a report keeps: the first are
/// kept, the rest counted, and none is held beyond the count.
#[test]
fn findings_past_what_a_report_keeps_are_counted_not_kept() {
    let kept = cardkit::report::KEPT_WARNINGS_PER_CODE;
    let mut sets = vec![vec![card(0, 0)]];
    let faces: Vec<String> = (0..kept + 5).map(|i| uuid(9, i)).collect();
    sets[0][0]["otherFaceIds"] = json!(faces);
    let outcome = check_slice(&document(&sets), &Options::default(), Severity::Warning);
    let (_, report, _) = &outcome.reports[0];
    assert_eq!(report.diagnostics.len(), kept);
    assert_eq!(report.omitted.warnings[&Code::DanglingReference], 5);
    assert_eq!(
        report.diagnostics[kept - 1].pointer,
        format!("/data/S0/cards/0/otherFaceIds/{}", kept - 1)
    );
}

/// Kept whole ([`References::keeping_all`]), the same card's findings are
/// all given as found, each with its value, and none is only counted.
#[test]
fn a_check_keeping_all_gives_every_finding() {
    use cardkit::references::References;
    use cardkit::validate::Validator;
    let kept = cardkit::report::KEPT_WARNINGS_PER_CODE;
    let mut sets = vec![vec![card(0, 0)]];
    let faces: Vec<String> = (0..kept + 5).map(|i| uuid(9, i)).collect();
    sets[0][0]["otherFaceIds"] = json!(faces);
    let input = document(&sets);
    let read = || {
        let mut check = References::new(Severity::Warning).keeping_all();
        check
            .read(Validator::new(Options::default()), "", &input[..], |_| {})
            .expect("read");
        check
    };
    let found = read().findings();
    assert_eq!(found.findings.len(), kept + 5);
    for (i, (document, finding)) in found.findings.iter().enumerate() {
        assert_eq!(*document, 0);
        assert_eq!(finding.detail.code(), Code::DanglingReference);
        assert_eq!(finding.subject(), uuid(9, i));
        assert_eq!(
            finding.at.pointer(),
            format!("/data/S0/cards/0/otherFaceIds/{i}")
        );
    }
    let outcome = read().finish();
    let (_, report, _) = &outcome.reports[0];
    assert_eq!(report.diagnostics.len(), kept + 5);
    assert!(report.omitted.warnings.is_empty());
}

/// The findings given as found are those reported, in the same order, on
/// every case of the references' suite.
#[test]
fn the_findings_as_found_are_those_reported() {
    use cardkit::references::References;
    use cardkit::validate::Validator;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/references");
    let mut found_some = 0;
    for entry in std::fs::read_dir(&dir).expect("the cases") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let input = std::fs::read(&path).expect("the case");
        let read = || {
            let mut check = References::new(Severity::Warning);
            let _ = check.read(Validator::new(Options::default()), "", &input[..], |_| {});
            check
        };
        let reported: Vec<(Code, String)> = read()
            .finish()
            .reports
            .iter()
            .flat_map(|(_, report, _)| {
                report
                    .diagnostics
                    .iter()
                    .map(|d| (d.code, d.pointer.clone()))
            })
            .collect();
        let found: Vec<(Code, String)> = read()
            .findings()
            .findings
            .iter()
            .map(|(_, f)| (f.detail.code(), f.at.pointer()))
            .collect();
        assert_eq!(found, reported, "{}", path.display());
        found_some += usize::from(!found.is_empty());
    }
    assert!(found_some >= 6, "only {found_some} cases with findings");
}

/// The facts read from a tape of the links alone are those read from a
/// tape of every field, on every case of the references' suite.
#[test]
fn a_tape_of_the_links_alone_gives_the_facts_a_whole_tape_gives() {
    use cardkit::references::SetFacts;
    use cardkit::validate::{Validated, Validator};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/references");
    let mut compared = 0;
    for entry in std::fs::read_dir(&dir).expect("the cases") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let input = std::fs::read(&path).expect("the case");
        let facts = |links: bool| {
            let validator = Validator::new(Options::default())
                .extracting(|found| SetFacts::read(&found).map(|facts| format!("{facts:?}")));
            let validator = if links {
                validator.with_links_tape()
            } else {
                validator.with_tape()
            };
            let mut all = Vec::new();
            validator
                .reader(&input[..], |item| {
                    if let Validated::Document(_, Some(facts)) = item {
                        all.push(facts);
                    }
                })
                .expect("read");
            all
        };
        let whole = facts(false);
        assert!(whole.iter().all(Option::is_some), "{}", path.display());
        assert_eq!(facts(true), whole, "{}", path.display());
        compared += 1;
    }
    assert!(compared >= 12, "only {compared} cases");
}

/// On two threads, whose batches hold many documents (each located from
/// the nearest position the reading thread counted), every finding and
/// its second place are where one thread finds them, line and column
/// included.
#[test]
fn on_two_threads_the_findings_and_their_places_are_those_of_one_thread() {
    use cardkit::references::References;
    use cardkit::validate::Validator;
    let mut sets: Vec<Vec<Value>> = (0..1000)
        .map(|s| (0..3).map(|c| card(s, c)).collect())
        .collect();
    for (s, cards) in sets.iter_mut().enumerate().skip(1) {
        // A face that is nowhere, and an id first given in the first set.
        cards[0]["otherFaceIds"] = json!([uuid(5000, s)]);
        cards[2]["uuid"] = json!(uuid(0, 0));
    }
    let input = document(&sets);
    let outcome = |jobs: usize| {
        let mut references = References::new(Severity::Warning);
        references
            .read(
                Validator::new(Options::default()).jobs(jobs),
                "catalog.json",
                &input[..],
                |_| {},
            )
            .expect("reading memory");
        let outcome = references.finish();
        format!("{:#?}", outcome.reports)
    };
    let one = outcome(1);
    assert!(
        one.matches("DanglingReference").count() >= 999,
        "{one:.2000}"
    );
    assert!(one.matches("DuplicateId").count() >= 999, "{one:.2000}");
    assert_eq!(outcome(2), one);
}
