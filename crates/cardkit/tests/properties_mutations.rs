//! Property tests of the validator, two of three (with
//! `properties_valid.rs` and `properties_no_panic.rs`): mutations.
//!
//! One (or several independent) mutations of a valid
//! document — a required member dropped, a value of the wrong JSON type,
//! `null` where it is not allowed, a broken format, an enumeration or
//! constant value out of its list, an integer out of range, a union tag
//! that names no shape — give exactly the expected errors: code, JSON
//! Pointer, byte offset, line and column, and `Model.field`.
//!
//! The runs are deterministic (fixed seed); `support/properties.rs` says how
//! to run longer ones.

use std::collections::HashMap;

use cardkit::validate::{validate, Options};
use cardkit::Code;
use cardkit::Kind;
use cardkit::Severity;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::TestCaseError;

mod support;

use support::generate::*;
use support::properties::{config, errors_text, line_column};

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
