//! `cardkit assets`: the manifest of the Angular template (in the spec's
//! shape) and of the corpus card, a rebase there and back through files, a
//! mirror check, and hostile `src` values reported with exit status 1.

use crate::support;

use crate::layered;

use serde_json::{json, Value};
use support::{cardkit, shared_dir};

fn corpus_file(relative: &str) -> Option<std::path::PathBuf> {
    Some(shared_dir()?.join("corpus").join(relative))
}

/// The Angular template in the spec's shape, written into `dir`.
fn angular(dir: &std::path::Path) -> Option<String> {
    let layered_file = corpus_file("raw/template/mightstone_template-angular.json")?;
    let layered: Value = serde_json::from_slice(&std::fs::read(layered_file).unwrap()).unwrap();
    let path = dir.join("angular.json");
    let text = serde_json::to_string_pretty(&layered::spec_template(&layered)).unwrap();
    std::fs::write(&path, text).unwrap();
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
fn the_manifest_of_a_template_in_text() {
    let dir = tempfile::tempdir().unwrap();
    let Some(template) = angular(dir.path()) else {
        return;
    };
    let text = run(
        &["assets", &template, "--root", "https://cardconjurer.app/"],
        0,
    );
    assert_snapshot!("assets_angular_text", text);
}

#[test]
fn the_manifest_of_the_corpus_card_in_json() {
    let Some(card) = corpus_file("raw/card/mightstone_dimirova-smiley_head.json") else {
        return;
    };
    let args = [
        "assets",
        card.to_str().unwrap(),
        "--root",
        "https://cardconjurer.app/",
        "--format",
        "json",
    ];
    let text = run(&args, 0);
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["root"], "https://cardconjurer.app/");
    assert_snapshot!("assets_card_json", text);
}

#[test]
fn a_rebase_there_and_back_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(template) = angular(dir.path()) else {
        return;
    };
    // A template with a root of its own.
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&template).unwrap()).unwrap();
    value["asset_root_url"] = json!("https://cardconjurer.app/");
    value["context"]["fonts"][1]["src"] = json!("https://cardconjurer.app/custom/font/x.ttf");
    let original = serde_json::to_string_pretty(&value).unwrap();
    std::fs::write(&template, &original).unwrap();
    let there = dir.path().join("there.json");
    let back = dir.path().join("back.json");
    let there_s = there.to_str().unwrap();
    let text = run(
        &[
            "assets",
            &template,
            "--rebase",
            "https://mirror.example/cc/",
            "-o",
            there_s,
        ],
        0,
    );
    assert_snapshot!(
        "assets_rebase",
        text.replace(&template, "TEMPLATE").replace(there_s, "OUT")
    );
    run(
        &[
            "assets",
            there_s,
            "--rebase",
            "https://cardconjurer.app/",
            "-o",
            back.to_str().unwrap(),
        ],
        0,
    );
    assert_eq!(std::fs::read_to_string(&back).unwrap(), original);
    // Never over the input.
    cardkit()
        .args(["assets", &template, "--rebase", "x/", "-o", &template])
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&template).unwrap(), original);
    // --rebase needs -o.
    cardkit()
        .args(["assets", &template, "--rebase", "x/"])
        .assert()
        .code(2);
}

