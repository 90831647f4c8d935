//! `migrate apply`: chains, cycles, conflicting merges, merge then delete,
//! each `--on-delete` mode, idempotence, dry runs, CSV with quoted fields
//! and CRLF, JSON with ids at several depths, JSON Lines, the real
//! migration files of the corpus, and the tables of a store made by
//! `cardkit export` (SQLite always, PostgreSQL with a throwaway server).

use crate::support;

#[path = "../../../../cardkit-export/tests/support/postgres.rs"]
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

mod hostile;
mod stores;

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
