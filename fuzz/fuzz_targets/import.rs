//! `cardkit import` on bytes: as they are, inside a classic save file's
//! entry (`[{"key": …, "data": BYTES}]`), and as a layered template's image
//! sets and card (`{"metadata": …, "context": {"imageSets": BYTES}, …}`),
//! read as each format (`--from auto|layered|classic`). The import never
//! panics; the documents it writes are at most a constant times the input
//! (compact JSON); each validates as its kind; and a document of the input
//! that is not written has an error in the report saying why.
#![no_main]

use cardkit::{Options, Severity};
use cardkit_design::import::{import, From, ImportOptions};
use libfuzzer_sys::fuzz_target;

/// The most bytes of compact output per byte of input, and beyond it: a
/// classic entry of 11 bytes makes a card of about 80, a text of 8 bytes a
/// layer of about 150 (every default written).
const OUTPUT_PER_INPUT: usize = 64;
const OUTPUT_BASE: usize = 4096;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let input = match mode % 3 {
        0 => rest.to_vec(),
        1 => [br#"[{"key": "K", "data": "#.as_slice(), rest, b"}]"].concat(),
        _ => [
            br#"{"metadata": {"name": "T"}, "context": {"imageSets": "#.as_slice(),
            rest,
            br#"}, "card": {"name": "C", "width": 10, "height": 10}}"#,
        ]
        .concat(),
    };
    for from in [From::Auto, From::Layered, From::Classic] {
        let options = ImportOptions {
            from,
            ..ImportOptions::default()
        };
        let imported = import(&input, &options);
        let mut written = 0;
        for document in &imported.documents {
            let line = document.to_json_line();
            written += line.len();
            let report = cardkit::validate(
                line.as_bytes(),
                &Options {
                    kind: Some(document.kind),
                    ..Options::default()
                },
            );
            assert!(
                report.is_valid(),
                "the import wrote an invalid {:?} at {:?}: {:?}",
                document.kind,
                document.pointer,
                report
                    .documents
                    .iter()
                    .flat_map(|d| &d.diagnostics)
                    .filter(|d| d.severity == Severity::Error)
                    .map(|d| (d.code, d.pointer.clone()))
                    .collect::<Vec<_>>()
            );
        }
        assert!(
            written <= OUTPUT_PER_INPUT * input.len() + OUTPUT_BASE,
            "{written} bytes written from {}",
            input.len()
        );
        for report in &imported.report.documents {
            let has_error = report
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error);
            let made = imported
                .documents
                .iter()
                .any(|document| document.pointer == report.pointer);
            assert!(
                made || has_error,
                "the document at {:?} was neither written nor reported",
                report.pointer
            );
        }
    }
});
