//! The `cardkit` binary as a user runs it: exit statuses, what is printed for
//! files, directories and standard input, the JSON report's shape, the flags,
//! the help and usage errors.

mod support;

use std::process::{Command as StdCommand, Stdio};

use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;
use support::{cardkit, dir_with, examples_dir, show, workspace_dir};

/// A valid migration, pretty-printed over several lines.
const MIGRATION: &str = r#"{
  "object": "migration",
  "id": "0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e",
  "uri": "https://api.catalog.example.org/migrations/0fca5b4c",
  "created_at": "2023-01-15",
  "migration_strategy": "merge",
  "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0",
  "new_catalogA_id": "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b",
  "note": null
}
"#;

/// A migration whose `id` is a number (line 3, column 9) and that has an
/// unknown member `colour` (line 9, column 3).
const BAD_MIGRATION: &str = r#"{
  "object": "migration",
  "id": 5,
  "uri": "https://api.catalog.example.org/migrations/0fca5b4c",
  "created_at": "2023-01-15",
  "migration_strategy": "merge",
  "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0",
  "new_catalogA_id": null,
  "colour": "red"
}
"#;

/// A valid migration with one unknown member `colour` (line 2, column 2).
const MIGRATION_WITH_UNKNOWN: &str = r#"{"object": "migration", "uri": "https://e.org/m",
 "colour": "red", "created_at": "2023-01-15", "migration_strategy": "delete",
 "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}
"#;

/// One migration on one line, with the given id.
fn migration_line(id: &str) -> String {
    format!(
        r#"{{"object": "migration", "id": {id}, "uri": "https://e.org/m", "created_at": "2023-01-15", "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0", "new_catalogA_id": null}}"#
    )
}

const GOOD_ID: &str = r#""0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e""#;

/// Runs `cardkit validate --format json ARGS…` and parses its output.
fn json_report(args: &[&str], stdin: Option<&str>, code: i32) -> Value {
    let mut cmd = cardkit();
    cmd.args(["validate", "--format", "json"]).args(args);
    if let Some(stdin) = stdin {
        cmd.write_stdin(stdin);
    }
    parse(&cmd.assert().code(code).get_output().stdout)
}

fn parse(output: &[u8]) -> Value {
    serde_json::from_slice(output).unwrap_or_else(|error| {
        panic!(
            "--format json output is not JSON ({error}):\n{}",
            String::from_utf8_lossy(output)
        )
    })
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn codes(document: &Value) -> Vec<&str> {
    document["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect()
}

#[test]
fn a_valid_file_exits_0_with_only_the_summary() {
    let dir = dir_with(&[("m.json", MIGRATION)]);
    cardkit()
        .arg("validate")
        .arg(dir.path().join("m.json"))
        .assert()
        .code(0)
        .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\n")
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
        .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\n");

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
    assert_eq!(keys(file), ["documents", "layout", "path", "valid"]);
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
fn kind_forces_the_kind_of_every_document() {
    let dir = dir_with(&[("m.json", MIGRATION)]);
    let path = show(&dir.path().join("m.json"));
    cardkit()
        .args(["validate", "--kind", "migration", &path])
        .assert()
        .code(0);
    cardkit()
        .args(["validate", "--kind", "set", &path])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{path}:1:1: error[missing_field]: missing required field `cards` of Set"
        )))
        .stdout(contains(format!(
            "{path}:2:3: warning[unknown_field]: unknown field `object` in Set"
        )));

    let report = json_report(&["--kind", "set", &path], None, 1);
    let document = &report["files"][0]["documents"][0];
    assert_eq!(document["kind"], "set");
    assert!(codes(document).contains(&"missing_field"));
    assert_eq!(report["summary"]["invalid"], 1);
}

