//! `diff`: every generated change is reported exactly once, an unchanged
//! build diffs empty, the emitted notices are valid Migration documents and,
//! applied to the old build's catalog ids, give the new build's; snapshots
//! of the text and JSON reports.

mod support;

use std::collections::BTreeSet;

use cardkit::table::Names;
use cardkit::validate::validate;
use cardkit::{Kind, Options};
use cardkit_diff::apply::{Notice, Outcome, Plan};
use cardkit_diff::pointer::{Ignore, Pattern};
use cardkit_diff::{diff, render, Change, Diff, DiffOptions};
use proptest::prelude::*;
use support::pairs::{Made, Spec};

fn options(jobs: usize) -> DiffOptions {
    DiffOptions {
        jobs,
        ..DiffOptions::default()
    }
}

fn reported(diff: &Diff) -> BTreeSet<Made> {
    let mut out = BTreeSet::new();
    for set in &diff.sets {
        for r in &set.changes {
            let made = Made {
                code: set.code.clone(),
                change: r.change.as_str(),
                uuid: r.uuid.clone(),
                reidentified: r.reidentified,
            };
            assert!(out.insert(made), "{} {} reported twice", set.code, r.uuid);
        }
    }
    out
}

/// The notices as a plan, each notice checked to be a valid Migration.
fn plan_of(notices: &[cardkit_diff::notices::MigrationNotice]) -> Plan {
    let mut lines = String::new();
    for n in notices {
        lines.push_str(&serde_json::to_string(n).unwrap());
        lines.push('\n');
    }
    let options = Options {
        kind: Some(Kind::Migration),
        json_lines: true,
        ..Options::default()
    };
    let report = validate(lines.as_bytes(), &options);
    assert!(report.is_valid(), "{report:?}");
    assert_eq!(report.documents.len(), notices.len());
    let read = cardkit_diff::apply::read_notices("notices", lines.as_bytes(), true, 1, Names::Spec)
        .unwrap();
    Plan::new(read).unwrap()
}

fn check(spec: &Spec, jobs: usize) {
    let dir = tempfile::tempdir().unwrap();
    let (old, new, expected) = support::pair(dir.path(), spec);
    let d = diff(&old, &new, &options(jobs)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert_eq!(reported(&d), expected.records, "{spec:?}");
    let sets: BTreeSet<(String, &str)> = d
        .sets
        .iter()
        .map(|s| (s.code.clone(), s.change.as_str()))
        .collect();
    assert_eq!(sets, expected.sets);
    let drift: BTreeSet<(&str, String)> = d
        .drift
        .iter()
        .map(|x| (x.kind.as_str(), x.pattern.clone()))
        .collect();
    assert_eq!(drift, expected.drift, "{spec:?}");
    // The notices, applied to the old catalog ids, give the new ones.
    let plan = plan_of(&d.migrations);
    assert_eq!(plan.len(), expected.catalog.len());
    for (old_id, new_id) in &expected.catalog {
        match (plan.outcome(old_id), new_id) {
            (Some(Outcome::Merged { to, .. }), Some(new_id)) => assert_eq!(&to, new_id),
            (Some(Outcome::Deleted { .. }), None) => {}
            (found, _) => panic!("{old_id}: {found:?}, expected {new_id:?}"),
        }
    }
    // Nothing changed, nothing reported.
    let same = diff(&old, &old, &options(jobs)).unwrap();
    assert!(same.summary.is_empty() && same.sets.is_empty() && same.drift.is_empty());
    assert!(same.migrations.is_empty());
}

proptest! {
    #![proptest_config(support::config(12))]

    #[test]
    fn every_generated_change_is_reported_once(
        seed in any::<u64>(),
        sets in 1usize..4,
        cards in 8usize..30,
        changes in 0usize..25,
        set_changes in any::<bool>(),
        jobs in 1usize..3,
    ) {
        check(&Spec { seed, sets, cards, changes, set_changes }, jobs);
    }
}

#[test]
fn a_catalog_diffs_the_same_on_one_thread_and_two() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Spec {
        seed: 7,
        sets: 30,
        cards: 60,
        changes: 200,
        set_changes: true,
    };
    let (old, new, _) = support::pair(dir.path(), &spec);
    let one = diff(&old, &new, &options(1)).unwrap();
    let two = diff(&old, &new, &options(2)).unwrap();
    assert_eq!(one, two);
}

#[test]
fn ignored_pointers_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Spec {
        seed: 3,
        sets: 1,
        cards: 10,
        changes: 1,
        set_changes: false,
    };
    let (old, new, expected) = support::pair(dir.path(), &spec);
    assert_eq!(expected.records.first().map(|m| m.change), Some("changed"));
    let mut o = options(1);
    o.ignore = Ignore(vec![Pattern::parse("/cards/*/artist").unwrap()]);
    let d = diff(&old, &new, &o).unwrap();
    assert!(d.summary.is_empty(), "{:?}", d.summary);
}

