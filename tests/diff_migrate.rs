//! `cardkit diff` and `cardkit migrate apply` as commands: exit statuses,
//! the notices written, files rewritten in place, usage errors.

mod support;

use support::{cardkit, into_a_closed_pipe, Stream};

const SET: &str = "examples/valid/set.json";

/// The example set with its first card's catalog id changed and its second
/// card removed.
fn changed(dir: &std::path::Path) -> std::path::PathBuf {
    let mut set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(SET).unwrap()).unwrap();
    let cards = set["cards"].as_array_mut().unwrap();
    cards[0]["identifiers"]["catalogAId"] = "9052f5c7-ee3b-457d-97ca-ac6b4518997c".into();
    cards.remove(1);
    let path = dir.join("new.json");
    std::fs::write(&path, serde_json::to_string_pretty(&set).unwrap()).unwrap();
    path
}

#[test]
fn diff_exits_0_when_the_same_1_when_not_and_writes_valid_notices() {
    cardkit().args(["diff", SET, SET]).assert().code(0);
    let dir = tempfile::tempdir().unwrap();
    let new = changed(dir.path());
    let notices = dir.path().join("notices.jsonl");
    let out = cardkit()
        .args(["diff", "--format", "jsonl", "--emit-migrations"])
        .arg(&notices)
        .arg(SET)
        .arg(&new)
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text
        .lines()
        .last()
        .unwrap()
        .starts_with(r#"{"type":"summary""#));
    cardkit()
        .args(["validate", "--kind", "migration"])
        .arg(&notices)
        .assert()
        .code(0);
    let written = std::fs::read_to_string(&notices).unwrap();
    assert_eq!(written.lines().count(), 1, "{written}");
    assert!(written.contains(r#""migration_strategy":"merge""#));
}

#[test]
fn diff_stops_on_invalid_documents_with_status_2() {
    let out = cardkit()
        .args(["diff", "examples/invalid/not-json.json", SET])
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("the builds were not diffed"), "{err}");
}

#[test]
fn migrate_apply_rewrites_a_csv_in_place_and_then_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("deck.csv");
    let old = "585fa2cc-4f77-47ab-8d2c-c68258ced283";
    std::fs::write(&csv, format!("name,id\r\n\"a, b\",{old}\r\n")).unwrap();
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let notices = shared.join("corpus/neutral/migration/mtgssm_migrations.json");
    let notices = notices.to_str().unwrap();
    let apply = |how: &str| {
        cardkit()
            .args([
                "migrate",
                "apply",
                "--migrations",
                notices,
                "--column",
                "id",
                how,
            ])
            .arg(&csv)
            .assert()
            .code(0)
    };
    apply("--in-place");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "name,id\r\n\"a, b\",9052f5c7-ee3b-457d-97ca-ac6b4518997c\r\n"
    );
    let out = apply("--dry-run");
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.starts_with("dry run: 1 references: 0 merged"),
        "{text}"
    );
}

#[test]
fn migrate_apply_usage_errors() {
    cardkit()
        .args(["migrate", "apply", "--migrations", "x.jsonl", "in.csv"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--column NAME (CSV) or --pointer PATTERN",
        ));
    cardkit()
        .args([
            "migrate",
            "apply",
            "--migrations",
            "missing.jsonl",
            "--column",
            "id",
            "in.csv",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("missing.jsonl: cannot be read"));
}

/// A closed standard output (`cardkit diff … | head`) stops the output, not
/// the run: builds that differ still give status 1, not a quiet 0.
#[test]
fn a_closed_stdout_keeps_the_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let new = changed(dir.path());
    let (status, _) = into_a_closed_pipe(
        [std::ffi::OsStr::new("diff"), SET.as_ref(), new.as_os_str()],
        Stream::Stdout,
    );
    assert_eq!(status, Some(1));
}
