//! The manifest of a design's assets, its rebase to another root and its
//! check against a local mirror: every `src` of the corpus templates and
//! cards is listed (compared with two independent readings of the text),
//! a rebase changes nothing outside the strings it rewrites and goes back
//! to the same bytes, and hostile `src` values are reported, never followed.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use cardkit_design::assets::manifest::{asset_members, check, manifest, Entry, Role, DATA_LIMIT};
use cardkit_design::assets::rebase::rebase;
use cardkit_design::assets::{Resolver, Root};
use cardkit_design::source::Design;
use regex::Regex;
use serde_json::{json, Value};

const TEMPLATES: [&str; 3] = [
    "raw/template/mightstone_template-a.json",
    "raw/template/mightstone_template-angular.json",
    "raw/template/mightstone_template-tall.json",
];
const CARDS: [&str; 2] = [
    "raw/card/mightstone_dimirova-smiley_2023-02-18.json",
    "raw/card/mightstone_dimirova-smiley_head.json",
];

/// Every design of the corpus in the spec's shape: the templates moved to
/// it, the card files as they are (their layout is the spec's).
fn corpus_designs() -> Option<Vec<(&'static str, String)>> {
    let mut designs = Vec::new();
    for relative in TEMPLATES {
        designs.push((relative, support::spec_template_file(relative)?));
    }
    for relative in CARDS {
        let bytes = support::corpus_bytes(relative)?;
        designs.push((relative, String::from_utf8(bytes).expect("UTF-8")));
    }
    Some(designs)
}

