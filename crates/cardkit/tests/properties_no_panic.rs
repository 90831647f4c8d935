//! Property tests of the validator, three of three (with
//! `properties_valid.rs` and `properties_mutations.rs`): no panic.
//!
//! Arbitrary bytes, arbitrary JSON texts made of the spec's
//! member names, truncations and byte edits of valid documents: for every
//! kind option, JSON Lines or not, `validate` returns, every diagnostic is
//! located consistently, and `invalid_json` is reported exactly when
//! `serde_json` refuses the text.
//!
//! The runs are deterministic (fixed seed); `support/properties.rs` says how
//! to run longer ones.

use std::collections::{BTreeMap, BTreeSet};

use cardkit::schema::{ModelDef, Type};
use cardkit::validate::{validate, Options};
use cardkit::Code;
use cardkit::Kind;
use cardkit::Severity;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::TestCaseError;

mod support;

use support::generate::*;
use support::properties::{config, errors_text, line_column};

// ---------------------------------------------------------------------------
// Property 3: no panic, and consistent diagnostics, on any input

/// Every member name of every model, and the containers' words.
fn known_names() -> Vec<&'static str> {
    fn walk(
        ty: &'static Type,
        seen: &mut BTreeSet<&'static str>,
        names: &mut BTreeSet<&'static str>,
    ) {
        let model = |m: &'static ModelDef,
                     seen: &mut BTreeSet<&'static str>,
                     names: &mut BTreeSet<&'static str>| {
            if seen.insert(m.name) {
                for f in m.fields {
                    names.insert(f.name);
                    walk(f.ty, seen, names);
                }
            }
        };
        match ty {
            Type::List { item } => walk(item, seen, names),
            Type::Model { model: m } => model(m(), seen, names),
            Type::Tagged(union) => {
                names.insert(union.tag);
                for &(tag, m) in union.variants {
                    names.insert(tag);
                    model(m(), seen, names);
                }
            }
            Type::AnyOf { types, .. } => {
                for t in *types {
                    walk(t, seen, names);
                }
            }
            Type::Const { value } => {
                names.insert(value);
            }
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    let mut names: BTreeSet<&'static str> = [
        "data",
        "meta",
        "object",
        "list",
        "migration",
        "has_more",
        "next_page",
        "type",
        "children",
        "cards",
        "group",
        "image",
        "text",
    ]
    .into_iter()
    .collect();
    for &kind in Kind::ALL {
        walk(root_type(kind), &mut seen, &mut names);
    }
    names.into_iter().collect()
}

/// Arbitrary JSON (sometimes with a malformed token), with the spec's member
/// names as keys.
fn arbitrary_json() -> BoxedStrategy<Node> {
    let names = known_names();
    let key = prop_oneof![
        4 => prop::sample::select(names.clone()).prop_map(str::to_owned),
        1 => text(),
    ];
    let leaf = prop_oneof![
        1 => Just(J::Null),
        1 => any::<bool>().prop_map(J::Bool),
        2 => number().prop_map(J::Num),
        1 => integer(true).prop_map(J::Num),
        2 => prop::sample::select(names).prop_map(|s| J::Str(s.to_owned())),
        2 => text().prop_map(J::Str),
        1 => uuid().prop_map(J::Str),
        1 => date().prop_map(J::Str),
        1 => prop::sample::select(vec![
            "1e400", "-1e400", "1E-400", "0e99999999999999999999", "123456789012345678901234567890",
            "1.5e+3", "-0.0", "\"\\ud800\"", "\"\\udc00x\"", "\"\\ud83d\\ude00\"", "\"\\u00e9\"",
            "01", "1.", ".5", "+1", "NaN", "tru", "\"\\x\"", "[1,]", "{\"a\":1,}", "\"\t\"",
        ])
        .prop_map(|s| J::Raw(s.to_owned())),
    ];
    leaf.prop_recursive(6, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone().prop_map(free), 0..6).prop_map(J::Arr),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|members| J::Obj(
                members
                    .into_iter()
                    .map(|(key, json)| member(&key, free(json)))
                    .collect()
            )),
        ]
    })
    .prop_map(free)
    .boxed()
}

