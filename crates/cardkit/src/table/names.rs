//! The wire names documents use: the spec's neutral names (those of the
//! field tables), or the publishers' own (`keyruneCode` for the spec's
//! `iconCode`, `scryfallId` for `catalogAId`, a migration's `performed_at`
//! for `created_at`).
//!
//! [`UPSTREAM`] is the one table of the publishers' names. The validator
//! reads documents through it, and the schema, the field listing and the
//! migration notices cardkit writes name fields through it; nothing else
//! spells an upstream name.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Describe, FieldDef, ModelDef, Type};

/// Which wire names documents use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(rename_all = "lowercase"))]
pub enum Names {
    /// Each document's own: the first member that is named one way or the
    /// other (`iconCode` or `keyruneCode`) decides for the whole document,
    /// and a document that has none is read under the spec's names (the
    /// same verdict either way). What is written under these names is
    /// written under the spec's.
    #[default]
    #[cfg_attr(
        feature = "clap",
        value(help = "Each document's own, told from its members")
    )]
    Auto,
    /// The spec's neutral names.
    #[cfg_attr(feature = "clap", value(help = "The spec's neutral names"))]
    Spec,
    /// The publishers' names of [`UPSTREAM`]; every other field keeps the
    /// spec's name.
    #[cfg_attr(feature = "clap", value(help = "The publishers' names"))]
    Upstream,
}

/// One field the publishers name otherwise than the spec.
#[derive(Debug, Clone, Copy)]
pub struct Rename {
    /// The model whose field it is; `None` for the field of that spec name
    /// in every model.
    pub model: Option<&'static str>,
    /// The publishers' wire name.
    pub upstream: &'static str,
    /// The spec's wire name.
    pub spec: &'static str,
}

const fn everywhere(upstream: &'static str, spec: &'static str) -> Rename {
    Rename {
        model: None,
        upstream,
        spec,
    }
}

/// The publishers' names of the fields the spec renames: the brand words the
/// spec replaces by neutral ones (the corpus's `neutralize.py` table), and
/// the member real migration objects carry where the spec has `created_at`.
pub const UPSTREAM: &[Rename] = &[
    everywhere("keyruneCode", "iconCode"),
    everywhere("mcmId", "shopCId"),
    everywhere("mcmIdExtras", "shopCIdExtras"),
    everywhere("mcmName", "shopCName"),
    everywhere("mcmMetaId", "shopCMetaId"),
    everywhere("mtgoCode", "platformBCode"),
    everywhere("tcgplayerGroupId", "shopDGroupId"),
    everywhere("edhrecRank", "communityRank"),
    everywhere("edhrecSaltiness", "communitySaltiness"),
    everywhere("multiverseId", "registryId"),
    everywhere("cardKingdomEtchedId", "shopAEtchedId"),
    everywhere("cardKingdomFoilId", "shopAFoilId"),
    everywhere("cardKingdomId", "shopAId"),
    everywhere("cardsphereId", "shopBId"),
    everywhere("mtgArenaId", "platformAId"),
    everywhere("mtgjsonFoilVersionId", "datasetAFoilVersionId"),
    everywhere("mtgjsonNonFoilVersionId", "datasetANonFoilVersionId"),
    everywhere("mtgoFoilId", "platformBFoilId"),
    everywhere("mtgoId", "platformBId"),
    everywhere("mtgjsonV4Id", "datasetAV4Id"),
    everywhere("scryfallId", "catalogAId"),
    everywhere("scryfallOracleId", "catalogAOracleId"),
    everywhere("scryfallIllustrationId", "catalogAIllustrationId"),
    everywhere("tcgplayerProductId", "shopDProductId"),
    everywhere("tcgplayerEtchedProductId", "shopDEtchedProductId"),
    everywhere("cardKingdom", "shopA"),
    everywhere("cardKingdomEtched", "shopAEtched"),
    everywhere("cardKingdomFoil", "shopAFoil"),
    everywhere("cardmarket", "shopC"),
    everywhere("tcgplayer", "shopD"),
    everywhere("tcgplayerEtched", "shopDEtched"),
    everywhere("old_scryfall_id", "old_catalogA_id"),
    everywhere("new_scryfall_id", "new_catalogA_id"),
    Rename {
        model: Some("Migration"),
        upstream: "performed_at",
        spec: "created_at",
    },
];

impl Names {
    /// Every choice, in the order of [`Names::name`]s offered to users.
    pub const ALL: [Names; 3] = [Names::Auto, Names::Spec, Names::Upstream];

    /// The choices that name fields one way: those a schema, a listing or a
    /// notice can be written under.
    pub const FIXED: [Names; 2] = [Names::Spec, Names::Upstream];

