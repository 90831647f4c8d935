//! Opening an input, decoding it when its first bytes name a compression
//! format, and telling whether it is JSON Lines: by its name's ending
//! (`.jsonl` and `.ndjson` are, `.json` is one value; a compressed file's
//! name is read without the format's ending, so `cards.jsonl.gz` is), and
//! when the name does not tell (standard input, other endings), by its
//! first decoded bytes. A stream whose layout is known ([`open_stream`]: a
//! request's body) is only decoded, reading no more than its magic bytes
//! ahead.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;

use super::beside::decode_beside;
use super::decode::{decode, Compression, Stored};
use super::discover::Input;
use cardkit::validate::looks_like_json_lines;

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
    /// The file it is, when it can be opened again and read from its start
    /// as it is (a plain file, not a stream or an archive's member): a
    /// second look for what it declares past its first part.
    pub again: Option<PathBuf>,
    /// It was found (in a directory searched, or an archive), not named: it
    /// is checked only when its first document's kind can be told, and
    /// skipped otherwise (a `package.json` beside the sets).
    pub found: bool,
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
    let found = matches!(input, Input::Found(_));
    let (name, opened) = match input {
        Input::Stdin => {
            let name = "<stdin>".to_owned();
            let stdin = Raw::Beside(Box::new(io::stdin()));
            let opened = opened(&name, None, None, stdin, STDIN_SNIFF_LIMIT);
            (name, opened)
        }
        Input::File(path) | Input::Found(path) => {
            let name = path.display().to_string();
            let opened = File::open(&path).and_then(|file| {
                let metadata = file.metadata().ok();
                let size = metadata.as_ref().map(std::fs::Metadata::len);
                let regular = metadata.is_some_and(|m| m.is_file());
                let file = Raw::Beside(Box::new(file));
                let mut opened = opened(&name, Some(&name), size, file, FILE_SNIFF_LIMIT)?;
                if regular && opened.compressed.is_none() {
                    opened.again = Some(path.clone());
                }
                Ok(opened)
            });
            (name, opened.map(|opened| Opened { found, ..opened }))
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
                        Raw::Here(reader),
                        FILE_SNIFF_LIMIT,
                    )?;
                    opened.compressed = Some((Compression::Zip, stored));
                    opened.found = true;
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

/// An input that arrives as a stream whose layout is known (a request's
/// body, say): decoded when its first bytes name a compression format
/// (gzip, zstd, xz, bzip2), as [`open`] decodes files and standard input.
/// Only those first bytes ([`Compression::MAGIC_LEN`]) are read ahead (and
/// a decoder may start with one read, for its header), so that the rest is
/// validated as it arrives; whether it is JSON Lines is `json_lines`, not
/// told from its bytes.
///
/// # Errors
/// The first bytes cannot be read, the decoder cannot start, or the stream
/// is a zip archive (which cannot be read as a stream: its directory is at
/// its end).
pub fn open_stream(name: &str, input: impl Read + 'static, json_lines: bool) -> io::Result<Opened> {
    let (reader, compressed) = decoded(Raw::Here(Box::new(input)), Whence::Stream)?;
    Ok(Opened {
        name: name.to_owned(),
        reader,
        size: None,
        json_lines,
        compressed,
        again: None,
        found: false,
    })
}

/// An input that arrives as a stream with no path (bytes held in memory, a
/// file object of a host language), reported under `name`: decoded when its
/// first bytes name a compression format, and told JSON Lines as a file of
/// that name is (`cards.jsonl.gz`), or when the name does not tell
/// (`<bytes>`), by its first decoded bytes as standard input is.
///
/// # Errors
/// Its first bytes cannot be read, the decoder cannot start, or it is a zip
/// archive (which cannot be read as a stream).
pub fn open_reader(name: &str, input: impl Read + 'static) -> io::Result<Opened> {
    let input = Raw::Here(Box::new(input));
    opened(name, Some(name), None, input, STDIN_SNIFF_LIMIT)
}

/// An input opened from its bytes as stored: decoded if its first bytes
/// name a format, and told JSON Lines by `by_name` (the name it has, if
/// any) or else by its first decoded bytes, up to `sniff_limit`.
fn opened(
    name: &str,
    by_name: Option<&str>,
    size: Option<u64>,
    input: Raw,
    sniff_limit: u64,
) -> io::Result<Opened> {
    let whence = if by_name.is_some() {
        Whence::File
    } else {
        Whence::Stdin
    };
    let (reader, compressed) = decoded(input, whence)?;
    let by_name = match (by_name, &compressed) {
        (Some(name), Some((format, _))) => Some(format.decoded_name(name)),
        (by_name, _) => by_name,
    };
    let (reader, json_lines) = match by_name.and_then(json_lines_by_name) {
        Some(json_lines) => (reader, json_lines),
        None => sniff(reader, sniff_limit)?,
    };
    Ok(Opened {
        name: name.to_owned(),
        reader,
        size,
        json_lines,
        compressed,
        again: None,
        found: false,
    })
}

/// An input's bytes as stored, before they are decoded.
enum Raw {
    /// A file or standard input: when compressed, decoded on a thread of
    /// its own, beside the reading.
    Beside(Box<dyn Read + Send>),
    /// A stream whose bytes come over time (a request's body, to be read as
    /// it arrives), an object of a host language that only its thread may
    /// read, an archive's member: decoded as it is read.
    Here(Box<dyn Read>),
}

/// An input's bytes as stored, decoded if its first bytes name a format:
/// its decoded bytes, and the format with the count of its bytes as stored.
/// A zip archive is refused: it is read member by member only as a file.
fn decoded(input: Raw, whence: Whence) -> io::Result<Bytes> {
    let stored = Stored::default();
    let decoded = match input {
        Raw::Beside(input) => decode_beside(input, &stored)?,
        Raw::Here(input) => decode(stored.counting(input))?,
    };
    let compressed = match decoded.compression {
        Some(Compression::Zip) => return Err(zip_as_stream(whence)),
        Some(format) => Some((format, stored)),
        None => None,
    };
    Ok((decoded.reader, compressed))
}

/// An input's decoded bytes, and the format it was in with the count of its
/// bytes as stored (as [`Opened`] has them).
type Bytes = (Box<dyn Read>, Option<(Compression, Stored)>);

/// Where an input's bytes come from, for what a zip archive there is told.
#[derive(Clone, Copy)]
enum Whence {
    /// A file whose archive was not named as one.
    File,
    /// Standard input.
    Stdin,
    /// A stream given to [`open_stream`].
    Stream,
}

/// Why a zip archive cannot be read where it was found.
fn zip_as_stream(whence: Whence) -> io::Error {
    let why = match whence {
        Whence::Stdin => "zip: an archive cannot be read from standard input (its directory is at its end): save it to a file and give its path",
        Whence::File => "zip: an archive is read member by member only when given as a path or named *.zip",
        Whence::Stream => "zip: an archive cannot be read as a stream (its directory is at its end): send each member on its own",
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
    let end = start.and_then(|start| cardkit_json::skip_raw(bytes, start).ok());
    end.is_some_and(|end| bytes[end..].iter().any(|b| !b.is_ascii_whitespace()))
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::rc::Rc;

    use super::*;

    /// What one read gives at most, as a body arrives in pieces.
    const PIECE: usize = 1024;

    /// A reader that gives a piece at a time and tells how many bytes were
    /// read from it.
    struct Tally(io::Cursor<Vec<u8>>, Rc<Cell<usize>>);

    impl Read for Tally {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let piece = buf.len().min(PIECE);
            let n = self.0.read(&mut buf[..piece])?;
            self.1.set(self.1.get() + n);
            Ok(n)
        }
    }

    fn tally(bytes: Vec<u8>) -> (Tally, Rc<Cell<usize>>) {
        let read = Rc::new(Cell::new(0));
        (Tally(io::Cursor::new(bytes), Rc::clone(&read)), read)
    }

    #[test]
    fn a_stream_is_decoded_reading_only_its_magic_bytes_ahead() {
        let text: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("{{\"id\": {i}}}\n").into_bytes())
            .collect();
        let level = flate2::Compression::fast();
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), level);
        io::Write::write_all(&mut encoder, &text).expect("written");
        let gzipped = encoder.finish().expect("finished");
        let zstd = zstd::encode_all(&text[..], 1).expect("zstd");
        let level = bzip2::Compression::fast();
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), level);
        io::Write::write_all(&mut encoder, &text).expect("written");
        let bzip2 = encoder.finish().expect("finished");
        // The magic bytes; and a decoder may read its header when it starts,
        // in one read of what has arrived.
        let started = Compression::MAGIC_LEN + PIECE;
        for (bytes, compression, ahead) in [
            (text.clone(), None, Compression::MAGIC_LEN),
            (gzipped, Some(Compression::Gzip), started),
            (zstd, Some(Compression::Zstd), started),
            (bzip2, Some(Compression::Bzip2), started),
        ] {
            assert!(bytes.len() > 2 * PIECE);
            let (input, read) = tally(bytes);
            let mut opened = open_stream("<body>", input, true).expect("opened");
            assert!(read.get() <= ahead, "{} read ahead", read.get());
            assert!(opened.json_lines);
            assert_eq!(opened.compressed.as_ref().map(|c| c.0), compression);
            let mut decoded = Vec::new();
            opened.reader.read_to_end(&mut decoded).expect("read");
            assert_eq!(decoded, text);
        }
        let (zip, _) = tally(b"PK\x03\x04 and the rest of an archive".to_vec());
        let error = open_stream("<body>", zip, false)
            .err()
            .expect("a zip archive is refused");
        assert!(
            error
                .to_string()
                .starts_with("zip: an archive cannot be read as a stream"),
            "{error}"
        );
    }
}
