//! Which inputs the paths given name: files and `-` as given, directories
//! searched recursively for JSON files (compressed or not) as a linter
//! searches a project, zip archives expanded into their JSON members.
//!
//! A directory is searched as ripgrep searches it: what `.gitignore`,
//! `.ignore`, `.git/info/exclude` and git's global excludes ignore is left
//! out (in a git repository or not), and so are hidden files and folders
//! (`.venv/`), unless [`Walk::ignore_files`] is off (`--no-ignore`). What
//! [`Walk::exclude`] matches is left out too (`node_modules/` by default).
//! A path named is never left out.

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::archive::{is_zip, member_name, members, ZipMember};

/// One input to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file named, or a path given that is not a directory (it may not
    /// exist: opening it says why). It is always checked.
    File(PathBuf),
    /// A file found in a directory searched. It is checked only when its
    /// first document's kind can be told: a `package.json` beside the sets
    /// is no card document, and is skipped (and counted).
    Found(PathBuf),
    /// A JSON member of a zip archive, named `archive.zip!member.json`;
    /// found, not named, as [`Input::Found`] is.
    ZipMember(ZipMember),
    /// A path inside a directory that could not be listed or followed.
    Unreadable {
        /// The path, as it will be named.
        name: String,
        /// Why, in words.
        reason: String,
    },
}

/// File endings searched for in directories, in any case.
pub const ENDINGS: [&str; 3] = ["json", "jsonl", "ndjson"];

/// Endings of compressed files searched for in directories after one of
/// [`ENDINGS`] (`cards.jsonl.gz`), in any case. Files given by path are
/// decoded by their first bytes, whatever their names.
pub const COMPRESSED_ENDINGS: [&str; 5] = ["gz", "zst", "zstd", "xz", "bz2"];

/// The ending of zip archives searched for in directories; each member whose
/// name has one of [`ENDINGS`] (compressed or not) is an input.
pub const ZIP_ENDING: &str = "zip";

/// The inputs the paths given name.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// Every input, in order.
    pub inputs: Vec<Input>,
    /// The directories given, and the zip archives, that hold no JSON file
    /// (and nothing unreadable) that is not ignored or excluded.
    pub empty: Vec<PathBuf>,
}

/// Folders and files left out of every directory searched unless a
/// configuration's `exclude` replaces the list: version control's, tools'
/// caches, virtual environments, packages installed and build outputs
/// (modelled on ruff's). Matched as `.gitignore` patterns.
pub const DEFAULT_EXCLUDE: [&str; 22] = [
    ".bzr",
    ".direnv",
    ".git",
    ".git-rewrite",
    ".hg",
    ".idea",
    ".mypy_cache",
    ".nox",
    ".pytest_cache",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
];

/// Globs of paths left out of directories searched, each list matched as a
/// `.gitignore` is: relative to its folder (a configuration's, or the
/// working directory for the command line's), a glob without a `/` at any
/// depth, one ending in `/` only folders, a `!` taking a path back.
#[derive(Debug, Clone, Default)]
pub struct Exclude {
    lists: Vec<Gitignore>,
}

impl Exclude {
    /// Excludes nothing.
    #[must_use]
    pub fn none() -> Self {
        Exclude::default()
    }

    /// Excludes [`DEFAULT_EXCLUDE`].
    #[must_use]
    pub fn defaults() -> Self {
        let mut exclude = Exclude::none();
        // The defaults hold no glob that can be refused.
        let _ = exclude.add(Path::new("."), &DEFAULT_EXCLUDE);
        exclude
    }

    /// Adds `globs`, relative to the folder `root`.
    ///
    /// # Errors
    /// A glob cannot be read as a `.gitignore` pattern: which, and why.
    pub fn add(&mut self, root: &Path, globs: &[impl AsRef<str>]) -> Result<(), String> {
        let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        let mut builder = GitignoreBuilder::new(&root);
        for glob in globs {
            let glob = glob.as_ref();
            check_glob(glob)?;
            builder
                .add_line(None, glob)
                .map_err(|error| glob_error(glob, &error))?;
        }
        let list = builder.build().map_err(|error| error.to_string())?;
        if !list.is_empty() {
            self.lists.push(list);
        }
        Ok(())
    }

