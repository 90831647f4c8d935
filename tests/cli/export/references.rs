//! `cardkit export --references`: the findings of the references between
//! the documents read, reported as `validate --references` reports them
//! and written into the table `reference_findings`, row for row.

use std::path::Path;

use rusqlite::Connection;
use serde_json::{json, Value};

use crate::support::{cardkit, workspace_dir};

const FIRST: &str = "00000001-0000-4000-8000-000000000001";
const SECOND: &str = "00000002-0000-4000-8000-000000000002";
const MISSING: &str = "00000009-0000-4000-8000-000000000009";

/// A card of set `code`, from a case of the library's references suite.
fn card(uuid: &str, number: &str, code: &str) -> Value {
    let path =
        workspace_dir().join("crates/cardkit/tests/references/dangling_reference-faces-fails.json");
    let set: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the case")).expect("JSON");
    let mut card = set["cards"][0].clone();
    let fields = card.as_object_mut().expect("an object");
    fields.remove("otherFaceIds");
    fields.remove("side");
    card["uuid"] = uuid.into();
    card["number"] = number.into();
    card["setCode"] = code.into();
    card
}

fn set(code: &str, cards: Vec<Value>) -> Value {
    let path =
        workspace_dir().join("crates/cardkit/tests/references/dangling_reference-faces-fails.json");
    let mut set: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the case")).expect("JSON");
    set["code"] = code.into();
    set["iconCode"] = code.to_lowercase().into();
    set["name"] = format!("Set {code}").into();
    set["baseSetSize"] = cards.len().into();
    set["totalSetSize"] = cards.len().into();
    set["cards"] = cards.into();
    set
}

/// A whole catalog of two sets: in AAA a face that no record holds and a
/// uuid given twice; in BBB a parent no set is, and AAA's first uuid
/// again.
fn catalog() -> String {
    let mut faced = card(FIRST, "1", "AAA");
    faced["otherFaceIds"] = json!([SECOND, MISSING]);
    faced["side"] = "a".into();
    let mut face = card(SECOND, "1", "AAA");
    face["otherFaceIds"] = json!([FIRST]);
    face["side"] = "b".into();
    let again = card(FIRST, "2", "AAA");
    let aaa = set("AAA", vec![faced, face, again]);
    let mut bbb = set("BBB", vec![card(FIRST, "1", "BBB")]);
    bbb["parentCode"] = "ZZZ".into();
    serde_json::to_string_pretty(&json!({
        "meta": {"date": "2024-01-05", "version": "5.2.1+20240105"},
        "data": {"AAA": aaa, "BBB": bbb},
    }))
    .expect("JSON")
}

/// One row of `reference_findings`, but its message.
type Row = (
    Option<String>,
    String,
    String,
    Option<i64>,
    String,
    Option<i64>,
    String,
    String,
    String,
    String,
    i64,
    Option<String>,
    Option<String>,
);

fn rows(db: &Path) -> Vec<Row> {
    let connection = Connection::open(db).expect("the database");
    let mut statement = connection
        .prepare(
            "SELECT set_code, code, kind, position, field, item, value, severity, input, \
             pointer, line, related_input, related_pointer FROM reference_findings ORDER BY rowid",
        )
        .expect("the table");
    statement
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
                r.get(10)?,
                r.get(11)?,
                r.get(12)?,
            ))
        })
        .expect("the rows")
        .collect::<Result<_, _>>()
        .expect("rows")
}

/// The diagnostics `validate --references` gives on `path`:
/// (code, severity, pointer, line, related pointer, message).
fn validated(path: &Path) -> Vec<(String, String, String, i64, Option<String>, String)> {
    let out = cardkit()
        .args([
            "validate",
            "--references",
            "--format",
            "json",
            "--no-config",
        ])
        .arg(path)
        .output()
        .expect("cardkit runs");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let mut found = Vec::new();
    for file in report["files"].as_array().expect("files") {
        for document in file["documents"].as_array().expect("documents") {
            for d in document["diagnostics"].as_array().expect("diagnostics") {
                found.push((
                    d["code"].as_str().expect("a code").to_owned(),
                    d["severity"].as_str().expect("a severity").to_owned(),
                    d["pointer"].as_str().expect("a pointer").to_owned(),
                    d["line"].as_i64().expect("a line"),
                    d["related"]["pointer"].as_str().map(str::to_owned),
                    d["message"].as_str().expect("a message").to_owned(),
                ));
            }
        }
    }
    found
}

/// A temporary folder holding the catalog, and the path of a database
/// to export it into.
fn catalog_and_database() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("catalog.json");
    std::fs::write(&input, catalog()).expect("the catalog");
    let db = dir.path().join("cards.db");
    (dir, input, db)
}

