//! Layer queries on the corpus card: the reference library's published
//! results (mightstone 0.12, `tests/services/cardconjurer/test_local.py`, on
//! the card `Dimirova Smiley`) reproduced case by case, the walk's order
//! checked against an independent walk of the raw JSON, and properties of
//! queries over generated trees.

use crate::support;

use cardkit::model::{Card, Group, Tag};
use cardkit_design::layers::{parse_tag, LayerQueries, LayerQuery, LayerType, Walk};
use cardkit_design::source::Design;
use proptest::prelude::*;
use regex::Regex;
use serde_json::{json, Value};

const HEAD: &str = "raw/card/mightstone_dimirova-smiley_head.json";
const FIRST_SAVE: &str = "raw/card/mightstone_dimirova-smiley_2023-02-18.json";

/// The corpus card, read through the library's models (the layered card
/// file's layer tree is the spec's: it validates as a card design).
fn card(relative: &str) -> Option<Card> {
    let bytes = support::corpus_bytes(relative)?;
    match Design::read(&bytes).expect("the corpus card reads as a card design") {
        Design::Card(card) => Some(*card),
        Design::Template(_) => panic!("{relative} read as a template"),
    }
}

/// One published result of the reference: a query and what it finds.
struct Case {
    test: &'static str,
    name: Option<&'static str>,
    regex: Option<&'static str>,
    tag: Option<&'static str>,
    kind: Option<&'static str>,
    total: usize,
    /// The names of the first hits, in order (the reference checks up to 3).
    first: &'static [&'static str],
    /// The types of the first hits, where the reference checks them.
    first_types: &'static [LayerType],
}

const CASES: &[Case] = &[
    Case {
        test: "test_find_all",
        name: None,
        regex: None,
        tag: None,
        kind: None,
        total: 30,
        first: &[],
        first_types: &[],
    },
    Case {
        test: "test_find_all_by_unknown_name",
        name: Some("this incredible name should not appear"),
        regex: None,
        tag: None,
        kind: None,
        total: 0,
        first: &[],
        first_types: &[],
    },
    Case {
        test: "test_find_all_by_existing_tag",
        name: None,
        regex: None,
        tag: Some("editable"),
        kind: None,
        total: 12,
        first: &["Art", "Watermark", "Set Icon"],
        first_types: &[],
    },
    Case {
        test: "test_find_all_by_existing_type",
        name: None,
        regex: None,
        tag: None,
        kind: Some("text"),
        total: 10,
        first: &["Title", "Symbols", "Type"],
        first_types: &[],
    },
    Case {
        test: "test_find_all_by_existing_name",
        name: Some("Title"),
        regex: None,
        tag: None,
        kind: None,
        total: 2,
        first: &["Title", "Title"],
        first_types: &[LayerType::Image, LayerType::Text],
    },
    Case {
        test: "test_find_all_by_existing_name_through_regular_expression",
        name: None,
        regex: Some(".+le"),
        tag: None,
        kind: None,
        total: 5,
        first: &[],
        first_types: &[],
    },
    Case {
        test: "test_find_all_by_many_filters",
        name: None,
        regex: Some(".+e"),
        tag: Some("editable"),
        kind: Some("text"),
        total: 7,
        first: &[],
        first_types: &[],
    },
    Case {
        test: "test_find_by_unknown",
        name: Some("DOES NOT EXIST"),
        regex: None,
        tag: None,
        kind: None,
        total: 0,
        first: &[],
        first_types: &[],
    },
    Case {
        test: "test_find_by_name",
        name: Some("Title"),
        regex: None,
        tag: None,
        kind: None,
        total: 2,
        first: &["Title"],
        first_types: &[],
    },
    Case {
        test: "test_find_by_tag_keeps_first",
        name: None,
        regex: None,
        tag: Some("editable"),
        kind: None,
        total: 12,
        first: &["Art"],
        first_types: &[],
    },
];