    /// Whether `path` (a folder when `is_dir`) is excluded: a list matches
    /// it and does not take it back.
    #[must_use]
    pub fn excludes(&self, path: &Path, is_dir: bool) -> bool {
        if self.lists.is_empty() {
            return false;
        }
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.lists
            .iter()
            .any(|list| list.matched(&absolute, is_dir).is_ignore())
    }
}

/// Whether `glob` can be read as a `.gitignore` pattern.
///
/// # Errors
/// Why not, naming it.
pub fn check_glob(glob: &str) -> Result<(), String> {
    if glob.trim().is_empty() || glob.starts_with('#') {
        return Err(format!(
            "`{glob}` is no glob: an empty line or a comment in a .gitignore"
        ));
    }
    GitignoreBuilder::new(".")
        .add_line(None, glob)
        .map(|_| ())
        .map_err(|error| glob_error(glob, &error))
}

/// A glob refused, in words.
fn glob_error(glob: &str, error: &ignore::Error) -> String {
    let why = match error {
        ignore::Error::Glob { err, .. } => err.clone(),
        other => other.to_string(),
    };
    format!("`{glob}` is no glob: {why}")
}

/// How directories are searched.
#[derive(Debug, Clone)]
pub struct Walk {
    /// `.gitignore`, `.ignore`, `.git/info/exclude` and git's global
    /// excludes are honoured, and hidden files and folders skipped (off:
    /// `--no-ignore`).
    pub ignore_files: bool,
    /// What is left out besides.
    pub exclude: Exclude,
    /// Files named are judged as files found are: one whose kind cannot be
    /// told is skipped instead of reported (`--skip-unknown-kind`, for
    /// hooks that name every JSON file changed).
    pub skip_named_unknown_kind: bool,
}

impl Default for Walk {
    /// As ripgrep searches, leaving out [`DEFAULT_EXCLUDE`].
    fn default() -> Self {
        Walk {
            ignore_files: true,
            exclude: Exclude::defaults(),
            skip_named_unknown_kind: false,
        }
    }
}

/// The inputs `paths` name, directories searched as [`Walk::default`]
/// does: see [`Walk::discover`].
pub fn discover(paths: &[impl AsRef<Path>]) -> Discovered {
    Walk::default().discover(paths)
}

impl Walk {
    /// Expands directories (recursively, in name order, following symbolic
    /// links) into their files ending in one of [`ENDINGS`], alone or
    /// followed by one of [`COMPRESSED_ENDINGS`], and their zip archives
    /// ([`ZIP_ENDING`]), leaving out what is ignored, hidden or excluded;
    /// files and `-` are taken as given. A zip archive (a file given whose
    /// first bytes are a zip's, or one found in a directory) is expanded
    /// into its members with those endings, in name order. A link that
    /// leads back to a directory it is in, or that cannot be followed, is
    /// an [`Input::Unreadable`], and so is an archive whose directory
    /// cannot be read, or a member that cannot be.
    pub fn discover(&self, paths: &[impl AsRef<Path>]) -> Discovered {
        let mut found = Discovered::default();
        for path in paths {
            let path = path.as_ref();
            if path.as_os_str() == "-" {
                found.inputs.push(Input::Stdin);
                continue;
            }
            if !path.is_dir() {
                if is_zip(path) {
                    expand(path, &mut found);
                } else if self.skip_named_unknown_kind {
                    found.inputs.push(Input::Found(path.to_path_buf()));
                } else {
                    found.inputs.push(Input::File(path.to_path_buf()));
                }
                continue;
            }
            let before = (found.inputs.len(), found.empty.len());
            self.directory(path, &mut found);
            if (found.inputs.len(), found.empty.len()) == before {
                found.empty.push(path.to_path_buf());
            }
        }
        found
    }

