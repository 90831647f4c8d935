//! Filters of image and text layers.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::{wire, Color};
use crate::table::{Model as _, TaggedUnion, Type};
use crate::Model;

/// A filter. On text layers the two shapes form a plain union (an element is
/// valid if it matches either); on image layers they are told apart by `type`
/// (see [`IMAGE_FILTERS`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(untagged)]
pub enum Filter {
    /// A drop shadow.
    Shadow(FilterShadow),
    /// A color overlay.
    Overlay(FilterOverlay),
}

/// A drop shadow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct FilterShadow {
    /// Always `shadow`.
    #[serde(rename = "type")]
    pub kind: ShadowType,
    /// Color of the shadow.
    #[serde(default = "Color::black")]
    pub color: Color,
    /// Horizontal offset in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub x: i64,
    /// Vertical offset in pixels.
    #[serde(deserialize_with = "wire::integer")]
    pub y: i64,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A color laid over the layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct FilterOverlay {
    /// Always `colorOverlay`.
    #[serde(rename = "type")]
    pub kind: OverlayType,
    /// Color of the overlay.
    pub color: Color,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The constant `shadow` of `FilterShadow.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[model(constant)]
pub enum ShadowType {
    /// `shadow`.
    #[serde(rename = "shadow")]
    Shadow,
}

/// The constant `colorOverlay` of `FilterOverlay.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[model(constant)]
pub enum OverlayType {
    /// `colorOverlay`.
    #[serde(rename = "colorOverlay")]
    ColorOverlay,
}

/// The type of `Image.filters`: filters told apart by their `type`, whose
/// values are the shapes' own constants.
pub(crate) const IMAGE_FILTERS: &Type = &Type::List {
    item: &Type::Tagged(&TaggedUnion {
        name: "Filter",
        tag: "type",
        variants: &[
            (ShadowType::VALUE, FilterShadow::model),
            (OverlayType::VALUE, FilterOverlay::model),
        ],
        tag_optional: false,
    }),
};
