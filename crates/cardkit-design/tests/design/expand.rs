//! Variants expanded to image layers: the corpus card's layers that come from
//! a variant of the Angular template are reproduced member for member, in
//! both saves of the card; unknown or ambiguous names are errors that list
//! what there is.

use crate::support;

use cardkit::model::{Template, TemplateContextImageSet};
use cardkit_design::expand::{expand, find_set, ExpandError, Fill, Request};
use serde_json::{json, Value};

const ANGULAR: &str = "raw/template/mightstone_template-angular.json";

fn angular() -> Option<Template> {
    let text = support::spec_template_file(ANGULAR)?;
    Some(cardkit::from_str(&text).expect("the spec-shaped Angular template validates"))
}

/// Every image layer of the card that has a `thumb` (only variants have one),
/// with its set found by the variant's name.
fn variant_layers(card: &Value) -> Vec<Value> {
    fn walk(layer: &Value, out: &mut Vec<Value>) {
        for child in layer["children"].as_array().into_iter().flatten() {
            walk(child, out);
        }
        if layer.get("thumb").is_some() {
            out.push(layer.clone());
        }
    }
    let mut out = Vec::new();
    walk(&card["data"], &mut out);
    out
}

#[test]
fn variants_reproduce_the_corpus_cards_layers() {
    let Some(template) = angular() else { return };
    for (relative, fill) in [
        (
            "raw/card/mightstone_dimirova-smiley_2023-02-18.json",
            Fill::Nothing,
        ),
        (
            "raw/card/mightstone_dimirova-smiley_head.json",
            Fill::CardSize,
        ),
    ] {
        let card: Value =
            serde_json::from_slice(&support::corpus_bytes(relative).unwrap()).expect("JSON");
        let layers = variant_layers(&card);
        // Six frames and the stat box.
        assert_eq!(layers.len(), 7, "{relative}");
        for layer in layers {
            let name = layer["name"].as_str().expect("a named layer");
            let (set, _) = template
                .context
                .image_sets
                .iter()
                .enumerate()
                .find(|(_, set)| set.variants.iter().any(|v| v.name == name))
                .unwrap_or_else(|| panic!("{relative}: no variant makes {name}"));
            let masks: Vec<&str> = layer["masks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|mask| mask["name"].as_str().expect("a mask's name"))
                .collect();
            let set = set.to_string();
            let request = Request {
                set: &set,
                variant: name,
                masks,
                fill,
            };
            let expanded = expand(&template, &request).expect("the variant expands");
            assert_eq!(Value::Object(expanded), layer, "{relative}: {name}");
        }
    }
}

#[test]
fn the_stat_box_is_the_prototype_with_the_variant_over_it() {
    let Some(template) = angular() else { return };
    let request = Request {
        set: "statBox",
        variant: "Right Stat Box",
        masks: vec![],
        fill: Fill::CardSize,
    };
    let layer = expand(&template, &request).unwrap();
    assert_eq!(
        Value::Object(layer),
        json!({"type": "image", "y": 1870, "width": 246, "height": 101, "z": 100,
               "name": "Right Stat Box", "src": "custom/11-20-22/statBoxRight.png",
               "thumb": "custom/11-20-22/thumb-statBoxRight.png", "x": 1166})
    );
    // The same set by its index, the same variant by its index.
    let by_index = Request {
        set: "1",
        variant: "1",
        ..request.clone()
    };
    assert_eq!(expand(&template, &by_index), expand(&template, &request));
}

#[test]
fn unknown_names_list_what_there_is() {
    let Some(template) = angular() else { return };
    let request = |set, variant, masks| Request {
        set,
        variant,
        masks,
        fill: Fill::CardSize,
    };

    let error = expand(&template, &request("borders", "Blue Frame", vec![])).unwrap_err();
    assert!(matches!(error, ExpandError::UnknownSet { .. }), "{error:?}");
    let text = error.to_string();
    assert!(
        text.contains("`borders`") && text.contains("0 (frame): Black Frame"),
        "{text}"
    );
    assert!(
        text.contains("1 (statBox): Left Stat Box, Right Stat Box"),
        "{text}"
    );

    let error = expand(&template, &request("7", "Blue Frame", vec![])).unwrap_err();
    assert!(matches!(error, ExpandError::UnknownSet { .. }), "{error:?}");

    let error = expand(&template, &request("frame", "Pink Frame", vec![])).unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("`Pink Frame`") && text.contains("/context/imageSets/0"),
        "{text}"
    );
    assert!(text.contains("Black Frame, Blue Frame"), "{text}");

    let error = expand(
        &template,
        &request("frame", "Blue Frame", vec!["Title", "Box"]),
    )
    .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("`Box`") && text.contains("Right Half"),
        "{text}"
    );

    let error = expand(
        &template,
        &request("statBox", "Left Stat Box", vec!["Title"]),
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("the set has no masks"),
        "{error}"
    );
}

