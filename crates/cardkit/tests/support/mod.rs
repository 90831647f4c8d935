//! Test support shared by the integration tests.
#![allow(dead_code)]

pub mod cases;
pub mod generate;

use std::path::{Path, PathBuf};

/// The `shared/` folder that sits beside the repository (the spec, the real
/// corpus), or `CARDKIT_SHARED` if set.
///
/// In CI (`CI=true`) a missing folder fails the test loudly; elsewhere the
/// test says on stderr why it is skipped, and returns `None`.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("CARDKIT_SHARED").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    );
    if dir.join("spec/SPEC.md").is_file() {
        return Some(dir);
    }
    let why = format!(
        "the shared folder (spec and corpus) is not at {}; set CARDKIT_SHARED to its path",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("SKIPPED: {why}");
    None
}

/// The folder of the conformance suite's cases (`<kind>/<case>.json`).
pub fn conformance_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Every `*.json` and `*.jsonl` file below `dir`, in path order.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                collect(&path, files);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("json" | "jsonl")
            ) {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    collect(dir, &mut files);
    files.sort();
    files
}
