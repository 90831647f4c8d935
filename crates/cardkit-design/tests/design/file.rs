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
