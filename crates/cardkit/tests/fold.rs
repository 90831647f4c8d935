//! Warnings past what a format shows are only counted, not built (folded):
//! every format's report and the run's exit status are the same as when
//! each warning is built, on floods of warnings of every kind, with
//! duplicate keys that take folded warnings away, on one thread and on two.

mod support;

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cardkit::diagnostic::Diagnostic;
use cardkit::report::{DocumentReport, Reading, Summary, Suppressed, WarningFilter};
use cardkit::validate::{as_of_version, validate};
use cardkit::{Code, FileReport, Options, Severity, Validator};
use cardkit_run::render::{
    Concise, FileEnd, Github, Json, JsonLines, Junit, Renderer, Sarif, Statistics, Text,
};
use cardkit_run::{discover, ExitStatus, Run};
use proptest::prelude::*;
use support::generate::{any_document, free, member, write, Node, Style, J};
use support::properties::config;

/// A format as the run sees it, but with every warning asked for: the
/// report it writes is what the format writes when nothing is folded.
struct Unfolded(Box<dyn Renderer>);

impl Renderer for Unfolded {
    fn begin_file(&mut self, out: &mut dyn Write, path: &str) -> io::Result<()> {
        self.0.begin_file(out, path)
    }
    fn reading(&mut self, out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()> {
        self.0.reading(out, path, reading)
    }
    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        assert!(document.folded.is_empty(), "nothing is folded unasked");
        self.0.document(out, path, document)
    }
    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        self.0.end_file(out, path, end)
    }
    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        self.0.finish(out, summary)
    }
    fn file(&mut self, out: &mut dyn Write, path: &str, report: &FileReport) -> io::Result<()> {
        self.0.file(out, path, report)
    }
    fn unreadable(&mut self, out: &mut dyn Write, path: &str, error: &str) -> io::Result<()> {
        self.0.unreadable(out, path, error)
    }
}

/// Every format that shows some of the warnings, showing `limit` of each
/// kind.
fn formats(limit: usize) -> Vec<(&'static str, Box<dyn Renderer>)> {
    let filter = || WarningFilter::new(limit);
    vec![
        ("text", Box::new(Text::new(filter().with_error_limit(10)))),
        ("concise", Box::new(Concise::new(filter()))),
        ("json", Box::new(Json::new(filter()))),
        ("json-lines", Box::new(JsonLines::new(filter()))),
        ("sarif", Box::new(Sarif::new(filter(), None))),
        ("github", Box::new(Github::new(filter()))),
        ("junit", Box::new(Junit::new(filter()))),
        ("statistics", Box::new(Statistics::new())),
    ]
}

/// The report `renderer` writes of `paths`, with the time it took taken
/// out, and the exit status.
fn report(
    renderer: &mut dyn Renderer,
    paths: &[PathBuf],
    options: Options,
    jobs: usize,
) -> (String, ExitStatus) {
    let mut out = Vec::new();
    let mut run = Run::new(renderer, &mut out, options);
    let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    run.validate_all(discover(&paths), jobs)
        .expect("writing to memory");
    let (_, status) = run.finish().expect("writing to memory");
    let text = String::from_utf8(out).expect("UTF-8 reports");
    (untimed(&text), status)
}

