//! `is_color` agrees with every verdict of the original implementation in
//! `shared/spec/colors.jsonl` (beside the repository).

mod support;

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
        if cardkit::format::is_color(color) != valid {
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
