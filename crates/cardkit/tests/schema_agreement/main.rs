//! The exported JSON Schemas agree with cardkit's own validator.
//!
//! Each kind's schema (`cardkit::schema::json_schema`) is checked against the
//! Draft 2020-12 metaschema, then an independent validator (the `jsonschema`
//! crate, with format checking on; colors are the schema's own patterns,
//! no custom format) must give the same verdict (valid or invalid) as
//! `cardkit::validate` with the kind named, for which a document is valid
//! when it has no error-severity diagnostic. The verdicts are
//! compared on:
//!
//! 1. every case of `tests/conformance/`: each document cardkit reports is
//!    the sub-value at the document's pointer (of its line, for JSON Lines),
//!    checked against the schema of its kind;
//! 2. every file of `shared/corpus/neutral/`, the same way;
//! 3. generated documents of every kind and single-defect mutants of them
//!    (`support::generate`), from a fixed seed.
//!
//! Not compared, by rule: inputs that are not well-formed JSON (cardkit
//! reports `invalid_json`; a schema applies to JSON values), cases validated
//! with options other than the default (`deny-unknown-*` cases and cases with
//! a `.options` file: a schema has one verdict), and documents whose kind
//! cannot be told (no schema applies).
//!
//! Where a schema cannot say what cardkit says, the difference is named in
//! [`Difference`], listed in the book (`docs/fields-and-schema.md`), and the inputs it explains are
//! listed by name below; each listed input must really disagree, so the lists
//! cannot go stale, and every other input must agree.
//!
//! By default each kind gets 256 generated documents and 40 single-defect
//! mutants of each: 10,496 verdicts per kind, in about 20 seconds for Sets
//! in a debug build. Longer runs, by hand (10,000 documents and 400,000
//! mutants per kind):
//!
//! ```sh
//! CARDKIT_SCHEMA_CASES=10000 cargo test --release -p cardkit --test schema_agreement
//! CARDKIT_PROPTEST_SEED=7 cargo test -p cardkit --test schema_agreement   # another seed
//! ```

#[path = "../support/mod.rs"]
mod support;

use std::path::Path;
use std::sync::LazyLock;

use cardkit::schema::json_schema::{
    json_schema, json_schema_named, json_schema_with, SchemaOptions,
};
use cardkit::schema::Names;
use cardkit::validate::{validate, DocumentReport, FileReport, Options};
use cardkit::Code;
use cardkit::Kind;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestCaseError};
use serde::Deserialize;
use serde_json::Value;

use support::generate::{apply, choose, document, mutations, style, write, Mutation, Node, Op, J};

// ---------------------------------------------------------------------------
// Known differences

mod generated;

/// A rule that cardkit applies and a JSON Schema cannot express.
#[derive(Debug, PartialEq, Eq)]
enum Difference {
    /// cardkit stops at a documented nesting depth (`too_deep`); a schema
    /// has no depth limit.
    DepthLimit,
    /// cardkit judges an integer on its exact decimal digits; the schema
    /// validator sees the binary64 float that JSON parsers read a number
    /// literal as, when it is not a plain 64-bit integer. A literal beyond
    /// the 64-bit range, or with a fraction too small for binary64, that
    /// rounds to an in-range integer (`-9223372036854775809`), is valid to
    /// the schema; an in-range integer written with a fraction or exponent
    /// that rounds beyond it (`18446744073709551615.0`) is not.
    IntegerRounding,
}

/// Conformance cases whose verdicts differ, and why.
const CONFORMANCE_DIFFERENCES: &[(&str, Difference)] = &[
    ("card/integer-below-i64-min", Difference::IntegerRounding),
    ("card/nested-groups-550-too-deep", Difference::DepthLimit),
    (
        "template/license-nested-1101-levels-too-deep",
        Difference::DepthLimit,
    ),
    (
        "template/license-nested-1200-levels-too-deep",
        Difference::DepthLimit,
    ),
];

/// Whether a mutation is explained by a known difference.
fn mutation_difference(mutation: &Mutation) -> Option<Difference> {
    match &mutation.op {
        Op::Replace(J::Num(literal)) if rounds_across(literal) => Some(Difference::IntegerRounding),
        _ => None,
    }
}

/// Whether a number literal is an integer within the 64-bit range on its
/// exact digits, but not as the binary64 float that a JSON parser reads it as
/// (or the other way around). Plain integers that fit 64 bits are read
/// exactly.
fn rounds_across(literal: &str) -> bool {
    if literal.parse::<i64>().is_ok() || literal.parse::<u64>().is_ok() {
        return false;
    }
    let Ok(float) = literal.parse::<f64>() else {
        return false;
    };
    // -2^63 and 2^64 are exact as floats.
    #[allow(clippy::cast_precision_loss)]
    let as_float = float.fract() == 0.0 && float >= i64::MIN as f64 && float < 2f64.powi(64);
    as_float != exact_integer_in_range(literal)
}

