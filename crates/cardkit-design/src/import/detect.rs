//! Which of the design tool's formats an input is, told from its content.

use cardkit::report::Layout;
use cardkit::Kind;
use serde_json::{Map, Value};

use super::options::From;

/// A format the import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The layered format: a template with `metadata` or image sets keyed
    /// by id, or a saved card design (a tree of layers).
    Layered,
    /// A template in the spec's shape (root `name`, lists), passed through.
    Spec,
    /// The classic save file: an array of `{key, data}`.
    Classic,
}

impl Format {
    /// `layered`, `spec` or `classic`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Layered => "layered",
            Format::Spec => "spec",
            Format::Classic => "classic",
        }
    }
}

/// The format of `value`, or why it is none the import reads.
pub(super) fn detect(value: &Value, from: From) -> Result<Format, String> {
    match (value, from) {
        (Value::Array(entries), From::Auto | From::Classic) => {
            // Every entry an object, one at least `{key, data}`: an entry
            // that lacks its `data` is reported on its own.
            let classic = entries.iter().all(Value::is_object)
                && (entries.is_empty() || entries.iter().any(is_classic_entry));
            if classic || from == From::Classic {
                Ok(Format::Classic)
            } else {
                Err(
                    "an array, but not of the classic save file's entries (objects with `key` \
                     and `data`)"
                        .to_owned(),
                )
            }
        }
        (Value::Object(root), From::Auto | From::Layered) => {
            if is_layered_template(root) {
                Ok(Format::Layered)
            } else if is_spec_template(root) {
                Ok(Format::Spec)
            } else if is_card(root) {
                // A saved card design: the same tree of layers in both formats.
                Ok(Format::Layered)
            } else {
                Err(
                    "an object, but neither a template (`metadata.name` or root `name`, with \
                     `context` or `card`) nor a card design (`width`, `height` or `data`)"
                        .to_owned(),
                )
            }
        }
        (Value::Object(_), From::Classic) => Err(
            "an object, but a classic save file is an array of `{key, data}` (--from classic)"
                .to_owned(),
        ),
        (Value::Array(_), From::Layered) => Err(
            "an array, but a layered template or card design is an object (--from layered)"
                .to_owned(),
        ),
        (other, _) => Err(format!(
            "{} is none of the design tool's formats (an object or an array)",
            kind_of(other)
        )),
    }
}

/// Whether `value` is a template (in the older layout or the spec's).
pub(super) fn is_template(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|root| is_layered_template(root) || is_spec_template(root))
}

/// What the input is when the validator reads it as sets or migrations
/// rather than a card design: `a set (at /data, wrapped layout)`, or a
/// bare one that is valid as such, said with what reads it instead; `None`
/// for a card design (or nothing it can tell).
pub(super) fn other_kind(bytes: &[u8]) -> Option<String> {
    let report = cardkit::validate(bytes, &cardkit::Options::default());
    // A bare object is named a set or a migration only when it is a valid
    // one: a few members (`cards`) are not enough to say what it is.
    let bare = report.layout == Layout::Bare;
    if bare && !report.is_valid() {
        return None;
    }
    let kinds: Vec<(Kind, &str)> = report
        .documents
        .iter()
        .filter_map(|document| Some((document.kind?, document.pointer.as_str())))
        .collect();
    let (kind, pointer) = kinds
        .iter()
        .copied()
        .find(|(kind, _)| matches!(kind, Kind::Set | Kind::Migration))?;
    let what = match kind {
        Kind::Set => "set",
        _ => "migration notice",
    };
    let count = kinds.iter().filter(|(other, _)| *other == kind).count();
    let found = if bare {
        format!("a {what}")
    } else if count == 1 {
        format!("a {what} (at {pointer}, {} layout)", report.layout.as_str())
    } else {
        format!("{count} {what}s ({} layout)", report.layout.as_str())
    };
    Some(format!(
        "{found}, not a design file: the import reads the design tool's templates, card \
         designs and classic save files; `cardkit validate` checks {what}s"
    ))
}

fn is_classic_entry(entry: &Value) -> bool {
    entry
        .as_object()
        .is_some_and(|entry| entry.contains_key("key") && entry.contains_key("data"))
}

/// `metadata.name`, image sets by id, or symbol sets under
/// `symbolExtension`: the older layout.
fn is_layered_template(root: &Map<String, Value>) -> bool {
    let context = root.get("context").and_then(Value::as_object);
    root.get("metadata").is_some_and(Value::is_object)
        || context.is_some_and(|context| {
            context.get("imageSets").is_some_and(Value::is_object)
                || context.contains_key("symbolExtension")
                || context.contains_key("ui")
        })
}

fn is_spec_template(root: &Map<String, Value>) -> bool {
    root.contains_key("name") && (root.contains_key("context") || root.contains_key("card"))
}

fn is_card(root: &Map<String, Value>) -> bool {
    ["width", "height", "data"]
        .iter()
        .any(|member| root.contains_key(*member))
        && !root.contains_key("context")
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_are_told_from_their_members() {
        let cases = [
            (
                json!({"metadata": {"name": "A"}, "card": {}}),
                Ok(Format::Layered),
            ),
            (
                json!({"name": "A", "context": {"imageSets": {}}}),
                Ok(Format::Layered),
            ),
            (
                json!({"name": "A", "context": {"imageSets": []}, "card": {}}),
                Ok(Format::Spec),
            ),
            (
                json!({"name": "A", "width": 1, "height": 1}),
                Ok(Format::Layered),
            ),
            (json!([{"key": "A", "data": {}}]), Ok(Format::Classic)),
            (json!([]), Ok(Format::Classic)),
        ];
        for (value, expected) in cases {
            assert_eq!(detect(&value, From::Auto), expected, "{value}");
        }
        for value in [json!({"cards": []}), json!([1]), json!("text"), json!(null)] {
            assert!(detect(&value, From::Auto).is_err(), "{value}");
        }
        assert!(detect(&json!({"name": "A", "width": 1}), From::Classic).is_err());
        assert!(detect(&json!([{"key": "A", "data": {}}]), From::Layered).is_err());
    }
}
