//! The publishers' wire names (`Options::names`): the one table agrees with
//! the corpus's own mapping, every raw corpus file read under them gives
//! its neutral twin's verdict and errors, and the schema under them agrees
//! with the validator.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use cardkit::schema::json_schema::json_schema_named;
use cardkit::schema::names::UPSTREAM;
use cardkit::schema::Names;
use cardkit::validate;
use cardkit::Kind;
use cardkit::Options;
use cardkit::Severity;

use support::shared_dir;

/// `KEY_MAP` of the corpus's `neutralize.py`: upstream name → spec name.
fn corpus_key_map(shared: &Path) -> BTreeMap<String, String> {
    let script = std::fs::read_to_string(shared.join("corpus/neutralize.py")).unwrap();
    let table = script
        .split_once("KEY_MAP = {")
        .and_then(|(_, rest)| rest.split_once('}'))
        .map(|(table, _)| table)
        .expect("neutralize.py has a KEY_MAP");
    let map: BTreeMap<String, String> = table
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with('"'))
        .map(|line| {
            let quoted: Vec<&str> = line.split('"').collect();
            assert!(quoted.len() >= 4, "a KEY_MAP line: {line}");
            (quoted[1].to_owned(), quoted[3].to_owned())
        })
        .collect();
    assert!(map.len() >= 30, "{} KEY_MAP entries", map.len());
    map
}

#[test]
fn the_table_of_upstream_names_is_the_corpus_key_map() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let everywhere: BTreeMap<String, String> = UPSTREAM
        .iter()
        .filter(|rename| rename.model.is_none())
        .map(|rename| (rename.upstream.to_owned(), rename.spec.to_owned()))
        .collect();
    assert_eq!(everywhere, corpus_key_map(&shared));
}

/// Every raw corpus file with its neutral twin, and the twin.
fn twins(shared: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut found = Vec::new();
    for kind in ["set", "migration", "template", "card"] {
        let raw = shared.join("corpus/raw").join(kind);
        for entry in std::fs::read_dir(&raw).unwrap() {
            let path = entry.unwrap().path();
            let twin = shared
                .join("corpus/neutral")
                .join(kind)
                .join(path.file_name().unwrap());
            assert!(twin.is_file(), "{} has no neutral twin", path.display());
            found.push((path, twin));
        }
    }
    found.sort();
    assert!(found.len() >= 40, "{} raw files", found.len());
    found
}

/// A pointer with each reference token renamed by `map` where it has an
/// entry.
fn renamed(pointer: &str, map: &BTreeMap<String, String>) -> String {
    pointer
        .split('/')
        .map(|token| map.get(token).map_or(token, String::as_str))
        .collect::<Vec<_>>()
        .join("/")
}

/// Members that the publishers' names read and the spec's names leave
/// unknown: diagnostics at them may differ between a raw file and its twin.
fn read_only_upstream(pointer: &str) -> bool {
    UPSTREAM
        .iter()
        .filter(|rename| rename.model.is_some())
        .any(|rename| pointer.ends_with(&format!("/{}", rename.upstream)))
}

/// Each document's validity and its diagnostics as `severity code pointer`.
fn verdicts(report: &cardkit::FileReport) -> Vec<(bool, BTreeSet<String>)> {
    report
        .documents
        .iter()
        .map(|document| {
            let diagnostics = document
                .diagnostics
                .iter()
                .filter(|d| !read_only_upstream(&d.pointer))
                .map(|d| {
                    let severity = if d.severity == Severity::Error {
                        "error"
                    } else {
                        "warning"
                    };
                    format!("{severity} {} {}", d.code.as_str(), d.pointer)
                })
                .collect();
            (document.is_valid(), diagnostics)
        })
        .collect()
}

#[test]
fn every_raw_file_under_upstream_names_gives_its_neutral_twins_verdict_and_errors() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let upstream_of: BTreeMap<String, String> = corpus_key_map(&shared)
        .into_iter()
        .map(|(upstream, spec)| (spec, upstream))
        .collect();
    let mut failures = Vec::new();
    for (raw, neutral) in twins(&shared) {
        let read = |path: &Path, names: Names| {
            let bytes = std::fs::read(path).unwrap();
            let options = Options {
                names,
                ..Options::default()
            };
            validate(&bytes, &options)
        };
        let upstream = verdicts(&read(&raw, Names::Upstream));
        let mut twin = verdicts(&read(&neutral, Names::Spec));
        // The twin's pointers under the names the raw file uses.
        for (_, diagnostics) in &mut twin {
            *diagnostics = diagnostics
                .iter()
                .map(|d| renamed(d, &upstream_of))
                .collect();
        }
        let touched = std::fs::read_to_string(&raw)
            .unwrap()
            .contains("performed_at");
        // The verdict may differ only by a member the profile reads (a
        // migration's `performed_at`, read as a date).
        if !touched && upstream.iter().map(|d| d.0).ne(twin.iter().map(|d| d.0)) {
            failures.push(format!("{}: verdicts differ", raw.display()));
        }
        // Every diagnostic is the same, at the same pointer under the file's
        // names, but those at members the profile reads (left out above).
        let listed = |documents: &[(bool, BTreeSet<String>)]| -> Vec<BTreeSet<String>> {
            documents.iter().map(|(_, d)| d.clone()).collect()
        };
        if listed(&upstream) != listed(&twin) {
            failures.push(format!(
                "{}: diagnostics differ:\n  upstream: {upstream:?}\n  neutral:  {twin:?}",
                raw.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_schema_under_upstream_names_agrees_with_the_validator_on_the_raw_sets() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let schema = json_schema_named(Kind::Set, Names::Upstream);
    let properties = schema["properties"].as_object().unwrap();
    assert!(properties.contains_key("keyruneCode"));
    assert!(!properties.contains_key("iconCode"));
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    // The unwrapped raw set (no `meta`/`data` wrapper): its verdict under
    // the schema is the validator's.
    let raw = shared.join("corpus/raw/set/mightstone_set_BRO.json");
    let bytes = std::fs::read(&raw).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let options = Options {
        kind: Some(Kind::Set),
        names: Names::Upstream,
        ..Options::default()
    };
    let report = validate(&bytes, &options);
    let errors: BTreeSet<String> = report.documents[0]
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.pointer.clone())
        .collect();
    let schema_errors: BTreeSet<String> = validator
        .iter_errors(&value)
        .map(|e| e.instance_path().to_string())
        .collect();
    assert_eq!(
        schema_errors.is_empty(),
        errors.is_empty(),
        "schema {schema_errors:?}, validator {errors:?}"
    );
}
