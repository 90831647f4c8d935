//! A token in a set.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use uuid::Uuid;

use crate::model::set::{Identifiers, RelatedCards};
use crate::Model;

/// A token in a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct CardToken {
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

    /// The `faceName` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_name: Option<String>,

    /// The `faceFlavorName` value.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_flavor_name: Option<String>,

    /// The `finishes` value.
    #[field(since = "v5.2.0")]
    pub finishes: Vec<String>,

    /// The `flavorText` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor_text: Option<String>,

    /// The `frameEffects` value.
    #[field(since = "v4.6.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_effects: Option<Vec<String>>,

    /// The `frameVersion` value.
    #[field(since = "v4.0.0")]
    pub frame_version: String,

    /// The `hasFoil` value.
    #[field(since = "v4.0.0", deprecated)]
    pub has_foil: bool,

    /// The `hasNonFoil` value.
    #[field(since = "v4.0.0", deprecated)]
    pub has_non_foil: bool,

    /// The `identifiers` value.
    #[field(since = "v5.0.0")]
    pub identifiers: Identifiers,

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

    /// The `isPromo` value.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_promo: Option<bool>,

    /// The `isReprint` value.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_reprint: Option<bool>,

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

    /// The `loyalty` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<String>,

    /// The `name` value.
    #[field(since = "v4.0.0")]
    pub name: String,

    /// The `number` value.
    #[field(since = "v4.0.0")]
    pub number: String,

    /// The `orientation` value.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<String>,

    /// The `otherFaceIds` value.
    #[field(since = "v4.6.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_face_ids: Option<Vec<String>>,

    /// The `power` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,

    /// The `promoTypes` value.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promo_types: Option<Vec<String>>,

    /// The `relatedCards` value.
    #[field(since = "v5.2.1")]
    pub related_cards: RelatedCards,

    /// The `reverseRelated` value.
    #[field(since = "v4.0.0", deprecated)]
    pub reverse_related: Vec<String>,

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
    #[field(since = "v4.0.0")]
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

    /// The `watermark` value.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watermark: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
