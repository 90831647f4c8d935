//! Turning the PATH arguments into the inputs to read.

use std::path::{Path, PathBuf};

/// One input to validate.
pub enum Input {
    Stdin,
    File(PathBuf),
    /// A path that could not be listed, with the reason.
    Unreadable(String, String),
}

/// File endings searched for in directories.
const ENDINGS: [&str; 3] = ["json", "jsonl", "ndjson"];

/// Expands directories (recursively, in name order) into their JSON files;
/// files and `-` are taken as given.
pub fn expand(paths: &[String]) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in paths {
        if path == "-" {
            inputs.push(Input::Stdin);
            continue;
        }
        let path = Path::new(path);
        if !path.is_dir() {
            inputs.push(Input::File(path.to_path_buf()));
            continue;
        }
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            match entry {
                Ok(entry) if entry.file_type().is_file() && has_json_ending(entry.path()) => {
                    inputs.push(Input::File(entry.into_path()));
                }
                Ok(_) => {}
                Err(error) => {
                    let at = error.path().unwrap_or(path).display().to_string();
                    inputs.push(Input::Unreadable(at, error.to_string()));
                }
            }
        }
    }
    inputs
}

fn has_json_ending(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ENDINGS.contains(&e))
}

/// Whether a file is JSON Lines by its name.
pub fn is_json_lines(name: &str) -> bool {
    name.ends_with(".jsonl") || name.ends_with(".ndjson")
}
