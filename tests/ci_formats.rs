//! The CI formats (`--format github`, `sarif`, `junit`) end to end: their
//! output over the bundled examples is snapshotted, the SARIF log is valid
//! against the SARIF 2.1.0 schema, and the JUnit report is well-formed XML
//! with a test case per document.

mod support;

use support::{cardkit, dir_with, shared_dir, stdout_of, workspace_dir};

/// Runs `cardkit validate ARGS…` from the repository's root and returns
/// standard output; the status must be `code`.
fn validate(args: &[&str], code: i32) -> String {
    stdout_of(&[&["validate"], args].concat(), code)
}

#[test]
fn github_annotations_of_the_examples() {
    let report = validate(&["--format", "github", "examples/"], 1);
    insta::assert_snapshot!("validate_examples_github", report);
}

#[test]
fn sarif_of_the_examples() {
    let report = validate(&["--format", "sarif", "examples/"], 1);
    let log: serde_json::Value = serde_json::from_str(&report).expect("SARIF is JSON");
    insta::assert_snapshot!(
        "validate_examples_sarif",
        serde_json::to_string_pretty(&log).expect("JSON")
    );
}

#[test]
fn junit_of_the_examples() {
    let report = validate(&["--format", "junit", "examples/"], 1);
    insta::assert_snapshot!("validate_examples_junit", report);
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
