//! `cardkit_design::import` on the real corpus: every template and card
//! design of `raw/` and the classic save file import to documents that
//! validate, with snapshots of the output and of the report; importing the
//! output again changes nothing; a layer made from a template's variant is
//! the card's layer of that name; every frame, text and picture of the save
//! file is imported or reported.

use crate::support::shared;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cardkit::report::{FileReport, Summary, WarningFilter};
use cardkit::Code;
use cardkit::Kind;
use cardkit_design::import::{import, Format, ImportOptions, Imported};
use cardkit_run::render::{Renderer, Text};
use serde_json::{Map, Value};

/// The text report of one input, as `cardkit import` prints it.
fn report_text(name: &str, report: &FileReport) -> String {
    let mut renderer = Text::new(WarningFilter::new(usize::MAX));
    let mut out = Vec::new();
    renderer.file(&mut out, name, report).unwrap();
    let mut summary = Summary::default();
    summary.add(report, 0);
    renderer.finish(&mut out, &summary).unwrap();
    String::from_utf8(out).unwrap()
}

/// The diagnostics of `document`'s validation, as `validate` gives them.
fn validation(kind: Kind, value: &Value) -> Vec<String> {
    let bytes = serde_json::to_vec(value).unwrap();
    let options = cardkit::Options {
        kind: Some(kind),
        ..cardkit::Options::default()
    };
    cardkit::validate(&bytes, &options)
        .documents
        .iter()
        .flat_map(|document| &document.diagnostics)
        .map(|diagnostic| {
            format!(
                "{} {}: {}",
                diagnostic.code,
                diagnostic.pointer,
                diagnostic.message()
            )
        })
        .collect()
}

fn corpus_files(shared: &Path, kind: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus/raw").join(kind))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    files
}

/// Imports `bytes`; the output must validate without a diagnostic, and
/// importing it again must give it back with nothing to report.
fn import_cleanly(name: &str, bytes: &[u8], options: &ImportOptions) -> Imported {
    let imported = import(bytes, options);
    assert!(
        imported.report.is_valid(),
        "{name}:\n{}",
        report_text(name, &imported.report)
    );
    for document in &imported.documents {
        let found = validation(document.kind, &document.value);
        assert!(found.is_empty(), "{name} {}: {found:#?}", document.pointer);
        let again = serde_json::to_vec(&document.value).unwrap();
        let reimported = import(&again, options);
        assert_eq!(reimported.documents.len(), 1, "{name}");
        assert_eq!(
            reimported.documents[0].value, document.value,
            "{name}: not idempotent"
        );
        let notes: Vec<_> = reimported
            .report
            .documents
            .iter()
            .flat_map(|d| &d.diagnostics)
            .collect();
        assert!(notes.is_empty(), "{name}: re-import reports {notes:#?}");
    }
    imported
}

#[test]
fn every_template_and_card_of_the_corpus_imports_to_a_valid_document() {
    let Some(shared) = shared::shared_dir() else {
        return;
    };
    let mut checked = 0;
    for kind in ["template", "card"] {
        for path in corpus_files(&shared, kind) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).unwrap();
            let imported = import_cleanly(&name, &bytes, &ImportOptions::default());
            assert_eq!(imported.format, Some(Format::Layered), "{name}");
            assert_eq!(imported.documents.len(), 1, "{name}");
            let document = &imported.documents[0];
            assert_eq!(document.kind.as_str(), kind, "{name}");
            let stem = name.trim_end_matches(".json");
            assert_snapshot!(format!("{stem}_output"), document.to_json_pretty());
            assert_snapshot!(
                format!("{stem}_report"),
                report_text(&name, &imported.report)
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 5);
}

/// The members of `set`'s prototype with those of the variant over them: the
/// layer the design tool adds for that variant.
fn expanded(prototype: &Map<String, Value>, variant: &Map<String, Value>) -> Map<String, Value> {
    let mut layer = prototype.clone();
    layer.extend(variant.clone());
    layer
}

fn layers<'a>(layer: &'a Value, found: &mut Vec<&'a Map<String, Value>>) {
    if let Some(object) = layer.as_object() {
        found.push(object);
        if let Some(Value::Array(children)) = object.get("children") {
            for child in children {
                layers(child, found);
            }
        }
    }
}