/// The temporary folder's path, out of a report.
fn stable(text: &str, dir: &std::path::Path) -> String {
    text.replace(&format!("{}/", dir.display()), "")
}

#[test]
fn snapshots_of_the_reports() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Spec {
        seed: 11,
        sets: 2,
        cards: 12,
        changes: 10,
        set_changes: true,
    };
    let (old, new, _) = support::pair(dir.path(), &spec);
    let mut d = diff(&old, &new, &options(1)).unwrap();
    d.old.bytes = 0;
    d.new.bytes = 0;
    let mut text = Vec::new();
    render::text(&d, &mut text).unwrap();
    insta::assert_snapshot!(
        "text",
        stable(&String::from_utf8(text).unwrap(), dir.path())
    );
    let mut json = Vec::new();
    render::json(&d, &mut json).unwrap();
    insta::assert_snapshot!(
        "json",
        stable(&String::from_utf8(json).unwrap(), dir.path())
    );
    let mut lines = Vec::new();
    render::json_lines(&d, &mut lines).unwrap();
    insta::assert_snapshot!(
        "jsonl",
        stable(&String::from_utf8(lines).unwrap(), dir.path())
    );
    let notices: Vec<String> = d
        .migrations
        .iter()
        .map(|n| serde_json::to_string(n).unwrap())
        .collect();
    insta::assert_snapshot!("migrations", notices.join("\n"));
}

#[test]
fn invalid_documents_stop_the_diff_unless_kept() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.json");
    let new = dir.path().join("new.json");
    std::fs::write(&old, r#"{"code": "A", "cards": [{"uuid": "x"}]}"#).unwrap();
    std::fs::write(
        &new,
        r#"{"code": "A", "cards": [{"uuid": "x", "name": "B"}]}"#,
    )
    .unwrap();
    let d = diff(&old, &new, &options(1)).unwrap();
    assert_eq!(d.problems.len(), 2);
    assert!(d.sets.is_empty());
    let mut keep = options(1);
    keep.on_invalid = cardkit_diff::OnInvalid::Keep;
    let d = diff(&old, &new, &keep).unwrap();
    assert_eq!(d.sets.len(), 1);
    assert_eq!(d.sets[0].changes[0].change, Change::Changed);
    assert_eq!(d.sets[0].changes[0].fields[0].pointer, "/name");
}

#[test]
fn a_file_that_cannot_be_read_is_named() {
    let error = diff(
        "missing-old.json".as_ref(),
        "missing-new.json".as_ref(),
        &options(1),
    )
    .unwrap_err();
    assert!(
        error.0.starts_with("missing-old.json: cannot be read"),
        "{error}"
    );
}

#[test]
fn notices_merge_and_delete_as_the_plan_says() {
    let plan = Plan::new(vec![Notice::new("A", Some("b"), None)]).unwrap();
    assert!(matches!(plan.outcome("a"), Some(Outcome::Merged { to, .. }) if to == "b"));
}

#[test]
fn a_set_whose_every_uuid_is_replaced_is_paired_by_natural_key() {
    // Every printing re-keyed, NEW in another order than OLD: each pair is
    // found by its natural key and its notice merges into its own new id
    // (the pairs were once looked up again by a scan of the set's records
    // per pair: quadratic).
    let n = 3_000;
    let base: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("../../examples/valid/set.json").unwrap())
            .unwrap();
    let id =
        |side: &str, i: usize| format!("{:08x}-0000-4000-8000-{i:012}", side.len() * 0x1111_1111);
    let build = |side: &str, order: &mut dyn Iterator<Item = usize>| {
        let mut set = base.clone();
        let card = set["cards"][0].clone();
        let cards: Vec<serde_json::Value> = order
            .map(|i| {
                let mut c = card.clone();
                c["uuid"] = id(side, i).into();
                c["number"] = (i + 1).to_string().into();
                c["name"] = format!("Card {i}").into();
                c["identifiers"] =
                    serde_json::json!({ "catalogAId": id(&format!("{side}cat"), i) });
                c
            })
            .collect();
        set["cards"] = cards.into();
        set["tokens"] = serde_json::json!([]);
        set
    };
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.json"), dir.path().join("new.json"));
    std::fs::write(&old, build("o", &mut (0..n)).to_string()).unwrap();
    std::fs::write(&new, build("nnn", &mut (0..n).rev()).to_string()).unwrap();
    let started = std::time::Instant::now();
    let d = diff(&old, &new, &options(2)).unwrap();
    assert_eq!(d.summary.records_rekeyed, n);
    assert_eq!(d.migrations.len(), n);
    let plan = plan_of(&d.migrations);
    for i in [0, 1, n / 2, n - 1] {
        match plan.outcome(&id("ocat", i)) {
            Some(Outcome::Merged { to, .. }) => assert_eq!(to, id("nnncat", i)),
            other => panic!("{i}: {other:?}"),
        }
    }
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}
