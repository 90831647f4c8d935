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

/// The report formats, each of which says how a file was read.
const FORMATS: [&str; 6] = ["text", "concise", "json", "github", "sarif", "junit"];

/// The exit status and report of `validate --format FORMAT ARGS PATH`.
fn report_in(format: &str, args: &[&str], path: &str) -> (i32, String) {
    let output = cardkit()
        .args(["validate", "--no-config", "--format", format])
        .args(args)
        .arg(path)
        .output()
        .expect("cardkit runs");
    let report = String::from_utf8(output.stdout).expect("UTF-8");
    (output.status.code().expect("a status"), report)
}

/// A report in any format without where it says how the file was read:
/// `notes` (the reading's words, as each format quotes them), where the
/// version and the names came from, and the time.
fn but_how_it_was_read(report: &str, notes: &[&str]) -> String {
    let mut report = report.to_owned();
    let mut notes = notes.to_vec();
    // The longer first, should one hold another.
    notes.sort_by_key(|note| std::cmp::Reverse(note.len()));
    for note in notes {
        let json = serde_json::to_string(note).expect("a JSON string");
        let xml = note
            .replace('&', "&amp;")
            .replace('\'', "&apos;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        for quoted in [note, &json[1..json.len() - 1], &xml] {
            report = report.replace(quoted, "<how the file was read>");
        }
    }
    let from = regex::Regex::new(
        r#"("(?:version|names)_from":|cardkit\.(?:version|names)-from" value=)"[a-z]+""#,
    )
    .expect("a pattern");
    let seconds = regex::Regex::new(r#""seconds":[0-9.eE+-]+"#).expect("a pattern");
    let report = from.replace_all(&report, r#"$1"<from>""#);
    seconds
        .replace_all(&report, r#""seconds":<time>"#)
        .into_owned()
}

/// Options that change nothing change no report: on a file that declares
/// the latest version, one newer than cardkit knows or none, `--as-of
/// latest`, `--as-of` naming the latest tag and `--names` naming the names
/// the file uses give, in every format, the default's report and exit
/// status but where the report says how the file was read (every format
/// says the version it was checked as of).
#[test]
fn options_that_change_nothing_leave_every_report_as_the_default_s_but_how_the_file_was_read() {
    let latest = cardkit::schema::latest_version().to_string();
    let core = latest.trim_start_matches('v');
    let examples = support::examples_dir();
    let read = |name: &str| std::fs::read_to_string(examples.join(name)).expect("an example");
    // A published set, in the publishers' names, that declares 5.2.0.
    let published = read("published/V13.json");
    let declared = r#"{"meta": {"date": "2022-04-25", "version": "5.2.0+20220425"}, "#;
    assert!(published.starts_with(declared));
    let declaring = |version: &str| published.replacen("5.2.0+", &format!("{version}+"), 1);
    let catalog = read("valid/catalog.json");
    assert!(catalog.contains(r#""version": "5.2.1""#));
    let files = [
        ("declares-latest.json", declaring(core)),
        ("declares-newer.json", declaring("99.0.0")),
        ("declares-none.json", published.replacen(declared, "{", 1)),
        (
            "catalog-declares-latest.json",
            catalog.replacen(
                r#""version": "5.2.1""#,
                &format!(r#""version": "{core}""#),
                1,
            ),
        ),
        (
            "set-spec-names.json",
            read("invalid/set-card-problems.json"),
        ),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let dir = dir_with(&files);
    for (name, _) in &files {
        let path = dir.path().join(name);
        let path = path.to_str().expect("UTF-8");
        let (_, json) = report_in("json", &[], path);
        let default: Value = serde_json::from_str(&json).expect("JSON");
        let default = &default["files"][0]["reading"];
        assert_eq!(default["as_of"], latest.as_str(), "{name}");
        let names = default["names"].as_str().expect("the names read under");
        let plain: Vec<(i32, String)> = FORMATS
            .iter()
            .map(|format| report_in(format, &[], path))
            .collect();
        for args in [
            &["--as-of", "latest"][..],
            &["--as-of", &latest],
            &["--names", names],
            &["--as-of", "latest", "--names", names],
        ] {
            let (_, json) = report_in("json", args, path);
            let asked: Value = serde_json::from_str(&json).expect("JSON");
            let asked = &asked["files"][0]["reading"];
            let notes = [
                default["note"].as_str().expect("a note"),
                asked["note"].as_str().expect("a note"),
            ];
            for (format, (status, plain)) in FORMATS.iter().zip(&plain) {
                let (asked_status, asked) = report_in(format, args, path);
                // Every format says the version the file was checked as of.
                assert!(
                    asked.contains(&latest),
                    "{name} {args:?}, {format}: {asked}"
                );
                assert_eq!(
                    but_how_it_was_read(&asked, &notes),
                    but_how_it_was_read(plain, &notes),
                    "{name} {args:?}, {format}"
                );
                assert_eq!(asked_status, *status, "{name} {args:?}, {format}");
            }
        }
    }
}
