//! Compressed inputs, told by their first bytes (never by their name) and
//! decoded as they are read: memory stays bounded whatever the decoded size
//! (a decompression bomb costs time, not memory). Files and standard input
//! are decoded on a thread of their own ([`super::beside`]).

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A compression format an input can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (`1f 8b`); concatenated members are read as one stream.
    Gzip,
    /// Zstandard (`28 b5 2f fd`); concatenated frames too.
    Zstd,
    /// xz (`fd 37 7a 58 5a 00`); concatenated streams too.
    Xz,
    /// bzip2 (`BZh`); concatenated streams too.
    Bzip2,
    /// A zip archive (`PK 03 04`, or `PK 05 06` when empty): each JSON
    /// member is an input of its own.
    Zip,
}

impl Compression {
    /// How many first bytes [`Compression::of`] needs to tell every format.
    pub const MAGIC_LEN: usize = 6;

    /// The format whose magic bytes `first` starts with, if any.
    #[must_use]
    pub fn of(first: &[u8]) -> Option<Compression> {
        const MAGIC: [(&[u8], Compression); 6] = [
            (&[0x1f, 0x8b], Compression::Gzip),
            (&[0x28, 0xb5, 0x2f, 0xfd], Compression::Zstd),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0x00], Compression::Xz),
            (b"BZh", Compression::Bzip2),
            (b"PK\x03\x04", Compression::Zip),
            (b"PK\x05\x06", Compression::Zip),
        ];
        MAGIC
            .iter()
            .find(|(magic, _)| first.starts_with(magic))
            .map(|&(_, format)| format)
    }

    /// Its name, as messages give it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
            Compression::Bzip2 => "bzip2",
            Compression::Zip => "zip",
        }
    }

    /// The name a file of this format decodes to: `cards.jsonl.gz` is
    /// `cards.jsonl` once decoded, which tells it is JSON Lines. A name
    /// without the format's ending is kept.
    #[must_use]
    pub fn decoded_name(self, name: &str) -> &str {
        let endings: &[&str] = match self {
            Compression::Gzip => &[".gz"],
            Compression::Zstd => &[".zst", ".zstd"],
            Compression::Xz => &[".xz"],
            Compression::Bzip2 => &[".bz2"],
            Compression::Zip => &[],
        };
        endings
            .iter()
            .find_map(|ending| strip_suffix_ignore_case(name, ending))
            .unwrap_or(name)
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn strip_suffix_ignore_case<'a>(name: &'a str, ending: &str) -> Option<&'a str> {
    let at = name.len().checked_sub(ending.len())?;
    let tail = name.get(at..)?;
    tail.eq_ignore_ascii_case(ending).then(|| &name[..at])
}

/// The most memory an xz stream may ask of its decoder: a dictionary of
/// 128 MiB and the decoder's own few KiB. The largest preset (`xz -9`)
/// needs 65 MiB; a stream that asks for more is refused rather than
/// allowed to take gigabytes. zstd's decoder has its own bound, a window of
/// 128 MiB.
const XZ_MEMORY_LIMIT: u64 = 129 << 20;

/// An input as stored: how many of its bytes have been read so far, while
/// its decoded bytes are read (a progress bar over a file's size advances
/// by these). A stream decoded on a thread of its own counts them as its
/// decoded bytes are handed on, not as the decoder reads ahead.
#[derive(Debug, Clone, Default)]
pub struct Stored(Arc<AtomicU64>);

