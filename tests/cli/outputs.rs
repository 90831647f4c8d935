//! Outputs never destroy data: an output that is an input of the run (or
//! a link to one) is refused even with `--force`, a file already there is
//! replaced only with `--force`, and two outputs of one run with the same
//! name are an error naming both inputs, before anything is written.

#![cfg(unix)]

use std::os::unix::fs::symlink;

use predicates::str::contains;

use crate::support::{cardkit, dir_with};

const CARD: &str = "{\"name\": \"x\", \"width\": 10, \"height\": 10}";
const SAVED: &str = "{\"name\": \"x\", \"width\": 10, \"height\": 10, \"data\": {}}";

#[test]
fn import_never_writes_through_a_link_onto_its_input() {
    let dir = dir_with(&[("saved.json", SAVED)]);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    // The document's own name in the output folder links to the input.
    symlink(dir.path().join("saved.json"), out.join("x.json")).unwrap();
    for force in [false, true] {
        let mut command = cardkit();
        command
            .args(["import", "--format", "concise", "-o"])
            .arg(&out);
        command
            .arg(dir.path().join("saved.json"))
            .arg(dir.path().join("saved.json"));
        if force {
            command.arg("--force");
        }
        command
            .assert()
            .code(2)
            .stderr(contains("is an input of this run (or a link to one)"));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("saved.json")).unwrap(),
            SAVED
        );
    }
}

#[test]
fn import_replaces_an_existing_file_only_with_force() {
    let dir = dir_with(&[("card.json", CARD), ("old.json", "keep me")]);
    let old = dir.path().join("old.json");
    cardkit()
        .args(["import", "--format", "concise", "-o"])
        .arg(&old)
        .arg(dir.path().join("card.json"))
        .assert()
        .code(2)
        .stderr(contains(
            "already exists, and is not replaced (--force replaces it)",
        ));
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "keep me");
    cardkit()
        .args(["import", "--format", "concise", "--force", "-o"])
        .arg(&old)
        .arg(dir.path().join("card.json"))
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(&old)
        .unwrap()
        .contains("\"name\": \"x\""));
}

#[test]
fn render_never_writes_over_its_input_card() {
    let dir = dir_with(&[("card.json", CARD)]);
    let card = dir.path().join("card.json");
    symlink(&card, dir.path().join("link.svg")).unwrap();
    for out in ["card.json", "link.svg"] {
        for force in [false, true] {
            let mut command = cardkit();
            command
                .arg("render")
                .arg(&card)
                .arg("--svg")
                .arg(dir.path().join(out));
            if force {
                command.arg("--force");
            }
            command
                .assert()
                .code(2)
                .stderr(contains("is an input of this run (or a link to one)"));
            assert_eq!(std::fs::read_to_string(&card).unwrap(), CARD);
        }
    }
}

#[test]
fn render_replaces_an_existing_output_only_with_force() {
    let dir = dir_with(&[("card.json", CARD), ("old.svg", "keep me")]);
    let old = dir.path().join("old.svg");
    let render = |force: bool| {
        let mut command = cardkit();
        command
            .arg("render")
            .arg(dir.path().join("card.json"))
            .arg("--svg")
            .arg(&old);
        if force {
            command.arg("--force");
        }
        command.assert()
    };
    render(false).code(2).stderr(contains(
        "already exists, and is not replaced (--force replaces it)",
    ));
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "keep me");
    render(true).code(0);
    assert!(std::fs::read_to_string(&old).unwrap().starts_with("<svg"));
}

#[test]
fn render_of_two_cards_of_one_name_into_a_directory_is_refused() {
    let dir = dir_with(&[("a/card.json", CARD), ("b/card.json", CARD)]);
    let out = dir.path().join("out");
    cardkit()
        .arg("render")
        .arg(dir.path().join("a/card.json"))
        .arg(dir.path().join("b/card.json"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains("a/card.json and "))
        .stderr(contains("b/card.json would be written there"));
    assert!(!out.exists(), "nothing written");
}

#[test]
fn assets_rebase_never_writes_over_its_input_and_replaces_only_with_force() {
    let dir = dir_with(&[("card.json", CARD), ("old.json", "keep me")]);
    let card = dir.path().join("card.json");
    symlink(&card, dir.path().join("link.json")).unwrap();
    let rebase = |out: &str, force: bool| {
        let mut command = cardkit();
        command
            .arg("assets")
            .arg(&card)
            .args(["--rebase", "https://b.example/", "-o"])
            .arg(dir.path().join(out));
        if force {
            command.arg("--force");
        }
        command.assert()
    };
    for force in [false, true] {
        rebase("link.json", force)
            .code(2)
            .stderr(contains("is an input of this run (or a link to one)"));
        assert_eq!(std::fs::read_to_string(&card).unwrap(), CARD);
    }
    rebase("old.json", false).code(2).stderr(contains(
        "already exists, and is not replaced (--force replaces it)",
    ));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("old.json")).unwrap(),
        "keep me"
    );
    rebase("old.json", true).code(0);
    assert!(std::fs::read_to_string(dir.path().join("old.json"))
        .unwrap()
        .contains("https://b.example/"));
}
