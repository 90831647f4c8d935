//! The meaning of every field is its doc comment, which the field tables,
//! `cardkit explain`, the JSON Schema's descriptions and `docs/reference.md`
//! all show: every field has a real one, and the Set and Migration fields
//! carry the spec's Meaning column word for word (notes included, such as
//! "The key is required; its value may be null.").

mod support;

use cardkit::schema::{models_of, ModelDef};
use cardkit::Kind;

#[test]
fn every_field_has_a_meaning() {
    for &kind in Kind::ALL {
        for model in models_of(kind.model()) {
            assert!(!model.doc.is_empty(), "{} has no doc comment", model.name);
            for field in model.fields {
                let placeholder = format!("The `{}` value.", field.name);
                assert!(
                    !field.doc.is_empty() && field.doc != placeholder,
                    "{}.{} has no meaningful doc comment: {:?}",
                    model.name,
                    field.name,
                    field.doc
                );
            }
        }
    }
}

#[test]
fn set_and_migration_fields_carry_the_spec_meaning() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let spec = std::fs::read_to_string(shared.join("spec/SPEC.md")).expect("SPEC.md");
    let mut checked = 0;
    for (kind, header) in [
        (Kind::Set, "| Field | Type | Since | Meaning |"),
        (
            Kind::Migration,
            "| Field | Type | Req | Default | Meaning |",
        ),
    ] {
        for (field, meaning) in meanings(&spec, header) {
            let doc = doc_of(kind.model(), &field);
            assert!(
                doc.contains(&meaning),
                "{}.{field}: the doc comment {doc:?} does not carry the spec's meaning {meaning:?}",
                kind.model().name
            );
            checked += 1;
        }
    }
    assert!(checked >= 35, "only {checked} meanings found in SPEC.md");
}

/// (field, meaning) of each row with a meaning in the table under `header`.
fn meanings(spec: &str, header: &str) -> Vec<(String, String)> {
    let table = spec
        .split_once(header)
        .unwrap_or_else(|| panic!("SPEC.md has no table {header}"))
        .1;
    table
        .lines()
        .skip(2) // the rest of the header line, and the |---| line
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let field = cells.get(1)?.to_string();
            let meaning = cells.get(cells.len().checked_sub(2)?)?.to_string();
            (!meaning.is_empty()).then_some((field, meaning))
        })
        .collect()
}

fn doc_of(model: &ModelDef, field: &str) -> &'static str {
    model
        .field(field)
        .unwrap_or_else(|| panic!("{} has no field {field}", model.name))
        .1
        .doc
}
