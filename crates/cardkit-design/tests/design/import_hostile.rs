//! Hostile input to the import: deep nesting, huge strings, a large `data:`
//! picture, an input past the size limit. Each gives a clear report, never a
//! panic, in time linear in the input.

use std::time::{Duration, Instant};

use cardkit::Code;
use cardkit_design::file::MAX_DESIGN_BYTES;
use cardkit_design::import::{import, ImportOptions};

/// A card whose layers nest `levels` groups deep.
fn nested_card(levels: usize) -> Vec<u8> {
    let mut text = String::from(r#"{"name": "Deep", "width": 750, "height": 1050, "data": "#);
    for _ in 0..levels {
        text.push_str(r#"{"type": "group", "children": ["#);
    }
    text.push_str(
        r#"{"type": "text", "text": "x", "size": 10, "x": 0, "y": 0, "width": 1, "height": 1}"#,
    );
    for _ in 0..levels {
        text.push_str("]}");
    }
    text.push('}');
    text.into_bytes()
}

fn codes(bytes: &[u8]) -> Vec<Code> {
    import(bytes, &ImportOptions::default())
        .report
        .documents
        .iter()
        .flat_map(|document| &document.diagnostics)
        .map(|diagnostic| diagnostic.code)
        .collect()
}

#[test]
fn layers_nested_as_deep_as_documents_may_import() {
    // 512 levels of groups are valid (the spec's decision on nesting).
    let imported = import(
        &nested_card(512),
        &ImportOptions {
            push_filters: true,
            ..ImportOptions::default()
        },
    );
    assert!(imported.report.is_valid(), "{:?}", imported.report);
    assert_eq!(imported.documents.len(), 1);
}

#[test]
fn deeper_nesting_is_an_error_not_a_crash() {
    for levels in [2_000, 100_000] {
        assert_eq!(
            codes(&nested_card(levels)),
            [Code::NotConvertible],
            "{levels}"
        );
    }
    let brackets = "[".repeat(1_000_000);
    assert_eq!(codes(brackets.as_bytes()), [Code::NotConvertible]);
}

#[test]
fn a_ten_megabyte_picture_and_huge_strings_import_in_linear_time() {
    let picture = format!("data:image/png;base64,{}", "A".repeat(10 << 20));
    let key = "k".repeat(1 << 20);
    let save = serde_json::json!([{
        "key": key,
        "data": {"width": 1500, "height": 2100, "artSource": picture,
                 "text": {"title": {"text": "{x}".repeat(200_000), "size": 0.04}},
                 key.clone(): 1}
    }]);
    let bytes = serde_json::to_vec(&save).unwrap();
    let started = Instant::now();
    let imported = import(&bytes, &ImportOptions::default());
    let took = started.elapsed();
    assert_eq!(imported.documents.len(), 1);
    assert_eq!(
        imported.documents[0].value["data"]["children"][0]["src"]
            .as_str()
            .map(str::len),
        Some(picture.len())
    );
    // Bounded: one unknown text code reported per distinct code, the long
    // member name reported once, cut in the report.
    let diagnostics = &imported.report.documents[0].diagnostics;
    assert!(diagnostics.len() < 10, "{}", diagnostics.len());
    for diagnostic in diagnostics {
        assert!(diagnostic.message().len() < 1000, "{}", diagnostic.code);
    }
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn an_input_past_the_limit_is_refused() {
    let bytes = vec![b' '; MAX_DESIGN_BYTES + 1];
    assert_eq!(codes(&bytes), [Code::NotConvertible]);
}

#[test]
fn many_cards_each_with_something_to_report_import_in_linear_time() {
    // Each card's report is located in the same one pass over the input:
    // 20,000 cards of ~100 bytes, each with a dropped member.
    let entry = serde_json::json!({"key": "Card", "data": {"width": 750, "height": 1050, "version": "m15"}});
    let save = serde_json::Value::Array(vec![entry; 20_000]);
    let bytes = serde_json::to_vec(&save).unwrap();
    let started = Instant::now();
    let imported = import(&bytes, &ImportOptions::default());
    let took = started.elapsed();
    assert_eq!(imported.documents.len(), 20_000);
    let last = &imported.report.documents[19_999].diagnostics[0];
    assert_eq!(
        (last.code, last.pointer.as_str()),
        (Code::DroppedMember, "/19999/data/version")
    );
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn many_cards_of_one_name_get_file_names_in_linear_time() {
    // Each name numbered on from the last of its stem, not probed from 2
    // (20,000 cards of one name were 200 million probes).
    let names = vec!["Card"; 50_000];
    let started = Instant::now();
    let files = cardkit_design::import::file_names(&names);
    let took = started.elapsed();
    assert_eq!(files[0], "card.json");
    assert_eq!(files[1], "card-2.json");
    assert_eq!(files[49_999], "card-50000.json");
    // A name taken as given is skipped, whichever comes first.
    let files = cardkit_design::import::file_names(&["a-2", "a", "a", "a", "a-3"]);
    assert_eq!(
        files,
        ["a-2.json", "a.json", "a-3.json", "a-4.json", "a-3-2.json"]
    );
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// A layered template of `sets` image sets keyed by id, each with
/// `variants` variants keyed by id; the first set's id is `first`.
fn keyed_sets(sets: usize, variants: usize, first: &str) -> Vec<u8> {
    let mut by_id = serde_json::Map::new();
    for set in 0..sets {
        let mut set_variants = serde_json::Map::new();
        for variant in 0..variants {
            set_variants.insert(
                format!("v{variant}"),
                serde_json::json!({"name": format!("V{variant}"), "src": "v.png", "thumb": "t.png"}),
            );
        }
        let id = if set == 0 {
            first.to_owned()
        } else {
            format!("s{set}")
        };
        by_id.insert(
            id,
            serde_json::json!({"prototype": {}, "variants": set_variants}),
        );
    }
    let template = serde_json::json!({
        "metadata": {"name": "Keyed"},
        "context": {"imageSets": by_id},
        "card": {"name": "C", "width": 10, "height": 10}
    });
    serde_json::to_vec(&template).unwrap()
}

#[test]
fn many_keyed_image_sets_import_in_linear_time() {
    // 20,000 sets: each id is reported (a list has no place for it), each
    // report mapped back to the input by its prefix, each id ordered once.
    let bytes = keyed_sets(20_000, 1, "s0");
    let started = Instant::now();
    let imported = import(&bytes, &ImportOptions::default());
    let took = started.elapsed();
    assert_eq!(imported.documents.len(), 1);
    let diagnostics = &imported.report.documents[0].diagnostics;
    assert!(diagnostics.len() >= 40_000, "{}", diagnostics.len());
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn a_long_set_id_is_cut_in_every_pointer_under_it() {
    // A set id of 1 MiB over 2,000 variants: each note's pointer holds the
    // id's head, not a copy of it (was 2 GB of pointers).
    let id = "k".repeat(1 << 20);
    let bytes = keyed_sets(1, 2_000, &id);
    let imported = import(&bytes, &ImportOptions::default());
    assert_eq!(imported.documents.len(), 1);
    let diagnostics = &imported.report.documents[0].diagnostics;
    assert!(diagnostics.len() > 2_000, "{}", diagnostics.len());
    let token = cardkit_design::token::pointer_name(&id);
    let escaped = cardkit_json::pointer::escape(&token);
    for diagnostic in diagnostics {
        assert!(
            diagnostic.pointer.len() < 400,
            "{:.200}",
            diagnostic.pointer
        );
    }
    // Located where the input has them: each variant at its own offset.
    let last = diagnostics
        .iter()
        .find(|d| d.pointer == format!("/context/imageSets/{escaped}/variants/v1999"))
        .expect("the last variant's note");
    let at = bytes
        .windows(7)
        .position(|w| w == b"\"v1999\"")
        .expect("in the input");
    assert!(
        last.offset >= at && last.offset < at + 12,
        "{} {at}",
        last.offset
    );
}

#[test]
fn numbers_beyond_whole_pixels_are_noted_where_they_are() {
    // Clamped to what a 64-bit integer holds, and said (was silent).
    let save = serde_json::json!([{
        "key": "Huge",
        "data": {"width": 1e300, "height": 2100, "marginX": -1e300,
                 "text": {"title": {"text": "t", "size": 1e300, "x": 1e300, "shadowX": 1e300}}}
    }]);
    let bytes = serde_json::to_vec(&save).unwrap();
    let imported = import(&bytes, &ImportOptions::default());
    assert_eq!(imported.documents.len(), 1);
    let noted: Vec<(&str, Option<&str>)> = imported.report.documents[0]
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::DerivedValue && d.message().contains("64-bit"))
        .map(|d| (d.pointer.as_str(), d.field.as_deref()))
        .collect();
    for (pointer, field) in [
        ("/0/data/width", "Card.width"),
        ("/0/data/marginX", "Card.marginX"),
        ("/0/data/text/title/size", "Text.size"),
        ("/0/data/text/title/x", "Text.x"),
        ("/0/data/text/title/shadowX", "FilterShadow.x"),
    ] {
        assert!(
            noted.contains(&(pointer, Some(field))),
            "{pointer}: {noted:?}"
        );
    }
    // A card of ordinary numbers has no such note.
    let plain = serde_json::json!([{"key": "P", "data": {"width": 750, "height": 1050,
        "text": {"title": {"text": "t", "size": 0.04, "x": 0.1}}}}]);
    let imported = import(
        &serde_json::to_vec(&plain).unwrap(),
        &ImportOptions::default(),
    );
    assert!(imported.report.documents[0]
        .diagnostics
        .iter()
        .all(|d| !d.message().contains("64-bit")));
}
