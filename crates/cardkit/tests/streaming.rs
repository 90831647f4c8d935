//! Streaming and parallel validation give the report of validation in memory:
//! the same documents, diagnostics, offsets, lines, columns and excerpts, in
//! the same order, whatever the buffer sizes and the number of threads.
//!
//! The buffers are made tiny here so that every boundary of the input (a
//! read, a document cut short, a batch sent to another thread) falls
//! anywhere, including inside strings, numbers and keys.

mod support;

use std::io::Read;

use cardkit::diagnostic::Detail;
use cardkit::validate::{validate, Buffering, Layout, Options, Validator};
use cardkit::Code;
use cardkit::DocumentReport;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// The report of one input, with everything that can differ between ways of
/// reading it.
type Report = (Layout, Vec<DocumentReport>);

fn in_memory(input: &[u8], options: &Options) -> Report {
    let report = validate(input, options);
    (report.layout, report.documents)
}

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

fn streamed(input: &[u8], options: &Options, jobs: usize, buffering: Buffering) -> Report {
    streamed_in_reads(input, options, jobs, buffering, 1 + buffering.chunk / 3)
}

/// Streamed, each read handing out at most `step` bytes.
fn streamed_in_reads(
    input: &[u8],
    options: &Options,
    jobs: usize,
    buffering: Buffering,
    step: usize,
) -> Report {
    let mut documents = Vec::new();
    let reader = Trickle { bytes: input, step };
    let layout = Validator::new(*options)
        .jobs(jobs)
        .buffering(buffering)
        .reader(reader, |d| documents.push(d))
        .expect("reading memory");
    (layout, documents)
}

fn tiny(chunk: usize) -> Buffering {
    Buffering {
        chunk,
        read_ahead: chunk,
        retain: chunk,
        batch: chunk,
        // The first MiB of every input here is read before the layout is
        // told; `a_long_meta_*` below read it as a stream instead.
        foreign_prefix: usize::MAX,
        eager_lines: false,
    }
}

/// Tiny buffers, with the root's members that are no document's field
/// (`meta`) read as a stream from the first byte on.
fn tiny_foreign_prefix(chunk: usize) -> Buffering {
    Buffering {
        foreign_prefix: 1,
        ..tiny(chunk)
    }
}

/// Past the first MiB, a container whose `data` comes before the member that names
/// a document kind is read as a container (and the member reported), and so
/// is an object whose first MiB holds only members that are no document's
/// field: with tiny buffers, inputs that do so are told apart by those
/// diagnostics.
fn misled_by_early_data(report: &Report) -> bool {
    report.1.iter().flat_map(|d| &d.diagnostics).any(|d| {
        matches!(
            d.detail,
            Detail::KindAfterData { .. } | Detail::ForeignStart { .. }
        )
    })
}

/// Checks every way of reading `input` against reading it in memory; false
/// when the input is one that tiny buffers read differently by design.
fn check_same(name: &str, input: &[u8], options: &Options) -> bool {
    let expected = in_memory(input, options);
    for (jobs, chunk) in [(1, 1), (1, 7), (1, 64), (2, 5), (3, 100), (4, 4096)] {
        let actual = streamed(input, options, jobs, tiny(chunk));
        if misled_by_early_data(&actual) {
            return false;
        }
        assert_eq!(
            actual, expected,
            "{name}: {jobs} threads, buffers of {chunk} bytes"
        );
    }
    // Reads as long as asked for: a batch sent before the next document
    // is read on may then have read to the input's end for its context.
    for (jobs, chunk) in [(2, 200), (3, 100)] {
        let actual = streamed_in_reads(input, options, jobs, tiny(chunk), usize::MAX);
        assert_eq!(
            actual, expected,
            "{name}: {jobs} threads, buffers of {chunk} bytes, whole reads"
        );
    }
    for jobs in [1, 2, 4] {
        let actual = streamed(input, options, jobs, Buffering::default());
        assert_eq!(actual, expected, "{name}: {jobs} threads, default buffers");
    }
    // Lines taken as they come, as from a network body.
    if options.json_lines {
        for (jobs, chunk) in [(1, 1), (2, 7), (1, 4096)] {
            let eager = Buffering {
                eager_lines: true,
                ..tiny(chunk)
            };
            let actual = streamed(input, options, jobs, eager);
            assert_eq!(actual, expected, "{name}: eager lines, buffers of {chunk}");
        }
    }
    true
}