/// `text` without what differs from one run to the next: the seconds.
fn untimed(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.contains(" MB/s") {
            continue;
        }
        match line.find("\"seconds\":") {
            Some(at) => {
                let rest = &line[at + "\"seconds\":".len()..];
                let end = rest.find([',', '}']).unwrap_or(rest.len());
                out.push_str(&line[..at]);
                out.push_str(&rest[end..]);
            }
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Asserts that the formats `names` (all when empty) say the same of
/// `paths` folded or not, on `jobs` threads.
fn assert_same_reports(
    paths: &[PathBuf],
    options: Options,
    limit: usize,
    jobs: &[usize],
    names: &[&str],
) {
    let formats = || {
        formats(limit)
            .into_iter()
            .filter(|(name, _)| names.is_empty() || names.contains(name))
    };
    for &jobs in jobs {
        let unfolded = formats().map(|(_, r)| Unfolded(r));
        for ((name, mut folding), mut unfolded) in formats().zip(unfolded) {
            assert!(name == "statistics" || folding.warnings_shown() == Some(limit));
            let folded = report(&mut *folding, paths, options, jobs);
            let built = report(&mut unfolded, paths, options, jobs);
            assert!(
                folded == built,
                "{name}, {jobs} job(s), {limit} shown: the report differs when warnings are folded\n\
                 --- folded:\n{}\n--- built:\n{}",
                folded.0,
                built.0
            );
        }
    }
}

/// A set of the corpus with a flood of warnings: unknown members on every
/// card (one name shared, and names all different past the 64 patterns a
/// filter tells apart), duplicate keys here and there (one of them taking
/// away a value with folded warnings in it).
fn flooded_set(shared: &Path) -> String {
    let set = fs::read_to_string(shared.join("corpus/neutral/set/cardmaster_DMU.json"))
        .expect("a set of the corpus");
    let mut out = String::with_capacity(set.len() * 2);
    let mut rest = set.as_str();
    let mut n = 0;
    while let Some(at) = rest.find("\"uuid\":") {
        out.push_str(&rest[..at]);
        n += 1;
        out.push_str("\"flooded\": 1, ");
        out.push_str(&format!("\"unique{n}\": true, "));
        if n % 97 == 0 {
            // The earlier value, with unknown members of its own, goes.
            out.push_str("\"identifiers\": {\"flooded\": 1, \"other\": 2}, ");
        }
        if n % 101 == 0 {
            out.push_str("\"flooded\": 2, ");
        }
        rest = &rest[at..];
        out.push_str("\"uuid\":");
        rest = &rest["\"uuid\":".len()..];
    }
    out.push_str(rest);
    out
}

/// The flooded set, a catalog of it beside another set, and JSON Lines of
/// the flooded set on a line and again.
fn inputs(dir: &Path, shared: &Path) -> Vec<PathBuf> {
    let set = flooded_set(shared);
    let other = fs::read_to_string(shared.join("corpus/neutral/set/jsonsets_4BB.json"))
        .expect("a set of the corpus");
    let data = |text: &str| {
        let value: serde_json::Value = serde_json::from_str(text).expect("JSON");
        value["data"].clone()
    };
    let catalog = serde_json::json!({
        "meta": {"date": "2022-08-29", "version": "5.2.0+20220829"},
        "data": {"DMU": data(&set), "4BB": data(&other)},
    });
    let line = serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&set).unwrap())
        .expect("JSON");
    let files = [
        ("flooded.json", set.clone()),
        ("catalog.json", catalog.to_string()),
        ("lines.jsonl", format!("{line}\n{line}\n")),
    ];
    files
        .into_iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            fs::write(&path, text).expect("a temporary file");
            path
        })
        .collect()
}

#[test]
fn every_format_says_the_same_of_a_flood_of_warnings_folded_or_not() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let paths = inputs(dir.path(), &shared);
    let old = as_of_version("v4.0.0").expect("a version");
    let cases = [
        (Options::default(), 3),
        (Options::default(), 1),
        (
            Options {
                as_of: Some(old),
                warn_deprecated: true,
                ..Options::default()
            },
            3,
        ),
        (
            Options {
                deny_unknown_fields: true,
                ..Options::default()
            },
            2,
        ),
    ];
    for (options, limit) in cases {
        assert_same_reports(&paths, options, limit, &[1, 2], &[]);
    }
}

#[test]
fn every_format_says_the_same_of_the_corpus_folded_or_not() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let mut paths = Vec::new();
    for kind in ["set", "migration", "template", "card"] {
        paths.extend(support::json_files(
            &shared.join("corpus/neutral").join(kind),
        ));
    }
    paths.sort();
    assert!(paths.len() > 10, "the corpus is there");
    // Every format is compared on the floods above: here the two that say
    // most, on the parallel path.
    assert_same_reports(&paths, Options::default(), 3, &[2], &["text", "json"]);
}

#[test]
fn folded_warnings_are_counted_not_built() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let set = flooded_set(&shared);
    // Without the duplicate keys, which have the document walked again
    // with every warning built.
    let set = set
        .replace("\"flooded\": 2, ", "")
        .replace("\"identifiers\": {\"flooded\": 1, \"other\": 2}, ", "");
    let validate = |warnings_shown| {
        let options = Options {
            warnings_shown,
            ..Options::default()
        };
        let report = Validator::new(options).slice(set.as_bytes());
        report.documents.into_iter().next().expect("one document")
    };
    let built = validate(None);
    let folded = validate(Some(3));
    assert!(built.folded.is_empty());
    let unknown = |d: &DocumentReport| {
        d.diagnostics
            .iter()
            .filter(|d| {
                d.code == Code::UnknownField && d.field.as_deref() == Some("CardSet.flooded")
            })
            .count()
    };
    assert!(unknown(&built) > 400, "a flood: {}", unknown(&built));
    assert_eq!(unknown(&folded), 3);
    let count = folded
        .folded
        .iter()
        .find(|c| c.field == "CardSet.flooded")
        .map(|c| (c.code, c.count));
    assert_eq!(count, Some((Code::UnknownField, unknown(&built) - 3)));
    // What is built is what was found first, the same as without folding.
    let first: Vec<_> = built
        .diagnostics
        .iter()
        .filter(|d| d.field.as_deref() == Some("CardSet.flooded"))
        .take(3)
        .collect();
    let kept: Vec<_> = folded
        .diagnostics
        .iter()
        .filter(|d| d.field.as_deref() == Some("CardSet.flooded"))
        .collect();
    assert_eq!(first, kept);
    assert_eq!(
        built.diagnostics.len(),
        folded.diagnostics.len() + folded.folded.total()
    );
}

