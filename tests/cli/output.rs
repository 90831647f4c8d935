//! What `cardkit validate` prints and its exit status: the summary of a
//! valid run, located diagnostics, errors that fail the run, the JSON
//! report's documented shape, a reader that goes away, and the README's
//! first command on the bundled examples.

use crate::support;

use std::ffi::OsStr;

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use support::migrations::{migration_line, BAD_MIGRATION, GOOD_ID, MIGRATION};
use support::report::{json_report, keys, parse};
use support::{cardkit, dir_with, examples_dir, into_a_closed_pipe, show, workspace_dir, Stream};

#[test]
fn a_valid_file_exits_0_with_only_the_summary() {
    let dir = dir_with(&[("m.json", MIGRATION)]);
    cardkit()
        .arg("validate")
        .arg(dir.path().join("m.json"))
        .assert()
        .code(0)
        .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\nread: 1 file under the spec's names\n")
        .stderr("");
}

#[test]
fn an_invalid_file_exits_1_with_located_diagnostics() {
    let dir = dir_with(&[("bad.json", BAD_MIGRATION)]);
    let path = show(&dir.path().join("bad.json"));
    cardkit()
        .args(["validate", &path])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{path}:3:9: error[wrong_type]: expected a uuid string, found number 5\n \
             --> /id\n  |\n3 |   \"id\": 5,\n  |         ^\n"
        )))
        .stdout(contains(format!(
            "{path}:9:3: warning[unknown_field]: unknown field `colour` in Migration"
        )))
        .stdout(contains(
            "checked 1 document in 1 file: 0 valid, 1 invalid\n\
             errors: 1 (wrong_type 1)\n\
             warnings: 1 (unknown_field 1)\n",
        ))
        .stderr("");
}

