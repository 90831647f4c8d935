//! Which files a directory search checks, as a linter's: ignore files
//! (outside git too), hidden files, the `exclude` globs of the configuration
//! and of `--exclude`, `--no-ignore`, and files found that are no card
//! documents (skipped and counted in every format), while a file named is
//! always checked.

use crate::support;

use std::path::Path;

use predicates::str::contains;
use serde_json::Value;
use support::migrations::BAD_MIGRATION;
use support::report::parse;
use support::{cardkit, examples_dir, shared_dir};

const PACKAGE: &str = r#"{
  "name": "card-site",
  "version": "1.4.0",
  "type": "module",
  "scripts": {"build": "vite build"},
  "dependencies": {"lodash": "^4.17.21"},
  "devDependencies": {"vite": "^5.2.0"}
}
"#;

const TSCONFIG: &str = r#"{
  // TypeScript's files take comments.
  "compilerOptions": {"strict": true, "target": "es2022"},
  "include": ["src"]
}
"#;

/// A project beside its card data, in a temporary folder that is no git
/// repository: two sets in `sets/`, and what a linter must not check. Each
/// file that must not be checked but is a card document holds an invalid
/// one, so that checking it would show.
fn project(sets: [(&str, &Path); 2]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folders");
        std::fs::write(path, text).expect("write a file");
    };
    for (name, from) in sets {
        write(name, &std::fs::read_to_string(from).expect("a set"));
    }
    write("package.json", PACKAGE);
    write("tsconfig.json", TSCONFIG);
    write("node_modules/x/package.json", PACKAGE);
    write("node_modules/cards/migration.json", BAD_MIGRATION);
    write(".venv/lib/a.json", BAD_MIGRATION);
    write(".cache/b.json", BAD_MIGRATION);
    write(".gitignore", "# built, not kept\ngenerated/\n");
    write("generated/c.json", BAD_MIGRATION);
    write(".ignore", "scratch.json\n");
    write("scratch.json", BAD_MIGRATION);
    dir
}

/// The project with the two valid sets of the examples.
fn valid_project() -> tempfile::TempDir {
    let valid = examples_dir().join("valid");
    project([
        ("sets/set.json", &valid.join("set.json")),
        ("sets/set-wrapped.json", &valid.join("set-wrapped.json")),
    ])
}

/// `cardkit validate --format json ARGS…` in `dir`: the report, after the
/// exit status `code` is checked.
fn report_in(dir: &Path, args: &[&str], code: i32) -> Value {
    let output = cardkit()
        .current_dir(dir)
        .args(["validate", "--format", "json"])
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    parse(&output.stdout)
}

/// The paths of a JSON report's files.
fn paths(report: &Value) -> Vec<&str> {
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|file| file["path"].as_str().expect("path"))
        .collect()
}

#[test]
fn a_search_checks_the_card_data_and_counts_the_other_json_files() {
    let dir = valid_project();
    let report = report_in(dir.path(), &["."], 0);
    assert_eq!(
        paths(&report),
        ["./sets/set-wrapped.json", "./sets/set.json"]
    );
    assert_eq!(report["summary"]["files"], 2);
    assert_eq!(
        report["summary"]["skipped"], 2,
        "package.json and tsconfig.json"
    );

    let output = cardkit()
        .current_dir(dir.path())
        .args(["validate", "."])
        .assert()
        .code(0)
        .get_output()
        .clone();
    assert_snapshot!(
        "discovery_text",
        String::from_utf8(output.stdout).expect("UTF-8")
    );
}

#[test]
fn two_sets_of_the_corpus_are_checked_and_nothing_else() {
    let Some(shared) = shared_dir() else { return };
    let sets = shared.join("corpus/neutral/set");
    let dir = project([
        ("sets/L15.json", &sets.join("jsonsets_L15.json")),
        ("sets/TST.json", &sets.join("mtgjson-golden_set_TST.json")),
    ]);
    // The sets are invalid as published; nothing else is reported.
    let report = report_in(dir.path(), &["."], 1);
    assert_eq!(paths(&report), ["./sets/L15.json", "./sets/TST.json"]);
    assert_eq!(report["summary"]["skipped"], 2);
    assert!(report["summary"]["errors"]
        .as_object()
        .expect("errors")
        .keys()
        .all(|code| code != "unknown_kind"));
}

#[test]
fn no_ignore_checks_what_ignore_files_and_hidden_folders_left_out() {
    let dir = valid_project();
    let report = report_in(dir.path(), &["--no-ignore", "."], 1);
    // `.venv` and `node_modules` are in the default `exclude`, which
    // `--no-ignore` leaves in force.
    assert_eq!(
        paths(&report),
        [
            "./.cache/b.json",
            "./generated/c.json",
            "./scratch.json",
            "./sets/set-wrapped.json",
            "./sets/set.json",
        ]
    );
    assert_eq!(report["summary"]["skipped"], 2);
}

