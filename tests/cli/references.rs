//! `cardkit validate --references`: the references between the documents
//! of a run, across its inputs, in every format, as warnings or errors, and
//! from the configuration file.

use std::path::PathBuf;

use crate::support::report::{json_report, parse};
use crate::support::{cardkit, dir_with, workspace_dir};

/// A case of the library's references conformance suite.
fn case(name: &str) -> PathBuf {
    workspace_dir().join(format!("crates/cardkit/tests/references/{name}.json"))
}

fn text_of(name: &str) -> String {
    std::fs::read_to_string(case(name)).expect("the case is there")
}

/// Every diagnostic of a JSON report whose code is `code`.
fn findings<'v>(report: &'v serde_json::Value, code: &str) -> Vec<&'v serde_json::Value> {
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|file| file["documents"].as_array().expect("documents"))
        .flat_map(|document| document["diagnostics"].as_array().expect("diagnostics"))
        .filter(|d| d["code"] == code)
        .collect()
}

#[test]
fn an_id_given_in_two_files_names_the_file_it_was_first_given_in() {
    let set = text_of("duplicate_id-holds");
    let dir = dir_with(&[("a.json", &set), ("b.json", &set)]);
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    let report = json_report(
        &["--references", a.to_str().unwrap(), b.to_str().unwrap()],
        None,
        0,
    );
    let duplicates = findings(&report, "duplicate_id");
    // Two cards' uuids and the set's code, each given again in b.json.
    assert_eq!(duplicates.len(), 3, "{report:#}");
    let uuid = duplicates
        .iter()
        .find(|d| d["pointer"] == "/cards/1/uuid")
        .expect("the second card's uuid");
    assert_eq!(uuid["severity"], "warning");
    assert_eq!(uuid["field"], "CardSet.uuid");
    assert_eq!(uuid["related"]["file"], a.to_str().unwrap());
    assert_eq!(uuid["related"]["pointer"], "/cards/1/uuid");
    assert_eq!(uuid["related"]["line"], uuid["line"]);
    // Warnings: every document stays valid, and the summary counts them.
    assert_eq!(report["summary"]["valid"], 2);
    assert_eq!(report["summary"]["warnings"]["duplicate_id"], 3);
}

#[test]
fn as_errors_the_findings_make_their_documents_invalid() {
    let path = case("duplicate_id-fails");
    let report = json_report(&["--references=error", path.to_str().unwrap()], None, 1);
    assert_eq!(findings(&report, "duplicate_id")[0]["severity"], "error");
    assert_eq!(report["summary"]["documents"], 1);
    assert_eq!(
        (
            report["summary"]["valid"].clone(),
            report["summary"]["invalid"].clone()
        ),
        (0.into(), 1.into())
    );
    // Without the option, the same file is valid and nothing is said.
    let plain = json_report(&[path.to_str().unwrap()], None, 0);
    assert!(findings(&plain, "duplicate_id").is_empty());
}

#[test]
fn the_configuration_asks_for_references_as_errors() {
    let dir = dir_with(&[
        ("cardkit.toml", "references = \"error\"\n"),
        ("set.json", &text_of("asymmetric_faces-fails")),
    ]);
    let config = dir.path().join("cardkit.toml");
    let set = dir.path().join("set.json");
    let out = cardkit()
        .args(["validate", "--format", "json", "--config"])
        .args([&config, &set])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let report = parse(&out);
    assert_eq!(
        findings(&report, "asymmetric_faces")[0]["severity"],
        "error"
    );
    // The flag wins over the file.
    cardkit()
        .args(["validate", "--references=false", "--config"])
        .args([&config, &set])
        .assert()
        .code(0);
    let bad = dir_with(&[("cardkit.toml", "references = \"maybe\"\n")]);
    let out = cardkit()
        .args(["validate", "--config"])
        .args([bad.path().join("cardkit.toml"), set])
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8_lossy(&out);
    assert!(
        stderr.contains("references") && stderr.contains("\"error\""),
        "{stderr}"
    );
}

