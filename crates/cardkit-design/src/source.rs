//! A design file read for the tools: a template or a card design in the
//! spec's shape, told apart by its members, validated and read into the
//! library's models.

use std::fmt;

use cardkit::model::{Card, Template};
use cardkit::ParseError;
use serde_json::Value;

use crate::layers::{LayerQueries, LayerQuery};

/// A template or a card design.
#[derive(Debug, Clone, PartialEq)]
pub enum Design {
    /// A template (root `name`, `context`, `card`).
    Template(Box<Template>),
    /// A card design (root `name`, `width`, `height`, `data`).
    Card(Box<Card>),
}

impl Design {
    /// Reads a template or a card design: a JSON object with a `context` or
    /// a `card` member is a template, any other a card design. Both are
    /// validated first, so an invalid one is reported with every problem.
    ///
    /// # Errors
    /// [`ReadError`]: not JSON, not an object, in the design tool's older
    /// layered layout, or invalid.
    pub fn read(bytes: &[u8]) -> Result<Design, ReadError> {
        let root: Value = serde_json::from_slice(bytes).map_err(ReadError::Syntax)?;
        let Value::Object(members) = &root else {
            return Err(ReadError::NotAnObject(json_type(&root)));
        };
        let layered = layered_markers(&root);
        if !layered.is_empty() {
            return Err(ReadError::Layered(layered));
        }
        if members.contains_key("context") || members.contains_key("card") {
            cardkit::from_slice::<Template>(bytes)
                .map(|template| Design::Template(Box::new(template)))
                .map_err(|error| ReadError::Invalid("template", error))
        } else {
            cardkit::from_slice::<Card>(bytes)
                .map(|card| Design::Card(Box::new(card)))
                .map_err(|error| ReadError::Invalid("card design", error))
        }
    }

    /// The card design: the file's, or the template's `card`.
    #[must_use]
    pub fn card(&self) -> &Card {
        match self {
            Design::Template(template) => &template.card,
            Design::Card(card) => card,
        }
    }

    /// The template, if the file is one.
    #[must_use]
    pub fn template(&self) -> Option<&Template> {
        match self {
            Design::Template(template) => Some(template),
            Design::Card(_) => None,
        }
    }

    /// What the file is: `template` or `card design`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Design::Template(_) => "template",
            Design::Card(_) => "card design",
        }
    }
}

impl LayerQueries for Design {
    fn layers(&self) -> LayerQuery<'_> {
        match self {
            Design::Template(template) => template.layers(),
            Design::Card(card) => card.layers(),
        }
    }
}

/// Why a design file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// Not JSON.
    Syntax(serde_json::Error),
    /// JSON, but not an object: the type found.
    NotAnObject(&'static str),
    /// In the design tool's older layered layout: the pointers of the
    /// members that tell it.
    Layered(Vec<&'static str>),
    /// Invalid as the kind it was taken for.
    Invalid(&'static str, ParseError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Syntax(error) => write!(f, "not JSON: {error}"),
            ReadError::NotAnObject(found) => write!(
                f,
                "expected a template or a card design (a JSON object), found {found}"
            ),
            ReadError::Layered(markers) => write!(
                f,
                "this template is in the design tool's older layered layout ({}), not the \
                 spec's shape; `cardkit import` converts it",
                markers.join(", ")
            ),
            ReadError::Invalid(kind, error) => write!(f, "invalid {kind}: {error}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// The members of a template that only the older layered layout has.
fn layered_markers(root: &Value) -> Vec<&'static str> {
    let mut markers = Vec::new();
    if root.get("metadata").is_some_and(Value::is_object) {
        markers.push("/metadata");
    }
    if let Some(context) = root.get("context") {
        if context.get("imageSets").is_some_and(Value::is_object) {
            markers.push("/context/imageSets is an object");
        }
        if context.get("symbolExtension").is_some() {
            markers.push("/context/symbolExtension");
        }
        if context.get("ui").is_some() {
            markers.push("/context/ui");
        }
    }
    markers
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
