//! The layered format to the spec's Template or Card; a template already in
//! the spec's shape, passed through.
//!
//! Of a layered template: `metadata.name` becomes `name`,
//! `context.ui.license` becomes `context.license`, the image sets (and their
//! variants and masks) keyed by id become lists in document order,
//! `context.symbolExtension.symbolSets` becomes `context.symbolSets` (each
//! named after its `srcPrefix`). A variant keeps its own members: the
//! set's `prototype` stays the set's, as the spec has it, and a layer made
//! from a variant is the prototype with the variant's members over it.

use cardkit::Kind;
use serde_json::{Map, Value};

use std::collections::{HashMap, HashSet};

use super::card::{self, Mapping};
use super::detect::Format;
use super::document::{ImportedDocument, Part};
use super::notes::Notes;
use super::offsets;
use super::options::ImportOptions;
use cardkit_json::pointer::{child, escape};

use crate::token::pointer_name;

/// Converts the one document of a layered (or spec-shaped) input.
pub(super) fn convert(value: Value, format: Format, options: &ImportOptions, bytes: &[u8]) -> Part {
    let mut notes = Notes::default();
    let Value::Object(root) = value else {
        notes.not_convertible("", "a template or card design is an object".to_owned());
        return Part {
            pointer: String::new(),
            kind: None,
            document: None,
            notes,
        };
    };
    let is_template = ["metadata", "context", "card"]
        .iter()
        .any(|member| root.contains_key(*member));
    let (kind, value) = match (format, is_template) {
        (Format::Spec, _) => (Kind::Template, spec_template(root, options, &mut notes)),
        (_, true) => {
            let orders = offsets::key_orders(bytes, &keyed_pointers(&root));
            (Kind::Template, template(root, options, &orders, &mut notes))
        }
        (_, false) => (Kind::Card, card(root, options, &mut notes)),
    };
    let document = value.map(|value| {
        let name = value
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        ImportedDocument {
            kind,
            name,
            value,
            pointer: String::new(),
        }
    });
    Part {
        pointer: String::new(),
        kind: Some(kind),
        document,
        notes,
    }
}

/// A template in the spec's shape: unchanged but for `--asset-root`; the
/// validator's findings reported as they are.
fn spec_template(
    mut root: Map<String, Value>,
    options: &ImportOptions,
    notes: &mut Notes,
) -> Option<Value> {
    if let Some(asset_root) = &options.asset_root {
        if root
            .get("asset_root_url")
            .is_some_and(|old| old.as_str() != Some(asset_root))
        {
            notes.dropped(
                "/asset_root_url",
                "asset_root_url",
                "replaced by --asset-root",
            );
        }
        root.insert(
            "asset_root_url".to_owned(),
            Value::String(asset_root.clone()),
        );
    }
    let value = Value::Object(root);
    let bytes = serde_json::to_vec(&value).ok()?;
    let options = cardkit::Options {
        kind: Some(Kind::Template),
        ..cardkit::Options::default()
    };
    for document in cardkit::validate(&bytes, &options).documents {
        for diagnostic in &document.diagnostics {
            notes.validator(diagnostic.pointer.clone(), diagnostic);
        }
    }
    Some(value)
}

/// A saved card design.
fn card(root: Map<String, Value>, options: &ImportOptions, notes: &mut Notes) -> Option<Value> {
    let mapping = Mapping::default();
    let mut value = Value::Object(card::card_value(
        root,
        options.asset_root.as_deref(),
        "",
        notes,
    ));
    if options.push_filters {
        if let Some(data) = value.get_mut("data") {
            card::push_filters(data, "/data", &mapping, notes);
        }
    }
    card::settle(&mut value, Kind::Card, &mapping, notes);
    Some(value)
}

/// The input's order of member names, at the objects that become lists.
type Orders = HashMap<String, Vec<String>>;

/// The objects keyed by id whose order makes a list: the image sets, and
/// the variants and masks of each.
fn keyed_pointers(root: &Map<String, Value>) -> Vec<String> {
    let mut pointers = Vec::new();
    let sets: Vec<(String, &Value)> = match root
        .get("context")
        .and_then(|context| context.get("imageSets"))
    {
        Some(Value::Object(sets)) => {
            pointers.push("/context/imageSets".to_owned());
            sets.iter().map(|(id, set)| (id.clone(), set)).collect()
        }
        Some(Value::Array(sets)) => sets
            .iter()
            .enumerate()
            .map(|(i, set)| (i.to_string(), set))
            .collect(),
        _ => Vec::new(),
    };
    for (id, set) in sets {
        for member in ["variants", "masks"] {
            if set.get(member).is_some_and(Value::is_object) {
                pointers.push(format!(
                    "{}/{member}",
                    child("/context/imageSets", &pointer_name(&id))
                ));
            }
        }
    }
    pointers
}

