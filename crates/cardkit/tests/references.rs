//! The references' conformance cases: every `NAME.json` under
//! `tests/references/` is checked with `--references` as a run over it
//! alone, and its findings compared with `NAME.expected`, each case a test
//! of its own. Every rule has a case that breaks it (`RULE-fails`) and one
//! that keeps it (`RULE-holds`), whose expected report has no finding.
//!
//! ```sh
//! cargo test -p cardkit --test references -- dangling_reference
//! ```
//!
//! The expected report has one line per document with findings, then one
//! per finding (with its second place after `@`), then how many references
//! could not be checked. `CARDKIT_BLESS=1` writes the expected files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cardkit::references::{check_slice, Outcome};
use cardkit::{Options, Severity};
use libtest_mimic::{Arguments, Failed, Trial};

/// Fewer cases than this means they were not found.
const MINIMUM_CASES: usize = 12;

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/references");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= MINIMUM_CASES,
        "only {} cases in {}",
        paths.len(),
        dir.display()
    );
    let bless = std::env::var_os("CARDKIT_BLESS").is_some();
    let trials = paths
        .into_iter()
        .map(|path| {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Trial::test(name, move || run(&path, bless))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn run(path: &Path, bless: bool) -> Result<(), Failed> {
    let input = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let outcome = check_slice(&input, &Options::default(), Severity::Warning);
    let actual = render(&outcome);
    let expected_path = path.with_extension("expected");
    if bless {
        std::fs::write(&expected_path, &actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&expected_path).map_err(|e| {
        format!(
            "{}: {e} (CARDKIT_BLESS=1 writes it)",
            expected_path.display()
        )
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.ends_with("-holds")
        && outcome
            .reports
            .iter()
            .any(|(_, r, _)| !r.diagnostics.is_empty())
    {
        return Err(format!("{name} keeps its rule, yet has findings:\n{actual}").into());
    }
    if name.ends_with("-fails") {
        let code = name.split('-').next().unwrap_or_default();
        let found = outcome
            .reports
            .iter()
            .flat_map(|(_, r, _)| &r.diagnostics)
            .any(|d| d.code.as_str() == code);
        if !found {
            return Err(
                format!("{name} breaks `{code}`, yet has no such finding:\n{actual}").into(),
            );
        }
    }
    if expected == actual {
        Ok(())
    } else {
        Err(format!("expected:\n{expected}\nfound:\n{actual}").into())
    }
}

/// The findings in the expected-file form.
fn render(outcome: &Outcome) -> String {
    let mut text = String::new();
    for (_, report, was_valid) in &outcome.reports {
        let verdict = if *was_valid { "valid" } else { "invalid" };
        let pointer = if report.pointer.is_empty() {
            "\"\""
        } else {
            &report.pointer
        };
        let _ = writeln!(text, "document {pointer} {verdict}");
        for d in &report.diagnostics {
            let field = d.field.as_deref().unwrap_or("-");
            let _ = write!(
                text,
                "  {} {} {} {}:{} {field} | {}",
                d.severity.as_str(),
                d.code,
                d.pointer,
                d.line,
                d.column,
                d.message()
            );
            if let Some(related) = &d.related {
                let _ = write!(
                    text,
                    " @ {} {}:{} ({})",
                    related.pointer, related.line, related.column, related.message
                );
            }
            text.push('\n');
        }
    }
    let _ = writeln!(text, "unchecked {}", outcome.unchecked);
    text
}
