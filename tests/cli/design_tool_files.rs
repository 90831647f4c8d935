//! `cardkit validate` on the design tool's own files (its older layered
//! template, its classic save file): the verdict is the spec's (invalid),
//! and the report says what the file is and that `cardkit import` converts
//! it, in every format.

use crate::support;

use support::{cardkit, shared_dir};

/// `validate --format FORMAT FILE`: exit status 1 (invalid), and stdout.
fn validate(file: &std::path::Path, format: &str) -> String {
    let output = cardkit()
        .args(["validate", "--format", format])
        .arg(file)
        .assert()
        .code(1)
        .get_output()
        .clone();
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn a_layered_template_is_said_to_be_one_in_every_format() {
    let Some(shared) = shared_dir() else { return };
    let template = shared.join("corpus/raw/template/mightstone_template-angular.json");
    let said = "this is a template in the design tool's older layered layout (/metadata, \
                /context/ui, /context/imageSets is an object, /context/symbolExtension), not \
                the spec's shape: `cardkit import` converts it";
    let text = validate(&template, "text");
    assert!(text.contains(&format!(": note: {said}")), "{text}");
    // The verdict stays the spec's.
    assert!(
        text.contains("errors: 2 (missing_field 1, wrong_type 1)"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&validate(&template, "json")).unwrap();
    let file = &json["files"][0];
    assert_eq!(file["valid"], false);
    assert!(file["note"].as_str().unwrap().starts_with(said), "{file}");
    for format in ["concise", "github", "junit"] {
        let out = validate(&template, format);
        let out = out.replace("&apos;", "'");
        assert!(out.contains(said), "{format}: {out}");
    }
    let sarif: serde_json::Value = serde_json::from_str(&validate(&template, "sarif")).unwrap();
    let notes = &sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    let found = notes.as_array().unwrap().iter().any(|note| {
        note["level"] == "note" && note["message"]["text"].as_str().unwrap().starts_with(said)
    });
    assert!(found, "{notes}");
}

#[test]
fn the_classic_save_file_is_said_to_be_one() {
    let Some(shared) = shared_dir() else { return };
    let save = shared.join("corpus/design-tool/naereen_saved-cards.cardconjurer");
    let said = "this is the design tool's classic save file (13 entries of `key` and `data`), \
                not documents of the spec: `cardkit import` converts it to card designs";
    let text = validate(&save, "text");
    assert!(text.contains(said), "{text}");
    assert!(text.contains("errors: 13 (unknown_kind 13)"), "{text}");
    // Each entry's error says what it is too.
    assert!(
        text.contains("it is an entry of the design tool's classic save file"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&validate(&save, "json")).unwrap();
    assert!(json["files"][0]["note"].as_str().unwrap().starts_with(said));
    // An array of other objects of no kind says nothing of the kind.
    let dir = support::dir_with(&[("other.json", r#"[{"a": 1}, {"key": 2}]"#)]);
    let other = validate(&dir.path().join("other.json"), "text");
    assert!(!other.contains("design tool"), "{other}");
}

/// The classic save file's texts carry the tool's own codes. Those that
/// read the card are applied as the file is read (`{elemidinfo-set}` is the
/// card's set, `{ptshift0,0.0172}` moves nothing on a card without a
/// power/toughness box, the mana-cost mode's `1 B G` is `{1}{B}{G}`); the
/// renderer draws `{i}` in italics and applies `{fontsize2}`; every other
/// code is left out with a report line naming it (the SVG's text is
/// outlined, so the report is where a code drawn as written would show).
#[test]
fn the_tools_own_text_codes_are_never_drawn_as_written() {
    let Some(shared) = shared_dir() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let output = cardkit()
        .arg("render")
        .arg(shared.join("corpus/design-tool/naereen_saved-cards.cardconjurer"))
        .arg("-o")
        .arg(dir.path())
        .assert()
        .code(0)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let left_out = |code: &str| {
        format!("text code {code} is not a symbol of the template nor a known code: left out")
    };
    for code in ["{savex}", "{loadx}", "{upinline1}", "{B}", "{G}"] {
        assert!(stderr.contains(&left_out(code)), "{code}: {stderr}");
    }
    for code in ["{elemidinfo-", "{ptshift", "{fontsize", "{i}", "{/i}"] {
        assert!(
            !stderr.contains(&format!("text code {code}")),
            "{code}: {stderr}"
        );
    }
    // Every code left in a text is reported: none is drawn as written.
    let mut codes_left = 0;
    for line in stderr.lines().filter(|line| line.contains("text code {")) {
        assert!(line.ends_with(": left out"), "{line}");
        codes_left += 1;
    }
    assert!(codes_left > 0, "{stderr}");
    let mut svgs = 0;
    for entry in std::fs::read_dir(dir.path()).expect("the outputs") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|ext| ext == "svg") {
            svgs += 1;
        }
    }
    assert_eq!(svgs, 13);
}
