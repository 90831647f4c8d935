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
