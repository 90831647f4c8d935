//! The import's own codes (`dropped_member`, `derived_value`,
//! `unknown_text_code`, `not_convertible`): each has an explanation whose
//! example, imported, gives that code and nothing else, as `cardkit explain
//! CODE` shows it.

use std::collections::BTreeSet;

use cardkit::Code;
use cardkit_design::import::{explain_code, import, ImportOptions};

#[test]
fn every_import_code_has_an_example_whose_import_gives_it() {
    let codes: Vec<Code> = Code::ALL
        .iter()
        .copied()
        .filter(|code| code.is_import())
        .collect();
    assert_eq!(codes.len(), 4);
    for code in codes {
        let explanation = cardkit_run::codes::explanation(code);
        let example = &explanation.example;
        assert!(example.imported, "{code}");
        let imported = import(example.document.as_bytes(), &ImportOptions::default());
        let found: BTreeSet<Code> = imported
            .report
            .documents
            .iter()
            .flat_map(|document| &document.diagnostics)
            .map(|diagnostic| diagnostic.code)
            .collect();
        assert_eq!(
            found,
            BTreeSet::from([code]),
            "{code}: `{}`",
            example.command()
        );
        let explained = explain_code(code);
        assert!(!explained.diagnostics.is_empty(), "{code}");
        let text = explained.text();
        assert!(text.contains(&format!("[{code}]: ")), "{code}:\n{text}");
        assert!(
            text.contains("cardkit import example.json"),
            "{code}:\n{text}"
        );
    }
}

#[test]
fn the_other_codes_are_explained_as_the_library_explains_them() {
    let explained = explain_code(Code::MissingField);
    assert_eq!(
        explained.diagnostics,
        cardkit_run::codes::explain_code(Code::MissingField).diagnostics
    );
}
