//! `--as-of auto`, the default: each file checked as of the version its
//! `meta.version` declares, through every command that validates, and said
//! in its report; `--as-of latest` and a version given instead.

use crate::support;

use serde_json::Value;
use support::{cardkit, dir_with, shared_dir};

fn report(args: &[&str]) -> (i32, Value) {
    let output = cardkit()
        .args(["validate", "--no-config", "--format", "json"])
        .args(args)
        .output()
        .expect("cardkit runs");
    let report = serde_json::from_slice(&output.stdout).expect("JSON");
    (output.status.code().expect("a status"), report)
}

/// The report without what differs by design: the time, how the file was
/// read and the notes that say so.
fn comparable(mut report: Value) -> Value {
    report["summary"]["seconds"] = Value::Null;
    for file in report["files"].as_array_mut().expect("files") {
        let file = file.as_object_mut().expect("a file");
        file.remove("note");
        file.remove("reading");
    }
    let summary = report["summary"].as_object_mut().expect("a summary");
    summary.remove("ways_out");
    summary.remove("checked_as_of");
    report
}

/// How the first file of a report was read, in words.
fn reading_note(report: &Value) -> String {
    report["files"][0]["reading"]["note"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_file_is_checked_as_of_the_version_it_declares() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let sets = shared.join("corpus/neutral/set");
    let mut declared = 0;
    for entry in std::fs::read_dir(&sets).expect("the corpus's sets") {
        let path = entry.expect("an entry").path();
        let name = path.to_str().expect("UTF-8");
        let text = std::fs::read_to_string(&path).expect("a set");
        let (status, auto) = report(&["--as-of", "auto", name]);
        let note = reading_note(&auto);
        // Where the file keeps its `meta`: first, or among a 4.x set's
        // members after its cards.
        let declared_by_meta = text.contains(r#""meta": {"#);
        let version = auto["files"][0]["reading"]["as_of"]
            .as_str()
            .filter(|_| auto["files"][0]["reading"]["version_from"] == "declared")
            .map(str::to_owned);
        let (plain_status, plain) = match &version {
            Some(version) => {
                declared += 1;
                assert!(declared_by_meta, "{name}: {note}");
                assert!(
                    note.contains(&format!("checked as of {version}")),
                    "{name}: {note}"
                );
                report(&["--as-of", version, name])
            }
            None => report(&["--as-of", "latest", name]),
        };
        assert_eq!(comparable(auto), comparable(plain), "{name}");
        assert_eq!(status, plain_status, "{name}");
    }
    assert!(declared >= 20, "{declared} sets declare their version");

    // The 5.2.0 sets are valid as of their own version, through export too.
    let neo = sets.join("jsonsets_NEO.json");
    let neo = neo.to_str().expect("UTF-8");
    assert_eq!(report(&["--as-of", "latest", neo]).0, 1);
    assert_eq!(report(&[neo]).0, 0);
    let dir = tempfile::tempdir().expect("a folder");
    let db = dir.path().join("cards.db");
    cardkit()
        .args(["export", "--no-config", "--to"])
        .arg(&db)
        .arg(neo)
        .assert()
        .code(0);
}

#[test]
fn a_version_newer_unusable_or_absent_is_said_and_the_latest_used() {
    let dir = dir_with(&[
        (
            "newer.json",
            r#"{"meta": {"version": "99.1.0+1"}, "data": {"A": {"code": "A"}}}"#,
        ),
        (
            "bad.json",
            r#"{"meta": {"version": "five"}, "data": {"A": {"code": "A"}}}"#,
        ),
        ("none.json", r#"{"code": "A"}"#),
    ]);
    for (file, words) in [
        ("newer.json", "is newer than the versions cardkit knows"),
        ("bad.json", "is not a version of the format"),
        ("none.json", "declares no version"),
    ] {
        let path = dir.path().join(file);
        let path = path.to_str().expect("UTF-8");
        let (_, auto) = report(&["--as-of", "auto", path]);
        let note = reading_note(&auto);
        assert!(note.contains(words), "{file}: {note}");
        assert_eq!(
            comparable(auto),
            comparable(report(&["--as-of", "latest", path]).1),
            "{file}"
        );
        // The text report says it too, at the top of the file's block.
        let text = cardkit()
            .args(["validate", "--no-config", path])
            .output()
            .expect("cardkit runs");
        let text = String::from_utf8(text.stdout).expect("UTF-8");
        assert!(text.contains(&format!("{path}: note: ")), "{text}");
    }
}

#[test]
fn as_of_the_latest_a_file_whose_errors_are_of_later_fields_gets_the_way_out_first_and_last() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let neo = shared.join("corpus/neutral/set/jsonsets_NEO.json");
    let neo = neo.to_str().expect("UTF-8");
    let text = |args: &[&str]| {
        let output = cardkit()
            .args(["validate", "--no-config"])
            .args(args)
            .arg(neo)
            .output()
            .expect("cardkit runs");
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let latest = text(&["--as-of", "latest"]);
    let hints: Vec<&str> = latest
        .lines()
        .filter(|l| l.contains("--as-of auto"))
        .collect();
    // The top of the file's block, its end, and the report's last line.
    assert_eq!(hints.len(), 3, "{latest}");
    assert!(
        hints[0].contains("it declares version v5.2.0; 592 of its errors"),
        "{}",
        hints[0]
    );
    assert_eq!(
        latest.lines().last(),
        Some("help: 1 file would be read as it declares itself with --as-of auto")
    );
    // Not when the file is read as of its own version, or by default.
    assert!(!text(&["--as-of", "auto"]).contains("--as-of auto"));
    assert!(!text(&[]).contains("--as-of auto"));
    assert!(text(&["--as-of", "v5.2.1"]).contains("--as-of auto"));
}
