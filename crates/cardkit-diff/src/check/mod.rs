//! Migration notices checked against the two builds they are about: for
//! each notice, whether its old id is in the old build and not in the new
//! one, and whether what it becomes is in the new build. The notices that
//! `diff --emit-migrations` writes for two builds pass against them.
//!
//! The ids compared are the records' catalog ids
//! (`identifiers.catalogAId`), the ids `diff` makes notices about; only
//! the ids the notices name are kept while the builds are read ([`ids`]).
//! Notices are read and resolved as `migrate apply` resolves them
//! ([`Plan`]): notices that disagree about an id or go round in a cycle
//! cannot be checked. A `merge` is checked by the end of its chain (A → B
//! then B → C: C must be in the new build; a chain that ends in a `delete`
//! deletes), and an old id that another notice merges into (a link of a
//! chain) need not be in the old build.

mod ids;
mod render;

use std::path::Path;

use cardkit_run::{OnInvalid, Run, Walk};
use serde::Serialize;

use crate::apply::{Notice, Plan};
use crate::data::Problem;
use crate::Error;

pub use render::{json, text};

/// How to read the builds.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Threads each build is validated on.
    pub jobs: usize,
    /// What to do with documents that are invalid or not sets: `fail`
    /// checks nothing, `skip` leaves them out, `keep` reads their ids as far
    /// as they parse.
    pub on_invalid: OnInvalid,
    /// How a directory given is searched for the build's files.
    pub walk: Walk,
}

/// Why a notice fails. In JSON: its `code`, the `id` it is about, the
/// `chain` followed (when one was) and its `message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// Its old id is still in the new build: nothing was merged or
    /// deleted.
    OldIdInNewBuild {
        /// The old id.
        id: String,
    },
    /// Its old id is not in the old build (and no notice merges into it).
    OldIdNotInOldBuild {
        /// The old id.
        id: String,
    },
    /// A merge whose new id (the end of its chain) is not in the new
    /// build.
    NewIdNotInNewBuild {
        /// The id it becomes: its new id, or the end of its chain.
        id: String,
        /// When a chain was followed, its notices (`a > b`).
        chain: Option<String>,
    },
}

impl Reason {
    /// Its code: `old_id_in_new_build`, `old_id_not_in_old_build` or
    /// `new_id_not_in_new_build`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Reason::OldIdInNewBuild { .. } => "old_id_in_new_build",
            Reason::OldIdNotInOldBuild { .. } => "old_id_not_in_old_build",
            Reason::NewIdNotInNewBuild { .. } => "new_id_not_in_new_build",
        }
    }

    /// What it says, in words.
    #[must_use]
    pub fn message(&self) -> String {
        match self {
            Reason::OldIdInNewBuild { id } => {
                format!("the old id {id} is still in the new build")
            }
            Reason::OldIdNotInOldBuild { id } => {
                format!("the old id {id} is not in the old build")
            }
            Reason::NewIdNotInNewBuild { id, chain: None } => {
                format!("the new id {id} is not in the new build")
            }
            Reason::NewIdNotInNewBuild {
                id,
                chain: Some(chain),
            } => format!("its chain ({chain}) ends at {id}, which is not in the new build"),
        }
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let (id, chain) = match self {
            Reason::OldIdInNewBuild { id } | Reason::OldIdNotInOldBuild { id } => (id, None),
            Reason::NewIdNotInNewBuild { id, chain } => (id, chain.as_ref()),
        };
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", self.code())?;
        map.serialize_entry("id", id)?;
        if let Some(chain) = chain {
            map.serialize_entry("chain", chain)?;
        }
        map.serialize_entry("message", &self.message())?;
        map.end()
    }
}

/// One notice checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// How reports name the notice: its `id`, or its place.
    pub notice: String,
    /// Where it is: its file and line or pointer.
    pub place: String,
    /// `merge` or `delete`.
    pub strategy: &'static str,
    /// Its old id.
    pub old: String,
    /// Its new id, for a merge.
    pub new: Option<String>,
    /// `pass` or `fail`.
    pub verdict: &'static str,
    /// Why it fails (none when it passes).
    pub reasons: Vec<Reason>,
}

impl Verdict {
    /// It passes.
    #[must_use]
    pub fn passes(&self) -> bool {
        self.reasons.is_empty()
    }
}

/// One build, as read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuildSummary {
    /// The file or directory given.
    pub path: String,
    /// Files read.
    pub files: usize,
    /// Documents read.
    pub documents: usize,
    /// Sets read.
    pub sets: usize,
}

