//! The bounds of an image layer.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::align::{BoundType, HorizontalAlign, VerticalAlign};
use crate::model::wire;
use crate::Model;

/// The box an image is fitted into, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Bound {
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
    /// How the image fills the box.
    #[serde(rename = "type")]
    pub kind: BoundType,
    /// Horizontal alignment inside the box.
    pub horizontal: HorizontalAlign,
    /// Vertical alignment inside the box.
    pub vertical: VerticalAlign,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
