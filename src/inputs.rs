//! Turning the PATH arguments into the inputs to read.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use cardkit::validate::looks_like_json_lines;

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

/// An input opened: its name, its reader, its size when known, and whether
/// it is JSON Lines.
pub type Opened = (String, Box<dyn Read>, Option<u64>, bool);

/// Opens an input; its name and why when it cannot be.
pub fn open(input: Input) -> Result<Opened, (String, String)> {
    match input {
        Input::Stdin => sniff(io::stdin().lock())
            .map(|(reader, json_lines)| ("<stdin>".to_owned(), reader, None, json_lines))
            .map_err(|error| ("<stdin>".to_owned(), error.to_string())),
        Input::File(path) => {
            let name = path.display().to_string();
            match std::fs::File::open(&path) {
                Ok(file) => {
                    let size = file.metadata().ok().map(|m| m.len());
                    let json_lines = is_json_lines(&name);
                    Ok((name, Box::new(file) as Box<dyn Read>, size, json_lines))
                }
                Err(error) => Err((name, error.to_string())),
            }
        }
        Input::Unreadable(path, error) => Err((path, error)),
    }
}

/// Standard input, and whether it looks like JSON Lines: its first part is
/// read to tell, then given back in front of the rest.
/// The first value is read whole (up to [`SNIFF_LIMIT`]), so that a first
/// line longer than any buffer still tells JSON Lines.
fn sniff<'a>(stdin: impl Read + 'a) -> io::Result<(Box<dyn Read + 'a>, bool)> {
    let mut first = Vec::new();
    let mut stdin = stdin;
    loop {
        let read = (&mut stdin).take(SNIFF_CHUNK).read_to_end(&mut first)?;
        let at_end = read < SNIFF_CHUNK as usize;
        if at_end || first.len() as u64 >= SNIFF_LIMIT || first_value_told(&first) {
            break;
        }
    }
    let json_lines = looks_like_json_lines(&first);
    Ok((Box::new(io::Cursor::new(first).chain(stdin)), json_lines))
}

/// Whether `bytes` hold the first value whole and something after it.
fn first_value_told(bytes: &[u8]) -> bool {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let end = start.and_then(|start| cardkit::json::skip_raw(bytes, start).ok());
    end.is_some_and(|end| bytes[end..].iter().any(|b| !b.is_ascii_whitespace()))
}

/// How much of standard input is read at a time to tell whether it is JSON
/// Lines, and at most: a single value longer than that is read as one value.
const SNIFF_CHUNK: u64 = 1 << 20;
const SNIFF_LIMIT: u64 = 64 << 20;