#[test]
fn deny_unknown_fields_makes_unknown_fields_errors() {
    let dir = dir_with(&[("m.json", MIGRATION_WITH_UNKNOWN)]);
    let path = show(&dir.path().join("m.json"));
    cardkit()
        .args(["validate", &path])
        .assert()
        .code(0)
        .stdout(contains(format!(
            "{path}:2:2: warning[unknown_field]: unknown field `colour` in Migration"
        )))
        .stdout(contains(
            "checked 1 document in 1 file: 1 valid, 0 invalid\n\
             warnings: 1 (unknown_field 1)\n",
        ));
    cardkit()
        .args(["validate", "--deny-unknown-fields", &path])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{path}:2:2: error[unknown_field]: unknown field `colour` in Migration"
        )))
        .stdout(contains(
            "checked 1 document in 1 file: 0 valid, 1 invalid\n\
             errors: 1 (unknown_field 1)\n",
        ));
    let report = json_report(&["--deny-unknown-fields", &path], None, 1);
    let diagnostic = &report["files"][0]["documents"][0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "unknown_field");
    assert_eq!(diagnostic["severity"], "error");
}

/// A template whose five fonts each have the same unknown member `colour`.
const FIVE_UNKNOWN_FONT_FIELDS: &str = r#"{
  "name": "Fonts",
  "context": {
    "fonts": [
      {"name": "A", "src": "a.woff2", "colour": "red"},
      {"name": "B", "src": "b.woff2", "colour": "red"},
      {"name": "C", "src": "c.woff2", "colour": "red"},
      {"name": "D", "src": "d.woff2", "colour": "red"},
      {"name": "E", "src": "e.woff2", "colour": "red"}
    ]
  },
  "card": {"name": "Card", "width": 100, "height": 100, "data": {"type": "group", "children": []}}
}
"#;

#[test]
fn warning_limit_holds_back_repeated_warnings() {
    let dir = dir_with(&[("t.json", FIVE_UNKNOWN_FONT_FIELDS)]);
    let path = show(&dir.path().join("t.json"));
    let shown = |stdout: &str| stdout.matches("warning[unknown_field]").count();

    let output = cardkit().args(["validate", &path]).assert().code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(shown(&stdout), 3, "{stdout}");
    for line in 5..=7 {
        assert!(stdout.contains(&format!("{path}:{line}:39: warning[unknown_field]")));
    }
    assert!(stdout.contains(
        "note: 2 more unknown_field warnings like TemplateFont.colour not shown (5 in all)\n\
         checked 1 document in 1 file: 1 valid, 0 invalid\n\
         warnings: 5 (unknown_field 5)\n"
    ));

    let output = cardkit()
        .args(["validate", "--warning-limit", "0", &path])
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(shown(&stdout), 5, "{stdout}");
    assert!(!stdout.contains("note:"));

    let output = cardkit()
        .args(["validate", "--warning-limit", "4", &path])
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(shown(&stdout), 4, "{stdout}");
    assert!(stdout.contains("note: 1 more unknown_field warnings like TemplateFont.colour"));

    // JSON: the shown warnings are listed, the rest counted in `suppressed`.
    let report = json_report(&[&path], None, 0);
    assert_eq!(codes(&report["files"][0]["documents"][0]).len(), 3);
    assert_eq!(
        report["suppressed"],
        serde_json::json!([
            {"code": "unknown_field", "pattern": "TemplateFont.colour", "total": 5, "shown": 3}
        ])
    );
    assert_eq!(report["summary"]["warnings"]["unknown_field"], 5);
    let report = json_report(&["--warning-limit", "0", &path], None, 0);
    assert_eq!(codes(&report["files"][0]["documents"][0]).len(), 5);
    assert_eq!(report["suppressed"], Value::Array(Vec::new()));
}

#[test]
fn warning_limit_never_holds_back_errors() {
    let dir = dir_with(&[("t.json", FIVE_UNKNOWN_FONT_FIELDS)]);
    let path = show(&dir.path().join("t.json"));
    let output = cardkit()
        .args([
            "validate",
            "--deny-unknown-fields",
            "--warning-limit",
            "1",
            &path,
        ])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(
        stdout.matches("error[unknown_field]").count(),
        5,
        "{stdout}"
    );
    assert!(!stdout.contains("note:"));
}

