//! The `cardkit` binary against hostile inputs and surroundings: absurd
//! flag values, a reader that goes away, symbolic links, standard input
//! named twice, runs that find nothing to check, files that fail half-way
//! and names that hold terminal escapes. None of them may panic, pass a run
//! that should fail, or write raw control characters to a terminal.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use tempfile::TempDir;

/// A valid migration on one line.
const MIGRATION: &str = r#"{"object": "migration", "uri": "https://e.org/m", "created_at": "2023-01-15", "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}"#;

fn cardkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cardkit"))
}

/// A temporary directory with the given files (paths relative to it).
fn dir_with(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, content) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folders");
        std::fs::write(path, content).expect("write fixture");
    }
    dir
}

fn show(path: &Path) -> String {
    path.display().to_string()
}

fn examples(folder: &str) -> String {
    show(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples")
            .join(folder),
    )
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
            .stdout("checked 1 document in 1 file: 1 valid, 0 invalid\n");
    }
    let output = cardkit().args(["validate", "--help"]).assert().code(0);
    let help = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(help.contains("from 1 to 256"), "{help}");
}
