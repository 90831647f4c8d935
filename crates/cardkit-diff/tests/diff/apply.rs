//! `migrate apply`: chains, cycles, conflicting merges, merge then delete,
//! each `--on-delete` mode, idempotence, dry runs, CSV with quoted fields
//! and CRLF, JSON with ids at several depths, JSON Lines, the real
//! migration files of the corpus, and the tables of a store made by
//! `cardkit export` (SQLite always, PostgreSQL with a throwaway server).

use crate::support;

#[path = "../../../cardkit-export/tests/support/postgres.rs"]
mod postgres_server;

use std::path::{Path, PathBuf};

use cardkit::schema::Names;
use cardkit_diff::apply::{
    apply_files, csv, read_notices, store, Action, ApplyOptions, Notice, OnDelete, Output, Plan,
    References, Report,
};
use cardkit_diff::pointer::Pattern;
use cardkit_export::{Exporter, OnInvalid, Target};
use proptest::prelude::*;

const A: &str = "aaaaaaaa-0000-4000-8000-000000000001";
const B: &str = "bbbbbbbb-0000-4000-8000-000000000002";
const C: &str = "cccccccc-0000-4000-8000-000000000003";
const D: &str = "dddddddd-0000-4000-8000-000000000004";
const E: &str = "eeeeeeee-0000-4000-8000-000000000005";

/// The id of notice `n7`.
fn nid(label: &str) -> String {
    format!("11111111-0000-4000-8000-{:0>12}", &label[1..])
}

fn notice(label: &str, old: &str, new: Option<&str>, date: &str) -> String {
    let id = nid(label);
    let (strategy, new) = match new {
        Some(new) => ("merge", format!("\"{new}\"")),
        None => ("delete", "null".to_owned()),
    };
    format!(
        r#"{{"object": "migration", "id": "{id}", "uri": "urn:x:{id}", "created_at": "{date}", "migration_strategy": "{strategy}", "old_catalogA_id": "{old}", "new_catalogA_id": {new}}}"#
    )
}

fn plan(lines: &[String]) -> Result<Plan, cardkit_diff::Error> {
    let text = lines.join("\n");
    Plan::new(read_notices(
        "notices.jsonl",
        text.as_bytes(),
        true,
        1,
        Names::Spec,
    )?)
}

fn options(on_delete: OnDelete) -> ApplyOptions {
    ApplyOptions {
        on_delete,
        dry_run: false,
    }
}

/// `csv` rewritten with `plan` (column `id`), and the report.
fn csv_with(
    plan: &Plan,
    input: &str,
    on_delete: OnDelete,
) -> Result<(String, Report), cardkit_diff::Error> {
    let mut out = Vec::new();
    let mut report = Report::default();
    csv::rewrite(
        input.as_bytes(),
        "in.csv",
        "id",
        plan,
        options(on_delete),
        Some(&mut out),
        &mut report,
    )?;
    Ok((String::from_utf8(out).unwrap(), report))
}

#[test]
fn chains_are_followed_in_date_order_and_a_merge_then_a_delete_deletes() {
    // Given out of order: B -> C is dated before A -> B.
    let p = plan(&[
        notice("n2", A, Some(B), "2024-02-01"),
        notice("n1", B, Some(C), "2024-01-01"),
        notice("n3", D, Some(E), "2024-01-01"),
        notice("n4", E, None, "2024-03-01"),
    ])
    .unwrap();
    let (out, report) = csv_with(&p, &format!("id\n{A}\n{B}\n{D}\n"), OnDelete::Keep).unwrap();
    assert_eq!(out, format!("id\n{C}\n{C}\n{D}\n"));
    assert_eq!(
        report.changes[0].notices,
        format!("{} > {}", nid("n2"), nid("n1"))
    );
    assert_eq!(report.changes[2].action, Action::Kept);
    assert_eq!(
        report.changes[2].notices,
        format!("{} > {}", nid("n3"), nid("n4"))
    );
}

