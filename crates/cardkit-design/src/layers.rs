//! Layer queries: the layers of a card design found by name, regular
//! expression, tag and type, each with its JSON Pointer.
//!
//! ```
//! use cardkit::model::{Card, Tag};
//! use cardkit_design::layers::{LayerQueries, LayerType};
//!
//! let card: Card = serde_json::from_str(r#"{"name": "Card", "width": 1500, "height": 2100,
//!   "data": {"children": [
//!     {"type": "image", "name": "Frame", "src": "frame.png",
//!      "masks": [{"type": "image", "name": "Title", "src": "title.svg"}]},
//!     {"type": "text", "name": "Title", "text": "Hello", "size": 80,
//!      "x": 125, "y": 90, "width": 1250, "height": 80, "tags": ["editable"]}]}}"#).unwrap();
//!
//! let titles: Vec<_> = card.layers().named("Title").iter().map(|hit| hit.pointer).collect();
//! assert_eq!(titles, ["/data/children/0/masks/0", "/data/children/1"]);
//!
//! let text = card.layers().tagged(Tag::Editable).of_type(LayerType::Text).first().unwrap();
//! assert_eq!(text.layer.name(), Some("Title"));
//! ```
//!
//! The walk is the reference library's (mightstone's card-design models):
//! depth first, a layer's children first, then its masks (a mask is an image,
//! so it counts as a layer), then the layer itself; the card's top group is
//! the last hit of an unfiltered walk. Names compare as the reference compares
//! them: [`LayerQuery::named`] is exact and case-sensitive, and
//! [`LayerQuery::matching`] looks for a match that starts at the beginning of
//! the name (Python's `re.match`: anchored at the start, not at the end).
//! Layers without a name never match a name filter.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use cardkit::model::{Card, Group, Image, Layer, Mask, Tag, Template, Text};
use regex::Regex;
use serde::Serialize;
use serde_json::{Map, Value};

/// The type of a layer: the value of its `type` member. A mask is an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LayerType {
    /// A layer made of other layers.
    Group,
    /// An image (or a mask of one).
    Image,
    /// A text.
    Text,
}

impl LayerType {
    /// Every layer type, in the spec's order.
    pub const ALL: [LayerType; 3] = [LayerType::Group, LayerType::Image, LayerType::Text];

    /// The type's wire name: `group`, `image` or `text`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            LayerType::Group => "group",
            LayerType::Image => "image",
            LayerType::Text => "text",
        }
    }
}

impl fmt::Display for LayerType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for LayerType {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        LayerType::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| {
                format!("unknown layer type `{text}`; expected one of group, image, text")
            })
    }
}

/// Every tag of the spec, in its order.
pub const TAGS: [Tag; 5] = [
    Tag::Editable,
    Tag::Draggable,
    Tag::NewImageGroup,
    Tag::NewTextGroup,
    Tag::Name,
];

/// A tag's wire name (`new-image-group`).
#[must_use]
pub fn tag_name(tag: Tag) -> &'static str {
    match tag {
        Tag::Editable => "editable",
        Tag::Draggable => "draggable",
        Tag::NewImageGroup => "new-image-group",
        Tag::NewTextGroup => "new-text-group",
        Tag::Name => "name",
    }
}

/// A tag from its wire name.
///
/// # Errors
/// A name that is not one of the spec's tags, with the list of those.
pub fn parse_tag(text: &str) -> Result<Tag, String> {
    TAGS.into_iter()
        .find(|tag| tag_name(*tag) == text)
        .ok_or_else(|| {
            let known: Vec<&str> = TAGS.into_iter().map(tag_name).collect();
            format!("unknown tag `{text}`; expected one of {}", known.join(", "))
        })
}