#[test]
fn the_flag_alone_never_takes_the_path_after_it() {
    let path = case("dangling_reference-faces-fails");
    let out = cardkit()
        .args(["validate", "--references"])
        .arg(&path)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&out).contains("warning[dangling_reference]"));
    let out = cardkit()
        .args(["validate", "--references=maybe"])
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert!(
        String::from_utf8_lossy(&out).contains("expected true (the flag alone), error or false")
    );
}

#[test]
fn what_a_set_file_alone_cannot_tell_is_counted_in_a_note() {
    let path = case("dangling_reference-parent-elsewhere-holds");
    let report = json_report(&["--references", path.to_str().unwrap()], None, 0);
    let notes: Vec<&str> = report["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|file| file["note"].as_str())
        .collect();
    assert!(
        notes.iter().any(|note| note.starts_with("references: 1 reference to sets, cards or printings beyond the 1 set document read was not checked")),
        "{notes:?}"
    );
}

#[test]
fn sarif_gives_the_second_place_as_a_related_location() {
    let path = case("duplicate_printing-fails");
    let out = cardkit()
        .args(["validate", "--references", "--format", "sarif"])
        .arg(&path)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let sarif = parse(&out);
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "duplicate_printing");
    let related = &result["relatedLocations"][0];
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 19);
    assert_eq!(
        related["message"]["text"],
        "the first record of that printing (/cards/0/number)"
    );
}

#[test]
fn the_text_report_shows_the_second_place_as_a_note() {
    let path = case("asymmetric_faces-fails");
    let out = cardkit()
        .args(["validate", "--references", "--color", "never", "--quiet"])
        .arg("asymmetric_faces-fails.json")
        .current_dir(path.parent().expect("a folder"))
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    // The summary's time changes from run to run.
    let text: String = String::from_utf8_lossy(&out)
        .lines()
        .filter(|line| !line.starts_with("checked "))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_snapshot!("asymmetric_faces", text);
}

#[cfg(feature = "serve")]
#[test]
fn the_service_checks_references_when_asked_and_reports_as_the_command_line() {
    use crate::support::service::Service;
    let service = Service::start();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let path = case("variation_elsewhere-fails");
    let body = std::fs::read(&path).expect("the case");
    let post = |query: &str| {
        let mut response = agent
            .post(service.url(&format!("/v1/validate?name=catalog.json{query}")))
            .header("content-type", "application/json")
            .send(&body[..])
            .expect("the service answers");
        let status = response.status();
        let report: serde_json::Value =
            serde_json::from_reader(response.body_mut().as_reader()).expect("JSON");
        (status, report)
    };
    let (status, served) = post("&references=true");
    assert_eq!(status, 200);
    let found = findings(&served, "variation_elsewhere");
    assert_eq!(found.len(), 1, "{served:#}");
    let cli = json_report(&["--references", path.to_str().unwrap()], None, 0);
    assert_eq!(
        found[0]["related"],
        findings(&cli, "variation_elsewhere")[0]["related"]
    );
    // Not asked, not checked; a value it does not take is a bad request.
    assert!(findings(&post("").1, "variation_elsewhere").is_empty());
    let (status, problem) = post("&references=maybe");
    assert_eq!(status, 400, "{problem:#}");
}

#[test]
fn the_configurations_ignore_leaves_findings_out_as_it_leaves_out_any() {
    let dir = dir_with(&[
        (
            "cardkit.toml",
            "references = true\nignore = [\"duplicate_printing\", \"/cards/*/uuid\"]\n",
        ),
        ("set.json", &text_of("duplicate_id-fails")),
        ("other.json", &text_of("duplicate_printing-fails")),
    ]);
    let out = cardkit()
        .args(["validate", "--format", "json", "--config"])
        .arg(dir.path().join("cardkit.toml"))
        .args([dir.path().join("set.json"), dir.path().join("other.json")])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report = parse(&out);
    // By code and by place: the uuids given twice (once in set.json, once
    // across the files) and the printing are left out, and counted; the
    // set code both files give is not.
    assert!(
        findings(&report, "duplicate_printing").is_empty(),
        "{report:#}"
    );
    let left = findings(&report, "duplicate_id");
    assert_eq!(left.len(), 1, "{report:#}");
    assert_eq!(left[0]["pointer"], "/code");
    assert_eq!(report["summary"]["ignored"], 3, "{report:#}");
}
