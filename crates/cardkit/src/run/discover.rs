//! Which inputs the paths given name: files and `-` as given, directories
//! searched recursively for JSON files.

use std::path::{Path, PathBuf};

/// One input to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file, or a path given that is not a directory (it may not exist:
    /// opening it says why).
    File(PathBuf),
    /// A path inside a directory that could not be listed or followed.
    Unreadable {
        /// The path, as it will be named.
        name: String,
        /// Why, in words.
        reason: String,
    },
}

/// File endings searched for in directories, in any case.
pub const ENDINGS: [&str; 3] = ["json", "jsonl", "ndjson"];

/// The inputs the paths given name.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// Every input, in order.
    pub inputs: Vec<Input>,
    /// The directories given that hold no JSON file (and nothing unreadable).
    pub empty: Vec<PathBuf>,
}

/// Expands directories (recursively, in name order, following symbolic
/// links) into their files ending in one of [`ENDINGS`]; files and `-` are
/// taken as given. A link that leads back to a directory it is in, or that
/// cannot be followed, is an [`Input::Unreadable`].
pub fn discover(paths: &[impl AsRef<Path>]) -> Discovered {
    let mut found = Discovered::default();
    for path in paths {
        let path = path.as_ref();
        if path.as_os_str() == "-" {
            found.inputs.push(Input::Stdin);
            continue;
        }
        if !path.is_dir() {
            found.inputs.push(Input::File(path.to_path_buf()));
            continue;
        }
        let before = found.inputs.len();
        let walk = walkdir::WalkDir::new(path)
            .follow_links(true)
            .sort_by_file_name();
        for entry in walk {
            match entry {
                Ok(entry) if entry.file_type().is_file() && has_json_ending(entry.path()) => {
                    found.inputs.push(Input::File(entry.into_path()));
                }
                Ok(_) => {}
                Err(error) => {
                    let at = error.path().unwrap_or(path);
                    found.inputs.push(Input::Unreadable {
                        name: at.display().to_string(),
                        reason: reason(&error),
                    });
                }
            }
        }
        if found.inputs.len() == before {
            found.empty.push(path.to_path_buf());
        }
    }
    found
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