/// The totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct CheckSummary {
    /// Notices checked.
    pub notices: usize,
    /// Those that pass.
    pub passed: usize,
    /// Those that fail.
    pub failed: usize,
}

/// Every notice checked against both builds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// The old build.
    pub old: BuildSummary,
    /// The new build.
    pub new: BuildSummary,
    /// Documents of either build that are invalid or not sets. With
    /// [`OnInvalid::Fail`], any of them stops the check: no notice is
    /// checked.
    pub problems: Vec<Problem>,
    /// Each notice, in the order read.
    pub notices: Vec<Verdict>,
    /// The totals.
    pub summary: CheckSummary,
}

impl Checked {
    /// Every notice passes (and some were checked, or there were none).
    #[must_use]
    pub fn passes(&self) -> bool {
        self.summary.failed == 0
    }
}

/// Checks `notices` (as [`crate::apply::read_notices`] reads them) against
/// the builds at `old` and `new` (each a file or a directory, read as
/// `diff` reads them, once), read through `run`, which validates each input
/// and reports its documents.
///
/// # Errors
/// The notices disagree about an id or go round in a cycle; a directory
/// holds no JSON file, a file cannot be read, or the run's report cannot
/// be written: a message naming the notices or the path and why.
pub fn check(
    run: &mut Run<'_>,
    notices: Vec<Notice>,
    old: &Path,
    new: &Path,
    options: &CheckOptions,
) -> Result<Checked, Error> {
    // Checked as they would be applied: the chains resolved, the notices
    // that disagree or go round refused.
    let plan = Plan::new(notices.clone())?;
    let mut wanted = ids::Wanted::default();
    for notice in &notices {
        wanted.add(&notice.old);
        if let Some(new) = &notice.new {
            wanted.add(new);
        }
    }
    // The ids a notice merges into: links of a chain when a notice is
    // about them.
    let mut merged_into = vec![false; wanted.len()];
    for new in notices.iter().filter_map(|n| n.new.as_deref()) {
        if let Some(at) = wanted.get(new) {
            merged_into[at as usize] = true;
        }
    }
    let read = |run: &mut Run<'_>, path: &Path| {
        ids::read_build(
            run,
            path,
            &options.walk,
            options.jobs,
            options.on_invalid,
            &wanted,
        )
    };
    let in_old = read(run, old)?;
    let in_new = read(run, new)?;
    let summary = |path: &Path, seen: &ids::Seen| BuildSummary {
        path: path.display().to_string(),
        files: seen.files,
        documents: seen.documents,
        sets: seen.sets,
    };
    let mut checked = Checked {
        old: summary(old, &in_old),
        new: summary(new, &in_new),
        problems: in_old
            .problems
            .iter()
            .chain(&in_new.problems)
            .cloned()
            .collect(),
        notices: Vec::new(),
        summary: CheckSummary::default(),
    };
    if !checked.problems.is_empty() && options.on_invalid == OnInvalid::Fail {
        return Ok(checked);
    }
    let present =
        |seen: &ids::Seen, id: &str| wanted.get(id).is_some_and(|at| seen.present[at as usize]);
    for notice in notices {
        let mut reasons = Vec::new();
        if !present(&in_old, &notice.old)
            && !wanted
                .get(&notice.old)
                .is_some_and(|at| merged_into[at as usize])
        {
            reasons.push(Reason::OldIdNotInOldBuild {
                id: notice.old.clone(),
            });
        }
        if present(&in_new, &notice.old) {
            reasons.push(Reason::OldIdInNewBuild {
                id: notice.old.clone(),
            });
        }
        if notice.new.is_some() {
            // The end of its chain: a chain that ends in a delete deletes.
            if let Some(resolved) = plan.resolve(&notice.old) {
                if let Some(to) = resolved.to.filter(|to| !present(&in_new, to)) {
                    reasons.push(Reason::NewIdNotInNewBuild {
                        id: to.to_owned(),
                        chain: (resolved.followed > 1).then(|| plan.notices_text(&resolved)),
                    });
                }
            }
        }
        checked.summary.notices += 1;
        if reasons.is_empty() {
            checked.summary.passed += 1;
        } else {
            checked.summary.failed += 1;
        }
        checked.notices.push(Verdict {
            notice: notice.label,
            place: notice.place,
            strategy: if notice.new.is_some() {
                "merge"
            } else {
                "delete"
            },
            old: notice.old,
            new: notice.new,
            verdict: if reasons.is_empty() { "pass" } else { "fail" },
            reasons,
        });
    }
    Ok(checked)
}
