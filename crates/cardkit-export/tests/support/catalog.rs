//! A catalog made by the shared generator, for the export's tests and the
//! command's.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A catalog of `sets` copies of the corpus's BRO set made by the shared
/// generator (valid documents), in `dir`.
pub fn generated_catalog(shared: &Path, dir: &Path, sets: usize) -> PathBuf {
    let out = dir.join(format!("catalog-{sets}.json"));
    let status = Command::new("python3")
        .arg(shared.join("bench/make_allprintings.py"))
        .arg(shared.join("corpus/raw/set/mightstone_set_BRO.json"))
        .args([
            "--neutral",
            "--seed",
            "1",
            "--sets",
            &sets.to_string(),
            "-o",
        ])
        .arg(&out)
        .stdout(Stdio::null())
        .status()
        .expect("python3 runs the catalog generator");
    assert!(status.success(), "the catalog generator failed");
    out
}
