//! The SARIF logs as GitHub code scanning reads them: the SARIF Multitool,
//! with GitHub's rules (`--rule-kind Gh`), finds no error in the logs of the
//! book's command on the examples, of the corpus, of a run capped by
//! `--max-results` and of the service; and
//! every file name, however hostile, is written as a URI reference that
//! Python's `urllib.parse` and Node's `URL` resolve back to the file.
//!
//! The tools are found as `crates/cardkit-serve/tests/clients/tools.rs`
//! says; `.ci/run` installs them.

use crate::support;
#[path = "../../crates/cardkit-serve/tests/clients/tools.rs"]
mod tools;

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::service::Service;
use support::{cardkit, shared_dir, workspace_dir};

/// The book's command that writes the examples' SARIF (in its CI chapter,
/// `docs/ci.md`), as arguments, and its check of the log, as written.
fn book_commands() -> (Vec<String>, String) {
    let chapter =
        std::fs::read_to_string(workspace_dir().join("docs/ci.md")).expect("the book's CI chapter");
    let block = chapter
        .split("```sh\n")
        .skip(1)
        .map(|block| block.split("\n```").next().expect("a block"))
        .find(|block| block.contains("sarif-multitool validate"))
        .expect("docs/ci.md has an sh block that checks a SARIF log with the SARIF Multitool");
    let validate = block
        .lines()
        .find(|line| line.starts_with("cardkit validate --format sarif"))
        .expect("the block runs `cardkit validate --format sarif`");
    let args = validate
        .split('>')
        .next()
        .expect("the command")
        .split_whitespace()
        .skip(1)
        .map(str::to_owned)
        .collect();
    let check = block
        .lines()
        .find(|line| line.contains("sarif-multitool validate"))
        .expect("the check")
        .to_owned();
    (args, check)
}

/// The Multitool's results of `--rule-kind Gh` on `log`: (level, rule,
/// message).
fn github_rules_on(npm: &tools::Npm, log: &str) -> Vec<(String, String, String)> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("cardkit.sarif");
    std::fs::write(&input, log).expect("write the log");
    let output_path = dir.path().join("checked.sarif");
    let output = Command::new(npm.sarif_multitool())
        .args([
            "validate",
            "--rule-kind",
            "Gh",
            "--max-file-size-in-kb",
            "1000000",
            "--output",
        ])
        .arg(&output_path)
        .arg(&input)
        .output()
        .expect("the SARIF Multitool runs");
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let checked: Value = serde_json::from_slice(&std::fs::read(&output_path).expect("its log"))
        .expect("its log is JSON");
    checked["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .flat_map(|run| run["results"].as_array().cloned().unwrap_or_default())
        .map(|result| {
            (
                result["level"].as_str().unwrap_or("warning").to_owned(),
                result["ruleId"].as_str().unwrap_or_default().to_owned(),
                result["message"].to_string(),
            )
        })
        .collect()
}