/// Whether a JSON number literal is exactly an integer in [-2^63, 2^64 - 1].
fn exact_integer_in_range(literal: &str) -> bool {
    let negative = literal.starts_with('-');
    let unsigned = literal.trim_start_matches('-');
    let (mantissa, exponent) = unsigned
        .split_once(['e', 'E'])
        .map_or((unsigned, 0), |(m, e)| {
            (
                m,
                e.trim_start_matches('+').parse::<i64>().unwrap_or(i64::MAX),
            )
        });
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let significant = digits.trim_end_matches('0');
    if significant.is_empty() {
        return true;
    }
    #[allow(clippy::cast_possible_wrap)]
    let scale = exponent - fraction.len() as i64 + (digits.len() - significant.len()) as i64;
    if scale < 0 || significant.len() as i64 + scale > 20 {
        return false;
    }
    let magnitude = significant
        .parse::<u128>()
        .ok()
        .and_then(|m| m.checked_mul(10u128.checked_pow(u32::try_from(scale).ok()?)?));
    let limit = if negative {
        1u128 << 63
    } else {
        u128::from(u64::MAX)
    };
    magnitude.is_some_and(|m| m <= limit)
}

// ---------------------------------------------------------------------------
// The two validators

/// One compiled schema per kind, in the order of `Kind::ALL`, under each
/// of the names a document can be read under (`Names::FIXED`).
static VALIDATORS: LazyLock<Vec<Vec<jsonschema::Validator>>> = LazyLock::new(|| {
    Names::FIXED
        .iter()
        .map(|&names| {
            Kind::ALL
                .iter()
                .map(|&kind| {
                    jsonschema::options()
                        .should_validate_formats(true)
                        .build(&json_schema_named(kind, names))
                        .unwrap_or_else(|e| panic!("the {kind} schema does not compile: {e}"))
                })
                .collect()
        })
        .collect()
});

fn schema_validator(kind: Kind, names: Names) -> &'static jsonschema::Validator {
    let index = Kind::ALL.iter().position(|&k| k == kind).expect("a kind");
    let names = Names::FIXED
        .iter()
        .position(|&n| n == names.written())
        .expect("names");
    &VALIDATORS[names][index]
}

/// What the schema says, and why not when it says no: the schema of the
/// names the document was read under.
fn schema_verdict(kind: Kind, names: Names, value: &Value) -> (bool, String) {
    let validator = schema_validator(kind, names);
    if validator.is_valid(value) {
        return (true, String::new());
    }
    let errors: Vec<String> = validator
        .iter_errors(value)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    (false, errors.join("\n"))
}

fn cardkit_errors(document: &DocumentReport) -> String {
    let lines: Vec<String> = document
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {} {}: {}",
                d.severity.as_str(),
                d.code,
                d.pointer,
                d.message()
            )
        })
        .collect();
    lines.join("\n")
}

/// Reads JSON without serde_json's nesting limit (deep layer trees are
/// valid documents), after a byte order mark as cardkit allows it.
fn parse(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    reader.disable_recursion_limit();
    let value = Value::deserialize(&mut reader)?;
    reader.end()?;
    Ok(value)
}

/// Runs `f` on a thread with a stack deep enough for documents nested
/// beyond a thousand levels, in debug builds.
fn with_deep_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(f)
        .expect("a thread")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// A document whose verdicts differ.
struct Disagreement {
    pointer: String,
    cardkit_valid: bool,
    details: String,
}

