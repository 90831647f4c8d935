//! How every command writes a file: beside its place and then renamed,
//! never onto a file the run reads, and never over a file it did not make
//! unless asked to.
//!
//! [`write`] makes a temporary file in the folder of the output (a random
//! name, created exclusively: nothing there is followed or overwritten),
//! fills it, and renames it to the output: a run that fails or is killed
//! leaves no half-written file. Unless [`Rules::replace`] is set, the
//! rename refuses a file already there (atomically: a file, or a link,
//! that appears meanwhile is refused the same). An output that is one of
//! the run's inputs, or a link to one (the same device and inode), is
//! refused before anything is written, even when replacing.
//!
//! ```
//! use cardkit_run::output::{write, Rules};
//!
//! let dir = tempfile::tempdir()?;
//! let out = dir.path().join("card.svg");
//! write(&out, &Rules::default(), |file| Ok::<_, cardkit_run::output::Refused>(file.write_all(b"<svg/>").is_ok()))?;
//! assert!(write(&out, &Rules::default(), |_| Ok::<_, cardkit_run::output::Refused>(true)).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What an output may replace.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rules<'a> {
    /// The files the run reads: an output that is one of them (or links to
    /// one) is refused.
    pub inputs: &'a [PathBuf],
    /// Whether a file already at the output is replaced (`--force`);
    /// otherwise it is refused.
    pub replace: bool,
    /// The temporary's name ends so (after `.NAME.cardkit-XXXXXX`).
    pub suffix: &'a str,
}

/// Why an output is not written.
#[derive(Debug)]
#[non_exhaustive]
pub enum Refused {
    /// It is one of the run's inputs, or a link to one.
    Input(PathBuf),
    /// A file is there already, and the run was not asked to replace it.
    Exists(PathBuf),
    /// It cannot be written.
    Io(PathBuf, io::Error),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Input(path) => write!(
                f,
                "{}: is an input of this run (or a link to one), and is never written over",
                path.display()
            ),
            Refused::Exists(path) => write!(
                f,
                "{}: already exists, and is not replaced (--force replaces it)",
                path.display()
            ),
            Refused::Io(path, error) => write!(f, "{}: cannot be written: {error}", path.display()),
        }
    }
}

impl std::error::Error for Refused {}

/// Whether `out` may be written under `rules`, looked at before anything
/// is: it is not an input (nor a link to one), and unless replacing,
/// nothing is there (not even a dangling link).
///
/// # Errors
/// [`Refused::Input`] or [`Refused::Exists`].
pub fn check(out: &Path, rules: &Rules<'_>) -> Result<(), Refused> {
    if rules
        .inputs
        .iter()
        .any(|input| same_file::is_same_file(out, input).unwrap_or(false))
    {
        return Err(Refused::Input(out.to_path_buf()));
    }
    if !rules.replace && std::fs::symlink_metadata(out).is_ok() {
        return Err(Refused::Exists(out.to_path_buf()));
    }
    Ok(())
}

/// Writes what `fill` makes to `out`: [`check`]ed, then a temporary file
/// beside it (`.NAME.cardkit-XXXXXX` and the suffix, locked while it is
/// written), synced and renamed to `out`, keeping the permissions of the
/// file it replaces. Nothing is renamed when `fill` returns `false`; the
/// temporary is removed whatever happens.
///
/// # Errors
/// `out` is refused ([`Refused`], converted), or `fill` fails.
pub fn write<E: From<Refused>>(
    out: &Path,
    rules: &Rules<'_>,
    fill: impl FnOnce(&mut dyn Write) -> Result<bool, E>,
) -> Result<bool, E> {
    check(out, rules)?;
    let io = |error: io::Error| Refused::Io(out.to_path_buf(), error);
    let folder = out
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = out.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.cardkit-");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(rules.suffix);
    // As a file the run creates itself would be (the umask applies), not
    // the temporary's owner-only mode.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = builder.tempfile_in(folder).map_err(io)?;
    // Held until the file is renamed (or removed): a run that finds it
    // unlocked knows that its run was killed. A file system without locks
    // leaves it unlocked.
    let _ = temp.as_file().try_lock();
    {
        let mut buffered = io::BufWriter::with_capacity(1 << 16, temp.as_file_mut());
        if !fill(&mut buffered)? {
            return Ok(false);
        }
        buffered.flush().map_err(io)?;
    }
    if rules.replace {
        if let Ok(meta) = std::fs::metadata(out) {
            temp.as_file()
                .set_permissions(meta.permissions())
                .map_err(io)?;
        }
    }
    temp.as_file().sync_all().map_err(io)?;
    // Looked at again just before the rename: an input linked there
    // meanwhile is still refused.
    check(out, rules)?;
    let persisted = if rules.replace {
        temp.persist(out)
    } else {
        temp.persist_noclobber(out)
    };
    match persisted {
        Ok(_) => Ok(true),
        Err(error) if error.error.kind() == io::ErrorKind::AlreadyExists => {
            Err(Refused::Exists(out.to_path_buf()).into())
        }
        Err(error) => Err(io(error.error).into()),
    }
}

/// The places in `outputs` of the first two that name the same file, so
/// that a run refuses them before writing either.
#[must_use]
pub fn same_name(outputs: &[&Path]) -> Option<(usize, usize)> {
    let mut seen: std::collections::HashMap<&Path, usize> = std::collections::HashMap::new();
    for (i, output) in outputs.iter().enumerate() {
        if let Some(&first) = seen.get(output) {
            return Some((first, i));
        }
        seen.insert(output, i);
    }
    None
}
