//! The CI formats (`--format github`, `sarif`, `junit`) end to end: their
//! output over the bundled examples is snapshotted, the SARIF log is valid
//! against the SARIF 2.1.0 schema, and the JUnit report is well-formed XML
//! with a test case per document. The caps of `--max-results` keep the
//! first results, errors before warnings, and say what they left out.

use crate::support;

use support::{cardkit, dir_with, shared_dir, stdout_of, workspace_dir};

/// Runs `cardkit validate ARGS…` from the repository's root and returns
/// standard output; the status must be `code`.
fn validate(args: &[&str], code: i32) -> String {
    stdout_of(&[&["validate"], args].concat(), code)
}

#[test]
fn github_annotations_of_the_examples() {
    let report = validate(&["--format", "github", "examples/"], 1);
    assert_snapshot!("validate_examples_github", report);
}

#[test]
fn sarif_of_the_examples() {
    let report = validate(&["--format", "sarif", "examples/"], 1);
    let log: serde_json::Value = serde_json::from_str(&report).expect("SARIF is JSON");
    assert_snapshot!(
        "validate_examples_sarif",
        serde_json::to_string_pretty(&log).expect("JSON")
    );
}

#[test]
fn junit_of_the_examples() {
    let report = validate(&["--format", "junit", "examples/"], 1);
    assert_snapshot!("validate_examples_junit", report);
}

/// Every SARIF log the examples, an unreadable path and a hostile file give
/// is valid against the SARIF 2.1.0 schema.
#[test]
fn sarif_is_valid_against_its_schema() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let schema_path = shared.join("schemas/sarif-schema-2.1.0.json");
    let schema: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&schema_path).expect("the SARIF schema"))
            .expect("the schema is JSON");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    // The validator does reject what is not SARIF.
    let not_sarif = serde_json::json!({"version": "2.1.0", "runs": [{"results": []}]});
    assert!(!validator.is_valid(&not_sarif), "a run without a tool");
    let hostile = dir_with(&[(
        "odd name, 100%.json",
        "{\"object\":\"migration\",\"\\u001b[2J\":1,\"k\":1,\"k\":2}",
    )]);
    let hostile_file = hostile.path().join("odd name, 100%.json");
    let runs = [
        validate(&["--format", "sarif", "examples/"], 1),
        validate(&["--format", "sarif", "examples/valid/"], 0),
        validate(&["--format", "sarif", "--max-results", "5", "examples/"], 1),
        validate(&["--format", "sarif", "no/such/file.json"], 2),
        validate(
            &["--format", "sarif", hostile_file.to_str().expect("UTF-8")],
            1,
        ),
    ];
    for report in runs {
        let log: serde_json::Value = serde_json::from_str(&report).expect("SARIF is JSON");
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}\n{report}");
        assert_eq!(log["version"], "2.1.0");
    }
}

#[test]
fn sarif_results_name_file_region_pointer_and_fingerprint() {
    let report = validate(&["--format", "sarif", "examples/invalid/"], 1);
    let log: serde_json::Value = serde_json::from_str(&report).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    for result in results {
        let rule = &rules[result["ruleIndex"].as_u64().expect("ruleIndex") as usize];
        assert_eq!(rule["id"], result["ruleId"]);
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(uri.starts_with("examples/invalid/"), "{uri}");
        assert!(location["region"]["startLine"].as_u64().expect("line") >= 1);
        assert_eq!(
            result["properties"]["pointer"],
            result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
        );
        assert!(result["partialFingerprints"]["cardkit/v1"].is_string());
    }
    // The same run gives the same fingerprints.
    assert_eq!(
        report,
        validate(&["--format", "sarif", "examples/invalid/"], 1)
    );
    // An absolute path under the working directory is written relative to it.
    let absolute = workspace_dir().canonicalize().expect("the workspace");
    let absolute = absolute.join("examples/invalid");
    let again = cardkit()
        .current_dir(workspace_dir().canonicalize().expect("the workspace"))
        .args(["validate", "--format", "sarif"])
        .arg(&absolute)
        .output()
        .expect("cardkit runs");
    let log: serde_json::Value = serde_json::from_slice(&again.stdout).expect("SARIF is JSON");
    let uri = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"];
    assert!(
        uri.as_str()
            .is_some_and(|u| u.starts_with("examples/invalid/")),
        "{uri}"
    );
}