fn query<'a>(card: &'a Card, case: &Case) -> LayerQuery<'a> {
    let mut query = card.layers();
    if let Some(name) = case.name {
        query = query.named(name);
    }
    if let Some(pattern) = case.regex {
        query = query.matching(&Regex::new(pattern).expect("a valid pattern"));
    }
    if let Some(tag) = case.tag {
        query = query.tagged(parse_tag(tag).expect("a known tag"));
    }
    if let Some(kind) = case.kind {
        query = query.of_type(kind.parse().expect("a known type"));
    }
    query
}

#[test]
fn the_reference_results_on_the_corpus_card() {
    let Some(card) = card(HEAD) else { return };
    for case in CASES {
        let query = query(&card, case);
        let hits: Vec<_> = query.iter().collect();
        assert_eq!(hits.len(), case.total, "{}: total", case.test);
        let names: Vec<_> = hits
            .iter()
            .take(case.first.len())
            .map(|h| h.layer.name())
            .collect();
        let expected: Vec<_> = case.first.iter().map(|n| Some(*n)).collect();
        assert_eq!(names, expected, "{}: first hits", case.test);
        let types: Vec<_> = hits
            .iter()
            .take(case.first_types.len())
            .map(|h| h.layer.layer_type())
            .collect();
        assert_eq!(types, case.first_types, "{}: first types", case.test);
        assert_eq!(
            query.first(),
            hits.first().cloned(),
            "{}: first()",
            case.test
        );
        // What the reference asserts of every hit.
        for hit in &hits {
            if let Some(pattern) = case.regex {
                let anchored = Regex::new(&format!("^(?:{pattern})")).expect("pattern");
                assert!(
                    anchored.is_match(hit.layer.name().unwrap_or_default()),
                    "{}",
                    case.test
                );
            }
            if let Some(tag) = case.tag {
                assert!(
                    hit.layer.tags().contains(&parse_tag(tag).unwrap()),
                    "{}",
                    case.test
                );
            }
            if let Some(kind) = case.kind {
                assert_eq!(hit.layer.layer_type().as_str(), kind, "{}", case.test);
            }
        }
    }
}

/// The reference's queries by an unknown tag or type find nothing there; here
/// they cannot be made: the name is refused with the names there are.
#[test]
fn unknown_tags_and_types_are_refused_with_the_known_ones() {
    let error = parse_tag("unknown").unwrap_err();
    assert!(
        error.contains("`unknown`") && error.contains("new-image-group"),
        "{error}"
    );
    let error = "fubar".parse::<LayerType>().unwrap_err();
    assert!(
        error.contains("`fubar`") && error.contains("group, image, text"),
        "{error}"
    );
}

/// The reference's `test_art_src_is_base64_encoded`: the first layer named
/// Art embeds its image.
#[test]
fn the_art_layer_embeds_its_image() {
    let Some(card) = card(HEAD) else { return };
    let art = card.layers().named("Art").first().expect("an Art layer");
    assert_eq!(art.pointer, "/data/children/0/children/0");
    let cardkit_design::layers::LayerRef::Image(image) = art.layer else {
        panic!("Art is an image layer")
    };
    assert!(image.src.starts_with("data:image/"), "{}", &image.src[..40]);
}

/// Every pointer of the walk, made by a recursive walk of the raw JSON (not
/// through the models): children first, then masks, then the layer.
fn raw_walk(layer: &Value, pointer: &str, out: &mut Vec<String>) {
    for (index, child) in layer["children"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        raw_walk(child, &format!("{pointer}/children/{index}"), out);
    }
    for index in 0..layer["masks"].as_array().map_or(0, Vec::len) {
        out.push(format!("{pointer}/masks/{index}"));
    }
    out.push(pointer.to_owned());
}

