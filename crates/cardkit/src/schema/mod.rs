//! What follows from the field tables ([`crate::table`]): every field at its
//! JSON Pointer, in words, as JSON Schema, as the reference, and the field a
//! pointer names. The validator interprets the same tables; nothing here is
//! written by hand twice.

pub mod fields;
pub mod json_schema;
pub mod lookup;
pub mod minimal;
pub mod reference;
pub mod resolve;
pub mod words;

pub mod format;
pub use crate::table::names;
pub use crate::table::{
    key_hash, key_words, models_of, versions, Describe, FieldDef, Format, Link, Model, ModelDef,
    ModelFn, Names, ParseVersionError, TaggedUnion, Type, Version, MAX_DEPTH, NO_FIELD,
};

/// The format's latest version tag: what a file that declares none is
/// checked as of.
#[must_use]
pub fn latest_version() -> Version {
    static LATEST: std::sync::OnceLock<Version> = std::sync::OnceLock::new();
    *LATEST.get_or_init(|| {
        let roots: Vec<&'static ModelDef> = crate::model::Kind::ALL
            .iter()
            .map(|kind| kind.model())
            .collect();
        versions(&roots)
            .last()
            .copied()
            .unwrap_or(Version::new(0, 0, 0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Kind;

    #[test]
    fn every_field_is_found_by_its_wire_name_and_nothing_else_is() {
        let mut models = 0;
        for kind in Kind::ALL {
            for model in models_of(kind.model()) {
                models += 1;
                assert!(model.slots.len().is_power_of_two(), "{}", model.name);
                for (index, field) in model.fields.iter().enumerate() {
                    let found = model.field(field.name).map(|(i, f)| (i, f.name));
                    assert_eq!(found, Some((index, field.name)), "{}", model.name);
                    for near in [format!("{}x", field.name), field.name.to_uppercase()] {
                        if model.fields.iter().all(|f| f.name != near) {
                            assert!(model.field(&near).is_none(), "{}.{near}", model.name);
                        }
                    }
                }
                assert!(model.field("").is_none());
            }
        }
        assert!(models >= 25, "{models} models");
    }
}
