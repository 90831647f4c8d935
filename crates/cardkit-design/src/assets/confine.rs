//! A located file's links followed without leaving the asset root.

use std::path::{Path, PathBuf};

/// Why a path is refused.
#[derive(Debug)]
pub(super) enum Refused {
    /// It ends outside the root.
    Outside,
    /// A component does not exist.
    Missing,
    /// A component cannot be looked at, or the links loop.
    Unreadable(std::io::Error),
}

/// How many symbolic links one path may go through, as Linux allows.
const MAX_LINKS: usize = 40;

/// `path` (under `base`) with its links followed one component at a time,
/// from the canonical `base`: a component is looked at only while the path
/// so far is under the root, and a path that ends outside it is refused.
/// A link's target is taken as written (an absolute one from `/`); `..`
/// and components met outside the root are taken as they read, without
/// looking at them, and a path that comes back under the root is looked
/// at again.
pub(super) fn confine(base: &Path, path: &Path) -> Result<PathBuf, Refused> {
    use std::collections::VecDeque;
    use std::path::Component;

    let outside = || Refused::Outside;
    let missing_or = |error: std::io::Error| {
        if error.kind() == std::io::ErrorKind::NotFound {
            Refused::Missing
        } else {
            Refused::Unreadable(error)
        }
    };
    let root = base.canonicalize().map_err(missing_or)?;
    let relative = path.strip_prefix(base).map_err(|_| outside())?;
    let mut pending: VecDeque<std::ffi::OsString> = VecDeque::new();
    for component in relative.components() {
        match component {
            Component::Normal(name) => pending.push_back(name.to_owned()),
            Component::CurDir => {}
            _ => return Err(outside()),
        }
    }
    let mut here = root.clone();
    let mut links = 0;
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            here.pop();
            continue;
        }
        here.push(&name);
        if !here.starts_with(&root) {
            // Outside: taken as it reads, never looked at.
            continue;
        }
        let meta = std::fs::symlink_metadata(&here).map_err(missing_or)?;
        if !meta.file_type().is_symlink() {
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return Err(Refused::Unreadable(std::io::Error::other(
                "too many symbolic links",
            )));
        }
        let target = std::fs::read_link(&here).map_err(missing_or)?;
        here.pop();
        if target.has_root() {
            here = PathBuf::new();
        }
        let mut from_target = Vec::new();
        for component in target.components() {
            match component {
                Component::Prefix(_) | Component::RootDir => here.push(component.as_os_str()),
                Component::CurDir => {}
                Component::ParentDir => from_target.push("..".into()),
                Component::Normal(name) => from_target.push(name.to_owned()),
            }
        }
        for name in from_target.into_iter().rev() {
            pending.push_front(name);
        }
    }
    if here.starts_with(&root) {
        Ok(here)
    } else {
        Err(outside())
    }
}
