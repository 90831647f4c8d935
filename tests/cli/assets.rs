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

#[test]
fn the_layered_layout_is_refused_with_the_way_to_convert_it() {
    let Some(layered) = corpus_file("raw/template/mightstone_template-angular.json") else {
        return;
    };
    let output = cardkit()
        .args(["assets", layered.to_str().unwrap()])
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    assert!(stderr.contains("cardkit import"), "{stderr}");
}
