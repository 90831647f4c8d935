//! SQLite round trips: the corpus's sets and a generated catalog give one row
//! per document, card, token, nested object and list item, with the JSON's
//! values; invalid documents are handled as `--on-invalid` says; builds sit
//! side by side and a build exported again replaces itself.

use crate::support;

use std::path::{Path, PathBuf};

use cardkit_export::{Exporter, OnInvalid, Target};
use rusqlite::Connection;
use serde_json::Value;

fn integrity(db: &Connection) -> String {
    db.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("the check")
}

fn count(db: &Connection, table: &str, build: Option<&str>) -> usize {
    db.query_row(
        &format!("SELECT COUNT(*) FROM \"{table}\" WHERE build IS ?1"),
        [build],
        |row| row.get::<_, i64>(0),
    )
    .map_or(0, |n| usize::try_from(n).unwrap_or(0))
}

fn counts(db: &Connection, build: Option<&str>) -> std::collections::BTreeMap<String, usize> {
    cardkit_export::layout::layout()
        .tables
        .iter()
        .filter(|t| t.name != "meta")
        .map(|t| (t.name.clone(), count(db, &t.name, build)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// The JSON value a cell of SQLite stands for, in a column of the type the
/// layout gives it: lists are JSON text, booleans 0 and 1.
fn as_json(db: &Connection, sql: &str, uuid: &str) -> Vec<Value> {
    let mut statement = db.prepare(sql).expect("a query");
    let columns = statement.column_count();
    statement
        .query_row([uuid], |row| {
            Ok((0..columns)
                .map(|i| match row.get_ref(i).expect("a cell") {
                    rusqlite::types::ValueRef::Null => Value::Null,
                    rusqlite::types::ValueRef::Integer(n) => Value::from(n),
                    rusqlite::types::ValueRef::Real(x) => Value::from(x),
                    rusqlite::types::ValueRef::Text(t) => {
                        let text = String::from_utf8_lossy(t).into_owned();
                        if text.starts_with('[') {
                            serde_json::from_str(&text).unwrap_or(Value::String(text))
                        } else {
                            Value::String(text)
                        }
                    }
                    rusqlite::types::ValueRef::Blob(_) => Value::Null,
                })
                .collect())
        })
        .expect("the card's row")
}

/// Every card's uuid, name, colors, mana value, number, legality in
/// commander and identifier at marketplace C is the JSON's.
fn check_values(db: &Connection, sets: &[Value]) -> usize {
    let sql =
        "SELECT c.name, c.colors, c.mana_value, c.number, c.is_reprint, l.commander, i.shop_c_id \
               FROM cards c LEFT JOIN legalities l ON l.uuid = c.uuid \
               LEFT JOIN identifiers i ON i.uuid = c.uuid WHERE c.uuid = ?1";
    let mut checked = 0;
    for card in sets
        .iter()
        .flat_map(|s| s["cards"].as_array().into_iter().flatten())
    {
        let uuid = card["uuid"].as_str().expect("a uuid");
        let row = as_json(db, sql, uuid);
        let or_null = |v: &Value| if v.is_null() { Value::Null } else { v.clone() };
        let expected = [
            card["name"].clone(),
            card["colors"].clone(),
            card["manaValue"].clone(),
            card["number"].clone(),
            card.get("isReprint")
                .map_or(Value::Null, |b| Value::from(i64::from(b == true))),
            or_null(&card["legalities"]["commander"]),
            or_null(&card["identifiers"]["shopCId"]),
        ];
        for (i, (cell, json)) in row.iter().zip(&expected).enumerate() {
            let same = match (cell, json) {
                (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
                (a, b) => a == b,
            };
            assert!(
                same,
                "card {uuid}, column {i}: {cell} in SQLite, {json} in JSON"
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn a_generated_catalog_round_trips() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let catalog = support::generated_catalog(&shared, dir.path(), 3);
    let db_path = dir.path().join("catalog.db");
    let target = Target::Sqlite(db_path.clone());
    let (totals, notes) = support::export(
        &target,
        std::slice::from_ref(&catalog),
        OnInvalid::Fail,
        None,
    );
    assert_eq!(
        notes,
        Vec::<String>::new(),
        "the generated catalog is valid"
    );
    let sets = support::sets_of(&catalog);
    let expected = support::expected_rows(&sets);
    assert_eq!(support::written(&totals), expected);
    let db = Connection::open(&db_path).expect("the database");
    assert_eq!(counts(&db, None), expected);
    assert!(check_values(&db, &sets) > 1000);
    // The catalog's meta, and the layout's version.
    let (meta, version): (String, i64) = db
        .query_row("SELECT meta, layout_version FROM meta", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("the meta row");
    assert_eq!(
        serde_json::from_str::<Value>(&meta).unwrap()["date"],
        "2024-01-01"
    );
    assert_eq!(version, cardkit_export::layout::LAYOUT_VERSION);
}

#[test]
fn every_corpus_set_round_trips_with_invalid_values_as_null() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let files = support::corpus_sets(&shared);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db_path = dir.path().join("corpus.db");
    let (totals, notes) = support::export(
        &Target::Sqlite(db_path.clone()),
        &files,
        OnInvalid::Keep,
        Some("corpus"),
    );
    let sets: Vec<Value> = files.iter().flat_map(|f| support::sets_of(f)).collect();
    assert_eq!(totals.exported, sets.len());
    assert!(totals.kept_invalid > 40, "{} kept", totals.kept_invalid);
    assert!(notes
        .iter()
        .any(|n| n.ends_with("kept with its invalid or missing values as NULL")));
    // BRO and LEA are in two files each: the later of each is kept, and
    // both places are named.
    let mut kept: Vec<Value> = Vec::new();
    for set in &sets {
        kept.retain(|k| k["code"] != set["code"]);
        kept.push(set.clone());
    }
    assert_eq!(sets.len() - kept.len(), 2);
    assert_eq!(totals.duplicates.len(), 2, "{:?}", totals.duplicates);
    for (code, first, second) in [
        (
            "BRO",
            "cardmaster_BRO.json /data",
            "mightstone_set_BRO.json /",
        ),
        (
            "LEA",
            "jsonsets_LEA.json /data",
            "mtgssm_AllSets-v3_testdata.json /LEA",
        ),
    ] {
        let line = totals
            .duplicates
            .iter()
            .find(|d| d.starts_with(&format!("set {code} read twice: at ")))
            .unwrap_or_else(|| panic!("{code} is reported: {:?}", totals.duplicates));
        assert!(line.contains(first) && line.contains(second), "{line}");
        assert!(notes.iter().any(|n| n == &format!("warning: {line}")));
    }
    assert_eq!(totals.sets, kept.len());
    let db = Connection::open(&db_path).expect("the database");
    assert_eq!(counts(&db, Some("corpus")), support::expected_rows(&kept));
    // One row per uuid (cards without one, kept invalid, are NULL); the
    // tokens of an art series repeat a uuid within their set, never across
    // sets.
    for table in ["cards", "sealed_products"] {
        let (all, distinct): (i64, i64) = db
            .query_row(
                &format!("SELECT COUNT(uuid), COUNT(DISTINCT uuid) FROM {table}"),
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(all, distinct, "{table}");
    }
    let across: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM (SELECT uuid FROM tokens GROUP BY uuid HAVING COUNT(DISTINCT parent_set_code) > 1)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(across, 0);
    assert_eq!(integrity(&db), "ok");
    // A set whose `cards` hold no invalid value keeps them all; values the
    // validator found invalid are NULL, never another value.
    let bad_dates: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM sets WHERE release_date IS NOT NULL AND date(release_date) IS NULL",
            [],
            |r| r.get(0),
        )
        .expect("a count");
    assert_eq!(bad_dates, 0);
}

/// A set with one invalid card (a `manaValue` that is text), and a valid one.
fn two_sets(dir: &Path) -> (PathBuf, PathBuf) {
    let set = |code: &str, mana: &str| {
        format!(
            r#"{{"baseSetSize": 1, "cards": [{{"artist": "A", "availability": ["paper"], "borderColor": "black",
  "colorIdentity": [], "colors": [], "convertedManaCost": 1, "finishes": ["nonfoil"], "foreignData": [],
  "frameVersion": "2015", "hasFoil": false, "hasNonFoil": true, "identifiers": {{}}, "language": "English",
  "layout": "normal", "legalities": {{}}, "manaValue": {mana}, "name": "Card {code}", "number": "1",
  "purchaseUrls": {{}}, "rarity": "common", "setCode": "{code}", "subtypes": [], "supertypes": [],
  "type": "Artifact", "types": ["Artifact"], "uuid": "00000000-0000-4000-8000-00000000000{n}"}}],
  "code": "{code}", "iconCode": "x", "isFoilOnly": false, "isOnlineOnly": false, "languages": ["English"],
  "name": "Set {code}", "releaseDate": "2024-05-17", "sealedProduct": null, "tokens": [], "totalSetSize": 1,
  "translations": {{"French": "Ensemble"}}, "type": "expansion"}}"#,
            n = code.len()
        )
    };
    let valid = dir.join("valid.json");
    let invalid = dir.join("invalid.json");
    std::fs::write(&valid, set("OK", "1")).unwrap();
    std::fs::write(&invalid, set("BAD", "\"one\"")).unwrap();
    (valid, invalid)
}

#[test]
fn invalid_documents_fail_the_run_are_skipped_or_are_kept_with_nulls() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (valid, invalid) = two_sets(dir.path());
    let inputs = [valid, invalid];

    // fail: nothing is committed, and a database the run made is removed.
    let failed = dir.path().join("failed.db");
    let (totals, notes) = support::export(
        &Target::Sqlite(failed.clone()),
        &inputs,
        OnInvalid::Fail,
        None,
    );
    assert!(totals.failed);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("invalid.json /: not exported")),
        "{notes:?}"
    );
    assert!(!failed.exists(), "no empty database is left behind");

    // skip: the valid set only.
    let skipped = dir.path().join("skipped.db");
    let (totals, _) = support::export(
        &Target::Sqlite(skipped.clone()),
        &inputs,
        OnInvalid::Skip,
        None,
    );
    assert_eq!(
        (totals.exported, totals.left_out, totals.failed),
        (1, 1, false)
    );
    let db = Connection::open(&skipped).unwrap();
    let codes: Vec<String> = db
        .prepare("SELECT code FROM sets")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(codes, ["OK"]);

    // keep: both, the invalid value NULL and every other value kept.
    let kept = dir.path().join("kept.db");
    let (totals, _) = support::export(
        &Target::Sqlite(kept.clone()),
        &inputs,
        OnInvalid::Keep,
        None,
    );
    assert_eq!((totals.exported, totals.kept_invalid), (2, 1));
    let db = Connection::open(&kept).unwrap();
    let rows: Vec<(String, Option<f64>, String)> = db
        .prepare("SELECT parent_set_code, mana_value, name FROM cards ORDER BY parent_set_code")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        [
            ("BAD".to_owned(), None, "Card BAD".to_owned()),
            ("OK".to_owned(), Some(1.0), "Card OK".to_owned())
        ]
    );
}

