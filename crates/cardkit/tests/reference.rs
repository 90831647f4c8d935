//! `docs/reference.md` is the reference that the field tables generate
//! (`cardkit::schema::reference::markdown`): the test fails when the
//! committed file is stale. After a deliberate change to the models, rewrite
//! it with `CARDKIT_BLESS=1 cargo test -p cardkit --test reference` and
//! review the diff.

use std::path::PathBuf;

#[test]
fn committed_reference_is_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/reference.md");
    let generated = cardkit::schema::reference::markdown();
    if std::env::var_os("CARDKIT_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write docs/reference.md");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/reference.md is stale: rewrite it with \
         `CARDKIT_BLESS=1 cargo test -p cardkit --test reference` and review the diff"
    );
}

#[test]
fn every_model_and_field_is_in_the_reference() {
    let reference = cardkit::schema::reference::markdown();
    for &kind in cardkit::Kind::ALL {
        for model in cardkit::schema::models_of(kind.model()) {
            assert!(
                reference.contains(&format!("### {}\n", model.name)),
                "{}",
                model.name
            );
            for field in model.fields {
                assert!(
                    reference.contains(&format!("| `{}` |", field.name)),
                    "{}.{}",
                    model.name,
                    field.name
                );
            }
        }
    }
}
