//! Floods folded, nothing lost: the text report shows ten errors of a kind
//! (`--error-limit`) and counts the rest in a closing note; the members
//! missing from one object are one block there; the machine formats keep
//! every error unless asked; `--statistics` counts what the JSON report
//! holds; `--format concise` is a line per diagnostic; the exit status never
//! changes. Checked on a real set (the corpus's NEO) and on a catalog made
//! by the shared generator from the corpus's 10E and NEO.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;
use support::{cardkit, shared_dir};

fn run(args: &[&str]) -> (i32, String) {
    let output = cardkit()
        .arg("validate")
        .arg("--no-config")
        // Folding is checked on the floods of errors a file gives as of
        // the latest version (the corpus's sets declare older ones).
        .args(["--as-of", "latest"])
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("cardkit runs");
    let code = output.status.code().expect("an exit status");
    (code, String::from_utf8(output.stdout).expect("UTF-8"))
}

/// `cardkit validate --format json ARGS…`, parsed, with its status.
fn json(args: &[&str]) -> (i32, Value) {
    let (status, report) = run(&[&["--format", "json"], args].concat());
    (status, serde_json::from_str(&report).expect("JSON"))
}

/// The report without the run's time, to compare reports of two runs.
fn timeless(mut report: Value) -> Value {
    report["summary"]["seconds"] = Value::Null;
    report
}

/// Where a diagnostic is, as the text report and the JSON report both tell
/// it: line, column, code and pointer.
type Place = (u64, u64, String, String);

/// What a group of diagnostics has in common, as `--error-limit` and
/// `--statistics` count them: severity, code, and `Model.field`.
type Group = (String, String, String);

/// Every diagnostic of a JSON report: its place and its group.
fn diagnostics(report: &Value) -> Vec<(Place, Group)> {
    report["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|file| file["documents"].as_array().expect("documents"))
        .flat_map(|document| document["diagnostics"].as_array().expect("diagnostics"))
        .map(|d| {
            let text = |key: &str| d[key].as_str().expect(key).to_owned();
            let number = |key: &str| d[key].as_u64().expect(key);
            let place = (
                number("line"),
                number("column"),
                text("code"),
                text("pointer"),
            );
            let field = d["field"].as_str().unwrap_or(&place.3).to_owned();
            (place, (text("severity"), text("code"), field))
        })
        .collect()
}

/// Every diagnostic the text report shows, by its place: a block of members
/// missing from one object (`missing required fields `a`, `b` of Model`,
/// with the object's pointer) stands for each of them.
fn shown_in_text(text: &str) -> Vec<Place> {
    let mut shown = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some((place, rest)) = line
            .split_once(": error[")
            .or_else(|| line.split_once(": warning["))
        else {
            continue;
        };
        let (code, message) = rest.split_once("]: ").expect("a code and a message");
        let mut at = place.rsplitn(3, ':');
        let column = at.next().and_then(|n| n.parse().ok()).expect("a column");
        let line_number = at.next().and_then(|n| n.parse().ok()).expect("a line");
        let pointer = lines
            .next()
            .and_then(|next| next.trim_start().strip_prefix("--> "))
            .unwrap_or_else(|| panic!("no pointer after {line}"));
        let pointer = if pointer == "(the root)" { "" } else { pointer };
        let place = |pointer: String| (line_number, column, code.to_owned(), pointer);
        match message.strip_prefix("missing required fields ") {
            Some(members) => {
                let (members, _model) = members.rsplit_once(" of ").expect("of a model");
                let members: Vec<&str> = members
                    .split(", ")
                    .map(|member| member.trim_matches('`'))
                    .collect();
                assert!(members.len() > 1, "{line}");
                shown.extend(members.iter().map(|m| place(format!("{pointer}/{m}"))));
            }
            None => shown.push(place(pointer.to_owned())),
        }
    }
    shown
}

/// The closing notes of the text report: how many of each group were not
/// shown, and how many there were in all.
fn noted(text: &str) -> BTreeMap<Group, (usize, usize)> {
    text.lines()
        .filter_map(|line| line.strip_prefix("note: "))
        .filter(|note| note.ends_with(" in all)"))
        .map(|note| {
            // `582 more missing_field errors like CardSet.language not shown (592 in all)`
            let words: Vec<&str> = note.split(' ').collect();
            let more = words[0].parse().expect("a count");
            let total = words[words.len() - 3]
                .trim_start_matches('(')
                .parse()
                .expect("a total");
            let severity = words[3].trim_end_matches('s').to_owned();
            let group = (severity, words[2].to_owned(), words[5].to_owned());
            (group, (more, total))
        })
        .collect()
}

/// How many diagnostics there are of each group.
fn per_group(diagnostics: &[(Place, Group)]) -> BTreeMap<Group, usize> {
    let mut groups = BTreeMap::new();
    for (_, group) in diagnostics {
        *groups.entry(group.clone()).or_default() += 1;
    }
    groups
}

/// The places of `diagnostics`, in order.
fn places(diagnostics: &[(Place, Group)]) -> Vec<Place> {
    diagnostics.iter().map(|(place, _)| place.clone()).collect()
}

