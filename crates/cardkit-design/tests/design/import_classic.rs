//! The classic save file imported whole: every frame, text and picture of
//! its 13 cards is a layer, or reported.

use crate::import::{classic, group};
use crate::support::shared;

use cardkit::diagnostic::Detail;
use cardkit::Code;
use cardkit_design::import::{import, ImportOptions};
use serde_json::Value;

#[test]
fn every_frame_text_and_picture_is_imported_or_reported() {
    let Some(shared) = shared::shared_dir() else {
        return;
    };
    let bytes = classic(&shared);
    let input: Value = serde_json::from_slice(&bytes).unwrap();
    let imported = import(&bytes, &ImportOptions::default());
    let mut counted = (0, 0, 0);
    for (index, entry) in input.as_array().unwrap().iter().enumerate() {
        let data = &entry["data"];
        let card = &imported
            .documents
            .iter()
            .find(|d| d.pointer == format!("/{index}"))
            .unwrap()
            .value;
        let report = &imported.report.documents[index];
        let reported_whole = |prefix: &str| {
            report
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::DroppedMember)
                .filter(|d| {
                    d.pointer
                        .strip_prefix(prefix)
                        .is_some_and(|rest| !rest[1..].contains('/'))
                })
                .count()
        };
        // Frames: a masked image layer each, in the reverse of their order.
        let frames = data["frames"].as_array().unwrap();
        let layers = group(card, "Frames");
        let prefix = format!("/{index}/data/frames");
        assert_eq!(layers.len() + reported_whole(&prefix), frames.len());
        for (layer, frame) in layers.iter().zip(frames.iter().rev()) {
            assert_eq!(layer["src"], frame["src"]);
            assert_eq!(layer["name"], frame["name"]);
            let masks = frame["masks"].as_array().map_or(0, Vec::len);
            assert_eq!(
                layer
                    .get("masks")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len),
                masks
            );
        }
        counted.0 += frames.len();
        // Texts and bottom info: a text layer each, with its text.
        for (member, name) in [("text", "Text"), ("bottomInfo", "Bottom Info")] {
            let texts = data[member].as_object().unwrap();
            let layers = group(card, name);
            let prefix = format!("/{index}/data/{member}");
            assert_eq!(layers.len() + reported_whole(&prefix), texts.len());
            // As given, or as the codes that read the card make it (the
            // last value noted). (`serde_json::Value` keeps no order:
            // compared as sorted lists.)
            let mut written: Vec<Value> =
                layers.iter().map(|layer| layer["text"].clone()).collect();
            let mut given: Vec<Value> = texts
                .iter()
                .map(|(key, text)| {
                    let at = format!("{prefix}/{key}/text");
                    report
                        .diagnostics
                        .iter()
                        .filter(|d| d.pointer == at)
                        .filter_map(|d| match &d.detail {
                            Detail::DerivedValue { value, .. } => serde_json::from_str(value).ok(),
                            _ => None,
                        })
                        .next_back()
                        .unwrap_or_else(|| text["text"].clone())
                })
                .collect();
            written.sort_by_key(|text| text.to_string());
            given.sort_by_key(|text| text.to_string());
            assert_eq!(written, given);
            counted.1 += texts.len();
        }
        // The art, the watermark and the set symbol.
        for (member, name) in [
            ("artSource", "Art"),
            ("watermarkSource", "Watermark"),
            ("setSymbolSource", "Set Symbol"),
        ] {
            let layer = card["data"]["children"]
                .as_array()
                .unwrap()
                .iter()
                .find(|l| l["name"] == name);
            assert_eq!(
                layer.map(|l| &l["src"]),
                Some(&data[member]),
                "{index} {member}"
            );
            counted.2 += 1;
        }
    }
    assert_eq!(counted, (126, 117 + 65, 39), "frames, texts, pictures");
}
