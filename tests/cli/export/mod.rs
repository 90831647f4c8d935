//! `cardkit export` end to end: its output, its exit status in each
//! `--on-invalid` mode, documents out of its scope, runs killed midway, and
//! hostile inputs (deep nesting, numbers beyond 64 bits, huge strings,
//! truncated streams, many tiny documents).

#[path = "../../../crates/cardkit-export/tests/support/catalog.rs"]
mod catalog;
#[path = "../../../crates/cardkit-export/tests/support/postgres.rs"]
mod postgres_server;
use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};
use std::time::Duration;

use predicates::prelude::*;
use predicates::str::contains;
use rusqlite::Connection;
use support::{cardkit, examples_dir, into_a_closed_pipe, show, Stream};

mod killed;
mod references;

fn example(name: &str) -> String {
    show(&examples_dir().join(name))
}

fn count(db: &Path, sql: &str) -> i64 {
    Connection::open(db)
        .expect("the database")
        .query_row(sql, [], |r| r.get(0))
        .expect("a count")
}

/// What a run writes, with the temporary folder's path as `TMP`.
fn output(dir: &Path, args: &[&str]) -> String {
    let out = cardkit()
        .current_dir(support::workspace_dir())
        .args(args)
        .output()
        .expect("cardkit runs");
    let text = format!(
        "status: {}\n--- stdout\n{}--- stderr\n{}",
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = text.replace(&show(dir), "TMP");
    // Times and speeds change from run to run.
    text.lines()
        .map(|line| {
            if line.starts_with("read ") {
                "read …"
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_runs_output_in_each_mode() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = show(&dir.path().join("cards.db"));
    let inputs = [
        "examples/valid/set.json",
        "examples/valid/migrations.jsonl",
        "examples/invalid/set-card-problems.json",
    ];
    for mode in ["fail", "skip", "keep"] {
        let mut args = vec!["export", "--to", &db, "--on-invalid", mode, "--build", mode];
        args.extend(inputs);
        assert_snapshot!(format!("export_{mode}"), output(dir.path(), &args));
    }
}

/// A Parquet build is added to as a SQLite database is, and its runs' summaries
/// say so in the same words: what was added, what replaced (a set, the
/// migrations, and the rows of what was there), sets read twice, a uuid
/// stored under another set, and a build emptied first (`--replace`).
#[test]
fn parquet_runs_say_what_they_added_and_replaced_as_sqlite_runs_do() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // The example set under another code: its cards' uuids are stored
    // under EXA already.
    let moved = dir.path().join("moved.json");
    let set = std::fs::read_to_string(examples_dir().join("valid/set.json")).expect("the set");
    std::fs::write(&moved, set.replace("\"EXA\"", "\"MOV\"")).expect("the copy");
    let moved = show(&moved);
    let (set, migrations) = ("examples/valid/set.json", "examples/valid/migrations.jsonl");
    let runs: [&[&str]; 4] = [
        &[set, migrations],
        &[set, set, migrations],
        &[&moved],
        &["--replace", set],
    ];
    let mut said = Vec::new();
    for target in [
        format!("sqlite:{}", show(&dir.path().join("cards.db"))),
        format!("parquet:{}", show(&dir.path().join("parquet"))),
    ] {
        let mut outputs = String::new();
        for inputs in runs {
            let mut args = vec!["export", "--build", "b", "--to", &target];
            args.extend(inputs);
            let text = output(dir.path(), &args);
            let shown = target.replace(&show(dir.path()), "TMP");
            outputs.push_str(&format!("$ cardkit export … {}\n", inputs.join(" ")));
            outputs.push_str(&text.replace(&shown, "TARGET"));
            outputs.push_str("\n\n");
        }
        said.push(outputs.replace(&show(dir.path()), "TMP"));
    }
    assert_eq!(said[0], said[1], "SQLite's summaries, then Parquet's");
    assert_snapshot!("export_parquet_runs", said[1]);
}

#[test]
fn keep_unknown_keeps_the_members_the_spec_does_not_define_and_says_so() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = show(&dir.path().join("cards.db"));
    let args = [
        "export",
        "--to",
        &db,
        "--on-invalid",
        "keep",
        "--keep-unknown",
        "examples/invalid/set-card-problems.json",
    ];
    assert_snapshot!("export_keep_unknown", output(dir.path(), &args));
    let db = dir.path().join("cards.db");
    let kept = count(
        &db,
        "SELECT count(*) FROM cards WHERE extra LIKE '%tokenSetCode%'",
    );
    assert_eq!(kept, 1);
}

#[test]
fn fail_commits_nothing_and_leaves_no_file() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("cards.db");
    cardkit()
        .args(["export", "--to", &show(&db), &example("valid/set.json")])
        .args([&example("invalid/set-card-problems.json")])
        .assert()
        .code(1)
        .stdout("")
        .stderr(contains("error[").and(contains("nothing was exported to sqlite:")));
    assert!(!db.exists());
    // A database that was there keeps what it had.
    cardkit()
        .args(["export", "--to", &show(&db), &example("valid/set.json")])
        .assert()
        .code(0)
        .stdout(contains("exported 1 document to sqlite:"));
    let cards = count(&db, "SELECT COUNT(*) FROM cards");
    assert!(cards > 0);
    cardkit()
        .args([
            "export",
            "--to",
            &show(&db),
            "--build",
            "x",
            &example("valid/set.json"),
        ])
        .args([&example("invalid/set-card-problems.json")])
        .assert()
        .code(1);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM cards"), cards);
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM cards WHERE build = 'x'"),
        0
    );
}

