//! `cardkit symbols`: the Angular template's symbol table (in the spec's
//! shape), a text split into runs, names defined twice, and exit statuses.

use crate::support;

use crate::layered;

use serde_json::{json, Value};
use support::{cardkit, shared_dir};

/// The Angular template in the spec's shape, changed by `edit`, in `dir`.
fn angular(dir: &std::path::Path, edit: impl FnOnce(&mut Value)) -> Option<String> {
    let file = shared_dir()?.join("corpus/raw/template/mightstone_template-angular.json");
    let layered: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let mut template = layered::spec_template(&layered);
    edit(&mut template);
    let path = dir.join("angular.json");
    std::fs::write(&path, serde_json::to_string_pretty(&template).unwrap()).unwrap();
    Some(path.to_str().unwrap().to_owned())
}

fn run(args: &[&str], code: i32) -> String {
    let output = cardkit()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn the_table_and_a_text_split() {
    let dir = tempfile::tempdir().unwrap();
    let Some(template) = angular(dir.path(), |_| {}) else {
        return;
    };
    assert_snapshot!("symbols_angular_table", run(&["symbols", &template], 0));
    let text = "{3}{U}{B} and {line}{Artist} {CW}";
    let split = run(&["symbols", &template, "--text", text], 0);
    let runs = &split[split.find("\n\n").expect("a blank line before the runs") + 2..];
    assert_snapshot!("symbols_angular_split", runs);
    let json: Value = serde_json::from_str(&run(
        &["symbols", &template, "--text", text, "--format", "json"],
        0,
    ))
    .unwrap();
    assert_snapshot!(
        "symbols_angular_split_json",
        serde_json::to_string_pretty(&json["runs"]).unwrap()
    );
    assert_eq!(json["symbols"].as_array().map(Vec::len), Some(47));
}

#[test]
fn a_name_defined_twice_is_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    let Some(template) = angular(dir.path(), |t| {
        t["context"]["symbolSets"][1]["symbols"]
            .as_array_mut()
            .unwrap()
            .push(json!({"src": "u.svg", "name": ["U", "blue"]}));
    }) else {
        return;
    };
    let text = run(&["symbols", &template], 0);
    let warnings: Vec<&str> = text.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_snapshot!("symbols_defined_twice", warnings.join("\n"));
    let split = run(&["symbols", &template, "--text", "{u}"], 0);
    assert!(
        split.ends_with("0..3       symbol   {u} general/icon/u.svg\n"),
        "{split}"
    );
}

#[test]
fn an_unknown_code_exits_1_and_a_card_lists_its_codes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(template) = angular(dir.path(), |_| {}) else {
        return;
    };
    let text = run(&["symbols", &template, "--text", "{Q}"], 1);
    assert!(
        text.ends_with("0..3       unknown  {Q} names no symbol\n"),
        "{text}"
    );
    let card = shared_dir()
        .unwrap()
        .join("corpus/raw/card/mightstone_dimirova-smiley_head.json");
    // A card design has no symbol sets: --text has nothing to split with.
    let output = cardkit()
        .args(["symbols", card.to_str().unwrap(), "--text", "{Q}"])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    assert!(stderr.contains("not a template"), "{stderr}");
    // Without it, the codes its texts use: symbols for a template to define.
    let listed = run(&["symbols", card.to_str().unwrap()], 0);
    assert!(listed.contains("{artist}  other"), "{listed}");
    assert!(listed.contains("{line}    code"), "{listed}");
    assert!(
        listed.contains("8 codes in the card's texts: 2 text codes, 6 others"),
        "{listed}"
    );
}

/// The design tool's own template, as it is: the same table as the spec's
/// shape of it gives; of the classic save file's cards, the codes they use.
#[test]
fn a_template_in_the_older_layered_layout_has_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let Some(template) = angular(dir.path(), |_| {}) else {
        return;
    };
    let Some(shared) = shared_dir() else { return };
    let layered = shared.join("corpus/raw/template/mightstone_template-angular.json");
    let output = cardkit()
        .arg("symbols")
        .arg(&layered)
        .args(["--text", "{3}{U} and {line}"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text,
        run(&["symbols", &template, "--text", "{3}{U} and {line}"], 0)
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("is a template in the design tool's older layered layout"),
        "{stderr}"
    );
    // The classic save file: each card's codes, under its name.
    let save = shared.join("corpus/design-tool/naereen_saved-cards.cardconjurer");
    let output = cardkit()
        .arg("symbols")
        .arg(&save)
        .args(["--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("the design tool's classic save file (13 cards)"),
        "{stderr}"
    );
    let cards: Value = serde_json::from_slice(&output.stdout).unwrap();
    let cards = cards.as_array().unwrap();
    assert_eq!(cards.len(), 13);
    assert!(cards
        .iter()
        .all(|card| card["codes"].is_array() && card["name"].is_string()));
}
