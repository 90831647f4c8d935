//! A diff from start to end: both builds read (each in one validating pass,
//! through a [`Run`] that reports their documents), sets matched by code,
//! records by uuid, the records whose hashes differ read again and compared,
//! re-keys matched, drift compared, notices made.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use cardkit::Options;
use cardkit_run::render::Text;
use cardkit_run::{open, Failure, Input, Run, Walk};

use crate::compare::compare;
use crate::data::{Change, Diff, FieldChange, RecordDiff, SetDiff, SideSummary, Summary};
use crate::fields::facts;
use crate::notices::{notice, Evidence, Fate};
use crate::pointer::Ignore;
use crate::read::{Build, RecordPrint, SetPrint};
use crate::value::Json;
use crate::Error;

pub use crate::data::Problem;

/// What to do with documents that are invalid or not sets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OnInvalid {
    /// Diff nothing: the diff holds only its problems.
    #[default]
    Fail,
    /// Leave them out: a set with the code of an invalid one is diffed on
    /// neither side (so it is neither added nor removed).
    Skip,
    /// Diff them as far as they parse.
    Keep,
}

/// How to diff.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// How to validate both builds (`--kind set` and the like), for
    /// [`diff`]; [`diff_in`] validates as its run does.
    pub validate: Options,
    /// Threads each build is validated on.
    pub jobs: usize,
    /// Pointers left out of the comparison (`/cards/*/purchaseUrls`).
    pub ignore: Ignore,
    /// What to do with documents that are invalid or not sets.
    pub on_invalid: OnInvalid,
    /// How a directory given is searched for the build's files (ignore
    /// files, hidden files, excluded globs), as `validate` searches it.
    pub walk: Walk,
}

/// Why an input cannot be read twice, in words, for the messages that
/// refuse it.
const READ_TWICE: &str = "diff reads each input twice (once to fingerprint its documents, then again by offset to compare the records that changed)";

/// Why `path` cannot be diffed, when it names something that can be read
/// only once: standard input (`-`), or a path that is neither a file nor a
/// directory (a pipe, such as process substitution `<(…)` gives). `None`
/// for files, directories and paths that do not exist (reading them says
/// why).
#[must_use]
pub fn unseekable(path: &Path) -> Option<String> {
    if path.as_os_str() == "-" {
        return Some(format!(
            "standard input (`-`) cannot be diffed: {READ_TWICE}, and standard input can be read only once; save it to a file and give its path"
        ));
    }
    let kind = std::fs::metadata(path).ok()?.file_type();
    (!kind.is_file() && !kind.is_dir()).then(|| {
        format!(
            "{} cannot be diffed: it is not a file (a pipe, such as process substitution `<(…)` gives, or a device), and {READ_TWICE}; save it to a file and give its path",
            Text::escape(&path.display().to_string())
        )
    })
}

/// One build, read once, then open to read records again.
struct Side {
    build: Build,
    /// The path of each of its files, by index in [`Build::files`].
    paths: Vec<PathBuf>,
    /// It is a directory: reports name a set's file.
    directory: bool,
    /// The file last read again, kept open: records are read again set by
    /// set, and a directory may hold more files than may be open at once.
    open: RefCell<Option<(usize, File)>>,
    /// The position of each set by code, in build order.
    by_code: BTreeMap<String, Vec<usize>>,
}

