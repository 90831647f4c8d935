//! Masks of image layers.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Model;

/// An image that masks an image layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Mask {
    /// Always `image`.
    #[serde(rename = "type")]
    pub kind: MaskType,
    /// Name of the mask.
    pub name: String,
    /// Where the mask image is.
    pub src: String,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The constant `image` of `Mask.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[model(constant)]
pub enum MaskType {
    /// `image`.
    #[serde(rename = "image")]
    Image,
}
