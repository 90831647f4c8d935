//! Property tests of the validator and the typed models.
//!
//! 1. **Generated valid documents.** A generator walks the field tables
//!    (`cardkit::schema`) and builds random valid documents of every kind:
//!    random member order, random whitespace and string escapes, integers in
//!    every allowed spelling (`5`, `5.0`, `5e0`, `50E-1`, `1.2345e4`, 64-bit
//!    extremes), valid samples of every format, nullable fields sometimes
//!    `null`, unions through every branch. Every such document validates with
//!    no diagnostic at all (with its kind named, detected, in containers and
//!    as JSON Lines), reads into its typed model, and round-trips through it.
//! 2. **Mutations.** One (or several independent) mutations of a valid
//!    document — a required member dropped, a value of the wrong JSON type,
//!    `null` where it is not allowed, a broken format, an enumeration or
//!    constant value out of its list, an integer out of range, a union tag
//!    that names no shape — give exactly the expected errors: code, JSON
//!    Pointer, byte offset, line and column, and `Model.field`.
//! 3. **No panic.** Arbitrary bytes, arbitrary JSON texts made of the spec's
//!    member names, truncations and byte edits of valid documents: for every
//!    kind option, JSON Lines or not, `validate` returns, every diagnostic is
//!    located consistently, and `invalid_json` is reported exactly when
//!    `serde_json` refuses the text.
//!
//! The runs are deterministic (fixed seed). Longer runs, by hand:
//!
//! ```sh
//! CARDKIT_PROPTEST_CASES=20000 cargo test --release -p cardkit --test properties
//! CARDKIT_PROPTEST_SEED=7 cargo test -p cardkit --test properties   # another seed
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use cardkit::model::{Card, Migration, Set, Template};
use cardkit::schema::{ModelDef, Type};
use cardkit::validate::{validate, FileReport, Options};
use cardkit::Kind;
use cardkit::{Code, Document, ParseError, Severity};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestCaseError};
use serde::Serialize;

mod support;

use support::generate::*;

// ---------------------------------------------------------------------------
// Configuration

