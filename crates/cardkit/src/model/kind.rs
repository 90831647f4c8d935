//! Each kind of document's top-level model, and what the field tables say
//! about the kind.

use crate::table::{Describe, Kind, Model, ModelDef, Type};

impl Kind {
    /// Every model of every kind, each once.
    #[must_use]
    pub fn every_model() -> Vec<&'static ModelDef> {
        let mut all: Vec<&'static ModelDef> = Vec::new();
        for kind in Kind::ALL {
            for model in crate::table::models_of(kind.model()) {
                if !all.iter().any(|m| std::ptr::eq(*m, model)) {
                    all.push(model);
                }
            }
        }
        all
    }

    /// Whether a document of this kind has fields the publishers name
    /// otherwise (sets, migrations): its report says which names it was
    /// read under.
    #[must_use]
    pub fn has_names(self) -> bool {
        self.traits().0
    }

    /// Whether a document of this kind has fields with version tags (sets):
    /// its report says which version it was checked as of.
    #[must_use]
    pub fn has_versions(self) -> bool {
        self.traits().1
    }

    /// [`Kind::has_names`] and [`Kind::has_versions`], read off the field
    /// tables once.
    fn traits(self) -> (bool, bool) {
        static TRAITS: std::sync::OnceLock<Vec<(bool, bool)>> = std::sync::OnceLock::new();
        let all = TRAITS.get_or_init(|| {
            Kind::ALL
                .iter()
                .map(|kind| {
                    let models = crate::table::models_of(kind.model());
                    let names = models
                        .iter()
                        .any(|model| crate::table::Names::Upstream.of(model).is_some());
                    let versions = models
                        .iter()
                        .any(|model| model.fields.iter().any(|field| field.since.is_some()));
                    (names, versions)
                })
                .collect()
        });
        let at = Kind::ALL.iter().position(|&kind| kind == self).unwrap_or(0);
        all[at]
    }

    /// The top-level model of the kind.
    #[must_use]
    pub fn model(self) -> &'static ModelDef {
        match self {
            Kind::Template => crate::model::Template::model(),
            Kind::Card => crate::model::Card::model(),
            Kind::Set => crate::model::Set::model(),
            Kind::Migration => crate::model::Migration::model(),
        }
    }

    pub(crate) fn root_type(self) -> &'static Type {
        match self {
            Kind::Template => crate::model::Template::TYPE,
            Kind::Card => crate::model::Card::TYPE,
            Kind::Set => crate::model::Set::TYPE,
            Kind::Migration => crate::model::Migration::TYPE,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::table::names::{spec_name, Names, UPSTREAM};
    use crate::table::Kind;

    #[test]
    /// The publishers' names against the models: the table of renames
    /// names fields, and no upstream name is a spec name.
    fn every_rename_names_a_field_and_no_upstream_name_is_a_field_of_its_model() {
        let models = Kind::every_model();
        for rename in UPSTREAM {
            let holders: Vec<_> = models
                .iter()
                .filter(|m| rename.model.is_none_or(|name| name == m.name))
                .filter(|m| m.field(rename.spec).is_some())
                .collect();
            // Prices keep the publishers' names of shops (`cardKingdom`) as
            // members the spec does not show; the rest name fields.
            let of_prices = ["shopA", "shopAEtched", "shopAFoil", "shopC", "shopD"];
            assert!(
                !holders.is_empty() || of_prices.contains(&rename.spec),
                "{} names no field",
                rename.spec
            );
            for model in &models {
                assert!(
                    model.field(rename.upstream).is_none(),
                    "{}.{} is a spec name",
                    model.name,
                    rename.upstream
                );
            }
        }
    }

    #[test]
    fn a_model_is_read_under_one_name_per_field() {
        let set = Kind::Set.model();
        assert_eq!(
            Names::Spec.field(set, "iconCode").unwrap().1.name,
            "iconCode"
        );
        assert!(Names::Spec.field(set, "keyruneCode").is_none());
        assert_eq!(
            Names::Upstream.field(set, "keyruneCode").unwrap().1.name,
            "iconCode"
        );
        assert!(Names::Upstream.field(set, "iconCode").is_none());
        assert_eq!(Names::Upstream.field(set, "code").unwrap().1.name, "code");
        let (_, icon) = set.field("iconCode").unwrap();
        assert_eq!(Names::Upstream.wire_name(set, icon), "keyruneCode");
        assert_eq!(Names::Spec.wire_name(set, icon), "iconCode");

        let migration = Kind::Migration.model();
        assert_eq!(
            Names::Upstream
                .field(migration, "performed_at")
                .unwrap()
                .1
                .name,
            "created_at"
        );
        assert_eq!(spec_name("Migration", "performed_at"), Some("created_at"));
        assert_eq!(spec_name("Set", "performed_at"), None);
    }
}
