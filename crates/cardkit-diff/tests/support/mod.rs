//! What the tests of cardkit-diff share.
#![allow(dead_code)]

pub mod numbers;
pub mod pairs;

#[path = "../../../cardkit/tests/support/shared.rs"]
pub mod shared;

use std::path::{Path, PathBuf};

#[path = "../../../cardkit/tests/support/properties.rs"]
mod properties;

/// `default` cases from a fixed seed, as the library's property tests
/// (`CARDKIT_PROPTEST_CASES`, `CARDKIT_PROPTEST_SEED`).
pub fn config(default: u32) -> proptest::test_runner::Config {
    properties::config(default, 1)
}

/// A pair written to `dir` as `old.json` and `new.json`.
pub fn pair(dir: &Path, spec: &pairs::Spec) -> (PathBuf, PathBuf, pairs::Expected) {
    let (old, new) = (dir.join("old.json"), dir.join("new.json"));
    let mut a = std::fs::File::create(&old).unwrap();
    let mut b = std::fs::File::create(&new).unwrap();
    let expected = pairs::write_pair(spec, &mut a, &mut b).unwrap();
    (old, new, expected)
}
