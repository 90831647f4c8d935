//! A design file read from a path or a reader: its bytes, the design it
//! holds told apart once, the size limit, and errors that name the file.

use std::io::Read;
use std::path::Path;

use cardkit_design::file::{read_design, DesignFile, FileError, MAX_DESIGN_BYTES};
use cardkit_design::source::Design;

const CARD: &str = r#"{"name": "C", "width": 10, "height": 10}"#;

#[test]
fn a_card_and_a_template_are_told_apart() {
    let card = DesignFile::from_reader("card.json", CARD.as_bytes()).expect("read");
    assert_eq!(card.bytes(), CARD.as_bytes());
    assert_eq!(card.path(), Path::new("card.json"));
    assert!(matches!(card.design(), Ok(Design::Card(_))));

    let template = format!(r#"{{"name": "T", "context": {{}}, "card": {CARD}}}"#);
    let read = DesignFile::from_reader("t.json", template.as_bytes()).expect("read");
    let design = read.design().expect("a template");
    assert_eq!(design.kind(), "template");
    assert_eq!(design.card().name, "C");
}

#[test]
fn standard_input_is_not_on_disk() {
    let stdin = DesignFile::from_reader("-", CARD.as_bytes()).expect("read");
    assert_eq!(stdin.on_disk(), None);
    let file = DesignFile::from_reader("cards/c.json", CARD.as_bytes()).expect("read");
    assert_eq!(file.on_disk(), Some(Path::new("cards/c.json")));
}

#[test]
fn a_file_on_disk_is_read_whole() {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("card.json");
    std::fs::write(&path, CARD).expect("written");
    let design = read_design(&path).expect("a card design");
    assert_eq!(design.card().width, 10);
}

#[test]
fn a_file_over_the_limit_is_refused_without_reading_on() {
    // An endless stream: reading stops one byte past the limit.
    let endless = std::io::repeat(b' ');
    let error = DesignFile::from_reader("big.json", endless).unwrap_err();
    assert!(matches!(error, FileError::TooLarge { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        format!(
            "big.json: cannot read: larger than {MAX_DESIGN_BYTES} bytes (64 MiB), the limit \
             of a design file"
        )
    );
    // The limit itself is read.
    let at_limit = std::io::repeat(b' ').take(MAX_DESIGN_BYTES as u64);
    let read = DesignFile::from_reader("full.json", at_limit).expect("at the limit");
    assert_eq!(read.bytes().len(), MAX_DESIGN_BYTES);
}

#[test]
fn errors_name_the_file_and_the_reason() {
    let dir = tempfile::tempdir().expect("a directory");
    let missing = dir.path().join("missing.json");
    let error = DesignFile::read(&missing).unwrap_err();
    assert_eq!(error.path(), missing);
    let shown = error.to_string();
    assert!(
        shown.starts_with(&format!("{}: cannot read: ", missing.display())),
        "{shown}"
    );
    // A directory is opened, but cannot be read.
    let error = DesignFile::read(dir.path()).unwrap_err();
    assert!(matches!(error, FileError::Unreadable { .. }), "{error:?}");

    let array = DesignFile::from_reader("list.json", &b"[1]"[..]).expect("read");
    let error = array.design().unwrap_err();
    assert_eq!(
        error.to_string(),
        "list.json: expected a template or a card design (a JSON object), found an array"
    );
    assert_eq!(
        error.reason(),
        "expected a template or a card design (a JSON object), found an array"
    );
}

/// How deep `text` nests arrays and objects (no brackets in its strings).
fn depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for b in text.bytes() {
        match b {
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    deepest
}

/// A card design whose groups nest so that its arrays and objects are
/// exactly `levels` deep.
fn nested_card(levels: usize) -> String {
    let wrap = |groups: usize, leaf: &str| {
        let open = r#"{"type": "group", "children": ["#.repeat(groups);
        let close = "]}".repeat(groups);
        format!(r#"{{"name": "C", "width": 10, "height": 10, "data": {open}{leaf}{close}}}"#)
    };
    // Each group is two levels (the object, its children); a leaf object
    // inside the innermost children adds one.
    let leaf = r#"{"type": "group", "children": []}"#;
    let base = depth(&wrap(0, leaf));
    let card = if (levels - base).is_multiple_of(2) {
        wrap((levels - base) / 2, leaf)
    } else {
        wrap(
            (levels - base - 1) / 2,
            r#"{"type": "group", "children": [{"type": "group"}]}"#,
        )
    };
    assert_eq!(depth(&card), levels, "{card:.200}");
    card
}

#[test]
fn designs_are_read_as_deep_as_documents_may_nest() {
    let limit = cardkit::validate::MAX_DEPTH;
    for levels in [limit - 1, limit] {
        let card = nested_card(levels);
        let read = DesignFile::from_reader("deep.json", card.as_bytes()).expect("read");
        let design = read
            .design()
            .unwrap_or_else(|error| panic!("{levels} levels: {error}"));
        assert_eq!(design.card().name, "C");
    }
    // One level more: the validator's error, with its place.
    let card = nested_card(limit + 1);
    let read = DesignFile::from_reader("deep.json", card.as_bytes()).expect("read");
    let error = read.design().unwrap_err().to_string();
    assert!(
        error.starts_with("deep.json: invalid card design: 1 error\n  1:"),
        "{error:.300}"
    );
    assert!(
        error.contains("too_deep at \"/data/children/0/"),
        "{error:.300}"
    );
    assert!(error.contains(&limit.to_string()), "{error:.300}");
}

#[test]
fn a_byte_order_mark_is_skipped_as_validate_skips_it() {
    let template = format!("\u{feff}{{\"name\": \"T\", \"context\": {{}}, \"card\": {CARD}}}");
    let read = DesignFile::from_reader("bom.json", template.as_bytes()).expect("read");
    let design = read.design().expect("a template");
    assert_eq!(design.kind(), "template");
    assert_eq!(design.card().name, "C");
    let card = format!("\u{feff}{CARD}");
    let read = DesignFile::from_reader("bom.json", card.as_bytes()).expect("read");
    assert!(matches!(read.design(), Ok(Design::Card(_))));
}

#[test]
fn an_invalid_design_lists_its_first_errors_one_a_line() {
    use cardkit_design::source::LISTED_ERRORS;
    let layers: Vec<&str> = vec![r#"{"type": "text"}"#; 5000];
    let card = format!(
        r#"{{"name": "C", "width": 10, "height": 10, "data": {{"type": "group", "children": [{}]}}}}"#,
        layers.join(", ")
    );
    let read = DesignFile::from_reader("bad.json", card.as_bytes()).expect("read");
    let error = read.design().unwrap_err().to_string();
    let lines: Vec<&str> = error.lines().collect();
    assert_eq!(lines.len(), LISTED_ERRORS + 2, "{error}");
    assert!(
        lines[0].starts_with("bad.json: invalid card design: "),
        "{error}"
    );
    assert!(lines[1].starts_with("  1:"), "{error}");
    assert!(lines[1].contains("/data/children/0"), "{error}");
    assert!(
        lines[LISTED_ERRORS + 1].contains("more (`cardkit validate` reports every one)"),
        "{error}"
    );
    assert!(error.len() < 4096, "{}", error.len());
}

/// The design tool's own files, converted in memory as the import converts
/// them, saying what they are; the classic save file's cards named as
/// `cardkit import -o DIR` names their files.
#[test]
fn the_design_tools_own_files_are_converted_in_memory() {
    let layered = br#"{"metadata": {"name": "Plain", "creator": "A. Designer"},
      "context": {"imageSets": {}}, "card": {"name": "", "width": 750, "height": 1050}}"#;
    let file = DesignFile::from_reader("t.json", &layered[..]).expect("read");
    let designs = file.designs().expect("converted");
    let converted = designs.converted.as_ref().expect("said so");
    assert_eq!(
        converted.note(Path::new("t.json")),
        "note: t.json is a template in the design tool's older layered layout; converted in \
         memory as `cardkit import` would (1 import warning: --verbose shows it)"
    );
    assert!(matches!(designs.documents[0].design, Design::Template(_)));
    assert!(matches!(file.design(), Ok(Design::Template(_))));

    let classic = br#"[{"key": "One", "data": {"width": 750, "height": 1050}},
      {"key": "Two", "data": {"width": 750, "height": 1050}}]"#;
    let file = DesignFile::from_reader("save.cardconjurer", &classic[..]).expect("read");
    let designs = file.designs().expect("converted");
    let names: Vec<&str> = designs.documents.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["one", "two"]);
    assert!(designs
        .converted
        .as_ref()
        .unwrap()
        .what
        .contains("classic save file (2 cards)"));
    // One design wanted: named, or the names listed.
    let several = file.design().unwrap_err().to_string();
    assert!(
        several.contains("name one with --card NAME (one, two)"),
        "{several}"
    );
    let chosen = file
        .designs()
        .unwrap()
        .one(Some("two.json"))
        .expect("by name");
    assert_eq!(chosen.pointer, "/1");
    let chosen = file.designs().unwrap().one(Some("/0")).expect("by pointer");
    assert_eq!(chosen.name, "one");
    let unknown = file
        .designs()
        .unwrap()
        .one(Some("three"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        unknown,
        "--card three names none of the file's designs: one, two"
    );
    // An array that is no save file keeps its own error.
    let error = DesignFile::from_reader("a.json", &b"[1]"[..])
        .unwrap()
        .designs()
        .unwrap_err();
    assert!(error.to_string().contains("found an array"), "{error}");
}

/// The design tool's frame rule: a frame or mask that leaves its box out
/// takes the card's; one with `bounds` or a box of its own keeps it.
#[test]
fn a_frame_without_a_box_takes_the_cards() {
    let card = br#"{"name": "C", "width": 750, "height": 1050, "data": {"type": "group", "children": [
      {"type": "image", "name": "Frame", "src": "f.png", "masks": [{"type": "image", "name": "M", "src": "m.png"}]},
      {"type": "image", "name": "Half", "src": "h.png", "x": 10, "width": 50},
      {"type": "image", "name": "Art", "src": "a.png", "bounds": {"x": 1, "y": 2, "width": 3, "height": 4, "type": "fill", "horizontal": "center", "vertical": "center"}},
      {"type": "group", "children": [{"type": "image", "name": "Deep", "src": "d.png"}]}]}}"#;
    let Ok(Design::Card(card)) = Design::read(card) else {
        panic!("a card")
    };
    let boxes: Vec<(i64, i64, i64, i64)> = card
        .data
        .children
        .iter()
        .flat_map(|layer| match layer {
            cardkit::model::Layer::Image(image) => vec![image.clone()],
            cardkit::model::Layer::Group(group) => group
                .children
                .iter()
                .filter_map(|layer| match layer {
                    cardkit::model::Layer::Image(image) => Some(image.clone()),
                    _ => None,
                })
                .collect(),
            cardkit::model::Layer::Text(_) => vec![],
        })
        .map(|image| (image.x, image.y, image.width, image.height))
        .collect();
    assert_eq!(
        boxes,
        [
            (0, 0, 750, 1050),
            (10, 0, 50, 1050),
            (0, 0, 100, 100),
            (0, 0, 750, 1050)
        ]
    );
    let cardkit::model::Layer::Image(frame) = &card.data.children[0] else {
        panic!("an image")
    };
    let mask = &frame.masks.as_ref().unwrap()[0];
    assert_eq!(mask.extra["width"], 750);
    assert_eq!(mask.extra["height"], 1050);
}
