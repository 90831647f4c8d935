//! `cardkit migrate check NOTICES --old BUILD --new BUILD`: the notices
//! `diff --emit-migrations` writes pass against the builds they come from;
//! notices that say something the builds do not fail, each with its
//! reasons; builds that cannot be read are status 2.

use super::*;

/// A catalog id the old build gives the second card, and that the new
/// build no longer has (a `delete`).
const GONE: &str = "3c3c3c3c-2c8c-4c8e-9d0b-6e2b8b1b1b1b";
/// The id the first card has in the new build (a `merge` into it).
const MERGED: &str = "9052f5c7-ee3b-457d-97ca-ac6b4518997c";
/// The first card's id in the old build.
const OLD: &str = "0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b";
/// A catalog id the token has in both builds.
const KEPT: &str = "7d7d7d7d-2c8c-4c8e-9d0b-6e2b8b1b1b1b";

/// Two builds made from the example set in `dir`, `old.json` and
/// `new.json`: the first card's catalog id changes from OLD to MERGED,
/// the second card (with the id GONE) is removed, the token keeps KEPT.
fn builds(dir: &Path) {
    let mut set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SET).unwrap()).unwrap();
    set["cards"][1]["identifiers"]["catalogAId"] = GONE.into();
    set["tokens"][0]["identifiers"]["catalogAId"] = KEPT.into();
    std::fs::write(dir.join("old.json"), set.to_string()).unwrap();
    let cards = set["cards"].as_array_mut().unwrap();
    cards[0]["identifiers"]["catalogAId"] = MERGED.into();
    cards.remove(1);
    std::fs::write(dir.join("new.json"), set.to_string()).unwrap();
}

