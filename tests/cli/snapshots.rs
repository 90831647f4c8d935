//! Snapshots of what the `cardkit` binary prints, end to end: the README's
//! `cardkit validate examples/` in text and in JSON, and `cardkit schema` of
//! every kind. The snapshots are in `tests/snapshots/`; after a deliberate
//! change, `INSTA_UPDATE=always cargo test --test cli snapshots::`
//! (or `cargo insta review`) rewrites them: review the diff.
//!
//! The run's time (the JSON summary's `seconds`, and the throughput line
//! that a text report of a megabyte or more ends with) is replaced by a
//! placeholder before the comparison.

use crate::support;

use cardkit::Kind;
use support::{cardkit, workspace_dir};

/// Runs `cardkit ARGS…` from the repository's root, expects `code` and
/// nothing on standard error, and returns standard output.
fn run(args: &[&str], code: i32) -> String {
    let output = cardkit()
        .current_dir(workspace_dir())
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{args:?} printed on stderr:\n{stderr}");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// The text report with its throughput line (`read 101.6 MB in 0.14 s:
/// 725 MB/s`), if any, replaced by a placeholder.
fn without_throughput(report: &str) -> String {
    report
        .lines()
        .map(|line| {
            let throughput = line.starts_with("read ")
                && line.contains(" in ")
                && line.ends_with("/s")
                && line.contains(" s: ");
            if throughput {
                "read [bytes] in [seconds]: [throughput]"
            } else {
                line
            }
        })
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The JSON report with the summary's `seconds` replaced by a placeholder,
/// its layout otherwise untouched.
fn without_seconds(report: &str) -> String {
    let parsed: serde_json::Value = serde_json::from_str(report)
        .unwrap_or_else(|e| panic!("the report is not JSON ({e}):\n{report}"));
    let seconds = &parsed["summary"]["seconds"];
    assert!(
        seconds.as_f64().is_some_and(|s| s >= 0.0),
        "summary.seconds: {seconds}"
    );
    let key = "\"seconds\":";
    let at = report.rfind(key).expect("a seconds member") + key.len();
    let end = at
        + report[at..]
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')))
            .expect("the summary goes on after seconds");
    format!("{}\"[seconds]\"{}", &report[..at], &report[end..])
}

#[test]
fn validate_examples_as_text() {
    let report = run(&["validate", "examples/"], 1);
    assert_snapshot!("validate_examples_text", without_throughput(&report));
}

#[test]
fn validate_examples_as_json() {
    let report = run(&["validate", "--format", "json", "examples/"], 1);
    assert_snapshot!("validate_examples_json", without_seconds(&report));
}

#[test]
fn schema_of_every_kind() {
    for &kind in Kind::ALL {
        let schema = run(&["schema", kind.as_str()], 0);
        assert_snapshot!(format!("schema_{kind}"), schema);
    }
}

#[test]
fn volatile_parts_are_replaced() {
    assert_eq!(
        without_throughput("checked 1 document\nread 101.6 MB in 0.14 s: 725 MB/s\n"),
        "checked 1 document\nread [bytes] in [seconds]: [throughput]\n"
    );
    assert_eq!(
        without_seconds(r#"{"summary":{"bytes":5,"seconds":1.5e-3}}"#),
        r#"{"summary":{"bytes":5,"seconds":"[seconds]"}}"#
    );
}

/// `cardkit ARGS…` with `env` set (and NO_COLOR and CLICOLOR_FORCE only as
/// given), standard output with ESC shown as `␛`.
fn colored(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = cardkit();
    command
        .current_dir(workspace_dir())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .args(args);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("cardkit runs");
    String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .replace('\u{1b}', "␛")
}

#[test]
fn the_text_report_in_colour() {
    let file = "examples/invalid/card-layer-problems.json";
    let always = colored(&["validate", "--color", "always", file], &[]);
    assert_snapshot!("validate_color_always", without_throughput(&always));
    // CLICOLOR_FORCE colours a pipe under `auto`; NO_COLOR wins over it, and
    // `never` over both.
    assert_eq!(
        colored(&["validate", file], &[("CLICOLOR_FORCE", "1")]),
        always
    );
    let plain = colored(&["validate", file], &[]);
    assert!(!plain.contains('␛'), "{plain}");
    let no_color = [("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")];
    assert_eq!(colored(&["validate", file], &no_color), plain);
    let never = ["validate", "--color", "never", file];
    assert_eq!(colored(&never, &[("CLICOLOR_FORCE", "1")]), plain);
    assert_snapshot!("validate_no_color", without_throughput(&plain));
    // The machine formats are never coloured.
    let json = colored(
        &["validate", "--color", "always", "--format", "json", file],
        &[],
    );
    assert!(!json.contains('␛'), "{json}");
}

#[test]
fn validate_examples_concise_and_statistics() {
    let concise = run(&["validate", "--format", "concise", "examples/"], 1);
    assert_snapshot!("validate_examples_concise", concise);
    let statistics = run(&["validate", "--statistics", "examples/"], 1);
    assert_snapshot!("validate_examples_statistics", statistics);
}
