//! A card design: the size of the card and its tree of layers, as design
//! tools save it (the `card` kind) and as templates embed it.

mod align;
mod bound;
mod filter;
mod layer;
mod mask;

pub use align::{BoundType, HorizontalAlign, Tag, VerticalAlign};
pub use bound::Bound;
pub use filter::{Filter, FilterOverlay, FilterShadow, OverlayType, ShadowType};
pub(crate) use layer::LAYERS;
pub use layer::{Group, Image, Layer, Text};
pub use mask::{Mask, MaskType};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::wire;
use crate::Model;

/// A card design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Card {
    /// Root URL that relative asset paths of the design are resolved against.
    #[serde(default)]
    pub asset_root_url: String,
    /// Name of the design.
    pub name: String,
    /// Width of the card in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub width: i64,
    /// Height of the card in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub height: i64,
    /// Radius of the card's rounded corners in pixels.
    #[serde(default, deserialize_with = "wire::integer")]
    pub corners: i64,
    /// Horizontal margin in pixels.
    #[serde(rename = "marginX", default, deserialize_with = "wire::integer")]
    pub margin_x: i64,
    /// Vertical margin in pixels.
    #[serde(rename = "marginY", default, deserialize_with = "wire::integer")]
    pub margin_y: i64,
    /// Extensions and template the design depends on.
    #[serde(default)]
    pub dependencies: Dependencies,
    /// The top group of layers; its `type` may be omitted.
    #[field(ty = layer::CARD_DATA)]
    #[serde(default, with = "layer::top_group")]
    pub data: Group,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What a card design depends on.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Model)]
pub struct Dependencies {
    /// Names of the design-tool extensions the design uses.
    #[serde(default)]
    pub extensions: Vec<String>,
    /// The template the design was made from.
    #[serde(default)]
    pub template: Option<TemplateRef>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A reference to a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct TemplateRef {
    /// Where the template is.
    pub url: String,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
