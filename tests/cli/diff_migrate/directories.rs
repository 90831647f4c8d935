//! `cardkit diff` on directories, as the union of their files' diffs (on an
//! edited copy of the corpus); standard input and pipes refused; invalid
//! documents under each `--on-invalid`, reported as `validate` reports them.

use super::*;

/// A copy of the corpus's set folder that can be edited.
fn corpus_copy(shared: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(shared.join("corpus/neutral/set")).unwrap() {
        let entry = entry.unwrap();
        // Written anew, not copied: the corpus's files are read-only.
        std::fs::write(
            to.join(entry.file_name()),
            std::fs::read(entry.path()).unwrap(),
        )
        .unwrap();
    }
}

/// Edits a set file (bare or wrapped in `data`) as a value.
fn edit_set(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let set = match value.get_mut("data") {
        Some(set) => set,
        None => &mut value,
    };
    edit(set);
    std::fs::write(path, serde_json::to_vec(&value).unwrap()).unwrap();
}

/// `cardkit diff --format jsonl ARGS…`: the exit status, and each set line
/// with its record lines (the files of a directory left out, since a
/// diff of two files has none), in order.
fn sets_diffed(args: &[&std::ffi::OsStr]) -> (i32, Vec<(String, Vec<String>)>) {
    let output = cardkit()
        .args(["diff", "--format", "jsonl"])
        .args(args)
        .output()
        .unwrap();
    let mut sets: Vec<(String, Vec<String>)> = Vec::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        let object = value.as_object_mut().unwrap();
        object.remove("old_file");
        object.remove("new_file");
        let text = value.to_string();
        match value["type"].as_str() {
            Some("set") => sets.push((text, Vec::new())),
            Some("record") => sets.last_mut().unwrap().1.push(text),
            _ => {}
        }
    }
    (output.status.code().unwrap(), sets)
}

/// Two directories diff as the union of their files' diffs: sets are
/// matched across each build, so a set whose file is gone is removed and a
/// new file's set added.
#[test]
fn two_directories_diff_as_the_union_of_their_files_diffs() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    corpus_copy(&shared, &old);
    corpus_copy(&shared, &new);
    edit_set(&new.join("jsonsets_PVAN.json"), |set| {
        set["cards"][0]["artist"] = "Someone Else".into();
    });
    edit_set(&new.join("jsonsets_V13.json"), |set| {
        set["cards"].as_array_mut().unwrap().remove(1);
    });
    std::fs::remove_file(new.join("jsonsets_TDAG.json")).unwrap();
    std::fs::write(new.join("zz-new-set.json"), std::fs::read(SET).unwrap()).unwrap();
    // The corpus's sets are not all valid: both ways diff them as far as
    // they parse.
    let keep = std::ffi::OsStr::new("--on-invalid=keep");
    let (status, mut whole) = sets_diffed(&[keep, old.as_os_str(), new.as_os_str()]);
    assert_eq!(status, 1);
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let mut names: Vec<std::ffi::OsString> = std::fs::read_dir(&old)
        .unwrap()
        .chain(std::fs::read_dir(&new).unwrap())
        .map(|entry| entry.unwrap().file_name())
        .collect();
    names.sort();
    names.dedup();
    let (mut statuses, mut union) = (Vec::new(), Vec::new());
    for name in &names {
        let side = |dir: &Path| {
            let path = dir.join(name);
            if path.exists() {
                path
            } else {
                empty.clone()
            }
        };
        let (status, sets) = sets_diffed(&[keep, side(&old).as_os_str(), side(&new).as_os_str()]);
        statuses.push(status);
        union.extend(sets);
    }
    whole.sort();
    union.sort();
    // PVAN and V13 changed, TDAG removed, EXA added.
    assert_eq!(whole.len(), 4, "{whole:#?}");
    assert_eq!(whole, union);
    assert_eq!(statuses.into_iter().max(), Some(status));
    // A directory against itself: nothing changed.
    let (status, same) = sets_diffed(&[keep, old.as_os_str(), old.as_os_str()]);
    assert_eq!((status, same.len()), (0, 0));
}

#[test]
fn a_directory_against_itself_is_the_same() {
    let dir = support::dir_with(&[]);
    std::fs::copy(SET, dir.path().join("a.json")).unwrap();
    let set = std::fs::read_to_string(SET).unwrap();
    std::fs::create_dir(dir.path().join("more")).unwrap();
    std::fs::write(
        dir.path().join("more/b.json"),
        set.replace("\"EXA\"", "\"EXB\""),
    )
    .unwrap();
    let out = cardkit()
        .args(["diff", "--format", "json"])
        .arg(dir.path())
        .arg(dir.path())
        .assert()
        .code(0);
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(report["sets"], serde_json::json!([]));
    assert_eq!(report["old"]["sets"], 2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.contains("checked 4 documents in 4 files: 4 valid"),
        "{err}"
    );
}