impl Side {
    /// Reads the build at `path` (a file, or every JSON file of a
    /// directory) through `run`, which reports its documents.
    fn read(run: &mut Run<'_>, path: &Path, options: &DiffOptions) -> Result<Side, Error> {
        if let Some(why) = unseekable(path) {
            return Err(Error::new(why));
        }
        let found = options.walk.discover(&[path]);
        if let Some(empty) = found.empty.first() {
            return Err(Error::new(format!(
                "{}: holds no *.json, *.jsonl or *.ndjson file",
                empty.display()
            )));
        }
        let mut build = Build::new(&path.display().to_string());
        build.hold_trees = options.on_invalid == OnInvalid::Skip;
        let mut paths = Vec::new();
        for input in found.inputs {
            let file = match &input {
                Input::File(file) | Input::Found(file) => file.clone(),
                // `discover` gives standard input for `-` only, refused
                // above.
                Input::Stdin => {
                    return Err(Error::new(unseekable(Path::new("-")).unwrap_or_default()))
                }
                Input::ZipMember(member) => {
                    return Err(Error::new(format!(
                        "{} cannot be diffed: it is a member of a zip archive, and {READ_TWICE}; extract the archive and give the directory",
                        Text::escape(&member.name())
                    )))
                }
                Input::Unreadable { name, reason } => {
                    return Err(Error::new(format!("{name}: cannot be read: {reason}")))
                }
            };
            let opened = open(input).map_err(|unopened| {
                Error::new(format!(
                    "{}: cannot be read: {}",
                    unopened.name, unopened.reason
                ))
            })?;
            if let Some((format, _)) = &opened.compressed {
                return Err(Error::new(format!(
                    "{} cannot be diffed: it is {format}-compressed, and {READ_TWICE}; decompress it first and give the decompressed file",
                    Text::escape(&opened.name)
                )));
            }
            // A build read in part cannot be diffed: the run is aborted,
            // and the diff fails with why.
            let mut failed = None;
            let files_before = build.files.len();
            run.input(opened, &mut |name, reader, validate, on_document| {
                build
                    .read(
                        name,
                        reader,
                        validate,
                        options.jobs,
                        &options.ignore,
                        on_document,
                    )
                    .map_err(|error| {
                        let why = format!("{name}: cannot be read: {error}");
                        failed = Some(why.clone());
                        Failure::Abort(why)
                    })
            })
            .map_err(|error| Error::new(format!("the report cannot be written: {error}")))?;
            if let Some(why) = failed {
                return Err(Error::new(why));
            }
            // A file found that is no card document is skipped by the run,
            // unread: the paths go with the build's files, index for index.
            if build.files.len() > files_before {
                paths.push(file);
            }
        }
        let mut by_code: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, set) in build.sets.iter().enumerate() {
            by_code.entry(set.code.clone()).or_default().push(i);
        }
        Ok(Side {
            build,
            paths,
            directory: path.is_dir(),
            open: RefCell::new(None),
            by_code,
        })
    }

    /// The bytes at `offset` (`len` of them) of file `file`, read again.
    fn bytes(&self, file: usize, offset: u64, len: u64) -> Result<Vec<u8>, Error> {
        let name = self.build.files.get(file).map_or("", String::as_str);
        let again = |e: io::Error| {
            Error::new(format!(
                "{name}: cannot be read again at byte {offset} (did it change while being diffed?): {e}"
            ))
        };
        let mut open = self.open.borrow_mut();
        if open.as_ref().is_none_or(|(at, _)| *at != file) {
            let path = self.paths.get(file).ok_or_else(|| {
                again(io::Error::new(
                    io::ErrorKind::NotFound,
                    "no such file in the build",
                ))
            })?;
            *open = Some((file, File::open(path).map_err(again)?));
        }
        let mut out = vec![0; usize::try_from(len).unwrap_or(usize::MAX)];
        if let Some((_, f)) = open.as_mut() {
            f.seek(SeekFrom::Start(offset))
                .and_then(|_| f.read_exact(&mut out))
                .map_err(again)?;
        }
        Ok(out)
    }

    /// A record of `set`, read again as a value.
    fn record(&self, set: &SetPrint, record: &RecordPrint) -> Result<Json, Error> {
        let bytes = self.bytes(set.file, record.offset, u64::from(record.len))?;
        parse(&bytes, &self.build.files[set.file], record.offset)
    }

    /// A set's members other than its records, read again.
    fn set_members(&self, set: &SetPrint) -> Result<Json, Error> {
        let bytes = self.bytes(set.file, set.offset, set.len)?;
        let mut value = parse(&bytes, &self.build.files[set.file], set.offset)?;
        if let Json::Object(members) = &mut value {
            for list in &facts().lists {
                members.remove(list.name);
            }
        }
        Ok(value)
    }

    /// The file of a set, when the side is a directory (a file's name is
    /// the side's).
    fn file_of(&self, set: &SetPrint) -> Option<String> {
        self.directory.then(|| self.build.files[set.file].clone())
    }

    /// Leaves the sets with these codes out of the diff: they are matched
    /// with nothing, and their fields are not summed up.
    fn leave_out(&mut self, codes: &HashSet<&str>) {
        self.by_code
            .retain(|code, _| !codes.contains(code.as_str()));
        self.build.merge_trees(codes);
    }

    fn summary(&self) -> SideSummary {
        SideSummary {
            path: self.build.path.clone(),
            documents: self.build.documents,
            sets: self.build.sets.len(),
            records: self.build.records(),
            date: self.build.date.clone(),
            bytes: self.build.bytes,
        }
    }
}