#[test]
fn a_variant_over_its_prototype_is_the_cards_layer() {
    let Some(shared) = shared::shared_dir() else {
        return;
    };
    let template =
        std::fs::read(shared.join("corpus/raw/template/mightstone_template-angular.json")).unwrap();
    let template = import(&template, &ImportOptions::default());
    let context = &template.documents[0].value["context"];
    let mut variants = BTreeMap::new();
    for set in context["imageSets"].as_array().unwrap() {
        let prototype = set["prototype"].as_object().unwrap();
        for variant in set["variants"].as_array().unwrap() {
            let variant = variant.as_object().unwrap();
            variants.insert(
                variant["name"].as_str().unwrap().to_owned(),
                expanded(prototype, variant),
            );
        }
    }
    // In the input's order, which is not the names' order.
    let masks: Vec<&str> = context["imageSets"][0]["masks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mask| mask["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        masks,
        ["Right Half", "Title", "Type", "Rules", "Pinline", "Frame"]
    );
    // A prototype of y, width, height and z, and the variant's x.
    let right = &variants["Right Stat Box"];
    assert_eq!(right["x"], 1166);
    assert_eq!(right["y"], 1870);
    let mut compared = 0;
    for path in corpus_files(&shared, "card") {
        let card = import(&std::fs::read(&path).unwrap(), &ImportOptions::default());
        let mut found = Vec::new();
        layers(&card.documents[0].value["data"], &mut found);
        for layer in found {
            let Some(variant) = layer
                .get("name")
                .and_then(Value::as_str)
                .and_then(|n| variants.get(n))
            else {
                continue;
            };
            if layer.get("src") != variant.get("src") {
                continue;
            }
            // What the tool adds to a layer of a variant: the mask chosen,
            // and (in the later version) the place of a frame that covers
            // the whole card.
            let mut own = layer.clone();
            own.remove("masks");
            let whole = [("x", 0), ("y", 0), ("width", 1500), ("height", 2100)];
            if !variant.contains_key("width")
                && whole
                    .iter()
                    .all(|(k, v)| own.get(*k) == Some(&Value::from(*v)))
            {
                for (member, _) in whole {
                    own.remove(member);
                }
            }
            assert_eq!(&own, variant, "{}: {}", path.display(), variant["name"]);
            compared += 1;
        }
    }
    // The stat box and six frames, in each of the two cards.
    assert_eq!(compared, 14);
}

#[test]
fn group_filters_are_reported_or_pushed_onto_the_layers() {
    let Some(shared) = shared::shared_dir() else {
        return;
    };
    let bytes =
        std::fs::read(shared.join("corpus/raw/template/mightstone_template-tall.json")).unwrap();
    let plain = import(&bytes, &ImportOptions::default());
    let dropped: Vec<_> = plain.report.documents[0]
        .diagnostics
        .iter()
        .filter(|d| d.pointer == "/card/data/children/1/filters")
        .map(|d| d.code)
        .collect();
    assert_eq!(dropped, [Code::DroppedMember]);
    let options = ImportOptions {
        push_filters: true,
        ..ImportOptions::default()
    };
    let pushed = import_cleanly("tall", &bytes, &options);
    let group = &pushed.documents[0].value["card"]["data"]["children"][1];
    assert!(group.get("filters").is_none());
    let children = group["children"].as_array().unwrap();
    assert!(!children.is_empty());
    for child in children {
        let filters = child["filters"].as_array().unwrap();
        assert_eq!(
            filters.last().unwrap(),
            &serde_json::json!({"type": "shadow", "x": -4, "y": -2})
        );
    }
    let derived: Vec<_> = pushed.report.documents[0]
        .diagnostics
        .iter()
        .filter(|d| d.pointer == "/card/data/children/1/filters")
        .map(|d| d.code)
        .collect();
    assert_eq!(derived, [Code::DerivedValue]);
}

