//! Typed models of the four document kinds.
#![allow(missing_docs)]
use crate::Model;
use serde::{Deserialize, Serialize};

/// A layer made of other layers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
pub struct Group {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub children: Vec<Layer>,
    /// x
    #[field(since = "v4.0.0", deprecated)]
    pub width: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Layer {
    Group(Group),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[serde(rename_all = "kebab-case")]
pub enum Tags { Editable, NewImageGroup }

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Model)]
#[model(constant)]
pub enum MaskType { #[serde(rename = "image")] Image }
#[cfg(test)]
mod t { use super::*; use crate::schema::*;
#[test] fn x() { let m = Group::model(); println!("{:#?}", m.fields.iter().map(|f| (f.name, f.required, f.nullable, f.default.map(|d| d()), f.since)).collect::<Vec<_>>()); println!("{:?}", <Vec<Layer>>::TYPE); println!("{:?} {:?}", Tags::TYPE, MaskType::TYPE);} }