#[test]
fn a_mirror_check_exits_1_until_every_asset_is_there() {
    let dir = tempfile::tempdir().unwrap();
    let Some(template) = angular(dir.path()) else {
        return;
    };
    let mirror = dir.path().join("mirror");
    let manifest: Value = serde_json::from_str(&run(
        &[
            "assets",
            &template,
            "--root",
            "https://cardconjurer.app/",
            "--format",
            "json",
        ],
        0,
    ))
    .unwrap();
    let assets = manifest["assets"].as_array().unwrap();
    let args = [
        "assets",
        &template,
        "--root",
        "https://cardconjurer.app/",
        "--check",
        mirror.to_str().unwrap(),
    ];
    let text = run(&args, 1);
    let mentioned = assets.iter().filter(|a| a["kind"] != "empty").count();
    assert!(
        text.ends_with(&format!(
            "{mentioned} of {} assets missing from {}\n",
            assets.len(),
            mirror.display()
        )),
        "{text}"
    );
    for asset in assets.iter().filter(|a| a["kind"] != "empty") {
        let target = asset
            .get("joined")
            .unwrap_or(&asset["src"])
            .as_str()
            .unwrap();
        let path = mirror.join(target);
        if asset["pointer"].as_str().unwrap().ends_with("/srcPrefix") {
            std::fs::create_dir_all(&path).unwrap();
        } else {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, b"x").unwrap();
        }
    }
    let text = run(&args, 0);
    assert!(
        text.starts_with(&format!("0 of {} assets missing", assets.len())),
        "{text}"
    );
}

#[test]
fn hostile_srcs_are_reported_with_exit_status_1() {
    let dir = tempfile::tempdir().unwrap();
    let srcs = [
        "../../etc/passwd".to_owned(),
        "file:///etc/passwd".to_owned(),
        format!("data:image/png;base64,{}", "A".repeat(10 * 1024 * 1024)),
        "data:image/png;base64,@@@".to_owned(),
    ];
    let children: Vec<Value> = srcs
        .iter()
        .map(|src| json!({"type": "image", "src": src}))
        .collect();
    let card =
        json!({"name": "Hostile", "width": 10, "height": 10, "data": {"children": children}});
    let path = dir.path().join("hostile.json");
    std::fs::write(&path, serde_json::to_string(&card).unwrap()).unwrap();
    let text = run(
        &[
            "assets",
            path.to_str().unwrap(),
            "--root",
            "https://example.org/",
        ],
        1,
    );
    assert_snapshot!("assets_hostile", text);
}

/// The design tool's own template, as it is: every `src` of the file is
/// listed, from the document `cardkit import` makes of it.
#[test]
fn a_template_in_the_older_layered_layout_lists_every_src() {
    let Some(layered) = corpus_file("raw/template/mightstone_template-angular.json") else {
        return;
    };
    let raw: Value = serde_json::from_slice(&std::fs::read(&layered).unwrap()).unwrap();
    let mut sources = Vec::new();
    collect_src(&raw, &mut sources);
    assert_eq!(sources.len(), 45);
    let output = cardkit()
        .args(["assets", layered.to_str().unwrap(), "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("is a template in the design tool's older layered layout; converted in memory as `cardkit import` would"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let listed: Vec<&str> = listed["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["src"].as_str().unwrap())
        .collect();
    for src in &sources {
        assert!(listed.contains(&src.as_str()), "{src} is not listed");
    }
}

/// The classic save file: each card's assets, under its name.
#[test]
fn the_classic_save_file_lists_each_cards_assets() {
    let Some(save) = corpus_file("design-tool/naereen_saved-cards.cardconjurer") else {
        return;
    };
    let save = save.to_str().unwrap();
    let output = cardkit()
        .args(["assets", save, "--format", "json"])
        .assert()
        .get_output()
        .clone();
    let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let cards = listed.as_array().unwrap();
    assert_eq!(cards.len(), 13);
    assert!(cards
        .iter()
        .all(|card| card["name"].is_string() && card["assets"].is_array()));
    let text = String::from_utf8(
        cardkit()
            .args(["assets", save])
            .assert()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    assert!(text.contains("myrel-death-taxes (/"), "{text}");
    // --rebase writes one document: a file of several needs --card.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let refused = cardkit()
        .args(["assets", save, "--rebase", "https://example.org/", "-o"])
        .arg(&out)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.contains("name one with --card NAME"), "{stderr}");
    assert!(!out.exists());
}

fn collect_src(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (name, value) in members {
                match (name.as_str(), value) {
                    ("src", Value::String(src)) => into.push(src.clone()),
                    _ => collect_src(value, into),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_src(item, into)),
        _ => {}
    }
}
