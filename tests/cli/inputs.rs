//! What `cardkit validate` reads: files, directories searched for JSON and
//! JSON Lines files, standard input (one document, or JSON Lines), and paths
//! that cannot be read, are empty or do not hold JSON.

use crate::support;

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use support::migrations::{migration_line, BAD_MIGRATION, GOOD_ID, MIGRATION};
use support::report::{codes, json_report, keys};
use support::{cardkit, dir_with, show};

#[test]
fn an_unreadable_path_exits_2_and_the_other_paths_are_still_checked() {
    let dir = dir_with(&[("good.json", MIGRATION), ("bad.json", BAD_MIGRATION)]);
    let missing = show(&dir.path().join("missing.json"));
    let good = show(&dir.path().join("good.json"));
    let bad = show(&dir.path().join("bad.json"));
    cardkit()
        .args(["validate", &missing, &good, &bad])
        .assert()
        .code(2)
        .stdout(contains(format!(
            "{missing}: error: cannot read: No such file or directory"
        )))
        .stdout(contains(format!("{bad}:3:9: error[wrong_type]")))
        .stdout(contains(
            "checked 2 documents in 3 files: 1 valid, 1 invalid, 1 path unreadable\n",
        ));

    // The same in JSON: the path is reported with `error` and no documents.
    let report = json_report(&[&missing, &good, &bad], None, 2);
    let files = report["files"].as_array().expect("files");
    assert_eq!(files.len(), 3);
    assert_eq!(keys(&files[0]), ["documents", "error", "path", "valid"]);
    assert_eq!(files[0]["path"], missing.as_str());
    assert_eq!(files[0]["valid"], false);
    assert!(files[0]["error"]
        .as_str()
        .expect("error is a string")
        .contains("No such file or directory"));
    assert_eq!(files[0]["documents"], Value::Array(Vec::new()));
    assert_eq!(files[1]["valid"], true);
    assert_eq!(files[2]["valid"], false);
    assert_eq!(report["summary"]["files"], 2);
    assert_eq!(report["summary"]["unreadable"], 1);
}

#[test]
fn a_directory_is_searched_recursively_for_json_files_in_name_order() {
    let dir = dir_with(&[
        ("z.json", MIGRATION),
        (
            "a.jsonl",
            &format!("{}\n{}\n", migration_line(GOOD_ID), migration_line(GOOD_ID)),
        ),
        ("m/c.ndjson", &format!("{}\n", migration_line("5"))),
        ("m/skip.txt", "not json at all"),
        ("notes.md", "# not json"),
        ("data.json.bak", "{"),
    ]);
    let root = show(dir.path());
    let report = json_report(&[&root], None, 1);
    let files = report["files"].as_array().expect("files");
    let paths: Vec<&str> = files
        .iter()
        .map(|f| f["path"].as_str().expect("path"))
        .collect();
    let expected: Vec<String> = ["a.jsonl", "m/c.ndjson", "z.json"]
        .iter()
        .map(|name| show(&dir.path().join(name)))
        .collect();
    assert_eq!(paths, expected);

    // `.jsonl` and `.ndjson` are read as JSON Lines: documents carry a line.
    let a = &files[0]["documents"];
    assert_eq!(a.as_array().expect("documents").len(), 2);
    assert_eq!(a[0]["line"], 1);
    assert_eq!(a[1]["line"], 2);
    assert_eq!(files[1]["documents"][0]["line"], 1);
    assert_eq!(codes(&files[1]["documents"][0]), ["wrong_type"]);
    // A plain `.json` file is one value: no `line`.
    assert!(files[2]["documents"][0].get("line").is_none());
    assert_eq!(report["summary"]["files"], 3);
    assert_eq!(report["summary"]["documents"], 4);

    // In text, only the invalid file is mentioned; the others are not read.
    cardkit()
        .args(["validate", &root])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{}:1:31: error[wrong_type]",
            show(&dir.path().join("m/c.ndjson"))
        )))
        .stdout(contains("skip.txt").not())
        .stdout(contains("notes.md").not())
        .stdout(contains("data.json.bak").not())
        .stdout(contains(
            "checked 4 documents in 3 files: 3 valid, 1 invalid\n",
        ));
}