    /// The choice's name, as users give it (`auto`, `spec`, `upstream`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Names::Auto => "auto",
            Names::Spec => "spec",
            Names::Upstream => "upstream",
        }
    }

    /// The names something is written under: these, or the spec's for
    /// [`Names::Auto`] (which names nothing of its own).
    #[must_use]
    pub fn written(self) -> Names {
        match self {
            Names::Auto | Names::Spec => Names::Spec,
            Names::Upstream => Names::Upstream,
        }
    }

    /// In words, for a report: `the spec's names`, `the publishers' names`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self.written() {
            Names::Upstream => "the publishers' names",
            _ => "the spec's names",
        }
    }

    /// The choice named `name`.
    #[must_use]
    pub fn named(name: &str) -> Option<Names> {
        Names::ALL.into_iter().find(|names| names.name() == name)
    }

    /// How `model`'s fields are named, when some differ from the spec's
    /// names: `None` costs the validator nothing. Under [`Names::Auto`],
    /// the publishers' names of the model, which the validator tells a
    /// document's first renamed member by.
    #[inline]
    #[must_use]
    pub fn of(self, model: &'static ModelDef) -> Option<&'static WireNames> {
        match self {
            Names::Spec => None,
            Names::Auto | Names::Upstream => model
                .upstream
                .get_or_init(|| upstream_names(model))
                .as_ref(),
        }
    }

    /// The wire name of `field` of `model`.
    #[must_use]
    pub fn wire_name(self, model: &'static ModelDef, field: &'static FieldDef) -> &'static str {
        match self.written().of(model) {
            Some(names) => model
                .fields
                .iter()
                .position(|f| std::ptr::eq(f, field))
                .map_or(field.name, |index| names.names[index]),
            None => field.name,
        }
    }

    /// The wire name of `field`, whichever model holds it.
    #[must_use]
    pub fn name_of_field(self, field: &'static FieldDef) -> &'static str {
        if self.written() == Names::Spec {
            return field.name;
        }
        renaming_of(field.model, field.name).map_or(field.name, |rename| rename.upstream)
    }

    /// The field of `model` whose wire name is `name`.
    #[must_use]
    pub fn field(self, model: &'static ModelDef, name: &str) -> Option<(usize, &'static FieldDef)> {
        let found = model.field(name);
        match (self, self.of(model)) {
            // Either name, as a document that has not decided reads it.
            (Names::Auto, Some(names)) => {
                found.or_else(|| names.resolve(model, None, || name.as_bytes().into()))
            }
            (_, Some(names)) => names.resolve(model, found, || name.as_bytes().into()),
            (_, None) => found,
        }
    }
}

impl Names {
    /// The wire name of the field of `model` the spec names `spec` (`spec`
    /// itself when the model has no such field).
    #[must_use]
    pub fn name_of(self, model: &'static ModelDef, spec: &'static str) -> &'static str {
        model
            .field(spec)
            .map_or(spec, |(_, field)| self.wire_name(model, field))
    }

    /// Renames the members of `value`, a value of type `ty` whose members
    /// have the names `self`, to the names `to`, at every depth where the
    /// field tables know the members (free-form objects are left as they
    /// are, and so are members neither names know).
    pub fn respell(self, to: Names, ty: &'static Type, value: &mut Value) {
        if self == to {
            return;
        }
        match (ty, value) {
            (Type::List { item }, Value::Array(values)) => {
                for value in values {
                    self.respell(to, item, value);
                }
            }
            (Type::Model { model }, Value::Object(members)) => {
                self.respell_members(to, model(), members);
            }
            (Type::Tagged(union), Value::Object(members)) => {
                let tag = members.get(union.tag).and_then(Value::as_str);
                let model = match tag.and_then(|tag| union.variant(tag)) {
                    Some(model) => model,
                    None if union.tag_optional || union.variants.len() == 1 => {
                        union.variants[0].1()
                    }
                    None => return,
                };
                self.respell_members(to, model, members);
            }
            (Type::AnyOf { types, .. }, value) => {
                // The alternative that is an object of known members, when
                // the value is an object: plain unions of models choose by a
                // constant member, which no renaming touches.
                if let Some(model) = types.iter().find_map(|t| match t {
                    Type::Model { model } if value.is_object() => Some(model()),
                    _ => None,
                }) {
                    if let Value::Object(members) = value {
                        self.respell_members(to, model, members);
                    }
                }
            }
            _ => {}
        }
    }

    /// Reads a `T` from JSON whose members have these names (under
    /// [`Names::Auto`], either name of each field).
    ///
    /// # Errors
    /// The bytes are not JSON, or not a `T`.
    pub fn read<T: DeserializeOwned + Describe>(self, bytes: &[u8]) -> serde_json::Result<T> {
        if self == Names::Spec {
            return serde_json::from_slice(bytes);
        }
        let mut value: Value = serde_json::from_slice(bytes)?;
        self.respell(Names::Spec, T::TYPE, &mut value);
        serde_json::from_value(value)
    }

    fn respell_members(
        self,
        to: Names,
        model: &'static ModelDef,
        members: &mut Map<String, Value>,
    ) {
        let renamed = std::mem::take(members);
        for (name, mut child) in renamed {
            match self.field(model, &name) {
                Some((_, field)) => {
                    self.respell(to, field.ty, &mut child);
                    members.insert(to.wire_name(model, field).to_owned(), child);
                }
                None => {
                    members.insert(name, child);
                }
            }
        }
    }
}