/// A layer met on the walk: one of the three layer kinds, or a mask of an
/// image layer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerRef<'a> {
    /// A group.
    Group(&'a Group),
    /// An image layer.
    Image(&'a Image),
    /// A text layer.
    Text(&'a Text),
    /// A mask of an image layer.
    Mask(&'a Mask),
}

impl<'a> From<&'a Layer> for LayerRef<'a> {
    fn from(layer: &'a Layer) -> Self {
        match layer {
            Layer::Group(group) => LayerRef::Group(group),
            Layer::Image(image) => LayerRef::Image(image),
            Layer::Text(text) => LayerRef::Text(text),
        }
    }
}

impl<'a> LayerRef<'a> {
    /// The layer's type; a mask is an image.
    #[must_use]
    pub fn layer_type(&self) -> LayerType {
        match self {
            LayerRef::Group(_) => LayerType::Group,
            LayerRef::Image(_) | LayerRef::Mask(_) => LayerType::Image,
            LayerRef::Text(_) => LayerType::Text,
        }
    }

    /// Whether the layer is a mask of an image layer.
    #[must_use]
    pub fn is_mask(&self) -> bool {
        matches!(self, LayerRef::Mask(_))
    }

    /// The layer's name, if it has one.
    #[must_use]
    pub fn name(&self) -> Option<&'a str> {
        match self {
            LayerRef::Group(group) => group.name.as_deref(),
            LayerRef::Image(image) => image.name.as_deref(),
            LayerRef::Text(text) => text.name.as_deref(),
            LayerRef::Mask(mask) => Some(&mask.name),
        }
    }

    /// The layer's tags (none for a mask, which has no `tags`).
    #[must_use]
    pub fn tags(&self) -> &'a [Tag] {
        let tags = match self {
            LayerRef::Group(group) => group.tags.as_deref(),
            LayerRef::Image(image) => image.tags.as_deref(),
            LayerRef::Text(text) => text.tags.as_deref(),
            LayerRef::Mask(_) => None,
        };
        tags.unwrap_or_default()
    }

    /// The layer's box: the spec's `x`, `y`, `width`, `height` and `z` of an
    /// image, those but `z` of a text; groups and masks have none in the
    /// spec, but design files often carry them as extra members, which are
    /// read when they are integers.
    #[must_use]
    pub fn layer_box(&self) -> LayerBox {
        match self {
            LayerRef::Image(image) => LayerBox {
                x: Some(image.x),
                y: Some(image.y),
                width: Some(image.width),
                height: Some(image.height),
                z: Some(image.z),
            },
            LayerRef::Text(text) => LayerBox {
                x: Some(text.x),
                y: Some(text.y),
                width: Some(text.width),
                height: Some(text.height),
                z: integer(&text.extra, "z"),
            },
            LayerRef::Group(group) => LayerBox::from_members(&group.extra),
            LayerRef::Mask(mask) => LayerBox::from_members(&mask.extra),
        }
    }
}

/// Where a layer is drawn, as far as the layer says: each member is `None`
/// when the layer has no such member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct LayerBox {
    /// Left edge in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    /// Top edge in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i64>,
    /// Width in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
    /// Height in pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<i64>,
    /// Stacking order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<i64>,
}

impl LayerBox {
    fn from_members(members: &Map<String, Value>) -> Self {
        LayerBox {
            x: integer(members, "x"),
            y: integer(members, "y"),
            width: integer(members, "width"),
            height: integer(members, "height"),
            z: integer(members, "z"),
        }
    }

    /// Whether the layer says nothing of where it is drawn.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == LayerBox::default()
    }
}

fn integer(members: &Map<String, Value>, key: &str) -> Option<i64> {
    members.get(key).and_then(Value::as_i64)
}

/// A layer found, with its JSON Pointer from the root of the document
/// searched (`/data/children/3/masks/0` in a card, `/card/data/…` in a
/// template, `/children/…` from a bare group).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<'a> {
    /// Where the layer is.
    pub pointer: String,
    /// The layer.
    pub layer: LayerRef<'a>,
}

/// How a query compares names.
#[derive(Debug, Clone)]
enum NameFilter {
    Exact(String),
    Pattern(Regex),
}

/// A query over the layers of a card design: filters added one by one, all
/// of which a layer must pass. Made by [`LayerQueries::layers`].
#[derive(Debug, Clone)]
pub struct LayerQuery<'a> {
    root: &'a Group,
    base: String,
    name: Option<NameFilter>,
    tag: Option<Tag>,
    kind: Option<LayerType>,
}

impl<'a> LayerQuery<'a> {
    /// Every layer of the tree under `root` (`root` included), its pointers
    /// starting with `base` (the pointer of `root`).
    #[must_use]
    pub fn new(root: &'a Group, base: impl Into<String>) -> Self {
        LayerQuery {
            root,
            base: base.into(),
            name: None,
            tag: None,
            kind: None,
        }
    }

    /// Only layers named exactly `name` (case-sensitive). As in the
    /// reference, an empty name filters nothing. It replaces a name filter
    /// set before ([`LayerQuery::matching`] too).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        let name = name.into();
        self.name = (!name.is_empty()).then_some(NameFilter::Exact(name));
        self
    }

    /// Only layers whose name has a match of `pattern` starting at its first
    /// character (the match may end before the name does). It replaces a
    /// name filter set before ([`LayerQuery::named`] too).
    #[must_use]
    pub fn matching(mut self, pattern: &Regex) -> Self {
        self.name = Some(NameFilter::Pattern(pattern.clone()));
        self
    }

    /// Only layers tagged `tag` (masks have no tags).
    #[must_use]
    pub fn tagged(mut self, tag: Tag) -> Self {
        self.tag = Some(tag);
        self
    }

    /// Only layers of type `kind` (a mask is an image).
    #[must_use]
    pub fn of_type(mut self, kind: LayerType) -> Self {
        self.kind = Some(kind);
        self
    }

    /// Whether `layer` passes every filter of the query.
    #[must_use]
    pub fn accepts(&self, layer: &LayerRef<'_>) -> bool {
        let name_passes = match &self.name {
            None => true,
            Some(NameFilter::Exact(name)) => layer.name() == Some(name.as_str()),
            Some(NameFilter::Pattern(pattern)) => layer
                .name()
                .and_then(|name| pattern.find(name))
                .is_some_and(|found| found.start() == 0),
        };
        name_passes
            && self.tag.is_none_or(|tag| layer.tags().contains(&tag))
            && self.kind.is_none_or(|kind| layer.layer_type() == kind)
    }

    /// The layers that pass, in the walk's order.
    #[must_use]
    pub fn iter(&self) -> Hits<'a, '_> {
        Hits {
            walk: Walk::new(self.root, &self.base),
            query: self,
        }
    }

    /// The first layer that passes, if any; the walk stops there.
    #[must_use]
    pub fn first(&self) -> Option<Hit<'a>> {
        self.iter().next()
    }
}

