//! `cardkit diff` and `cardkit migrate apply` as commands: exit statuses,
//! the notices written, files rewritten in place, usage errors
//! (`migrate check`: [`check`]; the references a diff finds broken:
//! [`references`]).

use crate::support;

use std::path::Path;

use support::{cardkit, into_a_closed_pipe, Stream};

mod check;
mod directories;
mod references;

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

/// `cardkit diff ARGS…`: the exit status and standard output.
fn diff_output(args: &[&std::ffi::OsStr]) -> (i32, String) {
    let output = cardkit().arg("diff").args(args).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    (output.status.code().unwrap(), stdout)
}

#[test]
fn numbers_written_another_way_are_the_same_build_and_counted() {
    let text = std::fs::read_to_string(SET).unwrap();
    let rewrites = [
        ("\"baseSetSize\": 2,", "\"baseSetSize\": 2.0,"),
        ("\"convertedManaCost\": 5.0", "\"convertedManaCost\": 5"),
        ("\"registryId\": 12345\n", "\"registryId\": 1.2345e4\n"),
        ("\"productSize\": 36,", "\"productSize\": 36.00,"),
    ];
    let mut rewritten = text.clone();
    let mut numbers = 0;
    for (from, to) in rewrites {
        numbers += rewritten.matches(from).count();
        rewritten = rewritten.replace(from, to);
    }
    assert_eq!(numbers, 6, "{text}");
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.json");
    std::fs::write(&new, rewritten).unwrap();
    let json = std::ffi::OsStr::new("--format=json");
    let (status, out) = diff_output(&[json, SET.as_ref(), new.as_os_str()]);
    assert_eq!(status, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["sets"], serde_json::json!([]));
    assert_eq!(report["summary"]["numbers_rewritten"], numbers);
    assert_eq!(report["summary"]["records_changed"], 0);
    let (status, out) = diff_output(&[SET.as_ref(), new.as_os_str()]);
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains("\nnumbers: 6 written another way (same value, not a change)\n"),
        "{out}"
    );
}

