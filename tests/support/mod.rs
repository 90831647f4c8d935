//! Test support shared by the command's integration tests.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Stdio;

use assert_cmd::Command;

pub mod migrations;
pub mod report;
pub mod service;
#[path = "../../crates/cardkit/tests/support/shared.rs"]
mod shared;

#[allow(unused_imports)] // Not every test crate needs `../shared`.
pub use shared::{shared_dir, tool};

/// The built `cardkit` binary, to be given arguments.
pub fn cardkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cardkit"))
}

/// Whether this test binary's `cardkit` was built with every default
/// feature.
pub const FULL_BUILD: bool = cfg!(all(
    feature = "design",
    feature = "render",
    feature = "export",
    feature = "diff",
    feature = "serve"
));

/// A validate-only `cardkit` (built with `--no-default-features`), the build
/// the GitHub Action installs and a `cardkit-system` pre-commit hook can
/// run: the binary `CARDKIT_VALIDATE_ONLY` names (`.ci/run` builds it into
/// `target/validate-only/`), else the `cardkit` built for these tests when
/// it was built without some default feature (`cargo test
/// --no-default-features`). `None`, with a note, when there is neither; in
/// CI (`CI=true`) that is an error.
pub fn validate_only_cardkit() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CARDKIT_VALIDATE_ONLY").filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        assert!(
            path.file_name() == Some(OsStr::new("cardkit")) && path.is_file(),
            "CARDKIT_VALIDATE_ONLY must name a `cardkit` binary: {}",
            path.display()
        );
        return Some(path);
    }
    if !FULL_BUILD {
        return Some(PathBuf::from(env!("CARGO_BIN_EXE_cardkit")));
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CARDKIT_VALIDATE_ONLY is not set: CI must test the validate-only build; \
         set it to a `cardkit` built with --no-default-features (.ci/run does)"
    );
    eprintln!(
        "note: no validate-only build to test: set CARDKIT_VALIDATE_ONLY to a `cardkit` \
         built with --no-default-features, as .ci/run does"
    );
    None
}

/// The folder of the validate-only `cardkit` ([`validate_only_cardkit`]),
/// or else of the `cardkit` built for these tests.
pub fn validate_only_bin_dir() -> PathBuf {
    validate_only_cardkit()
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_cardkit")))
        .parent()
        .expect("the binary's folder")
        .to_path_buf()
}

/// Runs `cardkit ARGS…` from the repository's root, expects exit status
/// `code`, and returns standard output.
pub fn stdout_of(args: &[&str], code: i32) -> String {
    let output = cardkit()
        .current_dir(workspace_dir())
        .args(args)
        .assert()
        .code(code)
        .get_output()
        .clone();
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// The repository's root, where the README's commands are run.
pub fn workspace_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled examples (`examples/` at the repository's root).
pub fn examples_dir() -> PathBuf {
    workspace_dir().join("examples")
}

/// A temporary directory with the given files (paths relative to it).
pub fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, content) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create folders");
        std::fs::write(path, content).expect("write fixture");
    }
    dir
}

/// A path as shown in reports.
pub fn show(path: &std::path::Path) -> String {
    path.display().to_string()
}

/// A standard stream of `cardkit`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// Runs `cardkit ARGS…` from the repository's root with `closed` a pipe
/// whose reading end is closed at once (as `cardkit … | head` leaves it),
/// and returns the exit status and what the other stream said.
pub fn into_a_closed_pipe<I, S>(args: I, closed: Stream) -> (Option<i32>, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cardkit"))
        .current_dir(workspace_dir())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cardkit");
    match closed {
        Stream::Stdout => drop(child.stdout.take()),
        Stream::Stderr => drop(child.stderr.take()),
    }
    let output = child.wait_with_output().expect("wait for cardkit");
    let other = match closed {
        Stream::Stdout => output.stderr,
        Stream::Stderr => output.stdout,
    };
    (
        output.status.code(),
        String::from_utf8_lossy(&other).into_owned(),
    )
}
