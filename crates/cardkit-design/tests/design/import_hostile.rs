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