#[test]
fn the_walk_is_the_raw_documents_order_in_both_saves() {
    for relative in [HEAD, FIRST_SAVE] {
        let Some(card) = card(relative) else { return };
        let raw: Value = serde_json::from_slice(&support::corpus_bytes(relative).unwrap()).unwrap();
        let mut expected = Vec::new();
        raw_walk(&raw["data"], "/data", &mut expected);
        let walked: Vec<String> = card.layers().iter().map(|hit| hit.pointer).collect();
        assert_eq!(walked, expected, "{relative}");
        // Each pointer leads to the layer found there.
        for hit in card.layers().iter() {
            let at = raw.pointer(&hit.pointer).expect("the pointer resolves");
            assert_eq!(
                at.get("name").and_then(Value::as_str),
                hit.layer.name(),
                "{}",
                hit.pointer
            );
        }
    }
}

#[test]
fn a_template_points_under_its_card_and_a_group_from_itself() {
    let Some(text) = support::spec_template_file("raw/template/mightstone_template-angular.json")
    else {
        return;
    };
    let design = Design::read(text.as_bytes()).expect("the spec-shaped template reads");
    let template = design.template().expect("a template");
    let pointers: Vec<String> = template.layers().iter().map(|hit| hit.pointer).collect();
    assert_eq!(pointers.last().map(String::as_str), Some("/card/data"));
    assert!(pointers.iter().all(|p| p.starts_with("/card/data")));
    let from_group: Vec<String> = template
        .card
        .data
        .layers()
        .iter()
        .map(|hit| hit.pointer)
        .collect();
    let stripped: Vec<String> = pointers
        .iter()
        .map(|p| p["/card/data".len()..].to_owned())
        .collect();
    assert_eq!(from_group, stripped);
}

#[test]
fn a_layered_template_is_refused_with_the_way_to_convert_it() {
    let Some(bytes) = support::corpus_bytes("raw/template/mightstone_template-angular.json") else {
        return;
    };
    let error = Design::read(&bytes).unwrap_err().to_string();
    assert!(
        error.contains("/metadata") && error.contains("`cardkit import`"),
        "{error}"
    );
}

// Generated trees: names from a small pool (so filters hit), any tags, masks.

fn layer_tree() -> impl Strategy<Value = Value> {
    let names = prop::option::of(prop::sample::select(vec![
        "Title", "Art", "title", "Rules", "",
    ]));
    let tags = prop::option::of(prop::sample::subsequence(
        vec!["editable", "draggable", "name", "new-image-group"],
        0..3,
    ));
    let masks = prop::option::of(prop::collection::vec(
        prop::sample::select(vec!["Title", "Pinline"]),
        0..3,
    ));
    let leaf = (names.clone(), tags.clone(), masks, any::<bool>()).prop_map(
        |(name, tags, masks, is_text)| {
            let mut layer = if is_text {
                json!({"type": "text", "text": "x", "size": 10, "x": 0, "y": 0, "width": 1, "height": 1})
            } else {
                json!({"type": "image", "src": "a.png"})
            };
            if let Some(name) = name {
                layer["name"] = json!(name);
            }
            if let Some(tags) = tags {
                layer["tags"] = json!(tags);
            }
            if let (Some(masks), false) = (masks, is_text) {
                let masks: Vec<Value> = masks
                    .into_iter()
                    .map(|name| json!({"type": "image", "name": name, "src": "m.svg"}))
                    .collect();
                layer["masks"] = json!(masks);
            }
            layer
        },
    );
    leaf.prop_recursive(5, 48, 5, move |inner| {
        (
            names.clone(),
            tags.clone(),
            prop::collection::vec(inner, 0..5),
        )
            .prop_map(|(name, tags, children)| {
                let mut group = json!({"type": "group", "children": children});
                if let Some(name) = name {
                    group["name"] = json!(name);
                }
                if let Some(tags) = tags {
                    group["tags"] = json!(tags);
                }
                group
            })
    })
}

fn any_query() -> impl Strategy<
    Value = (
        Option<&'static str>,
        Option<&'static str>,
        Option<Tag>,
        Option<LayerType>,
    ),
> {
    (
        prop::option::of(prop::sample::select(vec!["Title", "Art", "", "Missing"])),
        prop::option::of(prop::sample::select(vec![
            "T",
            ".+le",
            "[a-z]",
            "(?i)title",
        ])),
        prop::option::of(prop::sample::select(cardkit_design::layers::TAGS.to_vec())),
        prop::option::of(prop::sample::select(LayerType::ALL.to_vec())),
    )
}

