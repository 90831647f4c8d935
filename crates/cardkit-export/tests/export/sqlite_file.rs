//! A new SQLite database is built under a temporary name with SQLite's
//! bulk settings (no journal, no syncs, indexes made last) and renamed into
//! place; an existing one is written in a WAL transaction. SQLite's own
//! integrity check finds every new database whole, and a new database
//! holds, row for row and rowid for rowid, what an existing empty one is
//! given from the same input.

use crate::support;

use std::path::{Path, PathBuf};

use cardkit_export::{OnInvalid, Target};
use rusqlite::Connection;

/// Exports `inputs` into a new database and, through the library, into an
/// existing empty one; both paths.
fn both_ways(dir: &Path, inputs: &[PathBuf], on_invalid: OnInvalid) -> (PathBuf, PathBuf) {
    let fresh = dir.join("fresh.db");
    let library = dir.join("library.db");
    std::fs::write(&library, b"").expect("an empty file");
    for path in [&fresh, &library] {
        support::export(&Target::Sqlite(path.clone()), inputs, on_invalid, Some("b"));
    }
    (fresh, library)
}

fn integrity(path: &Path) -> String {
    let db = Connection::open(path).expect("the database");
    let found: Vec<String> = db
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    found.join("\n")
}

/// Asserts that the two databases have the same schema, and the same rows
/// with the same rowids in every table; the rows compared.
fn assert_same(fresh: &Path, library: &Path) -> usize {
    let db = Connection::open(fresh).expect("the database");
    db.execute("ATTACH ?1 AS library", [library.to_str().unwrap()])
        .unwrap();
    let schema = |prefix: &str| -> Vec<(String, String, String)> {
        db.prepare(&format!(
            "SELECT type, name, sql FROM {prefix}sqlite_schema ORDER BY name"
        ))
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    };
    let tables = schema("main.");
    assert_eq!(tables, schema("library."));
    let mut rows = 0;
    for (kind, name, _) in &tables {
        if kind != "table" {
            continue;
        }
        let differ = |a: &str, b: &str| -> i64 {
            db.query_row(
                &format!(
                    "SELECT COUNT(*) FROM (SELECT rowid, * FROM {a}.\"{name}\" EXCEPT SELECT rowid, * FROM {b}.\"{name}\")"
                ),
                [],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(
            (differ("main", "library"), differ("library", "main")),
            (0, 0),
            "table {name}"
        );
        let count: i64 = db
            .query_row(&format!("SELECT COUNT(*) FROM \"{name}\""), [], |r| {
                r.get(0)
            })
            .unwrap();
        rows += count as usize;
    }
    rows
}

#[test]
fn corpus_and_catalog_written_directly_equal_what_the_library_writes() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut inputs = support::corpus_sets(&shared);
    inputs.push(support::generated_catalog(&shared, dir.path(), 3));
    // Invalid values kept as NULL: NULL keys in the indexes too.
    let (fresh, library) = both_ways(dir.path(), &inputs, OnInvalid::Keep);
    assert_eq!(integrity(&fresh), "ok");
    assert!(assert_same(&fresh, &library) > 10_000);
    let db = Connection::open(&fresh).unwrap();
    let mode: String = db
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let plan: String = db
        .query_row(
            "EXPLAIN QUERY PLAN SELECT * FROM cards WHERE uuid = 'x'",
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.contains("USING INDEX cards_uuid"), "{plan}");
}

/// A set of `count` cards whose names take `name_len` bytes and whose text
/// takes `text_len`.
fn set_of_large_cards(path: &Path, count: usize, name_len: usize, text_len: usize) {
    let cards: Vec<String> = (0..count)
        .map(|i| {
            // Names differ early and late, and repeat, so that the index
            // sorts on whole keys and ties on rowid.
            let name = format!("{:04}{}é{:06}", (i * 7919) % 1000, "n".repeat(name_len), i % 97);
            format!(
                r#"{{"artist": "A", "availability": ["paper"], "borderColor": "black", "colorIdentity": [], "colors": [],
  "convertedManaCost": 1, "finishes": ["nonfoil"], "foreignData": [], "frameVersion": "2015", "hasFoil": false,
  "hasNonFoil": true, "identifiers": {{}}, "language": "English", "layout": "normal", "legalities": {{}},
  "manaValue": 1, "name": "{name}", "number": "{i}", "purchaseUrls": {{}}, "rarity": "common", "setCode": "BIG",
  "subtypes": [], "supertypes": [], "text": "{text}", "type": "Artifact", "types": ["Artifact"],
  "uuid": "00000000-0000-4000-8000-{i:012}"}}"#,
                text = "t".repeat(text_len),
            )
        })
        .collect();
    let set = format!(
        r#"{{"baseSetSize": 1, "cards": [{}], "code": "BIG", "iconCode": "x", "isFoilOnly": false,
  "isOnlineOnly": false, "languages": ["English"], "name": "Big", "releaseDate": "2024-05-17",
  "sealedProduct": null, "tokens": [], "totalSetSize": 1, "translations": {{}}, "type": "expansion"}}"#,
        cards.join(",")
    );
    std::fs::write(path, set).unwrap();
}

#[test]
fn values_past_a_page_and_indexes_of_several_levels() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("big.json");
    // Names longer than an index cell keeps on its page (16,422 bytes):
    // three to a page, so the name index has several interior levels; a
    // text longer than a page, on a chain of overflow pages.
    set_of_large_cards(&input, 300, 20_000, 70_000);
    let (fresh, library) = both_ways(dir.path(), &[input], OnInvalid::Fail);
    assert_eq!(integrity(&fresh), "ok");
    // The set, its cards, their identifiers, legalities and purchase
    // URLs, and `meta`.
    assert_eq!(assert_same(&fresh, &library), 1 + 4 * 300 + 1);
    let db = Connection::open(&fresh).unwrap();
    let (count, text): (i64, i64) = db
        .query_row(
            "SELECT COUNT(*), SUM(length(text)) FROM cards WHERE name > '0500'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(count > 100 && count < 200, "{count}");
    assert_eq!(text, count * 70_000);
}

#[test]
fn tables_without_rows_have_empty_trees_and_indexes() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // Migrations only: every other table is empty.
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/valid/migrations.jsonl");
    let (fresh, library) = both_ways(dir.path(), &[input], OnInvalid::Fail);
    assert!(fresh.exists());
    assert_eq!(integrity(&fresh), "ok");
    let db = Connection::open(&fresh).unwrap();
    let migrations: i64 = db
        .query_row("SELECT COUNT(*) FROM migrations", [], |r| r.get(0))
        .unwrap();
    assert!(migrations > 1);
    assert_eq!(assert_same(&fresh, &library), migrations as usize + 1);
}