fn parse(bytes: &[u8], path: &str, offset: u64) -> Result<Json, Error> {
    Json::parse(bytes).map_err(|e| {
        Error::new(format!(
            "{path}: the value at byte {offset} cannot be read again: {e} (did the file change while being diffed?)"
        ))
    })
}

/// The text of a record's member (by wire name, when its model has it),
/// when a string.
fn text(value: &Json, member: Option<&str>) -> Option<String> {
    value.get(member?).and_then(Json::as_str).map(str::to_owned)
}

/// What a diff found of one record, before it is reported.
struct Found<'a> {
    change: Change,
    old: Option<&'a RecordPrint>,
    new: Option<&'a RecordPrint>,
}

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
    diff.summary = summary(&diff);
    diff.summary.numbers_rewritten = numbers_rewritten;
    Ok(diff)
}

fn summary(diff: &Diff) -> Summary {
    let mut s = Summary {
        drift: diff.drift.len(),
        migrations: diff.migrations.len(),
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

/// The diff of one set (old and new by index), `None` when unchanged; the
/// numbers it has written another way are added to `numbers_rewritten`.
fn diff_set(
    old: &Side,
    new: &Side,
    (o, n): (Option<usize>, Option<usize>),
    options: &DiffOptions,
    rekeyed: &mut HashMap<(usize, usize), (usize, usize)>,
    numbers_rewritten: &mut usize,
) -> Result<Option<SetDiff>, Error> {
    let (os, ns) = (o.map(|o| &old.build.sets[o]), n.map(|n| &new.build.sets[n]));
    let (Some(os), Some(ns)) = (os, ns) else {
        let (set, change) = match (os, ns) {
            (Some(set), None) => (set, Change::Removed),
            (None, Some(set)) => (set, Change::Added),
            _ => return Ok(None),
        };
        let (old_file, new_file) = match change {
            Change::Removed => (old.file_of(set), None),
            _ => (None, new.file_of(set)),
        };
        return Ok(Some(SetDiff {
            code: set.code.clone(),
            change,
            old_file,
            new_file,
            old_pointer: (change == Change::Removed).then(|| set.pointer.clone()),
            new_pointer: (change == Change::Added).then(|| set.pointer.clone()),
            records: set.records.len(),
            fields: Vec::new(),
            changes: Vec::new(),
        }));
    };
    let (o, n) = (o.unwrap_or_default(), n.unwrap_or_default());
    let mut fields = Vec::new();
    let same_members = os.members.len() == ns.members.len() && {
        let mut a = os.members.clone();
        let mut b = ns.members.clone();
        a.sort();
        b.sort();
        a == b
    };
    if !same_members {
        let compared = compare(
            &old.set_members(os)?,
            &new.set_members(ns)?,
            &[],
            &options.ignore,
        );
        fields = compared.changes;
        *numbers_rewritten += compared.numbers_rewritten;
    }
    // Records by (list, uuid, occurrence).
    let before = keyed(&os.records);
    let after = keyed(&ns.records);
    let mut found: Vec<Found<'_>> = Vec::new();
    let mut added = Vec::new();
    // Each added and removed record's index in its set: re-keyed pairs are
    // recorded by index without looking for them again.
    let mut added_at = Vec::new();
    let mut kept: HashSet<usize> = HashSet::new();
    let mut order: Vec<(&(u8, &str, u32), &usize)> = after.iter().collect();
    order.sort_by_key(|(_, &i)| i);
    for (k, &i) in order {
        let record = &ns.records[i];
        match before.get(k) {
            Some(&j) => {
                kept.insert(j);
                if os.records[j].hash != record.hash {
                    found.push(Found {
                        change: Change::Changed,
                        old: Some(&os.records[j]),
                        new: Some(record),
                    });
                }
            }
            None => {
                added.push(record);
                added_at.push(i);
            }
        }
    }
    let (removed_at, removed): (Vec<usize>, Vec<&RecordPrint>) = os
        .records
        .iter()
        .enumerate()
        .filter(|(j, _)| !kept.contains(j))
        .unzip();
    let pairs = crate::rekey::pairs(&removed, &added);
    let (mut paired_old, mut paired_new) = (HashSet::new(), HashSet::new());
    for &(r, a) in &pairs {
        paired_old.insert(r);
        paired_new.insert(a);
        found.push(Found {
            change: Change::Rekeyed,
            old: Some(removed[r]),
            new: Some(added[a]),
        });
        rekeyed.insert((o, removed_at[r]), (n, added_at[a]));
    }
    for (a, record) in added.iter().enumerate() {
        if !paired_new.contains(&a) {
            found.push(Found {
                change: Change::Added,
                old: None,
                new: Some(record),
            });
        }
    }
    for (r, record) in removed.iter().enumerate() {
        if !paired_old.contains(&r) {
            found.push(Found {
                change: Change::Removed,
                old: Some(record),
                new: None,
            });
        }
    }
    let mut changes = Vec::new();
    for f in found {
        if let Some(record) = report(old, new, os, ns, &f, &options.ignore, numbers_rewritten)? {
            changes.push(record);
        }
    }
    // List order, then the new build's order (the old one's for removed
    // records).
    changes.sort_by_key(|r: &RecordDiff| {
        let print = |p: &Option<String>| p.clone().unwrap_or_default();
        (
            facts().lists.iter().position(|l| l.name == r.list),
            r.change == Change::Removed,
            index_of(&print(&r.new_pointer).max(print(&r.old_pointer))),
        )
    });
    if fields.is_empty() && changes.is_empty() {
        return Ok(None);
    }
    Ok(Some(SetDiff {
        code: ns.code.clone(),
        change: Change::Changed,
        old_file: old.file_of(os),
        new_file: new.file_of(ns),
        old_pointer: Some(os.pointer.clone()),
        new_pointer: Some(ns.pointer.clone()),
        records: ns.records.len(),
        fields,
        changes,
    }))
}

/// Records by (list, uuid, occurrence of that uuid), to their index.
fn keyed(records: &[RecordPrint]) -> HashMap<(u8, &str, u32), usize> {
    let mut seen: HashMap<(u8, &str), u32> = HashMap::new();
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let nth = seen.entry((r.list, &r.uuid)).or_default();
            *nth += 1;
            ((r.list, &*r.uuid, *nth), i)
        })
        .collect()
}