/// `cardkit migrate check ARGS… --old old.json --new new.json`, run in
/// `dir`: the exit status, standard output and standard error.
fn check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = cardkit()
        .current_dir(dir)
        .args(["migrate", "check"])
        .args(args)
        .args(["--old", "old.json", "--new", "new.json"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The notices `diff --emit-migrations` writes for `dir`'s builds, as
/// values.
fn emitted(dir: &Path) -> Vec<serde_json::Value> {
    cardkit()
        .current_dir(dir)
        .args([
            "diff",
            "--emit-migrations",
            "n.jsonl",
            "old.json",
            "new.json",
        ])
        .assert()
        .code(1);
    std::fs::read_to_string(dir.join("n.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Writes `notices` to `dir/name`, one per line.
fn write(dir: &Path, name: &str, notices: &[serde_json::Value]) {
    let lines: Vec<String> = notices.iter().map(ToString::to_string).collect();
    std::fs::write(dir.join(name), lines.join("\n") + "\n").unwrap();
}

#[test]
fn migrate_check_passes_the_notices_diff_emits() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let notices = emitted(dir.path());
    let strategies: Vec<&str> = notices
        .iter()
        .map(|n| n["migration_strategy"].as_str().unwrap())
        .collect();
    assert_eq!(strategies, ["merge", "delete"], "{notices:?}");
    let (status, out, err) = check(dir.path(), &["n.jsonl"]);
    assert_eq!(status, 0, "{out}{err}");
    let id = |n: usize| notices[n]["id"].as_str().unwrap().to_owned();
    assert!(
        out.contains(&format!(
            "pass {} at n.jsonl:1: merge {OLD} -> {MERGED}\n",
            id(0)
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("pass {} at n.jsonl:2: delete {GONE}\n", id(1))),
        "{out}"
    );
    assert!(out.ends_with("2 notices: 2 passed, 0 failed\n"), "{out}");
    let (status, out, _) = check(dir.path(), &["--format", "json", "n.jsonl"]);
    assert_eq!(status, 0);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        report["summary"],
        serde_json::json!({"notices": 2, "passed": 2, "failed": 0})
    );
    assert_eq!(report["notices"][0]["verdict"], "pass");
    assert_eq!(report["notices"][1]["place"], "n.jsonl:2");
}

#[test]
fn migrate_check_fails_a_notice_with_its_ids_swapped_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let mut notices = emitted(dir.path());
    let merge = &mut notices[0];
    let (old, new) = (
        merge["old_catalogA_id"].clone(),
        merge["new_catalogA_id"].clone(),
    );
    merge["old_catalogA_id"] = new;
    merge["new_catalogA_id"] = old;
    // Named by its id; the one without an id, by its place.
    merge["id"] = "00000000-0000-4000-8000-00000000000a".into();
    notices[1].as_object_mut().unwrap().remove("id");
    write(dir.path(), "swapped.jsonl", &notices);
    let (status, out, _) = check(dir.path(), &["swapped.jsonl"]);
    assert_eq!(status, 1, "{out}");
    assert_snapshot!("migrate_check_swapped_text", out);
    let (status, out, _) = check(dir.path(), &["--format=json", "swapped.jsonl"]);
    assert_eq!(status, 1, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let codes: Vec<&str> = report["notices"][0]["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "old_id_not_in_old_build",
            "old_id_in_new_build",
            "new_id_not_in_new_build"
        ]
    );
    assert_eq!(report["notices"][0]["verdict"], "fail");
    assert_eq!(report["notices"][1]["verdict"], "pass");
    assert_eq!(
        report["summary"],
        serde_json::json!({"notices": 2, "passed": 1, "failed": 1})
    );
}

#[test]
fn migrate_check_fails_a_delete_whose_id_is_still_in_the_new_build() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let delete = serde_json::json!({
        "object": "migration",
        "id": "00000000-0000-4000-8000-00000000000d",
        "uri": "urn:x",
        "migration_strategy": "delete",
        "old_catalogA_id": KEPT.to_uppercase(),
    });
    write(dir.path(), "delete.jsonl", &[delete]);
    let (status, out, err) = check(dir.path(), &["delete.jsonl"]);
    assert_eq!(status, 1, "{out}{err}");
    assert!(
        out.contains(&format!(
            "fail 00000000-0000-4000-8000-00000000000d at delete.jsonl:1: delete {KEPT}\n  old_id_in_new_build: the old id {KEPT} is still in the new build\n1 notice: 0 passed, 1 failed\n"
        )),
        "{out}"
    );
}

/// A merge is checked by the end of its chain, as `migrate apply` follows
/// it: the link between need be in neither build.
#[test]
fn migrate_check_follows_a_chain_of_merges_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let between = "11111111-2c8c-4c8e-9d0b-6e2b8b1b1b1b";
    let merge = |old: &str, new: &str| {
        serde_json::json!({"object": "migration", "uri": "urn:x", "migration_strategy": "merge",
            "old_catalogA_id": old, "new_catalogA_id": new})
    };
    write(
        dir.path(),
        "chain.jsonl",
        &[merge(OLD, between), merge(between, MERGED)],
    );
    let (status, out, _) = check(dir.path(), &["chain.jsonl"]);
    assert_eq!(status, 0, "{out}");
    // A chain that ends elsewhere names its notices.
    write(
        dir.path(),
        "chain.jsonl",
        &[merge(OLD, between), merge(between, GONE)],
    );
    let (status, out, _) = check(dir.path(), &["chain.jsonl"]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains(&format!("  new_id_not_in_new_build: its chain (chain.jsonl:1 > chain.jsonl:2) ends at {GONE}, which is not in the new build\n")),
        "{out}"
    );
}

#[test]
fn migrate_check_of_a_build_that_cannot_be_read_is_status_2() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    emitted(dir.path());
    let run = |old: &str, new: &str| {
        let out = cardkit()
            .current_dir(dir.path())
            .args(["migrate", "check", "n.jsonl", "--old", old, "--new", new])
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (status, out, err) = run("old.json", "missing.json");
    assert_eq!((status, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("cardkit migrate: error: missing.json: cannot be read: "),
        "{err}"
    );
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    let (status, _, err) = run("empty", "new.json");
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("empty: holds no *.json"), "{err}");
    // A document that is no set: reported, nothing checked.
    std::fs::write(dir.path().join("notes.json"), MIGRATION_NOTICE).unwrap();
    let (status, out, err) = run("notes.json", "new.json");
    assert_eq!((status, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("notes.json /: a migration document, not a set")
            && err.contains("the notices were not checked"),
        "{err}"
    );
    // Notices that cannot be read.
    let (status, _, err) = check(dir.path(), &["nowhere.jsonl"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("nowhere.jsonl: cannot be read"), "{err}");
    // Standard input given twice.
    let (status, _, err) = check(dir.path(), &["-", "-"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("standard input can be read once"), "{err}");
}

/// A valid notice, which is no set.
const MIGRATION_NOTICE: &str = r#"{"object":"migration","uri":"urn:x","migration_strategy":"delete","old_catalogA_id":"0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b"}"#;

/// With `--on-invalid skip`, a document of a build that is no set is left
/// out (and said so), and the notices are checked.
#[test]
fn migrate_check_on_invalid_skip_checks_the_notices_and_says_what_was_left_out() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    emitted(dir.path());
    let new = dir.path().join("newdir");
    std::fs::create_dir(&new).unwrap();
    std::fs::rename(dir.path().join("new.json"), new.join("new.json")).unwrap();
    std::fs::write(new.join("notes.json"), MIGRATION_NOTICE).unwrap();
    let out = cardkit()
        .current_dir(dir.path())
        .args(["migrate", "check", "n.jsonl", "--old", "old.json"])
        .args(["--new", "newdir", "--on-invalid", "skip"])
        .output()
        .unwrap();
    let (stdout, err) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{err}");
    assert!(
        stdout.starts_with("old: old.json (1 file, 1 set)\nnew: newdir (2 files, 1 set)\n"),
        "{stdout}"
    );
    assert!(
        err.contains("notes.json /: a migration document, not a set")
            && err.contains("note: 1 document was left out, invalid or not sets"),
        "{err}"
    );
}

/// Notices that `migrate apply` would refuse (an id given two outcomes)
/// cannot be checked either: status 2, the notices named.
#[test]
fn migrate_check_refuses_notices_that_disagree_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    builds(dir.path());
    let notice = |new: Option<&str>| {
        serde_json::json!({"object": "migration", "uri": "urn:x",
            "migration_strategy": if new.is_some() { "merge" } else { "delete" },
            "old_catalogA_id": OLD, "new_catalogA_id": new})
    };
    write(
        dir.path(),
        "two.jsonl",
        &[notice(Some(MERGED)), notice(None)],
    );
    let (status, out, err) = check(dir.path(), &["two.jsonl"]);
    assert_eq!((status, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains(&format!(
            "notices disagree about {OLD}: two.jsonl:1 says merged into {MERGED}, two.jsonl:2 says deleted"
        )),
        "{err}"
    );
}
