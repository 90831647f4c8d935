//! One card set: its metadata, cards, tokens, sealed products and translations.

mod card_set;
mod card_token;
mod foreign_data;
mod identifiers;
mod leadership_skills;
mod legalities;
mod purchase_urls;
mod related_cards;
mod rulings;
mod sealed_product;
mod translations;

pub use card_set::CardSet;
pub use card_token::CardToken;
pub use foreign_data::ForeignData;
pub use identifiers::Identifiers;
pub use leadership_skills::LeadershipSkills;
pub use legalities::Legalities;
pub use purchase_urls::PurchaseUrls;
pub use related_cards::RelatedCards;
pub use rulings::Ruling;
pub use sealed_product::SealedProduct;
pub use translations::Translations;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::model::wire;
use crate::Model;

/// One card set: its metadata, cards, tokens, sealed products and translations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct Set {
    /// Identifier of the set. When absent, the typed model derives it from the code (see `Set::enforce_ids`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Uuid>,

    /// Number of cards in the set. Defaults to totalSetSize when unavailable. The publisher sometimes prints extra cards beyond the set size in promos or supplemental products.
    #[field(since = "v4.1.0")]
    #[serde(deserialize_with = "wire::integer")]
    pub base_set_size: i64,

    /// Block name the set was in.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,

    /// Breakdown of possibilities and weights of cards in a booster pack. Its inner structure is not shown.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booster: Option<Map<String, Value>>,

    /// Cards in the set.
    #[field(since = "v4.0.0")]
    pub cards: Vec<CardSet>,

    /// Set identifier at a card-trading marketplace.
    #[field(since = "v5.2.1")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub cardsphere_set_id: Option<i64>,

    /// Set code.
    #[field(link = Code, since = "v4.0.0")]
    pub code: String,

    /// Alternate set code used for a few duel-deck sets.
    #[field(since = "v4.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_v3: Option<String>,

    /// Set is available only outside the United States of America.
    #[field(since = "v4.4.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_foreign_only: Option<bool>,

    /// Set is available only in foil.
    #[field(since = "v4.0.0")]
    pub is_foil_only: bool,

    /// Set is available only in non-foil.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_non_foil_only: Option<bool>,

    /// Set is available only in online game variations.
    #[field(since = "v4.0.0")]
    pub is_online_only: bool,

    /// Set is available only in paper.
    #[field(since = "v4.6.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_paper_only: Option<bool>,

    /// Set is still in preview (spoiled). Preview sets have incomplete data.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_partial_preview: Option<bool>,

    /// Code of the matching set-icon font. The wire name of this field carries a brand and is replaced here by a neutral word.
    #[field(since = "v4.3.2")]
    pub icon_code: String,

    /// Languages the set was printed in.
    #[field(since = "v5.2.1", few_values)]
    pub languages: Vec<String>,

    /// Set identifier at a card marketplace (marketplace C).
    #[field(since = "v4.4.0")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub shop_c_id: Option<i64>,

    /// Second set's identifier at marketplace C when a set is printed in two sets.
    #[field(since = "v5.1.0")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub shop_c_id_extras: Option<i64>,

    /// Set name at marketplace C.
    #[field(since = "v4.4.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shop_c_name: Option<String>,

    /// Set code on an online game platform (platform B).
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_b_code: Option<String>,

    /// Set name.
    #[field(since = "v4.0.0")]
    pub name: String,

    /// Parent set code for variations such as promotions and guild kits.
    #[field(link = ParentSet, since = "v4.3.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_code: Option<String>,

    /// Release date in ISO 8601 format.
    #[field(since = "v4.0.0")]
    pub release_date: NaiveDate,

    /// Sealed products of the set. The key is required; its value may be null.
    #[field(since = "v5.2.0", required)]
    #[serde(deserialize_with = "wire::nullable")]
    pub sealed_product: Option<Vec<SealedProduct>>,

    /// Group identifier of the set at marketplace D.
    #[field(since = "v4.2.1")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub shop_d_group_id: Option<i64>,

    /// Tokens available to the set.
    #[field(since = "v4.0.0")]
    pub tokens: Vec<CardToken>,

    /// Token set code, formatted in uppercase.
    #[field(link = TokenSet, since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_setcode: Option<String>,

    /// Total number of cards including promotional and related supplemental products, excluding Alchemy modifications (those cards are included in the set itself).
    #[field(since = "v4.1.0")]
    #[serde(deserialize_with = "wire::integer")]
    pub total_set_size: i64,

    /// Set name per language.
    #[field(since = "v4.3.2")]
    pub translations: Translations,

    /// Expansion type. Examples: alchemy, archenemy, arsenal, box, commander. The full list of allowed values is not shown.
    #[field(since = "v4.0.0", few_values)]
    #[serde(rename = "type")]
    pub kind: String,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Set {
    /// Applies the spec's `enforce_id`: a set without `id` gets the version-5
    /// UUID (namespace OID) of its code, trimmed and lower-cased; a card without
    /// `id` gets its `uuid`. An `id` already present is kept as it is.
    pub fn enforce_ids(&mut self) {
        if self.id.is_none() {
            let code = self.code.trim().to_lowercase();
            self.id = Some(Uuid::new_v5(&Uuid::NAMESPACE_OID, code.as_bytes()));
        }
        for card in &mut self.cards {
            card.id.get_or_insert(card.uuid);
        }
    }
}
