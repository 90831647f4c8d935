//! Which inputs the paths given name: files and `-` as given, directories
//! searched recursively for JSON files (compressed or not), zip archives
//! expanded into their JSON members.

use std::path::{Path, PathBuf};

use super::archive::{is_zip, member_name, members, ZipMember};

/// One input to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file, or a path given that is not a directory (it may not exist:
    /// opening it says why).
    File(PathBuf),
    /// A JSON member of a zip archive, named `archive.zip!member.json`.
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
    /// (and nothing unreadable).
    pub empty: Vec<PathBuf>,
}

/// Expands directories (recursively, in name order, following symbolic
/// links) into their files ending in one of [`ENDINGS`], alone or followed
/// by one of [`COMPRESSED_ENDINGS`], and their zip archives ([`ZIP_ENDING`]);
/// files and `-` are taken as given. A zip archive (a file given whose first
/// bytes are a zip's, or one found in a directory) is expanded into its
/// members with those endings, in name order. A link that leads back to a
/// directory it is in, or that cannot be followed, is an
/// [`Input::Unreadable`], and so is an archive whose directory cannot be
/// read, or a member that cannot be.
pub fn discover(paths: &[impl AsRef<Path>]) -> Discovered {
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
            } else {
                found.inputs.push(Input::File(path.to_path_buf()));
            }
            continue;
        }
        let before = (found.inputs.len(), found.empty.len());
        let walk = walkdir::WalkDir::new(path)
            .follow_links(true)
            .sort_by_file_name();
        for entry in walk {
            match entry {
                Ok(entry) if entry.file_type().is_file() => {
                    let name = entry.file_name().to_string_lossy();
                    if has_input_ending(&name) {
                        found.inputs.push(Input::File(entry.into_path()));
                    } else if ends_with(&name, ZIP_ENDING) && is_zip(entry.path()) {
                        expand(entry.path(), &mut found);
                    }
                }
                Ok(_) => {}
                Err(error) => {
                    let at = error.path().unwrap_or(path);
                    found.inputs.push(Input::Unreadable {
                        name: at.display().to_string(),
                        reason: reason(&error),
                    });
                }
            }
        }
        if (found.inputs.len(), found.empty.len()) == before {
            found.empty.push(path.to_path_buf());
        }
    }
    found
}

/// Why a directory's entry could not be listed, in words.
fn reason(error: &walkdir::Error) -> String {
    if let Some(ancestor) = error.loop_ancestor() {
        return format!(
            "symbolic link loop: it leads back to {}, a directory it is in",
            ancestor.display()
        );
    }
    let Some(io) = error.io_error() else {
        return error.to_string();
    };
    let link = error
        .path()
        .filter(|at| at.is_symlink())
        .and_then(|at| std::fs::read_link(at).ok());
    match link {
        Some(target) => format!(
            "symbolic link to {} that cannot be followed: {io}",
            target.display()
        ),
        None => io.to_string(),
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