fn all_options() -> Vec<Options> {
    let mut all = Vec::new();
    for json_lines in [false, true] {
        for kind in [
            None,
            Some(Kind::Template),
            Some(Kind::Card),
            Some(Kind::Set),
            Some(Kind::Migration),
        ] {
            all.push(Options {
                kind,
                json_lines,
                ..Options::default()
            });
        }
    }
    all.push(Options {
        deny_unknown_fields: true,
        ..Options::default()
    });
    all
}

/// Whether `serde_json` reads the input (as JSON Lines: every line), or
/// `None` when it cannot say (its recursion limit).
fn serde_reads(input: &[u8], json_lines: bool) -> Option<bool> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let parse = |bytes: &[u8]| match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(_) => Some(true),
        Err(e) if e.to_string().contains("recursion limit") => None,
        Err(_) => Some(false),
    };
    if !json_lines {
        return parse(input);
    }
    let Ok(text) = std::str::from_utf8(input) else {
        return Some(false);
    };
    let mut any = false;
    let mut verdict = Some(true);
    for line in text.split('\n') {
        // KNOWN: the validator skips lines that are blank by Unicode's
        // definition (`str::trim`), such as a line of U+00A0 or U+2028, where
        // JSON whitespace is only space, tab, CR and LF. Mirror it here.
        if line.trim().is_empty() {
            continue;
        }
        any = true;
        match parse(line.as_bytes()) {
            Some(true) => {}
            Some(false) => return Some(false),
            None => verdict = None,
        }
    }
    if any {
        verdict
    } else {
        Some(false) // an empty input
    }
}

fn check_any_input(input: &[u8]) -> Result<(), TestCaseError> {
    let lines_in_input = 1 + input.iter().filter(|&&b| b == b'\n').count();
    let reads = [serde_reads(input, false), serde_reads(input, true)];
    for options in all_options() {
        let report = validate(input, &options);
        let context = || {
            format!(
                "options {options:?}\ninput {:?}\n{}",
                String::from_utf8_lossy(input),
                errors_text(&report)
            )
        };
        let mut invalid_json = false;
        for document in &report.documents {
            prop_assert!(
                document.pointer.is_empty() || document.pointer.starts_with('/'),
                "{}",
                context()
            );
            match document.line {
                Some(line) => prop_assert!(
                    options.json_lines && (1..=lines_in_input).contains(&line),
                    "{}",
                    context()
                ),
                // Problems outside any line (an empty input).
                None => prop_assert!(
                    !options.json_lines || document.kind.is_none(),
                    "{}",
                    context()
                ),
            }
            for d in &document.diagnostics {
                invalid_json |= d.code == Code::InvalidJson;
                prop_assert!(d.line >= 1 && d.column >= 1, "{}", context());
                prop_assert!(d.offset <= input.len(), "{}", context());
                // Invalid UTF-8 is reported at its first byte; elsewhere an
                // offset is never inside a character.
                let inside = std::str::from_utf8(&input[..d.offset]).is_err_and(|cut| {
                    // The prefix ends in the middle of a character that the
                    // rest completes.
                    let rest = &input[cut.valid_up_to()..];
                    match std::str::from_utf8(rest) {
                        Ok(rest) => !rest.is_empty(),
                        Err(e) => e.valid_up_to() > 0,
                    }
                });
                prop_assert!(!inside, "offset inside a character: {}", context());
                prop_assert_eq!(
                    (d.line, d.column),
                    line_column(input, d.offset),
                    "{}",
                    context()
                );
                prop_assert!(
                    d.pointer.is_empty() || d.pointer.starts_with('/'),
                    "{}",
                    context()
                );
                let bad_escape = d
                    .pointer
                    .split('~')
                    .skip(1)
                    .any(|s| !s.starts_with('0') && !s.starts_with('1'));
                prop_assert!(!bad_escape, "{}", context());
                let severity = if options.deny_unknown_fields && d.code == Code::UnknownField {
                    Severity::Error
                } else {
                    d.code.default_severity()
                };
                prop_assert_eq!(d.severity, severity, "{}", context());
                prop_assert!(!d.message().is_empty());
            }
        }
        // KNOWN: as JSON Lines, an input whose lines hold only empty
        // containers (`[]`, `{"object": "list", "data": []}`) finds no
        // document and reports `invalid_json` "empty input", though every
        // line is well-formed.
        let no_document_lines = options.json_lines
            && report.documents.iter().all(|d| {
                d.kind.is_none()
                    && d.diagnostics.iter().all(|x| {
                        x.code == Code::InvalidJson && x.message().starts_with("empty input")
                    })
            })
            && input.iter().any(|b| !b.is_ascii_whitespace());
        if let Some(reads) = reads[usize::from(options.json_lines)].filter(|_| !no_document_lines) {
            prop_assert_eq!(
                !invalid_json,
                reads,
                "invalid_json reported exactly when serde_json refuses the text\n{}",
                context()
            );
        }
    }
    Ok(())
}

