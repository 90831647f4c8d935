//! One build of a diff ([`Side`]): read once through the run, its sets by
//! code, then open to read records again by offset; and the inputs that
//! cannot be read twice ([`unseekable`]).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use cardkit::report::Layout;
use cardkit::{DocumentReport, Options};
use cardkit_run::render::Text;
use cardkit_run::{open, Failure, Input, Run, Walk};

use crate::data::SideSummary;
use crate::fields::facts;
use crate::options::{DiffOptions, OnInvalid};
use crate::print::{RecordPrint, SetPrint};
use crate::read::Build;
use crate::references::Found;
use crate::value::Json;
use crate::Error;

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
pub(crate) struct Side {
    pub(crate) build: Build,
    /// The path of each of its files, by index in [`Build::files`].
    pub(crate) paths: Vec<PathBuf>,
    /// It is a directory: reports name a set's file.
    pub(crate) directory: bool,
    /// The file last read again, kept open: records are read again set by
    /// set, and a directory may hold more files than may be open at once.
    pub(crate) open: RefCell<Option<(usize, File)>>,
    /// The position of each set by code, in build order.
    pub(crate) by_code: BTreeMap<String, Vec<usize>>,
    /// What its references came to, when they were read.
    pub(crate) references: Option<Vec<Found>>,
}

impl Side {
    /// Reads the build at `path` (a file, or every JSON file of a
    /// directory) through `run`, which reports its documents.
    pub(crate) fn read(
        run: &mut Run<'_>,
        path: &Path,
        options: &DiffOptions,
    ) -> Result<Side, Error> {
        let mut build = Build::new(&path.display().to_string());
        if options.references {
            build = build.reading_references();
        }
        build.hold_trees = options.on_invalid == OnInvalid::Skip;
        let paths = each_file(
            run,
            path,
            &options.walk,
            true,
            &mut |name, reader, validate, on_document| {
                build.read(
                    name,
                    reader,
                    validate,
                    options.jobs,
                    &options.ignore,
                    on_document,
                )
            },
        )?;
        let mut by_code: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, set) in build.sets.iter().enumerate() {
            by_code.entry(set.code.clone()).or_default().push(i);
        }
        // Settled now, so that the old build's references are let go
        // before the new build is read.
        let references = build
            .references
            .take()
            .map(|reading| reading.finish(&build.sets));
        Ok(Side {
            build,
            references,
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
    pub(crate) fn record(&self, set: &SetPrint, record: &RecordPrint) -> Result<Json, Error> {
        let bytes = self.bytes(set.file, record.offset, u64::from(record.len))?;
        parse(&bytes, &self.build.files[set.file], record.offset)
    }

    /// A set's members other than its records, read again.
    pub(crate) fn set_members(&self, set: &SetPrint) -> Result<Json, Error> {
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
    pub(crate) fn file_of(&self, set: &SetPrint) -> Option<String> {
        self.directory.then(|| self.build.files[set.file].clone())
    }

    /// Leaves the sets with these codes out of the diff: they are matched
    /// with nothing, and their fields are not summed up.
    pub(crate) fn leave_out(&mut self, codes: &HashSet<&str>) {
        self.by_code
            .retain(|code, _| !codes.contains(code.as_str()));
        self.build.merge_trees(codes);
    }

    pub(crate) fn summary(&self) -> SideSummary {
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

/// Reads one file of a build: its name, its text, how to validate it, and
/// where each document's report goes.
pub(crate) type ReadFile<'r> = dyn FnMut(&str, &mut dyn Read, &Options, &mut dyn FnMut(&DocumentReport)) -> io::Result<Layout>
    + 'r;

/// Hands each file of the build at `path` (a file, or every JSON file of a
/// directory, found as `walk` finds them, as `validate` finds its inputs)
/// to `run`, which validates it through `read` and reports its documents:
/// the paths of the files read, in order (a file that is no card document
/// is skipped by the run, unread). With `twice`, inputs that cannot be read
/// again (standard input, pipes, compressed files, zip archives' members)
/// are refused; without, they are read as `validate` reads them.
///
/// # Errors
/// A directory holds no JSON file, an input is refused or cannot be read
/// (the run is aborted there), or the run's report cannot be written.
pub(crate) fn each_file(
    run: &mut Run<'_>,
    path: &Path,
    walk: &Walk,
    twice: bool,
    read: &mut ReadFile<'_>,
) -> Result<Vec<PathBuf>, Error> {
    if twice {
        if let Some(why) = unseekable(path) {
            return Err(Error::new(why));
        }
    }
    let found = walk.discover(&[path]);
    if let Some(empty) = found.empty.first() {
        return Err(Error::new(format!(
            "{}: holds no *.json, *.jsonl or *.ndjson file",
            empty.display()
        )));
    }
    let mut paths = Vec::new();
    for input in found.inputs {
        let file = match &input {
            Input::File(file) | Input::Found(file) => file.clone(),
            Input::Unreadable { name, reason } => {
                return Err(Error::new(format!("{name}: cannot be read: {reason}")))
            }
            // `discover` gives standard input for `-` only, refused above
            // when the build is read twice.
            Input::Stdin if twice => {
                return Err(Error::new(unseekable(Path::new("-")).unwrap_or_default()))
            }
            Input::ZipMember(member) if twice => {
                return Err(Error::new(format!(
                    "{} cannot be diffed: it is a member of a zip archive, and {READ_TWICE}; extract the archive and give the directory",
                    Text::escape(&member.name())
                )))
            }
            Input::Stdin | Input::ZipMember(_) => PathBuf::new(),
        };
        let opened = open(input).map_err(|unopened| {
            Error::new(format!(
                "{}: cannot be read: {}",
                unopened.name, unopened.reason
            ))
        })?;
        if let (Some((format, _)), true) = (&opened.compressed, twice) {
            return Err(Error::new(format!(
                "{} cannot be diffed: it is {format}-compressed, and {READ_TWICE}; decompress it first and give the decompressed file",
                Text::escape(&opened.name)
            )));
        }
        // A build read in part cannot be used: the run is aborted, and the
        // caller fails with why.
        let mut failed = None;
        let mut called = false;
        run.input(opened, &mut |name, reader, validate, on_document| {
            called = true;
            read(name, reader, validate, on_document).map_err(|error| {
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
        // unread: the paths go with the files read, index for index.
        if called {
            paths.push(file);
        }
    }
    Ok(paths)
}

fn parse(bytes: &[u8], path: &str, offset: u64) -> Result<Json, Error> {
    Json::parse(bytes).map_err(|e| {
        Error::new(format!(
            "{path}: the value at byte {offset} cannot be read again: {e} (did the file change while being diffed?)"
        ))
    })
}
