//! A card-design template: a name, an asset root, a context of fonts, image
//! sets and symbol sets, and a card design.

mod context;

pub use context::{
    SymbolName, SymbolSet, TemplateContext, TemplateContextImageSet, TemplateFont, TemplateSymbol,
    Variant,
};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::card::{Card, Dependencies, Group};
use crate::Model;

/// A card-design template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Template {
    /// Not part of the original design-tool format. It lets relative paths be
    /// re-based into full URLs.
    #[serde(default)]
    pub asset_root_url: String,
    /// Name of the template.
    pub name: String,
    /// Fonts, image sets, symbol sets and license of the template.
    pub context: TemplateContext,
    /// The card design of the template.
    pub card: Card,
    /// Members the spec does not define, kept as they are so nothing is lost.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Template {
    /// The dummy template: named `Dummy`, an empty context, and a card named
    /// `Dummy` of 100 × 100 with every other field at its default.
    #[must_use]
    pub fn dummy() -> Self {
        Template {
            asset_root_url: String::new(),
            name: "Dummy".to_owned(),
            context: TemplateContext::default(),
            card: Card {
                asset_root_url: String::new(),
                name: "Dummy".to_owned(),
                width: 100,
                height: 100,
                corners: 0,
                margin_x: 0,
                margin_y: 0,
                dependencies: Dependencies::default(),
                data: Group::default(),
                extra: Map::new(),
            },
            extra: Map::new(),
        }
    }
}
