//! `diff`: every generated change is reported exactly once, an unchanged
//! build diffs empty, the emitted notices are valid Migration documents and,
//! applied to the old build's catalog ids, give the new build's; snapshots
//! of the text and JSON reports.

use crate::support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cardkit::schema::Names;
use cardkit::validate::validate;
use cardkit::Kind;
use cardkit::Options;
use cardkit_diff::apply::{Notice, Outcome, Plan};
use cardkit_diff::pointer::{Ignore, Pattern};
use cardkit_diff::{diff, render, Change, Diff, DiffOptions, Summary};
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
    // Every number of NEW written another way: the same changes, the same
    // notices, and the numbers of the records and sets compared counted
    // apart.
    assert_eq!(d.summary.numbers_rewritten, 0);
    let (new_rewritten, _) = rewritten_copy(&new);
    let r = diff(&old, &new_rewritten, &options(jobs)).unwrap();
    assert_eq!(reported(&r), expected.records, "{spec:?}");
    assert_eq!(changed_pointers(&r), changed_pointers(&d));
    assert_eq!(r.drift, d.drift);
    assert_eq!(r.migrations, d.migrations);
    let counted = r.summary.numbers_rewritten;
    assert_eq!(
        Summary {
            numbers_rewritten: 0,
            ..r.summary
        },
        d.summary
    );
    // Every number of OLD written another way: no change, every number
    // counted (OLD's set and records are all compared, for their numbers
    // all differ in writing).
    let (old_rewritten, numbers) = rewritten_copy(&old);
    let same = diff(&old, &old_rewritten, &options(jobs)).unwrap();
    assert!(same.sets.is_empty() && same.drift.is_empty() && same.migrations.is_empty());
    assert!(same.summary.is_empty(), "{:?}", same.summary);
    assert_eq!(same.summary.numbers_rewritten, numbers);
    assert!(counted <= numbers);
}

/// A copy of a build beside it with every number written another way, and
/// how many numbers it has.
fn rewritten_copy(path: &Path) -> (PathBuf, usize) {
    let (text, numbers) =
        support::numbers::rewrite_numbers(&std::fs::read_to_string(path).unwrap());
    let copy = path.with_extension("rewritten.json");
    std::fs::write(&copy, text).unwrap();
    (copy, numbers)
}

/// Each value changed, by set, record and pointer.
fn changed_pointers(diff: &Diff) -> BTreeSet<(String, String, String)> {
    let mut out = BTreeSet::new();
    for set in &diff.sets {
        for f in &set.fields {
            out.insert((set.code.clone(), String::new(), f.pointer.clone()));
        }
        for r in &set.changes {
            for f in &r.fields {
                out.insert((set.code.clone(), r.uuid.clone(), f.pointer.clone()));
            }
        }
    }
    out
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
    assert_snapshot!(
        "text",
        stable(&String::from_utf8(text).unwrap(), dir.path())
    );
    let mut json = Vec::new();
    render::json(&d, &mut json).unwrap();
    assert_snapshot!(
        "json",
        stable(&String::from_utf8(json).unwrap(), dir.path())
    );
    let mut lines = Vec::new();
    render::json_lines(&d, &mut lines).unwrap();
    assert_snapshot!(
        "jsonl",
        stable(&String::from_utf8(lines).unwrap(), dir.path())
    );
    let notices: Vec<String> = d
        .migrations
        .iter()
        .map(|n| serde_json::to_string(n).unwrap())
        .collect();
    assert_snapshot!("migrations", notices.join("\n"));
    // `--stat`: the summary alone, in each format; against NEW with its
    // numbers written another way, counted apart.
    let (rewritten, _) = rewritten_copy(&new);
    let mut d = diff(&old, &rewritten, &options(1)).unwrap();
    d.old.bytes = 0;
    d.new.bytes = 0;
    assert!(d.summary.numbers_rewritten > 0);
    let mut text = Vec::new();
    render::text_stat(&d, &mut text).unwrap();
    assert_snapshot!(
        "text_stat",
        stable(&String::from_utf8(text).unwrap(), dir.path())
    );
    let mut json = Vec::new();
    render::json_stat(&d, &mut json).unwrap();
    assert_snapshot!(
        "json_stat",
        stable(&String::from_utf8(json).unwrap(), dir.path())
    );
    let mut lines = Vec::new();
    render::json_lines_stat(&d, &mut lines).unwrap();
    assert_snapshot!(
        "jsonl_stat",
        stable(&String::from_utf8(lines).unwrap(), dir.path())
    );
}

/// The example set, bare (at its file's root), with `edit` made to it, as
/// a file of `dir`.
fn example_set(dir: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let text = std::fs::read_to_string("../../examples/valid/set.json").unwrap();
    let mut set: serde_json::Value = serde_json::from_str(&text).unwrap();
    edit(&mut set);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(&set).unwrap()).unwrap();
    path
}