#[test]
fn dummy_prints_a_template_that_validates() {
    let output = cardkit().arg("dummy").assert().code(0).stderr("");
    let template: Value =
        serde_json::from_slice(&output.get_output().stdout).expect("dummy prints JSON");
    assert_eq!(template["name"], "Dummy");
    assert_eq!(template["card"]["width"], 100);
    assert_eq!(template["card"]["height"], 100);

    // `cardkit dummy | cardkit validate --kind template -`, through a real pipe.
    let mut dummy = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .arg("dummy")
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn cardkit dummy");
    let pipe = dummy.stdout.take().expect("dummy's stdout");
    let validate = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .args(["validate", "--kind", "template", "-"])
        .stdin(Stdio::from(pipe))
        .output()
        .expect("run cardkit validate");
    assert!(dummy.wait().expect("wait for dummy").success());
    assert_eq!(
        String::from_utf8_lossy(&validate.stdout),
        "checked 1 document in 1 file: 1 valid, 0 invalid\n"
    );
    assert_eq!(validate.status.code(), Some(0));

    // And without `--kind`, it is told to be a template.
    let report = json_report(
        &["-"],
        Some(&String::from_utf8_lossy(&output.get_output().stdout)),
        0,
    );
    assert_eq!(report["files"][0]["documents"][0]["kind"], "template");
}

#[test]
fn help_explains_every_flag_with_examples() {
    cardkit()
        .arg("--help")
        .assert()
        .code(0)
        .stdout(contains("validate"))
        .stdout(contains("dummy"))
        .stdout(contains("--help"))
        .stdout(contains("--version"))
        .stdout(contains("Examples:"))
        .stdout(contains("cardkit validate examples/"));

    let output = cardkit().args(["validate", "--help"]).assert().code(0);
    let help = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    for flag in [
        "--kind",
        "--format",
        "--deny-unknown-fields",
        "--as-of",
        "--strict-version",
        "--warn",
        "--warning-limit",
        "<PATH>",
        "--help",
    ] {
        assert!(
            help.contains(flag),
            "validate --help does not mention {flag}:\n{help}"
        );
    }
    for value in ["auto, template, card, set, migration", "text, json"] {
        assert!(
            help.contains(value),
            "validate --help does not list {value}"
        );
    }
    assert!(help.contains("Examples:"));
    assert!(help.contains("Exit status"));
    // PATH and each of the seven flags has its own example.
    assert!(help.matches("Example: ").count() >= 8, "{help}");

    cardkit()
        .args(["dummy", "--help"])
        .assert()
        .code(0)
        .stdout(contains("cardkit dummy > template.json"));
}