proptest! {
    #[test]
    fn hits_are_the_walk_filtered(
        tree in layer_tree(),
        (name, pattern, tag, kind) in any_query(),
    ) {
        let root = json!({"type": "group", "children": [tree]});
        let group: Group = serde_json::from_value(root.clone()).expect("a valid tree");
        let mut query = group.layers();
        if let Some(name) = name {
            query = query.named(name);
        }
        if let Some(pattern) = pattern {
            query = query.matching(&Regex::new(pattern).unwrap());
        }
        if let Some(tag) = tag {
            query = query.tagged(tag);
        }
        if let Some(kind) = kind {
            query = query.of_type(kind);
        }
        let walk: Vec<_> = Walk::new(&group, "").collect();
        let hits: Vec<_> = query.iter().collect();

        // A subsequence of the walk, in its order, with every layer the
        // walk has that passes the filters.
        let mut rest = walk.iter();
        for hit in &hits {
            prop_assert!(rest.any(|walked| walked == hit), "{} out of order", hit.pointer);
        }
        let passing = walk.iter().filter(|hit| query.accepts(&hit.layer)).count();
        prop_assert_eq!(hits.len(), passing);
        prop_assert_eq!(query.first(), hits.first().cloned());

        // The walk visits every layer and mask once, the root last.
        fn count(layer: &Value) -> usize {
            1 + layer["masks"].as_array().map_or(0, Vec::len)
                + layer["children"].as_array().into_iter().flatten().map(count).sum::<usize>()
        }
        prop_assert_eq!(walk.len(), count(&root));
        prop_assert_eq!(walk.last().map(|hit| hit.pointer.as_str()), Some(""));

        // Each hit passes each filter, checked against the raw JSON.
        for hit in &hits {
            let raw = root.pointer(&hit.pointer).expect("the pointer resolves");
            let raw_name = raw.get("name").and_then(Value::as_str);
            // A pattern replaces an exact name given before it.
            if let Some(name) = name.filter(|n| !n.is_empty() && pattern.is_none()) {
                prop_assert_eq!(raw_name, Some(name));
            }
            if let Some(pattern) = pattern {
                let anchored = Regex::new(&format!("^(?:{pattern})")).unwrap();
                prop_assert!(raw_name.is_some_and(|n| anchored.is_match(n)));
            }
            if let Some(tag) = tag {
                let wire = cardkit_design::layers::tag_name(tag);
                prop_assert!(raw["tags"].as_array().is_some_and(|t| t.contains(&json!(wire))));
            }
            if let Some(kind) = kind {
                prop_assert_eq!(raw["type"].as_str(), Some(kind.as_str()));
            }
        }
    }
}

#[test]
fn a_file_that_is_no_design_says_why() {
    use cardkit_design::source::ReadError;
    let read = |text: &str| Design::read(text.as_bytes()).unwrap_err();
    assert!(matches!(read("[1]"), ReadError::NotAnObject("an array")));
    assert!(matches!(read("  null"), ReadError::NotAnObject("null")));
    let error = read("nope").to_string();
    assert!(error.contains("invalid_json"), "{error}");
    let error = read(r#"{"name": "C", "width": "wide", "height": 1}"#).to_string();
    assert!(
        error.starts_with("invalid card design:") && error.contains("/width"),
        "{error}"
    );
    // Deeper than serde_json's own limit of 128: read, as documents may
    // nest (more than 512 levels of groups).
    let mut layer = json!({"type": "image", "src": "a.png"});
    for _ in 0..300 {
        layer = json!({"type": "group", "children": [layer]});
    }
    let deep = json!({"name": "D", "width": 1, "height": 1, "data": layer});
    let text = serde_json::to_string(&deep).unwrap();
    let design = Design::read(text.as_bytes()).expect("300 groups are read");
    assert_eq!(design.layers().iter().count(), 301);
}
