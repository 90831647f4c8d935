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
    #[field(link = Id, since = "v4.0.0")]
    pub uuid: Uuid,

    /// Name of the artist who illustrated the card.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artist: Option<String>,

    /// Name of the card in ASCII characters only, for names written with other characters.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ascii_name: Option<String>,

    /// Numbers of the attraction lights lit on the card (attraction cards of some joke sets).
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attraction_lights: Option<Vec<String>>,

    /// Where the card is available: in paper or on online game platforms.
    #[field(since = "v5.0.0", few_values)]
    pub availability: Vec<String>,

    /// Kinds of booster pack the card can be found in.
    #[field(since = "v5.2.1", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booster_types: Option<Vec<String>>,

    /// Color of the card's border (for example black, white, borderless or silver).
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

    /// Colors of the card, as color letters (W, U, B, R, G).
    #[field(since = "v4.0.0", few_values)]
    pub colors: Vec<String>,

    /// Converted mana cost of the card; replaced by `manaValue`.
    #[field(since = "v4.0.0", deprecated)]
    pub converted_mana_cost: f64,

    /// Defense of the card (battle cards).
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<String>,

    /// Rank of the card's popularity at a community deck-building site.
    #[field(since = "v4.5.0")]
    #[serde(
        default,
        deserialize_with = "wire::optional_integer",
        skip_serializing_if = "Option::is_none"
    )]
    pub community_rank: Option<i64>,

    /// How much players dislike playing against the card, as scored at a community deck-
    /// building site.
    #[field(since = "v4.5.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub community_saltiness: Option<f64>,

    /// Converted mana cost of this face of the card; replaced by `faceManaValue`.
    #[field(since = "v4.1.1", deprecated)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_converted_mana_cost: Option<f64>,

    /// Flavor name of this face of the card.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_flavor_name: Option<String>,

    /// Mana value of this face of the card.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_mana_value: Option<f64>,

    /// Name of this face of a card with several faces.
    #[field(link = Name, since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face_name: Option<String>,

    /// Finishes the card is printed in (for example nonfoil, foil, etched).
    #[field(since = "v5.2.0", few_values)]
    pub finishes: Vec<String>,

    /// Promotional name printed above the card's true name.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor_name: Option<String>,

    /// Flavor text of the card (italic text without rules meaning).
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flavor_text: Option<String>,

    /// The card's name, text, type and flavor text in other languages.
    #[field(since = "v4.0.0")]
    pub foreign_data: Vec<ForeignData>,

    /// Visual effects of the card's frame (for example legendary, extendedart, showcase).
    #[field(since = "v4.6.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_effects: Option<Vec<String>>,

    /// Version of the card frame design (for example 1993, 2003, 2015, future).
    #[field(since = "v4.0.0", few_values)]
    pub frame_version: String,

    /// Modifier to the starting hand size (vanguard cards).
    #[field(since = "v4.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<String>,

    /// The card may be in a deck more times than the usual limit allows.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_alternative_deck_limit: Option<bool>,

    /// The publisher marked the card for having sensitive content.
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_content_warning: Option<bool>,

    /// The card is printed in foil; replaced by `finishes`.
    #[field(since = "v4.0.0", deprecated)]
    pub has_foil: bool,

    /// The card is printed in non-foil; replaced by `finishes`.
    #[field(since = "v4.0.0", deprecated)]
    pub has_non_foil: bool,

    /// Identifiers of the card at marketplaces, online game platforms, catalogs and registries.
    #[field(since = "v5.0.0")]
    pub identifiers: Identifiers,

    /// The card is an alternative variation of a card printed in the set.
    #[field(since = "v4.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_alternative: Option<bool>,

    /// The card's art covers the whole card.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_full_art: Option<bool>,

    /// The card is part of a joke set, not meant for tournament play.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_funny: Option<bool>,

    /// The card is available only in online game variations.
    #[field(since = "v4.0.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_online_only: Option<bool>,

    /// The card is oversized.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_oversized: Option<bool>,

    /// The card is a promotional printing.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_promo: Option<bool>,

    /// The card was rebalanced for an online game platform.
    #[field(since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_rebalanced: Option<bool>,

    /// The card was printed in an earlier set.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_reprint: Option<bool>,

    /// The card is on the publisher's reserved list: it is not reprinted.
    #[field(since = "v4.0.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_reserved: Option<bool>,

    /// The card is found only in starter decks, not in booster packs.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_starter: Option<bool>,

    /// The card tells part of the set's story (story spotlight).
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_story_spotlight: Option<bool>,

    /// The card has no rules text box.
    #[field(since = "v4.4.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_textless: Option<bool>,

    /// The card is timeshifted: printed in another set's older or newer frame.
    #[field(since = "v4.4.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_timeshifted: Option<bool>,

    /// Keywords of the card's rules text (for example Flying, Trample).
    #[field(since = "v5.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keywords: Option<Vec<String>>,

    /// Language the card is printed in.
    #[field(link = Language, since = "v5.2.1", few_values)]
    pub language: String,

    /// Layout of the card (for example normal, split, transform, meld, saga, token).
    #[field(since = "v4.0.0", few_values)]
    pub layout: String,

    /// Formats in which the card can lead a deck.
    #[field(since = "v4.5.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leadership_skills: Option<LeadershipSkills>,

    /// Legality of the card per play format.
    #[field(since = "v4.0.0")]
    pub legalities: Legalities,

    /// Modifier to the starting life total (vanguard cards).
    #[field(since = "v4.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub life: Option<String>,

    /// Starting loyalty of the card (planeswalkers).
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<String>,

    /// Mana cost of the card, in mana symbols such as `{1}{G}`.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana_cost: Option<String>,

    /// Mana value of the card: the total amount of mana in its cost.
    #[field(since = "v5.2.0")]
    pub mana_value: f64,

    /// Name of the card; for a card with several faces, the faces' names joined by ` // `.
    #[field(link = Name, since = "v4.0.0")]
    pub name: String,

    /// Collector number of the card in the set; it may contain letters and symbols.
    #[field(link = Number, since = "v4.0.0")]
    pub number: String,

    /// Identifiers (`uuid`) of the original printings of a card that differs from them, such as
    /// a rebalanced card.
    #[field(link = Printings, since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_printings: Option<Vec<String>>,

    /// Release date of a promotional card printed before or apart from its set, in ISO 8601
    /// format (a plain string, not checked as a date).
    #[field(since = "v5.1.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_release_date: Option<String>,

    /// Rules text of the card as originally printed.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_text: Option<String>,

    /// Type line of the card as originally printed.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_type: Option<String>,

    /// Identifiers (`uuid`) of the card's other faces.
    #[field(link = Faces, since = "v4.6.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_face_ids: Option<Vec<String>>,

    /// Power of the card (creatures); it may be `*` or hold symbols.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,

    /// Codes of every set the card was printed in.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub printings: Option<Vec<String>>,

    /// Kinds of promotion the card is part of (for example prerelease, buyabox).
    #[field(since = "v5.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promo_types: Option<Vec<String>>,

    /// Where to buy the card, per marketplace.
    #[field(since = "v4.4.0")]
    pub purchase_urls: PurchaseUrls,

    /// Rarity of the card (for example common, uncommon, rare, mythic).
    #[field(since = "v4.0.0", few_values)]
    pub rarity: String,

    /// Identifiers (`uuid`) of the rebalanced printings of the card.
    #[field(link = Printings, since = "v5.2.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebalanced_printings: Option<Vec<Uuid>>,

    /// Cards related to this one.
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub related_cards: Option<RelatedCards>,

    /// Official rulings on the card.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rulings: Option<Vec<Ruling>>,

    /// Security stamp printed on the card (for example oval, triangle, acorn).
    #[field(since = "v5.2.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_stamp: Option<String>,

    /// Code of the set the card is in.
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
    #[field(since = "v5.2.1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsets: Option<Vec<String>>,

    /// Subtypes of the card (after the dash of the type line).
    #[field(since = "v4.0.0")]
    pub subtypes: Vec<String>,

    /// Supertypes of the card (for example Legendary, Basic, Snow).
    #[field(since = "v4.0.0", few_values)]
    pub supertypes: Vec<String>,

    /// Rules text of the card.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,

    /// Toughness of the card (creatures); it may be `*` or hold symbols.
    #[field(since = "v4.0.0")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness: Option<String>,

    /// Type line of the card.
    #[field(since = "v4.0.0")]
    #[serde(rename = "type")]
    pub kind: String,

    /// Card types of the card (for example Creature, Instant).
    #[field(since = "v4.0.0", few_values)]
    pub types: Vec<String>,

    /// Identifiers (`uuid`) of the card's variations in the set: the same card with other art
    /// or frame.
    #[field(link = Variations, since = "v4.1.2")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variations: Option<Vec<Uuid>>,

    /// Name of the watermark printed on the card.
    #[field(since = "v4.0.0", few_values)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watermark: Option<String>,

    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