#[test]
fn the_findings_are_reported_and_written_into_their_table_row_for_row() {
    let (_dir, input, db) = catalog_and_database();
    let out = cardkit()
        .args(["export", "--no-config", "--references", "--to"])
        .args([&db, &input])
        .output()
        .expect("cardkit runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Reported on standard error, as validate reports them.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning[dangling_reference]") && stderr.contains("/data/BBB/parentCode"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("reference_findings 4"), "{stdout}");

    let name = input.display().to_string();
    let found = rows(&db);
    // In the words of the rules written as SQL: set, kind, position,
    // field, item, value.
    let words: Vec<_> = found
        .iter()
        .map(|r| (r.0.as_deref(), &*r.1, &*r.2, r.3, &*r.4, r.5, &*r.6))
        .collect();
    assert_eq!(
        words,
        [
            (
                Some("AAA"),
                "dangling_reference",
                "card",
                Some(0),
                "otherFaceIds",
                Some(1),
                MISSING
            ),
            (
                Some("AAA"),
                "duplicate_id",
                "card",
                Some(2),
                "uuid",
                None,
                FIRST
            ),
            (
                Some("BBB"),
                "duplicate_id",
                "card",
                Some(0),
                "uuid",
                None,
                FIRST
            ),
            (
                Some("BBB"),
                "dangling_reference",
                "set",
                None,
                "parentCode",
                None,
                "ZZZ"
            ),
        ]
    );
    // And where, as validate --references reports the same file.
    let reported = validated(&input);
    assert_eq!(reported.len(), found.len(), "{reported:?}");
    for (row, (code, severity, pointer, line, related, _)) in found.iter().zip(&reported) {
        assert_eq!(
            (&row.1, &row.7, &row.8, &row.9, row.10),
            (code, severity, &name, pointer, *line)
        );
        assert_eq!(row.12, *related);
        assert_eq!(row.11, related.as_ref().map(|_| name.clone()));
    }
    assert_eq!(
        found[2].12.as_deref(),
        Some("/data/AAA/cards/0/uuid"),
        "the first given, in the other set"
    );
    let connection = Connection::open(&db).expect("the database");
    let messages: Vec<String> = connection
        .prepare("SELECT message FROM reference_findings ORDER BY rowid")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect())
        .expect("the messages");
    let said: Vec<String> = reported.into_iter().map(|r| r.5).collect();
    assert_eq!(messages, said);
}

#[test]
fn without_the_flag_the_table_is_there_and_empty_and_the_configuration_asks_for_it() {
    let (dir, input, db) = catalog_and_database();
    cardkit()
        .args(["export", "--no-config", "--to"])
        .args([&db, &input])
        .assert()
        .code(0);
    assert!(rows(&db).is_empty());
    // `references = true` in the configuration: the same findings, and the
    // set exported again replaces its findings (the others are kept).
    let config = dir.path().join("cardkit.toml");
    std::fs::write(&config, "references = true\n").expect("the configuration");
    cardkit()
        .args(["export", "--config"])
        .arg(&config)
        .arg("--to")
        .args([&db, &input])
        .assert()
        .code(0);
    assert_eq!(rows(&db).len(), 4);
    cardkit()
        .args(["export", "--config"])
        .arg(&config)
        .arg("--to")
        .args([&db, &input])
        .assert()
        .code(0);
    assert_eq!(rows(&db).len(), 4, "replaced, not added");
    // The flag wins over the file: without findings, the sets exported
    // again keep none.
    cardkit()
        .args(["export", "--references=false", "--config"])
        .arg(&config)
        .arg("--to")
        .args([&db, &input])
        .assert()
        .code(0);
    assert!(rows(&db).is_empty());
}

#[test]
fn as_errors_the_findings_fail_the_run_or_are_counted_as_on_invalid_says() {
    let (_dir, input, db) = catalog_and_database();
    let out = cardkit()
        .args(["export", "--no-config", "--references=error", "--to"])
        .args([&db, &input])
        .output()
        .expect("cardkit runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[duplicate_id]"), "{stderr}");
    assert!(
        stderr.contains("nothing was exported") && stderr.contains("2 of 2 documents are invalid"),
        "{stderr}"
    );
    assert!(!db.exists(), "nothing committed");

    let out = cardkit()
        .args([
            "export",
            "--no-config",
            "--references=error",
            "--on-invalid",
            "skip",
            "--to",
        ])
        .args([&db, &input])
        .output()
        .expect("cardkit runs");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("2 exported documents were made invalid by errors in their references"),
        "{stdout}"
    );
    let found = rows(&db);
    assert_eq!(found.len(), 4);
    assert!(found.iter().all(|row| row.7 == "error"));
}

#[test]
fn describe_lists_the_tables_columns() {
    let out = cardkit()
        .args(["export", "--describe"])
        .output()
        .expect("cardkit runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let table = text
        .split("\nreference_findings: ")
        .nth(1)
        .expect("the table is described");
    for column in [
        "set_code",
        "code",
        "kind",
        "position",
        "field",
        "item",
        "value",
        "severity",
        "message",
        "input",
        "pointer",
        "line",
        "related_input",
        "related_pointer",
    ] {
        assert!(
            table
                .lines()
                .any(|line| line.trim_start().starts_with(&format!("{column} "))),
            "{column}: {table}"
        );
    }
}
