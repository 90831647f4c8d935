//! The three layer kinds: group, image and text.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::align::{HorizontalAlign, Tag, VerticalAlign};
use super::bound::Bound;
use super::filter::{Filter, IMAGE_FILTERS};
use super::mask::Mask;
use crate::model::{wire, Color};
use crate::table::{Describe, TaggedUnion, Type};
use crate::Model;

/// A layer of a card design, told apart by its `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Layer {
    /// A layer made of other layers.
    Group(Group),
    /// An image.
    Image(Image),
    /// A text.
    Text(Text),
}

/// A layer made of other layers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Model)]
pub struct Group {
    /// Name of the layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Tags of the layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<Tag>>,
    /// The layers of the group, bottom first.
    #[serde(default)]
    pub children: Vec<Layer>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An image layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Image {
    /// Name of the layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Tags of the layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<Tag>>,
    /// Where the image is.
    pub src: String,
    /// Left edge in pixels.
    #[serde(default, deserialize_with = "wire::integer")]
    pub x: i64,
    /// Top edge in pixels.
    #[serde(default, deserialize_with = "wire::integer")]
    pub y: i64,
    /// Stacking order.
    #[serde(default, deserialize_with = "wire::integer")]
    pub z: i64,
    /// Width in pixels.
    #[serde(default = "hundred", deserialize_with = "wire::integer")]
    pub width: i64,
    /// Height in pixels.
    #[serde(default = "hundred", deserialize_with = "wire::integer")]
    pub height: i64,
    /// Where a thumbnail of the image is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumb: Option<String>,
    /// The box the image is fitted into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bound>,
    /// Masks applied to the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub masks: Option<Vec<Mask>>,
    /// Opacity from 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f64>,
    /// Filters applied to the image, told apart by their `type`.
    #[field(ty = IMAGE_FILTERS)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filters: Option<Vec<Filter>>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A text layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct Text {
    /// Name of the layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Tags of the layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<Tag>>,
    /// The text, with the design tool's text codes.
    pub text: String,
    /// Name of the font.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font: Option<String>,
    /// Color of the text.
    #[serde(default = "Color::white")]
    pub color: Color,
    /// Keep the text on one line.
    #[serde(default)]
    pub one_line: bool,
    /// Horizontal alignment.
    #[serde(default = "left")]
    pub align: Option<HorizontalAlign>,
    /// Vertical alignment.
    #[serde(default = "center")]
    pub vertical_align: Option<VerticalAlign>,
    /// Line height as a multiple of the font size.
    #[serde(default = "one")]
    pub line_height_scale: f64,
    /// Weight of the font.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_weight: Option<String>,
    /// Rotation in degrees.
    #[serde(default, deserialize_with = "wire::integer")]
    pub rotation: i64,
    /// Font size in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub size: i64,
    /// Opacity from 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f64>,
    /// Left edge in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub x: i64,
    /// Top edge in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub y: i64,
    /// Width in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub width: i64,
    /// Height in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub height: i64,
    /// Only text codes are interpreted, not markup.
    #[serde(default)]
    pub text_codes_only: bool,
    /// Filters applied to the text: each matches either shape (not told apart
    /// by `type` on this layer kind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filters: Option<Vec<Filter>>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

fn hundred() -> i64 {
    100
}

fn one() -> f64 {
    1.0
}

#[allow(clippy::unnecessary_wraps)] // serde's default for an optional field
fn left() -> Option<HorizontalAlign> {
    Some(HorizontalAlign::Left)
}

#[allow(clippy::unnecessary_wraps)] // serde's default for an optional field
fn center() -> Option<VerticalAlign> {
    Some(VerticalAlign::Center)
}

/// The layer union's table: its tag member and the tag of each kind.
pub(crate) const LAYERS: &TaggedUnion = match <Layer as Describe>::TYPE {
    Type::Tagged(union) => union,
    _ => panic!("Layer is a tagged union"),
};

/// The type of `Card.data`: a group whose `type` tag may be absent (the tag
/// name and value are the Layer union's own).
pub(crate) const CARD_DATA: &Type = &Type::Tagged(&TaggedUnion {
    name: "Group",
    tag: LAYERS.tag,
    variants: &[LAYERS.variants[0]],
    tag_optional: true,
});

/// serde for `Card.data`: a group with an optional `type`, written with it.
pub(crate) mod top_group {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::{Map, Value};

    use super::{Group, LAYERS};

    pub(crate) fn serialize<S: Serializer>(
        group: &Group,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Tagged<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            #[serde(flatten)]
            group: &'a Group,
        }
        Tagged {
            kind: LAYERS.variants[0].0,
            group,
        }
        .serialize(serializer)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Group, D::Error> {
        let mut members = Map::<String, Value>::deserialize(deserializer)?;
        let tag = LAYERS.variants[0].0;
        match members.remove(LAYERS.tag) {
            None => {}
            Some(Value::String(value)) if value == tag => {}
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "the card's data must be a group: expected `type` \"{tag}\", found {other}"
                )))
            }
        }
        Group::deserialize(Value::Object(members)).map_err(D::Error::custom)
    }
}
