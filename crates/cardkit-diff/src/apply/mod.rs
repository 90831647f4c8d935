//! Migration notices applied to stored references to catalog ids: in a
//! column of CSV files ([`csv`]), at a pointer pattern in JSON and JSON
//! Lines files ([`json`]), or in a column of a table of a store made by
//! `cardkit export` ([`store`]).
//!
//! Each reference a notice names is rewritten to the id at the end of its
//! chain (see [`notices`]); a reference whose chain ends in a `delete` is
//! kept and reported, dropped (its row or item), or fails the run, as
//! [`OnDelete`] says. Applying the same notices again changes nothing.
//! Files are rewritten atomically (a temporary file beside them, renamed;
//! those runs killed before their end left are removed by the next run),
//! everything but the rewritten ids kept byte for byte; a store is updated
//! in one transaction. A dry run reports and writes nothing.

pub mod csv;
mod decide;
pub mod json;
pub mod notices;
pub mod store;

use std::io::{self, Write};
use std::path::Path;

use cardkit_export::stale::{folder_of, Temporaries};

pub use decide::{Action, Applied, ApplyOptions, OnDelete, Report};
pub use notices::{read_notices, Notice, Outcome, Plan, Resolved};

use crate::Error;

/// The file that writing to `path` replaces: `path`, or the file a
/// symbolic link at `path` leads to (so that the link stays a link and
/// its target is rewritten). A file that is read-only, or that has other
/// hard links (which a file renamed over it would leave with the old
/// content), is refused.
///
/// # Errors
/// `path` is read-only, has several hard links, or is a link that cannot
/// be followed: a message naming it and saying what to do.
pub fn destination(path: &Path) -> Result<std::path::PathBuf, Error> {
    let Ok(link) = std::fs::symlink_metadata(path) else {
        return Ok(path.to_path_buf());
    };
    let target = if link.file_type().is_symlink() {
        std::fs::canonicalize(path).map_err(|e| {
            Error::new(format!(
                "{}: a symbolic link that cannot be followed: {e}",
                path.display()
            ))
        })?
    } else {
        path.to_path_buf()
    };
    let meta = std::fs::metadata(&target)
        .map_err(|e| Error::new(format!("{}: cannot be read: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(Error::new(format!(
            "{}: not a regular file, and is not written",
            path.display()
        )));
    }
    if meta.permissions().readonly() {
        return Err(Error::new(format!(
            "{}: the file is read-only, and is not replaced (make it writable first, or write with -o elsewhere)",
            path.display()
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(Error::new(format!(
                "{}: the file has {} hard links, which a rewritten file renamed over it would leave with the old ids: write with -o elsewhere and copy it over (cp keeps the links)",
                path.display(),
                meta.nlink()
            )));
        }
    }
    Ok(target)
}

/// How the temporary files written beside a file are named:
/// `.NAME.cardkit-XXXXXX.tmp`, locked by the run writing them, so that a
/// later run can tell those that runs killed before their end left
/// ([`remove_stale`]).
pub const TEMPORARIES: Temporaries = Temporaries {
    marker: "cardkit-",
    suffix: ".tmp",
};

/// Removes the temporary files beside the file that writing to `path`
/// replaces ([`destination`]) that runs killed before their end left
/// (`.NAME.cardkit-XXXXXX.tmp`, no live run holding their lock): their
/// paths and sizes.
///
/// # Errors
/// `path` is refused ([`destination`]).
pub fn remove_stale(path: &Path) -> Result<Vec<(std::path::PathBuf, u64)>, Error> {
    let target = destination(path)?;
    let folder = folder_of(&target);
    Ok(TEMPORARIES
        .remove_stale(&target, cardkit_export::stale::locked)
        .into_iter()
        .map(|(name, size)| (folder.join(name), size))
        .collect())
}

/// Writes what `fill` makes to `path` atomically: a temporary file in the
/// directory of the file replaced (`.NAME.cardkit-XXXXXX.tmp`, locked
/// while it is written), renamed over it (its permissions kept when it
/// exists), written as it is made; nothing is renamed when `fill` returns
/// `false`. A symbolic link at `path` is written through: its target is
/// replaced ([`destination`], which refuses read-only files and files
/// with several hard links).
///
/// # Errors
/// The file cannot be written, or is refused: a message naming it.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<bool, Error>,
) -> Result<bool, Error> {
    let target = destination(path)?;
    // The command's one way of writing a file; a rewrite replaces by
    // design, and the input rewritten in place is its own output.
    let rules = cardkit_run::output::Rules {
        inputs: &[],
        replace: true,
        suffix: TEMPORARIES.suffix,
    };
    cardkit_run::output::write(&target, &rules, fill)
}

impl From<cardkit_run::output::Refused> for Error {
    fn from(refused: cardkit_run::output::Refused) -> Error {
        Error::new(refused.to_string())
    }
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
    if let Some(format) = cardkit_run::Compression::of(first) {
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
/// (nothing on a dry run), each change added to `report` as it is found.
/// With [`OnDelete::Fail`], every input is looked at before any is written,
/// so that a failing run writes nothing.
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
    report: &mut Report,
) -> Result<(), Error> {
    if inputs.len() > 1 && !matches!(output, Output::InPlace) && !options.dry_run {
        return Err(Error::new(
            "several inputs are rewritten with --in-place (or looked at with --dry-run); -o and standard output take one",
        ));
    }
    if let (References::Pointer(pattern), OnDelete::Drop) = (references, options.on_delete) {
        json::check_drop(pattern)?;
    }
    if options.dry_run {
        for input in inputs {
            rewrite_file(input, references, plan, options, None, report)?;
        }
        return Ok(());
    }
    if options.on_delete == OnDelete::Fail {
        // Every input looked at first (counted, not kept), so that a
        // failing run writes nothing.
        let mut probe = Report::counting();
        for input in inputs {
            rewrite_file(input, references, plan, options, None, &mut probe)?;
        }
    }
    // Refused before anything is written.
    match output {
        Output::File(path) => {
            destination(path)?;
        }
        Output::InPlace => {
            for input in inputs {
                destination(input)?;
            }
        }
        Output::Stdout => {}
    }
    // What runs killed before their end left beside the files written.
    match output {
        Output::File(path) => report.stale_removed.extend(remove_stale(path)?),
        Output::InPlace => {
            for input in inputs {
                report.stale_removed.extend(remove_stale(input)?);
            }
        }
        Output::Stdout => {}
    }
    for input in inputs {
        let written = match output {
            Output::Stdout => {
                let stdout = io::stdout();
                let mut out = io::BufWriter::new(stdout.lock());
                rewrite_file(input, references, plan, options, Some(&mut out), report)?;
                out.flush()
                    .map_err(|e| Error::new(format!("standard output: {e}")))?;
                true
            }
            Output::File(path) => write_atomically(path, |out| {
                rewrite_file(input, references, plan, options, Some(out), report)?;
                Ok(true)
            })?,
            // Rewritten as it is read; a file with nothing to change is
            // left untouched (its temporary file is removed).
            Output::InPlace => write_atomically(input, |out| {
                let before = report.rewrites();
                rewrite_file(input, references, plan, options, Some(out), report)?;
                Ok(report.rewrites() > before)
            })?,
        };
        report.written += usize::from(written);
    }
    Ok(())
}