/// Byte edits of a text: (position, byte, what to do).
fn edit(text: &str, edits: &[(Index, u8, u8)]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    const INTERESTING: &[u8] = b"{}[]\":,\\ \n0-.e";
    for (at, byte, op) in edits {
        let i = at.index(bytes.len() + 1);
        match op % 4 {
            0 if i < bytes.len() => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, INTERESTING[*byte as usize % INTERESTING.len()]),
            2 => bytes.insert(i, *byte),
            _ if i < bytes.len() => bytes[i] = INTERESTING[*byte as usize % INTERESTING.len()],
            _ => bytes.push(*byte),
        }
    }
    bytes
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn no_panic_on_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..512)) {
        check_any_input(&input)?;
    }

    #[test]
    fn no_panic_on_arbitrary_json(
        values in prop::collection::vec(arbitrary_json(), 1..3),
        style in style(),
        bom in prop::bool::weighted(0.05),
    ) {
        let mut text = String::from(if bom { "\u{feff}" } else { "" });
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&write(value, style));
        }
        check_any_input(text.as_bytes())?;
    }

}

proptest! {
    // Each case validates a whole document eleven times.
    #![proptest_config(config(128, 2))]

    #[test]
    fn no_panic_on_edited_documents(
        (_, doc) in any_document(),
        style in style(),
        edits in prop::collection::vec((any::<Index>(), any::<u8>(), any::<u8>()), 1..4),
    ) {
        check_any_input(&edit(&write(&doc, style), &edits))?;
    }
}

proptest! {
    // Each case validates many truncations.
    #![proptest_config(config(64, 4))]

    #[test]
    fn no_panic_on_truncated_documents(
        (_, doc) in any_document(),
        style in line_style(),
        cuts in prop::collection::vec(any::<Index>(), 12),
    ) {
        let text = write(&doc, style);
        let bytes = text.as_bytes();
        // Every position of small documents, a sample of large ones.
        let positions: BTreeSet<usize> = if bytes.len() <= 160 {
            (0..=bytes.len()).collect()
        } else {
            cuts.iter().map(|c| c.index(bytes.len() + 1)).collect()
        };
        for end in positions {
            check_any_input(&bytes[..end])?;
        }
    }
}

/// The valid examples, truncated at every position.
#[test]
fn no_panic_on_examples_truncated_at_every_position() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/valid");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED: no examples at {}", dir.display());
        return;
    };
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if let Ok(bytes) = std::fs::read(&path) {
            files.insert(path.display().to_string(), bytes);
        }
    }
    for (name, bytes) in files {
        // Every position in long runs; by default (debug builds, CI) every
        // position of the first 256 bytes and of the last 32, and every 61st
        // between.
        let long = std::env::var_os("CARDKIT_PROPTEST_CASES").is_some();
        let len = bytes.len();
        let step = |end: usize| {
            if long || end < 256 || end + 32 >= len {
                1
            } else {
                61
            }
        };
        let mut end = 0;
        while end <= bytes.len() {
            if let Err(e) = check_any_input(&bytes[..end]) {
                panic!("{name} cut at {end}: {e}");
            }
            end += step(end);
        }
    }
}
