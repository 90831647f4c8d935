//! The `cardkit` binary against hostile inputs and surroundings: absurd
//! flag values, a reader that goes away, symbolic links, standard input
//! named twice, runs that find nothing to check, files that fail half-way
//! and names that hold terminal escapes. None of them may panic, pass a run
//! that should fail, or write raw control characters to a terminal.

use crate::support;

use std::path::Path;

use predicates::prelude::*;
use predicates::str::contains;
use support::{cardkit, dir_with, examples_dir, into_a_closed_pipe, show, Stream};

/// A valid migration on one line.
const MIGRATION: &str = r#"{"object": "migration", "uri": "https://e.org/m", "created_at": "2023-01-15", "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}"#;

fn examples(folder: &str) -> String {
    show(&examples_dir().join(folder))
}

#[test]
fn jobs_beyond_256_is_a_usage_error() {
    let set = examples("valid/set.json");
    for jobs in ["257", "30000", "65535", "65536", "0"] {
        cardkit()
            .args(["validate", "--jobs", jobs, &set])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(format!("invalid value '{jobs}' for '--jobs <N>'")))
            .stderr(contains("1..=256"))
            .stderr(contains("panicked").not());
    }
    for jobs in ["1", "256"] {
        cardkit()
            .args(["validate", "--jobs", jobs, &set])
            .assert()
            .code(0)
            .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\nread: 1 file under the spec's names; as of v5.2.1 (1 file)\n");
    }
    let output = cardkit().args(["validate", "--help"]).assert().code(0);
    let help = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(help.contains("from 1 to 256"), "{help}");
}

#[test]
fn a_closed_pipe_keeps_the_exit_status() {
    // Some 10 MB of diagnostics: far more than a pipe holds, so the command
    // writes after the reader is gone whatever the timing.
    let many = vec![r#"{"object": "migration"}"#; 20_000].join(",\n");
    let valid = vec![MIGRATION; 20_000].join(",\n");
    let dir = dir_with(&[
        ("many.json", &format!("[{many}]\n")),
        ("valid.json", &format!("[{valid}]\n")),
    ]);
    let many = show(&dir.path().join("many.json"));
    let valid = show(&dir.path().join("valid.json"));
    let missing = show(&dir.path().join("missing.json"));
    let invalid_examples = examples("invalid");
    let valid_examples = examples("valid");
    for format in ["text", "json"] {
        for (args, code) in [
            (vec![invalid_examples.as_str()], 1),
            (vec![valid_examples.as_str()], 0),
            (vec![missing.as_str()], 2),
            (vec![many.as_str()], 1),
            (vec![valid.as_str()], 0),
            // The inputs after the closing are still validated.
            (vec![many.as_str(), valid_examples.as_str()], 1),
            (vec![valid.as_str(), invalid_examples.as_str()], 1),
            (vec![many.as_str(), missing.as_str()], 2),
        ] {
            let mut all = vec!["validate", "--format", format];
            all.extend(&args);
            let (status, stderr) = into_a_closed_pipe(&all, Stream::Stdout);
            assert_eq!(status, Some(code), "{all:?}: {stderr}");
            assert_eq!(stderr, "", "{all:?}: a closed pipe is reported");
        }
    }
}

#[cfg(unix)]
fn symlink(target: &str, link: &Path) {
    std::os::unix::fs::symlink(target, link).expect("make a symbolic link");
}

#[cfg(unix)]
#[test]
fn symbolic_links_in_directories_are_followed() {
    let dir = dir_with(&[
        ("outside/real.json", MIGRATION),
        ("outside/folder/inner.json", MIGRATION),
        ("outside/folder/bad.json", r#"{"object": "migration"}"#),
        ("inputs/plain.json", MIGRATION),
    ]);
    let inputs = dir.path().join("inputs");
    symlink("../outside/real.json", &inputs.join("link.json"));
    symlink("../outside/folder", &inputs.join("sub"));
    let root = show(&inputs);
    cardkit()
        .args(["validate", &root])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{}:1:1: error[missing_field]",
            show(&inputs.join("sub/bad.json"))
        )))
        .stdout(contains(
            "checked 4 documents in 4 files: 3 valid, 1 invalid\n",
        ));
    let output = cardkit()
        .args(["validate", "--format", "json", &root])
        .assert()
        .code(1);
    let report: serde_json::Value =
        serde_json::from_slice(&output.get_output().stdout).expect("JSON output");
    let paths: Vec<&str> = report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|file| file["path"].as_str().expect("path"))
        .collect();
    let expected: Vec<String> = ["link.json", "plain.json", "sub/bad.json", "sub/inner.json"]
        .iter()
        .map(|name| show(&inputs.join(name)))
        .collect();
    assert_eq!(paths, expected);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_loop_in_a_directory_is_unreadable() {
    let dir = dir_with(&[("inputs/plain.json", MIGRATION), ("inputs/deep/x.txt", "")]);
    let inputs = dir.path().join("inputs");
    symlink(".", &inputs.join("again"));
    symlink("..", &inputs.join("deep/back"));
    let root = show(&inputs);
    cardkit()
        .args(["validate", &root])
        .assert()
        .code(2)
        .stdout(contains(format!(
            "{}: error: cannot read: symbolic link loop: it leads back to {root}, \
             a directory it is in\n",
            show(&inputs.join("again"))
        )))
        .stdout(contains(format!(
            "{}: error: cannot read: symbolic link loop: it leads back to {root}, \
             a directory it is in\n",
            show(&inputs.join("deep/back"))
        )))
        .stdout(contains(
            "checked 1 document in 3 files: 1 valid, 0 invalid, 2 paths unreadable\n",
        ));
}

