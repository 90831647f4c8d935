//! What the design crate's tests share: the corpus files, and a template in
//! the spec's shape made from a corpus template in the older layered layout.

#![allow(dead_code)] // Not every test crate uses every helper.

#[path = "../../../cardkit/tests/support/shared.rs"]
pub mod shared;

use std::path::PathBuf;

use serde_json::Value;

pub mod layered;

pub use layered::spec_template;

/// A file of the corpus (`raw/card/…`), or `None` when the shared folder is
/// not there (the helper says why, and fails in CI).
pub fn corpus_file(relative: &str) -> Option<PathBuf> {
    let path = shared::shared_dir()?.join("corpus").join(relative);
    assert!(path.is_file(), "{} is not in the corpus", path.display());
    Some(path)
}

/// The bytes of a corpus file.
pub fn corpus_bytes(relative: &str) -> Option<Vec<u8>> {
    let path = corpus_file(relative)?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// A corpus template in the spec's shape, as JSON text.
pub fn spec_template_file(relative: &str) -> Option<String> {
    let layered: Value = serde_json::from_slice(&corpus_bytes(relative)?).expect("corpus JSON");
    Some(serde_json::to_string_pretty(&spec_template(&layered)).expect("JSON"))
}
