//! Bytes read as a file or a stream of unknown layout is read: a gzip, zstd,
//! xz or bzip2 stream of any bytes, made by each format's encoder, then cut
//! short, with bytes changed, or followed by others; or the bytes as they
//! are. Read through `cardkit_run::open_reader` (the format told by its
//! magic bytes, decoded on a thread of its own): never a panic or a hang;
//! an intact stream decodes to exactly its bytes; an error while reading
//! names the format that could not be decoded. Reading stops at 16 MiB, so
//! that a small bomb costs time, not the fuzzer's memory.
#![no_main]

use std::io::{Cursor, Read, Write};

use arbitrary::Arbitrary;
use cardkit_run::{open_reader, Compression};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Clone, Copy, Arbitrary)]
enum Format {
    Raw,
    Gzip,
    Zstd,
    Xz,
    Bzip2,
}

#[derive(Debug, Arbitrary)]
struct Input<'a> {
    format: Format,
    text: Vec<u8>,
    /// Where the stream is cut, as a share of its length.
    cut: Option<u16>,
    /// Bytes changed: a place (as a share of the length) and a mask.
    changes: Vec<(u16, u8)>,
    after: &'a [u8],
}

/// What is read at most.
const LIMIT: usize = 16 << 20;

fn encoded(format: Format, text: &[u8]) -> Vec<u8> {
    match format {
        Format::Raw => text.to_vec(),
        Format::Gzip => {
            let mut out = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            out.write_all(text).expect("gzip in memory");
            out.finish().expect("gzip in memory")
        }
        Format::Zstd => zstd::encode_all(text, 1).expect("zstd in memory"),
        Format::Xz => {
            let mut out = liblzma::write::XzEncoder::new(Vec::new(), 0);
            out.write_all(text).expect("xz in memory");
            out.finish().expect("xz in memory")
        }
        Format::Bzip2 => {
            let mut out = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            out.write_all(text).expect("bzip2 in memory");
            out.finish().expect("bzip2 in memory")
        }
    }
}

fn at(share: u16, len: usize) -> usize {
    len * usize::from(share) / usize::from(u16::MAX)
}

fuzz_target!(|input: Input<'_>| {
    let mut bytes = encoded(input.format, &input.text);
    let mut intact = true;
    if let Some(cut) = input.cut {
        let len = at(cut, bytes.len());
        intact &= len == bytes.len();
        bytes.truncate(len);
    }
    for &(place, mask) in &input.changes {
        let len = bytes.len();
        if let Some(byte) = bytes.get_mut(at(place, len)) {
            *byte ^= mask;
            intact &= mask == 0;
        }
    }
    bytes.extend_from_slice(input.after);
    intact &= input.after.is_empty();
    // Raw bytes that begin as a format does are that format's, not intact.
    intact &= !matches!(input.format, Format::Raw) || Compression::of(&input.text).is_none();

    let opened = open_reader("<bytes>", Cursor::new(bytes));
    let mut opened = match opened {
        Ok(opened) => opened,
        Err(error) => {
            assert!(!intact, "an intact stream did not open: {error}");
            return;
        }
    };
    let mut read = Vec::new();
    let mut buffer = vec![0; 64 << 10];
    loop {
        match opened.reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                read.extend_from_slice(&buffer[..n]);
                if read.len() > LIMIT {
                    assert!(!intact, "an intact stream decoded past its bytes");
                    return;
                }
            }
            Err(error) => {
                assert!(!intact, "an intact stream failed: {error}");
                let why = error.to_string();
                assert!(
                    ["gzip: ", "zstd: ", "xz: ", "bzip2: "]
                        .iter()
                        .any(|format| why.starts_with(format)),
                    "an error that names no format: {why}"
                );
                return;
            }
        }
    }
    if intact {
        assert_eq!(read, input.text, "an intact stream decoded to other bytes");
    }
});
