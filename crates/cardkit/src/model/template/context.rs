//! The context of a template: what its layers draw from.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::{wire, Mask};
use crate::Model;

/// Fonts, image sets, symbol sets and license of a template.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct TemplateContext {
    /// The template's license; its content is not specified.
    #[serde(default)]
    pub license: Option<Map<String, Value>>,
    /// Image sets, each adding an image layer per available image.
    #[serde(default)]
    pub image_sets: Vec<TemplateContextImageSet>,
    /// Fonts the template uses.
    #[serde(default)]
    pub fonts: Vec<TemplateFont>,
    /// Symbol sets the template uses.
    #[serde(default)]
    pub symbol_sets: Vec<SymbolSet>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An image set describes how to add an image layer for each available image.
/// It groups images that share traits and removes duplicated information.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct TemplateContextImageSet {
    /// Common properties shared by the set's image layers.
    pub prototype: Map<String, Value>,
    /// The images of the set.
    pub variants: Vec<Variant>,
    /// Masks available to the set's images.
    #[serde(default)]
    pub masks: Option<Vec<Mask>>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One image of an image set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Variant {
    /// Name of the image.
    pub name: String,
    /// Where the image is.
    pub src: String,
    /// Where a thumbnail of the image is.
    pub thumb: String,
    /// Horizontal position of the image.
    #[serde(default, deserialize_with = "wire::optional_integer")]
    pub x: Option<i64>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A font declares a name and a URL. Weight and style are declared when
/// several variants share one name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct TemplateFont {
    /// Name of the font.
    pub name: String,
    /// Where the font is.
    pub src: String,
    /// Weight of this variant.
    #[serde(default)]
    pub weight: Option<String>,
    /// Style of this variant.
    #[serde(default)]
    pub style: Option<String>,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A set of symbols (such as mana symbols) that texts can show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "camelCase")]
pub struct SymbolSet {
    /// Name of the set.
    pub name: String,
    /// The symbols.
    pub symbols: Vec<TemplateSymbol>,
    /// Common properties shared by the symbols' layers.
    pub prototype: Map<String, Value>,
    /// Prefix of the symbols' `src`.
    pub src_prefix: String,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// One symbol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct TemplateSymbol {
    /// Where the symbol's image is, after the set's prefix.
    pub src: String,
    /// The text code or codes the symbol stands for.
    pub name: SymbolName,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A symbol's name: one string, or several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(untagged)]
pub enum SymbolName {
    /// One name.
    One(String),
    /// Several names.
    Many(Vec<String>),
}

impl SymbolName {
    /// Every name, in order.
    #[must_use]
    pub fn names(&self) -> &[String] {
        match self {
            SymbolName::One(name) => std::slice::from_ref(name),
            SymbolName::Many(names) => names,
        }
    }
}
