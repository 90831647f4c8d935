//! A corpus template in the older layered layout moved to the spec's shape,
//! for the tests (the design crate's and the command's).

use serde_json::{json, Map, Value};

/// A corpus template in the older layered layout, moved to the spec's shape
/// by the few rules the tests need (not `cardkit import`, which reports what
/// it drops): `metadata.name` → `name`; `context.ui.license` →
/// `context.license`; object-keyed image sets, variants and masks → lists,
/// each set keeping its key as a `name` member; `symbolExtension.symbolSets`
/// → `symbolSets`, each named after the last folder of its `srcPrefix`.
/// (serde_json's maps are sorted, so lists come in key order.)
pub fn spec_template(layered: &Value) -> Value {
    let context = &layered["context"];
    let values = |object: &Value| -> Vec<Value> {
        object
            .as_object()
            .map(|o| o.values().cloned().collect())
            .unwrap_or_default()
    };
    let image_sets: Vec<Value> = context["imageSets"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(id, set)| {
            let mut out = Map::new();
            out.insert("name".into(), Value::from(id.as_str()));
            out.insert("prototype".into(), set["prototype"].clone());
            out.insert("variants".into(), Value::Array(values(&set["variants"])));
            if set.get("masks").is_some() {
                out.insert("masks".into(), Value::Array(values(&set["masks"])));
            }
            Value::Object(out)
        })
        .collect();
    let symbol_sets: Vec<Value> = context["symbolExtension"]["symbolSets"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|set| {
            let mut set = set.clone();
            let prefix = set["srcPrefix"].as_str().unwrap_or_default();
            let name = prefix
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or_default();
            set["name"] = Value::from(name);
            set
        })
        .collect();
    json!({
        "name": layered["metadata"]["name"],
        "context": {
            "license": context["ui"]["license"],
            "imageSets": image_sets,
            "fonts": context["fonts"],
            "symbolSets": symbol_sets,
        },
        "card": layered["card"],
    })
}