#[cfg(unix)]
#[test]
fn a_dangling_symbolic_link_in_a_directory_is_unreadable() {
    let dir = dir_with(&[("inputs/plain.json", MIGRATION)]);
    let inputs = dir.path().join("inputs");
    symlink("nowhere.json", &inputs.join("gone.json"));
    let root = show(&inputs);
    cardkit()
        .args(["validate", &root])
        .assert()
        .code(2)
        .stdout(contains(format!(
            "{}: error: cannot read: symbolic link to nowhere.json that cannot be followed: \
             No such file or directory",
            show(&inputs.join("gone.json"))
        )))
        .stdout(contains(
            "checked 1 document in 2 files: 1 valid, 0 invalid, 1 path unreadable\n",
        ));

    // Named on the command line, a dangling link is a file that cannot be
    // opened.
    let gone = show(&inputs.join("gone.json"));
    cardkit()
        .args(["validate", &gone])
        .assert()
        .code(2)
        .stdout(contains(format!(
            "{gone}: error: cannot read: No such file or directory"
        )));
}

#[test]
fn standard_input_named_twice_is_a_usage_error() {
    let set = examples("valid/set.json");
    for args in [vec!["-", "-"], vec!["-", &set, "-"], vec!["-", "-", "-"]] {
        cardkit()
            .arg("validate")
            .args(&args)
            .write_stdin(MIGRATION)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("`-` is given"))
            .stderr(contains("standard input can be read once"))
            .stderr(contains("Usage: cardkit validate"));
    }
    cardkit()
        .args(["validate", "-", &set])
        .write_stdin(MIGRATION)
        .assert()
        .code(0)
        .stdout(
            "checked 2 documents in 2 files: 2 valid, 0 invalid\n\
             read: 2 files under the spec's names; as of v5.2.1 (1 file)\n",
        );
}

#[test]
fn a_run_that_checks_nothing_says_so_and_fails() {
    let dir = dir_with(&[
        ("notes/readme.txt", "no JSON here"),
        ("notes/x.json.bak", "{"),
    ]);
    std::fs::create_dir(dir.path().join("empty")).expect("an empty directory");
    let empty = show(&dir.path().join("empty"));
    let notes = show(&dir.path().join("notes"));
    for format in ["text", "json"] {
        cardkit()
            .args(["validate", "--format", format, &empty, &notes])
            .assert()
            .code(2)
            .stderr(contains(format!(
                "cardkit validate: note: {empty} holds no *.json, *.jsonl or *.ndjson file that is not ignored, hidden or excluded\n"
            )))
            .stderr(contains(format!(
                "cardkit validate: note: {notes} holds no *.json, *.jsonl or *.ndjson file that is not ignored, hidden or excluded\n"
            )))
            .stderr(contains(
                "cardkit validate: error: nothing was checked: no input was found",
            ));
    }
    cardkit()
        .args(["validate", &empty])
        .assert()
        .code(2)
        .stdout("checked 0 documents in 0 files: 0 valid, 0 invalid\n");

    // With something checked beside it, an empty directory is only noted.
    let set = examples("valid/set.json");
    cardkit()
        .args(["validate", &empty, &set])
        .assert()
        .code(0)
        .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\nread: 1 file under the spec's names; as of v5.2.1 (1 file)\n")
        .stderr(format!(
            "cardkit validate: note: {empty} holds no *.json, *.jsonl or *.ndjson file that is not ignored, hidden or excluded\n"
        ));
    // A file with no document in it was checked: no note.
    let dir = dir_with(&[("list/none.json", "[]")]);
    cardkit()
        .arg("validate")
        .arg(dir.path().join("list"))
        .assert()
        .code(0)
        .stdout("checked 0 documents in 1 file: 0 valid, 0 invalid\n")
        .stderr("");
}