impl Stored {
    /// The bytes read so far.
    #[must_use]
    pub fn read(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Sets the bytes read so far.
    pub(super) fn set(&self, read: u64) {
        self.0.store(read, Ordering::Relaxed);
    }

    /// `inner`, counted into this.
    pub(super) fn counting<R: Read>(&self, inner: R) -> CountingReader<R> {
        CountingReader {
            inner,
            stored: self.clone(),
        }
    }
}

/// A reader that counts its bytes into a [`Stored`].
pub(super) struct CountingReader<R> {
    inner: R,
    stored: Stored,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.stored.0.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// An input's bytes, decoded when its first bytes name a format.
pub(super) struct Decoded {
    /// The bytes, from the first.
    pub(super) reader: Box<dyn Read>,
    /// The format it was in, if any.
    pub(super) compression: Option<Compression>,
}

/// Reads the first bytes of `input` and decodes it if they name a format
/// (a zip archive is only told: it cannot be read as a stream).
///
/// # Errors
/// The first bytes cannot be read, or the decoder cannot start.
pub(super) fn decode(input: impl Read + 'static) -> io::Result<Decoded> {
    let (compression, input) = told(input)?;
    let reader = match compression {
        None | Some(Compression::Zip) => Box::new(input),
        Some(format) => decoder(format, input)?,
    };
    Ok(Decoded {
        reader,
        compression,
    })
}

/// An input whose first bytes were read, given back in front of the rest.
pub(super) type Whole<R> = io::Chain<io::Cursor<Vec<u8>>, R>;

/// The input's first bytes, read to tell its format: the format they name,
/// and the input whole again.
pub(super) fn told<R: Read>(mut input: R) -> io::Result<(Option<Compression>, Whole<R>)> {
    let mut first = Vec::with_capacity(Compression::MAGIC_LEN);
    (&mut input)
        .take(Compression::MAGIC_LEN as u64)
        .read_to_end(&mut first)?;
    let compression = Compression::of(&first);
    Ok((compression, io::Cursor::new(first).chain(input)))
}

/// The decoder of `format` over `input` (a zip archive is given back as it
/// is: it is read member by member).
///
/// # Errors
/// The decoder cannot start.
pub(super) fn decoder(
    format: Compression,
    input: impl Read + 'static,
) -> io::Result<Box<dyn Read>> {
    Ok(match format {
        Compression::Zip => Box::new(input),
        Compression::Gzip => Box::new(Labelled::new(format, GzMembers::new(BufReader::new(input)))),
        Compression::Zstd => {
            let decoder = zstd::stream::read::Decoder::new(input)
                .map_err(|error| Labelled::<()>::error(format, &error))?;
            Box::new(Labelled::new(format, decoder))
        }
        Compression::Xz => {
            // Concatenated streams and the padding between them, as `xz -d`
            // reads them.
            let stream = liblzma::stream::Stream::new_stream_decoder(
                XZ_MEMORY_LIMIT,
                liblzma::stream::CONCATENATED,
            )
            .map_err(|error| Labelled::<()>::error(format, &error.into()))?;
            let decoder = liblzma::bufread::XzDecoder::new_stream(BufReader::new(input), stream);
            Box::new(Labelled::new(format, decoder))
        }
        Compression::Bzip2 => Box::new(Labelled::new(
            format,
            bzip2::read::MultiBzDecoder::new(input),
        )),
    })
}

/// gzip's members one after another, as `gzip -d` reads them: zeros after
/// the last member (the padding of tapes and of some writers) end the
/// stream; anything else there must be another member.
struct GzMembers<R: BufRead> {
    /// The member being decoded; `None` once the stream has ended.
    member: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: BufRead> GzMembers<R> {
    fn new(input: R) -> Self {
        GzMembers {
            member: Some(flate2::bufread::GzDecoder::new(input)),
        }
    }
}

impl<R: BufRead> Read for GzMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = &mut self.member else {
                return Ok(0);
            };
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member has ended: what follows it tells what comes next.
            let Some(mut input) = self
                .member
                .take()
                .map(flate2::bufread::GzDecoder::into_inner)
            else {
                return Ok(0);
            };
            let rest = input.fill_buf()?;
            if rest.is_empty() {
                return Ok(0);
            }
            if rest[0] == 0 {
                skip_zeros(&mut input)?;
                return Ok(0);
            }
            self.member = Some(flate2::bufread::GzDecoder::new(input));
        }
    }
}

