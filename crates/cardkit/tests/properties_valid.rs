//! Property tests of the validator and the typed models, one of three
//! (with `properties_mutations.rs` and `properties_no_panic.rs`): generated
//! valid documents.
//!
//! A generator walks the field tables
//! (`cardkit::schema`) and builds random valid documents of every kind:
//! random member order, random whitespace and string escapes, integers in
//! every allowed spelling (`5`, `5.0`, `5e0`, `50E-1`, `1.2345e4`, 64-bit
//! extremes), valid samples of every format, nullable fields sometimes
//! `null`, unions through every branch. Every such document validates with
//! no diagnostic at all (with its kind named, detected, in containers and
//! as JSON Lines), reads into its typed model, and round-trips through it.
//!
//! The runs are deterministic (fixed seed); `support/properties.rs` says how
//! to run longer ones.

use std::fmt;

use cardkit::model::{Card, Migration, Set, Template};
use cardkit::schema::Type;
use cardkit::validate::{validate, Options};
use cardkit::Document;
use cardkit::Kind;
use cardkit::ParseError;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::Serialize;

mod support;

use support::generate::*;
use support::properties::{config, errors_text};

// ---------------------------------------------------------------------------
// Property 1: generated documents are valid, read into the models and
// round-trip

fn options(kind: Option<Kind>) -> Options {
    Options {
        kind,
        ..Options::default()
    }
}

/// Whether some integer place holds a value beyond `i64` (valid; the typed
/// models refuse it).
fn has_wide_integer(node: &Node) -> bool {
    match &node.json {
        J::Num(n) => {
            matches!(
                node.slot,
                Slot::Typed {
                    ty: Type::Integer,
                    ..
                }
            ) && n.parse::<i64>().is_err()
                && n.parse::<u64>().is_ok()
        }
        J::Arr(items) => items.iter().any(has_wide_integer),
        J::Obj(members) => members.iter().any(|m| has_wide_integer(&m.node)),
        _ => false,
    }
}

fn check_valid<T>(kind: Kind, doc: &Node, style: Style) -> Result<(), TestCaseError>
where
    T: Document + Serialize + PartialEq + Clone + fmt::Debug,
{
    let text = write(doc, style);
    let bytes = text.as_bytes();

    // Valid with the kind named, and with the kind detected.
    for named in [Some(kind), None] {
        let report = validate(bytes, &options(named));
        prop_assert_eq!(report.documents.len(), 1, "{}", errors_text(&report));
        prop_assert_eq!(report.documents[0].kind, Some(kind));
        prop_assert!(
            report.documents[0].diagnostics.is_empty(),
            "kind {:?}: {}\n{}",
            named,
            errors_text(&report),
            text
        );
    }

    // Valid in containers: an array, JSON Lines, and the kind's own wrappers.
    let line = write(doc, Style::COMPACT);
    let mut containers = vec![
        (format!("[{text},\n{line}]"), false, vec!["/0", "/1"]),
        (format!("{line}\n\n{line}\r\n"), true, vec!["", ""]),
    ];
    match kind {
        Kind::Set => {
            containers.push((
                format!(r#"{{"meta": {{"version": "5.2.1"}}, "data": {text}}}"#),
                false,
                vec!["/data"],
            ));
            containers.push((
                format!(r#"{{"data": {{"ABC": {text}, "X/Y": {line}}}}}"#),
                false,
                vec!["/data/ABC", "/data/X~1Y"],
            ));
        }
        Kind::Migration => containers.push((
            format!(r#"{{"object": "list", "has_more": false, "data": [{text}]}}"#),
            false,
            vec!["/data/0"],
        )),
        _ => {}
    }
    for (container, json_lines, pointers) in containers {
        for named in [Some(kind), None] {
            let report = validate(
                container.as_bytes(),
                &Options {
                    kind: named,
                    json_lines,
                    ..Options::default()
                },
            );
            let found: Vec<&str> = report
                .documents
                .iter()
                .map(|d| d.pointer.as_str())
                .collect();
            prop_assert_eq!(&found, &pointers, "{}", errors_text(&report));
            prop_assert!(report.is_valid(), "{}\n{}", errors_text(&report), container);
            prop_assert!(report.documents.iter().all(|d| d.kind == Some(kind)));
            prop_assert_eq!(errors_text(&report), "");
            if json_lines {
                let lines: Vec<_> = report.documents.iter().map(|d| d.line).collect();
                prop_assert_eq!(lines, vec![Some(1), Some(3)]);
            }
        }
    }

    // The typed model.
    let direct = serde_json::from_slice::<T>(bytes);
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let via_value = serde_json::from_value::<T>(value.clone());
    let parsed = cardkit::from_slice::<T>(bytes);
    if has_wide_integer(doc) {
        // Documented: a valid integer beyond i64 does not fit the models.
        prop_assert!(direct.is_err() && via_value.is_err());
        prop_assert!(
            matches!(parsed, Err(ParseError::Model(_))),
            "{:?}",
            parsed.map(|_| ())
        );
        return Ok(());
    }
    let typed = direct.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    let via_value = via_value.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&typed, &via_value);
    let mut completed = typed.clone();
    completed.complete();
    let parsed = parsed.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&parsed, &completed);

    // Round trip: typed → JSON → typed.
    let again = serde_json::to_vec(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: T = serde_json::from_slice(&again)
        .map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&again))))?;
    if back != typed {
        // KNOWN: serde_json without its `float_roundtrip` feature reads
        // some numbers one or two units in the last place off (e.g.
        // `2.0962273396028517e-16` as `2.0962273396028514e-16`), so a
        // `number` may not survive typed → JSON → typed. Accept exactly
        // that: `back` must be what reading the written JSON gives.
        let written =
            serde_json::to_value(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let reread: serde_json::Value = serde_json::from_str(&written.to_string())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back_value =
            serde_json::to_value(&back).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back_value, &reread, "{}", String::from_utf8_lossy(&again));
    }
    let report = validate(&again, &options(Some(kind)));
    prop_assert!(
        report.documents.iter().all(|d| d.diagnostics.is_empty()),
        "{}\n{}",
        errors_text(&report),
        String::from_utf8_lossy(&again)
    );
    // The untyped JSON, re-serialized, validates too.
    let value_text = serde_json::to_vec(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let report = validate(&value_text, &options(Some(kind)));
    // KNOWN: serde_json's `Value` sorts keys, which puts a card's `data` first
    // (unless `corners` is there): a `data` holding `type` then makes layout
    // detection read the card as a wrapped Set (see `card_data_last`).
    let sorted_card_misread = kind == Kind::Card
        && value.get("corners").is_none()
        && value.pointer("/data/type").is_some();
    if !sorted_card_misread {
        prop_assert!(report.is_valid(), "{}", errors_text(&report));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn generated_templates_are_valid(doc in document(Kind::Template), style in style()) {
        check_valid::<Template>(Kind::Template, &doc, style)?;
    }

    #[test]
    fn generated_cards_are_valid(doc in document(Kind::Card), style in style()) {
        check_valid::<Card>(Kind::Card, &doc, style)?;
    }

    #[test]
    fn generated_sets_are_valid(doc in document(Kind::Set), style in style()) {
        check_valid::<Set>(Kind::Set, &doc, style)?;
    }

    #[test]
    fn generated_migrations_are_valid(doc in document(Kind::Migration), style in style()) {
        check_valid::<Migration>(Kind::Migration, &doc, style)?;
    }
}
