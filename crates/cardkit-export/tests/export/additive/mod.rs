//! Exports add to what a store holds: a set exported again replaces that
//! set, every other set is kept; a uuid stored under another set is moved;
//! `Mode::Replace` empties the build first; the run says what it replaced
//! and which members the spec does not define it left out. And the errors
//! of a target that cannot be written name it and the reason.

use crate::support;

use std::path::{Path, PathBuf};

use cardkit_export::{Exporter, Mode, OnInvalid, Target, Totals};
use rusqlite::Connection;

mod foreign;
mod parquet_builds;
mod race;
mod targets;

fn corpus_set(shared: &Path, name: &str) -> PathBuf {
    shared.join("corpus/neutral/set").join(name)
}

fn export_with(target: &Target, inputs: &[PathBuf], mode: Mode) -> Totals {
    try_export(target, inputs, None, mode).expect("the export commits")
}

/// One run exporting `inputs` into `target` as `build` (invalid documents
/// kept): its totals, or where it failed (`open: …`, `input: …`,
/// `finish: …`) as text.
fn try_export(
    target: &Target,
    inputs: &[PathBuf],
    build: Option<&str>,
    mode: Mode,
) -> Result<Totals, String> {
    let mut exporter = Exporter::open_with(target, OnInvalid::Keep, build, 2, mode, false)
        .map_err(|e| format!("open: {e}"))?;
    for input in inputs {
        let file = std::fs::File::open(input).expect("an input");
        exporter
            .input(
                &input.display().to_string(),
                file,
                &cardkit::Options::default(),
                |_| {},
                |_| {},
            )
            .map_err(|e| format!("input: {e:?}"))?;
    }
    exporter.finish().map_err(|e| format!("finish: {e}"))
}

fn per_set(db: &Path) -> Vec<(String, i64)> {
    let db = Connection::open(db).unwrap();
    let mut statement = db
        .prepare("SELECT parent_set_code, COUNT(*) FROM cards GROUP BY 1 ORDER BY 1")
        .unwrap();
    let rows = statement
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows
}

fn table_names() -> Vec<String> {
    cardkit_export::layout::layout()
        .tables
        .iter()
        .map(|t| t.name.clone())
        .collect()
}

/// The tables whose rows belong to a card, token or product by `uuid`.
fn table_names_keyed_by_uuid() -> Vec<String> {
    cardkit_export::layout::layout()
        .tables
        .iter()
        .filter(|t| {
            t.columns.iter().any(|c| {
                c.name == "uuid" && matches!(c.source, cardkit_export::layout::Source::OwnerKey)
            })
        })
        .map(|t| t.name.clone())
        .collect()
}

fn integrity(db: &Path) -> String {
    Connection::open(db)
        .unwrap()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// `export NEO` then `export L15` into the same file kept only L15.
#[test]
fn a_second_export_adds_to_the_first() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cards.db");
    let target = Target::Sqlite(db.clone());
    let neo = corpus_set(&shared, "jsonsets_NEO.json");
    let l15 = corpus_set(&shared, "jsonsets_L15.json");
    let first = export_with(&target, std::slice::from_ref(&neo), Mode::Append);
    assert_eq!(first.sets, 1);
    assert!(first.changes.replaced_sets.is_empty());
    // NEO's members the spec does not define are named, with their count.
    assert_eq!(
        first.not_exported,
        [("Legalities.alchemy".to_owned(), 553)],
        "{:?}",
        first.not_exported
    );
    let second = export_with(&target, std::slice::from_ref(&l15), Mode::Append);
    assert_eq!(second.sets, 1);
    assert!(second.changes.replaced_sets.is_empty());
    assert_eq!(per_set(&db), [("NEO".to_owned(), 553)]);
    let tokens: i64 = Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM tokens WHERE parent_set_code = 'L15'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tokens, 1);
    // L15 again replaces L15 alone, and says so.
    let before = std::fs::metadata(&db).unwrap().len();
    let third = export_with(&target, std::slice::from_ref(&l15), Mode::Append);
    assert_eq!(third.changes.replaced_sets, ["L15"]);
    assert_eq!(third.changes.removed_rows, 3);
    assert_eq!(per_set(&db), [("NEO".to_owned(), 553)]);
    let sets: i64 = Connection::open(&db)
        .unwrap()
        .query_row("SELECT COUNT(*) FROM sets", [], |r| r.get(0))
        .unwrap();
    assert_eq!(sets, 2);
    // `meta` has a row per input, not per run.
    let metas: i64 = Connection::open(&db)
        .unwrap()
        .query_row("SELECT COUNT(*) FROM meta", [], |r| r.get(0))
        .unwrap();
    assert_eq!(metas, 2);
    assert!(std::fs::metadata(&db).unwrap().len() <= before * 2);
    assert_eq!(integrity(&db), "ok");
    // --replace empties the build first.
    let replaced = export_with(&target, std::slice::from_ref(&l15), Mode::Replace);
    assert!(replaced.changes.emptied);
    assert!(per_set(&db).is_empty());
}

