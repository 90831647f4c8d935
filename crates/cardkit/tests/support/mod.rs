//! Test support shared by the integration tests.
#![allow(dead_code)]

pub mod cases;
pub mod generate;
pub mod properties;
mod shared;

#[allow(unused_imports)] // Not every test crate needs `../shared`.
pub use shared::{shared_dir, tool};

use std::path::{Path, PathBuf};

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