    /// Adds what the directory `path` holds.
    fn directory(&self, path: &Path, found: &mut Discovered) {
        let exclude = self.exclude.clone();
        let walk = ignore::WalkBuilder::new(path)
            .standard_filters(self.ignore_files)
            // `.gitignore` counts outside a git repository too: a folder of
            // card data copied out of one, or not yet made one.
            .require_git(false)
            .follow_links(true)
            .sort_by_file_name(Ord::cmp)
            // The directory named is never left out (the walk does not ask
            // of it), only what is in it.
            .filter_entry(move |entry| {
                let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
                !exclude.excludes(entry.path(), is_dir)
            })
            .build();
        for entry in walk {
            match entry {
                Ok(entry) if entry.file_type().is_some_and(|kind| kind.is_file()) => {
                    let name = entry.file_name().to_string_lossy();
                    if has_input_ending(&name) {
                        found.inputs.push(Input::Found(entry.into_path()));
                    } else if ends_with(&name, ZIP_ENDING) && is_zip(entry.path()) {
                        expand(entry.path(), found);
                    }
                }
                Ok(_) => {}
                Err(error) => {
                    let (at, reason) = unreadable(&error);
                    found.inputs.push(Input::Unreadable {
                        name: at.unwrap_or(path).display().to_string(),
                        reason,
                    });
                }
            }
        }
    }
}

/// Where a directory's entry could not be listed or followed, and why, in
/// words.
fn unreadable(error: &ignore::Error) -> (Option<&Path>, String) {
    let mut at = None;
    let mut error = error;
    loop {
        match error {
            ignore::Error::WithPath { path, err } => {
                at = Some(path.as_path());
                error = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                error = err;
            }
            ignore::Error::Loop { ancestor, child } => {
                return (
                    Some(child.as_path()),
                    format!(
                        "symbolic link loop: it leads back to {}, a directory it is in",
                        ancestor.display()
                    ),
                );
            }
            ignore::Error::Io(io) => {
                // The error of the directory walk inside, whose own words
                // would name the path a second time.
                let why = std::error::Error::source(io.get_ref().unwrap_or(io))
                    .map_or_else(|| io.to_string(), ToString::to_string);
                let link = at
                    .filter(|path| path.is_symlink())
                    .and_then(|path| std::fs::read_link(path).ok());
                let reason = match link {
                    Some(target) => format!(
                        "symbolic link to {} that cannot be followed: {why}",
                        target.display()
                    ),
                    None => why,
                };
                return (at, reason);
            }
            other => return (at, other.to_string()),
        }
    }
}

/// Adds the members of the zip archive at `path`.
fn expand(path: &Path, found: &mut Discovered) {
    match members(path, has_input_ending) {
        Ok(listed) if listed.is_empty() => found.empty.push(path.to_path_buf()),
        Ok(listed) => found
            .inputs
            .extend(listed.into_iter().map(|(name, member)| match member {
                Ok(member) => Input::ZipMember(member),
                Err(reason) => Input::Unreadable {
                    name: member_name(path, &name),
                    reason,
                },
            })),
        Err(reason) => found.inputs.push(Input::Unreadable {
            name: path.display().to_string(),
            reason,
        }),
    }
}

/// Whether a file's name ends in one of [`ENDINGS`], alone or followed by
/// one of [`COMPRESSED_ENDINGS`].
fn has_input_ending(name: &str) -> bool {
    let name = COMPRESSED_ENDINGS
        .iter()
        .find_map(|ending| strip_ending(name, ending))
        .unwrap_or(name);
    ENDINGS.iter().any(|ending| ends_with(name, ending))
}

/// Whether `name` ends in `.ending`, in any case.
fn ends_with(name: &str, ending: &str) -> bool {
    strip_ending(name, ending).is_some_and(|stem| !stem.is_empty())
}

/// `name` without its `.ending` (in any case), if it has it.
fn strip_ending<'a>(name: &'a str, ending: &str) -> Option<&'a str> {
    let dot = name.len().checked_sub(ending.len() + 1)?;
    let tail = name.get(dot..)?;
    (tail.starts_with('.') && tail[1..].eq_ignore_ascii_case(ending)).then(|| &name[..dot])
}
