//! The publishers' files right on the first command: each file read under
//! the names its documents use and as of the version it declares, with no
//! flag given, and said in every format; `--strict` for the spec itself.

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{cardkit, examples_dir, shared_dir};

/// `cardkit validate --no-config --format json ARGS…`: the exit status and
/// the report.
fn report(args: &[&str]) -> (i32, Value) {
    let output = cardkit()
        .args(["validate", "--no-config", "--format", "json"])
        .args(args)
        .output()
        .expect("cardkit runs");
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e})"));
    (output.status.code().expect("a status"), report)
}

/// The report without what differs by design between a reading decided
/// and one asked for: the time, how the names and the version were
/// decided, and the notes that say so.
fn findings(mut report: Value) -> Value {
    report["summary"]["seconds"] = Value::Null;
    for file in report["files"].as_array_mut().expect("files") {
        let file = file.as_object_mut().expect("a file");
        file.remove("note");
        file.remove("reading");
    }
    let summary = report["summary"].as_object_mut().expect("a summary");
    summary.remove("ways_out");
    report
}

fn sets(shared: &Path, folder: &str) -> Vec<PathBuf> {
    let mut sets: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus").join(folder))
        .expect("the corpus's sets")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    sets.sort();
    assert!(sets.len() >= 20, "only {} sets in {folder}", sets.len());
    sets
}

#[test]
fn every_raw_set_reads_by_default_as_under_the_publishers_names_and_its_own_version() {
    let Some(shared) = shared_dir() else {
        return;
    };
    for path in sets(&shared, "raw/set") {
        let name = path.to_str().expect("UTF-8");
        let (status, default) = report(&[name]);
        // Told from its members: the publishers' names, or none that tell
        // (an old file without the renamed fields, whose report names the
        // fields it misses by the spec's names).
        let reading = &default["files"][0]["reading"];
        let told = (reading["names"].as_str(), reading["names_from"].as_str());
        let names = match told {
            (Some("upstream"), Some("members")) => "upstream",
            (Some("spec"), Some("none-told")) => "spec",
            _ => panic!("{name}: {reading}"),
        };
        let (asked_status, asked) = report(&["--names", names, "--as-of", "auto", name]);
        assert_eq!(status, asked_status, "{name}");
        assert_eq!(findings(default), findings(asked), "{name}");
    }
}

#[test]
fn every_neutral_set_reads_by_default_as_under_the_spec_names_and_its_own_version() {
    let Some(shared) = shared_dir() else {
        return;
    };
    for path in sets(&shared, "neutral/set") {
        let name = path.to_str().expect("UTF-8");
        let (status, default) = report(&[name]);
        let (asked_status, asked) = report(&["--names", "spec", "--as-of", "auto", name]);
        assert_eq!(status, asked_status, "{name}");
        assert_eq!(default["files"][0]["reading"]["names"], "spec", "{name}");
        assert_eq!(findings(default), findings(asked), "{name}");
    }
}

#[test]
fn a_4x_set_file_is_checked_as_of_the_version_it_keeps_after_its_cards() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let war = shared.join("corpus/raw/set/cardmaster_WAR.json");
    let war = war.to_str().expect("UTF-8");
    let (status, default) = report(&[war]);
    let reading = &default["files"][0]["reading"];
    assert_eq!(reading["as_of"], "v4.6.1", "{reading}");
    assert_eq!(reading["version_from"], "declared", "{reading}");
    assert_eq!(reading["declared"], "4.6.1+20191222", "{reading}");
    let note = reading["note"].as_str().expect("a note");
    assert!(note.contains("at byte 1965729"), "{note}");
    let (asked_status, asked) = report(&["--as-of", "v4.6.1", "--names", "upstream", war]);
    assert_eq!(status, asked_status);
    assert_eq!(findings(default), findings(asked));

    // Read once from a stream, the file's `meta` past its first MiB is not
    // seen, and the report says so.
    let output = cardkit()
        .args(["validate", "--no-config", "--format", "json", "-"])
        .pipe_stdin(std::path::Path::new(war))
        .expect("the file")
        .output()
        .expect("cardkit runs");
    let streamed: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let note = streamed["files"][0]["reading"]["note"]
        .as_str()
        .expect("a note");
    assert!(note.contains("a stream is read once"), "{note}");
}