/// The save file's long strings (its `data:` pictures) shortened, for a
/// snapshot that people can read.
fn shortened(value: &mut Value) {
    match value {
        Value::String(text) if text.len() > 200 => {
            let head: String = text.chars().take(60).collect();
            *text = format!("{head}… ({} bytes)", text.len());
        }
        Value::Array(items) => items.iter_mut().for_each(shortened),
        Value::Object(members) => members.values_mut().for_each(shortened),
        _ => {}
    }
}

pub(crate) fn classic(shared: &Path) -> Vec<u8> {
    std::fs::read(shared.join("corpus/design-tool/naereen_saved-cards.cardconjurer")).unwrap()
}

#[test]
fn the_classic_save_file_imports_to_thirteen_valid_cards() {
    let Some(shared) = shared::shared_dir() else {
        return;
    };
    let bytes = classic(&shared);
    let imported = import_cleanly("saved-cards", &bytes, &ImportOptions::default());
    assert_eq!(imported.format, Some(Format::Classic));
    assert_eq!(imported.documents.len(), 13);
    for document in &imported.documents {
        assert_eq!(document.kind, Kind::Card);
        assert_eq!(
            (
                document.value["width"].as_i64(),
                document.value["height"].as_i64()
            ),
            (Some(1500), Some(2100))
        );
    }
    let cards: String = imported
        .documents
        .iter()
        .map(|document| {
            let mut document = document.clone();
            shortened(&mut document.value);
            document.to_json_pretty()
        })
        .collect();
    assert_snapshot!("classic_output", cards);
    assert_snapshot!(
        "classic_report",
        report_text("naereen_saved-cards.cardconjurer", &imported.report)
    );
}

/// The children of the group named `name` among a card's top layers.
pub(crate) fn group<'a>(card: &'a Value, name: &str) -> &'a [Value] {
    card["data"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|layer| layer["name"] == name)
        .map_or(&[], |group| group["children"].as_array().unwrap())
}

