//! A diff from start to end: both builds read (each in one validating pass,
//! through a [`Run`] that reports their documents), sets matched by code,
//! records by uuid, the records whose hashes differ read again and compared,
//! re-keys matched, drift compared, notices made.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::Path;

use cardkit_run::render::Text;
use cardkit_run::Run;

use crate::data::{Change, Diff, Summary};
use crate::fields::facts;
use crate::notices::{notice, Evidence, Fate};
use crate::options::{DiffOptions, OnInvalid};
use crate::print::SetPrint;
use crate::set_diff::{diff_set, text};
use crate::side::{unseekable, Side};
use crate::Error;

/// Diffs the builds at `old` and `new` (each a file or a directory), their
/// documents validated as [`DiffOptions::validate`] says and their reports
/// dropped: [`diff_in`] hands them to a run that renders them.
///
/// # Errors
/// As [`diff_in`].
pub fn diff(old: &Path, new: &Path, options: &DiffOptions) -> Result<Diff, Error> {
    let mut renderer = Text::default();
    let mut nowhere = io::sink();
    let mut run = Run::new(&mut renderer, &mut nowhere, options.validate);
    diff_in(&mut run, old, new, options)
}

/// Diffs the builds at `old` and `new`, each a file or a directory (one
/// build made of all its JSON files, searched as `validate` searches them),
/// read through `run`: it validates each input, counts and renders each
/// document's report (end it with [`Run::finish`] for its summary).
///
/// Sets are matched by code across the whole build (several sets with the
/// same code on one side are matched in order). When a document of either
/// build is invalid or not a set, the diff stops there (its `problems` say
/// why, and it has no sets) unless [`DiffOptions::on_invalid`] skips or
/// keeps them.
///
/// # Errors
/// A path cannot be diffed (standard input, a pipe: see [`unseekable`]), a
/// directory holds no JSON file, a file cannot be read (or read again), or
/// the run's report cannot be written: a message naming the path and why.
pub fn diff_in(
    run: &mut Run<'_>,
    old: &Path,
    new: &Path,
    options: &DiffOptions,
) -> Result<Diff, Error> {
    // Both paths are looked at before either is read: a path that can be
    // read only once fails at once, not after the other build was read.
    for path in [old, new] {
        if let Some(why) = unseekable(path) {
            return Err(Error::new(why));
        }
    }
    let mut old = Side::read(run, old, options)?;
    let mut new = Side::read(run, new, options)?;
    let mut problems = old.build.problems.clone();
    problems.extend(new.build.problems.iter().cloned());
    let mut diff = Diff {
        old: old.summary(),
        new: new.summary(),
        problems,
        left_out: Vec::new(),
        sets: Vec::new(),
        drift: Vec::new(),
        references: None,
        migrations: Vec::new(),
        summary: Summary::default(),
    };
    if !diff.problems.is_empty() && options.on_invalid == OnInvalid::Fail {
        return Ok(diff);
    }
    let invalid: HashSet<String> = old
        .build
        .sets
        .iter()
        .chain(&new.build.sets)
        .filter(|set| !set.valid && options.on_invalid == OnInvalid::Skip)
        .map(|set| set.code.clone())
        .collect();
    let left_out: HashSet<&str> = invalid.iter().map(String::as_str).collect();
    old.leave_out(&left_out);
    new.leave_out(&left_out);
    diff.left_out = invalid.iter().cloned().collect();
    diff.left_out.sort();
    let mut codes: Vec<&String> = old.by_code.keys().chain(new.by_code.keys()).collect();
    codes.sort();
    codes.dedup();
    // Re-keyed printings, old (set, record) to new (set, record), for the
    // notices.
    let mut rekeyed: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
    let mut numbers_rewritten = 0;
    for code in codes {
        let none = Vec::new();
        let (olds, news) = (
            old.by_code.get(code).unwrap_or(&none),
            new.by_code.get(code).unwrap_or(&none),
        );
        for i in 0..olds.len().max(news.len()) {
            let pair = (olds.get(i).copied(), news.get(i).copied());
            let found = diff_set(
                &old,
                &new,
                pair,
                options,
                &mut rekeyed,
                &mut numbers_rewritten,
            )?;
            if let Some(set) = found {
                diff.sets.push(set);
            }
        }
    }
    diff.drift = crate::drift::compare(&old.build.tree, &new.build.tree);
    diff.migrations = migrations(&old, &new, &left_out, &rekeyed)?;
    let (broken, fixed) = crate::broken::compare(&old, &new, &left_out).unzip();
    diff.references = broken;
    diff.summary = summary(&diff);
    diff.summary.numbers_rewritten = numbers_rewritten;
    diff.summary.references_fixed = fixed;
    Ok(diff)
}

