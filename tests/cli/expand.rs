//! `cardkit expand`: a variant of the Angular template (in the spec's shape)
//! as the layer the corpus card has, and the errors that list what there is.

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

/// The Angular template in the spec's shape, written to a file.
fn angular() -> Option<(tempfile::TempDir, String)> {
    let text = spec_template_file("raw/template/mightstone_template-angular.json")?;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("angular.json");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap().to_owned();
    Some((dir, path))
}

#[test]
fn the_black_frame_with_its_mask_is_the_cards_layer() {
    let Some((_dir, template)) = angular() else {
        return;
    };
    let args = [
        "expand",
        &template,
        "--set",
        "frame",
        "--variant",
        "Black Frame",
        "--mask",
        "Right Half",
    ];
    let output = cardkit()
        .args(args)
        .assert()
        .code(0)
        .stderr("")
        .get_output()
        .clone();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_snapshot!("expand_black_frame", text);
    let layer: Value = serde_json::from_str(&text).unwrap();
    let card: Value = serde_json::from_slice(
        &corpus_bytes("raw/card/mightstone_dimirova-smiley_head.json").unwrap(),
    )
    .unwrap();
    assert_eq!(layer, card["data"]["children"][0]["children"][2]);
}

#[test]
fn without_the_card_size_the_first_save_is_reproduced() {
    let Some((_dir, template)) = angular() else {
        return;
    };
    let args = [
        "expand",
        &template,
        "--set",
        "0",
        "--variant",
        "Blue Frame",
        "--no-card-size",
    ];
    let output = cardkit().args(args).assert().code(0).get_output().clone();
    let layer: Value = serde_json::from_slice(&output.stdout).unwrap();
    let card: Value = serde_json::from_slice(
        &corpus_bytes("raw/card/mightstone_dimirova-smiley_2023-02-18.json").unwrap(),
    )
    .unwrap();
    assert_eq!(layer, card["data"]["children"][0]["children"][1]);
}

#[test]
fn unknown_names_are_errors_that_list_what_there_is() {
    let Some((_dir, template)) = angular() else {
        return;
    };
    let mut messages = String::new();
    for args in [
        &["--set", "borders", "--variant", "Blue Frame"][..],
        &["--set", "statBox", "--variant", "Middle Stat Box"],
        &[
            "--set",
            "frame",
            "--variant",
            "Blue Frame",
            "--mask",
            "Left Half",
        ],
    ] {
        let output = cardkit()
            .arg("expand")
            .arg(&template)
            .args(args)
            .assert()
            .code(2)
            .stdout("");
        let stderr =
            String::from_utf8_lossy(&output.get_output().stderr).replace(&template, "TEMPLATE");
        messages.push_str(&format!(
            "$ cardkit expand TEMPLATE {}\n{stderr}\n",
            args.join(" ")
        ));
    }
    assert_snapshot!("expand_errors", messages);
}

/// The design tool's own template, as it is: the same layer as from the
/// template `cardkit import` makes, and one line that says so.
#[test]
fn a_template_in_the_older_layered_layout_expands_as_imported() {
    let Some(layered) = corpus_file("raw/template/mightstone_template-angular.json") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let imported = dir.path().join("angular.json");
    cardkit()
        .arg("import")
        .arg(&layered)
        .arg("-o")
        .arg(&imported)
        .assert()
        .code(0);
    let expand = |file: &std::path::Path| {
        cardkit()
            .arg("expand")
            .arg(file)
            .args([
                "--set",
                "0",
                "--variant",
                "Black Frame",
                "--mask",
                "Right Half",
            ])
            .assert()
            .code(0)
            .get_output()
            .clone()
    };
    let direct = expand(&layered);
    assert_eq!(direct.stdout, expand(&imported).stdout);
    let layer: Value = serde_json::from_slice(&direct.stdout).unwrap();
    assert_eq!(layer["width"], 1500);
    let stderr = String::from_utf8(direct.stderr).unwrap();
    assert!(
        stderr.starts_with("note: ")
            && stderr.contains("converted in memory as `cardkit import` would"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