/// The index at the end of a record's pointer.
fn index_of(pointer: &str) -> u64 {
    pointer
        .rsplit('/')
        .next()
        .and_then(|i| i.parse().ok())
        .unwrap_or(u64::MAX)
}

fn record_pointer(set: &SetPrint, record: &RecordPrint) -> String {
    format!(
        "{}/{}/{}",
        set.pointer,
        facts().lists[usize::from(record.list)].name,
        record.index
    )
}

/// The report of one record, read again; `None` when it is unchanged after
/// all (its hash differed for what the comparison leaves out, or for
/// numbers written another way, which are added to `numbers_rewritten`).
fn report(
    old: &Side,
    new: &Side,
    os: &SetPrint,
    ns: &SetPrint,
    found: &Found<'_>,
    ignore: &Ignore,
    numbers_rewritten: &mut usize,
) -> Result<Option<RecordDiff>, Error> {
    let before = found.old.map(|r| old.record(os, r)).transpose()?;
    let after = found.new.map(|r| new.record(ns, r)).transpose()?;
    let some = found.new.or(found.old).map_or(0, |r| r.list);
    let list = &facts().lists[usize::from(some)];
    let mut fields = match (&before, &after) {
        (Some(a), Some(b)) => {
            let compared = compare(a, b, &[list.name, "*"], ignore);
            *numbers_rewritten += compared.numbers_rewritten;
            compared.changes
        }
        _ => Vec::new(),
    };
    if found.change == Change::Rekeyed {
        fields.retain(|f| f.pointer != format!("/{}", facts().key));
    } else if found.change == Change::Changed && fields.is_empty() {
        return Ok(None);
    }
    let identifiers = format!("/{}", facts().identifiers_name);
    let reidentified = fields.iter().any(|f: &FieldChange| {
        f.pointer == identifiers || f.pointer.starts_with(&format!("{identifiers}/"))
    });
    let label = after.as_ref().or(before.as_ref());
    let uuid = found
        .new
        .or(found.old)
        .map(|r| r.uuid.to_string())
        .unwrap_or_default();
    Ok(Some(RecordDiff {
        list: list.name,
        change: found.change,
        uuid,
        old_uuid: (found.change == Change::Rekeyed)
            .then(|| found.old.map(|r| r.uuid.to_string()))
            .flatten(),
        number: label.and_then(|v| text(v, list.number)),
        name: label.and_then(|v| text(v, list.label)),
        old_pointer: found.old.map(|r| record_pointer(os, r)),
        new_pointer: found.new.map(|r| record_pointer(ns, r)),
        reidentified,
        fields,
    }))
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