fn summary(diff: &Diff) -> Summary {
    let mut s = Summary {
        drift: diff.drift.len(),
        migrations: diff.migrations.len(),
        references_broken: diff.references.as_ref().map(Vec::len),
        ..Summary::default()
    };
    for set in &diff.sets {
        match set.change {
            Change::Added => s.sets_added += 1,
            Change::Removed => s.sets_removed += 1,
            _ => s.sets_changed += 1,
        }
        s.field_changes += set.fields.len();
        for record in &set.changes {
            match record.change {
                Change::Added => s.records_added += 1,
                Change::Removed => s.records_removed += 1,
                Change::Changed => s.records_changed += 1,
                Change::Rekeyed => s.records_rekeyed += 1,
            }
            s.records_reidentified += usize::from(record.reidentified);
            s.field_changes += record.fields.len();
        }
    }
    s
}

/// The notices for every catalog id of `old` that `new` lacks, in the old
/// build's order (the sets with codes `left_out` are in neither).
fn migrations(
    old: &Side,
    new: &Side,
    left_out: &HashSet<&str>,
    rekeyed: &HashMap<(usize, usize), (usize, usize)>,
) -> Result<Vec<crate::notices::MigrationNotice>, Error> {
    let mut in_new: HashSet<&str> = HashSet::new();
    let mut by_uuid: HashMap<&str, Option<&str>> = HashMap::new();
    let kept = |set: &&SetPrint| !left_out.contains(set.code.as_str());
    for set in new.build.sets.iter().filter(kept) {
        for record in &set.records {
            if let Some(catalog) = &record.catalog {
                in_new.insert(catalog);
            }
            by_uuid
                .entry(&record.uuid)
                .or_insert(record.catalog.as_deref());
        }
    }
    // Each vanished id once, with the evidence of its first printing that
    // still exists (or of its first one).
    let mut evidence: Vec<Evidence> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (s, set) in old.build.sets.iter().enumerate() {
        if !kept(&set) {
            continue;
        }
        for (r, record) in set.records.iter().enumerate() {
            let Some(catalog) = record.catalog.as_deref() else {
                continue;
            };
            if in_new.contains(catalog) || !cardkit::schema::format::is_uuid(catalog) {
                continue;
            }
            let fate = match (by_uuid.get(&*record.uuid), rekeyed.get(&(s, r))) {
                (Some(Some(now)), _) if cardkit::schema::format::is_uuid(now) => {
                    Fate::Reidentified {
                        new_catalog: (*now).to_owned(),
                    }
                }
                (_, Some(&(ns, nr))) => {
                    let now = &new.build.sets[ns].records[nr];
                    match now
                        .catalog
                        .as_deref()
                        .filter(|c| cardkit::schema::format::is_uuid(c))
                    {
                        Some(c) => Fate::Rekeyed {
                            old_uuid: record.uuid.to_string(),
                            new_uuid: now.uuid.to_string(),
                            new_catalog: c.to_owned(),
                        },
                        None => Fate::Gone,
                    }
                }
                _ => Fate::Gone,
            };
            match at.get(catalog) {
                Some(&i) if evidence[i].fate != Fate::Gone || fate == Fate::Gone => continue,
                _ => {}
            }
            let value = old.record(set, record)?;
            let list = &facts().lists[usize::from(record.list)];
            let found = Evidence {
                catalog: catalog.to_owned(),
                set: set.code.clone(),
                number: text(&value, list.number),
                name: text(&value, list.label),
                fate,
            };
            match at.get(catalog) {
                Some(&i) => evidence[i] = found,
                None => {
                    at.insert(catalog, evidence.len());
                    evidence.push(found);
                }
            }
        }
    }
    let date = new.build.date.as_deref();
    Ok(evidence
        .iter()
        .map(|e| notice(e, date, new.build.names))
        .collect())
}
