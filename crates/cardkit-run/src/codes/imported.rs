//! What `cardkit import` reports on the example of each of its own codes,
//! recorded here, where every door reads the explanations: the validator
//! cannot give these diagnostics, and the service, Python and a
//! validate-only build explain codes without the design tools.
//! `cardkit-design`'s tests import each example and check that it gives
//! exactly these (`the_recorded_diagnostics_are_what_importing_gives`).

use cardkit::diagnostic::{Code, Detail, Diagnostic};
use cardkit::validate::locate_in;

/// One diagnostic of an example's import, before it is located.
struct Recorded {
    /// In the example.
    pointer: &'static str,
    /// The spec's `Model.field`, when there is one.
    field: Option<&'static str>,
    /// The byte offset of the value in the example.
    offset: usize,
    detail: Detail,
}

/// The diagnostics of `code` that importing `example` (the code's own
/// example) gives, located in it.
pub(super) fn diagnostics(code: Code, example: &str) -> Vec<Diagnostic> {
    let mut made: Vec<Diagnostic> = recorded(code)
        .into_iter()
        .map(|recorded| {
            let severity = recorded.detail.code().default_severity();
            Diagnostic::new(
                recorded.detail,
                severity,
                recorded.pointer.to_owned(),
                recorded.field.map(str::to_owned),
                recorded.offset,
            )
        })
        .collect();
    locate_in(example.as_bytes(), &mut made);
    made
}

fn recorded(code: Code) -> Vec<Recorded> {
    match code {
        Code::DroppedMember => vec![Recorded {
            pointer: "/metadata/creator",
            field: None,
            offset: 51,
            detail: Detail::DroppedMember {
                member: "creator".into(),
                reason: "the spec's Template keeps only the `name` of `metadata`".into(),
            },
        }],
        Code::DerivedValue => vec![Recorded {
            pointer: "/context/symbolExtension/symbolSets/0/srcPrefix",
            field: Some("SymbolSet.name"),
            offset: 109,
            detail: Detail::DerivedValue {
                field: "SymbolSet.name".into(),
                value: "\"symbols\"".into(),
                from: "the last part of the set's `srcPrefix` (the spec requires a name)".into(),
            },
        }],
        Code::UnknownTextCode => vec![Recorded {
            pointer: "/0/data/text/title/text",
            field: Some("Text.text"),
            offset: 112,
            detail: Detail::UnknownTextCode {
                text_code: "{fontbelerenbsc}".into(),
            },
        }],
        Code::NotConvertible => vec![Recorded {
            pointer: "",
            field: None,
            offset: 0,
            detail: Detail::NotConvertible {
                reason: "an object, but neither a template (`metadata.name` or root `name`, \
                         with `context` or `card`) nor a card design (`width`, `height` or \
                         `data`)"
                    .into(),
            },
        }],
        _ => Vec::new(),
    }
}