/// The wire names of one model's fields where some differ from the spec's.
#[derive(Debug)]
pub struct WireNames {
    /// The wire name of each field, in the order of the model's fields.
    pub names: Vec<&'static str>,
    /// The model's fields.
    fields: &'static [FieldDef],
    /// Bit `i` is set when `names[i]` is not the spec's name.
    renamed: u128,
    /// Of those, the renamings of one model only (a migration's
    /// `performed_at`): a word of the publishers' data, not a brand the
    /// spec replaced, that documents in the spec's names carry too.
    weak: u128,
    /// The renamed fields, by their wire name (a few per model).
    by_name: Vec<(&'static str, usize)>,
}

impl WireNames {
    /// Whether the field at `index` is named otherwise by the publishers.
    #[inline]
    #[must_use]
    pub fn renames(&self, index: usize) -> bool {
        self.renamed & (1 << index) != 0
    }

    /// Whether some of the model's renamings tell less than the others
    /// (see [`WireNames::strong`]).
    #[inline]
    #[must_use]
    pub fn has_weak(&self) -> bool {
        self.weak != 0
    }

    /// The renamed fields whose names tell a document's names apart: the
    /// spec's name and the publishers' of each (a migration's
    /// `old_catalogA_id` and `old_scryfall_id`, not `performed_at`, which
    /// documents in the spec's names carry as an extra member).
    pub fn strong(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.fields
            .iter()
            .enumerate()
            .filter(|&(index, _)| self.renames(index) && self.weak & (1 << index) == 0)
            .map(|(index, field)| (field.name, self.names[index]))
    }

    /// The field a member is, given what the spec's names found for it
    /// (`found`) and its name as UTF-8 (read only when the spec's names
    /// found nothing): a spec name another name replaces is no field, and a
    /// replacing name is its field.
    #[inline]
    pub fn resolve<'n>(
        &self,
        model: &'static ModelDef,
        found: Option<(usize, &'static FieldDef)>,
        name: impl FnOnce() -> std::borrow::Cow<'n, [u8]>,
    ) -> Option<(usize, &'static FieldDef)> {
        match found {
            Some((index, _)) if self.renamed & (1 << index) != 0 => None,
            Some(found) => Some(found),
            None => {
                let name = name();
                self.by_name
                    .iter()
                    .find(|(wire, _)| wire.as_bytes() == &*name)
                    .map(|&(_, index)| (index, &model.fields[index]))
            }
        }
    }
}

/// The renaming whose publishers' name is `wire`, in the model named
/// `model`, when there is one.
#[must_use]
pub fn renamed_from(model: &str, wire: &str) -> Option<&'static Rename> {
    UPSTREAM
        .iter()
        .filter(|rename| rename.model.is_none_or(|m| m == model))
        .find(|rename| rename.upstream == wire)
}

/// The spec's name of `wire`, a publishers' name of a field of the model
/// named `model`, when it is one.
#[must_use]
pub fn spec_name(model: &str, wire: &str) -> Option<&'static str> {
    renamed_from(model, wire).map(|rename| rename.spec)
}

/// The publishers' name of the field `spec` of the model named `model`,
/// when they name it otherwise.
#[must_use]
pub fn upstream_name(model: &str, spec: &str) -> Option<&'static str> {
    renaming_of(model, spec).map(|rename| rename.upstream)
}

/// The renaming of the field `spec` of the model named `model`, when the
/// publishers name it otherwise.
fn renaming_of(model: &str, spec: &str) -> Option<&'static Rename> {
    UPSTREAM
        .iter()
        .filter(|rename| rename.model.is_none_or(|m| m == model))
        .find(|rename| rename.spec == spec)
}

/// `model`'s wire names under the publishers' names, or `None` when they
/// rename none of its fields.
fn upstream_names(model: &'static ModelDef) -> Option<WireNames> {
    let mut names = WireNames {
        names: model.fields.iter().map(|f| f.name).collect(),
        fields: model.fields,
        renamed: 0,
        weak: 0,
        by_name: Vec::new(),
    };
    for (index, field) in model.fields.iter().enumerate() {
        if let Some(rename) = renaming_of(model.name, field.name) {
            names.names[index] = rename.upstream;
            names.renamed |= 1 << index;
            if rename.model.is_some() {
                names.weak |= 1 << index;
            }
            names.by_name.push((rename.upstream, index));
        }
    }
    (names.renamed != 0).then_some(names)
}