#[test]
fn standard_input_and_pipes_are_refused_with_why() {
    for args in [["-", SET], [SET, "-"]] {
        cardkit()
            .arg("diff")
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(
                "standard input (`-`) cannot be diffed: diff reads each input twice",
            ))
            .stderr(predicates::str::contains("save it to a file"));
    }
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("SKIPPED: mkfifo cannot make a named pipe here");
        return;
    }
    // Refused before it is opened: opening a pipe with no writer would
    // wait forever.
    cardkit()
        .arg("diff")
        .arg(SET)
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(format!(
            "{} cannot be diffed: it is not a file",
            fifo.display()
        )))
        .stderr(predicates::str::contains("save it to a file"));
}

#[test]
fn a_directory_without_json_files_is_named() {
    let dir = tempfile::tempdir().unwrap();
    cardkit()
        .arg("diff")
        .arg(dir.path())
        .arg(SET)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(format!(
            "{}: holds no *.json, *.jsonl or *.ndjson file",
            dir.path().display()
        )));
}

/// Builds OLD and NEW of two sets each; in NEW, set EXA has a changed value
/// and set EXB a changed value and a card number of the wrong type.
fn one_invalid_set() -> tempfile::TempDir {
    let set = std::fs::read_to_string(SET).unwrap();
    let b = set.replace("\"EXA\"", "\"EXB\"");
    let dir = support::dir_with(&[("old/a.json", &set), ("old/b.json", &b)]);
    std::fs::create_dir(dir.path().join("new")).unwrap();
    std::fs::copy(dir.path().join("old/a.json"), dir.path().join("new/a.json")).unwrap();
    std::fs::copy(dir.path().join("old/b.json"), dir.path().join("new/b.json")).unwrap();
    edit_set(&dir.path().join("new/a.json"), |set| {
        set["cards"][0]["artist"] = "Someone Else".into();
    });
    edit_set(&dir.path().join("new/b.json"), |set| {
        set["cards"][0]["artist"] = "Someone Else".into();
        set["cards"][1]["number"] = 7.into();
    });
    dir
}

#[test]
fn on_invalid_fail_skip_and_keep_on_a_directory() {
    let dir = one_invalid_set();
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    let run = |mode: &str| {
        let output = cardkit()
            .args(["diff", "--format", "jsonl", "--on-invalid", mode])
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap();
        let sets: Vec<String> = String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .filter(|line| line["type"] == "set")
            .map(|line| format!("{} {}", line["code"], line["change"]))
            .collect();
        let err = String::from_utf8(output.stderr).unwrap();
        (output.status.code(), sets, err)
    };
    for mode in ["fail", "stop"] {
        let (status, sets, err) = run(mode);
        assert_eq!((status, sets.len()), (Some(2), 0), "{err}");
        assert!(err.contains("error[wrong_type]"), "{err}");
        assert!(err.contains("the builds were not diffed"), "{err}");
    }
    let (status, sets, err) = run("skip");
    assert_eq!(status, Some(1), "{err}");
    assert_eq!(sets, [r#""EXA" "changed""#]);
    assert!(err.contains("error[wrong_type]"), "{err}");
    assert!(
        err.contains("1 document was left out, invalid or not sets (--on-invalid skip); sets with their codes were diffed on neither side: EXB"),
        "{err}"
    );
    let (status, sets, err) = run("keep");
    assert_eq!(status, Some(1), "{err}");
    assert_eq!(sets, [r#""EXA" "changed""#, r#""EXB" "changed""#]);
}

/// The diagnostic blocks of a text report: what comes before its closing
/// lines (the notes of warnings not shown, and the summary).
fn diagnostic_blocks(report: &str) -> String {
    report
        .lines()
        .take_while(|line| !line.starts_with("checked ") && !line.starts_with("note: "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn invalid_documents_are_reported_as_validate_reports_them() {
    let invalid = "examples/invalid/set-card-problems.json";
    let validated = cardkit()
        .args(["validate", "--format", "text", invalid])
        .output()
        .unwrap();
    let expected = diagnostic_blocks(&String::from_utf8(validated.stdout).unwrap());
    assert!(expected.contains("error["), "{expected}");
    let diffed = cardkit()
        .args(["diff", invalid, SET])
        .assert()
        .code(2)
        .stdout("");
    let err = String::from_utf8(diffed.get_output().stderr.clone()).unwrap();
    assert_eq!(diagnostic_blocks(&err), expected);
    assert!(
        err.contains("checked 2 documents in 2 files: 1 valid, 1 invalid"),
        "{err}"
    );
}