#[test]
fn what_is_no_format_of_the_tool_is_an_error_naming_why() {
    let cases: [(&[u8], &str); 5] = [
        (br#"{"cards": []}"#, "neither a template"),
        (b"[1, 2]", "not of the classic save file's entries"),
        (b"\"text\"", "a string is none of the design tool's formats"),
        (b"{\"name\": ", "invalid_json"),
        (b"", "invalid_json"),
    ];
    for (bytes, expected) in cases {
        let imported = import(bytes, &ImportOptions::default());
        assert!(imported.documents.is_empty());
        assert!(!imported.report.is_valid());
        let text = report_text("input.json", &imported.report);
        assert!(text.contains(expected), "{text}");
    }
    // A classic entry without data: that card fails, the others convert.
    let imported = import(
        br#"[{"key": "A", "data": {"width": 750, "height": 1050}}, {"key": "B"}]"#,
        &ImportOptions::default(),
    );
    assert_eq!(imported.documents.len(), 1);
    let errors: Vec<_> = imported.report.documents[1]
        .diagnostics
        .iter()
        .map(|d| (d.code, d.pointer.as_str()))
        .collect();
    assert_eq!(errors, [(Code::NotConvertible, "/1/data")]);
}

#[test]
fn the_asset_root_is_the_outputs() {
    let options = ImportOptions {
        asset_root: Some("https://assets.example.org/".to_owned()),
        ..ImportOptions::default()
    };
    let layered = br#"{"metadata": {"name": "T"}, "asset_root_url": "old/", "card": {"name": "", "width": 1, "height": 1}}"#;
    let imported = import(layered, &options);
    assert_eq!(
        imported.documents[0].value["asset_root_url"],
        "https://assets.example.org/"
    );
    let codes: Vec<_> = imported.report.documents[0]
        .diagnostics
        .iter()
        .map(|d| (d.code, d.pointer.as_str()))
        .collect();
    assert_eq!(codes, [(Code::DroppedMember, "/asset_root_url")]);
    let classic = br#"[{"key": "A", "data": {"width": 750, "height": 1050}}]"#;
    let imported = import(classic, &options);
    assert_eq!(
        imported.documents[0].value["asset_root_url"],
        "https://assets.example.org/"
    );
}

#[test]
fn a_classic_entrys_members_are_carried_over_or_reported_each() {
    let save = br##"[{"key": "Test", "data": {"width": 1000, "height": 2000, "marginX": 0.01,
      "frames": [
        {"name": "Top", "src": "top.png", "bounds": {"x": 0.1, "y": 0.2, "width": 0.5, "height": 0.25},
         "opacity": 50, "colorOverlayCheck": true, "colorOverlay": "#ff0000", "erase": true,
         "preserveAlpha": true, "hslHue": 30, "mode": "multiply", "masks": [{"name": "Half", "src": "half.svg"}]},
        {"name": "No picture"},
        {"name": "Bottom", "src": "bottom.png", "mode": "source-over", "hslHue": 0, "masks": []}
      ],
      "text": {"rules": {"text": "Flying{line}{bold}Haste{/bold}", "x": 0.1, "y": 0.5, "width": 0.8,
         "height": 0.2, "size": 0.03, "noVerticalCenter": true, "rotation": 90, "shadowX": 0.002,
         "shadowY": -0.001, "lineSpacing": 0.1, "align": "justify"}},
      "watermarkSource": "w.svg", "watermarkLeft": "#00ff00", "watermarkRight": "#0000ff",
      "watermarkOpacity": 0.4, "version": "m15", "manaSymbols": [], "margins": false}}]"##;
    let imported = import(save, &ImportOptions::default());
    assert!(
        imported.report.is_valid(),
        "{}",
        report_text("save", &imported.report)
    );
    let card = &imported.documents[0].value;
    assert!(validation(Kind::Card, card).is_empty());
    assert_eq!(card["marginX"], 10);
    let frames = group(card, "Frames");
    // Drawn last first: the bottom frame, then the top one.
    assert_eq!(frames[0]["name"], "Bottom");
    assert_eq!(frames[0]["width"], 1000);
    assert_eq!(frames[1]["name"], "Top");
    assert_eq!(
        (
            &frames[1]["x"],
            &frames[1]["y"],
            &frames[1]["width"],
            &frames[1]["height"]
        ),
        (
            &Value::from(100),
            &Value::from(400),
            &Value::from(500),
            &Value::from(500)
        )
    );
    assert_eq!(frames[1]["opacity"], 0.5);
    assert_eq!(frames[1]["filters"][0]["color"], "#ff0000");
    assert_eq!(frames[1]["masks"][0]["name"], "Half");
    let text = &group(card, "Text")[0];
    assert_eq!(text["verticalAlign"], "top");
    assert_eq!(text["rotation"], 90);
    assert_eq!(text["size"], 60);
    assert_eq!(
        text["filters"][0],
        serde_json::json!({"type": "shadow", "x": 2, "y": -2})
    );
    let watermark = card["data"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "Watermark")
        .unwrap();
    assert_eq!(watermark["filters"][0]["color"], "#00ff00");
    assert_eq!(watermark["opacity"], 0.4);
    let found: Vec<(Code, &str)> = imported.report.documents[0]
        .diagnostics
        .iter()
        .map(|d| (d.code, d.pointer.as_str()))
        .collect();
    let expected = [
        (Code::DroppedMember, "/0/data/frames/0/erase"),
        (Code::DroppedMember, "/0/data/frames/0/preserveAlpha"),
        (Code::DroppedMember, "/0/data/frames/0/hslHue"),
        (Code::DroppedMember, "/0/data/frames/0/mode"),
        (Code::DroppedMember, "/0/data/frames/1"),
        (Code::UnknownTextCode, "/0/data/text/rules/text"),
        (Code::UnknownTextCode, "/0/data/text/rules/text"),
        (Code::DroppedMember, "/0/data/text/rules/lineSpacing"),
        (Code::DroppedMember, "/0/data/text/rules/align"),
        (Code::DroppedMember, "/0/data/watermarkRight"),
        // No `watermarkBounds`: the whole card.
        (Code::DerivedValue, "/0/data/watermarkSource"),
        (Code::DroppedMember, "/0/data/version"),
    ];
    for item in &expected {
        assert!(found.contains(item), "{item:?} not in {found:#?}");
    }
    // The texts' colour and font are the tool's defaults, said once each.
    let derived = found
        .iter()
        .filter(|found| **found == (Code::DerivedValue, "/0/data/text"))
        .count();
    assert_eq!(derived, 2, "{found:#?}");
    assert_eq!(found.len(), expected.len() + derived, "{found:#?}");
}

