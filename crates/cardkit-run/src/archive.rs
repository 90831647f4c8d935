//! zip archives: their members listed from the central directory (at the
//! archive's end, so a zip needs a file, not a stream), and each member read
//! as a stream of its own from where its data starts.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use super::decode::Compression;

/// A member of a zip archive on disk, read as an input of its own. Made by
/// [`discover`](super::discover), which has read where its data is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipMember {
    /// The archive's path.
    pub archive: PathBuf,
    /// The member's name in the archive (`sets/L15.json`).
    pub member: String,
    /// Where its data is and how it is stored.
    entry: Entry,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    /// The offset of its data in the archive.
    start: u64,
    /// Its size as stored.
    stored: u64,
    /// Its size decoded, and the CRC-32 of its decoded bytes.
    size: u64,
    crc32: u32,
    deflated: bool,
}

impl ZipMember {
    /// The name it is reported under: `archive.zip!sets/L15.json`.
    #[must_use]
    pub fn name(&self) -> String {
        member_name(&self.archive, &self.member)
    }

    /// Its size as stored in the archive (what a progress bar goes over).
    pub(super) fn stored_size(&self) -> u64 {
        self.entry.stored
    }

    /// Opens its data as a stream: its bytes as stored (counted by
    /// `stored`), decoded, and checked against the size and CRC-32 the
    /// archive gives for them at their end.
    pub(super) fn open(
        &self,
        count: impl FnOnce(io::Take<File>) -> Box<dyn Read>,
    ) -> io::Result<Box<dyn Read>> {
        let mut file = File::open(&self.archive)?;
        file.seek(SeekFrom::Start(self.entry.start))?;
        let stored = count(file.take(self.entry.stored));
        let decoded: Box<dyn Read> = if self.entry.deflated {
            Box::new(flate2::read::DeflateDecoder::new(stored))
        } else {
            stored
        };
        Ok(Box::new(Checked {
            inner: decoded,
            hasher: crc32fast::Hasher::new(),
            read: 0,
            entry: self.entry,
        }))
    }
}

/// The name a member is reported under.
pub(super) fn member_name(archive: &Path, member: &str) -> String {
    format!("{}!{member}", archive.display())
}

/// A member's decoded bytes, checked at their end against the archive's
/// size and CRC-32: a corrupt archive is an error, not a shorter document.
struct Checked {
    inner: Box<dyn Read>,
    hasher: crc32fast::Hasher,
    read: u64,
    entry: Entry,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf).map_err(|error| corrupt(&error))?;
        self.hasher.update(&buf[..n]);
        self.read += n as u64;
        let ended = n == 0 && !buf.is_empty();
        if ended || self.read > self.entry.size {
            let why = if self.read != self.entry.size {
                format!(
                    "{} bytes decoded where the archive says {}",
                    self.read, self.entry.size
                )
            } else if self.hasher.clone().finalize() != self.entry.crc32 {
                "its CRC-32 is not the archive's".to_owned()
            } else {
                return Ok(n);
            };
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("zip: the member is corrupt: {why}"),
            ));
        }
        Ok(n)
    }
}

fn corrupt(error: &io::Error) -> io::Error {
    let why = match error.kind() {
        io::ErrorKind::UnexpectedEof => "unexpected end of file".to_owned(),
        _ => error.to_string(),
    };
    io::Error::new(io::ErrorKind::InvalidData, format!("zip: {why}"))
}

/// Whether the file at `path` is a zip archive, by its first bytes (a file
/// that cannot be read is not: opening it says why).
pub(super) fn is_zip(path: &Path) -> bool {
    let mut first = Vec::with_capacity(4);
    File::open(path)
        .and_then(|file| file.take(4).read_to_end(&mut first))
        .is_ok()
        && Compression::of(&first) == Some(Compression::Zip)
}

/// One member listed, by its name in the archive: to read, or why it
/// cannot be.
pub(super) type Listed = (String, Result<ZipMember, String>);

/// The members of the archive at `path` that `wanted` takes by name, in
/// name order.
///
/// # Errors
/// The archive's directory cannot be read: why, in words.
pub(super) fn members(path: &Path, wanted: impl Fn(&str) -> bool) -> Result<Vec<Listed>, String> {
    let file = File::open(path).map_err(|error| error.to_string())?;
    let mut archive =
        zip::ZipArchive::new(io::BufReader::new(file)).map_err(|error| format!("zip: {error}"))?;
    let mut listed = Vec::new();
    for index in 0..archive.len() {
        let name = match archive.name_for_index(index) {
            Some(Ok(name)) => name.into_owned(),
            // A name that is not text cannot be told a JSON file's.
            _ => continue,
        };
        if name.ends_with('/') || !wanted(&name) {
            continue;
        }
        let member = match archive.by_index_raw(index) {
            Ok(member) => read_entry(path, &name, &member),
            Err(error) => Err(format!("zip: {error}")),
        };
        listed.push((name, member));
    }
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(listed)
}

/// Where a member's data is, and whether it can be read.
fn read_entry<R: Read>(
    archive: &Path,
    name: &str,
    member: &zip::read::ZipFile<'_, R>,
) -> Result<ZipMember, String> {
    let method = member.compression();
    if member.encrypted() {
        return Err("zip: the member is encrypted".to_owned());
    }
    // The zip crate decodes nothing here (its features are off): the
    // methods are told by their numbers' constants.
    let deflated = method == zip::CompressionMethod::DEFLATE;
    if !deflated && method != zip::CompressionMethod::Stored {
        return Err(format!(
            "zip: the member is compressed with {method}, which cannot be read (stored and deflate can)"
        ));
    }
    let start = member
        .data_start()
        .ok_or_else(|| "zip: where its data starts cannot be read".to_owned())?;
    Ok(ZipMember {
        archive: archive.to_path_buf(),
        member: name.to_owned(),
        entry: Entry {
            start,
            stored: member.compressed_size(),
            size: member.size(),
            crc32: member.crc32(),
            deflated,
        },
    })
}