/// The diff's reports: text, JSON and JSON Lines.
fn rendered(d: &Diff) -> (String, serde_json::Value, Vec<serde_json::Value>) {
    let (mut text, mut json, mut lines) = (Vec::new(), Vec::new(), Vec::new());
    render::text(d, &mut text).unwrap();
    render::json(d, &mut json).unwrap();
    render::json_lines(d, &mut lines).unwrap();
    let lines = String::from_utf8(lines).unwrap();
    (
        String::from_utf8(text).unwrap(),
        serde_json::from_slice(&json).unwrap(),
        lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

#[test]
fn a_set_against_its_numbers_rewritten_has_no_change_and_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let old = example_set(dir.path(), "old.json", |_| {});
    let (rewritten, numbers) = rewritten_copy(&old);
    // `10` as `10.0`, `1e1`, `10.00`…: the rewriting is what it says.
    assert_eq!(
        support::numbers::rewrite_numbers(r#"[10, 10, 10, 10, "1 \"2", 5.0, 1e5, -0]"#),
        (
            r#"[10.0, 1e1, 10.00, 100e-1, "1 \"2", 5.0e0, 1.0e5, -0.00]"#.to_owned(),
            7
        )
    );
    let d = diff(&old, &rewritten, &options(1)).unwrap();
    assert!(d.sets.is_empty(), "{:?}", d.sets);
    assert!(d.summary.is_empty() && d.drift.is_empty() && d.migrations.is_empty());
    assert!(numbers >= 8, "{numbers}");
    assert_eq!(d.summary.numbers_rewritten, numbers);
    let (text, json, lines) = rendered(&d);
    assert!(
        text.contains(&format!(
            "\nnumbers: {numbers} written another way (same value, not a change)\n"
        )),
        "{text}"
    );
    assert!(
        text.contains("records: 0 added, 0 removed, 0 changed"),
        "{text}"
    );
    assert_eq!(json["summary"]["numbers_rewritten"], numbers);
    assert_eq!(json["summary"]["records_changed"], 0);
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["numbers_rewritten"], numbers);
    // Beside a real change, the change alone is reported.
    let (changed, _) = rewritten_copy(&example_set(dir.path(), "changed.json", |set| {
        set["cards"][0]["artist"] = "Someone Else".into();
    }));
    let d = diff(&old, &changed, &options(1)).unwrap();
    assert_eq!(d.summary.records_changed, 1);
    assert_eq!(d.summary.field_changes, 1);
    assert_eq!(d.sets[0].changes[0].fields[0].pointer, "/artist");
    assert_eq!(d.summary.numbers_rewritten, numbers);
}

#[test]
fn numbers_are_compared_exactly_beyond_what_a_float_holds() {
    let dir = tempfile::tempdir().unwrap();
    // `popularity` is a member the spec does not define: any number.
    let with = |name: &str, values: [&str; 4]| {
        let path = example_set(dir.path(), name, |set| {
            for (card, value) in set["cards"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .zip(["a", "b"])
            {
                card["popularity"] = value.into();
            }
        });
        // The literals written into the text as they are: serde_json would
        // round them.
        let text = std::fs::read_to_string(&path).unwrap();
        let text = text
            .replacen(
                "\"popularity\": \"a\"",
                &format!("\"popularity\": [{}, {}]", values[0], values[1]),
                1,
            )
            .replacen(
                "\"popularity\": \"b\"",
                &format!(
                    "\"popularity\": {{\"x\": {}, \"y\": {}}}",
                    values[2], values[3]
                ),
                1,
            );
        std::fs::write(&path, text).unwrap();
        path
    };
    let old = with(
        "old.json",
        [
            "9007199254740993",
            "0.1",
            "123456789012345678901234567890",
            "1e300",
        ],
    );
    let new = with(
        "new.json",
        [
            "9007199254740992",
            "0.10000000000000000001",
            "123456789012345678901234567891",
            "10e299",
        ],
    );
    let d = diff(&old, &new, &options(1)).unwrap();
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    let changes: Vec<(&str, String, String)> = d.sets[0]
        .changes
        .iter()
        .flat_map(|r| &r.fields)
        .map(|f| {
            let shown = |v: &Option<cardkit_diff::value::Json>| v.as_ref().unwrap().to_string();
            (f.pointer.as_str(), shown(&f.old), shown(&f.new))
        })
        .collect();
    // Each value as written; the list is one change, `1e300` and `10e299`
    // are one value.
    assert_eq!(
        changes,
        [
            (
                "/popularity",
                "[9007199254740993,0.1]".into(),
                "[9007199254740992,0.10000000000000000001]".into()
            ),
            (
                "/popularity/x",
                "123456789012345678901234567890".into(),
                "123456789012345678901234567891".into()
            ),
        ]
    );
    assert_eq!(d.summary.numbers_rewritten, 1);
    let (_, json, _) = rendered(&d);
    let x = &json["sets"][0]["changes"][1]["fields"][0];
    assert_eq!(x["pointer"], "/popularity/x");
    // Written to JSON as read: no float in between.
    let report = serde_json::to_string(&d.sets[0].changes[1].fields[0]).unwrap();
    assert!(
        report.contains(r#""new":123456789012345678901234567891"#),
        "{report}"
    );
}

#[test]
fn a_set_at_its_files_root_is_named_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let old = example_set(dir.path(), "old.json", |_| {});
    let new = example_set(dir.path(), "new.json", |set| {
        set["name"] = "Renamed".into();
        set["cards"][0]["artist"] = "Someone Else".into();
    });
    let mut d = diff(&old, &new, &options(1)).unwrap();
    d.old.bytes = 0;
    d.new.bytes = 0;
    let (text, json, _) = rendered(&d);
    assert_snapshot!("root", stable(&text, dir.path()));
    assert!(text.contains(") at (the root)\n"), "{text}");
    // The JSON report keeps the pointer: the root's is empty.
    assert_eq!(json["sets"][0]["new_pointer"], "");
    assert_eq!(json["sets"][0]["changes"][0]["new_pointer"], "/cards/0");
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
