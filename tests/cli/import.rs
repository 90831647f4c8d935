//! `cardkit import`: documents to standard output (JSON for one, JSON Lines
//! for several) and the report to standard error, or `-o` a file or a
//! directory and the report to standard output; the report in every format
//! of `validate`; exit status 0, 1 (a document that cannot be converted) or
//! 2 (usage, unreadable input, an output over an input).

use crate::support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use support::{cardkit, shared_dir};

fn corpus(shared: &Path, file: &str) -> PathBuf {
    shared.join("corpus").join(file)
}

const LAYERED: &str = r#"{"metadata": {"name": "Plain", "creator": "A. Designer"},
  "context": {"imageSets": {"frame": {"prototype": {"type": "image"},
    "variants": {"red": {"name": "Red", "src": "red.png", "thumb": "red-thumb.png"}}}}},
  "card": {"name": "", "width": 750, "height": 1050}}"#;

#[test]
fn one_document_goes_to_stdout_as_json_and_the_report_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("plain.json");
    std::fs::write(&input, LAYERED).unwrap();
    let output = cardkit()
        .arg("import")
        .arg(&input)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let template: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert_eq!(template["name"], "Plain");
    assert_eq!(
        template["context"]["imageSets"][0]["variants"][0]["name"],
        "Red"
    );
    let report = String::from_utf8(output.stderr).unwrap();
    assert!(
        report.contains("warning[dropped_member]: `creator` is not carried over"),
        "{report}"
    );
    assert!(
        report.contains(" --> /context/imageSets/frame/variants/red"),
        "{report}"
    );
    assert!(
        report.contains("checked 1 document in 1 file: 1 valid, 0 invalid"),
        "{report}"
    );
    // What it prints validates.
    let printed = dir.path().join("printed.json");
    std::fs::write(&printed, &output.stdout).unwrap();
    cardkit()
        .arg("validate")
        .arg(&printed)
        .assert()
        .code(0)
        .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\n");
}

#[test]
fn the_report_comes_in_every_format_of_validate() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("plain.json");
    std::fs::write(&input, LAYERED).unwrap();
    for (format, expected) in [
        ("json", "\"code\":\"dropped_member\""),
        ("concise", "warning[dropped_member]"),
        ("github", "::warning"),
        ("sarif", "\"ruleId\":\"dropped_member\""),
        ("junit", "<testsuites"),
        ("text", "warning[dropped_member]"),
    ] {
        let output = cardkit()
            .args(["import", "--format", format])
            .arg(&input)
            .assert()
            .code(0)
            .get_output()
            .clone();
        let report = String::from_utf8(output.stderr).unwrap();
        assert!(report.contains(expected), "{format}: no {expected}");
        let _: Value = serde_json::from_slice(&output.stdout).expect("the document");
    }
    // The JSON report parses, with the diagnostic at its pointer in the input.
    let output = cardkit()
        .args(["import", "--format", "json"])
        .arg(&input)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let report: Value = serde_json::from_slice(&output.stderr).unwrap();
    let diagnostics = &report["files"][0]["documents"][0]["diagnostics"];
    assert_eq!(diagnostics[0]["pointer"], "/metadata/creator");
    assert_eq!(diagnostics[0]["line"], 1);
}

#[test]
fn the_save_file_goes_to_a_directory_or_to_stdout_as_json_lines() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let save = corpus(&shared, "design-tool/naereen_saved-cards.cardconjurer");
    let output = cardkit()
        .arg("import")
        .arg(&save)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("a card per line"))
        .collect();
    assert_eq!(lines.len(), 13);
    assert_eq!(lines[0]["name"], "Abomination de Llanowar");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cards");
    let output = cardkit()
        .args(["import", "--format", "concise", "-o"])
        .arg(&out)
        .arg(&save)
        .assert()
        .code(0)
        .get_output()
        .clone();
    // With -o, the report is on standard output.
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(
        report.contains("checked 13 documents in 1 file: 13 valid, 0 invalid"),
        "{report}"
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 13);
    assert!(
        names.contains(&"myrel-death-taxes.json".to_owned()),
        "{names:?}"
    );
    // Every card written validates.
    cardkit()
        .arg("validate")
        .arg(&out)
        .assert()
        .code(0)
        .stdout("checked 13 documents in 13 files: 13 valid, 0 invalid\n");
}