#[test]
fn the_default_export_of_a_published_set_fills_its_catalog_ids() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let neo = shared.join("corpus/raw/set/jsonsets_NEO.json");
    let text = std::fs::read_to_string(&neo).expect("the NEO set");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("cards.db");
    cardkit()
        .args(["export", "--no-config", "--quiet", "--to"])
        .arg(&db)
        .arg(&neo)
        .assert()
        .code(0);
    let connection = rusqlite::Connection::open(&db).expect("the database");
    let filled: i64 = connection
        .query_row("SELECT count(catalog_a_id) FROM identifiers", [], |row| {
            row.get(0)
        })
        .expect("the identifiers");
    let in_file = text.matches("\"scryfallId\"").count();
    assert!(in_file > 400, "{in_file}");
    assert_eq!(usize::try_from(filled).expect("a count"), in_file);
}

#[test]
fn every_format_says_how_a_file_was_read() {
    let published = examples_dir().join("published/V13.json");
    let published = published.to_str().expect("UTF-8");
    // (XML and SARIF escape the apostrophe their own ways.)
    let said = "names (told from its members); checked as of v5.2.0, the version its meta.version declares";
    for format in ["text", "concise", "json", "github", "sarif", "junit"] {
        let output = cardkit()
            .args(["validate", "--no-config", "--format", format, published])
            .output()
            .expect("cardkit runs");
        assert_eq!(output.status.code(), Some(0), "{format}");
        let printed = String::from_utf8(output.stdout).expect("UTF-8");
        assert!(printed.contains(said), "{format}:\n{printed}");
    }
    let output = cardkit()
        .args(["validate", "--no-config", "--statistics", published])
        .output()
        .expect("cardkit runs");
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        printed.contains("read: 1 file under the publishers' names; as of v5.2.0 (1 file)"),
        "{printed}"
    );
}

#[test]
fn strict_checks_against_the_spec_and_names_the_way_back_first_and_last() {
    let published = examples_dir().join("published/V13.json");
    let published = published.to_str().expect("UTF-8");
    let output = cardkit()
        .args(["validate", "--no-config", "--strict", published])
        .output()
        .expect("cardkit runs");
    assert_eq!(output.status.code(), Some(1));
    let printed = String::from_utf8(output.stdout).expect("UTF-8");
    let lines: Vec<&str> = printed.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        lines[0].contains("read under the spec's names (as asked)")
            && lines[0].contains("--names auto: "),
        "{}",
        lines[0]
    );
    assert_eq!(
        lines.last().copied(),
        Some("help: 1 file would be read as it declares itself with --names auto")
    );
    // `--strict` is the names and the version at once.
    cardkit()
        .args([
            "validate",
            "--no-config",
            "--strict",
            "--names",
            "upstream",
            published,
        ])
        .assert()
        .code(2);
}

#[test]
fn explain_reads_a_publishers_name_under_auto_and_refuses_it_under_the_spec() {
    let output = cardkit()
        .args(["explain", "--format", "json", "set", "Set.keyruneCode"])
        .output()
        .expect("cardkit runs");
    assert_eq!(output.status.code(), Some(0));
    let explained: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(explained["field"], "Set.keyruneCode");
    assert_eq!(explained["places"][0]["pointer"], "/iconCode");
    let first = &explained["places"][0]["lines"][0];
    assert_eq!(first["label"], "read as");
    let output = cardkit()
        .args(["explain", "--names", "spec", "set", "Set.keyruneCode"])
        .output()
        .expect("cardkit runs");
    assert_ne!(output.status.code(), Some(0));
    let said = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(said.contains("publishers' name of `iconCode`"), "{said}");
    // A migration's own renaming, in a migration only.
    let output = cardkit()
        .args(["explain", "migration", "/performed_at"])
        .output()
        .expect("cardkit runs");
    assert_eq!(output.status.code(), Some(0));
    let output = cardkit()
        .args(["explain", "set", "/performed_at"])
        .output()
        .expect("cardkit runs");
    assert_ne!(output.status.code(), Some(0));
}

#[test]
fn the_publishers_habit_of_leaving_out_sealed_products_is_explained() {
    let output = cardkit()
        .args(["explain", "set", "Set.sealedProduct"])
        .output()
        .expect("cardkit runs");
    let said = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        said.contains("leave the key out when a set has no sealed products")
            && said.contains("ignore = [\"Set.sealedProduct\"]"),
        "{said}"
    );
}