/// The JUnit report parses as XML and has a test case per document, failing
/// exactly for the invalid ones, whatever the input's keys and file names.
#[test]
fn junit_is_well_formed_with_a_case_per_document() {
    let hostile = dir_with(&[
        (
            "a&b <c>.json",
            "{\"object\":\"migration\",\"\\u0001]]>--\":\"\\u0000 & <x>\",\"k\":1,\"k\":2}",
        ),
        ("list.json", "[{\"object\":\"migration\"}, {\"x\": 1}]"),
    ]);
    for path in [
        workspace_dir().join("examples"),
        hostile.path().to_path_buf(),
    ] {
        let json = cardkit()
            .args(["validate", "--format", "json"])
            .arg(&path)
            .output()
            .expect("cardkit runs");
        let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
        let junit = cardkit()
            .args(["validate", "--format", "junit"])
            .arg(&path)
            .output()
            .expect("cardkit runs");
        let text = String::from_utf8(junit.stdout).expect("UTF-8");
        let xml = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let cases: Vec<_> = xml
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let failed = cases
            .iter()
            .filter(|c| c.children().any(|n| n.has_tag_name("failure")))
            .count();
        assert_eq!(
            cases.len(),
            json["summary"]["documents"].as_u64().expect("documents") as usize
        );
        assert_eq!(
            failed,
            json["summary"]["invalid"].as_u64().expect("invalid") as usize
        );
    }
}

#[test]
fn github_annotations_carry_file_line_and_code() {
    let report = validate(&["--format", "github", "examples/invalid/"], 1);
    let annotations: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("::error ") || l.starts_with("::warning "))
        .collect();
    assert!(!annotations.is_empty());
    for annotation in &annotations {
        let (command, message) = annotation[2..].split_once("::").expect("a message");
        let (_, properties) = command.split_once(' ').expect("properties");
        let properties: Vec<(&str, &str)> = properties
            .split(',')
            .map(|p| p.split_once('=').expect("name=value"))
            .collect();
        let names: Vec<&str> = properties.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            ["file", "line", "col", "endLine", "endColumn", "title"]
        );
        assert!(properties[0].1.starts_with("examples/invalid/"));
        assert!(properties[1].1.parse::<usize>().is_ok_and(|l| l >= 1));
        assert!(!message.is_empty());
    }
    let last = report.lines().last().expect("a last line");
    assert!(
        last.starts_with("::notice title=cardkit::checked "),
        "{last}"
    );
    assert_eq!(
        report.matches("::group::").count(),
        report.matches("::endgroup::").count()
    );
}

/// Two files for the caps: three warnings (unknown members of a migration),
/// then two errors (its missing members).
fn warnings_then_errors() -> tempfile::TempDir {
    let migration = r#""object": "migration",
  "id": "0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e",
  "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0",
  "new_catalogA_id": "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b""#;
    let complete = r#",
  "uri": "https://api.catalog.example.org/m/1",
  "migration_strategy": "merge""#;
    dir_with(&[
        (
            "1-warnings.json",
            &format!(
                "{{\n  {migration}{complete},\n  \"extra_a\": 1,\n  \"extra_b\": 2,\n  \"extra_c\": 3\n}}\n"
            ),
        ),
        ("2-errors.json", &format!("{{\n  {migration}\n}}\n")),
    ])
}

