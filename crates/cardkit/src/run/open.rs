//! Opening an input, decoding it when its first bytes name a compression
//! format, and telling whether it is JSON Lines: by its name's ending
//! (`.jsonl` and `.ndjson` are, `.json` is one value; a compressed file's
//! name is read without the format's ending, so `cards.jsonl.gz` is), and
//! when the name does not tell (standard input, other endings), by its
//! first decoded bytes.

use std::fs::File;
use std::io::{self, Read};

use super::decode::{decode, Compression, Stored};
use super::discover::Input;
use crate::validate::looks_like_json_lines;

/// An input opened.
pub struct Opened {
    /// The name it is reported under: its path, or `<stdin>`.
    pub name: String,
    /// Its bytes, decoded, from the first (those read to tell JSON Lines are
    /// given back in front of the rest).
    pub reader: Box<dyn Read>,
    /// Its size in bytes as stored (compressed, if it is), when known before
    /// it is read.
    pub size: Option<u64>,
    /// It is JSON Lines: one document (or container) per line.
    pub json_lines: bool,
    /// It was compressed (or is a zip archive's member): the format, and how
    /// many of its bytes as stored have been read, which is what `size`
    /// counts. `None` for a plain input, whose bytes read are its size's.
    pub compressed: Option<(Compression, Stored)>,
}

/// An input that could not be opened: its name and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unopened {
    /// The name it is reported under.
    pub name: String,
    /// Why, in words.
    pub reason: String,
}

/// Opens an input, decodes it if it is compressed, and tells whether it is
/// JSON Lines.
///
/// # Errors
/// The input cannot be opened, its first bytes cannot be read, or it is a
/// zip archive that cannot be read as a stream (on standard input, say).
pub fn open(input: Input) -> Result<Opened, Unopened> {
    let (name, opened) = match input {
        Input::Stdin => {
            let name = "<stdin>".to_owned();
            let opened = opened(&name, None, None, io::stdin().lock(), STDIN_SNIFF_LIMIT);
            (name, opened)
        }
        Input::File(path) => {
            let name = path.display().to_string();
            let opened = File::open(&path).and_then(|file| {
                let size = file.metadata().ok().map(|m| m.len());
                opened(&name, Some(&name), size, file, FILE_SNIFF_LIMIT)
            });
            (name, opened)
        }
        Input::ZipMember(member) => {
            let name = member.name();
            let stored = Stored::default();
            let opened = member
                .open(|data| Box::new(stored.counting(data)))
                .and_then(|reader| {
                    let mut opened = opened(
                        &name,
                        Some(&member.member),
                        Some(member.stored_size()),
                        reader,
                        FILE_SNIFF_LIMIT,
                    )?;
                    opened.compressed = Some((Compression::Zip, stored));
                    Ok(opened)
                });
            (name, opened)
        }
        Input::Unreadable { name, reason } => return Err(Unopened { name, reason }),
    };
    opened.map_err(|error| Unopened {
        name,
        reason: error.to_string(),
    })
}

/// An input opened from its bytes as stored: decoded if its first bytes
/// name a format, and told JSON Lines by `by_name` (the name it has, if
/// any) or else by its first decoded bytes, up to `sniff_limit`.
fn opened(
    name: &str,
    by_name: Option<&str>,
    size: Option<u64>,
    input: impl Read + 'static,
    sniff_limit: u64,
) -> io::Result<Opened> {
    let stored = Stored::default();
    let decoded = decode(stored.counting(input))?;
    let compressed = match decoded.compression {
        Some(Compression::Zip) => return Err(zip_as_stream(by_name.is_none())),
        Some(format) => Some((format, stored)),
        None => None,
    };
    let by_name = match (by_name, &compressed) {
        (Some(name), Some((format, _))) => Some(format.decoded_name(name)),
        (by_name, _) => by_name,
    };
    let (reader, json_lines) = match by_name.and_then(json_lines_by_name) {
        Some(json_lines) => (decoded.reader, json_lines),
        None => sniff(decoded.reader, sniff_limit)?,
    };
    Ok(Opened {
        name: name.to_owned(),
        reader,
        size,
        json_lines,
        compressed,
    })
}

/// Why a zip archive cannot be read where it was found.
fn zip_as_stream(stdin: bool) -> io::Error {
    let why = if stdin {
        "zip: an archive cannot be read from standard input (its directory is at its end): save it to a file and give its path"
    } else {
        "zip: an archive is read member by member only when given as a path or named *.zip"
    };
    io::Error::new(io::ErrorKind::InvalidData, why)
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
fn sniff(input: impl Read + 'static, limit: u64) -> io::Result<(Box<dyn Read>, bool)> {
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
