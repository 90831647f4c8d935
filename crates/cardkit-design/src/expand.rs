//! The image layer a variant of a template's image set makes: the set's
//! `prototype` with the variant's members over it, and the masks asked for.
//!
//! The design tool saves such a layer as the prototype's members followed by
//! the variant's (`{"type":"image","y":1870,"width":246,"height":101,"z":100,
//! "name":"Right Stat Box",…,"x":1166}` in the corpus card made from the
//! Angular template). When neither gives a position or a size, later saves
//! of the same card carry `x: 0`, `y: 0` and the card's width and height, on
//! the layer and on each of its masks: a frame covers the whole card. That is
//! [`Fill::CardSize`] (the tool's frame rule, [`crate::frame`]), the default; [`Fill::Nothing`] gives the bare merge,
//! as the first save of the card has it (the spec's defaults then apply:
//! 100 × 100 at 0, 0).
//!
//! The spec's image sets are a list without names. A set is named by its
//! index in `context.imageSets` (from 0), or by a `name` member of the set
//! (not in the spec, kept as an unknown member), or by the `name` of its
//! prototype; a name several sets share is an error that lists them.

use std::fmt;

use cardkit::model::{Mask, Template, TemplateContextImageSet, Variant};
use serde_json::{Map, Value};

/// What fills the position and size a layer's prototype and variant leave
/// out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fill {
    /// `x: 0`, `y: 0`, and the card's width and height, on the layer and its
    /// masks, as the design tool saves them.
    #[default]
    CardSize,
    /// Nothing: the bare merge of prototype and variant.
    Nothing,
}

/// What to expand: a set, one of its variants, masks of the set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The set: its index, or its name (see the module's docs).
    pub set: &'a str,
    /// The variant's name (or its index in the set's `variants`).
    pub variant: &'a str,
    /// Names of the set's masks to put on the layer, in this order.
    pub masks: Vec<&'a str>,
    /// What fills a position or size left out.
    pub fill: Fill,
}

/// The image layer `request` makes from `template`, ready to add to a card's
/// `children`. It is checked to be a valid image layer.
///
/// # Errors
/// [`ExpandError`]: an unknown or ambiguous set, an unknown variant or mask
/// (each listing those there are), or a prototype that does not make a valid
/// image layer.
pub fn expand(
    template: &Template,
    request: &Request<'_>,
) -> Result<Map<String, Value>, ExpandError> {
    let sets = &template.context.image_sets;
    let (set_index, set) = find_set(sets, request.set)?;
    let variant = find_variant(set_index, set, request.variant)?;
    let masks = request
        .masks
        .iter()
        .map(|name| find_mask(set_index, set, name))
        .collect::<Result<Vec<_>, _>>()?;

    let mut layer = set.prototype.clone();
    match layer.get("type") {
        None => {
            layer.insert("type".to_owned(), Value::from("image"));
        }
        Some(Value::String(kind)) if kind == "image" => {}
        Some(other) => {
            return Err(ExpandError::NotAnImage {
                set: set_index,
                found: other.clone(),
            })
        }
    }
    layer.extend(variant_members(variant));
    if !masks.is_empty() {
        let masks = masks
            .into_iter()
            .map(|mask| Value::Object(mask_members(mask, request.fill, template)))
            .collect();
        layer.insert("masks".to_owned(), Value::Array(masks));
    }
    if request.fill == Fill::CardSize {
        fill_card_size(&mut layer, template);
    }

    serde_json::from_value::<cardkit::model::Layer>(Value::Object(layer.clone())).map_err(
        |error| ExpandError::InvalidLayer {
            set: set_index,
            variant: variant.name.clone(),
            why: error.to_string(),
        },
    )?;
    Ok(layer)
}

/// The set named `id`: its index, or its name.
///
/// # Errors
/// [`ExpandError::UnknownSet`] or [`ExpandError::AmbiguousSet`].
pub fn find_set<'t>(
    sets: &'t [TemplateContextImageSet],
    id: &str,
) -> Result<(usize, &'t TemplateContextImageSet), ExpandError> {
    let named: Vec<usize> = sets
        .iter()
        .enumerate()
        .filter(|(_, set)| set_names(set).any(|name| name == id))
        .map(|(index, _)| index)
        .collect();
    match named.as_slice() {
        [index] => return Ok((*index, &sets[*index])),
        [] => {}
        _ => {
            return Err(ExpandError::AmbiguousSet {
                id: id.to_owned(),
                sets: named,
            })
        }
    }
    if let Some(index) = id.parse::<usize>().ok().filter(|index| *index < sets.len()) {
        return Ok((index, &sets[index]));
    }
    Err(ExpandError::UnknownSet {
        id: id.to_owned(),
        available: sets
            .iter()
            .enumerate()
            .map(|(i, set)| set_label(i, set))
            .collect(),
    })
}