#[test]
fn templates_and_card_designs_are_out_of_scope() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = show(&dir.path().join("cards.db"));
    cardkit()
        .args([
            "export",
            "--to",
            &db,
            "--on-invalid",
            "skip",
            &example("valid/template.json"),
        ])
        .args([
            &example("valid/card.json"),
            &example("valid/migration.json"),
        ])
        .assert()
        .code(1)
        .stderr(contains("a template is out of the export's scope"))
        .stderr(contains("a card design is out of the export's scope"))
        .stdout(contains("exported 1 document").and(contains("2 documents were left out")));
}

#[test]
fn usage_errors() {
    for (args, message) in [
        (vec!["export", "x.json"], "--to <TARGET>"),
        (
            vec!["export", "--to", "out.txt", "x.json"],
            "names no target",
        ),
        (
            vec!["export", "--to", "sqlite:", "x.json"],
            "the path is empty",
        ),
        (
            vec!["export", "--to", "a.db", "--build", "", "x.json"],
            "the label is empty",
        ),
        (
            vec!["export", "--to", "a.db", "-", "-"],
            "standard input can be read once",
        ),
        (
            vec!["export", "--to", "a.db", "--on-invalid", "maybe", "x.json"],
            "invalid value",
        ),
    ] {
        cardkit()
            .args(&args)
            .assert()
            .code(2)
            .stderr(contains(message))
            .stderr(contains("panicked").not());
    }
    let unreachable = "postgres://nobody@127.0.0.1:1/none";
    cardkit()
        .args(["export", "--to", unreachable, &example("valid/set.json")])
        .assert()
        .code(2)
        .stderr(contains("cardkit export: error: postgres:"));
}