#[test]
fn a_layered_document_that_cannot_be_valid_is_an_error_at_its_place_in_the_input() {
    let cases: [(&[u8], Code, &str); 4] = [
        // The validator's own finding, at the input's pointer.
        (
            br#"{"metadata": {"name": "T"}, "card": {"name": "", "width": "750", "height": 1}}"#,
            Code::WrongType,
            "/card/width",
        ),
        (
            br#"{"metadata": {"name": "T"}, "context": {"imageSets": {"frame": {"prototype": {}, "variants": {"red": {"name": "Red", "src": 1, "thumb": ""}}}}}, "card": {"name": "", "width": 1, "height": 1}}"#,
            Code::WrongType,
            "/context/imageSets/frame/variants/red/src",
        ),
        (br#"{"metadata": {"name": "T"}, "context": {}}"#, Code::NotConvertible, "/card"),
        (br#"{"name": "Card", "width": 750, "height": 1050, "data": {"children": [{"type": "video"}]}}"#, Code::UnknownDiscriminator, "/data/children/0/type"),
    ];
    for (bytes, code, pointer) in cases {
        let imported = import(bytes, &ImportOptions::default());
        assert!(imported.documents.is_empty(), "{pointer}");
        let errors: Vec<_> = imported.report.documents[0]
            .diagnostics
            .iter()
            .filter(|d| d.severity == cardkit::Severity::Error)
            .map(|d| (d.code, d.pointer.as_str()))
            .collect();
        assert_eq!(errors, [(code, pointer)]);
    }
    // A set without a prototype gets an empty one, said so.
    let imported = import(
        br#"{"metadata": {"name": "T"}, "context": {"imageSets": {"frame": {"variants": {}}}}, "card": {"name": "", "width": 1, "height": 1}}"#,
        &ImportOptions::default(),
    );
    assert_eq!(
        imported.documents[0].value["context"]["imageSets"][0]["prototype"],
        serde_json::json!({})
    );
    assert!(imported.report.documents[0]
        .diagnostics
        .iter()
        .any(|d| (d.code, d.pointer.as_str()) == (Code::DerivedValue, "/context/imageSets/frame")));
}

/// A set or a migration notice is no design file: `not_convertible`,
/// naming what it is, and nothing converted (it once came out as a Card
/// with a dozen `dropped_member`).
#[test]
fn a_set_or_a_migration_is_not_convertible_and_named() {
    let small_set = br#"{"meta": {"version": "5.2.0"}, "data": {"name": "Limited", "code": "LEA", "type": "core", "releaseDate": "1993-08-05", "baseSetSize": 0, "totalSetSize": 0, "cards": [], "tokens": [], "translations": {}}}"#;
    let imported = import(small_set, &ImportOptions::default());
    assert!(imported.documents.is_empty());
    assert_eq!(imported.format, None);
    let diagnostics = &imported.report.documents[0].diagnostics;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0].code, Code::NotConvertible);
    let message = diagnostics[0].message();
    assert!(
        message.contains("a set (at /data, wrapped layout), not a design file"),
        "{message}"
    );

    let Some(shared) = shared::shared_dir() else {
        return;
    };
    for (file, what) in [
        ("corpus/raw/set/jsonsets_LEA.json", "a set (at /data"),
        (
            "corpus/raw/migration/mtgssm_migrations.json",
            "2 migration notices",
        ),
        (
            "corpus/raw/migration/aioscryfall_single.json",
            "a migration notice, not a design file",
        ),
    ] {
        let bytes = std::fs::read(shared.join(file)).unwrap();
        let imported = import(&bytes, &ImportOptions::default());
        assert!(imported.documents.is_empty(), "{file}");
        let diagnostics = &imported.report.documents[0].diagnostics;
        assert_eq!(diagnostics.len(), 1, "{file}: {diagnostics:?}");
        assert_eq!(diagnostics[0].code, Code::NotConvertible, "{file}");
        assert!(
            diagnostics[0].message().contains(what),
            "{file}: {}",
            diagnostics[0].message()
        );
    }
}