/// Compares the verdicts on every document of a file that cardkit could
/// read. `None` when the file is no well-formed JSON.
fn compare_file(bytes: &[u8], report: &FileReport) -> Option<Vec<Disagreement>> {
    let malformed = report
        .documents
        .iter()
        .any(|d| d.diagnostics.iter().any(|x| x.code == Code::InvalidJson));
    if malformed {
        return None;
    }
    let whole = report.documents.iter().all(|d| d.line.is_none());
    let root = whole.then(|| {
        parse(bytes).unwrap_or_else(|e| panic!("cardkit read what serde_json refuses: {e}"))
    });
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let container_has_duplicates = report
        .documents
        .iter()
        .any(|d| d.kind.is_none() && d.diagnostics.iter().any(|x| x.code == Code::DuplicateKey));
    let mut disagreements = Vec::new();
    for document in &report.documents {
        let Some(kind) = document.kind else {
            continue;
        };
        let line_value;
        let value = match (document.line, &root) {
            (Some(line), _) => {
                line_value = parse(lines[line - 1]).expect("a well-formed line");
                &line_value
            }
            (None, Some(root)) => root,
            (None, None) => unreachable!("documents of JSON Lines have lines"),
        };
        // A document that a later duplicate member of its container replaced
        // is not in serde_json's value, which keeps the last.
        let Some(value) = value.pointer(&document.pointer) else {
            assert!(
                container_has_duplicates,
                "the document is where cardkit says: {}",
                document.pointer
            );
            continue;
        };
        let (schema_valid, why) = schema_verdict(kind, document.names, value);
        if schema_valid != document.is_valid() {
            disagreements.push(Disagreement {
                pointer: document.pointer.clone(),
                cardkit_valid: document.is_valid(),
                details: format!(
                    "{kind}: cardkit says {}, the schema {}\ncardkit:\n{}\nschema:\n{why}",
                    verdict(document.is_valid()),
                    verdict(schema_valid),
                    cardkit_errors(document)
                ),
            });
        }
    }
    Some(disagreements)
}

fn verdict(valid: bool) -> &'static str {
    if valid {
        "valid"
    } else {
        "invalid"
    }
}

// ---------------------------------------------------------------------------
// The schemas themselves

#[test]
fn every_schema_is_valid_draft_2020_12() {
    for &kind in Kind::ALL {
        let schema = json_schema(kind);
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        if let Err(error) = jsonschema::meta::validate(&schema) {
            panic!("the {kind} schema is not a valid 2020-12 schema: {error}");
        }
        // The validator takes the schema's own dialect.
        assert_eq!(
            jsonschema::meta::validator_for(&schema).map(|_| ()).ok(),
            Some(())
        );
    }
}