#[test]
fn describe_prints_the_layout() {
    let described = cardkit()
        .args(["export", "--describe"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let described = String::from_utf8(described).expect("UTF-8");
    let layout = cardkit_export::layout::layout().describe();
    assert!(described.starts_with(&layout), "{described}");
    let stamps = &described[layout.len()..];
    let version = cardkit_export::layout::LAYOUT_VERSION;
    for place in [
        format!("PRAGMA user_version = {version}"),
        "application_id = 0x636b6974".to_owned(),
        format!("key-value metadata `cardkit.layout_version` = {version}"),
        "a comment on each PostgreSQL table".to_owned(),
        "`extra` is NULL unless the run is given --keep-unknown".to_owned(),
    ] {
        assert!(stamps.contains(&place), "{stamps}");
    }
    // Then the reference rules in SQL, each query whole.
    for (name, query) in cardkit_export::references::QUERIES {
        assert!(stamps.contains(query.trim_end()), "{name}: {stamps}");
    }
}

/// A valid set with `extra` members and a `baseSetSize` of `size`.
fn set_with(size: &str, extra: &str) -> String {
    let set = std::fs::read_to_string(examples_dir().join("valid/set.json")).expect("the example");
    let set = set.replacen("\"baseSetSize\": 2", &format!("\"baseSetSize\": {size}"), 1);
    assert!(
        set.contains(&format!("\"baseSetSize\": {size}")),
        "the example's baseSetSize"
    );
    set.replacen('{', &format!("{{{extra}"), 1)
}

/// Exports a fixture named `name` holding `text` as build `build` (with the
/// `--on-invalid` mode `mode`) into the database of `dir`.
fn export_fixture(
    dir: &Path,
    name: &str,
    text: &str,
    mode: &str,
    build: &str,
) -> assert_cmd::assert::Assert {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a fixture");
    let db = show(&dir.join("cards.db"));
    cardkit()
        .args([
            "export",
            "--to",
            &db,
            "--on-invalid",
            mode,
            "--build",
            build,
        ])
        .arg(&path)
        .assert()
        .stderr(contains("panicked").not())
}

/// `SELECT {what} FROM {table} WHERE build = '{build}'` in the database of
/// `dir`.
fn select(dir: &Path, what: &str, table: &str, build: &str) -> i64 {
    let sql = format!("SELECT {what} FROM {table} WHERE build = '{build}'");
    count(&dir.join("cards.db"), &sql)
}

#[test]
fn hostile_inputs_are_exported_or_refused_with_a_reason() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let dir = dir.path();
    // Deep nesting: in a value whose inner structure is not shown (valid,
    // exported whole as JSON text), in an unknown member (valid, left out),
    // and deeper than documents may nest (invalid, kept with keep).
    let nested = format!("{}1{}", "{\"a\": ".repeat(1000), "}".repeat(1000));
    let booster = set_with("2", &format!("\"booster\": {nested},"));
    export_fixture(dir, "booster.json", &booster, "fail", "booster").code(0);
    let length = select(dir, "length(booster)", "sets", "booster");
    assert_eq!(length, i64::try_from(nested.len()).unwrap());
    for (depth, code) in [(1000, 0), (3000, 1)] {
        let array = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let deep = set_with("2", &format!("\"x\": {array},"));
        export_fixture(dir, "deep.json", &deep, "keep", "deep")
            .code(code)
            .stdout(contains("exported 1 document"));
    }
    // A valid integer beyond the signed 64-bit range: refused, or NULL
    // with keep, never wrapped or cut.
    let huge = set_with("18446744073709551615", "");
    export_fixture(dir, "huge.json", &huge, "fail", "huge")
        .code(1)
        .stderr(contains(
            "/baseSetSize: an integer beyond the 64-bit signed range: stored as NULL",
        ));
    export_fixture(dir, "huge.json", &huge, "keep", "huge")
        .code(0)
        .stdout(contains("1 invalid document was kept"));
    assert_eq!(select(dir, "COUNT(base_set_size)", "sets", "huge"), 0);
    assert_eq!(select(dir, "COUNT(*)", "sets", "huge"), 1);
    // More errors than a document keeps: those past the bound are only
    // counted, yet the values they are about are NULL with keep as well (the
    // bad uuid at the end was once exported as it was).
    let mut flooded: serde_json::Value = serde_json::from_str(&set_with("2", "")).expect("JSON");
    let mut cards = vec![serde_json::json!({}); 6000];
    cards.push(serde_json::json!({"uuid": "not-a-uuid"}));
    flooded["cards"] = cards.into();
    let flooded = flooded.to_string();
    export_fixture(dir, "flooded.json", &flooded, "keep", "flooded")
        .code(1)
        .stdout(contains("1 invalid document was kept"));
    assert_eq!(select(dir, "COUNT(*)", "cards", "flooded"), 6001);
    assert_eq!(select(dir, "COUNT(uuid)", "cards", "flooded"), 0);
    // A huge string is exported whole.
    let long = "n".repeat(20 << 20);
    let long_set = set_with("2", &format!("\"shopCName\": \"{long}\","));
    export_fixture(dir, "long.json", &long_set, "fail", "long").code(0);
    assert_eq!(select(dir, "length(shop_c_name)", "sets", "long"), 20 << 20);
    // A truncated stream: the documents before the cut are exported with
    // skip; the cut one is invalid.
    let migrations =
        std::fs::read_to_string(examples_dir().join("valid/migrations.jsonl")).unwrap();
    let cut = &migrations[..migrations.len() - 20];
    export_fixture(dir, "cut.jsonl", cut, "skip", "cut")
        .code(1)
        .stderr(contains("invalid_json"));
    let lines = migrations.lines().filter(|l| !l.trim().is_empty()).count();
    let exported = select(dir, "COUNT(*)", "migrations", "cut");
    assert_eq!(exported, i64::try_from(lines - 1).unwrap());
    // Many tiny documents.
    let line = support::migrations::migration_line(support::migrations::GOOD_ID);
    let many = format!("{line}\n").repeat(100_000);
    export_fixture(dir, "many.jsonl", &many, "fail", "many")
        .code(0)
        .stdout(contains("migrations 100000"));
}

/// A closed standard error (`cardkit export … 2>&1 | head`) stops the
/// report, not the run: an invalid input still fails it (status 1) and
/// nothing is written, instead of a quiet status 0.
#[test]
fn a_closed_stderr_keeps_the_exit_status() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("cards.db");
    let (status, _) = into_a_closed_pipe(
        [
            "export".to_owned(),
            "--to".to_owned(),
            show(&db),
            example("invalid/migration-problems.json"),
        ],
        Stream::Stderr,
    );
    assert_eq!(status, Some(1));
    assert!(!db.exists(), "an invalid run wrote {}", show(&db));
}

