//! zip archives: their members listed from the central directory (at the
//! archive's end, so a zip needs a file, not a stream), and each member read
//! as a stream of its own from where its data starts.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
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
    /// The offset of its local header in the archive.
    header: u64,
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
/// that cannot be read is not: opening it says why). Only a regular file
/// can be: a FIFO or a device is not opened here (opening a FIFO waits for
/// a writer, and reading it would take its first bytes from the input).
pub(super) fn is_zip(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file()) {
        return false;
    }
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
/// name order. A name that the archive gives more than one member is
/// listed once, as an error: which member is meant cannot be told (tools
/// that extract the archive keep one of them, not always the same). So are
/// members whose bytes overlap another's, as a zip bomb's do (one deflate
/// stream named thousands of times decodes to thousands of times its size).
///
/// # Errors
/// The archive's directory cannot be read: why, in words.
pub(super) fn members(path: &Path, wanted: impl Fn(&str) -> bool) -> Result<Vec<Listed>, String> {
    let file = File::open(path).map_err(|error| error.to_string())?;
    let mut archive =
        zip::ZipArchive::new(BufReader::new(file)).map_err(|error| format!("zip: {error}"))?;
    let repeated = if archive.has_duplicate_names() {
        repeated_names(path, archive.central_directory_start())
            .map_err(|error| format!("zip: the central directory cannot be read: {error}"))?
    } else {
        HashMap::new()
    };
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
            Ok(member) => match repeated.get(member.name_raw()) {
                Some(count) => Err(format!(
                    "zip: {count} members have this name: which one is meant cannot be told, so none is read"
                )),
                None => read_entry(path, &name, &member),
            },
            Err(error) => Err(format!("zip: {error}")),
        };
        listed.push((name, member));
    }
    refuse_overlapping(&mut listed);
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(listed)
}

/// How many entries of the central directory (from `start`) bear each name
/// that more than one does, by its bytes as stored.
fn repeated_names(path: &Path, start: u64) -> io::Result<HashMap<Vec<u8>, usize>> {
    /// A central directory header's signature and its fixed part's size.
    const SIGNATURE: &[u8; 4] = b"PK\x01\x02";
    const FIXED: usize = 46;
    let mut reader = BufReader::new(File::open(path)?);
    reader.seek(SeekFrom::Start(start))?;
    let mut counts: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut header = [0u8; FIXED];
    while reader.read_exact(&mut header).is_ok() && header.starts_with(SIGNATURE) {
        let length = |at: usize| usize::from(u16::from_le_bytes([header[at], header[at + 1]]));
        let mut name = vec![0; length(28)];
        reader.read_exact(&mut name)?;
        let skipped = length(30) + length(32);
        reader.seek_relative(i64::try_from(skipped).unwrap_or(i64::MAX))?;
        *counts.entry(name).or_default() += 1;
    }
    counts.retain(|_, count| *count > 1);
    Ok(counts)
}