#[test]
fn usage_errors_exit_2() {
    cardkit()
        .args(["validate", "--bogus", "x.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("unexpected argument '--bogus'"));
    cardkit()
        .arg("validate")
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("required arguments were not provided").and(contains("<PATH>")));
    cardkit()
        .args(["validate", "--kind", "deck", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'deck' for '--kind <KIND>'"));
    cardkit()
        .args(["validate", "--format", "yaml", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'yaml'"));
    cardkit()
        .args(["validate", "--warning-limit", "many", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'many'"));
    cardkit().assert().code(2).stdout("");
    cardkit()
        .arg("frobnicate")
        .assert()
        .code(2)
        .stderr(contains("unrecognized subcommand 'frobnicate'"));
}

/// A set of 4 cards in the v5.2.1 shape: each card carries the deprecated
/// `convertedManaCost`, `hasFoil` and `hasNonFoil`, and `language` (v5.2.1).
fn set_with_cards(cards: usize) -> String {
    let card = r#"{"uuid": "5f8287b1-5bb6-5f4c-ad17-316a40d5bb01", "availability": ["paper"],
      "borderColor": "black", "colorIdentity": [], "colors": [], "convertedManaCost": 1,
      "finishes": ["nonfoil"], "foreignData": [], "frameVersion": "2015", "hasFoil": false,
      "hasNonFoil": true, "identifiers": {}, "language": "English", "layout": "normal",
      "legalities": {}, "manaValue": 1, "name": "Spark", "number": "1", "purchaseUrls": {},
      "rarity": "common", "setCode": "EXA", "subtypes": [], "supertypes": [],
      "type": "Instant", "types": ["Instant"]}"#;
    let cards = vec![card; cards].join(",\n    ");
    format!(
        r#"{{"baseSetSize": 1, "cards": [{cards}], "code": "EXA", "iconCode": "exa",
  "isFoilOnly": false, "isOnlineOnly": false, "languages": ["English"], "name": "Example",
  "releaseDate": "2024-05-17", "sealedProduct": null, "tokens": [], "totalSetSize": 1,
  "translations": {{}}, "type": "expansion"}}"#
    )
}

#[test]
fn as_of_reports_newer_fields_and_does_not_require_them() {
    let dir = dir_with(&[("set.json", &set_with_cards(4))]);
    let path = show(&dir.path().join("set.json"));
    let report = json_report(&["--as-of", "v5.2.0", &path], None, 0);
    // `languages` and four cards' `language` came in v5.2.1.
    assert_eq!(
        report["summary"]["warnings"],
        serde_json::json!({"newer_field": 5})
    );
    let report = json_report(&["--as-of", "v5.2.0", "--strict-version", &path], None, 1);
    assert_eq!(
        report["summary"]["errors"],
        serde_json::json!({"newer_field": 5})
    );
    // Without `languages`, the document is still valid for v5.2.0 consumers,
    // and invalid for v5.2.1 ones.
    let without = set_with_cards(1).replace(r#""languages": ["English"], "#, "");
    let dir = dir_with(&[("old.json", &without)]);
    let old = show(&dir.path().join("old.json"));
    cardkit()
        .args(["validate", "--as-of", "5.2.0", &old])
        .assert()
        .code(0);
    cardkit()
        .args(["validate", "--as-of", "v5.2.1", &old])
        .assert()
        .code(1)
        .stdout(contains(
            "error[missing_field]: missing required field `languages` of Set",
        ));
}

#[test]
fn warn_deprecated_is_summarised_per_field() {
    let dir = dir_with(&[("set.json", &set_with_cards(4))]);
    let path = show(&dir.path().join("set.json"));
    let output = cardkit().args(["validate", &path]).assert().code(0);
    let quiet = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(!quiet.contains("deprecated"), "{quiet}");

    let output = cardkit()
        .args(["validate", "--warn", "deprecated", &path])
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(
        stdout.matches("warning[deprecated_field]").count(),
        9,
        "{stdout}"
    );
    for field in ["convertedManaCost", "hasFoil", "hasNonFoil"] {
        assert!(stdout.contains(&format!(
            "note: 1 more deprecated_field warnings like CardSet.{field} not shown (4 in all)"
        )));
    }
    assert!(
        stdout.contains("warnings: 12 (deprecated_field 12)"),
        "{stdout}"
    );
}

#[test]
fn a_malformed_or_too_old_version_is_a_usage_error() {
    for (version, why) in [
        ("5.x", "is not a version tag: expected vMAJOR.MINOR.PATCH"),
        ("v5.2", "is not a version tag"),
        (
            "v3.9.9",
            "older than the first version of the format (v4.0.0)",
        ),
    ] {
        cardkit()
            .args(["validate", "--as-of", version, "x.json"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(format!(
                "invalid value '{version}' for '--as-of <vX.Y.Z>'"
            )))
            .stderr(contains(why));
    }
    cardkit()
        .args(["validate", "--strict-version", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("--as-of"));
    cardkit()
        .args(["validate", "--warn", "everything", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'everything' for '--warn <WHAT>'"));
}

#[test]
fn writing_into_a_closed_pipe_is_not_an_error() {
    // Far more output than a pipe holds (some 10 MB of diagnostics), so the
    // command is bound to write after the reader is gone. The documents are
    // invalid: the exit status still says so.
    let documents = vec![r#"{"object": "migration"}"#; 20_000].join(",\n");
    let dir = dir_with(&[("many.json", &format!("[{documents}]\n"))]);
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .arg("validate")
        .arg(dir.path().join("many.json"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cardkit");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("wait for cardkit");
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "",
        "a closed pipe is reported"
    );
    assert_eq!(output.status.code(), Some(1), "{:?}", output.status);
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
    // The summary is the closing part: nothing but totals follows it.
    let after: Vec<&str> = stdout
        .lines()
        .skip_while(|l| *l != summary)
        .skip(1)
        .collect();
    assert!(
        after
            .iter()
            .all(|l| l.starts_with("errors: ") || l.starts_with("warnings: ")),
        "{after:?}"
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
    for folder in ["invalid", "valid"] {
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