#[test]
fn cycles_and_conflicting_merges_are_errors_that_name_the_notices() {
    let cycle = plan(&[
        notice("n1", A, Some(B), "2024-01-01"),
        notice("n2", B, Some(A), "2024-01-02"),
    ]);
    let why = cycle.unwrap_err().0;
    assert!(
        why.contains("cycle") && why.contains(&nid("n1")) && why.contains(&nid("n2")),
        "{why}"
    );
    let conflict = plan(&[
        notice("n1", A, Some(B), "2024-01-01"),
        notice("n2", A, Some(C), "2024-01-02"),
    ]);
    let why = conflict.unwrap_err().0;
    assert!(
        why.contains(&format!("{} says merged into", nid("n1")))
            && why.contains(&format!("{} says merged into", nid("n2"))),
        "{why}"
    );
    let both = plan(&[
        notice("n1", A, Some(B), "2024-01-01"),
        notice("n2", A, None, "2024-01-02"),
    ]);
    assert!(both
        .unwrap_err()
        .0
        .contains(&format!("{} says deleted", nid("n2"))));
    let invalid = plan(&[r#"{"object": "migration", "uri": ""}"#.to_owned()]);
    assert!(invalid
        .unwrap_err()
        .0
        .starts_with("notices.jsonl:1: not a valid Migration notice"));
}

#[test]
fn each_on_delete_mode() {
    let p = plan(&[notice("n1", A, None, "2024-01-01")]).unwrap();
    let input = format!("name,id\r\nx,{A}\r\ny,{B}\r\n");
    let (kept, report) = csv_with(&p, &input, OnDelete::Keep).unwrap();
    assert_eq!(
        (kept.as_str(), report.count(Action::Kept)),
        (input.as_str(), 1)
    );
    let (dropped, report) = csv_with(&p, &input, OnDelete::Drop).unwrap();
    assert_eq!(dropped, format!("name,id\r\ny,{B}\r\n"));
    assert_eq!(report.changes[0].at, "2");
    let failed = csv_with(&p, &input, OnDelete::Fail).unwrap_err().0;
    assert!(
        failed.starts_with(&format!("in.csv:2: {A} is deleted ({})", nid("n1"))),
        "{failed}"
    );
}

#[test]
fn csv_keeps_every_other_byte() {
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let input = format!(
        "\u{feff}\"name\",\"id\",note\r\n\"Fire, \"\"the\"\" Elemental\",\"{A}\",\"two\r\nlines\"\r\nplain,{A},x\nlast,{C},\"no end\""
    );
    let (out, report) = csv_with(&p, &input, OnDelete::Keep).unwrap();
    let expected = input.replace(A, B);
    assert_eq!(out, expected);
    let lines: Vec<&str> = report.changes.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(lines, ["2", "4"]);
    let missing = csv::rewrite(
        input.as_bytes(),
        "in.csv",
        "nope",
        &p,
        options(OnDelete::Keep),
        None,
        &mut Report::default(),
    );
    assert!(missing
        .unwrap_err()
        .0
        .contains(r#"no column named "nope" in the header (columns: name, id, note)"#));
    let open = csv::rewrite(
        "id\n\"x\n".as_bytes(),
        "in.csv",
        "id",
        &p,
        options(OnDelete::Keep),
        None,
        &mut Report::default(),
    );
    assert!(open.unwrap_err().0.contains("a quoted field is not closed"));
}

#[test]
fn json_ids_at_several_depths_and_json_lines() {
    let p = plan(&[
        notice("n1", A, Some(B), "2024-01-01"),
        notice("n2", C, None, "2024-01-01"),
    ])
    .unwrap();
    let input = format!(
        "{{\n  \"decks\": [\n    {{\"cards\": [{{\"catalogAId\": \"{A}\", \"n\": 1}}, {{\"catalogAId\": \"{C}\"}}]}},\n    {{\"cards\": [ {{\"catalogAId\":\"{D}\"}} , {{\"catalogAId\": \"{C}\"}} ]}}\n  ],\n  \"catalogAId\": \"{A}\"\n}}\n"
    );
    let pattern = Pattern::parse("/decks/*/cards/*/catalogAId").unwrap();
    let run = |on_delete, json_lines: bool, text: &str| {
        let mut out = Vec::new();
        let mut report = Report::default();
        cardkit_diff::apply::json::rewrite(
            text.as_bytes(),
            "in.json",
            json_lines,
            &pattern,
            &p,
            options(on_delete),
            Some(&mut out),
            &mut report,
        )
        .map(|()| (String::from_utf8(out).unwrap(), report))
    };
    let (kept, report) = run(OnDelete::Keep, false, &input).unwrap();
    assert_eq!(kept, input.replacen(A, B, 1));
    assert_eq!(report.references, 4);
    let lines: Vec<&str> = report.changes.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(lines, ["3", "3", "4"]);
    let (dropped, _) = run(OnDelete::Drop, false, &input).unwrap();
    let expected = format!(
        "{{\n  \"decks\": [\n    {{\"cards\": [{{\"catalogAId\": \"{B}\", \"n\": 1}}]}},\n    {{\"cards\": [ {{\"catalogAId\":\"{D}\"}} ]}}\n  ],\n  \"catalogAId\": \"{A}\"\n}}\n"
    );
    assert_eq!(dropped, expected);
    // JSON Lines: one value a line; with no `*` a dropped id drops its line.
    let lines = format!(
        "{{\"catalogAId\": \"{A}\"}}\r\n{{\"catalogAId\": \"{C}\"}}\r\n\r\n{{\"x\": 1}}\r\n"
    );
    let top = Pattern::parse("/catalogAId").unwrap();
    let mut out = Vec::new();
    let mut report = Report::default();
    cardkit_diff::apply::json::rewrite(
        lines.as_bytes(),
        "in.jsonl",
        true,
        &top,
        &p,
        options(OnDelete::Drop),
        Some(&mut out),
        &mut report,
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("{{\"catalogAId\": \"{B}\"}}\r\n\r\n{{\"x\": 1}}\r\n")
    );
    let malformed = run(OnDelete::Keep, false, "{\"decks\": [}");
    assert!(malformed
        .unwrap_err()
        .0
        .starts_with("in.json:1: malformed JSON"));
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn in_place_dry_run_and_a_failing_run_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan(&[
        notice("n1", A, Some(B), "2024-01-01"),
        notice("n2", C, None, "2024-01-01"),
    ])
    .unwrap();
    let first = write(dir.path(), "a.csv", &format!("id\n{A}\n"));
    let second = write(dir.path(), "b.csv", &format!("id\n{C}\n"));
    let inputs = [first.clone(), second.clone()];
    let column = References::Column("id".into());
    let run = |on_delete, dry_run| {
        let options = ApplyOptions { on_delete, dry_run };
        let mut report = Report::default();
        apply_files(&inputs, &column, &p, options, &Output::InPlace, &mut report).map(|()| report)
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    let report = run(OnDelete::Keep, true).unwrap();
    assert_eq!((report.changes.len(), report.written), (2, 0));
    assert_eq!(
        read(&first),
        format!("id\n{A}\n"),
        "a dry run writes nothing"
    );
    assert!(run(OnDelete::Fail, false).is_err());
    assert_eq!(
        read(&first),
        format!("id\n{A}\n"),
        "a failed run writes nothing"
    );
    let report = run(OnDelete::Drop, false).unwrap();
    assert_eq!(report.written, 2);
    assert_eq!(read(&first), format!("id\n{B}\n"));
    assert_eq!(read(&second), "id\n");
    let again = run(OnDelete::Drop, false).unwrap();
    assert!(again.changes.is_empty(), "applying again changes nothing");
}

/// The names in `dir` that start with `prefix`, sorted.
fn names_in(dir: &Path, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    names
}

#[test]
fn in_place_removes_the_temporaries_of_killed_runs_and_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let deck = write(dir.path(), "deck.csv", &format!("id\n{A}\n"));
    // While a run writes, its temporary is `.deck.csv.cardkit-XXXXXX.tmp`,
    // locked: another run leaves it alone.
    let mut seen = Vec::new();
    cardkit_diff::apply::write_atomically(&deck, |out| {
        out.write_all(b"id\n").unwrap();
        out.flush().unwrap();
        seen = names_in(dir.path(), ".deck.csv.");
        assert_eq!(seen.len(), 1, "{seen:?}");
        let temp = dir.path().join(&seen[0]);
        assert!(cardkit_export::stale::locked(&temp), "held while written");
        assert!(cardkit_diff::apply::remove_stale(&deck).unwrap().is_empty());
        assert!(temp.exists());
        // What a run killed here leaves: the same kind of name, unlocked.
        std::fs::copy(&temp, dir.path().join(".deck.csv.cardkit-Killed.tmp")).unwrap();
        Ok(false)
    })
    .unwrap();
    let name = &seen[0];
    let random = name
        .strip_prefix(".deck.csv.cardkit-")
        .and_then(|r| r.strip_suffix(".tmp"))
        .unwrap_or_else(|| panic!("{name}"));
    assert_eq!(random.len(), 6, "{name}");
    assert_eq!(
        names_in(dir.path(), ".deck.csv."),
        [".deck.csv.cardkit-Killed.tmp"],
        "a run that writes nothing removes its temporary"
    );
    // A live run's (locked), and names that are not the deck's temporaries.
    let live = dir.path().join(".deck.csv.cardkit-LiveRn.tmp");
    let held = std::fs::File::create(&live).unwrap();
    held.lock().unwrap();
    for other in [
        ".other.csv.cardkit-AbCdEf.tmp",
        ".deck.csv.cardkit-AbCd.tmp",
        ".deck.csv.AbCdEf.tmp",
    ] {
        write(dir.path(), other, "x");
    }
    let inputs = [deck.clone()];
    let column = References::Column("id".into());
    let run = |dry_run| {
        let options = ApplyOptions {
            on_delete: OnDelete::Keep,
            dry_run,
        };
        let mut report = Report::default();
        apply_files(&inputs, &column, &p, options, &Output::InPlace, &mut report).map(|()| report)
    };
    let report = run(true).unwrap();
    assert!(report.stale_removed.is_empty(), "a dry run removes nothing");
    assert!(dir.path().join(".deck.csv.cardkit-Killed.tmp").exists());
    let mut report = run(false).unwrap();
    assert_eq!(
        std::fs::read_to_string(&deck).unwrap(),
        format!("id\n{B}\n")
    );
    let killed = dir.path().join(".deck.csv.cardkit-Killed.tmp");
    assert_eq!(report.stale_removed, [(killed.clone(), 3)]);
    let mut text = Vec::new();
    report.text(false, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.ends_with(&format!(
            "removed 1 temporary file that runs killed before their end had left: {}, 3 bytes\n",
            killed.display()
        )),
        "{text}"
    );
    assert_eq!(
        names_in(dir.path(), "."),
        [
            ".deck.csv.AbCdEf.tmp",
            ".deck.csv.cardkit-AbCd.tmp",
            ".deck.csv.cardkit-LiveRn.tmp",
            ".other.csv.cardkit-AbCdEf.tmp",
        ],
        "the live run's temporary and other names are kept"
    );
    drop(held);
    let report = run(false).unwrap();
    assert_eq!(report.stale_removed, [(live, 0)], "once its run has ended");
}

#[test]
fn the_corpus_migration_files() {
    let Some(shared) = support::shared::shared_dir() else {
        return;
    };
    let dir = shared.join("corpus/neutral/migration");
    let mut notices = Vec::new();
    let mut olds = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read(&path).unwrap();
        let read = read_notices(
            &path.display().to_string(),
            &text[..],
            false,
            1,
            Names::Spec,
        )
        .unwrap();
        olds.extend(read.iter().map(|n: &Notice| (n.old.clone(), n.new.clone())));
        notices.extend(read);
    }
    assert_eq!(notices.len(), 26);
    let p = Plan::new(notices).unwrap();
    let input: String = std::iter::once("id".to_owned())
        .chain(olds.iter().map(|(o, _)| o.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    let (out, report) = csv_with(&p, &input, OnDelete::Keep).unwrap();
    assert_eq!(report.count(Action::Merged), 4);
    assert_eq!(report.count(Action::Kept), 22);
    // The two real merges point to the same card.
    for ((old, new), line) in olds.iter().zip(out.lines().skip(1)) {
        assert_eq!(line, new.as_deref().unwrap_or(old));
    }
}

fn chains() -> impl Strategy<Value = (Vec<(usize, Option<usize>)>, Vec<usize>)> {
    // Ids 0..20; each merges into a larger id (no cycles) or is deleted.
    let notices = proptest::collection::vec((0usize..20, proptest::option::of(1usize..10)), 0..30);
    let refs = proptest::collection::vec(0usize..25, 0..40);
    (notices, refs)
}

fn id(n: usize) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

proptest! {
    #![proptest_config(support::config(64))]

    #[test]
    fn applying_the_same_notices_twice_changes_nothing_the_second_time((given, refs) in chains(), drop in any::<bool>()) {
        let mut lines = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, &(old, step)) in given.iter().enumerate() {
            if !seen.insert(old) {
                continue;
            }
            let new = step.map(|s| id(old + s));
            lines.push(notice(&format!("n{i}"), &id(old), new.as_deref(), "2024-01-01"));
        }
        let p = plan(&lines).unwrap();
        let input: String = std::iter::once("id".to_owned()).chain(refs.iter().map(|&r| id(r))).map(|l| l + "\r\n").collect();
        let mode = if drop { OnDelete::Drop } else { OnDelete::Keep };
        let (once, _) = csv_with(&p, &input, mode).unwrap();
        let (twice, report) = csv_with(&p, &once, mode).unwrap();
        prop_assert_eq!(&once, &twice);
        prop_assert!(report.changes.iter().all(|c| c.action == Action::Kept));
    }

    #[test]
    fn the_fields_found_are_those_a_csv_reader_reads(rows in proptest::collection::vec(proptest::collection::vec("[a-z,\"\r\n ]{0,6}", 1..5), 1..6)) {
        for row in rows {
            let mut writer = ::csv::WriterBuilder::new().terminator(::csv::Terminator::CRLF).from_writer(Vec::new());
            writer.write_record(&row).unwrap();
            let bytes = writer.into_inner().unwrap();
            let record = bytes.strip_suffix(b"\r\n").unwrap();
            let found: Vec<Vec<u8>> = csv::fields(record).into_iter().map(|(s, e, q)| csv::value(&record[s..e], q)).collect();
            let expected: Vec<Vec<u8>> = row.iter().map(|f| f.as_bytes().to_vec()).collect();
            prop_assert_eq!(found, expected);
        }
    }
}

/// A store made by `cardkit export` from a generated set, and the catalog
/// ids of its cards.
fn exported(target: &Target) -> Vec<String> {
    exported_as(target, None)
}

/// [`exported`], as the build `build`.
fn exported_as(target: &Target, build: Option<&str>) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let spec = support::pairs::Spec {
        seed: 5,
        sets: 1,
        cards: 4,
        changes: 0,
        set_changes: false,
    };
    let (old, _, _) = support::pair(dir.path(), &spec);
    let set = std::fs::read(old).unwrap();
    let mut exporter = Exporter::open(target, OnInvalid::Fail, build, 1).unwrap();
    exporter
        .input(
            "old.json",
            &set[..],
            &cardkit::Options::default(),
            |_| {},
            |_| {},
        )
        .unwrap();
    exporter.finish().unwrap();
    let value: serde_json::Value = serde_json::from_slice(&set).unwrap();
    value["data"]["S000"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["identifiers"]["catalogAId"].as_str().unwrap().to_owned())
        .collect()
}

fn store_plan(ids: &[String]) -> Plan {
    plan(&[
        notice("n1", &ids[0], Some(A), "2024-01-01"),
        notice("n2", &ids[1], None, "2024-01-01"),
    ])
    .unwrap()
}

#[test]
fn a_sqlite_store_in_one_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let target = Target::Sqlite(path.clone());
    let ids = exported(&target);
    let p = store_plan(&ids);
    let column = |c: &str| {
        let db = rusqlite::Connection::open(&path).unwrap();
        let mut q = db
            .prepare(&format!("SELECT {c} FROM identifiers ORDER BY rowid"))
            .unwrap();
        q.query_map([], |r| r.get::<_, Option<String>>(0))
            .unwrap()
            .map(Result::unwrap)
            .collect::<Vec<_>>()
    };
    let run = |on_delete, dry_run, report: &mut Report| {
        let options = ApplyOptions { on_delete, dry_run };
        store::apply(
            &target,
            "identifiers",
            "catalog_a_id",
            None,
            &p,
            options,
            report,
        )
    };
    let before = column("catalog_a_id");
    let mut report = Report::default();
    run(OnDelete::Drop, true, &mut report).unwrap();
    assert_eq!(report.changes.len(), 2);
    assert_eq!(column("catalog_a_id"), before, "a dry run changes nothing");
    assert!(run(OnDelete::Fail, false, &mut Report::default()).is_err());
    assert_eq!(
        column("catalog_a_id"),
        before,
        "a failed run changes nothing"
    );
    let mut report = Report::default();
    run(OnDelete::Drop, false, &mut report).unwrap();
    let after = column("catalog_a_id");
    assert!(after.contains(&Some(A.to_owned())));
    assert!(!after.contains(&Some(ids[1].clone())));
    assert_eq!(after.len(), before.len() - 1);
    let mut again = Report::default();
    run(OnDelete::Drop, false, &mut again).unwrap();
    assert!(again.changes.is_empty());
    let wrong = store::apply(
        &target,
        "identifiers",
        "nope",
        None,
        &p,
        options(OnDelete::Keep),
        &mut Report::default(),
    );
    assert!(wrong
        .unwrap_err()
        .0
        .starts_with("--column nope: no such column in table identifiers"));
}

#[test]
fn a_sqlite_store_larger_than_a_batch_is_rewritten_whole() {
    // The rows are read a batch (4,096) at a time; 10,000 more references
    // to the merged id and to the deleted one, interleaved, are all met.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let target = Target::Sqlite(path.clone());
    let ids = exported(&target);
    let db = rusqlite::Connection::open(&path).unwrap();
    db.execute_batch("BEGIN").unwrap();
    for i in 0..10_000 {
        db.execute(
            "INSERT INTO identifiers (catalog_a_id) VALUES (?1)",
            [&ids[i % 2]],
        )
        .unwrap();
    }
    db.execute_batch("COMMIT").unwrap();
    let count = |id: &str| -> i64 {
        db.query_row(
            "SELECT count(*) FROM identifiers WHERE catalog_a_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap()
    };
    let (merged, deleted) = (count(&ids[0]), count(&ids[1]));
    assert_eq!((merged, deleted), (5_001, 5_001));
    let mut report = Report::default();
    let options = ApplyOptions {
        on_delete: OnDelete::Drop,
        dry_run: false,
    };
    store::apply(
        &target,
        "identifiers",
        "catalog_a_id",
        None,
        &store_plan(&ids),
        options,
        &mut report,
    )
    .unwrap();
    assert_eq!(report.changes.len(), 10_002);
    assert_eq!((count(&ids[0]), count(&ids[1]), count(A)), (0, 0, 5_001));
}

#[test]
fn a_postgresql_store_larger_than_a_batch_is_rewritten_whole_through_its_portal() {
    // The rows are fetched a batch (4,096) at a time from a portal while
    // the batch's changes are made: 10,000 more references to the merged
    // id and to the deleted one, interleaved, are all met, in one build.
    let server = postgres_server::Server::start();
    let target = Target::Postgres(server.url.clone());
    let ids = exported_as(&target, Some("b1"));
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    client
        .execute(
            "INSERT INTO identifiers (build, catalog_a_id) \
             SELECT CASE WHEN i % 3 = 0 THEN 'b2' ELSE 'b1' END, \
                    CASE WHEN i % 2 = 0 THEN $1 ELSE $2 END \
             FROM generate_series(0, 9999) AS i",
            &[&ids[0], &ids[1]],
        )
        .unwrap();
    let mut count = |id: &str, build: &str| -> i64 {
        client
            .query_one(
                "SELECT count(*) FROM identifiers WHERE catalog_a_id = $1 AND build = $2",
                &[&id, &build],
            )
            .unwrap()
            .get(0)
    };
    let b2 = (count(&ids[0], "b2"), count(&ids[1], "b2"));
    let b1 = (count(&ids[0], "b1"), count(&ids[1], "b1"));
    assert_eq!(b1.0 + b1.1 + b2.0 + b2.1, 10_002);
    let mut report = Report::default();
    store::apply(
        &target,
        "identifiers",
        "catalog_a_id",
        Some("b1"),
        &store_plan(&ids),
        options(OnDelete::Drop),
        &mut report,
    )
    .unwrap();
    let b1_total = usize::try_from(b1.0 + b1.1).unwrap();
    assert_eq!(report.changes.len(), b1_total);
    assert_eq!(
        (count(&ids[0], "b1"), count(&ids[1], "b1"), count(A, "b1")),
        (0, 0, b1.0)
    );
    assert_eq!((count(&ids[0], "b2"), count(&ids[1], "b2")), b2, "b2 kept");
}

#[test]
fn a_postgresql_store_in_one_transaction() {
    let server = postgres_server::Server::start();
    let target = Target::Postgres(server.url.clone());
    let ids = exported(&target);
    let p = store_plan(&ids);
    let mut report = Report::default();
    store::apply(
        &target,
        "identifiers",
        "catalog_a_id",
        None,
        &p,
        options(OnDelete::Keep),
        &mut report,
    )
    .unwrap();
    assert_eq!(
        (report.count(Action::Merged), report.count(Action::Kept)),
        (1, 1)
    );
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    let found: Vec<Option<String>> = client
        .query("SELECT catalog_a_id FROM identifiers", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(found.contains(&Some(A.to_owned())));
    assert!(!found.contains(&Some(ids[0].clone())));
    assert!(
        found.contains(&Some(ids[1].clone())),
        "a deleted id is kept"
    );
}

/// The catalog ids of table `identifiers` by build (`None`: no label),
/// sorted.
fn ids_by_build(rows: Vec<(Option<String>, Option<String>)>) -> Vec<(Option<String>, String)> {
    let mut rows: Vec<(Option<String>, String)> = rows
        .into_iter()
        .filter_map(|(build, id)| Some((build, id?)))
        .collect();
    rows.sort();
    rows
}

/// A store with the same set in builds `old` and `new` and unlabelled;
/// `--build new` rewrites only `new`'s rows; an unknown build is refused
/// with the builds there are; without `--build`, every build, said in the
/// summary.
fn only_the_build_asked_for(
    target: &Target,
    read: &dyn Fn() -> Vec<(Option<String>, Option<String>)>,
) {
    let ids = exported_as(target, Some("old"));
    assert_eq!(exported_as(target, Some("new")), ids);
    assert_eq!(exported_as(target, None), ids);
    let p = store_plan(&ids);
    let before = ids_by_build(read());
    let run = |build: Option<&str>, report: &mut Report| {
        store::apply(
            target,
            "identifiers",
            "catalog_a_id",
            build,
            &p,
            options(OnDelete::Drop),
            report,
        )
    };
    let mut report = Report::default();
    let refused = run(Some("nope"), &mut report).unwrap_err().0;
    assert!(
        refused.contains("--build nope: ")
            && refused.contains("has no build of that label in table identifiers")
            && refused.contains("builds there: the build without a label, new, old"),
        "{refused}"
    );
    assert_eq!(
        ids_by_build(read()),
        before,
        "a refused run changes nothing"
    );
    let mut report = Report::default();
    run(Some("new"), &mut report).unwrap();
    assert_eq!(report.scope.as_deref(), Some("build new"));
    assert_eq!(report.changes.len(), 2);
    let mut expected: Vec<(Option<String>, String)> = before
        .iter()
        .filter(|(build, id)| build.as_deref() != Some("new") || *id != ids[1])
        .map(|(build, id)| {
            let merged = build.as_deref() == Some("new") && *id == ids[0];
            (
                build.clone(),
                if merged { A.to_owned() } else { id.clone() },
            )
        })
        .collect();
    expected.sort();
    assert_eq!(
        ids_by_build(read()),
        expected,
        "only build new is rewritten"
    );
    let mut text = Vec::new();
    report.text(false, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains(" references in build new: 1 merged"),
        "{text}"
    );
    let mut report = Report::default();
    run(None, &mut report).unwrap();
    assert_eq!(
        report.scope.as_deref(),
        Some("every build (3: the build without a label, new, old)")
    );
    assert_eq!(report.changes.len(), 4, "builds old and unlabelled");
}

#[test]
fn a_sqlite_store_rewrites_only_the_build_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let read = || {
        let db = rusqlite::Connection::open(&path).unwrap();
        let mut q = db
            .prepare("SELECT build, catalog_a_id FROM identifiers")
            .unwrap();
        q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    only_the_build_asked_for(&Target::Sqlite(path.clone()), &read);
}

#[test]
fn a_postgresql_store_rewrites_only_the_build_asked_for() {
    let server = postgres_server::Server::start();
    let read = || {
        let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
        client
            .query("SELECT build, catalog_a_id FROM identifiers", &[])
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    };
    only_the_build_asked_for(&Target::Postgres(server.url.clone()), &read);
}

#[test]
fn every_table_has_a_key_that_names_its_rows() {
    let expected = [
        ("identifiers", vec!["uuid"]),
        ("cards", vec!["uuid"]),
        ("tokens", vec!["uuid"]),
        ("sealed_products", vec!["uuid"]),
        ("rulings", vec!["uuid", "position"]),
        ("foreign_data", vec!["uuid", "position"]),
        ("sets", vec!["code"]),
        ("set_translations", vec!["set_code", "language"]),
        ("migrations", vec!["id"]),
        ("meta", vec!["input"]),
    ];
    for (table, keys) in expected {
        assert_eq!(store::key_columns(table), keys, "{table}");
    }
    for table in &cardkit_export::layout::layout().tables {
        assert!(
            !store::key_columns(&table.name).is_empty(),
            "{} has no key",
            table.name
        );
    }
}

/// The rows of a store a run changes are named by their table and key
/// (`identifiers uuid=…`), with their build when every build is
/// rewritten, never by a physical row id.
fn rows_named_by_key(target: &Target, uuid_of: &dyn Fn(&str) -> String) {
    let ids = exported_as(target, Some("b1"));
    let uuids = [uuid_of(&ids[0]), uuid_of(&ids[1])];
    let p = store_plan(&ids);
    let run = |build: Option<&str>, on_delete, report: &mut Report| {
        let options = ApplyOptions {
            on_delete,
            dry_run: true,
        };
        store::apply(
            target,
            "identifiers",
            "catalog_a_id",
            build,
            &p,
            options,
            report,
        )
    };
    let mut report = Report::default();
    run(Some("b1"), OnDelete::Keep, &mut report).unwrap();
    let named: Vec<(&str, &str)> = report
        .changes
        .iter()
        .map(|c| (c.place.as_str(), c.at.as_str()))
        .collect();
    let (merged, deleted) = (format!("uuid={}", uuids[0]), format!("uuid={}", uuids[1]));
    assert_eq!(
        named,
        [
            ("identifiers", merged.as_str()),
            ("identifiers", deleted.as_str())
        ]
    );
    let mut text = Vec::new();
    report.text(true, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.starts_with(&format!(
            "identifiers uuid={}: {} -> {A} (",
            uuids[0], ids[0]
        )),
        "{text}"
    );
    let mut report = Report::default();
    run(None, OnDelete::Keep, &mut report).unwrap();
    assert_eq!(
        report.changes[0].location(),
        format!("identifiers build=b1 uuid={}", uuids[0])
    );
    let failed = run(Some("b1"), OnDelete::Fail, &mut Report::default())
        .unwrap_err()
        .0;
    assert!(
        failed.starts_with(&format!(
            "identifiers uuid={}: {} is deleted",
            uuids[1], ids[1]
        )),
        "{failed}"
    );
}

#[test]
fn sqlite_store_rows_are_named_by_table_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let uuid_of = |id: &str| -> String {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.query_row(
            "SELECT uuid FROM identifiers WHERE catalog_a_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap()
    };
    rows_named_by_key(&Target::Sqlite(path.clone()), &uuid_of);
}

#[test]
fn postgresql_store_rows_are_named_by_table_and_key() {
    let server = postgres_server::Server::start();
    let uuid_of = |id: &str| -> String {
        let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
        client
            .query_one(
                "SELECT uuid FROM identifiers WHERE catalog_a_id = $1",
                &[&id],
            )
            .unwrap()
            .get(0)
    };
    rows_named_by_key(&Target::Postgres(server.url.clone()), &uuid_of);
}

/// `text` rewritten with `plan` at `pattern` as JSON (or JSON Lines).
fn json_with(
    plan: &Plan,
    pattern: &str,
    json_lines: bool,
    text: &[u8],
    on_delete: OnDelete,
) -> Result<(Vec<u8>, Report), cardkit_diff::Error> {
    let mut out = Vec::new();
    let mut report = Report::default();
    cardkit_diff::apply::json::rewrite(
        text,
        "in.json",
        json_lines,
        &Pattern::parse(pattern).unwrap(),
        plan,
        options(on_delete),
        Some(&mut out),
        &mut report,
    )?;
    Ok((out, report))
}

/// `n` merges `i -> i + 1` (the ids made from `i`), as notice lines.
fn chain_of(n: usize) -> Vec<Notice> {
    (0..n)
        .map(|i| Notice::new(&id(i), Some(&id(i + 1)), None))
        .collect()
}

#[test]
fn a_quote_inside_an_unquoted_field_does_not_hide_the_following_lines() {
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    // RFC 4180 and the csv crate: a quote is special only at a field's start.
    let input = format!("name,id\n12\" monitor,{A}\nplain,{C}\n15\" screen,{A}\n");
    let (out, report) = csv_with(&p, &input, OnDelete::Keep).unwrap();
    assert_eq!(out, input.replace(A, B), "only the ids' bytes change");
    assert_eq!((report.references, report.count(Action::Merged)), (3, 2));
    let lines: Vec<&str> = report.changes.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(lines, ["2", "4"]);
    // A quoted field still spans lines, and `""` is a quote within it.
    let input = format!("name,id\n\"a \"\"b\"\"\nc\",{A}\nx\"y\"z,{A}\n");
    let (out, report) = csv_with(&p, &input, OnDelete::Keep).unwrap();
    assert_eq!(out, input.replace(A, B));
    let lines: Vec<&str> = report.changes.iter().map(|c| c.at.as_str()).collect();
    assert_eq!(lines, ["2", "4"]);
}

#[test]
fn a_chain_of_20000_merges_is_resolved_in_linear_time_and_memory() {
    let n = 20_000;
    let started = std::time::Instant::now();
    let p = Plan::new(chain_of(n)).unwrap();
    let first = p.resolve(&id(0)).unwrap();
    assert_eq!(first.to, Some(id(n).as_str()));
    assert_eq!(first.followed, n);
    // A report line names the first notices and the last, and counts the
    // others: its length does not follow the chain's.
    let text = p.notices_text(&first);
    assert!(text.contains(&format!("… {} more …", n - 5)), "{text}");
    assert!(text.ends_with(&format!("merge {}", id(n - 1))), "{text}");
    let last = p.resolve(&id(n - 1)).unwrap();
    assert_eq!((last.to, last.followed), (Some(id(n).as_str()), 1));
    // The whole chain is still there for whoever asks for it.
    match p.outcome(&id(0)) {
        Some(cardkit_diff::apply::Outcome::Merged { notices, .. }) => {
            assert_eq!(notices.len(), n);
        }
        other => panic!("{other:?}"),
    }
    // Quadratic resolution took 35 s for 16,000 (release); this is
    // milliseconds, even unoptimised.
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    // The cycle and the conflict are still errors.
    let mut cycle = chain_of(n);
    cycle.push(Notice::new(&id(n), Some(&id(0)), None));
    let error = Plan::new(cycle).unwrap_err().0;
    assert!(
        error.starts_with("merges go round in a cycle through"),
        "{error}"
    );
    let mut conflict = chain_of(n);
    conflict.push(Notice::new(&id(7), Some(&id(3)), None));
    assert!(Plan::new(conflict).unwrap_err().0.contains("disagree"));
}

#[test]
fn json_line_numbers_are_counted_incrementally_at_the_pattern() {
    // 50,000 references on as many lines, 10 notices that match nothing:
    // the line of each string was counted from the file's start (quadratic).
    let notices: Vec<Notice> = (0..10)
        .map(|i| Notice::new(&id(1_000_000 + i), Some(&id(2_000_000 + i)), None))
        .collect();
    let mut p = Plan::new(notices).unwrap();
    let n = 50_000;
    let mut text = String::from("{\"cards\": [\n");
    for i in 0..n {
        text.push_str(&format!("  {{\"catalogAId\": \"{}\"}},\n", id(i)));
    }
    text.push_str(&format!("  {{\"catalogAId\": \"{A}\"}}\n]}}\n"));
    let started = std::time::Instant::now();
    let (out, report) = json_with(
        &p,
        "/cards/*/catalogAId",
        false,
        text.as_bytes(),
        OnDelete::Keep,
    )
    .unwrap();
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    assert_eq!(out, text.as_bytes());
    assert_eq!(report.references, n + 1);
    // The line numbers are still right, at the end of the file too.
    p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let (_, report) = json_with(
        &p,
        "/cards/*/catalogAId",
        false,
        text.as_bytes(),
        OnDelete::Keep,
    )
    .unwrap();
    assert_eq!(report.changes[0].at, (n + 2).to_string());
}

#[test]
fn a_streaming_report_keeps_no_change() {
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let input = format!("id\n{}", format!("{A}\n").repeat(10_000));
    let mut report = Report::counting();
    let mut out = Vec::new();
    csv::rewrite(
        input.as_bytes(),
        "in.csv",
        "id",
        &p,
        options(OnDelete::Keep),
        Some(&mut out),
        &mut report,
    )
    .unwrap();
    assert!(report.changes.is_empty(), "written as they come, not kept");
    assert_eq!(
        (report.references, report.count(Action::Merged)),
        (10_000, 10_000)
    );
    let mut text = Vec::new();
    report.text(false, &mut text).unwrap();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        "10000 references: 10000 merged, 0 deleted kept, 0 dropped; 0 written\n"
    );
}

#[cfg(unix)]
#[test]
fn in_place_writes_through_a_link_and_refuses_hard_links_and_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let p = plan(&[notice("n1", A, Some(B), "2024-01-01")]).unwrap();
    let column = References::Column("id".into());
    let run = |path: &Path| {
        let mut report = Report::default();
        apply_files(
            &[path.to_path_buf()],
            &column,
            &p,
            options(OnDelete::Keep),
            &Output::InPlace,
            &mut report,
        )
        .map(|()| report)
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    // A symbolic link: its target is rewritten, the link stays a link.
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let real = write(&dir.path().join("real"), "deck.csv", &format!("id\n{A}\n"));
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("real/deck.csv", &link).unwrap();
    assert_eq!(run(&link).unwrap().written, 1);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read(&real), format!("id\n{B}\n"));
    // A file with two hard links is refused, both left as they were.
    let linked = write(dir.path(), "h.csv", &format!("id\n{A}\n"));
    std::fs::hard_link(&linked, dir.path().join("h2.csv")).unwrap();
    let error = run(&linked).unwrap_err().0;
    assert!(error.contains("has 2 hard links"), "{error}");
    assert_eq!(read(&dir.path().join("h2.csv")), format!("id\n{A}\n"));
    // A read-only file is refused, and left as it was.
    let read_only = write(dir.path(), "ro.csv", &format!("id\n{A}\n"));
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    let error = run(&read_only).unwrap_err().0;
    assert!(error.contains("read-only"), "{error}");
    assert_eq!(read(&read_only), format!("id\n{A}\n"));
    // Nothing to change: the file is not written, no temporary file is left.
    let plain = write(dir.path(), "plain.csv", &format!("id\n{C}\n"));
    assert_eq!(run(&plain).unwrap().written, 0);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 6);
}

#[test]
fn a_bom_is_read_past_and_kept_and_pointers_are_read_as_rfc_6901_says() {
    let p = plan(&[
        notice("n1", A, Some(B), "2024-01-01"),
        notice("n2", C, None, "2024-01-01"),
    ])
    .unwrap();
    let text = format!("\u{feff}{{\"cards\": [{{\"x\": \"{A}\"}}, {{\"x\": \"{A}\"}}]}}");
    let (out, _) = json_with(&p, "/cards/*/x", false, text.as_bytes(), OnDelete::Keep).unwrap();
    assert_eq!(out, text.replace(A, B).as_bytes(), "the BOM is kept");
    let (out, _) = json_with(
        &p,
        "/x",
        true,
        format!("\u{feff}{{\"x\": \"{A}\"}}\n").as_bytes(),
        OnDelete::Keep,
    )
    .unwrap();
    assert_eq!(out, format!("\u{feff}{{\"x\": \"{B}\"}}\n").as_bytes());
    // The BOM is the file's: it stays when the first line is dropped (found
    // by the fuzz target apply_rewrite).
    let (out, _) = json_with(
        &p,
        "/x",
        true,
        format!("\u{feff}{{\"x\": \"{C}\"}}\n{{\"x\": \"{A}\"}}\n").as_bytes(),
        OnDelete::Drop,
    )
    .unwrap();
    assert_eq!(out, format!("\u{feff}{{\"x\": \"{B}\"}}\n").as_bytes());
    // An index with a leading zero is no index.
    let (out, report) =
        json_with(&p, "/cards/01/x", false, text.as_bytes(), OnDelete::Keep).unwrap();
    assert_eq!((out, report.references), (text.clone().into_bytes(), 0));
    let (out, _) = json_with(&p, "/cards/1/x", false, text.as_bytes(), OnDelete::Keep).unwrap();
    assert_eq!(out, text.replacen(A, B, 2).replacen(B, A, 1).as_bytes());
    for bad in ["/~", "/~2", "/cards/*/~x"] {
        assert!(Pattern::parse(bad).is_err(), "{bad}");
    }
    // Dropping with an index after the last `*` would drop the whole card:
    // refused, saying so, before anything is read.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "in.json",
        &format!("{{\"cards\": [{{\"ids\": [\"{C}\"]}}]}}"),
    );
    let error = apply_files(
        &[file],
        &References::Pointer(Pattern::parse("/cards/*/ids/0").unwrap()),
        &p,
        options(OnDelete::Drop),
        &Output::InPlace,
        &mut Report::default(),
    )
    .unwrap_err()
    .0;
    assert!(
        error.contains("would drop the whole item at /cards/*"),
        "{error}"
    );
}
