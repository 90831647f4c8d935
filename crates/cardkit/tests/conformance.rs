//! The conformance suite: every case under `tests/conformance/` is an input
//! file and the report expected for it, each run as a test of its own named
//! after the case (`set/card-every-field`), so that every failing case is
//! reported and one case can be run by name:
//!
//! ```sh
//! cargo test -p cardkit --test conformance -- set/card-every-field
//! cargo test -p cardkit --test conformance -- --exact set/card-every-field
//! cargo test -p cardkit --test conformance -- --list
//! ```
//!
//! The layout of the cases and their options are described in
//! `support/cases.rs`. The expected report has one line per document, then
//! one per diagnostic:
//!
//! ```text
//! document /data set invalid
//!   error missing_field /data/cards/0/uuid 3:7 CardSet.uuid | missing required field `uuid` of CardSet
//! ```
//!
//! To write the expected files after a deliberate change, run with
//! `CARDKIT_BLESS=1` and review the diff.

mod support;

use std::fmt::Write as _;
use std::path::PathBuf;

use cardkit::validate;
use cardkit::FileReport;
use cardkit::Kind;
use libtest_mimic::{Arguments, Failed, Trial};
use support::cases::Case;

/// Fewer cases than this means they were not found, not that they pass.
const MINIMUM_CASES: usize = 50;

fn main() {
    let args = Arguments::from_args();
    let paths = support::cases::case_paths();
    assert!(
        paths.len() >= MINIMUM_CASES,
        "only {} conformance cases found in {}",
        paths.len(),
        support::conformance_dir().display()
    );
    let bless = std::env::var_os("CARDKIT_BLESS").is_some();
    let trials = paths
        .into_iter()
        .map(|path| {
            let name = support::cases::name(&path);
            Trial::test(name, move || run(&Case::load(&path), bless))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// Validates one case and compares (or, blessing, writes) its report.
fn run(case: &Case, bless: bool) -> Result<(), Failed> {
    let actual = render(&validate(&case.input, &case.options));
    if bless {
        std::fs::write(&case.expected, &actual)
            .map_err(|e| format!("{}: {e}", case.expected.display()))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&case.expected).map_err(|e| {
        format!(
            "{}: {e} (CARDKIT_BLESS=1 writes it)",
            relative(&case.expected).display()
        )
    })?;
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "{} differs from the report:\n{}",
            relative(&case.expected).display(),
            diff(&expected, &actual)
        )
        .into())
    }
}

fn relative(path: &std::path::Path) -> PathBuf {
    let root = support::conformance_dir();
    path.strip_prefix(&root).unwrap_or(path).to_path_buf()
}

/// The expected and actual reports line by line: `-` lines only expected,
/// `+` lines only in the report, `  ` lines in both, in order.
fn diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    // The longest common subsequence, by dynamic programming: reports are a
    // few dozen lines.
    let mut lcs = vec![vec![0usize; new.len() + 1]; old.len() + 1];
    for i in (0..old.len()).rev() {
        for j in (0..new.len()).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut text) = (0, 0, String::new());
    while i < old.len() || j < new.len() {
        if i < old.len() && j < new.len() && old[i] == new[j] {
            let _ = writeln!(text, "  {}", old[i]);
            i += 1;
            j += 1;
        } else if i < old.len() && (j == new.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(text, "- {}", old[i]);
            i += 1;
        } else {
            let _ = writeln!(text, "+ {}", new[j]);
            j += 1;
        }
    }
    if !text.lines().any(|l| l.starts_with(['-', '+'])) {
        text.push_str("(the lines are the same: they differ in line endings or a final newline)\n");
    }
    text
}

/// The report in the expected-file form.
fn render(report: &FileReport) -> String {
    let mut text = String::new();
    for document in &report.documents {
        let kind = document.kind.map_or("none", Kind::as_str);
        let verdict = if document.is_valid() {
            "valid"
        } else {
            "invalid"
        };
        let line = document
            .line
            .map(|l| format!(" line {l}"))
            .unwrap_or_default();
        let pointer = if document.pointer.is_empty() {
            "\"\""
        } else {
            &document.pointer
        };
        let _ = writeln!(text, "document {pointer}{line} {kind} {verdict}");
        for d in &document.diagnostics {
            let pointer = if d.pointer.is_empty() {
                "\"\"".into()
            } else {
                d.pointer_shown()
            };
            let field = d
                .field
                .as_deref()
                .map(|f| format!(" {f}"))
                .unwrap_or_default();
            let _ = writeln!(
                text,
                "  {} {} {pointer} {}:{}{field} | {}",
                d.severity.as_str(),
                d.code,
                d.line,
                d.column,
                d.message()
            );
        }
    }
    text
}
