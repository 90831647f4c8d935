//! `Validator::extracting`: each document's report with what an extractor
//! made of the document's bytes (and their offset in the input), in the same
//! pass. The reports are those of `Validator::reader`; the bytes are exactly the document's; the order is the
//! file's on any number of threads; memory stays bounded by the batches in
//! flight.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cardkit::validate::{validate, Buffering, Found, Options, Validated, Validator, AROUND_LIMIT};
use cardkit::Code;
use cardkit::DocumentReport;
use serde_json::Value;

/// What an extractor sees of one document: its pointer and line, and its
/// bytes.
type Seen = (String, Option<usize>, Vec<u8>);

/// Every report, and the documents whose bytes were handed out, read with
/// `jobs` threads and buffers of `chunk` bytes (or the default ones).
fn extract_all(
    input: &[u8],
    options: &Options,
    jobs: usize,
    chunk: Option<usize>,
) -> (Vec<DocumentReport>, Vec<Seen>) {
    let buffering = chunk.map_or_else(Buffering::default, |chunk| Buffering {
        chunk,
        read_ahead: chunk,
        retain: chunk,
        batch: chunk,
        foreign_prefix: usize::MAX,
        ..Buffering::default()
    });
    let (mut reports, mut seen) = (Vec::new(), Vec::new());
    let extract = |found: Found<'_>| -> Seen {
        let (report, bytes, at) = (found.report, found.bytes, found.offset);
        assert_eq!(
            input.get(at..at + bytes.len()),
            Some(bytes),
            "the offset handed out is where the document's bytes are in the input"
        );
        (report.pointer.clone(), report.line, bytes.to_vec())
    };
    let validator = Validator::new(*options).jobs(jobs).buffering(buffering);
    validator
        .extracting(extract)
        .reader(input, |item| {
            if let Validated::Document(report, extracted) = item {
                if let Some(document) = extracted {
                    assert_eq!(
                        (&document.0, document.1),
                        (&report.pointer, report.line),
                        "the extractor saw the report handed out with it"
                    );
                    seen.push(document);
                }
                reports.push(report);
            }
        })
        .expect("reading memory");
    (reports, seen)
}

/// Each value of `input` as serde_json reads it (of each line, for JSON
/// Lines), `None` where it does not (too deep).
fn values(input: &[u8], options: &Options) -> Vec<Option<Value>> {
    if options.json_lines {
        let lines = input.split(|&b| b == b'\n');
        lines
            .map(|line| serde_json::from_slice(line).ok())
            .collect()
    } else {
        vec![serde_json::from_slice(input).ok()]
    }
}

fn check(name: &str, input: &[u8], options: &Options, chunks: &[(usize, Option<usize>)]) {
    let expected = validate(input, options).documents;
    let duplicates = expected
        .iter()
        .flat_map(|r| &r.diagnostics)
        .any(|d| d.code == Code::DuplicateKey);
    let values = values(input, options);
    for &(jobs, chunk) in chunks {
        let (reports, seen) = extract_all(input, options, jobs, chunk);
        assert_eq!(reports, expected, "{name}: {jobs} threads, {chunk:?}");
        // The documents read whole are handed out, in the order of the
        // reports: every one whose kind was told without malformed JSON in
        // it, and some with JSON problems that reading recovers from (a
        // lone surrogate escape, a number beyond range).
        // Reports of problems outside any document (kind `None`) may be
        // either: a document whose kind cannot be told was read whole.
        let told: Vec<_> = reports
            .iter()
            .map(|r| {
                let malformed = r.diagnostics.iter().any(|d| d.code == Code::InvalidJson);
                (r.pointer.clone(), r.line, malformed || r.kind.is_none())
            })
            .collect();
        let mut handed = seen.iter().map(|(p, l, _)| (p.clone(), *l)).peekable();
        for (pointer, line, may_be_missing) in told {
            if handed.peek() == Some(&(pointer.clone(), line)) {
                handed.next();
            } else {
                assert!(
                    may_be_missing,
                    "{name}: {pointer} not handed out ({jobs} threads, {chunk:?})"
                );
            }
        }
        assert_eq!(
            handed.next(),
            None,
            "{name}: handed out in the reports' order"
        );
        for (pointer, line, bytes) in &seen {
            let document: Value = match serde_json::from_slice(bytes) {
                Ok(document) => document,
                // Deeper than serde_json follows, or holding what it refuses.
                Err(_) => continue,
            };
            let value = values.get(line.map_or(0, |line| line - 1));
            let in_file = value
                .and_then(Option::as_ref)
                .and_then(|v| v.pointer(pointer));
            if let (false, Some(in_file)) = (duplicates, in_file) {
                assert_eq!(
                    &document, in_file,
                    "{name}: {pointer} ({jobs} threads, {chunk:?})"
                );
            }
        }
    }
}

