//! `cardkit layers`: the listing of the corpus card and of a template in the
//! spec's shape, in text and JSON, and its exit statuses.

use crate::support;

use crate::layered;

use serde_json::Value;
use support::{cardkit, shared_dir};

/// A file of the corpus, or `None` (said why) without the shared folder.
fn corpus_file(relative: &str) -> Option<std::path::PathBuf> {
    Some(shared_dir()?.join("corpus").join(relative))
}

fn corpus_bytes(relative: &str) -> Option<Vec<u8>> {
    Some(std::fs::read(corpus_file(relative)?).expect("a corpus file"))
}

/// A corpus template in the older layered layout, in the spec's shape.
fn spec_template_file(relative: &str) -> Option<String> {
    let layered: Value = serde_json::from_slice(&corpus_bytes(relative)?).expect("JSON");
    Some(serde_json::to_string_pretty(&layered::spec_template(&layered)).expect("JSON"))
}

const CARD: &str = "raw/card/mightstone_dimirova-smiley_head.json";

fn stdout(args: &[&str], code: i32) -> String {
    let output = cardkit()
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn every_layer_of_the_corpus_card_in_text() {
    let Some(card) = corpus_file(CARD) else {
        return;
    };
    let text = stdout(&["layers", card.to_str().unwrap()], 0);
    assert_snapshot!("layers_card_text", text);
}

#[test]
fn editable_texts_in_json() {
    let Some(card) = corpus_file(CARD) else {
        return;
    };
    let args = [
        "layers",
        card.to_str().unwrap(),
        "--tag",
        "editable",
        "--type",
        "text",
    ];
    let text = stdout(&[&args[..], &["--format", "json"]].concat(), 0);
    let json: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(json.as_array().map(Vec::len), Some(9));
    assert_snapshot!("layers_card_editable_texts_json", text);
}

#[test]
fn a_pattern_and_the_first_hit() {
    let Some(card) = corpus_file(CARD) else {
        return;
    };
    let card = card.to_str().unwrap();
    let text = stdout(&["layers", card, "--regex", ".+le"], 0);
    assert_snapshot!("layers_card_regex", text);
    let first = stdout(&["layers", card, "--tag", "editable", "--first"], 0);
    assert!(
        first.starts_with("/data/children/0/children/0  image  \"Art\""),
        "{first}"
    );
    assert!(
        first.ends_with("1 layer found in the card design\n"),
        "{first}"
    );
}

#[test]
fn a_templates_layers_point_under_its_card() {
    let Some(text) = spec_template_file("raw/template/mightstone_template-angular.json") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("angular.json");
    std::fs::write(&path, text).unwrap();
    let listing = stdout(&["layers", path.to_str().unwrap(), "--type", "image"], 0);
    assert_snapshot!("layers_template_images", listing);
}

#[test]
fn exit_statuses() {
    let Some(card) = corpus_file(CARD) else {
        return;
    };
    let card = card.to_str().unwrap();
    // Nothing found: 1, as grep.
    let none = stdout(&["layers", card, "--name", "title"], 1);
    assert_eq!(none, "0 layers found in the card design\n");
    // An unknown tag or type, or both --name and --regex: usage errors.
    for args in [
        &["layers", card, "--tag", "unknown"][..],
        &["layers", card, "--type", "fubar"],
        &["layers", card, "--name", "Title", "--regex", "T"],
        &["layers", card, "--regex", "("],
    ] {
        cardkit().args(args).assert().code(2);
    }
}

#[test]
fn a_template_in_the_older_layered_layout_is_listed_as_imported() {
    let Some(layered) = corpus_file("raw/template/mightstone_template-angular.json") else {
        return;
    };
    let output = cardkit()
        .args(["layers", layered.to_str().unwrap(), "--type", "image"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    // One line says what the file is and that it was converted.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("note: {} is a template in the design tool's older layered layout; converted in memory as `cardkit import` would", layered.display())),
        "{stderr}"
    );
    // The same listing as the import's output gives.
    let dir = tempfile::tempdir().unwrap();
    let imported = dir.path().join("angular.json");
    cardkit()
        .args(["import", layered.to_str().unwrap(), "-o"])
        .arg(&imported)
        .assert()
        .code(0);
    let from_import = stdout_of_file(&imported);
    assert_eq!(stdout, from_import);
    assert!(stdout.contains("\"Margin\""), "{stdout}");
    // --verbose shows the import's warnings under the line.
    let verbose = cardkit()
        .args(["layers", layered.to_str().unwrap(), "--verbose"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let stderr = String::from_utf8(verbose.stderr).unwrap();
    assert!(stderr.contains("warning[dropped_member]"), "{stderr}");
}

fn stdout_of_file(path: &std::path::Path) -> String {
    stdout(&["layers", path.to_str().unwrap(), "--type", "image"], 0)
}

#[test]
fn the_classic_save_file_lists_each_card_under_its_name() {
    let Some(save) = corpus_file("design-tool/naereen_saved-cards.cardconjurer") else {
        return;
    };
    let save = save.to_str().unwrap();
    let text = stdout(&["layers", save, "--name", "Title"], 0);
    // Each card headed by the name `cardkit import -o DIR` gives its file.
    assert!(text.contains("myrel-death-taxes (/"), "{text}");
    let json: Value =
        serde_json::from_str(&stdout(&["layers", save, "--format", "json"], 0)).unwrap();
    let cards = json.as_array().unwrap();
    assert_eq!(cards.len(), 13);
    assert!(cards
        .iter()
        .all(|card| card["layers"].as_array().is_some_and(|l| !l.is_empty())));
    // One card, by name or pointer.
    let one = stdout(
        &[
            "layers",
            save,
            "--card",
            "myrel-death-taxes",
            "--format",
            "json",
        ],
        0,
    );
    let one: Value = serde_json::from_str(&one).unwrap();
    assert!(one
        .as_array()
        .unwrap()
        .iter()
        .all(|hit| hit["pointer"].is_string()));
    let unknown = cardkit()
        .args(["layers", save, "--card", "nobody"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(unknown.stderr).unwrap();
    assert!(
        stderr.contains("--card nobody names none of the file's designs: abomination-de-llanowar"),
        "{stderr}"
    );
}

/// The tool's frame rule: the frames of the 2023-02-18 card leave their
/// box out, and take the card's, as `expand` gives them.
#[test]
fn frames_without_a_box_take_the_cards() {
    let Some(card) = corpus_file("raw/card/mightstone_dimirova-smiley_2023-02-18.json") else {
        return;
    };
    let json = stdout(
        &[
            "layers",
            card.to_str().unwrap(),
            "--type",
            "image",
            "--format",
            "json",
        ],
        0,
    );
    let hits: Value = serde_json::from_str(&json).unwrap();
    let boxes = |name: &str| -> Vec<Value> {
        hits.as_array()
            .unwrap()
            .iter()
            .filter(|hit| hit["name"] == name)
            .map(|hit| hit["box"].clone())
            .collect()
    };
    let whole = serde_json::json!({"x": 0, "y": 0, "width": 1500, "height": 2100});
    for frame in [
        "Blue Frame",
        "Black Frame",
        "Yellow Frame",
        "Right Half",
        "Pinline",
    ] {
        let found = boxes(frame);
        assert!(!found.is_empty(), "{frame}: {json}");
        for b in found {
            for key in ["x", "y", "width", "height"] {
                assert_eq!(b[key], whole[key], "{frame}: {b}");
            }
        }
    }
    // A layer with its own box keeps it.
    assert_eq!(boxes("Right Stat Box")[0]["width"], 246);
    assert!(!json.contains("\"width\": 100,"), "{json}");
}

#[test]
fn a_file_over_the_size_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    // Sparse: the file is over the limit without taking the disk space.
    let file = std::fs::File::create(&big).unwrap();
    file.set_len((64 << 20) + 1).unwrap();
    cardkit()
        .arg("layers")
        .arg(&big)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(format!(
            "cardkit layers: error: {}: cannot read: larger than 67108864 bytes (64 MiB), the \
             limit of a design file",
            big.display()
        )));
}

#[test]
fn a_card_from_standard_input() {
    let card = r#"{"name": "C", "width": 10, "height": 10, "data": {"children": [{"type": "image", "name": "Art", "src": "a.png"}]}}"#;
    let output = cardkit()
        .args(["layers", "-"])
        .write_stdin(card)
        .assert()
        .code(0)
        .get_output()
        .clone();
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        text.starts_with("/data/children/0  image  \"Art\""),
        "{text}"
    );
    assert!(
        text.ends_with("2 layers found in the card design\n"),
        "{text}"
    );
}