#[test]
fn one_input_to_a_file_and_several_inputs_to_a_directory() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let angular = corpus(&shared, "raw/template/mightstone_template-angular.json");
    let card = corpus(&shared, "raw/card/mightstone_dimirova-smiley_head.json");
    let file = dir.path().join("angular.json");
    cardkit()
        .args([
            "import",
            "--push-filters",
            "--asset-root",
            "https://cards.example.org/",
            "-o",
        ])
        .arg(&file)
        .arg(&angular)
        .assert()
        .code(0);
    let template: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(template["asset_root_url"], "https://cards.example.org/");
    assert_eq!(template["context"]["symbolSets"][0]["name"], "symbol");

    let out = dir.path().join("both");
    cardkit()
        .args(["import", "-o"])
        .arg(&out)
        .arg(&angular)
        .arg(&card)
        .assert()
        .code(0);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["angular.json", "dimirova-smiley.json"]);

    // A directory given as --asset-root is written as its absolute path.
    let output = cardkit()
        .current_dir(dir.path())
        .args(["import", "--asset-root", "both"])
        .arg(&card)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let imported: Value = serde_json::from_slice(&output.stdout).unwrap();
    let root = imported["asset_root_url"].as_str().unwrap();
    assert!(
        Path::new(root).is_absolute() && root.ends_with("both"),
        "{root}"
    );
}

#[test]
fn exit_status_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let unknown = dir.path().join("unknown.json");
    std::fs::write(&unknown, r#"{"cards": []}"#).unwrap();
    // A file of no known format: an error naming it and why, status 1.
    let output = cardkit()
        .arg("import")
        .arg(&unknown)
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert!(output.stdout.is_empty());
    let report = String::from_utf8(output.stderr).unwrap();
    assert!(
        report.contains("unknown.json:1:1: error[not_convertible]"),
        "{report}"
    );
    assert!(report.contains("neither a template"), "{report}");
    // Malformed JSON, as validate reports it.
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"name\": ").unwrap();
    let output = cardkit()
        .arg("import")
        .arg(&broken)
        .assert()
        .code(1)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&output.stderr).contains("error[invalid_json]"));
    // A file that cannot be read: status 2, the others still converted.
    let good = dir.path().join("plain.json");
    std::fs::write(&good, LAYERED).unwrap();
    let output = cardkit()
        .arg("import")
        .arg(dir.path().join("missing.json"))
        .arg(&good)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["name"], "Plain");
    // --from classic on a template: not that format.
    cardkit()
        .args(["import", "--from", "classic"])
        .arg(&good)
        .assert()
        .code(1);
    // Usage errors: 2.
    cardkit()
        .args(["import", "--asset-root", "no/such/dir"])
        .arg(&good)
        .assert()
        .code(2);
    cardkit().args(["import", "-", "-"]).assert().code(2);
    cardkit().arg("import").assert().code(2);
}

#[test]
fn an_input_is_never_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("plain.json");
    std::fs::write(&input, LAYERED).unwrap();
    let output = cardkit()
        .args(["import", "-o"])
        .arg(&input)
        .arg(&input)
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&output.stderr).contains("is an input"));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), LAYERED);
    // Nor through a directory that holds it.
    let named = dir.path().join("plain-frame");
    std::fs::create_dir(&named).unwrap();
    let inside = named.join("plain.json");
    std::fs::write(&inside, LAYERED).unwrap();
    cardkit()
        .args(["import", "-o"])
        .arg(&named)
        .arg(&inside)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), LAYERED);
}

#[test]
fn explain_shows_the_import_codes_as_the_import_gives_them() {
    for code in [
        "dropped_member",
        "derived_value",
        "unknown_text_code",
        "not_convertible",
    ] {
        let output = cardkit()
            .args(["explain", code])
            .assert()
            .code(0)
            .get_output()
            .clone();
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.contains(&format!("[{code}]: ")), "{text}");
        assert!(text.contains("`cardkit import example.json`"), "{text}");
    }
}

#[test]
fn standard_input_is_read_as_a_file() {
    let output = cardkit()
        .args(["import", "-"])
        .write_stdin(LAYERED)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let template: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(template["name"], "Plain");
    // The report names standard input `-`, as the path given.
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        report.contains("-:1:43: warning[dropped_member]"),
        "{report}"
    );
}

/// A set file or a migration is named for what it is, not converted as a
/// card: exit status 1, one `not_convertible`, nothing written.
#[test]
fn a_set_or_a_migration_is_not_convertible() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (file, what) in [
        (
            "raw/set/jsonsets_LEA.json",
            "a set (at /data, wrapped layout), not a design file",
        ),
        (
            "raw/migration/mtgssm_migrations.json",
            "2 migration notices (list layout), not a design file",
        ),
    ] {
        let out = dir.path().join("out.json");
        let output = cardkit()
            .arg("import")
            .arg(corpus(&shared, file))
            .args(["--format", "json", "-o"])
            .arg(&out)
            .assert()
            .code(1)
            .get_output()
            .clone();
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let diagnostics = report["files"][0]["documents"][0]["diagnostics"]
            .as_array()
            .unwrap();
        assert_eq!(diagnostics.len(), 1, "{file}: {diagnostics:?}");
        assert_eq!(diagnostics[0]["code"], "not_convertible");
        assert!(
            diagnostics[0]["message"].as_str().unwrap().contains(what),
            "{file}: {diagnostics:?}"
        );
        assert!(!out.exists(), "{file}");
    }
}