/// Runs `cardkit validate ARGS… 1-warnings.json 2-errors.json` in `dir`,
/// which exits 1 (an invalid document), and returns standard output.
fn validate_in(dir: &std::path::Path, args: &[&str]) -> String {
    let output = cardkit()
        .current_dir(dir)
        .arg("validate")
        .args(args)
        .args(["1-warnings.json", "2-errors.json"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// A capped SARIF run has exactly the cap's results: the errors, then the
/// first warnings; a notification says how many were left out.
#[test]
fn capped_sarif_keeps_errors_first_and_says_what_it_left_out() {
    let dir = warnings_then_errors();
    let log: serde_json::Value = serde_json::from_str(&validate_in(
        dir.path(),
        &["--format", "sarif", "--max-results", "3"],
    ))
    .expect("SARIF is JSON");
    let run = &log["runs"][0];
    let kept: Vec<(&str, &str)> = run["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["level"].as_str().expect("a level"),
                r["properties"]["pointer"].as_str().expect("a pointer"),
            )
        })
        .collect();
    assert_eq!(
        kept,
        [
            ("warning", "/extra_a"),
            ("error", "/uri"),
            ("error", "/migration_strategy"),
        ]
    );
    let notifications = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    let left_out = notifications.last().expect("a notification");
    assert_eq!(left_out["properties"]["resultsLeftOut"], 2);
    assert_eq!(left_out["properties"]["warningsLeftOut"], 2);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_snapshot!(
        "capped_sarif_results_and_invocation",
        serde_json::to_string_pretty(&serde_json::json!({
            "results": run["results"],
            "invocations": run["invocations"],
        }))
        .expect("JSON")
    );
}

#[test]
fn capped_github_annotations_keep_errors_first_and_say_what_they_left_out() {
    let dir = warnings_then_errors();
    let report = validate_in(dir.path(), &["--format", "github", "--max-results", "3"]);
    let annotations = report
        .lines()
        .filter(|l| l.starts_with("::error file=") || l.starts_with("::warning file="))
        .count();
    assert_eq!(annotations, 3, "{report}");
    let lines: Vec<&str> = report.lines().collect();
    assert!(
        lines[lines.len() - 2]
            .starts_with("::notice title=cardkit::2 annotations were left out (cap 3)"),
        "{report}"
    );
    assert_snapshot!("capped_github_annotations", report);
}

/// The results of a capped run are the uncapped run's, in its order,
/// filtered: its first errors up to the cap, then its first warnings in
/// what room is left; for caps that cut through errors, warnings and
/// neither, in both formats.
#[test]
fn capped_results_are_the_first_errors_then_the_first_warnings() {
    type Kept = Vec<(bool, String)>;
    /// Each result's severity (error: true) and text, in order.
    fn sarif(args: &[&str]) -> Kept {
        let log: serde_json::Value =
            serde_json::from_str(&validate(&[&["--format", "sarif"], args].concat(), 1))
                .expect("JSON");
        log["runs"][0]["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| (r["level"] == "error", r.to_string()))
            .collect()
    }
    fn github(args: &[&str]) -> Kept {
        validate(&[&["--format", "github"], args].concat(), 1)
            .lines()
            .filter(|l| l.starts_with("::error file=") || l.starts_with("::warning file="))
            .map(|l| (l.starts_with("::error"), l.to_owned()))
            .collect()
    }
    for results in [sarif as fn(&[&str]) -> Kept, github] {
        let all = results(&["--max-results", "0", "examples/"]);
        let errors = all.iter().filter(|(error, _)| *error).count();
        assert!(errors > 1 && errors < all.len(), "errors and warnings both");
        for cap in [
            1,
            errors - 1,
            errors,
            errors + 1,
            all.len() - 1,
            all.len(),
            all.len() + 1,
        ] {
            let kept = results(&["--max-results", &cap.to_string(), "examples/"]);
            let warnings_kept = cap.saturating_sub(errors);
            let mut errors_seen = 0;
            let mut warnings_seen = 0;
            let expected: Kept = all
                .iter()
                .filter(|(error, _)| {
                    if *error {
                        errors_seen += 1;
                        errors_seen <= cap
                    } else {
                        warnings_seen += 1;
                        warnings_seen <= warnings_kept
                    }
                })
                .cloned()
                .collect();
            assert_eq!(kept.len(), cap.min(all.len()), "cap {cap}");
            assert_eq!(kept, expected, "cap {cap}");
        }
    }
}

/// Without the flag, SARIF keeps 25,000 results and GitHub 50 annotations;
/// `--max-results 0` keeps all; the exit status is the same in each.
#[test]
fn default_caps_apply_without_the_flag_and_0_keeps_all() {
    // A set of 1,001 cards without a member: 25 missing members each, and
    // the set's `tokens`.
    let cards = vec!["{}"; 1_001].join(",");
    let set = std::fs::read_to_string(workspace_dir().join("examples/valid/set.json"))
        .expect("the example set");
    let mut set: serde_json::Value = serde_json::from_str(&set).expect("JSON");
    let set = set.as_object_mut().expect("an object");
    set.remove("tokens");
    set.insert(
        "cards".into(),
        serde_json::from_str(&format!("[{cards}]")).expect("JSON"),
    );
    let dir = dir_with(&[("many.json", &serde_json::to_string(&set).expect("JSON"))]);
    let run = |args: &[&str]| -> String {
        let output = cardkit()
            .current_dir(dir.path())
            .arg("validate")
            .args(args)
            .arg("many.json")
            .assert()
            .code(1)
            .get_output()
            .clone();
        String::from_utf8(output.stdout).expect("UTF-8")
    };
    let results = |log: &str| -> (usize, serde_json::Value) {
        let log: serde_json::Value = serde_json::from_str(log).expect("SARIF is JSON");
        let run = &log["runs"][0];
        let notifications = &run["invocations"][0]["toolExecutionNotifications"];
        (
            run["results"].as_array().expect("results").len(),
            notifications.clone(),
        )
    };
    let (all, notes) = results(&run(&["--format", "sarif", "--max-results", "0"]));
    assert_eq!(all, 25_026);
    // How the file was read, and nothing left out.
    assert_eq!(notes.as_array().map(Vec::len), Some(1), "{notes}");
    assert!(
        notes[0]["message"]["text"]
            .as_str()
            .is_some_and(|text| text.starts_with("read under")),
        "{notes}"
    );
    let (kept, notifications) = results(&run(&["--format", "sarif"]));
    assert_eq!(kept, 25_000);
    assert_eq!(
        notifications[1]["message"]["text"],
        "26 results were left out (cap 25,000): 26 errors and 0 warnings; \
         run with --max-results 0 or --format json to see them all"
    );
    let annotations = |report: &str| {
        report
            .lines()
            .filter(|l| l.starts_with("::error file="))
            .count()
    };
    let report = run(&["--format", "github"]);
    assert_eq!(annotations(&report), 50);
    assert!(report.contains("::notice title=cardkit::24,976 annotations were left out (cap 50)"));
    assert_eq!(
        annotations(&run(&["--format", "github", "--max-results", "0"])),
        25_026
    );
}

#[test]
fn max_results_is_refused_with_formats_that_have_no_cap() {
    for args in [
        &["--format", "json"][..],
        &["--format", "junit"],
        &["--statistics"],
    ] {
        let output = cardkit()
            .current_dir(workspace_dir())
            .arg("validate")
            .args(args)
            .args(["--max-results", "3", "examples/"])
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert!(
            stderr.contains("--max-results caps only --format sarif and --format github, not"),
            "{stderr}"
        );
    }
}

/// A repeated unknown member whose name holds dashes (`--`, `---`) is
/// named in the report's closing comment, which stays well-formed XML.
#[test]
fn junit_comment_with_dashed_member_names_is_well_formed() {
    let line = r#"{"object": "migration", "x---y": 1, "--": 2}"#;
    let lines = vec![line; 40].join("\n");
    let dir = dir_with(&[("dashes.jsonl", lines.as_str())]);
    let junit = cardkit()
        .args(["validate", "--format", "junit"])
        .arg(dir.path().join("dashes.jsonl"))
        .output()
        .expect("cardkit runs");
    let text = String::from_utf8(junit.stdout).expect("UTF-8");
    let xml = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let comment = xml
        .root()
        .descendants()
        .rfind(|node| node.is_comment())
        .and_then(|node| node.text())
        .expect("a closing comment");
    assert!(!comment.contains("--"), "{comment}");
    assert!(comment.contains("x- - -y"), "{comment}");
}
