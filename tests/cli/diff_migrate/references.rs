//! `cardkit diff --references`: the references a change breaks (a removed
//! card's face and variation left dangling, a re-keyed card's face naming
//! its old uuid, a uuid given twice), in text, JSON and JSON Lines, and the
//! exit status they give; what was already wrong is not reported. Off
//! unless the flag or the configuration's `references` asks.

use super::*;

/// Card `i` of the builds: the example set's first card with its uuid,
/// number and name made from `i`.
fn card(set: &serde_json::Value, i: usize) -> serde_json::Value {
    let mut card = set["cards"][0].clone();
    card["uuid"] = uuid(i).into();
    card["number"] = (i + 1).to_string().into();
    card["name"] = format!("Card {i}").into();
    card
}

fn uuid(i: usize) -> String {
    format!("00000000-0000-4000-8000-{i:012}")
}

/// `old.json` and `new.json` in `dir`, the example set with other cards:
/// in OLD, cards 0 and 1 are each other's face, card 2 a variation of card
/// 0, cards 3 and 4 each other's face, card 5 names a face no record has.
/// NEW removes card 0, gives card 4 another uuid (9), and adds card 6
/// with card 1's uuid.
fn builds(dir: &Path) {
    let mut set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SET).unwrap()).unwrap();
    let mut cards: Vec<serde_json::Value> = (0..6).map(|i| card(&set, i)).collect();
    for (a, b) in [(0, 1), (3, 4)] {
        cards[a]["otherFaceIds"] = serde_json::json!([uuid(b)]);
        cards[b]["otherFaceIds"] = serde_json::json!([uuid(a)]);
    }
    cards[2]["variations"] = serde_json::json!([uuid(0)]);
    cards[5]["otherFaceIds"] = serde_json::json!([uuid(8)]);
    let mut twice = card(&set, 6);
    twice["uuid"] = uuid(1).into();
    set["cards"] = cards.clone().into();
    set["tokens"] = serde_json::json!([]);
    std::fs::write(
        dir.join("old.json"),
        serde_json::to_string_pretty(&set).unwrap(),
    )
    .unwrap();
    cards[4]["uuid"] = uuid(9).into();
    cards.remove(0);
    cards.push(twice);
    set["cards"] = cards.into();
    std::fs::write(
        dir.join("new.json"),
        serde_json::to_string_pretty(&set).unwrap(),
    )
    .unwrap();
}

/// `cardkit diff ARGS… old.json new.json` in `dir`: the exit status and
/// standard output.
fn diff_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = cardkit()
        .current_dir(dir)
        .arg("diff")
        .args(args)
        .args(["old.json", "new.json"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn diff_reports_the_references_the_change_breaks_as_text() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let (status, text) = diff_in(dir.path(), &["--references"]);
    assert_eq!(status, 1, "{text}");
    assert_snapshot!("diff_references_text", text);
    let (status, stat) = diff_in(dir.path(), &["--references", "--stat"]);
    assert_eq!(status, 1);
    assert!(stat.ends_with("references: 5 broken, 0 fixed\n"), "{stat}");
}

#[test]
fn diff_reports_the_references_the_change_breaks_as_json_and_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let (status, out) = diff_in(dir.path(), &["--references", "--format", "json"]);
    assert_eq!(status, 1, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(&str, &str, &str, &str, &str)> = report["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["set"], "EXA");
            assert!(r["file"].is_null(), "{r}");
            assert!(!r["message"].as_str().unwrap().is_empty());
            (
                r["code"].as_str().unwrap(),
                r["record"].as_str().unwrap(),
                r["field"].as_str().unwrap(),
                r["value"].as_str().unwrap(),
                r["pointer"].as_str().unwrap(),
            )
        })
        .collect();
    let (u0, u1, u3, u4, u9) = (uuid(0), uuid(1), uuid(3), uuid(4), uuid(9));
    // In the new build's order; card 5's dangling face was there before.
    assert_eq!(
        found,
        [
            (
                "dangling_reference",
                u1.as_str(),
                "CardSet.otherFaceIds",
                u0.as_str(),
                "/cards/0/otherFaceIds/0"
            ),
            (
                "dangling_reference",
                uuid(2).as_str(),
                "CardSet.variations",
                u0.as_str(),
                "/cards/1/variations/0"
            ),
            (
                "dangling_reference",
                u3.as_str(),
                "CardSet.otherFaceIds",
                u4.as_str(),
                "/cards/2/otherFaceIds/0"
            ),
            (
                "asymmetric_faces",
                u9.as_str(),
                "CardSet.otherFaceIds",
                u3.as_str(),
                "/cards/3/otherFaceIds/0"
            ),
            (
                "duplicate_id",
                u1.as_str(),
                "CardSet.uuid",
                u1.as_str(),
                "/cards/5/uuid"
            ),
        ]
    );
    assert_eq!(report["summary"]["references_broken"], 5);
    assert_eq!(report["summary"]["references_fixed"], 0);
    let (status, out) = diff_in(dir.path(), &["--references", "--format", "jsonl"]);
    assert_eq!(status, 1);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let references: Vec<&serde_json::Value> =
        lines.iter().filter(|l| l["type"] == "reference").collect();
    let whole: Vec<serde_json::Value> = report["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut line = serde_json::json!({"type": "reference"});
            line.as_object_mut()
                .unwrap()
                .extend(r.as_object().unwrap().clone());
            line
        })
        .collect();
    assert_eq!(references.into_iter().cloned().collect::<Vec<_>>(), whole);
    // After the drift, before the summary.
    assert_eq!(lines[lines.len() - 2]["type"], "reference");
    assert_eq!(lines[lines.len() - 1]["type"], "summary");
    assert_eq!(lines[lines.len() - 1]["references_broken"], 5);
}

#[test]
fn diff_counts_the_references_the_change_mends() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let out = cardkit()
        .current_dir(dir.path())
        .args([
            "diff",
            "--references",
            "--format",
            "json",
            "new.json",
            "old.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["references"], serde_json::json!([]));
    assert_eq!(report["summary"]["references_fixed"], 5);
    // The same build: nothing broken, nothing mended, status 0.
    let out = cardkit()
        .current_dir(dir.path())
        .args(["diff", "--references", "new.json", "new.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("references: 0 broken, 0 fixed\n"), "{text}");
}

#[test]
fn diff_checks_references_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let references = |args: &[&str]| {
        let (status, out) = diff_in(dir.path(), &[&["--format", "json"], args].concat());
        assert_eq!(status, 1, "{out}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        (
            report
                .get("references")
                .map(|r| r.as_array().unwrap().len()),
            report["summary"].get("references_broken").cloned(),
        )
    };
    // Not asked: neither the list nor the counts.
    assert_eq!(references(&["--no-config"]), (None, None));
    // The configuration's `references`, and the flag over it.
    std::fs::write(dir.path().join("cardkit.toml"), "references = true\n").unwrap();
    assert_eq!(references(&[]), (Some(5), Some(5.into())));
    assert_eq!(references(&["--references=false"]), (None, None));
    let (status, text) = diff_in(dir.path(), &["--no-config", "--stat"]);
    assert_eq!(status, 1);
    assert!(text.ends_with("migrations: 0\n"), "{text}");
}