#[test]
fn stdin_holds_one_document() {
    cardkit()
        .args(["validate", "-"])
        .write_stdin(MIGRATION)
        .assert()
        .code(0)
        .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\nread: 1 file under the spec's names\n");

    let report = json_report(&["-"], Some(MIGRATION), 0);
    let file = &report["files"][0];
    assert_eq!(file["path"], "<stdin>");
    assert_eq!(file["layout"], "bare");
    assert_eq!(file["documents"].as_array().expect("documents").len(), 1);
    assert!(file["documents"][0].get("line").is_none());

    cardkit()
        .args(["validate", "-"])
        .write_stdin(BAD_MIGRATION)
        .assert()
        .code(1)
        .stdout(contains("<stdin>:3:9: error[wrong_type]"));
}

#[test]
fn json_lines_are_sniffed_on_stdin() {
    let input = format!("{}\n{}\n", migration_line(GOOD_ID), migration_line("5"));
    let report = json_report(&["-"], Some(&input), 1);
    let file = &report["files"][0];
    assert_eq!(file["path"], "<stdin>");
    assert_eq!(file["layout"], "array");
    let documents = file["documents"].as_array().expect("documents");
    assert_eq!(documents.len(), 2);
    assert_eq!(documents[0]["line"], 1);
    assert_eq!(documents[0]["valid"], true);
    assert_eq!(documents[1]["line"], 2);
    assert_eq!(documents[1]["valid"], false);
    assert_eq!(documents[1]["diagnostics"][0]["line"], 2);

    cardkit()
        .args(["validate", "-"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(contains(
            "<stdin>:2:31: error[wrong_type]: expected a uuid string, found number 5",
        ))
        .stdout(contains(
            "checked 2 documents in 1 file: 1 valid, 1 invalid\n",
        ));
}

#[test]
fn empty_input_is_invalid_json() {
    let empty = "empty input: expected a JSON document";
    cardkit()
        .args(["validate", "-"])
        .write_stdin("")
        .assert()
        .code(1)
        .stdout(contains(format!(
            "<stdin>:1:1: error[invalid_json]: {empty}"
        )))
        .stdout(contains(
            "checked 1 document in 1 file: 0 valid, 1 invalid\n",
        ));

    let dir = dir_with(&[("empty.json", "")]);
    let path = show(&dir.path().join("empty.json"));
    cardkit()
        .args(["validate", &path])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{path}:1:1: error[invalid_json]: {empty}"
        )))
        .stdout(contains("errors: 1 (invalid_json 1)\n"));

    let report = json_report(&[&path], None, 1);
    let document = &report["files"][0]["documents"][0];
    assert_eq!(document["kind"], Value::Null);
    assert_eq!(codes(document), ["invalid_json"]);
    assert_eq!(report["summary"]["bytes"], 0);
}

#[test]
fn a_file_that_is_not_json_is_invalid_json() {
    let dir = dir_with(&[
        ("prose.json", "hello world\n"),
        (
            "broken.json",
            "{\"name\": \"Classic\", \"card\": {\"name\": \"x\",, }\n",
        ),
    ]);
    let prose = show(&dir.path().join("prose.json"));
    let broken = show(&dir.path().join("broken.json"));
    cardkit()
        .args(["validate", &prose, &broken])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{prose}:1:1: error[invalid_json]: expected a JSON value, found `h`"
        )))
        .stdout(contains(format!(
            "{broken}:1:42: error[invalid_json]: expected a member name in double quotes, found `,`\n"
        )))
        .stdout(contains("checked 2 documents in 2 files: 0 valid, 2 invalid\n"));
}
