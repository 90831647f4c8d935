//! What each reference found becomes: the options of a run, the decision
//! for one reference ([`decide`]), and the report of what was applied.
//! Shared by every target (`csv.rs`, `json.rs`, `store.rs`).

use std::io::{self, Write};

use serde::Serialize;

use super::notices::Plan;
use crate::Error;

/// What to do with a reference to a deleted id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
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
    /// row, by its key: `uuid=…`, with its build when a run rewrites every
    /// build).
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
    /// `place` is a store's table and `at` a row's key, joined by a space
    /// (`identifiers uuid=…`) rather than a colon (`deck.csv:3`).
    #[serde(skip)]
    pub keyed: bool,
}

impl Applied {
    /// Where the reference is: `deck.csv:3`, `identifiers uuid=…`.
    #[must_use]
    pub fn location(&self) -> String {
        located(&self.place, &self.at, self.keyed)
    }
}

/// `place:at` for a file's line, `place at` for a table's row.
fn located(place: &str, at: &str, keyed: bool) -> String {
    let place = cardkit_run::render::Text::escape(place);
    if keyed {
        format!("{place} {at}")
    } else {
        format!("{place}:{at}")
    }
}

/// A run's report: each change, and totals.
///
/// The changes are kept in [`Report::changes`], or, with a sink
/// ([`Report::streaming`]), written to it as a line each as they are found
/// and not kept: memory does not grow with the references changed.
#[derive(Default)]
pub struct Report {
    /// Every reference changed, kept or dropped, in order (none when the
    /// report streams them).
    pub changes: Vec<Applied>,
    /// References looked at.
    pub references: usize,
    /// Files or tables written (none in a dry run).
    pub written: usize,
    /// Temporary files that runs killed before their end had left beside
    /// the files written, removed by this run: their paths and sizes.
    pub stale_removed: Vec<(std::path::PathBuf, u64)>,
    /// Which of a store's builds were looked at (`build 2024-05-17`,
    /// `every build (…)`), said in the summary.
    pub scope: Option<String>,
    /// References merged, kept and dropped.
    counts: [usize; 3],
    sink: Option<Box<dyn Write>>,
    /// The first error writing to the sink.
    failed: Option<io::Error>,
}

impl std::fmt::Debug for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Report")
            .field("changes", &self.changes)
            .field("references", &self.references)
            .field("written", &self.written)
            .field("scope", &self.scope)
            .field("stale_removed", &self.stale_removed)
            .field("counts", &self.counts)
            .field("streaming", &self.sink.is_some())
            .finish()
    }
}

fn index(action: Action) -> usize {
    match action {
        Action::Merged => 0,
        Action::Kept => 1,
        Action::Dropped => 2,
    }
}

impl Report {
    /// A report that writes each change to `sink` as a line (see
    /// [`Report::text`]) instead of keeping it.
    #[must_use]
    pub fn streaming(sink: Box<dyn Write>) -> Report {
        Report {
            sink: Some(sink),
            ..Report::default()
        }
    }

    /// A report that counts and keeps no change.
    #[must_use]
    pub fn counting() -> Report {
        Report::streaming(Box::new(io::sink()))
    }

    /// Adds one change.
    pub fn push(&mut self, applied: Applied) {
        self.counts[index(applied.action)] += 1;
        match &mut self.sink {
            Some(sink) => {
                if self.failed.is_none() {
                    if let Err(e) = line(&applied, sink) {
                        self.failed = Some(e);
                    }
                }
            }
            None => self.changes.push(applied),
        }
    }

    /// How many references were given each action.
    #[must_use]
    pub fn count(&self, action: Action) -> usize {
        self.counts[index(action)]
    }

    /// Merges and drops: the changes that rewrite something.
    #[must_use]
    pub fn rewrites(&self) -> usize {
        self.count(Action::Merged) + self.count(Action::Dropped)
    }

    /// The report as text: a line per change kept (or, streaming, the
    /// sink flushed), then the totals.
    ///
    /// # Errors
    /// Writing failed (to `out`, or earlier to the sink).
    pub fn text(&mut self, dry_run: bool, out: &mut dyn Write) -> io::Result<()> {
        if let Some(sink) = &mut self.sink {
            sink.flush()?;
        }
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        for c in &self.changes {
            line(c, out)?;
        }
        writeln!(
            out,
            "{}{} references{}: {} merged, {} deleted kept, {} dropped{}",
            if dry_run { "dry run: " } else { "" },
            self.references,
            self.scope
                .as_ref()
                .map_or(String::new(), |scope| format!(" in {scope}")),
            self.count(Action::Merged),
            self.count(Action::Kept),
            self.count(Action::Dropped),
            if dry_run {
                "; nothing written".to_owned()
            } else {
                format!("; {} written", self.written)
            }
        )?;
        if !self.stale_removed.is_empty() {
            let files: Vec<String> = self
                .stale_removed
                .iter()
                .map(|(path, bytes)| {
                    format!(
                        "{}, {bytes} bytes",
                        cardkit_run::render::Text::escape(&path.display().to_string())
                    )
                })
                .collect();
            let n = files.len();
            writeln!(
                out,
                "removed {n} temporary {} that runs killed before their end had left: {}",
                if n == 1 { "file" } else { "files" },
                files.join("; ")
            )?;
        }
        Ok(())
    }
}

/// A change's line: `place:at: old -> new (notices)`.
fn line(c: &Applied, out: &mut dyn Write) -> io::Result<()> {
    let what = match (&c.new, c.action) {
        (Some(new), _) => format!("{} -> {new}", c.old),
        (None, Action::Dropped) => format!("{} deleted: dropped", c.old),
        (None, _) => format!("{} deleted: kept", c.old),
    };
    writeln!(out, "{}: {what} ({})", c.location(), c.notices)
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
/// `keyed`: `place` is a table and `at` a row's key (see [`Applied`]).
pub(crate) fn decide(
    plan: &Plan,
    options: ApplyOptions,
    (place, keyed): (&str, bool),
    at: &dyn Fn() -> String,
    id: &str,
) -> Result<Option<Applied>, Error> {
    let Some(resolved) = plan.resolve(id) else {
        return Ok(None);
    };
    let (new, action) = match resolved.to {
        Some(to) => (Some(to.to_owned()), Action::Merged),
        None => match options.on_delete {
            OnDelete::Keep => (None, Action::Kept),
            OnDelete::Drop => (None, Action::Dropped),
            OnDelete::Fail => {
                return Err(Error::new(format!(
                "{}: {id} is deleted ({}); nothing was written (--on-delete keep or drop goes on)",
                located(place, &at(), keyed),
                plan.notices_text(&resolved)
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
        notices: plan.notices_text(&resolved),
        keyed,
    }))
}