/// A closed standard output (`cardkit export … | head`) stops the summary,
/// not the status: invalid documents kept with NULLs are committed, and the
/// run still says so (status 1), instead of a quiet status 0.
#[test]
fn a_closed_stdout_keeps_the_exit_status() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("cards.db");
    let (status, _) = into_a_closed_pipe(
        [
            "export".to_owned(),
            "--on-invalid".to_owned(),
            "keep".to_owned(),
            "--to".to_owned(),
            show(&db),
            example("invalid/migration-problems.json"),
        ],
        Stream::Stdout,
    );
    assert_eq!(status, Some(1));
    assert!(db.exists(), "the kept documents were not committed");
}

/// The loop users write over the publishers' per-set files keeps every set:
/// `for f in sets/*.json; do cardkit export --to cards.db "$f"; done` gives
/// the rows one export of the folder gives; each run's summary says what
/// it added, and a set exported again says what it replaced.
#[test]
fn a_shell_loop_over_per_set_files_keeps_every_set() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let Some(catalog) = catalog(dir.path(), 3) else {
        return;
    };
    let value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&catalog).expect("the catalog")).expect("JSON");
    let sets = dir.path().join("sets");
    std::fs::create_dir(&sets).expect("a folder");
    let data = value["data"].as_object().expect("sets by code");
    for (code, set) in data {
        let file = serde_json::json!({"meta": value["meta"], "data": set});
        std::fs::write(sets.join(format!("{code}.json")), file.to_string()).expect("a set file");
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_cardkit"))
        .parent()
        .expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let looped = StdCommand::new("bash")
        .arg("-c")
        .arg(r#"for f in sets/*.json; do cardkit export --to cards.db "$f"; done"#)
        .current_dir(dir.path())
        .env("PATH", &path)
        .output()
        .expect("bash runs");
    assert!(looped.status.success(), "{looped:?}");
    let stdout = String::from_utf8_lossy(&looped.stdout);
    assert_eq!(
        stdout.matches("\nadded 1 set\n").count(),
        data.len(),
        "{stdout}"
    );
    let whole = cardkit()
        .current_dir(dir.path())
        .args(["export", "--to", "whole.db", "sets"])
        .output()
        .expect("cardkit runs");
    assert!(whole.status.success(), "{whole:?}");
    let tables = |db: &str| -> Vec<(String, i64)> {
        let db = dir.path().join(db);
        cardkit_export::layout::layout()
            .tables
            .iter()
            .map(|t| {
                let n = count(&db, &format!("SELECT COUNT(*) FROM {}", t.name));
                (t.name.clone(), n)
            })
            .collect()
    };
    let looped_rows = tables("cards.db");
    assert_eq!(looped_rows, tables("whole.db"));
    let sets_rows = looped_rows.iter().find(|(t, _)| t == "sets").map(|r| r.1);
    assert_eq!(sets_rows, Some(i64::try_from(data.len()).unwrap()));
    // The first set again replaces it, and says so.
    let (first, _) = data.iter().next().expect("a set");
    let again = cardkit()
        .current_dir(dir.path())
        .args(["export", "--to", "cards.db"])
        .arg(format!("sets/{first}.json"))
        .output()
        .expect("cardkit runs");
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(
        stdout.contains(&format!("replaced 1 set already there ({first}); ")),
        "{stdout}"
    );
    assert_eq!(tables("cards.db"), looped_rows);
    let check: String = Connection::open(dir.path().join("cards.db"))
        .expect("the database")
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("the check");
    assert_eq!(check, "ok");
}

/// A catalog of `sets` copies of the corpus's BRO set, made by the shared
/// generator.
fn catalog(dir: &Path, sets: usize) -> Option<PathBuf> {
    let shared = support::shared_dir()?;
    Some(catalog::generated_catalog(&shared, dir, sets))
}