#[test]
fn every_conformance_case_reads_the_same_streamed_and_in_parallel() {
    let cases = support::cases::all();
    assert!(cases.len() >= 200, "{} cases", cases.len());
    let mut misled = Vec::new();
    for case in &cases {
        if !check_same(&case.name, &case.input, &case.options) {
            misled.push(case.name.as_str());
        }
    }
    // Only the cases about a `data` member before a kind's own fields.
    assert_eq!(
        misled,
        [
            "card/data-first-is-array",
            "card/data-first-with-unknown-object-member"
        ],
    );
}

#[test]
fn every_corpus_file_reads_the_same_streamed_and_in_parallel() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let mut files = 0;
    for kind in ["set", "migration", "template", "card"] {
        let folder = shared.join("corpus/neutral").join(kind);
        for entry in std::fs::read_dir(&folder).expect("corpus folder") {
            let path = entry.expect("entry").path();
            let input = std::fs::read(&path).expect("corpus file");
            let expected = in_memory(&input, &Options::default());
            for (jobs, chunk) in [(1, 4096), (2, 4096), (3, 65536)] {
                let actual = streamed(&input, &Options::default(), jobs, tiny(chunk));
                assert_eq!(actual, expected, "{}: {jobs} threads", path.display());
            }
            files += 1;
        }
    }
    assert!(files >= 40, "{files} corpus files");
}

/// A catalog of `sets` copies of a small set, each with `defects` in it.
fn catalog(sets: usize, defect: impl Fn(usize) -> &'static str) -> String {
    let mut data = Vec::new();
    for i in 0..sets {
        data.push(format!(
            r#""S{i:03}": {{"baseSetSize": 1, "cards": [], "code": "S{i:03}", "iconCode": "x",
  "isFoilOnly": false, "isOnlineOnly": false, "languages": ["English"], "name": "Set {i}",
  "releaseDate": "2024-05-17", "sealedProduct": null, "tokens": [], "totalSetSize": 1,
  "translations": {{}}, "type": "expansion"{}}}"#,
            defect(i)
        ));
    }
    format!(
        "{{\"meta\": {{\"version\": \"5.2.2\"}}, \"data\": {{\n{}\n}}}}\n",
        data.join(",\n")
    )
}

/// A reader that hands out `bytes` and then fails, as a request's body does
/// when its client leaves half-way.
struct CutOff<'a> {
    bytes: &'a [u8],
}

impl Read for CutOff<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.bytes.is_empty() {
            return Err(std::io::ErrorKind::ConnectionReset.into());
        }
        let n = buf.len().min(self.bytes.len()).min(1000);
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// An input cut off within what is read ahead ends at once, on one thread
/// or several: no document is validated first (a service's slot is not
/// held by a client that left).
#[test]
fn an_input_cut_off_within_the_read_ahead_ends_before_any_document_is_validated() {
    let text = catalog(200, |_| "");
    let buffering = Buffering {
        chunk: 4096,
        read_ahead: 64 << 10,
        retain: 4096,
        batch: 1024,
        foreign_prefix: usize::MAX,
        eager_lines: false,
    };
    let cut = &text.as_bytes()[..text.len() * 3 / 4];
    assert!(cut.len() > 8 * buffering.chunk && cut.len() < buffering.read_ahead);
    for jobs in [1, 2] {
        let mut validated = 0;
        let result = Validator::new(Options::default())
            .jobs(jobs)
            .buffering(buffering)
            .reader(CutOff { bytes: cut }, |_| validated += 1);
        assert!(result.is_err(), "{jobs} jobs");
        assert_eq!(validated, 0, "{jobs} jobs");
    }
}

