//! `unsafe` stays where it is allowed: the workspace denies it (the root
//! `Cargo.toml`'s `[workspace.lints]`, which every crate takes), and only
//! two files may lift that: the structural index's SIMD module and the one
//! call into the C allocator. A lint level can be lifted only by naming the
//! lint, so no other source file may name it, nor use the keyword.

use std::fs;
use std::path::{Path, PathBuf};

/// The files allowed `unsafe`, from the repository's root.
const ALLOWED: [&str; 2] = ["crates/cardkit-json/src/index/simd.rs", "src/allocator.rs"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every Rust source file under `dir`, but for build outputs and hidden
/// folders.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if path.is_dir() {
            if !(name.starts_with('.') || name == "target" || name == "node_modules") {
                sources(&path, found);
            }
        } else if name.ends_with(".rs") {
            found.push(path);
        }
    }
}

/// Whether `line` uses the keyword: `unsafe` before a block, a function,
/// an implementation, a trait or an extern block.
fn uses_unsafe(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or_default();
    code.match_indices("unsafe").any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + "unsafe".len()..].trim_start();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && ["{", "fn", "impl", "trait", "extern"]
                .iter()
                .any(|next| after.starts_with(next))
    })
}

#[test]
fn no_source_file_but_the_two_allowed_ones_lifts_the_denial_of_unsafe() {
    let root = root();
    let mut files = Vec::new();
    sources(&root, &mut files);
    assert!(files.len() > 100, "the sources are found: {}", files.len());
    let this = Path::new(file!()).file_name().expect("this file's name");
    let mut offending = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&root).expect("under the root");
        let relative = relative.to_string_lossy().replace('\\', "/");
        if ALLOWED.contains(&relative.as_str()) || file.file_name() == Some(this) {
            continue;
        }
        let text = fs::read_to_string(file).unwrap_or_default();
        for (number, line) in text.lines().enumerate() {
            if line.contains("unsafe_code") || uses_unsafe(line) {
                offending.push(format!("{relative}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        offending.is_empty(),
        "unsafe outside {ALLOWED:?}:\n{}",
        offending.join("\n")
    );
    // The allowed files do use it (or this list is stale).
    for allowed in ALLOWED {
        let text = fs::read_to_string(root.join(allowed)).expect("an allowed file");
        assert!(
            text.lines().any(uses_unsafe),
            "{allowed} no longer uses unsafe"
        );
    }
}

#[test]
fn every_crate_takes_the_workspace_denial_of_unsafe() {
    let root = root();
    let manifest = fs::read_to_string(root.join("Cargo.toml")).expect("the root manifest");
    let lints = manifest
        .split("[workspace.lints.rust]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .expect("a [workspace.lints.rust] table");
    assert!(
        lints.lines().any(|line| {
            let line = line.replace(' ', "");
            line == "unsafe_code=\"deny\"" || line == "unsafe_code=\"forbid\""
        }),
        "the workspace denies unsafe_code: {lints}"
    );
    let members = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the workspace's members");
    let mut manifests = vec![root.join("Cargo.toml")];
    manifests.extend(
        members
            .split(',')
            .map(|member| member.trim().trim_matches('"'))
            .filter(|member| !member.is_empty())
            .map(|member| root.join(member).join("Cargo.toml")),
    );
    assert!(manifests.len() > 5, "the members are found: {manifests:?}");
    for path in manifests {
        let text = fs::read_to_string(&path).expect("a member's manifest");
        assert!(
            text.contains("[lints]\nworkspace = true"),
            "{} takes the workspace's lints",
            path.display()
        );
    }
}