/// `for f in sets/*.json; do cardkit export --to cards.db "$f"; done`
/// gives what one export of the folder gives, table by table and row by
/// row; and running a set again changes nothing. The same for a Parquet
/// directory, read by DuckDB: there a set run again leaves as many files
/// as before.
#[test]
fn a_loop_over_the_set_files_equals_one_export_of_the_folder() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let files = support::corpus_sets(&shared);
    let dir = tempfile::tempdir().unwrap();
    let looped = dir.path().join("loop.db");
    let whole = dir.path().join("whole.db");
    let looped_parquet = dir.path().join("loop-parquet");
    let whole_parquet = dir.path().join("whole-parquet");
    let targets = [
        (
            Target::Sqlite(looped.clone()),
            Target::Sqlite(whole.clone()),
        ),
        (
            Target::Parquet(looped_parquet.clone()),
            Target::Parquet(whole_parquet.clone()),
        ),
    ];
    for (looped, whole) in &targets {
        for file in &files {
            export_with(looped, std::slice::from_ref(file), Mode::Append);
        }
        export_with(whole, &files, Mode::Append);
    }
    let parquet_files = parquet_files(&looped_parquet);
    for (looped, _) in &targets {
        let again = export_with(looped, std::slice::from_ref(&files[3]), Mode::Append);
        assert_eq!(again.changes.replaced_sets.len(), 1, "{looped}");
        assert!(again.changes.removed_rows > 0, "{looped}");
    }
    assert_same(&looped, &whole);
    assert_eq!(integrity(&looped), "ok");
    assert_eq!(integrity(&whole), "ok");
    // One file per table per run (where the run has rows), and a set run
    // again replaces its run's files: the same files but those, whose
    // place the next run's take.
    let mut expected: Vec<String> = parquet_files
        .iter()
        .map(|f| f.replace("run-000004.", &format!("run-{:06}.", files.len() + 1)))
        .collect();
    expected.sort();
    assert_ne!(expected, parquet_files);
    assert_eq!(self::parquet_files(&looped_parquet), expected);
    let Some(python) = support::python() else {
        return;
    };
    assert_same_parquet(&python, &looped_parquet, &whole_parquet);
}

/// The `.parquet` files under `dir`, by path relative to it.
fn parquet_files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                found.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    found.sort();
    found
}