#[test]
fn json_endings_are_matched_in_any_case() {
    let line = MIGRATION;
    let bad = r#"{"object": "migration"}"#;
    let dir = dir_with(&[
        ("in/A.JSON", MIGRATION),
        ("in/b.Json", MIGRATION),
        ("in/c.JSONL", &format!("{line}\n{bad}\n")),
        ("in/d.NdJson", &format!("{line}\n{line}\n")),
        ("in/e.TXT", "not JSON"),
    ]);
    let root = dir.path().join("in");
    let output = cardkit()
        .args(["validate", "--format", "json", &show(&root)])
        .assert()
        .code(1);
    let report: serde_json::Value =
        serde_json::from_slice(&output.get_output().stdout).expect("JSON output");
    let files = report["files"].as_array().expect("files");
    let paths: Vec<&str> = files
        .iter()
        .map(|file| file["path"].as_str().expect("path"))
        .collect();
    let expected: Vec<String> = ["A.JSON", "b.Json", "c.JSONL", "d.NdJson"]
        .iter()
        .map(|name| show(&root.join(name)))
        .collect();
    assert_eq!(paths, expected);
    // Upper-case JSON Lines endings are read as JSON Lines.
    for file in &files[2..] {
        let documents = file["documents"].as_array().expect("documents");
        assert_eq!(documents.len(), 2, "{file}");
        assert_eq!(documents[1]["line"], 2, "{file}");
    }
    assert_eq!(report["summary"]["documents"], 6);
    assert_eq!(report["summary"]["invalid"], 1);

    // Named on the command line too.
    cardkit()
        .arg("validate")
        .arg(root.join("c.JSONL"))
        .assert()
        .code(1)
        .stdout(contains(
            "checked 2 documents in 1 file: 1 valid, 1 invalid\n",
        ));
}

/// `/proc/self/mem` opens, but reading its start fails.
#[cfg(target_os = "linux")]
#[test]
fn a_file_that_fails_half_way_counts_once_as_unreadable() {
    let mem = "/proc/self/mem";
    cardkit()
        .args(["validate", mem])
        .assert()
        .code(2)
        .stdout(contains(format!("{mem}: error: cannot read: ")))
        .stdout(contains(
            "checked 0 documents in 1 file: 0 valid, 0 invalid, 1 path unreadable\n",
        ));
    let set = examples("valid/set.json");
    cardkit()
        .args(["validate", &set, mem])
        .assert()
        .code(2)
        .stdout(contains(
            "checked 1 document in 2 files: 1 valid, 0 invalid, 1 path unreadable\n",
        ));
    let output = cardkit()
        .args(["validate", "--format", "json", &set, mem])
        .assert()
        .code(2);
    let report: serde_json::Value =
        serde_json::from_slice(&output.get_output().stdout).expect("JSON output");
    assert_eq!(report["summary"]["files"], 1);
    assert_eq!(report["summary"]["unreadable"], 1);
    assert_eq!(report["files"].as_array().expect("files").len(), 2);
    assert!(report["files"][1]["error"].is_string());
}