/// A template of the layered format.
fn template(
    mut root: Map<String, Value>,
    options: &ImportOptions,
    orders: &Orders,
    notes: &mut Notes,
) -> Option<Value> {
    let mut output = Map::new();
    let mut mapping = Mapping::default();
    let asset_root = options
        .asset_root
        .clone()
        .map(Value::String)
        .or_else(|| root.remove("asset_root_url"));
    if options.asset_root.is_some() && root.contains_key("asset_root_url") {
        notes.dropped(
            "/asset_root_url",
            "asset_root_url",
            "replaced by --asset-root",
        );
    }
    if let Some(asset_root) = asset_root {
        output.insert("asset_root_url".to_owned(), asset_root);
    }
    output.insert("name".to_owned(), Value::String(name(&mut root, notes)));
    let context = match root.remove("context") {
        None => Map::new(),
        Some(Value::Object(context)) => context,
        Some(_) => {
            notes.not_convertible("/context", "a template's `context` is an object".to_owned());
            return None;
        }
    };
    output.insert(
        "context".to_owned(),
        Value::Object(self::context(context, orders, &mut mapping, notes)),
    );
    let Some(card) = root.remove("card") else {
        notes.not_convertible("/card", "a template needs its `card`".to_owned());
        return None;
    };
    for (member, _) in root {
        if member != "asset_root_url" {
            notes.dropped(
                &child("", &member),
                &member,
                "the spec's Template has no such member",
            );
        }
    }
    let card = match card {
        Value::Object(card) => Value::Object(card::card_value(card, None, "/card", notes)),
        other => other,
    };
    output.insert("card".to_owned(), card);
    let mut value = Value::Object(output);
    if options.push_filters {
        if let Some(data) = value.pointer_mut("/card/data") {
            card::push_filters(data, "/card/data", &mapping, notes);
        }
    }
    card::settle(&mut value, Kind::Template, &mapping, notes);
    Some(value)
}

/// `metadata.name` (the rest of `metadata` reported), or a root `name`.
fn name(root: &mut Map<String, Value>, notes: &mut Notes) -> String {
    let mut name = root.remove("name");
    match root.remove("metadata") {
        Some(Value::Object(metadata)) => {
            for (member, value) in metadata {
                if member == "name" && value.is_string() && name.is_none() {
                    name = Some(value);
                } else {
                    notes.dropped(
                        &child("/metadata", &member),
                        &member,
                        "the spec's Template keeps only the `name` of `metadata`",
                    );
                }
            }
        }
        Some(_) => notes.dropped("/metadata", "metadata", "it is not an object"),
        None => {}
    }
    match name {
        Some(Value::String(name)) => name,
        other => {
            let pointer = if other.is_some() {
                "/name"
            } else {
                "/metadata/name"
            };
            notes.derived(
                pointer,
                "Template.name",
                &Value::String(String::new()),
                "since the input gives no name (a string) for the template",
            );
            String::new()
        }
    }
}

/// The spec's TemplateContext of a layered one.
fn context(
    mut context: Map<String, Value>,
    orders: &Orders,
    mapping: &mut Mapping,
    notes: &mut Notes,
) -> Map<String, Value> {
    let mut output = Map::new();
    let mut license = context.remove("license");
    match context.remove("ui") {
        Some(Value::Object(ui)) => {
            for (member, value) in ui {
                if member == "license" && license.is_none() {
                    mapping.add(
                        "/context/license".to_owned(),
                        "/context/ui/license".to_owned(),
                    );
                    license = Some(value);
                } else {
                    notes.dropped(
                        &child("/context/ui", &member),
                        &member,
                        "the spec's TemplateContext keeps only the `license` of `ui`",
                    );
                }
            }
        }
        Some(_) => notes.dropped("/context/ui", "ui", "it is not an object"),
        None => {}
    }
    if let Some(license) = license {
        output.insert("license".to_owned(), license);
    }
    if let Some(sets) = context.remove("imageSets") {
        output.insert(
            "imageSets".to_owned(),
            image_sets(sets, orders, mapping, notes),
        );
    }
    if let Some(fonts) = context.remove("fonts") {
        output.insert("fonts".to_owned(), fonts);
    }
    let mut symbol_sets = match context.remove("symbolSets") {
        Some(Value::Array(sets)) => sets,
        Some(other) => {
            // Not a list: the validator says so, at its place.
            output.insert("symbolSets".to_owned(), other);
            Vec::new()
        }
        None => Vec::new(),
    };
    match context.remove("symbolExtension") {
        Some(Value::Object(extension)) => {
            for (member, value) in extension {
                match (member.as_str(), value) {
                    ("symbolSets", Value::Array(sets)) => {
                        extension_sets(sets, &mut symbol_sets, mapping, notes);
                    }
                    (_, _) => notes.dropped(
                        &child("/context/symbolExtension", &member),
                        &member,
                        "the spec keeps only the `symbolSets` (a list) of `symbolExtension`",
                    ),
                }
            }
        }
        Some(_) => notes.dropped(
            "/context/symbolExtension",
            "symbolExtension",
            "it is not an object",
        ),
        None => {}
    }
    if !symbol_sets.is_empty() && !output.contains_key("symbolSets") {
        output.insert("symbolSets".to_owned(), Value::Array(symbol_sets));
    }
    for (member, _) in context {
        notes.dropped(
            &child("/context", &member),
            &member,
            "the spec's TemplateContext has no such member",
        );
    }
    output
}

