//! Opening an input, and telling whether it is JSON Lines: by its name's
//! ending (`.jsonl` and `.ndjson` are, `.json` is one value), and when the
//! name does not tell (standard input, other endings), by its first bytes.

use std::fs::File;
use std::io::{self, Read};

use super::discover::Input;
use crate::validate::looks_like_json_lines;

/// An input opened.
pub struct Opened {
    /// The name it is reported under: its path, or `<stdin>`.
    pub name: String,
    /// Its bytes, from the first (those read to tell JSON Lines are given
    /// back in front of the rest).
    pub reader: Box<dyn Read>,
    /// Its size in bytes, when known before it is read.
    pub size: Option<u64>,
    /// It is JSON Lines: one document (or container) per line.
    pub json_lines: bool,
}

/// An input that could not be opened: its name and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unopened {
    /// The name it is reported under.
    pub name: String,
    /// Why, in words.
    pub reason: String,
}

/// Opens an input and tells whether it is JSON Lines.
///
/// # Errors
/// The input cannot be opened, or its first bytes cannot be read.
pub fn open(input: Input) -> Result<Opened, Unopened> {
    match input {
        Input::Stdin => {
            let name = "<stdin>".to_owned();
            match sniff(io::stdin().lock(), STDIN_SNIFF_LIMIT) {
                Ok((reader, json_lines)) => Ok(Opened {
                    name,
                    reader,
                    size: None,
                    json_lines,
                }),
                Err(error) => Err(Unopened {
                    name,
                    reason: error.to_string(),
                }),
            }
        }
        Input::File(path) => {
            let name = path.display().to_string();
            let opened = File::open(&path).and_then(|file| {
                let size = file.metadata().ok().map(|m| m.len());
                let (reader, json_lines): (Box<dyn Read>, bool) = match json_lines_by_name(&name) {
                    Some(json_lines) => (Box::new(file), json_lines),
                    None => sniff(file, FILE_SNIFF_LIMIT)?,
                };
                Ok((reader, size, json_lines))
            });
            match opened {
                Ok((reader, size, json_lines)) => Ok(Opened {
                    name,
                    reader,
                    size,
                    json_lines,
                }),
                Err(error) => Err(Unopened {
                    name,
                    reason: error.to_string(),
                }),
            }
        }
        Input::Unreadable { name, reason } => Err(Unopened { name, reason }),
    }
}

/// Whether a file is JSON Lines by its name's ending, in any case: `.jsonl`
/// and `.ndjson` are, `.json` is not (a second value in it is an error, not
/// a line); `None` when the name does not tell.
#[must_use]
pub fn json_lines_by_name(name: &str) -> Option<bool> {
    let name = name.to_ascii_lowercase();
    if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
        Some(true)
    } else if name.ends_with(".json") {
        Some(false)
    } else {
        None
    }
}

/// How much of a file is read at most to tell whether it is JSON Lines: its
/// first value must end within it. Kept small, since a file may be one
/// catalog of hundreds of MB whose bytes would all be held while telling.
const FILE_SNIFF_LIMIT: u64 = 1 << 20;

/// How much of standard input is read at most to tell: it has no name to go
/// by, so a first line as long as a large set (several MB) must still tell.
const STDIN_SNIFF_LIMIT: u64 = 64 << 20;

/// How much is read at a time while telling.
const SNIFF_CHUNK: u64 = 1 << 20;

/// The input, and whether it looks like JSON Lines: its first part is read
/// to tell (until the first value is whole and something follows it, or up
/// to `limit`), then given back in front of the rest.
fn sniff<'a>(input: impl Read + 'a, limit: u64) -> io::Result<(Box<dyn Read + 'a>, bool)> {
    let mut first = Vec::new();
    let mut input = input;
    loop {
        let chunk = SNIFF_CHUNK.min(limit);
        let read = (&mut input).take(chunk).read_to_end(&mut first)?;
        let at_end = (read as u64) < chunk;
        if at_end || first.len() as u64 >= limit || first_value_told(&first) {
            break;
        }
    }
    let json_lines = looks_like_json_lines(&first);
    Ok((Box::new(io::Cursor::new(first).chain(input)), json_lines))
}

/// Whether `bytes` hold the first value whole and something after it.
fn first_value_told(bytes: &[u8]) -> bool {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let end = start.and_then(|start| crate::json::skip_raw(bytes, start).ok());
    end.is_some_and(|end| bytes[end..].iter().any(|b| !b.is_ascii_whitespace()))
}
