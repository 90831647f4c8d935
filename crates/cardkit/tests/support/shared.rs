//! Where the tests find `../shared` (the spec, the corpus, the schemas of
//! other formats): one helper for every test crate of the workspace.

use std::path::{Path, PathBuf};

/// The `shared/` folder that sits beside the repository (the spec, the real
/// corpus), or `CARDKIT_SHARED` if set.
///
/// In CI (`CI=true`) a missing folder fails the test loudly; elsewhere the
/// test says on stderr why it is skipped, and returns `None`.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("CARDKIT_SHARED")
        .map_or_else(|| workspace_root().join("../shared"), PathBuf::from);
    if dir.join("spec/SPEC.md").is_file() {
        return Some(dir);
    }
    let why = format!(
        "the shared folder (spec and corpus) is not at {}; set CARDKIT_SHARED to its path",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
    eprintln!("SKIPPED: {why}");
    None
}

/// The root of the repository: the nearest folder above the test's package
/// (itself included) that holds `Cargo.lock`.
fn workspace_root() -> PathBuf {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    package
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .unwrap_or(package)
        .to_path_buf()
}
