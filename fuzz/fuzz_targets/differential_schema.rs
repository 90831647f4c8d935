//! On well-formed JSON from the structured generator, cardkit's verdict for
//! each kind equals the exported JSON Schema's, checked by the `jsonschema`
//! crate, where the input is one bare document and no known difference
//! applies.
#![no_main]

use std::sync::LazyLock;

use cardkit::schema::json_schema::json_schema;
use cardkit::validate::{validate, Layout, Options};
use cardkit::Code;
use cardkit::Kind;
use cardkit_fuzz::{with_deep_stack, Json};
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use serde_json::Value;

/// One compiled schema per kind, in the order of `Kind::ALL`, built as
/// `crates/cardkit/tests/schema_agreement/` builds them.
static VALIDATORS: LazyLock<Vec<jsonschema::Validator>> = LazyLock::new(|| {
    Kind::ALL
        .iter()
        .map(|&kind| {
            jsonschema::options()
                .should_validate_formats(true)
                .with_format("color", cardkit::schema::format::is_color)
                .build(&json_schema(kind))
                .unwrap_or_else(|e| panic!("the {kind} schema does not compile: {e}"))
        })
        .collect()
});

/// Reads JSON without serde_json's nesting limit, after a byte order mark
/// as cardkit allows it.
fn parse(bytes: &[u8]) -> Value {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    reader.disable_recursion_limit();
    let value = Value::deserialize(serde_stacker::Deserializer::new(&mut reader))
        .expect("generated JSON is well-formed");
    reader.end().expect("generated JSON is well-formed");
    value
}

fuzz_target!(|json: Json| {
    // Known difference: integers beyond i64/u64 and floats with huge
    // exponents are read as binary64 by the schema validator and on their
    // exact digits by cardkit. Inputs with a number of more than 15
    // significant digits or with an exponent are not compared.
    if json.wide_numbers {
        return;
    }
    let bytes = json.text.as_bytes();
    with_deep_stack(|| {
        let mut value = None;
        for (index, &kind) in Kind::ALL.iter().enumerate() {
            let options = Options {
                kind: Some(kind),
                ..Options::default()
            };
            let report = validate(bytes, &options);
            // One bare document at the root: the schema applies to the
            // whole value.
            if report.layout != Layout::Bare
                || report.documents.len() != 1
                || !report.documents[0].pointer.is_empty()
            {
                continue;
            }
            let document = &report.documents[0];
            // Known differences: nesting beyond MAX_DEPTH (too_deep), exact
            // integer range (out_of_range) and duplicate keys (cardkit keeps
            // the last and says so; the schema sees only the last).
            if document.diagnostics.iter().any(|d| {
                matches!(d.code, Code::TooDeep | Code::OutOfRange | Code::DuplicateKey)
            }) {
                continue;
            }
            let value = value.get_or_insert_with(|| parse(bytes));
            let schema_valid = VALIDATORS[index].is_valid(value);
            if schema_valid != document.is_valid() {
                let errors: Vec<String> = VALIDATORS[index]
                    .iter_errors(value)
                    .take(5)
                    .map(|e| format!("{} at {}", e, e.instance_path()))
                    .collect();
                let cardkit: Vec<String> = document
                    .diagnostics
                    .iter()
                    .map(|d| format!("{} {} {}: {}", d.severity.as_str(), d.code, d.pointer, d.message()))
                    .collect();
                panic!(
                    "{kind}: cardkit valid {}, schema valid {schema_valid}\ninput: {}\ncardkit:\n{}\nschema:\n{}",
                    document.is_valid(),
                    json.text,
                    cardkit.join("\n"),
                    errors.join("\n")
                );
            }
        }
    });
});