impl<'a, 'q> IntoIterator for &'q LayerQuery<'a> {
    type Item = Hit<'a>;
    type IntoIter = Hits<'a, 'q>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The hits of a [`LayerQuery`], found lazily.
#[derive(Debug)]
pub struct Hits<'a, 'q> {
    walk: Walk<'a>,
    query: &'q LayerQuery<'a>,
}

impl<'a> Iterator for Hits<'a, '_> {
    type Item = Hit<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        let query = self.query;
        self.walk.by_ref().find(|hit| query.accepts(&hit.layer))
    }
}

/// Every layer under a group (the group included), unfiltered, in the
/// reference's order: children first, then a layer's masks, then the layer,
/// depth first. It keeps its own stack, so a deep tree costs heap, not
/// call stack.
#[derive(Debug)]
pub struct Walk<'a> {
    /// The layers entered and not yet left, with their pointer and the index
    /// of the next child to enter.
    stack: Vec<(LayerRef<'a>, String, usize)>,
    /// Hits made when a layer is left (its masks, then itself).
    ready: VecDeque<Hit<'a>>,
}

impl<'a> Walk<'a> {
    /// The walk of the tree under `root`, whose pointer is `base`.
    #[must_use]
    pub fn new(root: &'a Group, base: &str) -> Self {
        Walk {
            stack: vec![(LayerRef::Group(root), base.to_owned(), 0)],
            ready: VecDeque::new(),
        }
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Hit<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(hit) = self.ready.pop_front() {
                return Some(hit);
            }
            let (layer, pointer, next_child) = self.stack.last_mut()?;
            if let LayerRef::Group(group) = *layer {
                if let Some(child) = group.children.get(*next_child) {
                    let child_pointer = format!("{pointer}/children/{next_child}");
                    *next_child += 1;
                    self.stack.push((LayerRef::from(child), child_pointer, 0));
                    continue;
                }
            }
            let (layer, pointer, _) = self.stack.pop()?;
            if let LayerRef::Image(image) = layer {
                for (index, mask) in image.masks.iter().flatten().enumerate() {
                    self.ready.push_back(Hit {
                        pointer: format!("{pointer}/masks/{index}"),
                        layer: LayerRef::Mask(mask),
                    });
                }
            }
            self.ready.push_back(Hit { pointer, layer });
        }
    }
}

/// `layers()` on what holds a tree of layers: a card, a template, a group.
pub trait LayerQueries {
    /// A query over every layer, to narrow with [`LayerQuery::named`],
    /// [`LayerQuery::matching`], [`LayerQuery::tagged`] and
    /// [`LayerQuery::of_type`].
    fn layers(&self) -> LayerQuery<'_>;
}

impl LayerQueries for Card {
    fn layers(&self) -> LayerQuery<'_> {
        LayerQuery::new(&self.data, "/data")
    }
}

impl LayerQueries for Template {
    fn layers(&self) -> LayerQuery<'_> {
        LayerQuery::new(&self.card.data, "/card/data")
    }
}

impl LayerQueries for Group {
    fn layers(&self) -> LayerQuery<'_> {
        LayerQuery::new(self, "")
    }
}

/// A hit as the `layers` command lists it: plain data, for JSON output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HitSummary {
    /// Where the layer is.
    pub pointer: String,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: LayerType,
    /// Whether it is a mask of an image layer.
    pub mask: bool,
    /// Its name.
    pub name: Option<String>,
    /// Its tags, by wire name.
    pub tags: Vec<&'static str>,
    /// Its box, as far as the layer has one.
    #[serde(rename = "box")]
    pub layer_box: LayerBox,
}

impl From<&Hit<'_>> for HitSummary {
    fn from(hit: &Hit<'_>) -> Self {
        HitSummary {
            pointer: hit.pointer.clone(),
            kind: hit.layer.layer_type(),
            mask: hit.layer.is_mask(),
            name: hit.layer.name().map(str::to_owned),
            tags: hit.layer.tags().iter().copied().map(tag_name).collect(),
            layer_box: hit.layer.layer_box(),
        }
    }
}