/// The characters that must not reach a terminal raw: controls (C0, DEL,
/// C1), line and paragraph separators, bidirectional formatting.
fn unsafe_on_a_terminal(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn assert_terminal_safe(output: &[u8]) {
    let text = String::from_utf8_lossy(output);
    let raw: Vec<char> = text.chars().filter(|&c| unsafe_on_a_terminal(c)).collect();
    assert!(raw.is_empty(), "raw {raw:?} in:\n{text}");
}

#[cfg(unix)]
#[test]
fn text_output_escapes_control_characters_from_inputs() {
    // Keys that set the window title and clear the screen, a right-to-left
    // override, a line separator and a C1 control; a string value with a raw
    // override; a set code with a line feed.
    let keys = r#"{"object": "migration", "uri": "https://e.org/m", "created_at": "2023-01-15",
"migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0",
"\u001b]0;owned\u0007\u001b[2J": 1, "a\u202eb": 2, "c\u2028d\u0085e\u007f": 3,
"note": 5, "id": "x\u202ey"}"#;
    let catalog = r#"{"meta": {}, "data": {"A\nB:1:1: error[fake]": {"code": "A"}}}"#;
    let repeated = format!(
        "[{}]",
        [r#"{"object": "migration", "\u001b[31mred": 1}"#; 4].join(",")
    );
    let evil_name = "evil\u{1b}[2J\nname:9:9: error[fake]\u{202e}.json";
    let dir = dir_with(&[
        ("keys.json", keys),
        ("catalog.json", catalog),
        ("repeated.json", &repeated),
        (evil_name, r#"{"object": "migration"}"#),
    ]);
    let root = show(dir.path());
    let missing = show(&dir.path().join("gone\u{1b}[2J.json"));
    let output = cardkit()
        .args(["validate", &root, &missing])
        .assert()
        .code(2);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_terminal_safe(&output.get_output().stdout);

    // Keys in messages and pointers, as `\u{…}`.
    assert!(
        stdout.contains(
            "warning[unknown_field]: unknown field `\\u{1b}]0;owned\\u{7}\\u{1b}[2J` in Migration\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(" --> /\\u{1b}]0;owned\\u{7}\\u{1b}[2J\n"),
        "{stdout}"
    );
    assert!(stdout.contains(" --> /a\\u{202e}b\n"), "{stdout}");
    assert!(
        stdout.contains(" --> /c\\u{2028}d\\u{85}e\\u{7f}\n"),
        "{stdout}"
    );
    // A string value keeps its JSON escaping.
    assert!(stdout.contains(r#"found string "x\u202ey""#), "{stdout}");
    // A set code with a line feed stays on the pointer's line (the set's,
    // whose missing members are one block).
    assert!(
        stdout.contains(" --> /data/A\\u{a}B:1:1: error[fake]\n"),
        "{stdout}"
    );
    // A file name with a line feed stays on the diagnostic's line.
    let evil = show(
        &dir.path()
            .join("evil\\u{1b}[2J\\u{a}name:9:9: error[fake]\\u{202e}.json"),
    );
    assert!(
        stdout.contains(&format!("{evil}:1:1: error[missing_field]")),
        "{stdout}"
    );
    assert!(!stdout.contains("\nname:9:9"), "{stdout}");
    // Repeated warnings are summarised under an escaped pattern.
    assert!(
        stdout.contains(
            "note: 1 more unknown_field warnings like Migration.\\u{1b}[31mred not shown"
        ),
        "{stdout}"
    );
    // A path that cannot be read.
    assert!(
        stdout.contains(&format!(
            "{}: error: cannot read: No such file or directory",
            show(&dir.path().join("gone\\u{1b}[2J.json"))
        )),
        "{stdout}"
    );
    // No name split a line: each line is a diagnostic's or a path's (it
    // starts with the folder), a pointer, an excerpt, or a closing line.
    for line in stdout.lines() {
        let excerpt = line
            .trim_start()
            .starts_with(|c: char| c.is_ascii_digit() || c == '|');
        assert!(
            line.is_empty()
                || line.starts_with(&root)
                || line.starts_with(" --> ")
                || excerpt
                || [
                    "note: ",
                    "checked ",
                    "errors: ",
                    "warnings: ",
                    "help: ",
                    "read: "
                ]
                .iter()
                .any(|start| line.starts_with(start)),
            "a line split: {line:?}\n{stdout}"
        );
    }

    // JSON output escapes as JSON does (C0 controls), and the values are
    // the raw ones.
    let output = cardkit()
        .args(["validate", "--format", "json", &root])
        .assert()
        .code(1);
    let json = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(!json.contains(|c: char| c < ' ' && c != '\n'), "{json}");
    let report: serde_json::Value =
        serde_json::from_slice(&output.get_output().stdout).expect("JSON output");
    let paths: Vec<&str> = report["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|file| file["path"].as_str().expect("path"))
        .collect();
    assert!(
        paths.contains(&show(&dir.path().join(evil_name)).as_str()),
        "{paths:?}"
    );

    // The note about a directory without JSON files.
    let empty = dir.path().join("empty\u{1b}[2J\n");
    std::fs::create_dir(&empty).expect("a directory");
    let output = cardkit().arg("validate").arg(&empty).assert().code(2);
    assert_terminal_safe(&output.get_output().stderr);
    assert!(
        String::from_utf8_lossy(&output.get_output().stderr).contains(&format!(
            "note: {} holds no",
            show(&dir.path().join("empty\\u{1b}[2J\\u{a}"))
        ))
    );
}

#[test]
fn the_source_excerpt_shows_layout_characters_as_spaces() {
    let dir = dir_with(&[(
        "m.json",
        "{\"object\": \"migration\", \"x\u{202e}\": \"\u{2066}\"}",
    )]);
    let path = show(&dir.path().join("m.json"));
    let output = cardkit().args(["validate", &path]).assert().code(1);
    assert_terminal_safe(&output.get_output().stdout);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(
        stdout.contains("1 | {\"object\": \"migration\", \"x \": \" \"}\n"),
        "{stdout}"
    );
    assert!(stdout.contains(" --> /x\\u{202e}\n"), "{stdout}");
}

#[test]
fn kind_takes_auto_or_any_kind_name() {
    let migration = examples("valid/migration.json");
    let template = examples("valid/template.json");
    for (kind, code) in [
        ("auto", 0),
        ("migration", 0),
        ("template", 1),
        ("card", 1),
        ("set", 1),
    ] {
        cardkit()
            .args(["validate", "--kind", kind, &migration])
            .assert()
            .code(code);
    }
    cardkit()
        .args(["validate", &migration, &template])
        .assert()
        .code(0);
    for bad in ["Auto", "SET", "none"] {
        cardkit()
            .args(["validate", "--kind", bad, &migration])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(format!(
                "invalid value '{bad}' for '--kind <KIND>'"
            )))
            .stderr(contains(
                "[possible values: auto, template, card, set, migration]",
            ));
    }
}

/// Standard input is JSON Lines when its first line is longer than any
/// buffer: every line is validated, not the first alone.
#[test]
fn json_lines_on_stdin_with_a_first_line_over_a_mebibyte() {
    let line = format!(
        "{{\"object\":\"migration\",\"note\":\"{}\"}}",
        "x".repeat(1_100_000)
    );
    let input = format!("{line}\n{line}\n{line}\n");
    let output = cardkit()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(input)
        .output()
        .expect("cardkit runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["summary"]["documents"], 3, "{report}");
    assert_eq!(output.status.code(), Some(1));
}

/// A member name of a mebibyte, repeated (`duplicate_key`) and unknown, in
/// every format: what is quoted of it is bounded (a pointer to 16 KiB,
/// then `…` and its length; a name in a message to 40 characters), so each
/// report stays some tens of kilobytes, and the JSON report says the
/// pointer was cut.
#[test]
fn a_huge_key_is_quoted_within_bounds_in_every_format() {
    let key = "k".repeat(1 << 20);
    let input = format!(r#"{{"object":"migration","{key}":1,"{key}":2}}"#);
    let dir = dir_with(&[("huge-key.json", input.as_str())]);
    let path = show(&dir.path().join("huge-key.json"));
    for format in ["text", "concise", "json", "github", "sarif", "junit"] {
        let out = cardkit()
            .args(["validate", "--format", format, &path])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1), "{format}");
        assert!(
            out.stdout.len() < 128 * 1024,
            "{format}: {} bytes",
            out.stdout.len()
        );
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(!text.contains(&"k".repeat(16 * 1024 + 1)), "{format}");
        if format != "concise" {
            assert!(
                text.contains("(1048577 bytes)") || text.contains("1048577"),
                "{format}"
            );
        }
    }
    let out = cardkit()
        .args(["validate", "--statistics", &path])
        .output()
        .expect("runs");
    assert!(out.stdout.len() < 32 * 1024, "{} bytes", out.stdout.len());
    let out = cardkit()
        .args(["validate", "--format", "json", &path])
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let diagnostics = &report["files"][0]["documents"][0]["diagnostics"];
    let duplicate = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "duplicate_key")
        .expect("a duplicate_key");
    let pointer = duplicate["pointer"].as_str().unwrap();
    assert_eq!(pointer, format!("/{}…", "k".repeat(16 * 1024 - 1)));
    assert_eq!(duplicate["pointer_bytes"], 1 + (1 << 20));
}
