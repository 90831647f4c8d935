//! Hostile input, one regression test per finding: deep nesting anywhere,
//! malformed roots, encodings, numbers and keys of any length. Each asserts
//! the verdict and the diagnostics, never a panic or a lost report.

use cardkit::validate::{validate, Options};
use cardkit::Code;
use cardkit::FileReport;
use cardkit::Kind;

fn codes(report: &FileReport) -> Vec<Code> {
    report
        .documents
        .iter()
        .flat_map(|d| &d.diagnostics)
        .map(|d| d.code)
        .collect()
}

/// Runs `f` on a thread with a small stack: deep input must not need a
/// deep native stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no stack overflow")
}

fn nested(depth: usize, inner: &str) -> String {
    format!("{}{inner}{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

#[test]
fn deep_nesting_under_an_unknown_member_is_too_deep_in_every_container() {
    let deep = nested(30_000, "1");
    let inputs = [
        deep.clone(),
        format!("[{deep}]"),
        format!("{{\"object\": \"list\", \"data\": [{deep}]}}"),
        format!("{{\"ARC\": {deep}}}"),
        format!("{{\"meta\": {{}}, \"data\": {{\"ARC\": {deep}}}}}"),
    ];
    for input in inputs {
        for kind in [None, Some(Kind::Set), Some(Kind::Migration)] {
            let input = input.clone();
            let report = on_small_stack(move || {
                validate(
                    input.as_bytes(),
                    &Options {
                        kind,
                        ..Options::default()
                    },
                )
            });
            assert!(!report.is_valid());
            assert!(codes(&report).contains(&Code::TooDeep), "{kind:?}");
        }
    }
    let lines = format!("{}\n{}\n", nested(30_000, "1"), nested(3, "1"));
    let report = on_small_stack(move || {
        validate(
            lines.as_bytes(),
            &Options {
                json_lines: true,
                ..Options::default()
            },
        )
    });
    assert_eq!(report.documents.len(), 2);
    assert!(codes(&report).contains(&Code::TooDeep));
}

#[test]
fn a_malformed_root_is_only_invalid_json() {
    for input in ["{", "{\"a\": ", "[{\"x\": 1,", "{\"a\" 1}"] {
        let report = validate(input.as_bytes(), &Options::default());
        assert_eq!(codes(&report), [Code::InvalidJson], "{input:?}");
    }
    // A well-formed root whose kind cannot be told is still unknown_kind.
    let report = validate(br#"{"a": 1}"#, &Options::default());
    assert_eq!(codes(&report), [Code::UnknownKind]);
}

#[test]
fn utf16_input_is_named_as_such() {
    let text = "{\"object\": \"migration\"}";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let with_bom = [&[0xFF, 0xFE][..], &le].concat();
    for (input, words) in [
        (le, "UTF-16 (little-endian)"),
        (be, "UTF-16 (big-endian)"),
        (with_bom, "little-endian, with a byte order mark"),
    ] {
        let report = validate(&input, &Options::default());
        let all: Vec<_> = report
            .documents
            .iter()
            .flat_map(|d| &d.diagnostics)
            .collect();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].code, Code::InvalidJson);
        assert!(all[0].message().contains(words), "{}", all[0].message());
    }
}

#[test]
fn a_leading_zero_is_named() {
    let report = validate(br#"{"object": "migration", "x": 01}"#, &Options::default());
    let d = report.documents[0]
        .diagnostics
        .iter()
        .find(|d| d.code == Code::InvalidJson)
        .expect("malformed");
    assert!(d.message().contains("leading zero"), "{}", d.message());
    assert_eq!(d.column, 30);
}

#[test]
fn a_line_separator_between_members_is_shown_escaped() {
    let report = validate(
        "{\"object\": \"migration\"\u{2028}}".as_bytes(),
        &Options::default(),
    );
    let message = report.documents[0].diagnostics[0].message();
    assert!(message.contains("'\\u{2028}'"), "{message}");
    assert!(!message.contains('\u{2028}'));
}

#[test]
fn quoted_literals_and_keys_are_cut_with_their_length() {
    let digits = "7".repeat(1_000_000);
    let input = format!(r#"{{"object": "migration", "created_at": {digits}}}"#);
    let report = validate(input.as_bytes(), &Options::default());
    let d = &report.documents[0].diagnostics[0];
    let message = d.message();
    assert!(message.len() < 200, "{} bytes", message.len());
    assert!(message.contains("(1000000 characters)"), "{message}");

    let key = "k".repeat(1_000_000);
    let input = format!(r#"{{"object": "migration", "{key}": 1}}"#);
    let report = validate(input.as_bytes(), &Options::default());
    let unknown = report.documents[0]
        .diagnostics
        .iter()
        .find(|d| d.code == Code::UnknownField)
        .expect("the unknown key");
    assert!(unknown.message().len() < 200);
    assert!(unknown.field.as_deref().is_some_and(|f| f.len() < 100));
}

#[test]
fn a_documents_pointer_through_a_huge_set_code_is_cut_with_its_length() {
    use cardkit::diagnostic::quote::QUOTED_BYTES;
    // A catalog whose one set code is a megabyte of `~`: every pointer that
    // passes through it, the document's and each diagnostic's, keeps 16 KiB
    // and says the whole length (escaped, each `~` is two bytes).
    let code = "~".repeat(1_000_000);
    let input = format!(r#"{{"data": {{"{code}": {{"code": "X"}}}}}}"#);
    let options = Options {
        kind: Some(Kind::Set),
        ..Options::default()
    };
    let report = validate(input.as_bytes(), &options);
    let document = &report.documents[0];
    assert_eq!(document.pointer_bytes, Some("/data/".len() + 2_000_000));
    assert!(document.pointer.starts_with("/data/~0~0"));
    assert!(document.pointer.len() <= QUOTED_BYTES + '…'.len_utf8());
    assert!(!document.diagnostics.is_empty());
    for d in &document.diagnostics {
        assert!(
            d.pointer.len() <= QUOTED_BYTES + '…'.len_utf8(),
            "{}",
            d.pointer.len()
        );
        assert!(
            d.pointer_bytes.is_some_and(|bytes| bytes > 2_000_006),
            "{d:?}"
        );
    }
    assert!(document.at().ends_with(&format!("… ({} bytes)", 2_000_006)));
}

#[test]
fn layer_trees_with_tags_anywhere_are_checked_as_before() {
    // The tag look-up index answers for tags first, last and repeated.
    let input = br#"{"name": "x", "width": 5, "height": 5, "data": {"children": [
        {"children": [{"text": "t", "type": "text", "size": 1, "x": 0, "y": 0,
                       "width": 1, "height": 1}], "type": "group"},
        {"type": "image", "type": "text"},
        {"src": 5, "type": "image"}]}}"#;
    let report = validate(input, &Options::default());
    let found: Vec<(Code, &str)> = report.documents[0]
        .diagnostics
        .iter()
        .map(|d| (d.code, d.pointer.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            // Missing members belong where their object starts.
            (Code::MissingField, "/data/children/1/text"),
            (Code::MissingField, "/data/children/1/size"),
            (Code::MissingField, "/data/children/1/x"),
            (Code::MissingField, "/data/children/1/y"),
            (Code::MissingField, "/data/children/1/width"),
            (Code::MissingField, "/data/children/1/height"),
            (Code::DuplicateKey, "/data/children/1/type"),
            (Code::WrongType, "/data/children/2/src"),
        ]
    );
}

#[test]
fn any_number_of_jobs_is_safe_and_gives_the_same_report() {
    let input = br#"[{"object": "migration"}, {"object": "migration", "uri": 5}]"#;
    let expected = validate(input, &Options::default()).documents;
    for jobs in [0, 1, 2, 100_000] {
        let mut documents = Vec::new();
        cardkit::Validator::new(Options::default())
            .jobs(jobs)
            .reader(&input[..], |d| documents.push(d))
            .expect("reading memory");
        assert_eq!(documents, expected, "{jobs} jobs");
    }
}

#[test]
fn a_document_keeps_a_bounded_number_of_diagnostics_and_counts_the_rest() {
    use cardkit::validate::{KEPT_ERRORS, KEPT_WARNINGS_PER_CODE};
    // Distinct unknown keys past the bound, then one unknown key repeated
    // as often: an unknown_field warning per distinct key (the repeated one
    // once, at the value kept), and a duplicate_key per repeat after the
    // first.
    let repeats = KEPT_WARNINGS_PER_CODE + 50;
    let distinct: String = (0..repeats).map(|i| format!(r#","k{i}":0"#)).collect();
    let input = format!(
        r#"{{"object": "migration"{distinct}{}}}"#,
        r#","d":0"#.repeat(repeats)
    );
    let report = validate(input.as_bytes(), &Options::default());
    let document = &report.documents[0];
    let count = |code| {
        document
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .count()
    };
    assert_eq!(count(Code::UnknownField), KEPT_WARNINGS_PER_CODE);
    assert_eq!(count(Code::DuplicateKey), KEPT_WARNINGS_PER_CODE);
    assert_eq!(document.omitted.warnings[&Code::UnknownField], 51);
    assert_eq!(document.omitted.warnings[&Code::DuplicateKey], 49);
    let mut summary = cardkit::report::Summary::default();
    summary.add_document(document);
    assert_eq!(summary.warnings[&Code::UnknownField], repeats + 1);
    assert_eq!(summary.warnings[&Code::DuplicateKey], repeats - 1);

    // Errors past the bound are counted, and the document stays invalid.
    let items = vec!["1"; KEPT_ERRORS + 5].join(",");
    let card = format!(
        r#"{{"name": "x", "width": 5, "height": 5, "dependencies": {{"extensions": [{items}]}}}}"#
    );
    let report = validate(card.as_bytes(), &Options::default());
    let document = &report.documents[0];
    assert!(!document.is_valid());
    assert_eq!(document.diagnostics.len(), KEPT_ERRORS);
    assert_eq!(document.omitted.errors[&Code::WrongType], 5);
    let many = format!(
        r#"{{"object": "migration"{}}}"#,
        r#","uri":5"#.repeat(KEPT_ERRORS + 5)
    );
    let report = validate(many.as_bytes(), &Options::default());
    let document = &report.documents[0];
    assert!(!document.is_valid());
    // Later duplicates replace earlier values: only the last is an error.
    assert_eq!(
        document
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::WrongType)
            .count(),
        1
    );
}

/// The inputs on which the differential fuzzing against serde_json stopped
/// (`fuzz/regressions/`): cardkit rejects both, where a lax reading into
/// `IgnoredAny` accepts them.
#[test]
fn fuzzing_differences_with_serde_json_stay_invalid_json() {
    for input in [&b"\"\xFF\""[..], b"1e2012200"] {
        let report = validate(input, &Options::default());
        assert_eq!(codes(&report), [Code::InvalidJson], "{input:?}");
    }
}