/// The pointers of every string member named `src`, `thumb` or
/// `srcPrefix`, by a recursive walk of the parsed JSON.
fn value_walk(value: &Value, pointer: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                let here = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                if member.is_string() && ["src", "thumb", "srcPrefix"].contains(&key.as_str()) {
                    out.push(here.clone());
                }
                value_walk(member, &here, out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                value_walk(item, &format!("{pointer}/{index}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_src_of_the_corpus_is_listed() {
    let Some(designs) = corpus_designs() else {
        return;
    };
    let member = Regex::new(r#""(src|thumb|srcPrefix)"\s*:\s*""#).unwrap();
    for (relative, text) in designs {
        Design::read(text.as_bytes()).unwrap_or_else(|e| panic!("{relative}: {e}"));
        let entries = manifest(text.as_bytes(), &Resolver::new(None)).expect("JSON");
        // As many as the text has members of those names with a string...
        assert_eq!(entries.len(), member.find_iter(&text).count(), "{relative}");
        // ...at the pointers a walk of the parsed document finds.
        let value: Value = serde_json::from_str(&text).unwrap();
        let mut expected = Vec::new();
        value_walk(&value, "", &mut expected);
        let mut listed: Vec<String> = entries.iter().map(|e| e.pointer.clone()).collect();
        listed.sort();
        expected.sort();
        assert_eq!(listed, expected, "{relative}");
        // Each span holds the string as written, and its value is the src.
        for entry in &entries {
            let written = &text[entry.span.0..entry.span.1];
            assert_eq!(
                serde_json::from_str::<String>(written).unwrap(),
                entry.src,
                "{relative}"
            );
            assert_eq!(
                value.pointer(&entry.pointer),
                Some(&json!(entry.src)),
                "{relative}"
            );
        }
    }
}

fn role_counts(entries: &[Entry]) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for entry in entries {
        *counts.entry(entry.role.as_str()).or_default() += 1;
    }
    counts
}

#[test]
fn the_roles_of_the_angular_templates_assets() {
    let Some(text) = support::spec_template_file(TEMPLATES[1]) else {
        return;
    };
    let value: Value = serde_json::from_str(&text).unwrap();
    let context = &value["context"];
    let count = |list: &Value, member: &str| -> usize {
        list.as_array()
            .into_iter()
            .flatten()
            .map(|item| item[member].as_array().map_or(0, Vec::len))
            .sum()
    };
    let variants = count(&context["imageSets"], "variants");
    let set_masks = count(&context["imageSets"], "masks");
    let symbols = count(&context["symbolSets"], "symbols");
    let symbol_sets = context["symbolSets"].as_array().unwrap().len();
    let fonts = context["fonts"].as_array().unwrap().len();
    // The card's image layers: none has a thumb or a mask in this template.
    let card_images = Regex::new(r#""src"\s*:"#).unwrap().find_iter(&text).count()
        - variants
        - set_masks
        - symbols
        - fonts;

    let entries = manifest(text.as_bytes(), &Resolver::new(None)).unwrap();
    let expected = BTreeMap::from([
        ("font", fonts),
        ("frame", variants),
        ("image", card_images),
        ("mask", set_masks),
        ("symbol", symbols + symbol_sets),
        ("thumb", variants),
    ]);
    assert_eq!(role_counts(&entries), expected);
    // A symbol resolves as its set's prefix and its own src.
    let symbol = entries
        .iter()
        .find(|e| e.pointer == "/context/symbolSets/1/symbols/1/src")
        .unwrap();
    assert_eq!(symbol.joined.as_deref(), Some("general/icon/camera.svg"));
}

#[test]
fn the_cards_layers_from_variants_are_frames_and_their_masks_masks() {
    let Some(bytes) = support::corpus_bytes(CARDS[1]) else {
        return;
    };
    let root = Root::parse("https://example.org/cc/");
    let entries = manifest(&bytes, &Resolver::new(Some(root))).unwrap();
    let role_of = |pointer: &str| {
        entries
            .iter()
            .find(|e| e.pointer == pointer)
            .map(|e| e.role)
    };
    assert_eq!(
        role_of("/data/children/0/children/1/src"),
        Some(Role::Frame)
    );
    assert_eq!(
        role_of("/data/children/0/children/1/thumb"),
        Some(Role::Thumb)
    );
    assert_eq!(
        role_of("/data/children/0/children/2/masks/0/src"),
        Some(Role::Mask)
    );
    assert_eq!(role_of("/data/children/3/src"), Some(Role::Image));
    let frame = entries
        .iter()
        .find(|e| e.pointer == "/data/children/0/children/1/src")
        .unwrap();
    assert_eq!(
        frame.location.as_deref(),
        Some("https://example.org/cc/custom/11-20-22/blue.png")
    );
    assert_eq!(frame.kind, Some("remote"));
    // The art is inline: its media type, size and hash, decoded.
    let art = entries
        .iter()
        .find(|e| e.pointer == "/data/children/0/children/0/src")
        .unwrap();
    let data = art.data.as_ref().expect("the art is a data: URI");
    assert!(data.media_type.starts_with("image/"), "{}", data.media_type);
    assert!(data.size > 0 && data.sha256.as_ref().is_some_and(|h| h.len() == 64));
    assert_eq!(art.problem, None);
}

/// A card design whose image layers have the given `src` values.
fn card_with(srcs: &[String]) -> String {
    let children: Vec<Value> = srcs
        .iter()
        .enumerate()
        .map(|(i, src)| json!({"type": "image", "name": format!("L{i}"), "src": src}))
        .collect();
    serde_json::to_string(
        &json!({"name": "Hostile", "width": 10, "height": 10, "data": {"children": children}}),
    )
    .unwrap()
}

#[test]
fn a_known_data_uri_is_measured_and_hashed() {
    let text = card_with(&["data:text/plain;base64,aGVsbG8=".to_owned()]);
    let entries = manifest(text.as_bytes(), &Resolver::new(None)).unwrap();
    let data = entries[0].data.as_ref().unwrap();
    assert_eq!(data.media_type, "text/plain");
    assert_eq!(data.size, 5);
    // SHA-256 of "hello".
    assert_eq!(
        data.sha256.as_deref(),
        Some("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    );
}

#[test]
fn hostile_srcs_are_reported_and_never_followed() {
    let huge = format!("data:image/png;base64,{}", "A".repeat(10 * 1024 * 1024));
    let srcs = [
        "../../etc/passwd".to_owned(),
        "file:///etc/passwd".to_owned(),
        "frames/%2e%2e/%2e%2e/secret".to_owned(),
        huge,
        "data:image/png;base64,@@@ not base64 @@@".to_owned(),
        "data:image/png".to_owned(),
    ];
    let text = card_with(&srcs);
    Design::read(text.as_bytes()).expect("a valid card design");
    let dir = tempfile::tempdir().unwrap();
    let resolver = Resolver::new(Some(Root::Dir(dir.path().to_path_buf())));
    let entries = manifest(text.as_bytes(), &resolver).unwrap();
    let problem = |i: usize| {
        entries[i]
            .problem
            .clone()
            .unwrap_or_else(|| panic!("{i}: no problem"))
    };
    assert!(
        problem(0).contains("leads out of the asset root"),
        "{}",
        problem(0)
    );
    assert!(
        problem(1).contains("scheme file: is never followed"),
        "{}",
        problem(1)
    );
    assert!(
        problem(2).contains("leads out of the asset root"),
        "{}",
        problem(2)
    );
    // The 10 MB URI: sized by its length, not decoded.
    let huge = entries[3].data.as_ref().unwrap();
    assert_eq!(huge.size, 10 * 1024 * 1024 / 4 * 3);
    assert!(huge.size > DATA_LIMIT && huge.sha256.is_none());
    assert!(problem(3).contains("beyond the limit"), "{}", problem(3));
    assert!(problem(4).contains("base64"), "{}", problem(4));
    assert!(problem(5).contains("no comma"), "{}", problem(5));
    // A mirror check finds none of those that cannot be located (a data:
    // URI that can be is inline, and needs no mirror).
    let missing = check(&entries, &resolver, dir.path());
    let pointers: Vec<&str> = missing.iter().map(|m| m.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/data/children/0/src",
            "/data/children/1/src",
            "/data/children/2/src",
            "/data/children/5/src"
        ]
    );
}

#[test]
fn a_mirror_check_finds_what_is_missing() {
    let Some(text) = support::spec_template_file(TEMPLATES[1]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let entries = manifest(
        text.as_bytes(),
        &Resolver::new(Some(Root::parse("https://cardconjurer.app/"))),
    )
    .unwrap();
    // Every asset but the fonts mirrored.
    let mut fonts = Vec::new();
    for entry in &entries {
        let target = entry.joined.clone().unwrap_or_else(|| entry.src.clone());
        if target.is_empty() {
            continue;
        }
        let path = dir.path().join(&target);
        if entry.pointer.ends_with("/srcPrefix") {
            std::fs::create_dir_all(&path).unwrap();
        } else if entry.role == Role::Font {
            fonts.push(entry.pointer.clone());
        } else {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, b"x").unwrap();
        }
    }
    let resolver = Resolver::new(Some(Root::parse("https://cardconjurer.app/")));
    let missing = check(&entries, &resolver, dir.path());
    let pointers: Vec<String> = missing.iter().map(|m| m.pointer.clone()).collect();
    assert_eq!(pointers, fonts);
    assert!(
        missing[0].why.contains("does not exist"),
        "{}",
        missing[0].why
    );
}

/// The text with the string of every `src`, `thumb`, `srcPrefix` and
/// `asset_root_url` member blanked, found by a pattern (not by the span
/// reader): what a rebase must leave as it was.
fn outside_spans(text: &str) -> String {
    let member =
        Regex::new(r#"("(?:src|thumb|srcPrefix|asset_root_url)"\s*:\s*)"(?:[^"\\]|\\.)*""#)
            .unwrap();
    member.replace_all(text, "${1}\"…\"").into_owned()
}

/// The Angular template with a root of its own, and a few assets written as
/// absolute URLs under it or elsewhere.
fn rooted_angular(root: &str) -> Option<String> {
    let text = support::spec_template_file(TEMPLATES[1])?;
    let mut value: Value = serde_json::from_str(&text).unwrap();
    value["asset_root_url"] = json!(root);
    value["context"]["fonts"][0]["src"] = json!(format!("{root}custom/font/Quango.otf"));
    value["context"]["imageSets"][0]["variants"][1]["thumb"] =
        json!("https://elsewhere.example/t.png");
    Some(serde_json::to_string_pretty(&value).unwrap())
}

#[test]
fn a_rebase_changes_only_the_strings_it_rewrites_and_comes_back() {
    let a = "https://cardconjurer.app/";
    let Some(original) = rooted_angular(a) else {
        return;
    };
    let root_a = Root::parse(a);
    for b in [
        "https://mirror.example/cc/",
        "https://mirror.example/deeper/path",
    ] {
        let there = rebase(original.as_bytes(), Some(&root_a), b).unwrap();
        let there_text = String::from_utf8(there.bytes.clone()).unwrap();
        assert_eq!(outside_spans(&there_text), outside_spans(&original), "{b}");
        let value: Value = serde_json::from_str(&there_text).unwrap();
        assert_eq!(value["asset_root_url"], json!(b));
        let moved = value["context"]["fonts"][0]["src"].as_str().unwrap();
        assert!(
            moved.starts_with(b) && moved.ends_with("/custom/font/Quango.otf"),
            "{moved}"
        );
        // Another host's URL and relative paths stay.
        assert_eq!(
            value["context"]["imageSets"][0]["variants"][1]["thumb"],
            "https://elsewhere.example/t.png"
        );
        assert_eq!(
            value["context"]["imageSets"][0]["variants"][0]["src"],
            "custom/11-20-22/black.png"
        );
        assert_eq!(there.edits.len(), 2, "{b}: the root and the font");
        Design::read(&there.bytes).expect("the rebased template validates");

        let back = rebase(&there.bytes, Some(&Root::parse(b)), a).unwrap();
        assert_eq!(
            String::from_utf8(back.bytes).unwrap(),
            original,
            "{b} and back"
        );
    }
}

#[test]
fn a_rebase_to_a_mirror_folder_makes_urls_under_the_root_relative() {
    let a = "https://cardconjurer.app/";
    let Some(original) = rooted_angular(a) else {
        return;
    };
    let mirror = tempfile::tempdir().unwrap();
    let mirror_root = mirror.path().to_str().unwrap();
    let rebased = rebase(original.as_bytes(), Some(&Root::parse(a)), mirror_root).unwrap();
    let text = String::from_utf8(rebased.bytes).unwrap();
    assert_eq!(outside_spans(&text), outside_spans(&original));
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value["context"]["fonts"][0]["src"],
        "custom/font/Quango.otf"
    );
    // Resolved against the folder, every relative asset is a file there.
    let entries = manifest(
        text.as_bytes(),
        &Resolver::new(Root::of_design(mirror_root, None)),
    )
    .unwrap();
    let font = entries
        .iter()
        .find(|e| e.pointer == "/context/fonts/0/src")
        .unwrap();
    assert_eq!(
        font.location.as_deref().map(Path::new),
        Some(mirror.path().join("custom/font/Quango.otf").as_path())
    );
}

#[test]
fn a_rebase_adds_the_root_to_a_file_without_one() {
    for (text, expected) in [
        (r#"{"name":"C","width":1,"height":1}"#, r#"{"asset_root_url": "https://b.example/","name":"C","width":1,"height":1}"#),
        ("{\n  \"name\": \"C\",\n  \"width\": 1,\n  \"height\": 1\n}", "{\n  \"asset_root_url\": \"https://b.example/\",\n  \"name\": \"C\",\n  \"width\": 1,\n  \"height\": 1\n}"),
    ] {
        let rebased = rebase(text.as_bytes(), None, "https://b.example/").unwrap();
        assert_eq!(String::from_utf8(rebased.bytes).unwrap(), expected);
    }
    assert!(rebase(b"[1]", None, "x").is_err());
}

#[test]
fn members_are_found_through_escapes() {
    let text = r#"{"a\/b": {"src": "x\u002fy.png"}, "list": [{"thumb": "t\"q"}]}"#;
    let members = asset_members(text.as_bytes()).unwrap();
    let found: Vec<(&str, &str)> = members
        .iter()
        .map(|m| (m.pointer.as_str(), m.value.as_str()))
        .collect();
    assert_eq!(found, [("/a~1b/src", "x/y.png"), ("/list/0/thumb", "t\"q")]);
}

#[test]
fn a_text_nested_too_deep_is_an_error_not_a_crash() {
    use cardkit_design::assets::manifest::{MembersError, MAX_DEPTH};
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(
        matches!(asset_members(deep.as_bytes()), Err(MembersError::TooDeep(at)) if at == MAX_DEPTH + 1)
    );
    assert!(rebase(deep.as_bytes(), None, "x").is_err());
    // The deepest string read is at depth MAX_DEPTH (the root is at 0).
    let fine = format!(
        "{}{{\"src\": \"a.png\"}}{}",
        "[".repeat(MAX_DEPTH - 1),
        "]".repeat(MAX_DEPTH - 1)
    );
    assert_eq!(asset_members(fine.as_bytes()).unwrap().len(), 1);
}

#[test]
fn a_long_member_name_is_cut_in_every_asset_pointer_under_it() {
    // 2,000 assets under a name of 1 MiB: each pointer holds the name's
    // head, its length and hash (was a copy of the name in each, 2 GB).
    let long = "k".repeat(1 << 20);
    let other = format!("{}j", &long[1..]);
    let srcs: Vec<Value> = (0..2_000)
        .map(|i| json!({"src": format!("{i}.png")}))
        .collect();
    let text =
        serde_json::to_string(&json!({long.clone(): srcs, other.clone(): [{"src": "o.png"}]}))
            .unwrap();
    let members = asset_members(text.as_bytes()).unwrap();
    assert_eq!(members.len(), 2_001);
    let token = |name: &str| {
        cardkit_json::pointer::escape(&cardkit_design::token::pointer_name(name)).into_owned()
    };
    for member in &members {
        assert!(member.pointer.len() < 200, "{:.200}", member.pointer);
    }
    let (long, other) = (token(&long), token(&other));
    let last = format!("/{long}/1999/src");
    assert!(members
        .iter()
        .any(|m| m.pointer == last && m.value == "1999.png"));
    // Another long name with the same head and length is told apart.
    let first = format!("/{other}/0/src");
    assert!(members
        .iter()
        .any(|m| m.pointer == first && m.value == "o.png"));
    assert_ne!(long, other);
}

#[test]
fn a_byte_order_mark_is_skipped_and_spans_stay_in_the_file() {
    let text = "\u{feff}{\"name\": \"C\", \"width\": 1, \"height\": 1, \"data\": {\"children\": [{\"type\": \"image\", \"src\": \"a.png\"}]}}";
    let members = asset_members(text.as_bytes()).unwrap();
    assert_eq!(members.len(), 1);
    let (start, end) = members[0].span;
    assert_eq!(&text[start..end], "\"a.png\"");
}
