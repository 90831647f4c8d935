//! Which of the catalog ids that notices name a build holds: the build read
//! as `diff` reads it (its files found and validated through a run that
//! reports its documents), each set's records looked at for their catalog
//! id (`identifiers.catalogAId`, the id `diff --emit-migrations` writes
//! notices about) and only the ids asked for kept, as a flag each.

use std::collections::HashMap;
use std::path::Path;

use cardkit::validate::{Found, Validated, Validator};
use cardkit::Kind;
use cardkit_run::{OnInvalid, Run, Walk};

use crate::data::Problem;
use crate::fields::facts_for;
use crate::keys::catalog_ids;
use crate::read::invalid;
use crate::side::each_file;
use crate::Error;

/// The ids asked about, in lower case, each with its index.
#[derive(Debug, Default)]
pub(crate) struct Wanted {
    by_id: HashMap<Box<str>, u32>,
}

impl Wanted {
    /// The index of `id` (`id` in lower case), added when new.
    pub(crate) fn add(&mut self, id: &str) -> u32 {
        let next = u32::try_from(self.by_id.len()).unwrap_or(u32::MAX);
        *self.by_id.entry(id.into()).or_insert(next)
    }

    /// The index of `id` (any case), if it is asked about.
    pub(crate) fn get(&self, id: &str) -> Option<u32> {
        if id.bytes().any(|b| b.is_ascii_uppercase()) {
            self.by_id.get(id.to_ascii_lowercase().as_str()).copied()
        } else {
            self.by_id.get(id).copied()
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.by_id.len()
    }
}

/// What a build holds of the ids asked about.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// By index of [`Wanted`]: a set of the build has a record with it.
    pub(crate) present: Vec<bool>,
    /// Files read.
    pub(crate) files: usize,
    /// Documents read.
    pub(crate) documents: usize,
    /// Sets read.
    pub(crate) sets: usize,
    /// Documents that are invalid or not sets.
    pub(crate) problems: Vec<Problem>,
}

/// Reads the build at `path` (a file, or every JSON file of a directory)
/// through `run`, on `jobs` threads: which of `wanted` it holds. The ids of
/// an invalid set count with [`OnInvalid::Keep`] only.
pub(crate) fn read_build(
    run: &mut Run<'_>,
    path: &Path,
    walk: &Walk,
    jobs: usize,
    on_invalid: OnInvalid,
    wanted: &Wanted,
) -> Result<Seen, Error> {
    let mut seen = Seen {
        present: vec![false; wanted.len()],
        ..Seen::default()
    };
    let paths = each_file(
        run,
        path,
        walk,
        false,
        &mut |name, reader, options, on_document| {
            let extract = |found: Found<'_>| -> Result<Vec<u32>, String> {
                if found.report.kind != Some(Kind::Set) {
                    return Err(match found.report.kind {
                        Some(kind) => format!("a {} document, not a set", kind.as_str()),
                        None => "its kind cannot be told".to_owned(),
                    });
                }
                let facts = facts_for(found.report.names);
                catalog_ids(found.bytes, facts, &|id| wanted.get(id))
            };
            let validator = Validator::new(*options).jobs(jobs.max(1));
            validator.extracting(extract).reader(reader, |item| {
                let Validated::Document(report, extracted) = item else {
                    return;
                };
                on_document(&report);
                let valid = report.is_valid();
                seen.documents += usize::from(report.kind.is_some());
                let problem = |message: String, read: bool| Problem {
                    path: name.to_owned(),
                    at: report.at(),
                    message,
                    read,
                    invalid: !valid,
                };
                match extracted {
                    Some(Ok(ids)) => {
                        seen.sets += 1;
                        if !valid {
                            seen.problems.push(problem(invalid(&report), true));
                        }
                        if valid || on_invalid == OnInvalid::Keep {
                            for id in ids {
                                seen.present[id as usize] = true;
                            }
                        }
                    }
                    Some(Err(why)) => seen.problems.push(problem(why, false)),
                    None if !valid => seen.problems.push(problem(invalid(&report), false)),
                    None => {}
                }
            })
        },
    )?;
    seen.files = paths.len();
    Ok(seen)
}
