//! The clients and linters the tests run on the service's OpenAPI document
//! and on cardkit's SARIF: the npm tools of `package.json` beside this file
//! (installed by `npm ci` here; `.ci/run` does it), run with `node`
//! (`CARDKIT_NODE`, default `node`), and the Python of `CARDKIT_PYTHON`
//! with openapi-python-client and openapi-core (`.ci/run` sets it to its
//! virtual environment's). One helper for the test crates that use them.
//!
//! Without a tool the test says on stderr why it is skipped; in CI
//! (`CI=true`) it fails.

#![allow(dead_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// This folder, with `package.json` and `node_modules/`.
pub fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .expect("the workspace's root")
        .join("crates/cardkit-serve/tests/clients")
}

/// Says why a test is skipped, or fails in CI.
fn skipped(why: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{why}: CI must run it (.ci/run installs what it needs)"
    );
    eprintln!("SKIPPED: {why}; .ci/run installs what the test needs");
}

fn runs(program: &OsString) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// `node`, and the npm tools installed in this folder.
pub struct Npm {
    pub node: OsString,
    pub modules: PathBuf,
}

impl Npm {
    /// A command running the package's script `script` (a path under
    /// `node_modules/`) with node.
    pub fn tool(&self, script: &str) -> Command {
        let mut command = Command::new(&self.node);
        command.arg(self.modules.join(script));
        command
    }

    /// The SARIF Multitool's native binary, made executable (npm does not
    /// run the package's own `chmod`).
    pub fn sarif_multitool(&self) -> PathBuf {
        let binary = self
            .modules
            .join("@microsoft/sarif-multitool-linux/Sarif.Multitool");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mut permissions = std::fs::metadata(&binary)
                .unwrap_or_else(|e| panic!("{}: {e}", binary.display()))
                .permissions();
            if permissions.mode() & 0o111 != 0o111 {
                permissions.set_mode(0o755);
                std::fs::set_permissions(&binary, permissions).expect("chmod the Multitool");
            }
        }
        binary
    }
}

/// node and this folder's npm packages, or `None` (with the reason on
/// stderr) when the test is to be skipped.
pub fn npm() -> Option<Npm> {
    let node = std::env::var_os("CARDKIT_NODE").unwrap_or_else(|| "node".into());
    let modules = clients_dir().join("node_modules");
    if !runs(&node) {
        skipped(&format!("node ({}) does not run", node.to_string_lossy()));
        None
    } else if !modules.join(".bin/openapi-typescript").exists() {
        skipped(&format!(
            "the npm tools are not installed; run `npm ci` in {}",
            clients_dir().display()
        ));
        None
    } else {
        Some(Npm { node, modules })
    }
}

/// The Python of `CARDKIT_PYTHON`, when it has every module of `modules`;
/// else `None`, with the reason on stderr.
pub fn python(modules: &[&str]) -> Option<PathBuf> {
    let Some(python) = std::env::var_os("CARDKIT_PYTHON").map(PathBuf::from) else {
        skipped(&format!(
            "CARDKIT_PYTHON (a Python with {}) is not set",
            modules.join(", ")
        ));
        return None;
    };
    for module in modules {
        let found = Command::new(&python)
            .args(["-c", &format!("import {module}")])
            .output()
            .is_ok_and(|output| output.status.success());
        if !found {
            skipped(&format!("{} cannot import {module}", python.display()));
            return None;
        }
    }
    Some(python)
}
