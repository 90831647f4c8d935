//! The last step of every conversion: the output is validated, and what the
//! validator finds is said at its place in the input. Members the spec does
//! not define are left out (`dropped_member`), so the output is clean; errors
//! stay errors (the document is not written). Before that, a group's
//! `filters` may be copied onto its layers (`--push-filters`).

use std::collections::HashMap;

use cardkit::diagnostic::Detail;
use cardkit::Kind;
use cardkit::Severity;
use serde_json::{Map, Value};

use super::notes::Notes;
use cardkit_json::pointer::child;

/// Where the output's values come from in the input: pairs of pointer
/// prefixes, the longest matching one wins; a pointer that none matches is
/// at the same place in both.
#[derive(Debug, Default)]
pub(super) struct Mapping {
    /// By the output's prefix (a prefix given twice: the later pair).
    pairs: HashMap<String, String>,
}

impl Mapping {
    /// The output's `output` comes from the input's `input`.
    pub fn add(&mut self, output: String, input: String) {
        self.pairs.insert(output, input);
    }

    /// The input's pointer of the output's `pointer`: its prefixes looked
    /// up, longest first (not every pair tried for each pointer: 20,000
    /// image sets and a diagnostic for each were 400 million tries).
    pub fn to_input(&self, pointer: &str) -> String {
        let mut end = pointer.len();
        loop {
            if let Some(input) = self.pairs.get(&pointer[..end]) {
                return format!("{input}{}", &pointer[end..]);
            }
            match pointer[..end].rfind('/') {
                Some(at) => end = at,
                None => return pointer.to_owned(),
            }
        }
    }
}

/// Copies the `filters` of each group under `data` (at `pointer` in the
/// output) onto the layers under it, after their own, and takes them off the
/// groups; says so at each group.
pub(super) fn push_filters(data: &mut Value, pointer: &str, mapping: &Mapping, notes: &mut Notes) {
    push(data, pointer, &[], mapping, notes);
}

fn push(
    layer: &mut Value,
    pointer: &str,
    inherited: &[Value],
    mapping: &Mapping,
    notes: &mut Notes,
) -> usize {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
        let Some(object) = layer.as_object_mut() else {
            return 0;
        };
        let is_group = object.get("type").is_none_or(|kind| kind == "group")
            && object.contains_key("children");
        if !is_group {
            if inherited.is_empty() {
                return 0;
            }
            match object.get_mut("filters") {
                Some(Value::Array(own)) => own.extend(inherited.iter().cloned()),
                _ => {
                    object.insert("filters".to_owned(), Value::Array(inherited.to_vec()));
                }
            }
            return 1;
        }
        let own = match object.get("filters") {
            Some(Value::Array(own)) => {
                let own = own.clone();
                object.remove("filters");
                own
            }
            _ => Vec::new(),
        };
        let combined: Vec<Value> = own.iter().chain(inherited).cloned().collect();
        let mut layers = 0;
        if let Some(Value::Array(children)) = object.get_mut("children") {
            for (index, child) in children.iter_mut().enumerate() {
                let child_pointer = format!("{pointer}/children/{index}");
                layers += push(child, &child_pointer, &combined, mapping, notes);
            }
        }
        if !own.is_empty() {
            notes.derived(
                &mapping.to_input(&format!("{pointer}/filters")),
                "Group.filters",
                &Value::Array(own),
                format!(
                    "copied onto the {layers} layer(s) under the group (--push-filters), since \
                     the spec's Group has no `filters`"
                ),
            );
        }
        layers
    })
}

/// Validates `value` as a `kind` document; leaves out the members the spec
/// does not define, and notes every problem at its place in the input.
pub(super) fn settle(value: &mut Value, kind: Kind, mapping: &Mapping, notes: &mut Notes) {
    let bytes = match serde_json::to_vec(value) {
        Ok(bytes) => bytes,
        Err(error) => {
            notes.not_convertible("", format!("the output cannot be written: {error}"));
            return;
        }
    };
    let options = cardkit::Options {
        kind: Some(kind),
        ..cardkit::Options::default()
    };
    let report = cardkit::validate(&bytes, &options);
    for diagnostic in report.documents.iter().flat_map(|d| &d.diagnostics) {
        let input = mapping.to_input(&diagnostic.pointer);
        match &diagnostic.detail {
            Detail::UnknownField { model, name, .. }
                if diagnostic.severity == Severity::Warning =>
            {
                remove(value, &diagnostic.pointer);
                let reason = if *model == "Group" && name == "filters" {
                    "the spec's Group has no `filters` (--push-filters copies them onto the \
                     group's layers)"
                        .to_owned()
                } else {
                    format!("the spec's {model} has no such member")
                };
                notes.dropped(&input, name, reason);
            }
            _ => notes.validator(input, diagnostic),
        }
    }
}

/// Removes the member at `pointer` (an object's member) from `value`.
fn remove(value: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let mut at = value;
    for token in parent.split('/').skip(1) {
        let token = cardkit_json::pointer::unescape(token);
        at = match at {
            Value::Object(object) => match object.get_mut(token.as_ref()) {
                Some(next) => next,
                None => return,
            },
            Value::Array(items) => match token.parse::<usize>().ok().and_then(|i| items.get_mut(i))
            {
                Some(next) => next,
                None => return,
            },
            _ => return,
        };
    }
    if let Value::Object(object) = at {
        object.remove(cardkit_json::pointer::unescape(last).as_ref());
    }
}

/// A card design of the layered format (or the spec's: they are the same
/// tree of layers), from `card`: filters pushed when asked, and the
/// `asset_root_url` set.
pub(super) fn card_value(
    mut card: Map<String, Value>,
    asset_root: Option<&str>,
    pointer: &str,
    notes: &mut Notes,
) -> Map<String, Value> {
    if let Some(root) = asset_root {
        if card
            .get("asset_root_url")
            .is_some_and(|old| old.as_str() != Some(root))
        {
            notes.dropped(
                &child(pointer, "asset_root_url"),
                "asset_root_url",
                "replaced by --asset-root",
            );
        }
        card.insert("asset_root_url".to_owned(), Value::String(root.to_owned()));
    }
    card
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_prefix_maps_and_others_stay() {
        let mut mapping = Mapping::default();
        mapping.add(
            "/context/imageSets/0".into(),
            "/context/imageSets/frame".into(),
        );
        mapping.add(
            "/context/imageSets/0/variants/1".into(),
            "/context/imageSets/frame/variants/blue".into(),
        );
        assert_eq!(
            mapping.to_input("/context/imageSets/0/variants/1/y"),
            "/context/imageSets/frame/variants/blue/y"
        );
        assert_eq!(
            mapping.to_input("/context/imageSets/0/prototype"),
            "/context/imageSets/frame/prototype"
        );
        assert_eq!(
            mapping.to_input("/context/imageSets/01"),
            "/context/imageSets/01"
        );
        assert_eq!(mapping.to_input("/card/name"), "/card/name");
    }
}