/// Errors found outside the documents that are counted (a JSON Lines line
/// that is not JSON, array items of unknown kind, a cut-off array after valid
/// items) must make the run fail. Today they are reported but the exit status
/// is 0 and the summary says "0 invalid": `Summary::add` counts a kind-less
/// report only when it is the file's only one.
#[test]
fn errors_around_documents_make_the_run_fail() {
    let dir = dir_with(&[
        (
            "mixed.jsonl",
            &format!("{}\nnope\n", migration_line(GOOD_ID)),
        ),
        ("unknown.json", r#"[{"a": 1}, {"b": 2}]"#),
        ("cut.json", &format!("[{}, ", migration_line(GOOD_ID))),
    ]);
    for name in ["mixed.jsonl", "unknown.json", "cut.json"] {
        cardkit()
            .arg("validate")
            .arg(dir.path().join(name))
            .assert()
            .code(1)
            .stdout(contains(" 0 invalid").not());
    }
}

#[test]
fn json_output_has_the_documented_shape() {
    let dir = dir_with(&[("bad.json", BAD_MIGRATION)]);
    let bad = show(&dir.path().join("bad.json"));
    let missing = show(&dir.path().join("missing.json"));
    let report = json_report(&[&bad, &missing], None, 2);
    assert_eq!(keys(&report), ["files", "summary", "suppressed"]);

    let files = report["files"].as_array().expect("files is an array");
    assert_eq!(files.len(), 2);
    let file = &files[0];
    // A migration's file says how it was read (its names).
    assert_eq!(
        keys(file),
        ["documents", "layout", "path", "reading", "valid"]
    );
    assert_eq!(file["path"], bad.as_str());
    assert_eq!(file["valid"], false);
    assert_eq!(file["layout"], "bare");

    let documents = file["documents"].as_array().expect("documents is an array");
    assert_eq!(documents.len(), 1);
    let document = &documents[0];
    assert_eq!(keys(document), ["diagnostics", "kind", "pointer", "valid"]);
    assert_eq!(document["pointer"], "");
    assert_eq!(document["kind"], "migration");
    assert_eq!(document["valid"], false);

    let diagnostics = document["diagnostics"].as_array().expect("an array");
    assert_eq!(diagnostics.len(), 2);
    let error = &diagnostics[0];
    assert_eq!(
        keys(error),
        [
            "code", "column", "expected", "field", "found", "line", "message", "offset", "pointer",
            "severity"
        ]
    );
    assert_eq!(error["expected"], "uuid string");
    assert_eq!(error["found"], "number 5");
    assert_eq!(error["code"], "wrong_type");
    assert_eq!(error["severity"], "error");
    assert_eq!(error["pointer"], "/id");
    assert_eq!(error["field"], "Migration.id");
    assert_eq!(error["message"], "expected a uuid string, found number 5");
    assert_eq!(error["offset"], BAD_MIGRATION.find("5,").expect("the id"));
    assert_eq!(error["line"], 3);
    assert_eq!(error["column"], 9);
    let warning = &diagnostics[1];
    assert_eq!(warning["code"], "unknown_field");
    assert_eq!(warning["severity"], "warning");
    assert_eq!(warning["pointer"], "/colour");
    assert_eq!(
        warning["offset"],
        BAD_MIGRATION.find("\"colour\"").expect("colour")
    );
    assert_eq!(warning["line"], 9);
    assert_eq!(warning["column"], 3);

    assert_eq!(files[1]["path"], missing.as_str());
    assert!(files[1]["error"].is_string());
    assert!(files[1].get("layout").is_none());

    assert_eq!(report["suppressed"], Value::Array(Vec::new()));
    let summary = &report["summary"];
    assert_eq!(
        keys(summary),
        [
            "bytes",
            "documents",
            "errors",
            "files",
            "invalid",
            "read_under",
            "seconds",
            "unreadable",
            "valid",
            "warnings"
        ]
    );
    assert_eq!(summary["files"], 1);
    assert_eq!(summary["unreadable"], 1);
    assert_eq!(summary["documents"], 1);
    assert_eq!(summary["valid"], 0);
    assert_eq!(summary["invalid"], 1);
    assert_eq!(summary["errors"], serde_json::json!({"wrong_type": 1}));
    assert_eq!(summary["warnings"], serde_json::json!({"unknown_field": 1}));
    assert_eq!(summary["bytes"], BAD_MIGRATION.len());
}

#[test]
fn writing_into_a_closed_pipe_is_not_an_error() {
    // Far more output than a pipe holds (some 10 MB of diagnostics), so the
    // command is bound to write after the reader is gone. The documents are
    // invalid: the exit status still says so.
    let documents = vec![r#"{"object": "migration"}"#; 20_000].join(",\n");
    let dir = dir_with(&[("many.json", &format!("[{documents}]\n"))]);
    let many = dir.path().join("many.json");
    let (status, stderr) =
        into_a_closed_pipe([OsStr::new("validate"), many.as_os_str()], Stream::Stdout);
    assert_eq!(stderr, "", "a closed pipe is reported");
    assert_eq!(status, Some(1));
}

#[test]
fn the_readme_command_reports_the_bundled_examples() {
    // `cardkit validate examples/`, run from the repository's root.
    let output = cardkit()
        .current_dir(workspace_dir())
        .args(["validate", "examples/"])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(stdout.contains("examples/invalid/"), "{stdout}");
    assert!(stdout.contains(": error["), "{stdout}");
    let summary = stdout
        .lines()
        .find(|line| line.starts_with("checked "))
        .unwrap_or_else(|| panic!("no closing summary line:\n{stdout}"));
    let counts: Vec<usize> = summary
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().expect("a count"))
        .collect();
    let [documents, _files, valid, invalid] = counts[..] else {
        panic!("unexpected summary line: {summary}");
    };
    assert!(valid > 0 && invalid > 0, "{summary}");
    assert_eq!(valid + invalid, documents, "{summary}");
    // The summary is the closing part: nothing but totals follows it, then
    // one line that names `cardkit explain` for the codes shown.
    let after: Vec<&str> = stdout
        .lines()
        .skip_while(|l| *l != summary)
        .skip(1)
        .collect();
    let (help, totals) = after.split_last().expect("lines after the summary");
    assert!(
        totals.iter().all(|l| l.starts_with("errors: ")
            || l.starts_with("warnings: ")
            || l.starts_with("read: ")),
        "{after:?}"
    );
    assert!(
        help.starts_with("help: for more about a code, run cardkit explain wrong_type (or "),
        "{help}"
    );

    // Every file is reported in JSON: the valid ones valid, and each invalid
    // example showing at least one problem.
    let output = cardkit()
        .current_dir(workspace_dir())
        .args(["validate", "--format", "json", "examples/"])
        .assert()
        .code(1);
    let report = parse(&output.get_output().stdout);
    let files = report["files"].as_array().expect("files");
    let mut on_disk: Vec<String> = Vec::new();
    for folder in ["invalid", "published", "valid"] {
        let mut names: Vec<String> = std::fs::read_dir(examples_dir().join(folder))
            .expect("examples folder")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|name| {
                [".json", ".jsonl", ".ndjson"]
                    .iter()
                    .any(|e| name.ends_with(e))
            })
            .collect();
        names.sort();
        on_disk.extend(names.into_iter().map(|n| format!("examples/{folder}/{n}")));
    }
    let reported: Vec<&str> = files
        .iter()
        .map(|f| f["path"].as_str().expect("path"))
        .collect();
    assert_eq!(reported, on_disk);
    for file in files {
        let path = file["path"].as_str().expect("path");
        let diagnostics: usize = file["documents"]
            .as_array()
            .expect("documents")
            .iter()
            .map(|d| d["diagnostics"].as_array().expect("diagnostics").len())
            .sum();
        if path.starts_with("examples/valid/") {
            assert_eq!(file["valid"], true, "{path}");
            assert_eq!(diagnostics, 0, "{path}");
        } else {
            assert!(diagnostics > 0, "{path} shows no problem");
        }
    }
    assert!(files.iter().any(|f| f["valid"] == false));
}

#[test]
fn the_text_report_ends_with_help_for_the_codes_shown() {
    let run = |args: &[&str], code: i32| {
        let output = cardkit()
            .current_dir(workspace_dir())
            .args(args)
            .assert()
            .code(code)
            .get_output()
            .clone();
        String::from_utf8(output.stdout).expect("UTF-8 output")
    };
    let text = run(&["validate", "examples/invalid/duplicate-keys.json"], 0);
    assert_eq!(
        text.lines().last(),
        Some("help: for more about a code, run cardkit explain duplicate_key"),
        "{text}"
    );
    // Only what was shown: no help for a valid file, none in other formats.
    let text = run(&["validate", "examples/valid/card.json"], 0);
    assert!(!text.contains("help:"), "{text}");
    let json = run(
        &[
            "validate",
            "--format",
            "json",
            "examples/invalid/duplicate-keys.json",
        ],
        0,
    );
    assert!(!json.contains("help:"), "{json}");
}