/// The names a set answers to: its own `name` member, its prototype's.
fn set_names(set: &TemplateContextImageSet) -> impl Iterator<Item = &str> {
    [set.extra.get("name"), set.prototype.get("name")]
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// How a set is listed: its index and its names.
#[must_use]
pub fn set_label(index: usize, set: &TemplateContextImageSet) -> String {
    let names: Vec<&str> = set_names(set).collect();
    let variants: Vec<&str> = set.variants.iter().map(|v| v.name.as_str()).collect();
    let mut label = index.to_string();
    if !names.is_empty() {
        label.push_str(&format!(" ({})", names.join(", ")));
    }
    label.push_str(&format!(": {}", variants.join(", ")));
    label
}

fn find_variant<'t>(
    set_index: usize,
    set: &'t TemplateContextImageSet,
    name: &str,
) -> Result<&'t Variant, ExpandError> {
    set.variants
        .iter()
        .find(|variant| variant.name == name)
        .or_else(|| name.parse::<usize>().ok().and_then(|i| set.variants.get(i)))
        .ok_or_else(|| ExpandError::UnknownVariant {
            set: set_index,
            name: name.to_owned(),
            available: set.variants.iter().map(|v| v.name.clone()).collect(),
        })
}

fn find_mask<'t>(
    set_index: usize,
    set: &'t TemplateContextImageSet,
    name: &str,
) -> Result<&'t Mask, ExpandError> {
    let masks = set.masks.as_deref().unwrap_or_default();
    masks
        .iter()
        .find(|mask| mask.name == name)
        .ok_or_else(|| ExpandError::UnknownMask {
            set: set_index,
            name: name.to_owned(),
            available: masks.iter().map(|m| m.name.clone()).collect(),
        })
}

/// A variant's members as written: an absent `x` stays absent.
fn variant_members(variant: &Variant) -> Map<String, Value> {
    let mut members = Map::new();
    members.insert("name".to_owned(), Value::from(variant.name.as_str()));
    members.insert("src".to_owned(), Value::from(variant.src.as_str()));
    members.insert("thumb".to_owned(), Value::from(variant.thumb.as_str()));
    if let Some(x) = variant.x {
        members.insert("x".to_owned(), Value::from(x));
    }
    members.extend(variant.extra.clone());
    members
}

fn mask_members(mask: &Mask, fill: Fill, template: &Template) -> Map<String, Value> {
    let mut members = Map::new();
    members.insert("type".to_owned(), Value::from("image"));
    members.insert("name".to_owned(), Value::from(mask.name.as_str()));
    members.insert("src".to_owned(), Value::from(mask.src.as_str()));
    members.extend(mask.extra.clone());
    if fill == Fill::CardSize {
        fill_card_size(&mut members, template);
    }
    members
}

fn fill_card_size(members: &mut Map<String, Value>, template: &Template) {
    crate::frame::fill_card_box(members, template.card.width, template.card.height);
}

/// Why a variant could not be expanded.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpandError {
    /// No set has this index or name; the sets there are.
    UnknownSet {
        /// The index or name asked for.
        id: String,
        /// Each set: its index, names and variants.
        available: Vec<String>,
    },
    /// Several sets have this name: their indexes.
    AmbiguousSet {
        /// The name asked for.
        id: String,
        /// The sets that have it.
        sets: Vec<usize>,
    },
    /// The set has no variant of this name.
    UnknownVariant {
        /// The set's index.
        set: usize,
        /// The name asked for.
        name: String,
        /// The variants there are.
        available: Vec<String>,
    },
    /// The set has no mask of this name.
    UnknownMask {
        /// The set's index.
        set: usize,
        /// The name asked for.
        name: String,
        /// The masks there are.
        available: Vec<String>,
    },
    /// The set's prototype says the layer is not an image.
    NotAnImage {
        /// The set's index.
        set: usize,
        /// The prototype's `type`.
        found: Value,
    },
    /// The merged members do not make a valid image layer.
    InvalidLayer {
        /// The set's index.
        set: usize,
        /// The variant's name.
        variant: String,
        /// What is wrong.
        why: String,
    },
}

impl fmt::Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpandError::UnknownSet { id, available } if available.is_empty() => {
                write!(f, "no image set `{id}`: the template has no image sets")
            }
            ExpandError::UnknownSet { id, available } => write!(
                f,
                "no image set `{id}` (a set is named by its index in /context/imageSets or by its \
                 name); the sets are:\n  {}",
                available.join("\n  ")
            ),
            ExpandError::AmbiguousSet { id, sets } => {
                let sets: Vec<String> = sets.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "image set name `{id}` is ambiguous: sets {} have it; name the set by its index",
                    sets.join(", ")
                )
            }
            ExpandError::UnknownVariant { set, name, available } => write!(
                f,
                "no variant `{name}` in /context/imageSets/{set}; its variants are: {}",
                available.join(", ")
            ),
            ExpandError::UnknownMask { set, name, available } if available.is_empty() => write!(
                f,
                "no mask `{name}` in /context/imageSets/{set}: the set has no masks"
            ),
            ExpandError::UnknownMask { set, name, available } => write!(
                f,
                "no mask `{name}` in /context/imageSets/{set}; its masks are: {}",
                available.join(", ")
            ),
            ExpandError::NotAnImage { set, found } => write!(
                f,
                "/context/imageSets/{set}/prototype/type is {found}: an image set makes image layers"
            ),
            ExpandError::InvalidLayer { set, variant, why } => write!(
                f,
                "/context/imageSets/{set} with variant `{variant}` does not make a valid image \
                 layer: {why}"
            ),
        }
    }
}

impl std::error::Error for ExpandError {}
