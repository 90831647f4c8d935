//! What the export tests share: the corpus and a generated catalog from
//! `../shared`, the Python of CI for the independent readers, running an
//! export, and the row counts a document should give, counted on its JSON
//! without the layout's code.
#![allow(dead_code)]

#[path = "../../../cardkit/tests/support/shared.rs"]
mod shared;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cardkit::Options;
use cardkit_export::{Exporter, OnInvalid, Target, Totals};
use serde_json::Value;

#[allow(unused_imports)]
pub use shared::shared_dir;

mod catalog;
pub mod postgres;

#[allow(unused_imports)]
pub use catalog::generated_catalog;

/// Every set of the corpus (neutral wire names).
pub fn corpus_sets(shared: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus/neutral/set"))
        .expect("the corpus's sets")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 29, "{} corpus sets", files.len());
    files
}

/// The Python with duckdb and pyspark (`CARDKIT_PYTHON`; `.ci/run` sets it
/// to its virtual environment's). `None` (with a note) when it is not set
/// outside CI; in CI a missing one fails.
pub fn python() -> Option<PathBuf> {
    let python = std::env::var_os("CARDKIT_PYTHON").map(PathBuf::from);
    if python.is_none() {
        let why = "CARDKIT_PYTHON (a Python with duckdb) is not set";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("SKIPPED: {why}");
    }
    python
}

/// Exports `inputs` to `target` with `on_invalid` and `build`, on 2
/// threads; the totals and every note.
pub fn export(
    target: &Target,
    inputs: &[PathBuf],
    on_invalid: OnInvalid,
    build: Option<&str>,
) -> (Totals, Vec<String>) {
    let mut exporter = Exporter::open(target, on_invalid, build, 2).expect("the target opens");
    let mut notes = Vec::new();
    for input in inputs {
        let file = std::fs::File::open(input).expect("an input");
        let name = input.display().to_string();
        let options = Options {
            json_lines: name.ends_with(".jsonl"),
            ..Options::default()
        };
        exporter
            .input(
                &name,
                file,
                &options,
                |_| {},
                |note| notes.push(note.to_owned()),
            )
            .expect("the input is exported");
    }
    (exporter.finish().expect("the export commits"), notes)
}

/// Exports `inputs` as [`export`] does, checking the references between
/// them too, as `cardkit export --references` runs it: the run's check
/// (`cardkit_run`) reads each set document's facts from the export's tape
/// and settles them once every input is read, and the export writes the
/// findings into `reference_findings`. The totals.
pub fn export_with_references(
    target: &Target,
    inputs: &[PathBuf],
    on_invalid: OnInvalid,
    build: Option<&str>,
) -> Totals {
    use cardkit_run::{Failure, Input, Run};
    let mut exporter = Exporter::open(target, on_invalid, build, 2).expect("the target opens");
    let mut renderer = cardkit_run::render::Json::new(cardkit::report::WarningFilter::default());
    let mut out = std::io::sink();
    let mut run = Run::new(&mut renderer, &mut out, Options::default())
        .checking_references(Some(cardkit::Severity::Warning));
    exporter.reading_references(run.references());
    let mut check = |name: &str,
                     reader: &mut dyn std::io::Read,
                     options: &Options,
                     on_document: &mut dyn FnMut(&cardkit::DocumentReport)| {
        exporter
            .input(name, reader, options, on_document, |_| {})
            .map_err(|error| match error {
                cardkit_export::InputError::Read(error) => Failure::Read(error),
                cardkit_export::InputError::Store(error) => Failure::Abort(error.to_string()),
            })
    };
    for input in inputs {
        let opened = cardkit_run::open(Input::File(input.clone())).expect("the input opens");
        run.input(opened, &mut check).expect("the input is read");
    }
    run.finish_references(&mut |found| exporter.found_reference(found))
        .expect("the findings are reported");
    run.finish().expect("the run ends");
    exporter.finish().expect("the export commits")
}

/// The sets of an input file: a set, a wrapped set, a catalog or a code map.
pub fn sets_of(input: &Path) -> Vec<Value> {
    let value: Value =
        serde_json::from_slice(&std::fs::read(input).expect("an input")).expect("JSON");
    let data = value.get("data").cloned().unwrap_or(value);
    if data.get("cards").is_some() || data.get("code").is_some() {
        return vec![data];
    }
    match data {
        Value::Object(sets) => sets.into_iter().map(|(_, set)| set).collect(),
        other => vec![other],
    }
}

fn objects<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| v.is_object())
}

/// The rows the sets should give per table, counted on their JSON: one per
/// set, card, token, sealed product, translated name, and per nested object
/// or list item of a card, token or product.
pub fn expected_rows(sets: &[Value]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    let mut add = |table: &str, n: usize| *counts.entry(table.to_owned()).or_insert(0) += n;
    for set in sets {
        add("sets", 1);
        let translations = set.get("translations").and_then(Value::as_object);
        let named = translations
            .into_iter()
            .flatten()
            .filter(|(language, name)| name.is_string() && is_language(language))
            .count();
        add("set_translations", named);
        for (list, table) in [
            ("cards", "cards"),
            ("tokens", "tokens"),
            ("sealedProduct", "sealed_products"),
        ] {
            for item in objects(set, list) {
                add(table, 1);
                for (key, table) in [
                    ("identifiers", "identifiers"),
                    ("legalities", "legalities"),
                    ("purchaseUrls", "purchase_urls"),
                    ("leadershipSkills", "leadership_skills"),
                    ("relatedCards", "related_cards"),
                ] {
                    add(
                        table,
                        usize::from(item.get(key).is_some_and(Value::is_object)),
                    );
                }
                add("foreign_data", objects(item, "foreignData").count());
                add("rulings", objects(item, "rulings").count());
            }
        }
    }
    counts.retain(|_, n| *n > 0);
    counts
}

fn is_language(name: &str) -> bool {
    [
        "Ancient Greek",
        "Arabic",
        "Chinese Simplified",
        "Chinese Traditional",
        "French",
        "German",
        "Hebrew",
        "Italian",
        "Japanese",
        "Korean",
        "Latin",
        "Phyrexian",
        "Portuguese (Brazil)",
        "Russian",
        "Sanskrit",
        "Spanish",
    ]
    .contains(&name)
}

/// The rows written per table name (tables without rows left out, and
/// `meta`).
pub fn written(totals: &Totals) -> BTreeMap<String, usize> {
    let layout = cardkit_export::layout::layout();
    layout
        .tables
        .iter()
        .zip(&totals.rows)
        .filter(|(t, &n)| n > 0 && t.name != "meta")
        .map(|(t, &n)| (t.name.clone(), n))
        .collect()
}