/// No result of GitHub's rules is an error.
fn passes_github_rules(npm: &tools::Npm, what: &str, log: &str) {
    let results = github_rules_on(npm, log);
    let errors: Vec<_> = results
        .iter()
        .filter(|(level, _, _)| level == "error")
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// Standard output of `cardkit validate ARGS…` run in `dir`, which exits 0
/// (valid) or 1 (invalid).
fn sarif_of(dir: &Path, args: &[&str]) -> String {
    let output = cardkit()
        .current_dir(dir)
        .args(["validate", "--format", "sarif"])
        .args(args)
        .output()
        .expect("cardkit runs");
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{args:?}: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn the_books_examples_log_passes_github_rules() {
    let Some(npm) = tools::npm() else { return };
    let (args, check) = book_commands();
    assert!(check.contains("--rule-kind Gh"), "{check}");
    assert!(args.contains(&"examples/".to_owned()), "{args:?}");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let log = cardkit()
        .current_dir(workspace_dir())
        .args(&args)
        .output()
        .expect("cardkit runs")
        .stdout;
    let log = String::from_utf8(log).expect("UTF-8");
    passes_github_rules(&npm, "the examples", &log);
    // The check is not vacuous: a rule without its full description is an
    // error of GitHub's rules (GH2012).
    let mut without: Value = serde_json::from_str(&log).expect("JSON");
    without["runs"][0]["tool"]["driver"]["rules"][0]
        .as_object_mut()
        .expect("a rule")
        .remove("fullDescription");
    let results = github_rules_on(&npm, &without.to_string());
    assert!(
        results
            .iter()
            .any(|(level, rule, _)| level == "error" && rule == "GH2012"),
        "{results:#?}"
    );
}

#[test]
fn the_corpus_log_passes_github_rules() {
    let Some(npm) = tools::npm() else { return };
    let Some(shared) = shared_dir() else { return };
    let log = sarif_of(&shared, &["corpus"]);
    passes_github_rules(&npm, "the corpus", &log);
}

/// A capped run's log, with the notification of what it left out.
#[test]
fn a_capped_log_passes_github_rules() {
    let Some(npm) = tools::npm() else { return };
    let log = sarif_of(&workspace_dir(), &["--max-results", "5", "examples/"]);
    let parsed: Value = serde_json::from_str(&log).expect("JSON");
    assert_eq!(
        parsed["runs"][0]["results"].as_array().map(Vec::len),
        Some(5)
    );
    let notifications = &parsed["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert!(
        notifications
            .as_array()
            .expect("notifications")
            .iter()
            .any(|n| n["properties"]["maxResults"] == 5),
        "{notifications}"
    );
    passes_github_rules(&npm, "a capped run", &log);
}

#[test]
fn the_service_log_passes_github_rules() {
    let Some(npm) = tools::npm() else { return };
    let service = Service::start();
    let body = std::fs::read(workspace_dir().join("examples/invalid/card-layer-problems.json"))
        .expect("an example");
    let log = ureq::post(&service.url("/v1/validate?name=a:b.json"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/sarif+json")
        .send(&body[..])
        .expect("the service answers")
        .body_mut()
        .read_to_string()
        .expect("a body");
    passes_github_rules(&npm, "the service", &log);
    let log: Value = serde_json::from_str(&log).expect("JSON");
    assert_eq!(
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "./a:b.json"
    );
}

/// Hostile file names: (the name given on the command line, the file's
/// name).
const NAMES: [(&str, &str); 8] = [
    ("a:b.json", "a:b.json"),
    ("http:x.json", "http:x.json"),
    ("./c:d.json", "c:d.json"),
    ("back\\slash.json", "back\\slash.json"),
    ("50%.json", "50%.json"),
    ("with space.json", "with space.json"),
    ("naïve.json", "naïve.json"),
    ("#hash?.json", "#hash?.json"),
];

/// Each name's URI resolved against `file:///base/` by `program` (python or
/// node) running `script` with the URIs as arguments, one path per line.
fn resolved(program: &Path, script: &[&str], uris: &[String]) -> Vec<String> {
    let output = Command::new(program)
        .args(script)
        .args(uris)
        .output()
        .expect("it runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
#[cfg(unix)]
fn hostile_file_names_are_uri_references_that_resolve_to_the_file() {
    let Some(npm) = tools::npm() else { return };
    let Some(python) = tools::python(&["urllib.parse"]) else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (_, name) in NAMES {
        std::fs::write(dir.path().join(name), r#"{"object": "migration"}"#).expect("a file");
    }
    let args: Vec<&str> = NAMES.iter().map(|(given, _)| *given).collect();
    let log = sarif_of(dir.path(), &args);
    passes_github_rules(&npm, "hostile names", &log);
    let log: Value = serde_json::from_str(&log).expect("JSON");
    let mut uris: Vec<String> = Vec::new();
    for result in log["runs"][0]["results"].as_array().expect("results") {
        let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .expect("a URI")
            .to_owned();
        if !uris.contains(&uri) {
            uris.push(uri);
        }
    }
    assert_eq!(uris.len(), NAMES.len(), "{uris:#?}");
    for uri in &uris {
        assert!(
            uri.bytes().all(|byte| byte.is_ascii_graphic()),
            "{uri}: not percent-encoded"
        );
        iri_free_of_scheme(uri);
    }
    let python_paths = resolved(
        &python,
        &[
            "-c",
            "import sys, urllib.parse as p\n\
             for uri in sys.argv[1:]:\n\
             \x20   print(p.unquote(p.urlparse(p.urljoin('file:///base/', uri)).path))",
        ],
        &uris,
    );
    let node_paths = resolved(
        Path::new(&npm.node),
        &[
            "-e",
            "for (const uri of process.argv.slice(1)) \
             console.log(decodeURIComponent(new URL(uri, 'file:///base/').pathname))",
        ],
        &uris,
    );
    let mut expected: Vec<String> = NAMES
        .iter()
        .map(|(_, name)| format!("/base/{name}"))
        .collect();
    expected.sort();
    for (who, mut paths) in [("Python", python_paths), ("Node", node_paths)] {
        paths.sort();
        assert_eq!(paths, expected, "{who}, from {uris:#?}");
    }
}

/// A relative reference's first segment holds no `:` (or it would be read
/// as a scheme, RFC 3986 section 4.2).
fn iri_free_of_scheme(uri: &str) {
    let first = uri.split('/').next().unwrap_or_default();
    assert!(!first.contains(':'), "{uri}: read as a scheme");
}