/// Reads `input` to its end, which must hold only zeros.
fn skip_zeros(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let rest = input.fill_buf()?;
        if rest.is_empty() {
            return Ok(());
        }
        if rest.iter().any(|&byte| byte != 0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "trailing garbage after the last member (only zeros may follow it)",
            ));
        }
        let n = rest.len();
        input.consume(n);
    }
}

/// A decoder whose errors name its format (`gzip: unexpected end of
/// file`), so that an unreadable input says what could not be decoded.
pub(super) struct Labelled<R> {
    format: Compression,
    inner: R,
}

impl<R> Labelled<R> {
    pub(super) fn new(format: Compression, inner: R) -> Self {
        Labelled { format, inner }
    }

    /// `error`, named as the format's. Its kind is `InvalidData` whatever
    /// the decoder said: a stream cut short is a corrupt input, not the end
    /// of a document.
    pub(super) fn error(format: Compression, error: &io::Error) -> io::Error {
        // liblzma's refusal says only "memory limit reached".
        let over_limit = error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<liblzma::stream::Error>())
            .is_some_and(|inner| matches!(inner, liblzma::stream::Error::MemLimit));
        let why = match error.kind() {
            io::ErrorKind::UnexpectedEof => "unexpected end of file".to_owned(),
            _ if over_limit => format!(
                "the stream asks for more memory than the limit of {} MiB (its dictionary is too large)",
                XZ_MEMORY_LIMIT >> 20
            ),
            _ => error.to_string(),
        };
        io::Error::new(io::ErrorKind::InvalidData, format!("{format}: {why}"))
    }
}

