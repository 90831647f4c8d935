//! `explain` takes what reports give: every diagnostic's pointer (from the
//! file's root) and `Model.field` on the real corpus and the bundled
//! examples resolve for the document's kind, or for an unknown member name
//! the nearest known one; and every code has an explanation whose example
//! gives that code.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use cardkit::references::check_slice;
use cardkit::schema::fields::escape_token;
use cardkit::schema::Names;
use cardkit::validate;
use cardkit::Code;
use cardkit::Diagnostic;
use cardkit::Kind;
use cardkit::Options;
use cardkit_run::codes::explain_code;
use cardkit_run::explain::explain_named;

#[test]
fn every_code_has_an_explanation_whose_example_gives_it() {
    for &code in Code::ALL {
        let explanation = cardkit_run::codes::explanation(code);
        assert!(!explanation.meaning.is_empty(), "{code}: no meaning");
        assert!(!explanation.fix.is_empty(), "{code}: no fix");
        let example = &explanation.example;
        // The import's own codes: only importing the example gives them,
        // and their diagnostics are the import's, as recorded (checked
        // against the import by cardkit-design's tests).
        assert_eq!(example.imported, code.is_import(), "{code}");
        if code.is_import() {
            let diagnostics = explain_code(code).diagnostics;
            assert!(!diagnostics.is_empty(), "{code}");
            assert!(diagnostics.iter().all(|d| d.code == code), "{code}");
            assert!(example.command().starts_with("cardkit import "), "{code}");
            continue;
        }
        assert_eq!(example.references, code.is_reference(), "{code}");
        let report = validate(example.document.as_bytes(), &example.options());
        let mut codes: BTreeSet<Code> = report
            .documents
            .iter()
            .flat_map(|document| &document.diagnostics)
            .map(|diagnostic| diagnostic.code)
            .collect();
        if code.is_reference() {
            // A valid document, whose references alone break a rule.
            assert_eq!(codes, BTreeSet::new(), "{code}: validating the example");
            let outcome = check_slice(
                example.document.as_bytes(),
                &example.options(),
                cardkit::Severity::Warning,
            );
            codes = outcome
                .reports
                .iter()
                .flat_map(|(_, report, _)| &report.diagnostics)
                .map(|diagnostic| diagnostic.code)
                .collect();
        }
        // The example shows that code, and nothing else to distract.
        assert_eq!(
            codes,
            BTreeSet::from([code]),
            "{code}: `{}` gives {codes:?}",
            example.command()
        );
        let explained = explain_code(code);
        assert!(!explained.diagnostics.is_empty(), "{code}");
        let text = explained.text();
        assert!(
            text.contains(&format!("[{code}]: ")),
            "{code}: the diagnostic is not shown:\n{text}"
        );
        assert!(text.contains(&example.command()), "{code}:\n{text}");
    }
}

#[test]
fn every_pointer_and_field_of_the_examples_explains() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let checked = check_files(&support::json_files(&examples));
    assert!(checked > 30, "only {checked} diagnostics checked");
}

#[test]
fn every_pointer_and_field_of_the_corpus_explains() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let checked = check_files(&support::json_files(&shared.join("corpus")));
    assert!(checked > 100, "only {checked} diagnostics checked");
}

/// Checks the diagnostics of every file; returns how many were checked
/// (one of each code, kind, field and pointer pattern).
fn check_files(files: &[PathBuf]) -> usize {
    let mut seen = BTreeSet::new();
    let mut failures = Vec::new();
    for path in files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let options = Options {
            json_lines: path.extension().is_some_and(|e| e == "jsonl"),
            ..Options::default()
        };
        for document in validate(&bytes, &options).documents {
            // Problems outside any document have no kind to explain them in.
            let Some(kind) = document.kind else {
                continue;
            };
            for diagnostic in &document.diagnostics {
                let key = (
                    kind.as_str(),
                    diagnostic.code,
                    diagnostic.field.clone(),
                    pattern(&diagnostic.pointer),
                );
                if seen.insert(key) {
                    // Under the names the document was read under.
                    if let Err(why) = check(kind, document.names, diagnostic) {
                        failures.push(format!("{}: {why}", path.display()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    seen.len()
}

/// A pointer with its indexes as `*`, to check one of each pattern.
fn pattern(pointer: &str) -> String {
    pointer
        .split('/')
        .map(|token| {
            if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                token
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The diagnostic's pointer and field explain for `kind`; an unknown
/// member's name the nearest known one, as the diagnostic suggests it.
fn check(kind: Kind, names: Names, diagnostic: &Diagnostic) -> Result<(), String> {
    let unknown = diagnostic.code == Code::UnknownField;
    let suggestion = diagnostic.detail.suggestion();
    let pointer = &diagnostic.pointer;
    let said = |what: &str| format!("{kind} {} {what}", diagnostic.code);
    match (explain_named(kind, pointer, names), unknown) {
        (Ok(_), false) => {}
        (Err(error), false) => return Err(said(&format!("`{pointer}`: {error}"))),
        // A member of another branch of a union (a text's `x` in a group).
        (Ok(explained), true) => {
            let model = diagnostic.field.as_deref().and_then(|f| f.split_once('.'));
            let model = model.map(|(model, _)| model);
            if explained
                .places
                .iter()
                .any(|p| p.row.as_ref().map(|r| r.model) == model)
            {
                return Err(said(&format!("`{pointer}` explains as its own model")));
            }
        }
        (Err(error), true) => {
            if let Some(suggestion) = suggestion {
                let ends = format!("/{}", escape_token(suggestion));
                let nearest = error.nearest.as_deref().unwrap_or_default();
                if !nearest.ends_with(&ends) || !error.to_string().contains(nearest) {
                    return Err(said(&format!("`{pointer}` suggests {nearest:?}: {error}")));
                }
            }
        }
    }
    let Some(field) = &diagnostic.field else {
        return Ok(());
    };
    match (explain_named(kind, field, names), unknown) {
        (Ok(_), false) => Ok(()),
        (Err(error), false) => Err(said(&format!("`{field}`: {error}"))),
        (Ok(_), true) => Err(said(&format!("`{field}` explains"))),
        (Err(error), true) => {
            let (model, _) = field.split_once('.').unwrap_or_default();
            match suggestion {
                Some(suggestion)
                    if error.nearest.as_deref() != Some(&format!("{model}.{suggestion}")) =>
                {
                    Err(said(&format!("`{field}` suggests {:?}", error.nearest)))
                }
                _ => Ok(()),
            }
        }
    }
}