#[test]
fn the_top_level_must_be_an_object() {
    for &kind in Kind::ALL {
        for value in [
            serde_json::json!([]),
            serde_json::json!("x"),
            serde_json::json!(1),
            Value::Null,
        ] {
            assert!(
                !schema_validator(kind, Names::Spec).is_valid(&value),
                "{kind}: {value}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 1. The conformance cases

#[test]
fn conformance_cases_agree() {
    with_deep_stack(conformance_cases);
}

fn conformance_cases() {
    let cases = support::cases::all();
    let (mut compared, mut failures) = (0, Vec::new());
    let mut explained: Vec<&str> = Vec::new();
    for case in &cases {
        // A schema has one verdict: only the default checks are compared.
        if !case.has_default_checks() {
            continue;
        }
        let name = case.name.as_str();
        let report = validate(&case.input, &case.options);
        let Some(disagreements) = compare_file(&case.input, &report) else {
            continue;
        };
        compared += 1;
        let known = CONFORMANCE_DIFFERENCES
            .iter()
            .find(|(case, _)| *case == name)
            .map(|(case, difference)| (*case, difference));
        match (known, disagreements.is_empty()) {
            (None, true) => {}
            (Some((case, _)), false) => explained.push(case),
            (Some((case, difference)), true) => failures.push(format!(
                "{case}: listed as a known difference ({difference:?}), but the verdicts agree"
            )),
            (None, false) => {
                for d in disagreements {
                    failures.push(format!("{name} {}:\n{}", d.pointer, d.details));
                }
            }
        }
    }
    assert!(compared >= 150, "only {compared} cases compared");
    assert_eq!(explained.len(), CONFORMANCE_DIFFERENCES.len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

// ---------------------------------------------------------------------------
// 2. The real corpus

#[test]
fn corpus_files_agree() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    with_deep_stack(move || corpus(&shared.join("corpus/neutral")));
}

fn corpus(root: &Path) {
    let files = support::json_files(root);
    assert!(files.len() >= 40, "only {} corpus files", files.len());
    let mut failures = Vec::new();
    let mut documents = 0;
    for path in &files {
        let bytes = std::fs::read(path).expect("a corpus file");
        let report = validate(&bytes, &Options::default());
        documents += report.documents.len();
        let disagreements = compare_file(&bytes, &report)
            .unwrap_or_else(|| panic!("{}: not well-formed", path.display()));
        for d in disagreements {
            failures.push(format!(
                "{} {} (cardkit: {}):\n{}",
                relative(root, path),
                d.pointer,
                verdict(d.cardkit_valid),
                d.details
            ));
        }
    }
    assert!(documents >= files.len());
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

/// Each corpus file whole, against the schema of its kind in its container
/// (`--container`), as of no version, the first, one between and the last
/// (`--as-of`): the verdict of `cardkit validate --as-of` on the file.
#[test]
fn corpus_files_agree_in_their_containers_as_of_versions() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    with_deep_stack(move || containers_and_versions(&shared.join("corpus/neutral")));
}

fn containers_and_versions(root: &Path) {
    let roots: Vec<_> = Kind::ALL.iter().map(|k| k.model()).collect();
    let tags = cardkit::schema::versions(&roots);
    let as_ofs = [
        None,
        Some(tags[0]),
        Some(tags[tags.len() / 2]),
        Some(tags[tags.len() - 1]),
    ];
    let (mut compared, mut valid_as_of_only, mut failures) = (0, 0, Vec::new());
    let mut containers = std::collections::BTreeSet::new();
    for path in support::json_files(root) {
        let bytes = std::fs::read(&path).expect("a corpus file");
        let Ok(value) = parse(&bytes) else {
            continue;
        };
        let mut latest_valid = None;
        for as_of in as_ofs {
            let options = Options {
                as_of,
                ..Options::default()
            };
            let report = validate(&bytes, &options);
            let kinds: Vec<Option<Kind>> = report.documents.iter().map(|d| d.kind).collect();
            let Some(Some(kind)) = kinds.first().copied() else {
                continue;
            };
            if kinds.iter().any(|k| *k != Some(kind)) {
                continue;
            }
            containers.insert(report.layout.as_str());
            let schema = json_schema_with(
                kind,
                &SchemaOptions {
                    container: report.layout,
                    as_of,
                    ..SchemaOptions::default()
                },
            );
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&schema)
                .unwrap_or_else(|e| panic!("the schema does not compile: {e}"));
            compared += 1;
            let latest = *latest_valid.get_or_insert(report.is_valid());
            if report.is_valid() && !latest {
                valid_as_of_only += 1;
            }
            if validator.is_valid(&value) != report.is_valid() {
                let why: Vec<String> = validator
                    .iter_errors(&value)
                    .take(3)
                    .map(|e| format!("{e} at {}", e.instance_path()))
                    .collect();
                failures.push(format!(
                    "{} as of {as_of:?} ({}): cardkit says {}\n{}",
                    relative(root, &path),
                    report.layout.as_str(),
                    verdict(report.is_valid()),
                    why.join("\n")
                ));
            }
        }
    }
    assert!(compared >= 150, "only {compared} verdicts compared");
    // Containers other than the bare document are among them.
    assert!(containers.len() >= 3, "{containers:?}");
    eprintln!("{valid_as_of_only} verdicts valid only as of an older version");
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn integer_rounding_is_told_exactly() {
    for across in [
        "-9223372036854775809",
        "18446744073709551615.0",
        "5.0000000000000000001",
        "1.8446744073709551615e19",
    ] {
        assert!(rounds_across(across), "{across}");
    }
    for same in [
        "18446744073709551616",
        "-9223372036854775808",
        "1e20",
        "1e2",
        "5.0",
        "50E-1",
        "5.5",
        "-0",
        "1.8446744073709551616e19",
    ] {
        assert!(!rounds_across(same), "{same}");
    }
}

/// The literals the book names for the integer difference really differ,
/// and their neighbours do not.
#[test]
fn integer_rounding_differences_are_real() {
    let verdicts = |literal: &str| {
        let text = format!(r#"{{"name": "x", "width": {literal}, "height": 1}}"#);
        let difference = compare_text(Kind::Card, &text).expect("one document");
        difference.map(|d| d.cardkit_valid)
    };
    assert_eq!(verdicts("-9223372036854775809"), Some(false));
    assert_eq!(verdicts("5.0000000000000000001"), Some(false));
    assert_eq!(verdicts("18446744073709551615.0"), Some(true));
    for same in [
        "-9223372036854775808",
        "18446744073709551615",
        "1e2",
        "5.5",
        "1e20",
    ] {
        assert!(verdicts(same).is_none(), "{same}");
        assert!(!rounds_across(same), "{same}");
    }
}

/// The verdicts on one text of `kind`, which cardkit validates as one
/// document.
fn compare_text(kind: Kind, text: &str) -> Result<Option<Disagreement>, TestCaseError> {
    let options = Options {
        kind: Some(kind),
        ..Options::default()
    };
    let report = validate(text.as_bytes(), &options);
    prop_assert_eq!(report.documents.len(), 1);
    let disagreements = compare_file(text.as_bytes(), &report)
        .ok_or_else(|| TestCaseError::fail(format!("not well-formed:\n{text}")))?;
    Ok(disagreements.into_iter().next())
}