#[test]
fn the_configurations_exclude_replaces_the_default_list_and_extend_exclude_adds() {
    let dir = valid_project();
    std::fs::write(
        dir.path().join("cardkit.toml"),
        "extend-exclude = [\"/sets/set-wrapped.json\"]\n",
    )
    .expect("write cardkit.toml");
    let report = report_in(dir.path(), &["."], 0);
    assert_eq!(paths(&report), ["./sets/set.json"]);

    // Without the default list, node_modules/ is searched (its
    // package.json skipped, its migration checked); .venv/ is still hidden.
    std::fs::write(dir.path().join("cardkit.toml"), "exclude = []\n").expect("write");
    let report = report_in(dir.path(), &["."], 1);
    assert_eq!(
        paths(&report),
        [
            "./node_modules/cards/migration.json",
            "./sets/set-wrapped.json",
            "./sets/set.json",
        ]
    );
    assert_eq!(report["summary"]["skipped"], 3);

    // The globs are relative to the configuration's folder, wherever the
    // command runs.
    std::fs::write(
        dir.path().join("cardkit.toml"),
        "extend-exclude = [\"/sets/set.json\"]\n",
    )
    .expect("write");
    let report = report_in(&dir.path().join("sets"), &["."], 0);
    assert_eq!(paths(&report), ["./set-wrapped.json"]);
}

#[test]
fn exclude_on_the_command_line_adds_to_the_configurations() {
    let dir = valid_project();
    let report = report_in(dir.path(), &["--exclude", "set-wrapped.json", "."], 0);
    assert_eq!(paths(&report), ["./sets/set.json"]);
    let report = report_in(
        dir.path(),
        &["--exclude", "sets/", "--exclude", "!sets/", "."],
        0,
    );
    assert_eq!(
        paths(&report),
        ["./sets/set-wrapped.json", "./sets/set.json"]
    );

    // A directory or a file named is searched or checked all the same.
    let report = report_in(dir.path(), &["--exclude", "sets/", "sets"], 0);
    assert_eq!(report["summary"]["files"], 2);
    let report = report_in(dir.path(), &["generated/c.json", "node_modules"], 1);
    assert_eq!(
        paths(&report),
        ["generated/c.json", "node_modules/cards/migration.json"]
    );

    cardkit()
        .args(["validate", "--exclude", "sets/[z-a]", "."])
        .assert()
        .code(2)
        .stderr(contains("`sets/[z-a]` is no glob: invalid range"));
}

#[test]
fn a_file_named_that_is_no_card_document_gets_its_error() {
    let dir = valid_project();
    let report = report_in(dir.path(), &["package.json"], 1);
    assert_eq!(
        report["files"][0]["documents"][0]["diagnostics"][0]["code"],
        "unknown_kind"
    );
    assert!(report["summary"].get("skipped").is_none());

    // As a hook names files: skipped, and a run of nothing else passes.
    let report = report_in(
        dir.path(),
        &["--skip-unknown-kind", "package.json", "sets/set.json"],
        0,
    );
    assert_eq!(paths(&report), ["sets/set.json"]);
    assert_eq!(report["summary"]["skipped"], 1);
    cardkit()
        .current_dir(dir.path())
        .args([
            "validate",
            "--skip-unknown-kind",
            "package.json",
            "tsconfig.json",
        ])
        .assert()
        .code(0)
        .stdout(contains("2 JSON files are not card documents: skipped\n"));

    // With --kind, every file found is of that kind: none is skipped.
    let report = report_in(dir.path(), &["--kind", "set", "sets", "package.json"], 1);
    assert_eq!(report["summary"]["files"], 3);
}

#[test]
fn a_search_that_finds_no_card_document_fails_and_says_what_it_skipped() {
    let dir = valid_project();
    cardkit()
        .current_dir(dir.path())
        .args(["validate", "node_modules/x"])
        .assert()
        .code(2)
        .stdout(contains("1 JSON file is not a card document: skipped\n"))
        .stderr(contains(
            "error: nothing was checked: no card document was found in the paths given \
             (1 JSON file is not a card document: skipped: name one, or give --kind, to check it)",
        ));
}

#[test]
fn every_format_counts_the_files_skipped() {
    let dir = valid_project();
    let line = "2 JSON files are not card documents: skipped";
    for (args, expected) in [
        (&["--format", "text"][..], line),
        (&["--format", "concise"], line),
        (&["--format", "github"], line),
        (&["--format", "junit"], line),
        (&["--statistics"], line),
        (&["--format", "sarif"], "\"skippedNote\":\"2 JSON files"),
        (&["--format", "json"], "\"skipped\":2"),
    ] {
        cardkit()
            .current_dir(dir.path())
            .args(["validate"])
            .args(args)
            .arg(".")
            .assert()
            .code(0)
            .stdout(contains(expected));
    }
    let sarif = cardkit()
        .current_dir(dir.path())
        .args(["validate", "--format", "sarif", "."])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let sarif = parse(&sarif.stdout);
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["properties"]["skipped"],
        2
    );
}