/// Asserts the two Parquet directories hold the same rows in every table
/// but `meta` (in any order, as multisets), as DuckDB reads them.
fn assert_same_parquet(python: &Path, a: &Path, b: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/same_rows.py");
    let keyed = table_names_keyed_by_uuid();
    let tables: Vec<String> = table_names()
        .into_iter()
        .filter(|t| t != "meta")
        .map(|t| {
            if keyed.contains(&t) {
                format!("{t}:uuid")
            } else {
                t
            }
        })
        .collect();
    let output = std::process::Command::new(python)
        .arg(script)
        .arg(a)
        .arg(b)
        .args(&tables)
        .output()
        .expect("DuckDB runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: std::collections::BTreeMap<String, [u64; 4]> =
        serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(answers.len(), tables.len());
    let mut some = 0;
    for (table, [rows_a, rows_b, a_not_b, b_not_a]) in answers {
        assert_eq!(rows_a, rows_b, "{table}: rows");
        assert_eq!((a_not_b, b_not_a), (0, 0), "{table}: rows held by one only");
        some += rows_a;
    }
    assert!(some > 10_000, "{some} rows");
}

/// Asserts the two databases hold the same rows in every table but `meta`
/// (in any order).
fn assert_same(a: &Path, b: &Path) {
    let db = Connection::open(a).unwrap();
    db.execute("ATTACH ?1 AS other", [b.to_str().unwrap()])
        .unwrap();
    for table in table_names() {
        if table == "meta" {
            continue;
        }
        // Rows keyed by no uuid (their card had none) cannot be replaced:
        // another run adds them again.
        let keyed = if table_names_keyed_by_uuid().contains(&table) {
            " WHERE uuid IS NOT NULL"
        } else {
            ""
        };
        let count = |schema: &str| -> i64 {
            db.query_row(
                &format!("SELECT COUNT(*) FROM {schema}.{table}{keyed}"),
                [],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(count("main"), count("other"), "{table}");
        for (x, y) in [("main", "other"), ("other", "main")] {
            let differ: i64 = db
                .query_row(
                    &format!(
                        "SELECT COUNT(*) FROM (SELECT * FROM {x}.{table}{keyed} EXCEPT SELECT * FROM {y}.{table}{keyed})"
                    ),
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(differ, 0, "{table}: rows of {x} not in {y}");
        }
    }
}

/// A set of one card of `uuid`.
fn one_card_set(dir: &Path, code: &str, uuid: &str) -> PathBuf {
    let text = format!(
        r#"{{"baseSetSize": 1, "cards": [{{"artist": "A", "availability": ["paper"], "borderColor": "black",
  "colorIdentity": [], "colors": [], "convertedManaCost": 1, "finishes": ["nonfoil"], "foreignData": [],
  "frameVersion": "2015", "hasFoil": false, "hasNonFoil": true, "identifiers": {{}}, "language": "English",
  "layout": "normal", "legalities": {{"vintage": "Legal"}}, "manaValue": 1, "name": "Card {code}", "number": "1",
  "purchaseUrls": {{}}, "rarity": "common", "setCode": "{code}", "subtypes": [], "supertypes": [],
  "type": "Artifact", "types": ["Artifact"], "uuid": "{uuid}", "prices": {{"paper": 1}}}}],
  "code": "{code}", "iconCode": "x", "isFoilOnly": false, "isOnlineOnly": false, "languages": ["English"],
  "name": "Set {code}", "releaseDate": "2024-05-17", "sealedProduct": null, "tokens": [], "totalSetSize": 1,
  "translations": {{}}, "type": "expansion"}}"#
    );
    let path = dir.join(format!("{code}.json"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Cards per set in a Parquet export, as [`per_set`] counts them.
fn parquet_per_set(dir: &Path) -> Vec<(String, i64)> {
    let mut counts = std::collections::BTreeMap::new();
    for code in parquet_column(dir, "cards", "parent_set_code") {
        *counts.entry(code.unwrap_or_default()).or_insert(0) += 1;
    }
    counts.into_iter().collect()
}

/// A uuid already stored under another set (by an earlier run, or earlier
/// in the run) is moved: one row per uuid, and the run says so; in SQLite
/// and in Parquet alike.
#[test]
fn a_uuid_in_two_sets_is_kept_once_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let uuid = "00000000-0000-4000-8000-000000000001";
    let a = one_card_set(dir.path(), "AAA", uuid);
    let b = one_card_set(dir.path(), "BBB", uuid);
    for (name, runs) in [
        ("two-runs", vec![vec![a.clone()], vec![b.clone()]]),
        ("one-run", vec![vec![a.clone(), b.clone()]]),
    ] {
        let db = dir.path().join(format!("{name}.db"));
        let pq = dir.path().join(format!("{name}-parquet"));
        for target in [Target::Sqlite(db.clone()), Target::Parquet(pq.clone())] {
            let mut last = Totals::default();
            for inputs in &runs {
                last = export_with(&target, inputs, Mode::Append);
            }
            assert_eq!(last.changes.moved, 1, "{name} {target}");
            assert!(
                last.changes.moved_notes[0].contains("was stored in set AAA; set BBB has it too"),
                "{:?}",
                last.changes.moved_notes
            );
            // The card's prices, which the spec does not define, are counted.
            assert!(
                last.not_exported.iter().any(|(n, _)| n == "CardSet.prices"),
                "{:?}",
                last.not_exported
            );
        }
        assert_eq!(per_set(&db), [("BBB".to_owned(), 1)], "{name}");
        assert_eq!(parquet_per_set(&pq), [("BBB".to_owned(), 1)], "{name}");
        let legalities: i64 = Connection::open(&db)
            .unwrap()
            .query_row("SELECT COUNT(*) FROM legalities", [], |r| r.get(0))
            .unwrap();
        assert_eq!(legalities, 1, "{name}");
        assert_eq!(
            parquet_column(&pq, "legalities", "uuid"),
            [Some(uuid.to_owned())],
            "{name}"
        );
    }
}

/// PostgreSQL follows the same rule: runs add, a set exported again
/// replaces that set, a uuid of another set is moved, `Mode::Replace`
/// empties the build.
#[test]
fn postgresql_exports_add_to_what_is_there() {
    let server = support::postgres::Server::start();
    let target = Target::Postgres(server.url.clone());
    let dir = tempfile::tempdir().unwrap();
    let uuid = "00000000-0000-4000-8000-000000000001";
    let a = one_card_set(dir.path(), "AAA", uuid);
    let b = one_card_set(dir.path(), "BBB", uuid);
    let c = one_card_set(dir.path(), "CCC", "00000000-0000-4000-8000-000000000003");
    let cards = |client: &mut postgres::Client| -> Vec<(String, i64)> {
        client
            .query(
                "SELECT parent_set_code, COUNT(*) FROM cards GROUP BY 1 ORDER BY 1",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    };
    export_with(&target, std::slice::from_ref(&a), Mode::Append);
    export_with(&target, std::slice::from_ref(&c), Mode::Append);
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    assert_eq!(
        cards(&mut client),
        [("AAA".to_owned(), 1), ("CCC".to_owned(), 1)]
    );
    let again = export_with(&target, std::slice::from_ref(&c), Mode::Append);
    assert_eq!(again.changes.replaced_sets, ["CCC"]);
    assert_eq!(again.changes.removed_rows, 5);
    let moved = export_with(&target, std::slice::from_ref(&b), Mode::Append);
    assert_eq!(moved.changes.moved, 1);
    assert_eq!(
        cards(&mut client),
        [("BBB".to_owned(), 1), ("CCC".to_owned(), 1)]
    );
    let legalities: i64 = client
        .query_one("SELECT COUNT(*) FROM legalities", &[])
        .unwrap()
        .get(0);
    assert_eq!(legalities, 2);
    let replaced = export_with(&target, std::slice::from_ref(&a), Mode::Replace);
    assert!(replaced.changes.emptied);
    assert_eq!(cards(&mut client), [("AAA".to_owned(), 1)]);
    let comment: Option<String> = client
        .query_one("SELECT obj_description('cards'::regclass, 'pg_class')", &[])
        .unwrap()
        .get(0);
    assert_eq!(
        comment,
        Some(format!(
            "cardkit export, layout version {}",
            cardkit_export::layout::LAYOUT_VERSION
        ))
    );
}

/// The whole folder exported again into the same database (many rows: the
/// indexes are dropped during the run and the sets it replaces removed at
/// the commit) holds what one export holds, indexed and whole.
#[test]
fn a_folder_exported_again_replaces_every_set_once() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    // A set without a code (kept invalid) has no key: it is added again
    // by every run (with a warning), so its file is left out here.
    let files: Vec<PathBuf> = support::corpus_sets(&shared)
        .into_iter()
        .filter(|f| support::sets_of(f).iter().all(|s| s["code"].is_string()))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let twice = dir.path().join("twice.db");
    let once = dir.path().join("once.db");
    export_with(&Target::Sqlite(twice.clone()), &files, Mode::Append);
    let again = export_with(&Target::Sqlite(twice.clone()), &files, Mode::Append);
    assert_eq!(again.changes.replaced_sets.len(), again.sets);
    assert!(again.changes.removed_rows > 50_000, "{:?}", again.changes);
    export_with(&Target::Sqlite(once.clone()), &files, Mode::Append);
    assert_same(&twice, &once);
    assert_eq!(integrity(&twice), "ok");
    let indexes = |db: &Path| -> i64 {
        Connection::open(db)
            .unwrap()
            .query_row(
                "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'index'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(indexes(&twice), indexes(&once));
    assert!(indexes(&twice) > 20);
}

/// A run killed before its commit leaves its hidden temporary file (as
/// large as the database): the next run into the same path removes it and
/// says so, and leaves alone one that a run is still writing.
#[test]
fn a_killed_runs_temporary_is_removed_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let a = one_card_set(dir.path(), "AAA", "00000000-0000-4000-8000-000000000001");
    let db = dir.path().join("cards.db");
    // What a killed run leaves: a hidden, partly written database.
    let stale = dir.path().join(".cards.db.AbC123.incomplete");
    Connection::open(&stale)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    // One a run is writing: it holds SQLite's lock.
    let live = dir.path().join(".cards.db.XyZ789.incomplete");
    let writer = Connection::open(&live).unwrap();
    writer
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN; CREATE TABLE t (x);")
        .unwrap();
    // Another file of a similar name is not the export's.
    let other = dir.path().join(".cards.db.notes.incomplete");
    std::fs::write(&other, "mine").unwrap();
    let totals = export_with(&Target::Sqlite(db.clone()), &[a], Mode::Append);
    assert_eq!(
        totals.changes.stale_removed.len(),
        1,
        "{:?}",
        totals.changes
    );
    assert_eq!(
        totals.changes.stale_removed[0].0,
        ".cards.db.AbC123.incomplete"
    );
    assert!(!stale.exists());
    assert!(live.exists());
    assert!(other.exists());
    assert!(db.exists());
    drop(writer);
}

/// A valid card whose name is 3,000 characters long is stored by
/// PostgreSQL too (a B-tree index refused it and failed the whole run).
#[test]
fn postgresql_stores_a_name_longer_than_an_index_entry() {
    let server = support::postgres::Server::start();
    let target = Target::Postgres(server.url.clone());
    let dir = tempfile::tempdir().unwrap();
    let path = one_card_set(dir.path(), "LNG", "00000000-0000-4000-8000-000000000009");
    // Letters that do not compress (PostgreSQL compresses a long index
    // entry before it checks its size).
    let mut seed: u32 = 7;
    let long: String = (0..3000)
        .map(|_| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            char::from(b'a' + u8::try_from((seed >> 16) % 26).unwrap())
        })
        .collect();
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"name\": \"Card LNG\"", &format!("\"name\": \"{long}\""));
    assert!(text.contains(&long));
    std::fs::write(&path, text).unwrap();
    let totals = export_with(&target, std::slice::from_ref(&path), Mode::Replace);
    assert_eq!(totals.exported, 1);
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    let length: i32 = client
        .query_one("SELECT length(name) FROM cards WHERE name = $1", &[&long])
        .unwrap()
        .get(0);
    assert_eq!(length, 3000);
}

/// The values of `column` in every row of `table` of the Parquet export
/// in `dir` (its visible files: those readers see), as text.
fn parquet_column(dir: &Path, table: &str, column: &str) -> Vec<Option<String>> {
    use arrow_array::{Array, StringArray};
    let mut values = Vec::new();
    for file in parquet_files(&dir.join(table)) {
        let file = std::fs::File::open(dir.join(table).join(file)).unwrap();
        let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        for batch in reader {
            let batch = batch.unwrap();
            let strings = batch
                .column_by_name(column)
                .unwrap()
                .as_any()
                .downcast_ref::<StringArray>()
                .unwrap()
                .clone();
            for row in 0..strings.len() {
                values.push(strings.is_valid(row).then(|| strings.value(row).to_owned()));
            }
        }
    }
    values
}
