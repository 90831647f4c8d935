//! The conformance suite: every case under `tests/conformance/` is an input
//! file and the report expected for it, run by this one test.
//!
//! Layout: `tests/conformance/<kind>/<case>.json` (or `.jsonl`) with
//! `<case>.expected` beside it. `<kind>` is `auto`, `template`, `card`, `set`
//! or `migration`: the `--kind` the case is validated with. A case whose name
//! starts with `deny-unknown-` is validated with unknown fields denied; a
//! `<case>.options` file beside it sets other options (see `read_options`).
//!
//! The expected report has one line per document, then one per diagnostic:
//!
//! ```text
//! document /data set invalid
//!   error missing_field /data/cards/0/uuid 3:7 CardSet.uuid | missing required field `uuid` of CardSet
//! ```
//!
//! To write the expected files after a deliberate change, run with
//! `CARDKIT_BLESS=1` and review the diff.

mod support;

use std::fmt::Write as _;
use std::path::Path;

use cardkit::{validate, FileReport, Kind, Options};

#[test]
fn conformance_cases() {
    let root = support::conformance_dir();
    let bless = std::env::var_os("CARDKIT_BLESS").is_some();
    let cases = support::json_files(&root);
    assert!(
        cases.len() >= 50,
        "only {} conformance cases found",
        cases.len()
    );

    let mut failures = Vec::new();
    for input in &cases {
        let kind_dir = input
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str());
        let kind = match kind_dir {
            Some("auto") => None,
            Some(name) => Some(name.parse::<Kind>().unwrap_or_else(|e| panic!("{e}"))),
            None => unreachable!(),
        };
        let name = input
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let mut options = Options {
            kind,
            deny_unknown_fields: name.starts_with("deny-unknown-"),
            json_lines: name.ends_with(".jsonl"),
            ..Options::default()
        };
        if let Ok(extra) = std::fs::read_to_string(input.with_extension("options")) {
            read_options(&extra, &mut options);
        }
        let bytes = std::fs::read(input).expect("case input");
        let actual = render(&validate(&bytes, &options));
        let expected_path = input.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &actual).expect("write expected");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                input.strip_prefix(&root).unwrap_or(input).display()
            )),
            Err(_) => failures.push(format!("{}: no .expected file", input.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The options of a `<case>.options` file: one per line, `as_of = vX.Y.Z`,
/// `strict_version`, `warn_deprecated` or `deny_unknown_fields`.
fn read_options(text: &str, options: &mut Options) {
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
            Some(("as_of", version)) => {
                options.as_of = Some(version.parse().expect("a version tag"));
            }
            None if line == "strict_version" => options.strict_version = true,
            None if line == "warn_deprecated" => options.warn_deprecated = true,
            None if line == "deny_unknown_fields" => options.deny_unknown_fields = true,
            _ => panic!("unknown option line {line:?}"),
        }
    }
}

/// The report in the expected-file form.
fn render(report: &FileReport) -> String {
    let mut text = String::new();
    for document in &report.documents {
        let kind = document.kind.map_or("none", Kind::as_str);
        let verdict = if document.is_valid() {
            "valid"
        } else {
            "invalid"
        };
        let line = document
            .line
            .map(|l| format!(" line {l}"))
            .unwrap_or_default();
        let pointer = if document.pointer.is_empty() {
            "\"\""
        } else {
            &document.pointer
        };
        let _ = writeln!(text, "document {pointer}{line} {kind} {verdict}");
        for d in &document.diagnostics {
            let pointer = if d.pointer.is_empty() {
                "\"\""
            } else {
                &d.pointer
            };
            let field = d
                .field
                .as_deref()
                .map(|f| format!(" {f}"))
                .unwrap_or_default();
            let _ = writeln!(
                text,
                "  {} {} {pointer} {}:{}{field} | {}",
                d.severity.as_str(),
                d.code,
                d.line,
                d.column,
                d.message()
            );
        }
    }
    text
}
