//! A design file read for the tools: a template or a card design in the
//! spec's shape, told apart by its members, validated and read into the
//! library's models.

use std::fmt;

use cardkit::model::{Card, Template};
use cardkit::ParseError;
use cardkit_json::Scanner;

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
    /// [`ReadError`]: not an object, in the design tool's older layered
    /// layout, invalid (not JSON included), or nested too deep.
    pub fn read(bytes: &[u8]) -> Result<Design, ReadError> {
        // Told apart by the root's members alone, read by structure: the
        // document is not held twice.
        let root = members_at(bytes, first_byte(bytes));
        if let Some(found) = not_an_object(bytes) {
            return Err(ReadError::NotAnObject(found));
        }
        let layered = layered_markers(bytes, &root);
        if !layered.is_empty() {
            return Err(ReadError::Layered(layered));
        }
        let is_template = root
            .iter()
            .any(|(name, _)| name == "context" || name == "card");
        let result = if is_template {
            cardkit::from_slice::<Template>(bytes)
                .map(|template| Design::Template(Box::new(template)))
                .map_err(|error| ReadError::Invalid("template", error))
        } else {
            cardkit::from_slice::<Card>(bytes)
                .map(|card| Design::Card(Box::new(card)))
                .map_err(|error| ReadError::Invalid("card design", error))
        };
        result.map_err(|error| match error {
            ReadError::Invalid(_, cardkit::ParseError::Model(why))
                if why.to_string().starts_with("recursion limit exceeded") =>
            {
                ReadError::TooDeep
            }
            other => other,
        })
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
    /// JSON, but not an object: the type found.
    NotAnObject(&'static str),
    /// In the design tool's older layered layout: the members that tell it.
    Layered(Vec<&'static str>),
    /// Invalid as the kind it was taken for (not JSON included).
    Invalid(&'static str, ParseError),
    /// Valid, but nested deeper than the typed models read (serde_json's
    /// limit of 128 levels).
    TooDeep,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
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
            ReadError::TooDeep => f.write_str(
                "the layers are nested deeper than the 128 levels the typed models read",
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// Where the first byte that is not white space is.
fn first_byte(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        .unwrap_or(bytes.len())
}

/// The JSON type of the root, when it is a value but not an object.
fn not_an_object(bytes: &[u8]) -> Option<&'static str> {
    let rest = &bytes[first_byte(bytes)..];
    match rest.first()? {
        b'[' => Some("an array"),
        b'"' => Some("a string"),
        b'-' | b'0'..=b'9' => Some("a number"),
        _ if rest.starts_with(b"true") || rest.starts_with(b"false") => Some("a boolean"),
        _ if rest.starts_with(b"null") => Some("null"),
        // Not JSON: the validator says where and why.
        _ => None,
    }
}

/// The members of the object at `at` (none if there is none there): each
/// name and where its value starts.
fn members_at(bytes: &[u8], at: usize) -> Vec<(String, usize)> {
    if bytes.get(at) != Some(&b'{') {
        return Vec::new();
    }
    Scanner::new(bytes, at)
        .members()
        .map(|member| (member.name.into_owned(), member.value_at))
        .collect()
}

/// The members of a template that only the older layered layout has.
fn layered_markers(bytes: &[u8], root: &[(String, usize)]) -> Vec<&'static str> {
    let at = |members: &[(String, usize)], name: &str| {
        members
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| *value)
    };
    let mut markers = Vec::new();
    if at(root, "metadata").is_some_and(|v| bytes[v] == b'{') {
        markers.push("/metadata");
    }
    if let Some(context) = at(root, "context") {
        let context = members_at(bytes, context);
        if at(&context, "imageSets").is_some_and(|v| bytes[v] == b'{') {
            markers.push("/context/imageSets is an object");
        }
        if at(&context, "symbolExtension").is_some() {
            markers.push("/context/symbolExtension");
        }
        if at(&context, "ui").is_some() {
            markers.push("/context/ui");
        }
    }
    markers
}