/// Image sets keyed by id as a list in document order (the ids reported),
/// each set's variants and masks likewise.
fn image_sets(sets: Value, orders: &Orders, mapping: &mut Mapping, notes: &mut Notes) -> Value {
    let entries: Vec<(Option<String>, Value)> = match sets {
        Value::Object(sets) => offsets::in_order(sets, orders.get("/context/imageSets"))
            .into_iter()
            .map(|(id, set)| (Some(id), set))
            .collect(),
        Value::Array(sets) => sets.into_iter().map(|set| (None, set)).collect(),
        other => return other,
    };
    let mut output = Vec::with_capacity(entries.len());
    for (index, (id, set)) in entries.into_iter().enumerate() {
        let out_pointer = format!("/context/imageSets/{index}");
        let in_pointer = match &id {
            Some(id) => {
                // A long id is cut in pointers (`crate::token`): the
                // pointers of a set's variants do not each hold a copy.
                let in_pointer = child("/context/imageSets", &pointer_name(id));
                notes.dropped(
                    &in_pointer,
                    id,
                    "image sets are a list in the spec, which has no place for their ids",
                );
                mapping.add(out_pointer.clone(), in_pointer.clone());
                in_pointer
            }
            None => out_pointer.clone(),
        };
        let Value::Object(mut set) = set else {
            output.push(set);
            continue;
        };
        if !set.contains_key("prototype") {
            notes.derived(
                &in_pointer,
                "TemplateContextImageSet.prototype",
                &Value::Object(Map::new()),
                "since the set has none (the spec requires it): its variants share nothing",
            );
            set.insert("prototype".to_owned(), Value::Object(Map::new()));
        }
        for member in ["variants", "masks"] {
            if !set.get(member).is_some_and(Value::is_object) {
                continue;
            }
            if let Some(Value::Object(by_id)) = set.remove(member) {
                let order = orders.get(&format!("{in_pointer}/{member}"));
                let mut list = Vec::with_capacity(by_id.len());
                for (position, (id, item)) in
                    offsets::in_order(by_id, order).into_iter().enumerate()
                {
                    let item_pointer =
                        format!("{in_pointer}/{member}/{}", escape(&pointer_name(&id)));
                    notes.dropped(
                        &item_pointer,
                        &id,
                        format!(
                            "{member} are a list in the spec, which has no place for their ids"
                        ),
                    );
                    mapping.add(format!("{out_pointer}/{member}/{position}"), item_pointer);
                    list.push(item);
                }
                set.insert(member.to_owned(), Value::Array(list));
            }
        }
        output.push(Value::Object(set));
    }
    Value::Array(output)
}

/// The symbol sets of `symbolExtension`, each with a `name` (the spec
/// requires one; the layered format has none): the last part of its
/// `srcPrefix`, made unique.
fn extension_sets(
    sets: Vec<Value>,
    output: &mut Vec<Value>,
    mapping: &mut Mapping,
    notes: &mut Notes,
) {
    let mut taken: HashSet<String> = output
        .iter()
        .filter_map(|set| set.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect();
    // The next number to try after each base name (not probed from 2 for
    // each set that shares it).
    let mut next: HashMap<String, usize> = HashMap::new();
    for (index, set) in sets.into_iter().enumerate() {
        let in_pointer = format!("/context/symbolExtension/symbolSets/{index}");
        mapping.add(
            format!("/context/symbolSets/{}", output.len()),
            in_pointer.clone(),
        );
        let Value::Object(mut set) = set else {
            output.push(set);
            continue;
        };
        if !set.get("name").is_some_and(Value::is_string) {
            let prefix = set.get("srcPrefix").and_then(Value::as_str);
            let base = prefix
                .and_then(|prefix| {
                    prefix
                        .split(['/', '\\'])
                        .rev()
                        .find(|part| !part.is_empty())
                })
                .unwrap_or("symbols");
            let mut name = base.to_owned();
            if taken.contains(&name) {
                let n = next.entry(base.to_owned()).or_insert(2);
                loop {
                    name = format!("{base} {n}");
                    *n += 1;
                    if !taken.contains(&name) {
                        break;
                    }
                }
            }
            let (pointer, from) = match prefix {
                Some(_) => (
                    format!("{in_pointer}/srcPrefix"),
                    "the last part of the set's `srcPrefix` (the spec requires a name)".to_owned(),
                ),
                None => (
                    in_pointer.clone(),
                    "since the set has neither a name nor a `srcPrefix`".to_owned(),
                ),
            };
            let value = Value::String(name.clone());
            notes.derived(&pointer, "SymbolSet.name", &value, from);
            set.insert("name".to_owned(), value);
            taken.insert(name);
        }
        output.push(Value::Object(set));
    }
}
