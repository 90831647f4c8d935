//! Floods folded, nothing lost: the text report shows ten errors of a kind
//! (`--error-limit`) and counts the rest in a closing note; the machine
//! formats keep every error unless asked; `--statistics` counts what the
//! JSON report holds; `--format concise` is a line per diagnostic; the exit
//! status never changes.

mod support;

use std::collections::BTreeMap;

use serde_json::Value;
use support::{cardkit, shared_dir};

fn run(args: &[&str]) -> (i32, String) {
    let output = cardkit()
        .arg("validate")
        .arg("--no-config")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("cardkit runs");
    let code = output.status.code().expect("an exit status");
    (code, String::from_utf8(output.stdout).expect("UTF-8"))
}

/// The text report's headlines (`path:line:column: severity[code]: …`).
fn headlines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|line| line.contains(": error[") || line.contains(": warning["))
        .collect()
}

#[test]
fn a_flood_of_errors_is_folded_in_text_and_kept_elsewhere() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let set = shared.join("corpus/neutral/set/jsonsets_NEO.json");
    let set = set.to_str().expect("a UTF-8 path");

    let (status, json) = run(&["--format", "json", set]);
    let report: Value = serde_json::from_str(&json).expect("JSON");
    let diagnostics: Vec<&Value> = report["files"][0]["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .flat_map(|document| document["diagnostics"].as_array().expect("diagnostics"))
        .collect();
    let errors = diagnostics
        .iter()
        .filter(|d| d["severity"] == "error")
        .count();
    assert!(errors > 500, "{errors} errors");
    assert_eq!(report["summary"]["errors"]["missing_field"], errors);

    // Text: at most ten of each code and field, the rest in notes that add
    // up to every error.
    let (text_status, text) = run(&[set]);
    assert_eq!(text_status, status);
    let shown: Vec<&str> = headlines(&text)
        .into_iter()
        .filter(|line| line.contains(": error["))
        .collect();
    let mut per_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d["severity"] == "error") {
        *per_kind
            .entry(d["field"].as_str().expect("a field"))
            .or_default() += 1;
    }
    let expected_shown: usize = per_kind.values().map(|&n| n.min(10)).sum();
    assert_eq!(shown.len(), expected_shown);
    let noted: usize = text
        .lines()
        .filter(|line| line.starts_with("note: ") && line.contains(" errors like "))
        .map(|line| {
            let more = line["note: ".len()..].split(' ').next().expect("a count");
            more.parse::<usize>().expect("a number")
        })
        .sum();
    assert_eq!(shown.len() + noted, errors, "every error shown or counted");
    assert!(text.lines().count() < 400, "{} lines", text.lines().count());

    // --error-limit 0 shows every error, as the text report did before.
    let (all_status, all) = run(&["--error-limit", "0", set]);
    assert_eq!(all_status, status);
    let all_errors = headlines(&all)
        .into_iter()
        .filter(|line| line.contains(": error["))
        .count();
    assert_eq!(all_errors, errors);

    // --statistics counts what the JSON report holds.
    let (stats_status, stats) = run(&["--statistics", set]);
    assert_eq!(stats_status, status);
    for (field, n) in &per_kind {
        let row = stats
            .lines()
            .find(|line| line.contains("missing_field") && line.ends_with(&format!(" {field}")))
            .unwrap_or_else(|| panic!("no row for {field}:\n{stats}"));
        assert_eq!(row.split_whitespace().next(), Some(n.to_string().as_str()));
    }

    // Concise: a line per diagnostic the JSON report shows.
    let (concise_status, concise) = run(&["--format", "concise", set]);
    assert_eq!(concise_status, status);
    assert_eq!(headlines(&concise).len(), diagnostics.len());

    // An explicit limit folds the machine formats too, and says so.
    let (_, folded) = run(&["--format", "json", "--error-limit", "1", set]);
    let folded: Value = serde_json::from_str(&folded).expect("JSON");
    let suppressed = folded["suppressed"].as_array().expect("suppressed");
    assert!(suppressed.iter().any(|s| s["severity"] == "error"));
    assert_eq!(folded["summary"], {
        let mut summary = report["summary"].clone();
        summary["seconds"] = folded["summary"]["seconds"].clone();
        summary
    });
}
