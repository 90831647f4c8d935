//! The import's own codes (`dropped_member`, `derived_value`,
//! `unknown_text_code`, `not_convertible`): each has an explanation whose
//! example, imported, gives that code and nothing else; and `cardkit
//! explain CODE` (every door's, from `cardkit-run`'s record) shows exactly
//! the diagnostics importing the example gives.

use std::collections::BTreeSet;

use cardkit::{Code, Diagnostic};
use cardkit_design::import::{import, ImportOptions};
use cardkit_run::codes::explain_code;

fn import_codes() -> Vec<Code> {
    Code::ALL
        .iter()
        .copied()
        .filter(|code| code.is_import())
        .collect()
}

/// The diagnostics importing `code`'s example gives.
fn imported(code: Code) -> Vec<Diagnostic> {
    let explanation = cardkit_run::codes::explanation(code);
    import(
        explanation.example.document.as_bytes(),
        &ImportOptions::default(),
    )
    .report
    .documents
    .into_iter()
    .flat_map(|document| document.diagnostics)
    .collect()
}

#[test]
fn every_import_code_has_an_example_whose_import_gives_it() {
    let codes = import_codes();
    assert_eq!(codes.len(), 4);
    for code in codes {
        let example = &cardkit_run::codes::explanation(code).example;
        assert!(example.imported, "{code}");
        let found: BTreeSet<Code> = imported(code).iter().map(|d| d.code).collect();
        assert_eq!(
            found,
            BTreeSet::from([code]),
            "{code}: `{}`",
            example.command()
        );
        let text = explain_code(code).text();
        assert!(text.contains(&format!("[{code}]: ")), "{code}:\n{text}");
        assert!(
            text.contains("cardkit import example.json"),
            "{code}:\n{text}"
        );
    }
}

/// The record in `cardkit-run` (`codes/imported.rs`) is what the import
/// gives: on a change of the import or an example, the message shows what
/// to record.
#[test]
fn the_recorded_diagnostics_are_what_importing_gives() {
    for code in import_codes() {
        let imported = imported(code);
        let recorded = explain_code(code).diagnostics;
        let record: Vec<String> = imported
            .iter()
            .map(|d| {
                format!(
                    "pointer: {:?}, field: {:?}, offset: {}, detail: {:?}",
                    d.pointer, d.field, d.offset, d.detail
                )
            })
            .collect();
        assert_eq!(
            recorded,
            imported,
            "{code}: record in cardkit-run's codes/imported.rs:\n{}",
            record.join("\n")
        );
    }
}