impl<R: Read> Read for Labelled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|error| Self::error(self.format, &error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_told_by_its_magic_bytes() {
        assert_eq!(
            Compression::of(&[0x1f, 0x8b, 8, 0]),
            Some(Compression::Gzip)
        );
        assert_eq!(
            Compression::of(&[0x28, 0xb5, 0x2f, 0xfd, 0x24]),
            Some(Compression::Zstd)
        );
        assert_eq!(Compression::of(b"\xfd7zXZ\x00\x00"), Some(Compression::Xz));
        assert_eq!(Compression::of(b"BZh91AY"), Some(Compression::Bzip2));
        assert_eq!(Compression::of(b"PK\x03\x04\x14"), Some(Compression::Zip));
        assert_eq!(Compression::of(b"PK\x05\x06\0\0"), Some(Compression::Zip));
    }

    #[test]
    fn json_and_short_or_partial_magic_are_not_compressed() {
        for first in [
            &b"{\"name\": 1}"[..],
            b"[]",
            b"",
            b"\x1f",
            b"\xfd7zXZ",
            b"BZ",
            b"PK\x03",
            b"\xef\xbb\xbf{",
            b"  \x1f\x8b",
        ] {
            assert_eq!(Compression::of(first), None, "{first:?}");
        }
    }

    #[test]
    fn the_decoded_name_drops_the_formats_ending_only() {
        assert_eq!(
            Compression::Gzip.decoded_name("a/cards.jsonl.gz"),
            "a/cards.jsonl"
        );
        assert_eq!(
            Compression::Gzip.decoded_name("CARDS.JSON.GZ"),
            "CARDS.JSON"
        );
        assert_eq!(Compression::Zstd.decoded_name("set.json.zst"), "set.json");
        assert_eq!(Compression::Xz.decoded_name("set.json.xz"), "set.json");
        assert_eq!(
            Compression::Bzip2.decoded_name("set.ndjson.bz2"),
            "set.ndjson"
        );
        assert_eq!(Compression::Gzip.decoded_name("set.json.xz"), "set.json.xz");
        assert_eq!(Compression::Gzip.decoded_name("set"), "set");
        assert_eq!(Compression::Gzip.decoded_name("é.gz"), "é");
    }

    #[test]
    fn a_plain_input_is_given_back_whole() {
        for text in [&b"{}"[..], b"", b"[1, 2, 3] and more than six bytes"] {
            let mut decoded = decode(io::Cursor::new(text.to_vec())).expect("decoded");
            let mut out = Vec::new();
            decoded.reader.read_to_end(&mut out).expect("read");
            assert_eq!(out, text);
            assert_eq!(decoded.compression, None);
        }
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        io::Write::write_all(&mut encoder, bytes).expect("written");
        encoder.finish().expect("finished")
    }

    fn decoded(bytes: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut decoded = decode(io::Cursor::new(bytes)).expect("started");
        let mut out = Vec::new();
        decoded.reader.read_to_end(&mut out).map(|_| out)
    }

    #[test]
    fn gzip_with_trailing_zero_padding_is_read_as_gzip_reads_it() {
        let mut bytes = gzip(b"{\"a\": ");
        bytes.extend(gzip(b"1}"));
        bytes.extend([0; 10_000]);
        assert_eq!(decoded(bytes.clone()).expect("padded"), b"{\"a\": 1}");
        bytes.push(b'x');
        let error = decoded(bytes).expect_err("garbage after the padding");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(
            error.to_string().starts_with("gzip: trailing garbage"),
            "{error}"
        );
        let mut garbage = gzip(b"{}");
        garbage.extend(b"garbage");
        let error = decoded(garbage).expect_err("garbage");
        assert!(error.to_string().starts_with("gzip: "), "{error}");
    }

    fn xz(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 0);
        io::Write::write_all(&mut encoder, bytes).expect("written");
        encoder.finish().expect("finished")
    }

    #[test]
    fn xz_streams_one_after_another_and_their_padding_are_read_as_xz_reads_them() {
        let mut bytes = xz(b"{\"a\": ");
        bytes.extend([0; 8]);
        bytes.extend(xz(b"1}"));
        assert_eq!(decoded(bytes.clone()).expect("two streams"), b"{\"a\": 1}");
        bytes.extend(b"garbage");
        let error = decoded(bytes).expect_err("garbage after the streams");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(error.to_string().starts_with("xz: "), "{error}");
        let mut cut = xz(&[b'x'; 10_000]);
        cut.truncate(cut.len() / 2);
        let error = decoded(cut).expect_err("cut short");
        assert_eq!(error.to_string(), "xz: unexpected end of file");
    }

    #[test]
    fn an_xz_stream_that_asks_for_a_huge_dictionary_is_refused_before_it_is_taken() {
        // A stream whose block asks for a dictionary of 4 GiB: the one
        // filter's properties byte (LZMA2, after the block header's size and
        // flags, the filter's id and the properties' size) set to 40, and
        // the header's CRC-32 made again.
        let mut bytes = xz(b"{}");
        let header = 12;
        let size = (usize::from(bytes[header]) + 1) * 4;
        assert_eq!(
            bytes[header + 1..header + 4],
            [0x00, 0x21, 0x01],
            "one filter, LZMA2"
        );
        bytes[header + 4] = 40;
        let crc = crc32fast::hash(&bytes[header..header + size - 4]);
        bytes[header + size - 4..header + size].copy_from_slice(&crc.to_le_bytes());
        let error = decoded(bytes).expect_err("refused");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            error.to_string(),
            "xz: the stream asks for more memory than the limit of 129 MiB (its dictionary is too large)"
        );
    }

    #[test]
    fn a_truncated_gzip_stream_is_an_error_that_names_gzip() {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        io::Write::write_all(&mut encoder, &[b'x'; 10_000]).expect("written");
        let mut bytes = encoder.finish().expect("finished");
        bytes.truncate(bytes.len() / 2);
        let mut decoded = decode(io::Cursor::new(bytes)).expect("started");
        assert_eq!(decoded.compression, Some(Compression::Gzip));
        let error = decoded
            .reader
            .read_to_end(&mut Vec::new())
            .expect_err("cut short");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert_eq!(error.to_string(), "gzip: unexpected end of file");
    }
}
