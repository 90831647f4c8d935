//! The export builds for every platform: no Unix-only item of the standard
//! library is used without a `cfg` that keeps it to Unix.

use std::path::Path;

fn sources(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the sources") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn unix_only_items_are_behind_a_cfg() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source");
        let lines: Vec<&str> = text.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            if !line.contains("std::os::unix") || line.trim_start().starts_with("//") {
                continue;
            }
            let guarded = lines[..at]
                .iter()
                .rev()
                .take(3)
                .any(|l| l.contains("#[cfg(unix)]") || l.contains("cfg(all(unix"));
            assert!(
                guarded,
                "{}:{}: `std::os::unix` without #[cfg(unix)] just before: the export would not build on Windows",
                file.display(),
                at + 1
            );
        }
    }
}
