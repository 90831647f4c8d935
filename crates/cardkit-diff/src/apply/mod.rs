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
mod decide;
pub mod json;
pub mod notices;
pub mod store;

use std::io::{self, Write};
use std::path::Path;

pub use decide::{Action, Applied, ApplyOptions, OnDelete, Report};
pub use notices::{read_notices, Notice, Outcome, Plan};

use crate::Error;

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
    let mut reader = io::BufReader::with_capacity(1 << 16, file);
    // The ids are rewritten in the bytes as they are: a compressed file's
    // would be garbled, and written back in place uncompressed.
    let first = io::BufRead::fill_buf(&mut reader)
        .map_err(|e| Error::new(format!("{name}: cannot be read: {e}")))?;
    if let Some(format) = cardkit::run::Compression::of(first) {
        return Err(Error::new(format!(
            "{name}: it is {format}-compressed, and migrate apply rewrites a plain file's bytes (--in-place would write it back uncompressed): decompress it first"
        )));
    }
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
