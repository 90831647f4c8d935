//! What each reference found becomes: the options of a run, the decision
//! for one reference ([`decide`]), and the report of what was applied.
//! Shared by every target (`csv.rs`, `json.rs`, `store.rs`).

use std::io::{self, Write};

use serde::Serialize;

use super::notices::{Outcome, Plan};
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