/// Every check of folding on one input: `most_lines` bounds its default
/// text report.
fn check_folding(input: &Path, most_lines: usize) {
    let input = input.to_str().expect("a UTF-8 path");
    // Every diagnostic, warnings too, and the report as it is by default.
    let (status, every) = json(&["--warning-limit", "0", input]);
    let every = diagnostics(&every);
    let (default_status, report) = json(&[input]);
    assert_eq!(default_status, status);
    let listed = diagnostics(&report);
    let errors = every.iter().filter(|(_, g)| g.0 == "error").count();
    assert!(errors > 500, "{errors} errors");
    assert_eq!(report["summary"]["errors"]["missing_field"], errors);
    let groups = per_group(&every);

    // Text: at most ten errors and three warnings of each group, the rest
    // in notes; shown and noted add up to each group's count.
    let (text_status, text) = run(&[input]);
    assert_eq!(text_status, status);
    let lines = text.lines().count();
    assert!(lines < most_lines, "{lines} lines");
    let by_place: BTreeMap<&Place, &Group> = every.iter().map(|(p, g)| (p, g)).collect();
    let mut shown: BTreeMap<Group, usize> = BTreeMap::new();
    for place in shown_in_text(&text) {
        let group = by_place
            .get(&place)
            .unwrap_or_else(|| panic!("{place:?} is shown but not in the JSON report"));
        *shown.entry((*group).clone()).or_default() += 1;
    }
    let noted = noted(&text);
    assert!(
        noted.keys().any(|group| group.0 == "error"),
        "errors folded"
    );
    for (group, &count) in &groups {
        let limit = if group.0 == "error" { 10 } else { 3 };
        let seen = shown.get(group).copied().unwrap_or_default();
        assert_eq!(seen, count.min(limit), "{group:?} shown");
        let (more, total) = noted.get(group).copied().unwrap_or((0, count));
        assert_eq!(seen + more, count, "{group:?} shown and noted");
        assert_eq!(total, count, "{group:?} in all");
    }
    assert!(
        noted.keys().all(|group| groups.contains_key(group)),
        "{noted:?}"
    );
    // The members missing from one object are one block (CardToken's
    // `language` and `relatedCards`).
    assert!(text.contains(": error[missing_field]: missing required fields "));

    // --error-limit 0 shows every diagnostic the JSON report lists (repeated
    // warnings held back alike), in its order.
    let (all_status, all) = run(&["--error-limit", "0", input]);
    assert_eq!(all_status, status);
    assert_eq!(shown_in_text(&all), places(&listed));
    // … and with --warning-limit 0 every one there is.
    let (_, all) = run(&["--error-limit", "0", "--warning-limit", "0", input]);
    assert_eq!(shown_in_text(&all), places(&every));

    // The JSON report is the same with and without the folding options
    // that keep everything.
    let report = timeless(report);
    for folding in [
        &["--error-limit", "0"][..],
        &["--error-limit", "0", "--warning-limit", "3"],
    ] {
        let (folding_status, folded) = json(&[folding, &[input]].concat());
        assert_eq!(folding_status, status);
        assert_eq!(timeless(folded), report, "with {folding:?}");
    }

    // --statistics counts what the JSON report holds.
    let (stats_status, stats) = run(&["--statistics", input]);
    assert_eq!(stats_status, status);
    let mut counted = BTreeMap::new();
    for line in stats
        .lines()
        .take_while(|line| !line.starts_with("checked "))
    {
        let row: Vec<&str> = line.split_whitespace().collect();
        let [n, severity, code, field] = row[..] else {
            panic!("not a row: {line}");
        };
        let group = (severity.to_owned(), code.to_owned(), field.to_owned());
        counted.insert(group, n.parse::<usize>().expect("a count"));
    }
    assert_eq!(counted, groups);

    // Concise: a line per diagnostic the JSON report lists.
    let (concise_status, concise) = run(&["--format", "concise", input]);
    assert_eq!(concise_status, status);
    let concise_lines = concise
        .lines()
        .filter(|line| line.contains(": error[") || line.contains(": warning["))
        .count();
    assert_eq!(concise_lines, listed.len());

    // An explicit limit folds the machine formats too, and says so.
    let (folded_status, folded) = json(&["--error-limit", "1", input]);
    assert_eq!(folded_status, status);
    let suppressed = folded["suppressed"].as_array().expect("suppressed");
    assert!(suppressed.iter().any(|s| s["severity"] == "error"));
    assert_eq!(timeless(folded)["summary"], report["summary"]);
}

#[test]
fn a_flood_of_errors_is_folded_in_text_and_kept_elsewhere() {
    let Some(shared) = shared_dir() else {
        return;
    };
    check_folding(&shared.join("corpus/neutral/set/jsonsets_NEO.json"), 400);
}

/// A catalog of three sets (10E, NEO, 10E again: 7.8 MB) made by the shared
/// generator, once for the run.
fn generated_catalog(shared: &Path) -> &'static Path {
    static CATALOG: OnceLock<PathBuf> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("folding-10E-NEO.json");
        let sets = shared.join("corpus/neutral/set");
        let made = Command::new("python3")
            .arg(shared.join("bench/make_allprintings.py"))
            .arg(sets.join("jsonsets_10E.json"))
            .arg(sets.join("jsonsets_NEO.json"))
            .args(["--sets", "3", "--seed", "1", "-o"])
            .arg(&out)
            .output()
            .expect("python3 runs the generator");
        assert!(made.status.success(), "{made:?}");
        out
    })
}

#[test]
fn a_generated_catalog_folds_to_a_few_lines_with_every_group_counted() {
    let Some(shared) = shared_dir() else {
        return;
    };
    check_folding(generated_catalog(&shared), 300);
}
