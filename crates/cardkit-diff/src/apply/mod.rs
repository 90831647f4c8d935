//! Migration notices applied to stored references to catalog ids: in a
//! column of CSV files ([`csv`]), at a pointer pattern in JSON and JSON
//! Lines files ([`json`]), or in a column of a table of a store made by
//! `cardkit export` ([`store`]).
//!
//! Each reference a notice names is rewritten to the id at the end of its
//! chain (see [`notices`]); a reference whose chain ends in a `delete` is
//! kept and reported, dropped (its row or item), or fails the run, as
//! [`OnDelete`] says. Applying the same notices again changes nothing.
//! Files are rewritten atomically (a temporary file beside them, renamed),
//! everything but the rewritten ids kept byte for byte; a store is updated
//! in one transaction. A dry run reports and writes nothing.

pub mod csv;
pub mod json;
pub mod notices;
pub mod store;

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

pub use notices::{read_notices, Notice, Outcome, Plan};

use crate::Error;

/// What to do with a reference to a deleted id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnDelete {
    /// Keep it, and report it.
    #[default]
    Keep,
    /// Drop its row (CSV, a store's table) or item (JSON), or its line
    /// (JSON Lines).
    Drop,
    /// Fail the run: nothing is written.
    Fail,
}

/// What was done to one reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Rewritten to the new id.
    Merged,
    /// A deleted id, kept.
    Kept,
    /// A deleted id, its row or item dropped.
    Dropped,
}

/// One reference changed (or kept).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Applied {
    /// The file, or the table.
    pub place: String,
    /// The line (files; for JSON the line of the id) or the row (a store's
    /// row id).
    pub at: String,
    /// The id found.
    pub old: String,
    /// The id written, for a merge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
    /// What was done.
    pub action: Action,
    /// The notices followed (their ids).
    pub notices: String,
}

/// A run's report: each change, and totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Every reference changed, kept or dropped, in order.
    pub changes: Vec<Applied>,
    /// References looked at.
    pub references: usize,
    /// Files or tables written (none in a dry run).
    pub written: usize,
}

impl Report {
    /// How many references were given each action.
    #[must_use]
    pub fn count(&self, action: Action) -> usize {
        self.changes.iter().filter(|c| c.action == action).count()
    }

    /// The report as text: a line per change, then the totals.
    ///
    /// # Errors
    /// Writing failed.
    pub fn text(&self, dry_run: bool, out: &mut dyn Write) -> io::Result<()> {
        for c in &self.changes {
            let what = match (&c.new, c.action) {
                (Some(new), _) => format!("{} -> {new}", c.old),
                (None, Action::Dropped) => format!("{} deleted: dropped", c.old),
                (None, _) => format!("{} deleted: kept", c.old),
            };
            writeln!(
                out,
                "{}:{}: {what} ({})",
                cardkit::render::Text::escape(&c.place),
                c.at,
                c.notices
            )?;
        }
        writeln!(
            out,
            "{}{} references: {} merged, {} deleted kept, {} dropped{}",
            if dry_run { "dry run: " } else { "" },
            self.references,
            self.count(Action::Merged),
            self.count(Action::Kept),
            self.count(Action::Dropped),
            if dry_run {
                "; nothing written".to_owned()
            } else {
                format!("; {} written", self.written)
            }
        )
    }
}

/// How to apply.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApplyOptions {
    /// What to do with references to deleted ids.
    pub on_delete: OnDelete,
    /// Report, write nothing.
    pub dry_run: bool,
}

/// What a reference found becomes, and how it is reported; `Err` when it
/// is deleted and the run must fail. `None` when no notice names it.
pub(crate) fn decide(
    plan: &Plan,
    options: ApplyOptions,
    place: &str,
    at: &dyn Fn() -> String,
    id: &str,
) -> Result<Option<Applied>, Error> {
    let Some(outcome) = plan.outcome(id) else {
        return Ok(None);
    };
    let (new, action) = match outcome {
        Outcome::Merged { to, .. } => (Some(to.clone()), Action::Merged),
        Outcome::Deleted { .. } => match options.on_delete {
            OnDelete::Keep => (None, Action::Kept),
            OnDelete::Drop => (None, Action::Dropped),
            OnDelete::Fail => {
                return Err(Error::new(format!(
                    "{place}:{}: {id} is deleted ({}); nothing was written (--on-delete keep or drop goes on)",
                    at(),
                    outcome.notices()
                )))
            }
        },
    };
    Ok(Some(Applied {
        place: place.to_owned(),
        at: at(),
        old: id.to_owned(),
        new,
        action,
        notices: outcome.notices(),
    }))
}