/// Makes an error of each member whose bytes (local header and data)
/// overlap another member's, naming one it overlaps.
fn refuse_overlapping(listed: &mut [Listed]) {
    let span = |member: &ZipMember| {
        member.entry.header..member.entry.start.saturating_add(member.entry.stored)
    };
    let mut order: Vec<usize> = (0..listed.len())
        .filter(|&at| listed[at].1.is_ok())
        .collect();
    order.sort_by_key(|&at| {
        listed[at]
            .1
            .as_ref()
            .map_or(0, |member| member.entry.header)
    });
    // The member that reaches furthest so far, and where it ends.
    let mut furthest: Option<(usize, u64)> = None;
    let mut overlaps: Vec<(usize, usize)> = Vec::new();
    for &at in &order {
        let Ok(member) = &listed[at].1 else { continue };
        let bytes = span(member);
        if let Some((other, end)) = furthest {
            if bytes.start < end {
                overlaps.push((at, other));
                overlaps.push((other, at));
            }
        }
        if furthest.is_none_or(|(_, end)| bytes.end > end) {
            furthest = Some((at, bytes.end));
        }
    }
    for (at, other) in overlaps {
        if listed[at].1.is_err() {
            continue;
        }
        let why = format!(
            "zip: its bytes overlap those of the member {}: members that share their data are refused, as a zip bomb's do",
            listed[other].0
        );
        listed[at].1 = Err(why);
    }
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
            header: member.header_start(),
            start,
            stored: member.compressed_size(),
            size: member.size(),
            crc32: member.crc32(),
            deflated,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zip archive of stored members (name, bytes); with `shared`, every
    /// entry of the central directory names the first member's bytes.
    fn stored_zip(members: &[(&str, &[u8])], shared: bool) -> Vec<u8> {
        let u16 = |n: usize| u16::try_from(n).expect("small").to_le_bytes();
        let u32 = |n: usize| u32::try_from(n).expect("small").to_le_bytes();
        let mut archive = Vec::new();
        let mut central = Vec::new();
        for (index, (name, data)) in members.iter().enumerate() {
            let crc = crc32fast::hash(data).to_le_bytes();
            let sizes = [u32(data.len()), u32(data.len())].concat();
            let offset = if shared && index > 0 {
                0
            } else {
                let offset = archive.len();
                archive.extend_from_slice(b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0");
                archive.extend_from_slice(&crc);
                archive.extend_from_slice(&sizes);
                archive.extend_from_slice(&u16(name.len()));
                archive.extend_from_slice(&[0, 0]);
                archive.extend_from_slice(name.as_bytes());
                archive.extend_from_slice(data);
                offset
            };
            central.extend_from_slice(b"PK\x01\x02\x14\0\x14\0\0\0\0\0\0\0\0\0");
            central.extend_from_slice(&crc);
            central.extend_from_slice(&sizes);
            central.extend_from_slice(&u16(name.len()));
            central.extend_from_slice(&[0; 12]);
            central.extend_from_slice(&u32(offset));
            central.extend_from_slice(name.as_bytes());
        }
        let start = archive.len();
        archive.extend_from_slice(&central);
        archive.extend_from_slice(b"PK\x05\x06\0\0\0\0");
        archive.extend_from_slice(&u16(members.len()));
        archive.extend_from_slice(&u16(members.len()));
        archive.extend_from_slice(&u32(central.len()));
        archive.extend_from_slice(&u32(start));
        archive.extend_from_slice(&[0, 0]);
        archive
    }

    fn listed(bytes: &[u8]) -> Vec<(String, Result<(), String>)> {
        let dir = std::env::temp_dir().join(format!("cardkit-archive-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join(format!("{}.zip", crc32fast::hash(bytes)));
        std::fs::write(&path, bytes).expect("written");
        let listed = members(&path, |_| true).expect("listed");
        std::fs::remove_file(&path).expect("removed");
        listed
            .into_iter()
            .map(|(name, member)| (name, member.map(|_| ())))
            .collect()
    }

    #[test]
    fn zip_members_that_share_their_bytes_are_refused() {
        let bytes = stored_zip(
            &[("a.json", b"{}"), ("b.json", b"{}"), ("c.json", b"{}")],
            true,
        );
        let listed = listed(&bytes);
        assert_eq!(listed.len(), 3);
        for (name, member) in &listed {
            let why = member.as_ref().expect_err(name);
            assert!(why.contains("overlap those of the member"), "{name}: {why}");
        }
        let apart = stored_zip(&[("a.json", b"{}"), ("b.json", b"{}")], false);
        assert!(listed_ok(&apart));
    }

    fn listed_ok(bytes: &[u8]) -> bool {
        listed(bytes).iter().all(|(_, member)| member.is_ok())
    }

    #[test]
    fn zip_members_that_share_a_name_are_reported_not_skipped() {
        let bytes = stored_zip(
            &[("a.json", b"[1"), ("b.json", b"{}"), ("a.json", b"{}")],
            false,
        );
        let listed = listed(&bytes);
        let names: Vec<&str> = listed.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["a.json", "b.json"]);
        let why = listed[0].1.as_ref().expect_err("a repeated name");
        assert!(why.starts_with("zip: 2 members have this name"), "{why}");
        assert!(listed[1].1.is_ok());
    }
}
