//! What the tests of cardkit-diff share.
#![allow(dead_code)]

pub mod pairs;

#[path = "../../../cardkit/tests/support/shared.rs"]
pub mod shared;

use std::path::{Path, PathBuf};

use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};

/// `default` cases unless `CARDKIT_PROPTEST_CASES` says otherwise, from a
/// fixed seed unless `CARDKIT_PROPTEST_SEED` says otherwise.
pub fn config(default: u32) -> Config {
    let cases = std::env::var("CARDKIT_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(default);
    let seed = std::env::var("CARDKIT_PROPTEST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x00CA_4DC1_7EB1);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..Config::default()
    }
}

/// A pair written to `dir` as `old.json` and `new.json`.
pub fn pair(dir: &Path, spec: &pairs::Spec) -> (PathBuf, PathBuf, pairs::Expected) {
    let (old, new) = (dir.join("old.json"), dir.join("new.json"));
    let mut a = std::fs::File::create(&old).unwrap();
    let mut b = std::fs::File::create(&new).unwrap();
    let expected = pairs::write_pair(spec, &mut a, &mut b).unwrap();
    (old, new, expected)
}
