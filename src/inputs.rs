//! Turning the PATH arguments into the inputs to read.

use std::path::{Path, PathBuf};

/// One input to validate.
pub enum Input {
    Stdin,
    File(PathBuf),
    /// A path that could not be listed, with the reason.
    Unreadable(String, String),
}

/// File endings searched for in directories, in any case.
const ENDINGS: [&str; 3] = ["json", "jsonl", "ndjson"];

/// The inputs the PATH arguments name.
pub struct Expanded {
    /// Every input, in order.
    pub inputs: Vec<Input>,
    /// The directories given that hold no JSON file (and nothing unreadable).
    pub empty: Vec<PathBuf>,
}

/// Expands directories (recursively, in name order, following symbolic
/// links) into their JSON files; files and `-` are taken as given. A link
/// that leads back to a directory it is in, or that cannot be followed, is
/// an unreadable path.
pub fn expand(paths: &[String]) -> Expanded {
    let mut inputs = Vec::new();
    let mut empty = Vec::new();
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
        let before = inputs.len();
        let walk = walkdir::WalkDir::new(path)
            .follow_links(true)
            .sort_by_file_name();
        for entry in walk {
            match entry {
                Ok(entry) if entry.file_type().is_file() && has_json_ending(entry.path()) => {
                    inputs.push(Input::File(entry.into_path()));
                }
                Ok(_) => {}
                Err(error) => {
                    let at = error.path().unwrap_or(path);
                    inputs.push(Input::Unreadable(at.display().to_string(), reason(&error)));
                }
            }
        }
        if inputs.len() == before {
            empty.push(path.to_path_buf());
        }
    }
    Expanded { inputs, empty }
}

/// Why a directory's entry could not be listed, in words.
fn reason(error: &walkdir::Error) -> String {
    if let Some(ancestor) = error.loop_ancestor() {
        return format!(
            "symbolic link loop: it leads back to {}, a directory it is in",
            ancestor.display()
        );
    }
    let Some(io) = error.io_error() else {
        return error.to_string();
    };
    let link = error
        .path()
        .filter(|at| at.is_symlink())
        .and_then(|at| std::fs::read_link(at).ok());
    match link {
        Some(target) => format!(
            "symbolic link to {} that cannot be followed: {io}",
            target.display()
        ),
        None => io.to_string(),
    }
}

fn has_json_ending(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ENDINGS.iter().any(|ending| e.eq_ignore_ascii_case(ending)))
}

/// Whether a file is JSON Lines by its name (`.jsonl` or `.ndjson`, in any
/// case).
pub fn is_json_lines(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with(".jsonl") || name.ends_with(".ndjson")
}