#[test]
fn a_duplicate_key_after_folded_warnings_has_the_document_walked_again() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let set = flooded_set(&shared);
    let validate = |warnings_shown| {
        let options = Options {
            warnings_shown,
            ..Options::default()
        };
        Validator::new(options).slice(set.as_bytes())
    };
    let built = validate(None);
    assert!(built.documents[0]
        .diagnostics
        .iter()
        .any(|d| d.code == Code::DuplicateKey));
    assert_eq!(validate(Some(3)), built, "walked again, nothing folded");
}

// ---------------------------------------------------------------------------
// The property: what a format shows and counts is the same folded or not

/// What a format showing `limit` of each kind makes of `report`: the
/// diagnostics shown, those counted but not shown, and the totals.
fn shown(report: &FileReport, limit: usize) -> (Vec<Diagnostic>, Vec<Suppressed>, Summary) {
    let mut filter = WarningFilter::new(limit);
    let mut summary = Summary::default();
    let mut shown = Vec::new();
    for document in &report.documents {
        summary.add_document(document);
        for diagnostic in &document.diagnostics {
            if filter.admit(diagnostic) {
                shown.push(diagnostic.clone());
            }
        }
        filter.admit_folded(&document.folded);
    }
    (shown, filter.suppressed(), summary)
}

/// A document's diagnostics built, and those folded: code, field, count.
type Folding = (Vec<Diagnostic>, Vec<(Code, String, usize)>);

/// `report` as folding should make it when no document had to be walked
/// again: past `limit` warnings of one code and field in a document, the
/// rest counted.
fn folded_by_hand(report: &FileReport, limit: usize) -> Vec<Folding> {
    report
        .documents
        .iter()
        .map(|document| {
            let mut seen: HashMap<(Code, String), usize> = HashMap::new();
            let mut kept = Vec::new();
            for diagnostic in &document.diagnostics {
                if let (Severity::Warning, Some(field)) = (diagnostic.severity, &diagnostic.field) {
                    let count = seen.entry((diagnostic.code, field.clone())).or_default();
                    *count += 1;
                    if *count > limit {
                        continue;
                    }
                }
                kept.push(diagnostic.clone());
            }
            let mut counts: Vec<_> = seen
                .into_iter()
                .filter(|(_, n)| *n > limit)
                .map(|((code, field), n)| (code, field, n - limit))
                .collect();
            counts.sort();
            (kept, counts)
        })
        .collect()
}

/// `doc` with members added to its objects as `seeds` say, in turn: an
/// unknown member (one of two names, the same everywhere), nothing, or
/// with `twice`, an unknown member twice or the object's first member
/// again (its earlier value and diagnostics go).
fn flood(node: &mut Node, seeds: &[u8], twice: bool, next: &mut usize) {
    match &mut node.json {
        J::Obj(members) => {
            for member in members.iter_mut() {
                flood(&mut member.node, seeds, twice, next);
            }
            let seed = seeds[*next % seeds.len()];
            *next += 1;
            let unknown = |name| member(name, free(J::Num("1".to_owned())));
            match seed % 8 {
                0..=2 => members.push(unknown("flooded")),
                3 | 4 => members.push(unknown("again")),
                6 if twice => {
                    members.push(unknown("flooded"));
                    members.push(unknown("flooded"));
                }
                7 if twice => {
                    if let Some(first) = members.first().cloned() {
                        members.push(first);
                    }
                }
                _ => {}
            }
        }
        J::Arr(items) => {
            for item in items {
                flood(item, seeds, twice, next);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn a_format_shows_and_counts_the_same_folded_or_not(
        (kind, mut doc) in any_document(),
        seeds in prop::collection::vec(any::<u8>(), 1..32),
        limit in 1usize..4,
        versions in any::<bool>(),
        twice in any::<bool>(),
    ) {
        flood(&mut doc, &seeds, twice, &mut 0);
        let text = write(&doc, Style::COMPACT);
        let options = Options {
            kind: Some(kind),
            as_of: versions.then(|| as_of_version("v4.0.0").expect("a version")),
            warn_deprecated: versions,
            ..Options::default()
        };
        let built = validate(text.as_bytes(), &options);
        let folded = validate(
            text.as_bytes(),
            &Options {
                warnings_shown: Some(limit),
                ..options
            },
        );
        prop_assert_eq!(shown(&folded, limit), shown(&built, limit));
        // Without a key given twice nothing is walked again: the fold is
        // the one made by hand.
        let twice = built.documents.iter().flat_map(|d| &d.diagnostics).any(|d| d.code == Code::DuplicateKey);
        if !twice {
            let made: Vec<_> = folded
                .documents
                .iter()
                .map(|d| {
                    let counts = d.folded.iter().map(|c| (c.code, c.field.clone(), c.count)).collect();
                    (d.diagnostics.clone(), counts)
                })
                .collect();
            prop_assert_eq!(made, folded_by_hand(&built, limit));
        }
    }
}
