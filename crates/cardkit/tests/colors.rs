//! `is_color`, and the `color` of the exported JSON Schemas (standard
//! `enum` and `pattern`s, checked by the `jsonschema` crate), agree with
//! every verdict of the original implementation in
//! `shared/spec/colors.jsonl` (beside the repository).

mod support;

use cardkit::schema::json_schema::json_schema;
use cardkit::Kind;

/// The entries of `colors.jsonl`: each color and its verdict.
fn entries() -> Option<Vec<(usize, String, bool)>> {
    let shared = support::shared_dir()?;
    let path = shared.join("spec/colors.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let entry: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("line {}: not JSON: {error}", index + 1));
        let color = entry["color"]
            .as_str()
            .unwrap_or_else(|| panic!("line {}: no string \"color\"", index + 1));
        let valid = entry["valid"]
            .as_bool()
            .unwrap_or_else(|| panic!("line {}: no boolean \"valid\"", index + 1));
        entries.push((index + 1, color.to_owned(), valid));
    }
    assert_eq!(
        entries.len(),
        EXPECTED_ENTRIES,
        "colors.jsonl should list {EXPECTED_ENTRIES} colors"
    );
    Some(entries)
}

#[test]
fn the_schema_color_agrees_with_colors_jsonl() {
    let Some(entries) = entries() else {
        return;
    };
    for kind in [Kind::Template, Kind::Card] {
        let schema = json_schema(kind);
        let color = serde_json::json!({
            "$schema": schema["$schema"],
            "$defs": schema["$defs"],
            "$ref": "#/$defs/color",
        });
        assert!(schema["$defs"]["color"].get("format").is_none());
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&color)
            .expect("the color schema compiles");
        let disagreements: Vec<String> = entries
            .iter()
            .filter(|(_, color, valid)| validator.is_valid(&serde_json::json!(color)) != *valid)
            .map(|(line, color, valid)| format!("line {line}: {color:?} should be valid={valid}"))
            .collect();
        assert!(
            disagreements.is_empty(),
            "the {kind} schema's color disagrees with colors.jsonl:\n{}",
            disagreements.join("\n")
        );
    }
}

/// How many lines the file has.
const EXPECTED_ENTRIES: usize = 591;

#[test]
fn is_color_agrees_with_colors_jsonl() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let path = shared.join("spec/colors.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));

    let mut entries = 0;
    let mut disagreements = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let entry: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|error| panic!("line {}: not JSON: {error}", index + 1));
        let color = entry["color"]
            .as_str()
            .unwrap_or_else(|| panic!("line {}: no string \"color\"", index + 1));
        let valid = entry["valid"]
            .as_bool()
            .unwrap_or_else(|| panic!("line {}: no boolean \"valid\"", index + 1));
        entries += 1;
        if cardkit::schema::format::is_color(color) != valid {
            disagreements.push(format!(
                "line {}: {color:?} should be valid={valid}",
                index + 1
            ));
        }
    }

    assert!(
        disagreements.is_empty(),
        "is_color disagrees with colors.jsonl on {} of {entries} colors:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert_eq!(
        entries, EXPECTED_ENTRIES,
        "colors.jsonl should list {EXPECTED_ENTRIES} colors"
    );
}
