//! CONTRIBUTING.md says why each dependency is there: its `## Dependencies`
//! table must name every dependency of every `Cargo.toml` in the repository
//! (the workspace's packages, `fuzz/` and `bench/splitter/`), normal, dev,
//! build and target-specific ones and the workspace's own table.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `Cargo.toml` under `dir`, leaving out build outputs, installed
/// packages and version control.
fn manifests(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a folder entry"))
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        if entry.file_type().expect("a file type").is_dir() {
            if !matches!(name.to_str(), Some("target" | "node_modules" | ".git")) {
                manifests(&path, found);
            }
        } else if name == "Cargo.toml" {
            found.push(path);
        }
    }
}

/// The crates a dependency table names (by package, when renamed).
fn names_in(table: &DeTable<'_>, names: &mut BTreeSet<String>) {
    for (key, value) in table {
        let package = value
            .get_ref()
            .as_table()
            .and_then(|entry| entry.get("package"))
            .and_then(|package| match package.get_ref() {
                DeValue::String(name) => Some(name.to_string()),
                _ => None,
            });
        names.insert(package.unwrap_or_else(|| key.get_ref().to_string()));
    }
}

/// Every dependency a manifest declares.
fn dependencies(manifest: &Path) -> BTreeSet<String> {
    let text =
        std::fs::read_to_string(manifest).unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let root = DeTable::parse(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()))
        .into_inner();
    let mut names = BTreeSet::new();
    let tables = |table: &DeTable<'_>, names: &mut BTreeSet<String>| {
        for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
            if let Some(deps) = table.get(kind).and_then(|v| v.get_ref().as_table()) {
                names_in(deps, names);
            }
        }
    };
    tables(&root, &mut names);
    if let Some(targets) = root.get("target").and_then(|v| v.get_ref().as_table()) {
        for (_, target) in targets {
            if let Some(target) = target.get_ref().as_table() {
                tables(target, &mut names);
            }
        }
    }
    if let Some(workspace) = root.get("workspace").and_then(|v| v.get_ref().as_table()) {
        tables(workspace, &mut names);
    }
    names
}

/// The crate names (in backquotes) of the first column of the table under
/// CONTRIBUTING.md's `## Dependencies`.
fn listed(contributing: &str) -> BTreeSet<String> {
    let rows: Vec<&str> = contributing
        .lines()
        .skip_while(|line| line.trim_end() != "## Dependencies")
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .filter(|line| line.starts_with('|'))
        .collect();
    assert!(
        rows.len() > 2,
        "CONTRIBUTING.md has no table under `## Dependencies`"
    );
    rows.iter()
        .filter_map(|row| row.trim_matches('|').split('|').next())
        .flat_map(|cell| {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_dependency_of_every_manifest_is_in_the_dependencies_table() {
    let mut found = Vec::new();
    manifests(&repository(), &mut found);
    let roots = ["Cargo.toml", "fuzz/Cargo.toml", "bench/splitter/Cargo.toml"];
    for root in roots {
        assert!(
            found.iter().any(|path| path.ends_with(root)),
            "{root} not found among {found:#?}"
        );
    }

    let path = repository().join("CONTRIBUTING.md");
    let contributing =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let listed = listed(&contributing);

    let mut missing = Vec::new();
    for manifest in &found {
        for name in dependencies(manifest) {
            if !listed.contains(&name) {
                let shown = manifest.strip_prefix(repository()).unwrap_or(manifest);
                missing.push(format!("{name} ({})", shown.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "CONTRIBUTING.md's Dependencies table does not say why these are there:\n{}",
        missing.join("\n")
    );
}
