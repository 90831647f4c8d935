//! Test support shared by the command's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// The built `cardkit` binary, to be given arguments.
pub fn cardkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cardkit"))
}

/// The repository's root, where the README's commands are run.
pub fn workspace_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The bundled examples (`examples/` at the repository's root).
pub fn examples_dir() -> PathBuf {
    workspace_dir().join("examples")
}
