//! A card in a set.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::model::set::{
    ForeignData, Identifiers, LeadershipSkills, Legalities, PurchaseUrls, RelatedCards, Ruling,
};
use crate::model::wire;
use crate::Model;

/// A card in a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct CardSet {
    /// Identifier of the card. When absent, the typed model uses the card's `uuid` (see `Set::enforce_ids`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Uuid>,

    /// Universally unique identifier of the card.
    #[field(since = "v4.0.0")]
    pub uuid: Uuid,

    /// The `artist` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artist: Option<String>,

    /// The `asciiName` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ascii_name: Option<String>,

    /// The `attractionLights` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attraction_lights: Option<Vec<String>>,

    /// The `availability` value.
    #[field(since = "v5.0.0")]
    pub availability: Vec<String>,

    /// The `boosterTypes` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booster_types: Option<Vec<String>>,

    /// The `borderColor` value.
    #[field(since = "v4.0.0")]
    pub border_color: String,

    /// The `cardParts` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_parts: Option<Vec<String>>,

    /// The `colorIdentity` value.
    #[field(since = "v4.0.0")]
    pub color_identity: Vec<String>,

    /// The `colorIndicator` value.
    #[field(since = "v4.0.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color_indicator: Option<Vec<String>>,

    /// The `colors` value.
    #[field(since = "v4.0.0")]
    pub colors: Vec<String>,

    /// The `convertedManaCost` value.
    #[field(since = "v4.0.0", deprecated)]
    pub converted_mana_cost: f64,

    /// The `defense` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<String>,

    /// The `communityRank` value.
    #[field(since = "v4.5.0")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub community_rank: Option<i64>,

    /// The `communitySaltiness` value.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub community_saltiness: Option<f64>,

    /// The `faceConvertedManaCost` value.
    #[field(since = "v4.1.1", deprecated)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_converted_mana_cost: Option<f64>,

    /// The `faceFlavorName` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_flavor_name: Option<String>,

    /// The `faceManaValue` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_mana_value: Option<f64>,

    /// The `faceName` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_name: Option<String>,

    /// The `finishes` value.
    #[field(since = "v5.2.0")]
    pub finishes: Vec<String>,

    /// The `flavorName` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor_name: Option<String>,

    /// The `flavorText` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor_text: Option<String>,

    /// The `foreignData` value.
    #[field(since = "v4.0.0")]
    pub foreign_data: Vec<ForeignData>,

    /// The `frameEffects` value.
    #[field(since = "v4.6.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_effects: Option<Vec<String>>,

    /// The `frameVersion` value.
    #[field(since = "v4.0.0")]
    pub frame_version: String,

    /// The `hand` value.
    #[field(since = "v4.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<String>,

    /// The `hasAlternativeDeckLimit` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_alternative_deck_limit: Option<bool>,

    /// The `hasContentWarning` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_content_warning: Option<bool>,

    /// The `hasFoil` value.
    #[field(since = "v4.0.0", deprecated)]
    pub has_foil: bool,

    /// The `hasNonFoil` value.
    #[field(since = "v4.0.0", deprecated)]
    pub has_non_foil: bool,

    /// The `identifiers` value.
    #[field(since = "v5.0.0")]
    pub identifiers: Identifiers,

    /// The `isAlternative` value.
    #[field(since = "v4.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_alternative: Option<bool>,

    /// The `isFullArt` value.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_full_art: Option<bool>,

    /// The `isFunny` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_funny: Option<bool>,

    /// The `isOnlineOnly` value.
    #[field(since = "v4.0.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_online_only: Option<bool>,

    /// The `isOversized` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_oversized: Option<bool>,

    /// The `isPromo` value.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_promo: Option<bool>,

    /// The `isRebalanced` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_rebalanced: Option<bool>,

    /// The `isReprint` value.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_reprint: Option<bool>,

    /// The `isReserved` value.
    #[field(since = "v4.0.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_reserved: Option<bool>,

    /// The `isStarter` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_starter: Option<bool>,

    /// The `isStorySpotlight` value.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_story_spotlight: Option<bool>,

    /// The `isTextless` value.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_textless: Option<bool>,

    /// The `isTimeshifted` value.
    #[field(since = "v4.4.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_timeshifted: Option<bool>,

    /// The `keywords` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<String>>,

    /// The `language` value.
    #[field(since = "v5.2.1")]
    pub language: String,

    /// The `layout` value.
    #[field(since = "v4.0.0")]
    pub layout: String,

    /// The `leadershipSkills` value.
    #[field(since = "v4.5.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leadership_skills: Option<LeadershipSkills>,

    /// The `legalities` value.
    #[field(since = "v4.0.0")]
    pub legalities: Legalities,

    /// The `life` value.
    #[field(since = "v4.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life: Option<String>,

    /// The `loyalty` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<String>,

    /// The `manaCost` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana_cost: Option<String>,

    /// The `manaValue` value.
    #[field(since = "v5.2.0")]
    pub mana_value: f64,

    /// The `name` value.
    #[field(since = "v4.0.0")]
    pub name: String,

    /// The `number` value.
    #[field(since = "v4.0.0")]
    pub number: String,

    /// The `originalPrintings` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_printings: Option<Vec<String>>,

    /// The `originalReleaseDate` value.
    #[field(since = "v5.1.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_release_date: Option<String>,

    /// The `originalText` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_text: Option<String>,

    /// The `originalType` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_type: Option<String>,

    /// The `otherFaceIds` value.
    #[field(since = "v4.6.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_face_ids: Option<Vec<String>>,

    /// The `power` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,

    /// The `printings` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub printings: Option<Vec<String>>,

    /// The `promoTypes` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promo_types: Option<Vec<String>>,

    /// The `purchaseUrls` value.
    #[field(since = "v4.4.0")]
    pub purchase_urls: PurchaseUrls,

    /// The `rarity` value.
    #[field(since = "v4.0.0")]
    pub rarity: String,

    /// The `rebalancedPrintings` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebalanced_printings: Option<Vec<Uuid>>,

    /// The `relatedCards` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub related_cards: Option<RelatedCards>,

    /// The `rulings` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rulings: Option<Vec<Ruling>>,

    /// The `securityStamp` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_stamp: Option<String>,

    /// The `setCode` value.
    #[field(since = "v5.0.1")]
    pub set_code: String,

    /// The `side` value.
    #[field(since = "v4.1.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,

    /// The `signature` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,

    /// The `subsets` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsets: Option<Vec<String>>,

    /// The `subtypes` value.
    #[field(since = "v4.0.0")]
    pub subtypes: Vec<String>,

    /// The `supertypes` value.
    #[field(since = "v4.0.0")]
    pub supertypes: Vec<String>,

    /// The `text` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,

    /// The `toughness` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness: Option<String>,

    /// The `type` value.
    #[field(since = "v4.0.0")]
    #[serde(rename = "type")]
    pub kind: String,

    /// The `types` value.
    #[field(since = "v4.0.0")]
    pub types: Vec<String>,

    /// The `variations` value.
    #[field(since = "v4.1.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations: Option<Vec<Uuid>>,

    /// The `watermark` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watermark: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
