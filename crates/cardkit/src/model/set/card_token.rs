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
    #[field(link = Id, since = "v4.0.0")]
    pub uuid: Uuid,

    /// Name of the artist who illustrated the token.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artist: Option<String>,

    /// Name of the card in ASCII characters only, for names written with other characters.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ascii_name: Option<String>,

    /// Where the token is available: in paper or on online game platforms.
    #[field(since = "v5.0.0", few_values)]
    pub availability: Vec<String>,

    /// Kinds of booster pack the card can be found in.
    #[field(since = "v5.2.1", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booster_types: Option<Vec<String>>,

    /// Color of the token's border (for example black, white, borderless).
    #[field(since = "v4.0.0", few_values)]
    pub border_color: String,

    /// Names of the cards that combine with this one into one card (such as melding cards).
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_parts: Option<Vec<String>>,

    /// Colors of the card's color identity (every color of mana symbol on the card), as color
    /// letters.
    #[field(since = "v4.0.0", few_values)]
    pub color_identity: Vec<String>,

    /// Colors shown by the card's color indicator, when it has one, as color letters.
    #[field(since = "v4.0.2", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color_indicator: Option<Vec<String>>,

    /// Colors of the token, as color letters (W, U, B, R, G).
    #[field(since = "v4.0.0", few_values)]
    pub colors: Vec<String>,

    /// Name of this face of a card with several faces.
    #[field(link = Name, since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_name: Option<String>,

    /// Flavor name of this face of the card.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_flavor_name: Option<String>,

    /// Finishes the token is printed in (for example nonfoil, foil, etched).
    #[field(since = "v5.2.0", few_values)]
    pub finishes: Vec<String>,

    /// Flavor text of the card (italic text without rules meaning).
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor_text: Option<String>,

    /// Visual effects of the card's frame (for example legendary, extendedart, showcase).
    #[field(since = "v4.6.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_effects: Option<Vec<String>>,

    /// Version of the card frame design (for example 1993, 2003, 2015, future).
    #[field(since = "v4.0.0", few_values)]
    pub frame_version: String,

    /// The token is printed in foil; replaced by `finishes`.
    #[field(since = "v4.0.0", deprecated)]
    pub has_foil: bool,

    /// The token is printed in non-foil; replaced by `finishes`.
    #[field(since = "v4.0.0", deprecated)]
    pub has_non_foil: bool,

    /// Identifiers of the token at marketplaces, online game platforms, catalogs and
    /// registries.
    #[field(since = "v5.0.0")]
    pub identifiers: Identifiers,

    /// The token's art covers the whole card.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_full_art: Option<bool>,

    /// The token is part of a joke set, not meant for tournament play.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_funny: Option<bool>,

    /// The token is available only in online game variations.
    #[field(since = "v4.0.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_online_only: Option<bool>,

    /// The token is a promotional printing.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_promo: Option<bool>,

    /// The token was printed in an earlier set.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_reprint: Option<bool>,

    /// Keywords of the card's rules text (for example Flying, Trample).
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<String>>,

    /// Language the token is printed in.
    #[field(link = Language, since = "v5.2.1", few_values)]
    pub language: String,

    /// Layout of the token (for example token, double_faced_token).
    #[field(since = "v4.0.0", few_values)]
    pub layout: String,

    /// Starting loyalty of the card (planeswalkers).
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<String>,

    /// Name of the token; for a token with several faces, the faces' names joined by ` // `.
    #[field(link = Name, since = "v4.0.0")]
    pub name: String,

    /// Collector number of the token in the set; it may contain letters and symbols.
    #[field(link = Number, since = "v4.0.0")]
    pub number: String,

    /// Orientation of the card (for art series cards).
    #[field(since = "v5.2.1", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<String>,

    /// Identifiers (`uuid`) of the card's other faces.
    #[field(link = Faces, since = "v4.6.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_face_ids: Option<Vec<String>>,

    /// Power of the card (creatures); it may be `*` or hold symbols.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,

    /// Kinds of promotion the card is part of (for example prerelease, buyabox).
    #[field(since = "v5.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promo_types: Option<Vec<String>>,

    /// Cards related to this token, such as the cards that create it.
    #[field(since = "v5.2.1")]
    pub related_cards: RelatedCards,

    /// Names of the cards that create this token; replaced by `relatedCards.reverseRelated`.
    #[field(link = CardNames, since = "v4.0.0", deprecated)]
    pub reverse_related: Vec<String>,

    /// Security stamp printed on the card (for example oval, triangle, acorn).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_stamp: Option<String>,

    /// Code of the set the token is in.
    #[field(link = SetCode, since = "v5.0.1")]
    pub set_code: String,

    /// Which face of a card with several faces this is (`a`, `b`, …).
    #[field(link = Side, since = "v4.1.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,

    /// Name of the signature printed on the card.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,

    /// Names of the subsets the card belongs to within its set.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsets: Option<Vec<String>>,

    /// Subtypes of the card (after the dash of the type line).
    #[field(since = "v4.0.0")]
    pub subtypes: Vec<String>,

    /// Supertypes of the card (for example Legendary, Basic, Snow).
    #[field(since = "v4.0.0", few_values)]
    pub supertypes: Vec<String>,

    /// Rules text of the token.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,

    /// Toughness of the card (creatures); it may be `*` or hold symbols.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness: Option<String>,

    /// Type line of the token.
    #[field(since = "v4.0.0")]
    #[serde(rename = "type")]
    pub kind: String,

    /// Card types of the token (for example Creature, Artifact).
    #[field(since = "v4.0.0", few_values)]
    pub types: Vec<String>,

    /// Name of the watermark printed on the card.
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watermark: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