#[test]
fn builds_sit_side_by_side_and_a_build_exported_again_replaces_itself() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (valid, _) = two_sets(dir.path());
    let db_path = dir.path().join("builds.db");
    let target = Target::Sqlite(db_path.clone());
    for build in ["2024-01", "2024-02", "2024-02", "2024-02"] {
        support::export(
            &target,
            std::slice::from_ref(&valid),
            OnInvalid::Fail,
            Some(build),
        );
    }
    support::export(&target, std::slice::from_ref(&valid), OnInvalid::Fail, None);
    let db = Connection::open(&db_path).unwrap();
    let per_build: Vec<(Option<String>, i64)> = db
        .prepare("SELECT build, COUNT(*) FROM cards GROUP BY build ORDER BY build")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        per_build,
        [
            (None, 1),
            (Some("2024-01".into()), 1),
            (Some("2024-02".into()), 1)
        ]
    );
    assert_eq!(count(&db, "meta", Some("2024-02")), 1);
}

/// A database that holds one build only, exported again (the path on which
/// its tables are emptied whole rather than row by row), holds the build
/// once, with the same rows each time, and indexed.
#[test]
fn the_only_build_exported_again_replaces_itself_whole() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (valid, _) = two_sets(dir.path());
    let db_path = dir.path().join("one.db");
    let target = Target::Sqlite(db_path.clone());
    let mut written = Vec::new();
    for _ in 0..3 {
        let (totals, _) = support::export(
            &target,
            std::slice::from_ref(&valid),
            OnInvalid::Fail,
            Some("b"),
        );
        written.push(support::written(&totals));
    }
    assert!(written.windows(2).all(|w| w[0] == w[1]));
    let db = Connection::open(&db_path).unwrap();
    assert_eq!(counts(&db, Some("b")), written[0]);
    assert_eq!(count(&db, "meta", Some("b")), 1);
    let indexes: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let expected_indexes: usize = cardkit_export::layout::layout()
        .tables
        .iter()
        .map(|t| t.indexed.len())
        .sum();
    assert_eq!(usize::try_from(indexes).unwrap(), expected_indexes);
}

#[test]
fn a_database_of_another_layout_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db_path = dir.path().join("other.db");
    let db = Connection::open(&db_path).unwrap();
    db.execute_batch(
        "CREATE TABLE cards (build TEXT, uuid INTEGER); INSERT INTO cards VALUES ('x', 1);",
    )
    .unwrap();
    drop(db);
    let error = Exporter::open(&Target::Sqlite(db_path.clone()), OnInvalid::Fail, None, 1)
        .err()
        .expect("refused");
    assert!(
        error.to_string().contains(&format!(
            "table `cards` exists with other columns than layout version {}",
            cardkit_export::layout::LAYOUT_VERSION
        )),
        "{error}"
    );
    let db = Connection::open(&db_path).unwrap();
    assert_eq!(count(&db, "cards", Some("x")), 1);
}
