//! The enumerations of layers.

use serde::{Deserialize, Serialize};

use crate::Model;

/// How an image fills its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[serde(rename_all = "lowercase")]
pub enum BoundType {
    /// Scale to fit inside the bounds.
    Fit,
    /// Scale to fill the bounds.
    Fill,
}

/// Horizontal alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[serde(rename_all = "lowercase")]
pub enum HorizontalAlign {
    /// Align to the left.
    Left,
    /// Align to the right.
    Right,
    /// Center.
    Center,
}

/// Vertical alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[serde(rename_all = "lowercase")]
pub enum VerticalAlign {
    /// Align to the top.
    Top,
    /// Center.
    Center,
    /// Align to the bottom.
    Bottom,
}

/// A tag on a layer. Layers tagged `editable` are presented by the UI as
/// editable; the groups tagged `new-image-group` and `new-text-group` store
/// newly added image layers and text layers respectively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Model)]
#[serde(rename_all = "kebab-case")]
#[model(name = "Tags")]
pub enum Tag {
    /// Presented by the UI as editable.
    Editable,
    /// Can be dragged.
    Draggable,
    /// Stores newly added image layers.
    NewImageGroup,
    /// Stores newly added text layers.
    NewTextGroup,
    /// The layer holding the card's name.
    Name,
}
