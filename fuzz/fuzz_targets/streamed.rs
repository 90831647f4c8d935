//! Arbitrary bytes read as a stream through buffers of a few bytes, on one
//! and on two threads, against the same bytes read in memory: the reports
//! must be the same. The chunk size comes from the first byte. This covers
//! what only a small buffer reaches: values cut at every point, long strings
//! around documents read a piece at a time, containers told only later.
#![no_main]

use std::io::Read;

use cardkit::diagnostic::Detail;
use cardkit::validate::{validate, Buffering, Options, Validator};
use libfuzzer_sys::fuzz_target;

/// A reader that hands out at most `step` bytes at a time.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let chunk = 1 + usize::from(first % 16);
    // Members that are no document's field are held to see what follows,
    // as in memory; the layout is told from what is at hand.
    for json_lines in [false, true] {
        let buffering = Buffering {
            chunk,
            read_ahead: chunk,
            retain: chunk,
            batch: chunk,
            foreign_prefix: usize::MAX,
            // Lines read as they come (a network body), or a chunk at a time.
            eager_lines: json_lines && first & 0x80 != 0,
        };
        let options = Options {
            json_lines,
            ..Options::default()
        };
        let expected = validate(input, &options);
        for jobs in [1, 2] {
            let mut documents = Vec::new();
            let reader = Trickle {
                bytes: input,
                step: 1 + chunk / 3,
            };
            let layout = Validator::new(options)
                .jobs(jobs)
                .buffering(buffering)
                .reader(reader, |d| documents.push(d))
                .expect("reading memory");
            // By design, past what is read before the layout is told, a
            // member that names a kind after `data` was read as a container
            // is reported instead (the book's rules, docs/output.md).
            let misled = documents
                .iter()
                .flat_map(|d| &d.diagnostics)
                .any(|d| matches!(d.detail, Detail::KindAfterData { .. }));
            if misled {
                continue;
            }
            assert_eq!(
                (layout, &documents),
                (expected.layout, &expected.documents),
                "chunk {chunk}, {jobs} jobs, JSON Lines {json_lines}"
            );
        }
    }
});