#[test]
fn every_conformance_case_hands_out_each_document_with_its_report() {
    let cases = support::cases::all();
    assert!(cases.len() >= 200, "{} cases", cases.len());
    for case in &cases {
        // Buffers smaller than a root object whose `data` comes first read
        // two cases otherwise by design (see streaming.rs).
        let misled = case.name.starts_with("card/data-first-");
        let chunks: &[_] = if misled {
            &[(1, None), (2, None)]
        } else {
            &[
                (1, None),
                (2, None),
                (1, Some(7)),
                (2, Some(5)),
                (3, Some(100)),
            ]
        };
        check(&case.name, &case.input, &case.options, chunks);
    }
}

#[test]
fn every_corpus_file_hands_out_each_document_with_its_report() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let files = support::json_files(&shared.join("corpus/neutral"));
    assert!(files.len() >= 40, "{} corpus files", files.len());
    for path in files {
        let input = std::fs::read(&path).expect("corpus file");
        let chunks = [(1, None), (2, None), (2, Some(4096))];
        check(
            &path.display().to_string(),
            &input,
            &Options::default(),
            &chunks,
        );
    }
}

/// A catalog of `sets` small sets, with a `meta` of `meta_len` bytes.
fn catalog(sets: usize, meta_len: usize) -> String {
    let data: Vec<String> = (0..sets)
        .map(|i| format!(r#""S{i:05}": {{"code": "S{i:05}", "cards": [], "tokens": []}}"#))
        .collect();
    let note = "m".repeat(meta_len.saturating_sub(12));
    format!(
        r#"{{"meta": {{"n": "{note}"}}, "data": {{{}}}}}"#,
        data.join(",\n")
    )
}

#[test]
fn on_two_threads_the_documents_come_in_file_order() {
    let input = catalog(20_000, 100);
    let mut pointers = Vec::new();
    Validator::new(Options::default())
        .jobs(2)
        .extracting(|found| found.report.pointer.clone())
        .reader(input.as_bytes(), |item| {
            if let Validated::Document(report, Some(pointer)) = item {
                assert_eq!(report.pointer, pointer);
                pointers.push(pointer);
            }
        })
        .expect("reading memory");
    let expected: Vec<String> = (0..20_000).map(|i| format!("/data/S{i:05}")).collect();
    assert_eq!(pointers, expected);
}

#[test]
fn the_meta_beside_the_documents_is_handed_out_in_its_place() {
    for (jobs, meta_len) in [
        (1, 100),
        (2, 100),
        (1, AROUND_LIMIT + 10),
        (2, AROUND_LIMIT + 10),
    ] {
        let input = catalog(3_000, meta_len);
        let mut first = None;
        let mut documents = 0;
        Validator::new(Options::default())
            .jobs(jobs)
            .extracting(|_| ())
            .reader(input.as_bytes(), |item| match item {
                Validated::Around { pointer, bytes } => {
                    assert_eq!((documents, pointer.as_str()), (0, "/meta"));
                    first = Some(bytes);
                }
                Validated::Document(..) => documents += 1,
            })
            .expect("reading memory");
        let bytes = first.expect("the meta was handed out");
        if meta_len <= AROUND_LIMIT {
            let meta: Value =
                serde_json::from_slice(&bytes.expect("a short meta's bytes")).unwrap();
            assert_eq!(meta["n"].as_str().map(str::len), Some(meta_len - 12));
        } else {
            assert_eq!(
                bytes, None,
                "a meta longer than the limit comes without its bytes"
            );
        }
        assert_eq!(documents, 3_000);
    }
}

/// Counts the extracted values alive at once.
struct Alive(Arc<(AtomicUsize, AtomicUsize)>);

impl Alive {
    fn new(counts: &Arc<(AtomicUsize, AtomicUsize)>) -> Alive {
        let now = counts.0.fetch_add(1, Ordering::SeqCst) + 1;
        counts.1.fetch_max(now, Ordering::SeqCst);
        Alive(Arc::clone(counts))
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        self.0 .0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn memory_is_bounded_by_the_batches_in_flight() {
    // 200,000 tiny documents (a few MB), on two threads: what the extractor
    // returned is held only while its batch waits to be handed on.
    let input = catalog(200_000, 100);
    let counts = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
    let mut handed = 0;
    Validator::new(Options::default())
        .jobs(2)
        .extracting(|_| Alive::new(&counts))
        .reader(input.as_bytes(), |item| {
            if let Validated::Document(_, Some(alive)) = item {
                handed += 1;
                drop(alive);
            }
        })
        .expect("reading memory");
    assert_eq!(handed, 200_000);
    let most = counts.1.load(Ordering::SeqCst);
    // A batch holds at most 1,024 documents; a few batches are in flight
    // (queued, on each thread, waiting for the one before them).
    assert!(most <= 8 * 1024, "{most} extracted values alive at once");
}