/// `default` cases unless `CARDKIT_PROPTEST_CASES` says otherwise (scaled by
/// `scale`), from a fixed seed unless `CARDKIT_PROPTEST_SEED` says otherwise.
fn config(default: u32, scale: u32) -> Config {
    let cases = std::env::var("CARDKIT_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .map_or(default, |n| (n / scale).max(1));
    let seed = std::env::var("CARDKIT_PROPTEST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x00CA_4DC1_7EB1);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------
// Property 1: generated documents are valid, read into the models and
// round-trip

fn errors_text(report: &FileReport) -> String {
    let mut out = String::new();
    for doc in &report.documents {
        for d in &doc.diagnostics {
            out.push_str(&format!(
                "{} {} {:?} {:?} @{} {}:{}: {}\n",
                d.severity.as_str(),
                d.code,
                d.pointer,
                d.field,
                d.offset,
                d.line,
                d.column,
                d.message()
            ));
        }
    }
    out
}

fn options(kind: Option<Kind>) -> Options {
    Options {
        kind,
        ..Options::default()
    }
}

/// Whether some integer place holds a value beyond `i64` (valid; the typed
/// models refuse it).
fn has_wide_integer(node: &Node) -> bool {
    match &node.json {
        J::Num(n) => {
            matches!(
                node.slot,
                Slot::Typed {
                    ty: Type::Integer,
                    ..
                }
            ) && n.parse::<i64>().is_err()
                && n.parse::<u64>().is_ok()
        }
        J::Arr(items) => items.iter().any(has_wide_integer),
        J::Obj(members) => members.iter().any(|m| has_wide_integer(&m.node)),
        _ => false,
    }
}

fn check_valid<T>(kind: Kind, doc: &Node, style: Style) -> Result<(), TestCaseError>
where
    T: Document + Serialize + PartialEq + Clone + fmt::Debug,
{
    let text = write(doc, style);
    let bytes = text.as_bytes();

    // Valid with the kind named, and with the kind detected.
    for named in [Some(kind), None] {
        let report = validate(bytes, &options(named));
        prop_assert_eq!(report.documents.len(), 1, "{}", errors_text(&report));
        prop_assert_eq!(report.documents[0].kind, Some(kind));
        prop_assert!(
            report.documents[0].diagnostics.is_empty(),
            "kind {:?}: {}\n{}",
            named,
            errors_text(&report),
            text
        );
    }

    // Valid in containers: an array, JSON Lines, and the kind's own wrappers.
    let line = write(doc, Style::COMPACT);
    let mut containers = vec![
        (format!("[{text},\n{line}]"), false, vec!["/0", "/1"]),
        (format!("{line}\n\n{line}\r\n"), true, vec!["", ""]),
    ];
    match kind {
        Kind::Set => {
            containers.push((
                format!(r#"{{"meta": {{"version": "5.2.1"}}, "data": {text}}}"#),
                false,
                vec!["/data"],
            ));
            containers.push((
                format!(r#"{{"data": {{"ABC": {text}, "X/Y": {line}}}}}"#),
                false,
                vec!["/data/ABC", "/data/X~1Y"],
            ));
        }
        Kind::Migration => containers.push((
            format!(r#"{{"object": "list", "has_more": false, "data": [{text}]}}"#),
            false,
            vec!["/data/0"],
        )),
        _ => {}
    }
    for (container, json_lines, pointers) in containers {
        for named in [Some(kind), None] {
            let report = validate(
                container.as_bytes(),
                &Options {
                    kind: named,
                    json_lines,
                    ..Options::default()
                },
            );
            let found: Vec<&str> = report
                .documents
                .iter()
                .map(|d| d.pointer.as_str())
                .collect();
            prop_assert_eq!(&found, &pointers, "{}", errors_text(&report));
            prop_assert!(report.is_valid(), "{}\n{}", errors_text(&report), container);
            prop_assert!(report.documents.iter().all(|d| d.kind == Some(kind)));
            prop_assert_eq!(errors_text(&report), "");
            if json_lines {
                let lines: Vec<_> = report.documents.iter().map(|d| d.line).collect();
                prop_assert_eq!(lines, vec![Some(1), Some(3)]);
            }
        }
    }

    // The typed model.
    let direct = serde_json::from_slice::<T>(bytes);
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let via_value = serde_json::from_value::<T>(value.clone());
    let parsed = cardkit::from_slice::<T>(bytes);
    if has_wide_integer(doc) {
        // Documented: a valid integer beyond i64 does not fit the models.
        prop_assert!(direct.is_err() && via_value.is_err());
        prop_assert!(
            matches!(parsed, Err(ParseError::Model(_))),
            "{:?}",
            parsed.map(|_| ())
        );
        return Ok(());
    }
    let typed = direct.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    let via_value = via_value.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&typed, &via_value);
    let mut completed = typed.clone();
    completed.complete();
    let parsed = parsed.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&parsed, &completed);

    // Round trip: typed → JSON → typed.
    let again = serde_json::to_vec(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: T = serde_json::from_slice(&again)
        .map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&again))))?;
    if back != typed {
        // KNOWN: serde_json without its `float_roundtrip` feature reads
        // some numbers one or two units in the last place off (e.g.
        // `2.0962273396028517e-16` as `2.0962273396028514e-16`), so a
        // `number` may not survive typed → JSON → typed. Accept exactly
        // that: `back` must be what reading the written JSON gives.
        let written =
            serde_json::to_value(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let reread: serde_json::Value = serde_json::from_str(&written.to_string())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back_value =
            serde_json::to_value(&back).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back_value, &reread, "{}", String::from_utf8_lossy(&again));
    }
    let report = validate(&again, &options(Some(kind)));
    prop_assert!(
        report.documents.iter().all(|d| d.diagnostics.is_empty()),
        "{}\n{}",
        errors_text(&report),
        String::from_utf8_lossy(&again)
    );
    // The untyped JSON, re-serialized, validates too.
    let value_text = serde_json::to_vec(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let report = validate(&value_text, &options(Some(kind)));
    // KNOWN: serde_json's `Value` sorts keys, which puts a card's `data` first
    // (unless `corners` is there): a `data` holding `type` then makes layout
    // detection read the card as a wrapped Set (see `card_data_last`).
    let sorted_card_misread = kind == Kind::Card
        && value.get("corners").is_none()
        && value.pointer("/data/type").is_some();
    if !sorted_card_misread {
        prop_assert!(report.is_valid(), "{}", errors_text(&report));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn generated_templates_are_valid(doc in document(Kind::Template), style in style()) {
        check_valid::<Template>(Kind::Template, &doc, style)?;
    }

    #[test]
    fn generated_cards_are_valid(doc in document(Kind::Card), style in style()) {
        check_valid::<Card>(Kind::Card, &doc, style)?;
    }

    #[test]
    fn generated_sets_are_valid(doc in document(Kind::Set), style in style()) {
        check_valid::<Set>(Kind::Set, &doc, style)?;
    }

    #[test]
    fn generated_migrations_are_valid(doc in document(Kind::Migration), style in style()) {
        check_valid::<Migration>(Kind::Migration, &doc, style)?;
    }
}

// ---------------------------------------------------------------------------
// Property 2: mutations give exactly the expected errors

/// Where the mutated document goes in its file.
#[derive(Clone, Copy, Debug)]
enum Wrap {
    Bare,
    /// The second item of an array.
    Array,
    /// The second line of JSON Lines.
    Lines,
    /// `{"meta": …, "data": <Set>}`.
    Wrapped,
    /// `{"object": "list", "data": [<Migration>]}`.
    List,
}

fn wrap() -> impl Strategy<Value = Wrap> {
    prop::sample::select(vec![
        Wrap::Bare,
        Wrap::Bare,
        Wrap::Array,
        Wrap::Lines,
        Wrap::Wrapped,
        Wrap::List,
    ])
}

/// Applies the mutations chosen by `picks` (those whose scopes do not
/// overlap) and checks that the validator reports exactly their errors.
fn check_mutations(
    kind: Kind,
    doc: &Node,
    style: Style,
    wrap: Wrap,
    picks: &[(Index, Index)],
) -> Result<(), TestCaseError> {
    let mut all = Vec::new();
    mutations(doc, &mut Vec::new(), "", None, &mut all);
    prop_assert!(!all.is_empty(), "every document can be broken");
    let mut chosen = choose(&all, picks);
    // Deepest and last first, so that removals do not move the others.
    chosen.sort_by(|a, b| b.path.cmp(&a.path));
    let mut broken = doc.clone();
    for m in &chosen {
        apply(&mut broken, &m.path, &m.op);
    }

    let wrap = match (wrap, kind) {
        (Wrap::Wrapped, Kind::Set) | (Wrap::List, Kind::Migration) => wrap,
        (Wrap::Wrapped | Wrap::List, _) => Wrap::Array,
        _ => wrap,
    };
    let mut w = Writer {
        out: String::new(),
        style,
        offsets: None,
    };
    let (prefix, json_lines, line) = match wrap {
        Wrap::Bare => (String::new(), false, None),
        Wrap::Lines => {
            w.style = Style {
                newline: None,
                ..style
            };
            w.node(doc, &mut String::new(), 0);
            w.out.push('\n');
            (String::new(), true, Some(2))
        }
        Wrap::Array => {
            w.out.push('[');
            w.node(doc, &mut String::new(), 0);
            w.out.push_str(",\n");
            ("/1".to_owned(), false, None)
        }
        Wrap::Wrapped => {
            w.out
                .push_str("{\"meta\": {\"date\": \"2024-01-01\"},\n\"data\": ");
            ("/data".to_owned(), false, None)
        }
        Wrap::List => {
            w.out
                .push_str("{\"object\": \"list\", \"next_page\": null, \"data\": [");
            w.node(doc, &mut String::new(), 0);
            w.out.push_str(", ");
            ("/data/1".to_owned(), false, None)
        }
    };
    w.offsets = Some(HashMap::new());
    let mut pointer = prefix.clone();
    w.node(&broken, &mut pointer, 0);
    w.out.push_str(match wrap {
        Wrap::Bare | Wrap::Lines => "",
        Wrap::Array => "]",
        Wrap::Wrapped => "}",
        Wrap::List => "]}",
    });
    let offsets = w.offsets.take().expect("recorded");
    let text = w.out;

    let report = validate(
        text.as_bytes(),
        &Options {
            kind: Some(kind),
            json_lines,
            ..Options::default()
        },
    );
    let mut expected: Vec<(Code, String, usize, Option<String>)> = chosen
        .iter()
        .map(|m| {
            let at = format!("{prefix}{}", m.at);
            let offset = *offsets.get(&at).expect("the place was written");
            (
                m.code,
                format!("{prefix}{}", m.pointer),
                offset,
                m.field.clone(),
            )
        })
        .collect();
    let mut found = Vec::new();
    for document in &report.documents {
        for d in &document.diagnostics {
            prop_assert_eq!(&document.pointer, &prefix, "{}", errors_text(&report));
            prop_assert_eq!(document.kind, Some(kind));
            prop_assert_eq!(document.line, line);
            prop_assert_eq!(d.severity, Severity::Error, "{}", errors_text(&report));
            let (l, c) = line_column(&text, d.offset);
            prop_assert_eq!((d.line, d.column), (l, c), "{}", errors_text(&report));
            found.push((d.code, d.pointer.clone(), d.offset, d.field.clone()));
        }
    }
    expected.sort();
    found.sort();
    prop_assert_eq!(
        &found,
        &expected,
        "\nmutations: {:#?}\nreport:\n{}\ntext:\n{}",
        chosen,
        errors_text(&report),
        text
    );
    Ok(())
}

/// 1-based line and column (in characters) of a byte offset.
/// The 1-based line and column of `offset`; columns count characters, that
/// is the bytes that do not continue a UTF-8 sequence.
fn line_column(text: impl AsRef<[u8]>, offset: usize) -> (usize, usize) {
    let before = &text.as_ref()[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count();
    (line, column)
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn one_mutation_gives_exactly_its_error(
        (kind, doc) in any_document(),
        style in style(),
        wrap in wrap(),
        pick in any::<(Index, Index)>(),
    ) {
        check_mutations(kind, &doc, style, wrap, &[pick])?;
    }

    #[test]
    fn independent_mutations_give_exactly_their_errors(
        (kind, doc) in any_document(),
        style in style(),
        wrap in wrap(),
        picks in prop::collection::vec(any::<(Index, Index)>(), 2..6),
    ) {
        check_mutations(kind, &doc, style, wrap, &picks)?;
    }
}

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
