//! Where the tests find `../shared` (the spec, the corpus, the schemas of
//! other formats) and the outside tools they run: one helper for every test
//! crate of the workspace, which fails in CI and skips elsewhere.

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
    unavailable(&format!(
        "the shared folder (spec and corpus) is not at {}; set CARDKIT_SHARED to its path",
        dir.display()
    ))
}

/// An outside program a test runs: the path in the environment variable
/// `var` (`.ci/run` sets it), else `default` (relative to the repository's
/// root), if it runs with the arguments `probe` (`--version`) and exits 0.
/// `install` says how to get it.
///
/// In CI (`CI=true`) a missing program fails the test loudly; elsewhere the
/// test says on stderr why it is skipped, and returns `None`.
#[allow(dead_code)] // Not every test crate runs an outside program.
pub fn tool(var: &str, default: &str, probe: &[&str], install: &str) -> Option<PathBuf> {
    let path = std::env::var_os(var).map_or_else(|| workspace_root().join(default), PathBuf::from);
    let runs = std::process::Command::new(&path)
        .args(probe)
        .output()
        .is_ok_and(|output| output.status.success());
    if runs {
        return Some(path);
    }
    unavailable(&format!(
        "{} does not run; {install}, or set {var} to the program",
        path.display()
    ))
}

/// Fails in CI, or says why the test is skipped and gives `None`.
fn unavailable<T>(why: &str) -> Option<T> {
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
