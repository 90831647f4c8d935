//! The real corpus: every file of `shared/corpus/neutral/` gives exactly the
//! problems that `shared/corpus/SOURCES.md` lists for it, nothing more,
//! nothing less.
//!
//! The per-file table of SOURCES.md is parsed into expected (code, field,
//! count) triples: "Spec rules broken" become errors, "Fields outside the
//! spec" become `unknown_field` warnings. The validator's diagnostics, grouped
//! the same way, must match. Where SOURCES.md words a deviation in a way that
//! maps to more than one of cardkit's codes, `EXPLAINED` below says how.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use cardkit::validate;
use cardkit::Code;
use cardkit::Kind;
use cardkit::Options;
use cardkit::Severity;

/// (code, `Model.field`) → count.
type Tally = BTreeMap<(String, String), usize>;

#[test]
fn every_corpus_file_gives_exactly_the_listed_deviations() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let sources = std::fs::read_to_string(shared.join("corpus/SOURCES.md")).expect("SOURCES.md");
    let expected = listed_deviations(&sources);
    assert!(
        expected.len() >= 40,
        "parsed only {} files from SOURCES.md",
        expected.len()
    );

    let mut failures = Vec::new();
    for (file, listed) in &expected {
        let listed = &recount(file, listed.clone());
        let path = shared.join("corpus/neutral").join(file);
        let found = tally(&path, file, &mut failures);
        if &found != listed {
            failures.push(difference(file, listed, &found));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Validates one file with `--kind auto`, checks every document got the kind
/// of the folder the file is in, and groups the diagnostics.
fn tally(path: &Path, file: &str, failures: &mut Vec<String>) -> Tally {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report = validate(&bytes, &Options::default());
    let folder = file.split('/').next().unwrap_or_default();
    let mut found = Tally::new();
    for document in &report.documents {
        if document.kind.map(Kind::as_str) != Some(folder) {
            failures.push(format!(
                "{file}: document {:?} detected as {:?}, expected {folder}",
                document.pointer, document.kind
            ));
        }
        for d in &document.diagnostics {
            let expected_severity = if d.code == Code::UnknownField {
                Severity::Warning
            } else {
                Severity::Error
            };
            assert_eq!(d.severity, expected_severity, "{file}: {d:?}");
            let field = d.field.clone().unwrap_or_else(|| d.pointer.clone());
            *found.entry((d.code.to_string(), field)).or_default() += 1;
        }
    }
    found
}

/// Parses the "Per file" table of SOURCES.md.
fn listed_deviations(sources: &str) -> BTreeMap<String, Tally> {
    let mut files = BTreeMap::new();
    for line in sources.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `file` | shape | broken | outside |
        let [_, file, _, broken, outside, _] = cells[..] else {
            continue;
        };
        let Some(file) = file.strip_prefix('`').and_then(|f| f.strip_suffix('`')) else {
            continue;
        };
        if !file.contains('/') {
            continue;
        }
        let mut tally = Tally::new();
        for item in entries(broken) {
            let (code, field) = explain(&item.0);
            *tally.entry((code.to_owned(), field)).or_default() += item.1;
        }
        for (field, count) in entries(outside) {
            *tally
                .entry(("unknown_field".to_owned(), field))
                .or_default() += count;
        }
        files.insert(file.to_owned(), tally);
    }
    files
}

/// `A.b missing ×3; C.d` → [("A.b missing", 3), ("C.d", 1)].
fn entries(cell: &str) -> Vec<(String, usize)> {
    if cell == "—" {
        return Vec::new();
    }
    cell.split("; ")
        .map(|entry| match entry.rsplit_once(" ×") {
            Some((what, count)) => (what.to_owned(), count.parse().expect("a count")),
            None => (entry.to_owned(), 1),
        })
        .collect()
}

/// Where SOURCES.md counts a deviation differently from cardkit, and why:
/// (file, as listed, as cardkit reports it, the reason).
const RECOUNTED: &[(&str, Count, Count, &str)] = &[(
    "set/mtgssm_AllSets-v3_testdata.json",
    ("invalid_format", "CardSet.variations", 20),
    ("wrong_type", "CardSet.variations", 42),
    "SOURCES.md counts the 20 cards whose `variations` are not UUIDs; the 42 items \
     of those lists are integers (registry ids), a wrong JSON type for a uuid \
     string, reported once per item",
)];

/// (code, `Model.field`, count).
type Count = (&'static str, &'static str, usize);

fn recount(file: &str, mut listed: Tally) -> Tally {
    for (recounted, before, after, _why) in RECOUNTED {
        if *recounted == file {
            let key = (before.0.to_owned(), before.1.to_owned());
            assert_eq!(
                listed.remove(&key),
                Some(before.2),
                "{file}: SOURCES.md changed"
            );
            listed.insert((after.0.to_owned(), after.1.to_owned()), after.2);
        }
    }
    listed
}

/// What each wording of SOURCES.md means in cardkit's codes.
const EXPLAINED: &[(&str, &str)] = &[
    (" missing", "missing_field"),
    (": not a UUID", "invalid_format"),
    (": list item not a UUID", "invalid_format"),
    (": expected obj, got array", "wrong_type"),
    (
        ": expected array, got object (map keyed by set id)",
        "wrong_type",
    ),
];

fn explain(deviation: &str) -> (&'static str, String) {
    for (suffix, code) in EXPLAINED {
        if let Some(field) = deviation.strip_suffix(suffix) {
            return (code, field.to_owned());
        }
    }
    panic!("SOURCES.md lists a deviation this test cannot read: {deviation:?}");
}

fn difference(file: &str, listed: &Tally, found: &Tally) -> String {
    let mut lines = vec![format!("{file}:")];
    for (key, &count) in listed {
        let got = found.get(key).copied().unwrap_or(0);
        if got != count {
            lines.push(format!(
                "  {} {}: listed {count}, found {got}",
                key.0, key.1
            ));
        }
    }
    for (key, &count) in found {
        if !listed.contains_key(key) {
            lines.push(format!("  {} {}: not listed, found {count}", key.0, key.1));
        }
    }
    lines.join("\n")
}

/// Naming the latest version (`--as-of` with the latest tag, or a file that
/// declares it) changes nothing: every corpus file gives the same
/// diagnostics as with no version (the checks of versions are skipped
/// then, so that they cost nothing).
#[test]
fn the_latest_version_changes_nothing() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let latest = Options {
        as_of: Some(cardkit::schema::latest_version()),
        ..Options::default()
    };
    let diagnostics = |report: &cardkit::FileReport| -> Vec<String> {
        report
            .documents
            .iter()
            .flat_map(|document| &document.diagnostics)
            .map(|d| format!("{} {} {}", d.pointer, d.code.as_str(), d.message()))
            .collect()
    };
    let mut files = 0;
    for entry in walk(&shared.join("corpus/neutral")) {
        let bytes = std::fs::read(&entry).expect("readable");
        let none = validate(&bytes, &Options::default());
        assert_eq!(
            diagnostics(&validate(&bytes, &latest)),
            diagnostics(&none),
            "{}",
            entry.display()
        );
        files += 1;
    }
    assert!(files >= 40, "{files} corpus files");
}

/// The files under `dir`, sorted.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}