#[test]
fn errors_in_many_documents_are_reported_alike() {
    let input = catalog(300, |i| match i % 4 {
        0 => r#", "releaseDate": "2024-02-30""#,
        1 => r#", "totalSetSize": "1""#,
        2 => r#", "colour": "red""#,
        _ => "",
    });
    assert!(check_same(
        "errors in many sets",
        input.as_bytes(),
        &Options::default()
    ));
    let (layout, documents) = in_memory(input.as_bytes(), &Options::default());
    assert_eq!(layout, Layout::Catalog);
    assert_eq!(documents.len(), 300);
    assert_eq!(documents.iter().filter(|d| !d.is_valid()).count(), 150);
}

#[test]
fn a_syntax_error_in_the_middle_of_a_catalog_stops_there() {
    let input = catalog(200, |i| if i == 120 { r#", "name" "x""# } else { "" });
    assert!(check_same(
        "syntax error",
        input.as_bytes(),
        &Options::default()
    ));
    let (_, documents) = in_memory(input.as_bytes(), &Options::default());
    // The sets before it are reported, the broken one with the error at its
    // place, and nothing after it.
    assert_eq!(documents.len(), 121);
    assert!(documents[..120].iter().all(DocumentReport::is_valid));
    let broken = &documents[120];
    assert_eq!(broken.pointer, "/data/S120");
    let [error] = &broken.diagnostics[..] else {
        panic!("{broken:?}");
    };
    assert_eq!(error.code, Code::InvalidJson);
    let at = input.find(r#""name" "x""#).expect("the defect") + r#""name" "#.len();
    assert_eq!(error.offset, at);
    let line = 1 + input[..at].matches('\n').count();
    assert_eq!(error.line, line);
}

#[test]
fn a_long_input_cut_short_before_its_kind_shows_is_malformed() {
    // The root object goes on past the first MiB and ends before any member
    // tells what it is.
    let input = format!(
        "{{\"meta\": {{\"note\": \"{}\"}}, \"other",
        "x".repeat(2 << 20)
    );
    let (_, documents) = streamed(
        input.as_bytes(),
        &Options::default(),
        1,
        Buffering::default(),
    );
    let codes: Vec<Code> = documents
        .iter()
        .flat_map(|d| d.diagnostics.iter().map(|d| d.code))
        .collect();
    assert_eq!(codes.last(), Some(&Code::InvalidJson), "{codes:?}");
    assert_eq!(
        in_memory(input.as_bytes(), &Options::default()).1,
        documents
    );
}

/// Byte edits of a catalog and of JSON Lines, compared every way.
fn edited(text: &str, edits: &[(usize, u8)]) -> Vec<u8> {
    const INTERESTING: &[u8] = b"{}[]\":,\\ \n0e.-\x80\xC3\xE2";
    let mut bytes = text.as_bytes().to_vec();
    for &(at, byte) in edits {
        let at = at % (bytes.len() + 1);
        match byte % 3 {
            0 => {
                bytes.truncate(at);
            }
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, INTERESTING[usize::from(byte) % INTERESTING.len()]),
        }
    }
    bytes
}

fn migrations(lines: usize) -> String {
    (0..lines)
        .map(|i| {
            format!(
                r#"{{"object": "migration", "uri": "https://e.org/m/{i}", "migration_strategy": "merge", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0", "note": "n{i}"}}"#
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(Config {
        cases: std::env::var("CARDKIT_PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(96),
        rng_seed: RngSeed::Fixed(0x005E_ED0F_CA7A),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn edited_inputs_read_the_same_every_way(
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..4),
        lines in any::<bool>(),
    ) {
        let (text, options) = if lines {
            (migrations(20), Options { json_lines: true, ..Options::default() })
        } else {
            (catalog(12, |i| if i % 5 == 0 { r#", "type": 5"# } else { "" }), Options::default())
        };
        let input = edited(&text, &edits);
        prop_assert!(check_same("edited input", &input, &options), "read as a container only with small buffers");
    }
}

/// `meta` (and any member no document has) before `data`, with its nested
/// values, a long string, escapes, a duplicate key and some numbers.
const META: &str = r#""meta": {"version": "5.2.2", "notes": ["a", {"b": [1, -2.5e3, true, null]}],
  "long": "LONG", "esc": "caf\u00e9 \ud83d\ude00 \n", "version": 6, "e": {}, "f": []}"#;

#[test]
fn a_long_meta_before_data_reads_the_same_as_one_at_hand() {
    let meta = META.replace("LONG", &r"m\u00e9\né".repeat(2000));
    let catalog = catalog(20, |i| if i % 3 == 0 { r#", "code": 5"# } else { "" }).replacen(
        r#""meta": {"version": "5.2.2"}"#,
        &meta,
        1,
    );
    let wrapped = format!(r#"{{{meta}, "zz": [[1]], "data": {{"object": "migration", "id": 5}}}}"#);
    let list = format!(
        r#"{{{meta}, "data": [{{"object": "migration"}}, {{"uri": 1}}], "object": "list"}}"#
    );
    for input in [catalog, wrapped, list] {
        let expected = in_memory(input.as_bytes(), &Options::default());
        assert!(
            expected
                .1
                .iter()
                .flat_map(|d| &d.diagnostics)
                .any(|d| d.code == Code::DuplicateKey),
            "the duplicate key in meta is reported"
        );
        for (jobs, chunk) in [(1, 1), (1, 7), (2, 64), (3, 4096)] {
            let actual = streamed(
                input.as_bytes(),
                &Options::default(),
                jobs,
                tiny_foreign_prefix(chunk),
            );
            assert_eq!(actual, expected, "{jobs} threads, buffers of {chunk} bytes");
        }
    }
}

#[test]
fn a_long_meta_before_a_document_field_or_nothing_is_reported() {
    let meta = META.replace("LONG", "m");
    let card = format!(r#"{{{meta}, "name": "x", "width": 5, "height": 5}}"#);
    let alone = format!("{{{meta}}}");
    for (input, field, pointer) in [(card, Some("name"), "/name"), (alone, None, "")] {
        let (_, documents) = streamed(
            input.as_bytes(),
            &Options::default(),
            1,
            tiny_foreign_prefix(16),
        );
        let found: Vec<_> = documents
            .iter()
            .flat_map(|d| &d.diagnostics)
            .filter(|d| d.code != Code::DuplicateKey)
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        let Detail::ForeignStart {
            first,
            field: named,
        } = &found[0].detail
        else {
            panic!("{found:?}");
        };
        assert_eq!(
            (first.as_str(), named.as_deref(), found[0].pointer.as_str()),
            ("meta", field, pointer)
        );
        // Read whole, the same input is a card, or of no kind that can be told.
        let whole = in_memory(input.as_bytes(), &Options::default());
        let codes: Vec<_> = whole
            .1
            .iter()
            .flat_map(|d| &d.diagnostics)
            .map(|d| d.code)
            .collect();
        assert!(
            !codes.contains(&Code::UnknownKind) || field.is_none(),
            "{codes:?}"
        );
    }
}

/// Every conformance case read with the root's members that are no
/// document's field taken as a stream from the first byte: the same report
/// as in memory, but where that rule reports what it could not read
/// (`ForeignStart`), or a value malformed before its `data` leaves the
/// layout untold.
#[test]
fn every_conformance_case_reads_the_same_with_foreign_members_streamed() {
    let mut told_apart = Vec::new();
    for case in &support::cases::all() {
        let expected = in_memory(&case.input, &case.options);
        for (jobs, chunk) in [(1, 1), (2, 16)] {
            let actual = streamed(&case.input, &case.options, jobs, tiny_foreign_prefix(chunk));
            if misled_by_early_data(&actual) {
                told_apart.push(case.name.clone());
                break;
            }
            let malformed = expected
                .1
                .iter()
                .flat_map(|d| &d.diagnostics)
                .any(|d| d.code == Code::InvalidJson);
            if malformed && actual.0 == Layout::Bare {
                assert_eq!(
                    actual.1, expected.1,
                    "{}: {jobs} threads, buffers of {chunk} bytes",
                    case.name
                );
                continue;
            }
            assert_eq!(
                actual, expected,
                "{}: {jobs} threads, buffers of {chunk} bytes",
                case.name
            );
        }
    }
    // A code map whose first set has no member that tells its kind at
    // hand, and the cases about a `data` before a kind's own fields.
    assert_eq!(
        told_apart,
        [
            "auto/code-map-of-sets",
            "card/data-first-is-array",
            "card/data-first-with-unknown-object-member"
        ]
    );
}

/// A malformed scalar that runs to the end of the bytes at hand may go on:
/// reading more must not change what is reported; and a document that is a
/// scalar ends where the scanner stops, stray bytes after it or not, on
/// every thread (found by fuzzing the streamed reading against the same
/// bytes in memory, `fuzz/regressions/streamed-*.bin`).
#[test]
fn malformed_scalars_cut_by_the_buffer_read_the_same() {
    for input in [
        "  [6\u{0}[\n6E-   \n",
        "[                  ]             \u{0}",
        "\n[0true______________________________________________________________]\u{0}",
        "[0true, 1e5x, nullx, -0.5e+3true]",
        "\n5E3434",
        "\n0.\u{feff}&",
        "[1 \u{feff}]",
        "[1e999999, 2]",
        "{\"data\":[                  ]             }",
        "[6#, 7]",
        "[true\u{1}]",
        "\n40.&",
        "40.e&",
        "-&",
        "tru&",
        "nul",
        "[1, 40.&]",
        "{\"object\": 40.&}",
        "\"ab\\u12\"",
        "1\n2.&\n",
    ] {
        for json_lines in [false, true] {
            let options = Options {
                json_lines,
                ..Options::default()
            };
            assert!(check_same(input, input.as_bytes(), &options), "{input}");
        }
    }
}

/// The inputs on which the `streamed` fuzz target stopped
/// (`fuzz/regressions/streamed-*.bin`), read as that target reads them: the
/// first byte chooses the buffer size, the rest is the input.
#[test]
fn the_streamed_fuzzing_regressions_read_the_same() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut found = 0;
    for entry in std::fs::read_dir(&folder).expect("fuzz/regressions") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if !name.starts_with("streamed-") {
            continue;
        }
        found += 1;
        let data = std::fs::read(&path).expect("a regression input");
        let (&first, input) = data.split_first().expect("not empty");
        let chunk = 1 + usize::from(first % 16);
        for json_lines in [false, true] {
            let buffering = Buffering {
                foreign_prefix: usize::MAX,
                eager_lines: json_lines && first & 0x80 != 0,
                ..tiny(chunk)
            };
            let options = Options {
                json_lines,
                ..Options::default()
            };
            let expected = in_memory(input, &options);
            for jobs in [1, 2] {
                let actual = streamed(input, &options, jobs, buffering);
                if !misled_by_early_data(&actual) {
                    assert_eq!(
                        actual, expected,
                        "{name}: {jobs} jobs, JSON Lines {json_lines}"
                    );
                }
            }
        }
    }
    assert!(
        found >= 6,
        "{found} streamed regressions in {}",
        folder.display()
    );
}

/// Long runs of white space around and between documents are read past as
/// a stream: they are let go of while read, and the documents before them
/// are sent off first (on two threads, a batch takes the bytes after its last
/// document for excerpts before they are let go of: it once read them after).
#[test]
fn long_white_space_between_documents_reads_the_same() {
    let gap = " \n".repeat(3 << 20);
    let catalog = format!(
        "{gap}{{\"data\": [{{\"object\": \"migration\", \"id\": 5}},{gap}{{\"uri\": 1}}{gap}, {{}}], {gap}\"object\": \"list\"}}{gap}"
    );
    let array = format!("[{gap}{{\"object\": \"migration\"}}{gap},{gap}{{\"object\": 5}}{gap}]");
    let lines = format!("{{\"object\": \"migration\"}}\n{gap}\n{{}}\n");
    for (input, json_lines) in [(catalog, false), (array, false), (lines, true)] {
        let options = Options {
            json_lines,
            ..Options::default()
        };
        let expected = in_memory(input.as_bytes(), &options);
        for jobs in [1, 2] {
            let actual = streamed(input.as_bytes(), &options, jobs, Buffering::default());
            assert_eq!(actual, expected, "{jobs} jobs");
        }
    }
}
