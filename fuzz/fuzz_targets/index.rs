//! `cardkit_json`'s structural index: the SIMD path (AVX-512, AVX2 or NEON, where
//! the machine has one) gives the same blocks as the portable path and as
//! a byte-at-a-time reference, on any bytes; the skip over the index
//! (`skip_indexed`) gives `skip_raw`'s answer from every start tried, and
//! the same answer resumed after a read cut anywhere (`IndexedSkip`); and
//! for bytes serde_json reads as a stream of values, the index finds the
//! end of each value where serde_json does (but for a number beyond
//! binary64 range, which serde_json takes into `IgnoredAny` and the scanner
//! does not). The string stops, on both paths and indexed whole or from a
//! cut, give the next stop a byte-at-a-time search gives, from every
//! offset.
#![no_main]

use cardkit_json::index_reference::{blocks as reference, string_stops as reference_stops};
use cardkit_json::{skip_indexed, skip_raw, Block, IndexedSkip, Indexer, StringStops};
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;

fuzz_target!(|data: &[u8]| {
    let expected = reference(data);
    let fast: Vec<Block> = Indexer::new().blocks(data).collect();
    let portable: Vec<Block> = Indexer::portable().blocks(data).collect();
    assert_eq!(portable, expected, "portable against the reference");
    assert_eq!(
        fast,
        expected,
        "{} against the reference",
        Indexer::new().path()
    );

    // The string stops, from every offset of the part indexed.
    // The first stop at or after each offset, found from the end.
    let mut next_stop = vec![None; data.len() + 1];
    let mut stops = reference_stops(data).into_iter().rev().peekable();
    for from in (0..data.len()).rev() {
        next_stop[from] = if stops.next_if(|&at| at == from).is_some() {
            Some(from)
        } else {
            next_stop[from + 1]
        };
    }
    let cut = data.first().map_or(0, |&b| usize::from(b) % (data.len() + 1));
    for mut index in [StringStops::portable(), StringStops::new()] {
        for range in [0..data.len(), cut..data.len(), 0..cut] {
            index.index(data, range.clone());
            let first = range.start / 64 * 64;
            for from in first..range.end {
                let expected = next_stop[from]
                    .filter(|&at| at < range.end)
                    .ok_or(range.end);
                assert_eq!(index.next(from), expected, "{} {range:?} from {from}", index.path());
            }
        }
    }

    // The skip from the first bytes and from each structural character.
    let structurals: Vec<usize> = Indexer::new().structurals(data).collect();
    let starts = (0..data.len().min(8)).chain(structurals.iter().copied().take(64));
    for start in starts {
        let whole = skip_indexed(data, start);
        assert_eq!(whole, skip_raw(data, start), "skip from {start}");
        // Resumed: one read ending at `cut` (from where the skip starts on
        // if it is before), then the rest.
        let read = cut.max(start);
        let mut skip = IndexedSkip::new(start);
        let first = skip.resume(&data[start..read], start, false);
        let resumed = match first {
            Ok(at) | Err(at) if at < read => first,
            _ => skip.resume(&data[start..], start, true),
        };
        assert_eq!(resumed, whole, "skip from {start} resumed after {read}");
    }

    // Every value serde_json reads from the stream ends where the skip
    // over the index says.
    let mut stream = serde_json::Deserializer::from_slice(data).into_iter::<IgnoredAny>();
    let mut start = 0;
    while let Some(Ok(_)) = stream.next() {
        let end = stream.byte_offset();
        // Known difference: into `IgnoredAny`, serde_json takes a number
        // beyond binary64 range (`1e400`), which the scanner, and so the
        // skip, finds malformed; reading a `Value`, serde_json does too.
        let value = &data[start..end];
        if matches!(value.trim_ascii_start().first(), Some(b'-' | b'0'..=b'9'))
            && serde_json::from_slice::<serde_json::Value>(value).is_err()
        {
            break;
        }
        assert_eq!(skip_indexed(data, start), Ok(end), "the value from {start}");
        start = end;
    }
});