/// Writes `bytes` made by `fill` to `path` atomically: a temporary file in
/// the same directory, renamed over `path` (its permissions kept when it
/// exists).
///
/// # Errors
/// The file cannot be written: a message naming it.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), Error>,
) -> Result<(), Error> {
    let fail = |e: &dyn std::fmt::Display| {
        Error::new(format!("{}: cannot be written: {e}", path.display()))
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(|e| fail(&e))?;
    {
        let mut out = io::BufWriter::new(temp.as_file_mut());
        fill(&mut out)?;
        out.flush().map_err(|e| fail(&e))?;
    }
    if let Ok(meta) = std::fs::metadata(path) {
        temp.as_file()
            .set_permissions(meta.permissions())
            .map_err(|e| fail(&e))?;
    }
    temp.as_file().sync_all().map_err(|e| fail(&e))?;
    temp.persist(path).map_err(|e| fail(&e.error))?;
    Ok(())
}

/// Where references are in files.
#[derive(Debug, Clone)]
pub enum References {
    /// In a column of CSV files, by its header name.
    Column(String),
    /// At a pointer pattern in JSON and JSON Lines files.
    Pointer(crate::pointer::Pattern),
}

/// Where rewritten files go.
#[derive(Debug, Clone)]
pub enum Output {
    /// Standard output (one input).
    Stdout,
    /// Another file (one input).
    File(std::path::PathBuf),
    /// Each input rewritten in its place.
    InPlace,
}

/// Whether `path` holds JSON Lines (by its ending).
fn is_json_lines(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("ndjson"))
}

/// Rewrites one input into `out` (or only reports, with `None`).
fn rewrite_file(
    path: &Path,
    references: &References,
    plan: &Plan,
    options: ApplyOptions,
    out: Option<&mut dyn Write>,
    report: &mut Report,
) -> Result<(), Error> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path)
        .map_err(|e| Error::new(format!("{name}: cannot be read: {e}")))?;
    let reader = io::BufReader::with_capacity(1 << 16, file);
    match references {
        References::Column(column) => {
            csv::rewrite(reader, &name, column, plan, options, out, report)
        }
        References::Pointer(pattern) => json::rewrite(
            reader,
            &name,
            is_json_lines(path),
            pattern,
            plan,
            options,
            out,
            report,
        ),
    }
}

/// Applies `plan` to the references in `inputs`, writing as `output` says
/// (nothing on a dry run). With [`OnDelete::Fail`], every input is looked
/// at before any is written, so that a failing run writes nothing.
///
/// # Errors
/// An input cannot be read or written, or is not what `references` needs;
/// a deleted id with [`OnDelete::Fail`].
pub fn apply_files(
    inputs: &[std::path::PathBuf],
    references: &References,
    plan: &Plan,
    options: ApplyOptions,
    output: &Output,
) -> Result<Report, Error> {
    if inputs.len() > 1 && !matches!(output, Output::InPlace) && !options.dry_run {
        return Err(Error::new(
            "several inputs are rewritten with --in-place (or looked at with --dry-run); -o and standard output take one",
        ));
    }
    if options.dry_run || options.on_delete == OnDelete::Fail {
        let mut report = Report::default();
        for input in inputs {
            rewrite_file(input, references, plan, options, None, &mut report)?;
        }
        if options.dry_run {
            return Ok(report);
        }
    }
    let mut report = Report::default();
    for input in inputs {
        match output {
            Output::Stdout => {
                let stdout = io::stdout();
                let mut out = io::BufWriter::new(stdout.lock());
                rewrite_file(
                    input,
                    references,
                    plan,
                    options,
                    Some(&mut out),
                    &mut report,
                )?;
                out.flush()
                    .map_err(|e| Error::new(format!("standard output: {e}")))?;
            }
            Output::File(path) => {
                write_atomically(path, |out| {
                    rewrite_file(input, references, plan, options, Some(out), &mut report)
                })?;
            }
            Output::InPlace => {
                // Looked at first: a file with nothing to change is left
                // untouched.
                let mut probe = Report::default();
                rewrite_file(input, references, plan, options, None, &mut probe)?;
                if probe.changes.iter().all(|c| c.action == Action::Kept) {
                    report.references += probe.references;
                    report.changes.extend(probe.changes);
                    continue;
                }
                write_atomically(input, |out| {
                    rewrite_file(input, references, plan, options, Some(out), &mut report)
                })?;
            }
        }
        report.written += 1;
    }
    Ok(report)
}
