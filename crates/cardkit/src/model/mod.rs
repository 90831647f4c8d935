//! Typed models of the four document kinds, with serde.
//!
//! Each model is also the single definition of its fields' facts: wire names,
//! types, required and nullable flags, defaults, version tags, deprecation and
//! meaning. `#[derive(Model)]` turns them into the field tables that the
//! validator interprets (see [`crate::schema`]).
//!
//! Deserializing a model does not validate the document: use
//! [`crate::validate`] (or [`crate::from_slice`]) for that.

pub mod card;
mod kind;
pub mod migration;
pub mod set;
pub mod template;
mod value;
pub(crate) mod wire;

pub use crate::table::{Kind, Layout};
pub use card::{
    Bound, BoundType, Card, Dependencies, Filter, FilterOverlay, FilterShadow, Group,
    HorizontalAlign, Image, Layer, Mask, Tag, TemplateRef, Text, VerticalAlign,
};
pub use migration::Migration;
pub use set::{
    CardSet, CardToken, ForeignData, Identifiers, LeadershipSkills, Legalities, PurchaseUrls,
    RelatedCards, Ruling, SealedProduct, Set, Translations,
};
pub use template::{
    SymbolName, SymbolSet, Template, TemplateContext, TemplateContextImageSet, TemplateFont,
    TemplateSymbol, Variant,
};
pub use value::{Color, Uri};