#[test]
fn stat_prints_the_summary_alone_in_each_format() {
    let dir = tempfile::tempdir().unwrap();
    let new = changed(dir.path());
    let (old, new) = (std::ffi::OsStr::new(SET), new.as_os_str());
    let stat = std::ffi::OsStr::new("--stat");
    for format in ["text", "json", "jsonl"] {
        let format = format!("--format={format}");
        let format = std::ffi::OsStr::new(&format);
        let (status, whole) = diff_output(&[format, old, new]);
        let (stat_status, alone) = diff_output(&[format, stat, old, new]);
        assert_eq!((status, stat_status), (1, 1));
        match format.to_str() {
            Some("--format=text") => {
                // The set at the file's root is named so.
                assert!(whole.contains(") at (the root)\n"), "{whole}");
                let summary_end = whole.find("\n\nset ").unwrap() + 1;
                assert_eq!(alone, whole[..summary_end]);
                assert!(alone.ends_with("migrations: 1\n"), "{alone}");
            }
            Some("--format=json") => {
                let whole: serde_json::Value = serde_json::from_str(&whole).unwrap();
                let alone: serde_json::Value = serde_json::from_str(&alone).unwrap();
                let expected = serde_json::json!({
                    "old": whole["old"],
                    "new": whole["new"],
                    "summary": whole["summary"],
                });
                assert_eq!(alone, expected);
            }
            _ => {
                let lines: Vec<&str> = whole.lines().collect();
                let expected = [lines[0], lines[1], lines[lines.len() - 1]];
                assert!(expected[2].starts_with(r#"{"type":"summary""#));
                assert_eq!(alone.lines().collect::<Vec<_>>(), expected);
            }
        }
    }
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

/// Notices are found and opened as every input is: gzipped, in a zip
/// archive, under the publishers' names (the catalog's own page, as fetched).
#[test]
fn migrate_apply_reads_compressed_and_archived_notices_under_either_names() {
    use std::io::Write as _;
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let old = "585fa2cc-4f77-47ab-8d2c-c68258ced283";
    let merged = "9052f5c7-ee3b-457d-97ca-ac6b4518997c";
    let apply = |notices: &Path, names: &str| {
        let csv = dir.path().join("deck.csv");
        std::fs::write(&csv, format!("id\n{old}\n")).unwrap();
        let out = cardkit()
            .args(["migrate", "apply", "--names", names, "--column", "id"])
            .arg("--migrations")
            .arg(notices)
            .arg(&csv)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    for (names, folder) in [("spec", "neutral"), ("upstream", "raw")] {
        let plain = std::fs::read(
            shared
                .join("corpus")
                .join(folder)
                .join("migration/mtgssm_migrations.json"),
        )
        .unwrap();
        let gz = dir.path().join(format!("{folder}.json.gz"));
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(&plain).unwrap();
        std::fs::write(&gz, encoder.finish().unwrap()).unwrap();
        assert_eq!(apply(&gz, names), format!("id\n{merged}\n"), "{folder}");

        let zip = dir.path().join(format!("{folder}.zip"));
        let mut archive = zip::ZipWriter::new(std::fs::File::create(&zip).unwrap());
        archive
            .start_file(
                "notices/page.json",
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
        archive.write_all(&plain).unwrap();
        archive.finish().unwrap();
        assert_eq!(apply(&zip, names), format!("id\n{merged}\n"), "{folder}");
    }
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

#[cfg(unix)]
#[test]
fn emit_migrations_onto_a_build_is_a_usage_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("o.json");
    std::fs::copy(SET, &old).unwrap();
    let new = changed(dir.path());
    let build = dir.path().join("build");
    std::fs::create_dir(&build).unwrap();
    std::fs::copy(SET, build.join("x.json")).unwrap();
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(build.join("x.json"), &link).unwrap();
    let before = |p: &Path| std::fs::read(p).unwrap();
    let (old_bytes, new_bytes, x_bytes) =
        (before(&old), before(&new), before(&build.join("x.json")));
    // Onto OLD, onto NEW, through a link to a file inside a directory build.
    for (out, a, b) in [
        (&old, &old, &new),
        (&new, &old, &new),
        (&link, &build, &new),
        (&build.join("x.json"), &old, &build),
    ] {
        let assert = cardkit()
            .arg("diff")
            .arg("--emit-migrations")
            .arg(out)
            .arg(a)
            .arg(b)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(err.contains("would be written over"), "{err}");
    }
    assert_eq!(before(&old), old_bytes);
    assert_eq!(before(&new), new_bytes);
    assert_eq!(before(&build.join("x.json")), x_bytes);
}

#[cfg(unix)]
#[test]
fn migrate_apply_in_place_refuses_a_read_only_file_with_status_2() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let notices = dir.path().join("n.jsonl");
    std::fs::write(&notices, r#"{"object":"migration","uri":"urn:x","migration_strategy":"merge","old_catalogA_id":"0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b","new_catalogA_id":"22222222-2c8c-4c8e-9d0b-6e2b8b1b1b1b"}"#).unwrap();
    let csv = dir.path().join("ro.csv");
    let text = "catalog_id\n0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b\n";
    std::fs::write(&csv, text).unwrap();
    std::fs::set_permissions(&csv, std::fs::Permissions::from_mode(0o444)).unwrap();
    let assert = cardkit()
        .args([
            "migrate",
            "apply",
            "--column",
            "catalog_id",
            "--in-place",
            "--migrations",
        ])
        .arg(&notices)
        .arg(&csv)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(err.contains("read-only"), "{err}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
}

/// A notice that merges the example set's catalog id into another.
const MERGE: &str = r#"{"object":"migration","uri":"urn:x","migration_strategy":"merge","old_catalogA_id":"0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b","new_catalogA_id":"22222222-2c8c-4c8e-9d0b-6e2b8b1b1b1b"}"#;

#[test]
fn migrate_apply_to_a_store_rewrites_the_build_asked_for_and_names_rows_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let notices = dir.path().join("n.jsonl");
    std::fs::write(&notices, MERGE).unwrap();
    let db = dir.path().join("cards.db");
    for build in ["b1", "b2"] {
        cardkit()
            .args(["export", "--build", build, "--to"])
            .arg(&db)
            .arg(SET)
            .assert()
            .code(0);
    }
    let apply = |build: &str, code: i32| {
        let out = cardkit()
            .args(["migrate", "apply", "--migrations"])
            .arg(&notices)
            .arg("--to")
            .arg(&db)
            .args(["--table", "identifiers", "--column", "catalog_a_id"])
            .args(["--build", build])
            .assert()
            .code(code);
        let output = out.get_output();
        (
            String::from_utf8(output.stdout.clone()).unwrap(),
            String::from_utf8(output.stderr.clone()).unwrap(),
        )
    };
    let (_, err) = apply("zz", 2);
    assert!(
        err.contains("--build zz: ") && err.contains("(builds there: b1, b2)"),
        "{err}"
    );
    let (out, _) = apply("b2", 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for (line, card) in lines.iter().zip(["01", "02"]) {
        assert!(
            line.starts_with(&format!(
                "identifiers uuid=5f8287b1-5bb6-5f4c-ad17-316a40d5bb{card}: 0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b -> 22222222-2c8c-4c8e-9d0b-6e2b8b1b1b1b ("
            )),
            "{out}"
        );
    }
    assert_eq!(
        lines[2],
        "2 references in build b2: 2 merged, 0 deleted kept, 0 dropped; 1 written"
    );
    let ids = |build: &str| -> Vec<String> {
        let c = rusqlite::Connection::open(&db).unwrap();
        let mut q = c
            .prepare("SELECT catalog_a_id FROM identifiers WHERE build = ?1 AND catalog_a_id IS NOT NULL")
            .unwrap();
        q.query_map([build], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(ids("b1"), ["0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b"; 2]);
    assert_eq!(ids("b2"), ["22222222-2c8c-4c8e-9d0b-6e2b8b1b1b1b"; 2]);
    cardkit()
        .args(["migrate", "apply", "--migrations"])
        .arg(&notices)
        .args(["--column", "id", "--build", "b1", "x.csv"])
        .assert()
        .code(2);
}

/// The temporary files in `dir` of `migrate apply` writing `name`.
fn temporaries(dir: &Path, name: &str) -> Vec<std::path::PathBuf> {
    let prefix = format!(".{name}.cardkit-");
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(&prefix)
        })
        .collect()
}

#[test]
fn migrate_apply_in_place_killed_leaves_a_temporary_that_the_next_run_removes() {
    let dir = tempfile::tempdir().unwrap();
    let notices = dir.path().join("n.jsonl");
    std::fs::write(&notices, MERGE).unwrap();
    let csv = dir.path().join("deck.csv");
    let mut text = String::from("n,catalog_id\n");
    for n in 0..400_000 {
        text.push_str(&format!("{n},0b0b8ebe-2c8c-4c8e-9d0b-6e2b8b1b1b1b\n"));
    }
    std::fs::write(&csv, &text).unwrap();
    let args = |command: &mut std::process::Command| {
        command
            .args(["migrate", "apply", "--column", "catalog_id", "--in-place"])
            .arg("--migrations")
            .arg(&notices)
            .arg(&csv);
    };
    let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_cardkit"));
    args(&mut run);
    let mut child = run
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed (SIGKILL) as soon as its temporary file is there.
    let start = std::time::Instant::now();
    while temporaries(dir.path(), "deck.csv").is_empty() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(60));
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = temporaries(dir.path(), "deck.csv");
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        text,
        "the file as it was"
    );
    let size = std::fs::metadata(&left[0]).unwrap().len();
    let mut again = std::process::Command::new(env!("CARGO_BIN_EXE_cardkit"));
    args(&mut again);
    let out = again.output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report = String::from_utf8(out.stdout).unwrap();
    let last = report.lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "removed 1 temporary file that runs killed before their end had left: {}, {size} bytes",
            left[0].display()
        )
    );
    assert!(temporaries(dir.path(), "deck.csv").is_empty());
    assert!(std::fs::read_to_string(&csv)
        .unwrap()
        .ends_with(",22222222-2c8c-4c8e-9d0b-6e2b8b1b1b1b\n"));
}
