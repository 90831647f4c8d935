//! The diff as one JSON document, and as JSON Lines.

use std::io::{self, Write};

use serde::Serialize;

use crate::data::{Diff, SetDiff, SideSummary, Summary};

/// The diff as one JSON document (the serialization of [`Diff`]).
///
/// # Errors
/// Writing failed.
pub fn json(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, diff)?;
    writeln!(out)
}

/// The summary alone: each build and the totals, members of [`Diff`].
#[derive(Serialize)]
struct Stat<'a> {
    old: &'a SideSummary,
    new: &'a SideSummary,
    summary: &'a Summary,
}

/// The summary alone, as one JSON document: `old`, `new` and `summary`, as
/// in the whole diff's.
///
/// # Errors
/// Writing failed.
pub fn json_stat(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    let stat = Stat {
        old: &diff.old,
        new: &diff.new,
        summary: &diff.summary,
    };
    serde_json::to_writer_pretty(&mut *out, &stat)?;
    writeln!(out)
}

/// One line: its `type` first, then what it is about, then the item's
/// members in their order.
#[derive(Serialize)]
struct Line<'a, T: Serialize> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    set: Option<&'a str>,
    #[serde(flatten)]
    item: &'a T,
}

fn line<T: Serialize>(out: &mut dyn Write, line: &Line<'_, T>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    writeln!(out)
}

fn plain<'a, T: Serialize>(kind: &'a str, item: &'a T) -> Line<'a, T> {
    Line {
        kind,
        side: None,
        set: None,
        item,
    }
}

/// The diff as JSON Lines: `{"type": "build", "side": "old"|"new", …}`,
/// a `problem` line per document that is invalid or not a set, a `set`
/// line per set that changed (without its records), a `record` line per
/// record (with `set`, its set's code), a `drift` line per field, a
/// `reference` line per reference the change breaks, and a closing
/// `summary` line.
///
/// # Errors
/// Writing failed.
pub fn json_lines(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    build_lines(diff, out)?;
    for problem in &diff.problems {
        line(out, &plain("problem", problem))?;
    }
    for set in &diff.sets {
        let alone = SetDiff {
            changes: Vec::new(),
            ..set.clone()
        };
        line(out, &plain("set", &alone))?;
        for record in &set.changes {
            let mut record_line = plain("record", record);
            record_line.set = Some(&set.code);
            line(out, &record_line)?;
        }
    }
    for drift in &diff.drift {
        line(out, &plain("drift", drift))?;
    }
    for reference in diff.references.iter().flatten() {
        line(out, &plain("reference", reference))?;
    }
    line(out, &plain("summary", &diff.summary))
}

/// The summary alone, as JSON Lines: the `build` lines and the `summary`
/// line of the whole diff's.
///
/// # Errors
/// Writing failed.
pub fn json_lines_stat(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    build_lines(diff, out)?;
    line(out, &plain("summary", &diff.summary))
}

fn build_lines(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    for (side, build) in [("old", &diff.old), ("new", &diff.new)] {
        let mut build_line = plain("build", build);
        build_line.side = Some(side);
        line(out, &build_line)?;
    }
    Ok(())
}