fn set(value: Value) -> TemplateContextImageSet {
    serde_json::from_value(value).expect("an image set")
}

#[test]
fn a_name_two_sets_share_is_ambiguous() {
    let twin = || set(json!({"name": "frame", "prototype": {}, "variants": []}));
    let error = find_set(&[twin(), twin()], "frame").unwrap_err();
    assert_eq!(
        error,
        ExpandError::AmbiguousSet {
            id: "frame".into(),
            sets: vec![0, 1]
        }
    );
    assert!(error.to_string().contains("by its index"), "{error}");
    // A prototype's name names its set too.
    let named = set(json!({"prototype": {"name": "Border"}, "variants": []}));
    assert_eq!(
        find_set(std::slice::from_ref(&named), "Border").unwrap().0,
        0
    );
}

#[test]
fn a_prototype_that_makes_no_valid_image_is_refused() {
    let mut template = Template::dummy();
    template.card.width = 1500;
    template.card.height = 2100;
    let variant = json!({"name": "V", "src": "v.png", "thumb": "t.png"});
    template.context.image_sets = vec![
        set(json!({"prototype": {"type": "text"}, "variants": [variant]})),
        set(json!({"prototype": {"width": "wide"}, "variants": [variant]})),
        set(json!({"prototype": {"width": 30}, "variants": [variant]})),
    ];
    let request = |set| Request {
        set,
        variant: "V",
        masks: vec![],
        fill: Fill::CardSize,
    };
    let error = expand(&template, &request("0")).unwrap_err();
    assert!(
        error.to_string().contains("prototype/type is \"text\""),
        "{error}"
    );
    let error = expand(&template, &request("1")).unwrap_err();
    assert!(
        matches!(error, ExpandError::InvalidLayer { .. }),
        "{error:?}"
    );
    // A size the prototype gives is kept; the card's fills only the rest.
    let layer = expand(&template, &request("2")).unwrap();
    assert_eq!(layer["width"], 30);
    assert_eq!(layer["height"], 2100);
    assert_eq!(layer["x"], 0);
}

/// What `cardkit import` makes of the corpus template (it keeps no set
/// names: sets are named by index) expands to the corpus card's layers too.
#[test]
fn the_imported_template_expands_by_index_to_the_cards_layers() {
    use cardkit_design::import::{import, ImportOptions};
    let Some(bytes) = support::corpus_bytes(ANGULAR) else {
        return;
    };
    let imported = import(&bytes, &ImportOptions::default());
    let [document] = imported.documents.as_slice() else {
        panic!("one template imported")
    };
    let template: Template = serde_json::from_value(document.value.clone()).expect("a template");
    let card: Value = serde_json::from_slice(
        &support::corpus_bytes("raw/card/mightstone_dimirova-smiley_head.json").unwrap(),
    )
    .unwrap();
    let frames = &card["data"]["children"][0]["children"];
    for (set, variant, masks, layer) in [
        ("1", "Right Stat Box", vec![], &frames[7]),
        ("0", "Black Frame", vec!["Right Half"], &frames[2]),
        ("0", "Blue Frame", vec![], &frames[1]),
    ] {
        let request = Request {
            set,
            variant,
            masks,
            fill: Fill::CardSize,
        };
        let expanded = expand(&template, &request).expect("the variant expands");
        assert_eq!(&Value::Object(expanded), layer, "{variant}");
    }
}
