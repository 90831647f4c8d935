//! Where a design's assets are: every image, mask, font and symbol `src` is
//! a `data:` URI, or a path relative to an asset root — a local folder, or
//! a URL to which the path is joined as the design tool joins it (`root +
//! "/" + src`).
//!
//! A [`Resolver`] says where a `src` is ([`Resolver::locate`]) and reads it
//! ([`Resolver::load`]) without ever reaching the network: a remote asset
//! is read only from a local mirror of its root, if one is given. A `src`
//! is never followed out of its root (`../../etc/passwd`, an encoded
//! `..%2F` in a URL's path, a symbolic link under it), never read
//! through `file:` or another scheme, and a `data:` URI is decoded only
//! when its size is within the caller's limit.
//!
//! ```
//! use cardkit_design::assets::{Location, Resolver, Root};
//!
//! let resolver = Resolver::new(Some(Root::parse("https://example.org/designs/")));
//! let location = resolver.locate("frames/red.png").unwrap();
//! assert_eq!(location.to_string(), "https://example.org/designs/frames/red.png");
//! assert!(resolver.locate("../../etc/passwd").is_err());
//!
//! let pixel = resolver.locate("data:image/png;base64,iVBORw0KGgo=").unwrap();
//! assert!(matches!(pixel, Location::Data(ref data) if data.media_type == "image/png"));
//! ```

mod confine;
pub mod manifest;
pub mod rebase;

use std::fmt;
use std::path::{Path, PathBuf};

use cardkit_run::regular::{read_checked, NotRead};
use url::Url;

/// The assets a design refers to relative paths from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Root {
    /// A local folder (by default, the folder of the design's own file).
    Dir(PathBuf),
    /// A URL (a design fetched from a host has its host root,
    /// `scheme://netloc`).
    Url(Url),
}

impl Root {
    /// A root as users write it: a URL with a scheme and a host
    /// (`https://example.org/x`), else a local folder.
    #[must_use]
    pub fn parse(text: &str) -> Root {
        match Url::parse(text) {
            Ok(url) if url.has_host() => Root::Url(url),
            _ => Root::Dir(PathBuf::from(text)),
        }
    }

    /// The root of a design: its own `asset_root_url` when it has one, else
    /// the folder of the file it was read from (none for standard input).
    #[must_use]
    pub fn of_design(asset_root_url: &str, file: Option<&Path>) -> Option<Root> {
        if !asset_root_url.is_empty() {
            return Some(Root::parse(asset_root_url));
        }
        let folder = file?.parent()?;
        Some(Root::Dir(if folder.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            folder.to_path_buf()
        }))
    }
}

impl fmt::Display for Root {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Root::Dir(dir) => write!(f, "{}", dir.display()),
            Root::Url(url) => write!(f, "{url}"),
        }
    }
}

/// Where one asset is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// Inline, in a `data:` URI.
    Data(DataUri),
    /// A local file: under a folder root, or in the mirror of a remote one.
    File(PathBuf),
    /// On a host, and not mirrored locally.
    Remote(Url),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Data(data) => write!(
                f,
                "data:{}{} ({} bytes encoded)",
                data.media_type,
                if data.base64 { ";base64" } else { "" },
                data.encoded_len
            ),
            Location::File(path) => write!(f, "{}", path.display()),
            Location::Remote(url) => write!(f, "{url}"),
        }
    }
}

/// What a `data:` URI says of itself, read from its header alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataUri {
    /// The media type without parameters (`image/png`); `text/plain` when
    /// the URI names none, as RFC 2397 says.
    pub media_type: String,
    /// Whether the data is base64.
    pub base64: bool,
    /// The length of the data as written, after the comma.
    pub encoded_len: usize,
}

/// An asset read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    /// Where it was read from.
    pub location: Location,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Why an asset cannot be located or read.
#[derive(Debug)]
#[non_exhaustive]
pub enum AssetError {
    /// An empty `src`.
    Empty,
    /// A `data:` URI that cannot be read (no comma, bad base64).
    MalformedData(String),
    /// A relative path that leads out of its root, or an absolute path.
    Escapes(String),
    /// A scheme other than `data:`, `http:` and `https:` (`file:`, say):
    /// never followed.
    Scheme(String),
    /// A relative path, but the design has no root to resolve it against.
    NoRoot(String),
    /// A remote asset with no local mirror: cardkit never fetches it.
    Remote(Url),
    /// Larger than the caller's limit.
    TooLarge {
        /// Its size in bytes (for a `data:` URI, at least this).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A local file that does not exist.
    Missing(PathBuf),
    /// A local file that a symbolic link on its way leads out of the asset
    /// root (or its mirror): never opened.
    OutsideRoot(PathBuf),
    /// A local file that cannot be read.
    Unreadable(PathBuf, std::io::Error),
}

impl fmt::Display for AssetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AssetError::Empty => write!(f, "the src is empty"),
            AssetError::MalformedData(why) => write!(f, "malformed data: URI: {why}"),
            AssetError::Escapes(src) => write!(
                f,
                "{src:?} leads out of the asset root; a src must be a path inside it"
            ),
            AssetError::Scheme(scheme) => write!(
                f,
                "the scheme {scheme}: is never followed; a src is a data: URI, an http(s) URL or a path under the asset root"
            ),
            AssetError::NoRoot(src) => write!(
                f,
                "{src:?} is relative, and the design has no asset root (give one with --root)"
            ),
            AssetError::Remote(url) => write!(
                f,
                "{url} is remote and not mirrored locally (cardkit never fetches assets)"
            ),
            AssetError::TooLarge { size, limit } => {
                write!(f, "{size} bytes, beyond the limit of {limit} bytes")
            }
            AssetError::Missing(path) => write!(f, "{} does not exist", path.display()),
            AssetError::OutsideRoot(path) => write!(
                f,
                "{} is outside the asset root: a symbolic link leads out of it, and it is not read",
                path.display()
            ),
            AssetError::Unreadable(path, error) => {
                write!(f, "{} cannot be read: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for AssetError {}

/// Resolves a design's `src` values against its root, and a remote root
/// against a local mirror.
#[derive(Debug, Clone, Default)]
pub struct Resolver {
    root: Option<Root>,
    mirror: Option<PathBuf>,
}

impl Resolver {
    /// Resolves against `root` (none: only `data:` URIs and absolute URLs
    /// resolve).
    #[must_use]
    pub fn new(root: Option<Root>) -> Resolver {
        Resolver { root, mirror: None }
    }

    /// Reads remote assets, and relative paths under a remote root, from a
    /// local copy: a `src` relative to the root at the same path under
    /// `dir`; an absolute URL of the root's host at its URL path, another
    /// host's under `dir/HOST/`.
    #[must_use]
    pub fn with_mirror(mut self, dir: impl Into<PathBuf>) -> Resolver {
        self.mirror = Some(dir.into());
        self
    }

    /// The root relative paths are resolved against.
    #[must_use]
    pub fn root(&self) -> Option<&Root> {
        self.root.as_ref()
    }

    /// The local mirror, if one was given.
    #[must_use]
    pub fn mirror(&self) -> Option<&Path> {
        self.mirror.as_deref()
    }

    /// Where `src` is. Nothing is read.
    ///
    /// # Errors
    /// An empty or malformed `src`, one that leads out of its root, a scheme
    /// that is never followed, or a relative path without a root.
    pub fn locate(&self, src: &str) -> Result<Location, AssetError> {
        if src.is_empty() {
            return Err(AssetError::Empty);
        }
        if let Some(scheme) = scheme(src) {
            return match scheme.to_ascii_lowercase().as_str() {
                "data" => data_uri(src).map(Location::Data),
                "http" | "https" => {
                    let url = Url::parse(src)
                        .map_err(|error| AssetError::MalformedData(format!("{src:?}: {error}")))?;
                    self.mirrored_url(src, url)
                }
                _ => Err(AssetError::Scheme(scheme.to_owned())),
            };
        }
        let segments = relative_segments(src)?;
        match (&self.mirror, &self.root) {
            (Some(mirror), _) => Ok(Location::File(join(mirror, &segments))),
            (None, Some(Root::Dir(dir))) => Ok(Location::File(join(dir, &segments))),
            (None, Some(Root::Url(url))) => Ok(Location::Remote(join_url(url, &segments))),
            (None, None) => Err(AssetError::NoRoot(src.to_owned())),
        }
    }

    /// Reads `src`, if it is at most `limit` bytes: a `data:` URI decoded,
    /// a local file read.
    ///
    /// # Errors
    /// As [`Resolver::locate`]; a remote asset not mirrored; a missing or
    /// unreadable file; bad base64; more than `limit` bytes.
    pub fn load(&self, src: &str, limit: u64) -> Result<Asset, AssetError> {
        let location = self.locate(src)?;
        let bytes = match &location {
            Location::Data(data) => {
                // Base64 decodes to three bytes per four: the size is known
                // before anything is decoded.
                let size = if data.base64 {
                    data.encoded_len as u64 / 4 * 3
                } else {
                    data.encoded_len as u64
                };
                if size > limit {
                    return Err(AssetError::TooLarge { size, limit });
                }
                let url = data_url::DataUrl::process(src)
                    .map_err(|error| AssetError::MalformedData(format!("{error:?}")))?;
                let (bytes, _) = url.decode_to_vec().map_err(|_| {
                    AssetError::MalformedData("the base64 data cannot be decoded".to_owned())
                })?;
                bytes
            }
            Location::File(path) => {
                let resolved = self.confined(path)?;
                read_file(self.base(path)?, &resolved, path, limit)?
            }
            Location::Remote(url) => return Err(AssetError::Remote(url.clone())),
        };
        Ok(Asset { location, bytes })
    }

    /// Where the located file `path` is once the symbolic links on its
    /// way are followed, if that is still under the asset root (the
    /// mirror, when there is one): every component is looked at in turn,
    /// and nothing outside the root is ever looked at or opened. The path
    /// returned has no link left in it.
    ///
    /// # Errors
    /// [`AssetError::OutsideRoot`] for a link that leads out of the root
    /// (or a `path` not under it), [`AssetError::Missing`] when a
    /// component does not exist, [`AssetError::Unreadable`] when one cannot
    /// be looked at or the links loop.
    pub fn confined(&self, path: &Path) -> Result<PathBuf, AssetError> {
        confine::confine(self.base(path)?, path).map_err(|refused| match refused {
            confine::Refused::Outside => AssetError::OutsideRoot(path.to_path_buf()),
            confine::Refused::Missing => AssetError::Missing(path.to_path_buf()),
            confine::Refused::Unreadable(error) => {
                AssetError::Unreadable(path.to_path_buf(), error)
            }
        })
    }

    /// The folder the located file `path` must stay under: the mirror,
    /// when there is one, or the root.
    fn base(&self, path: &Path) -> Result<&Path, AssetError> {
        match (&self.mirror, &self.root) {
            (Some(mirror), _) => Ok(mirror),
            (None, Some(Root::Dir(dir))) => Ok(dir),
            _ => Err(AssetError::OutsideRoot(path.to_path_buf())),
        }
    }

    /// An absolute URL, or its file in the mirror: each segment of its
    /// path decoded, and refused when it decodes to a separator or a `..`
    /// (`..%2F`, `%2Fetc`), which would lead out of the mirror.
    fn mirrored_url(&self, src: &str, url: Url) -> Result<Location, AssetError> {
        let Some(mirror) = &self.mirror else {
            return Ok(Location::Remote(url));
        };
        let same_host =
            matches!(&self.root, Some(Root::Url(root)) if root.origin() == url.origin());
        let mut path = mirror.clone();
        if !same_host {
            let host = url.host_str().unwrap_or("_");
            if !is_plain_segment(host) {
                return Err(AssetError::Escapes(src.to_owned()));
            }
            path.push(host);
        }
        // The parser has already taken out `.` and `..`: what is left to
        // refuse is what decoding makes of the rest.
        for raw in url.path_segments().into_iter().flatten() {
            let segment = percent_encoding::percent_decode_str(raw)
                .decode_utf8()
                .map_err(|_| AssetError::Escapes(src.to_owned()))?;
            if segment.is_empty() {
                continue;
            }
            if !is_plain_segment(&segment) {
                return Err(AssetError::Escapes(src.to_owned()));
            }
            path.push(segment.as_ref());
        }
        Ok(Location::File(path))
    }
}

/// A segment that names one entry of a folder: not empty, not `.` or `..`,
/// without a separator, a NUL or a drive.
fn is_plain_segment(segment: &str) -> bool {
    !matches!(segment, "" | "." | "..")
        && !segment.contains(['/', '\\', '\0'])
        && Path::new(segment)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// The scheme of an absolute URI (`data`, `https`), if `src` has one: a
/// letter, then letters, digits, `+`, `-` or `.`, then `:`. A Windows drive
/// (`C:`) is a single letter and reads as a scheme too: refused as such.
fn scheme(src: &str) -> Option<&str> {
    let end = src.find(':')?;
    let scheme = &src[..end];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// The header of a `data:` URI, without decoding its data.
fn data_uri(src: &str) -> Result<DataUri, AssetError> {
    let Some(comma) = src.find(',') else {
        return Err(AssetError::MalformedData(
            "no comma separates the header from the data".to_owned(),
        ));
    };
    let header = &src["data:".len()..comma];
    let mut parts = header.split(';');
    let media_type = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let base64 = header
        .rsplit(';')
        .next()
        .is_some_and(|last| last.trim().eq_ignore_ascii_case("base64"));
    Ok(DataUri {
        media_type: if media_type.is_empty() {
            "text/plain".to_owned()
        } else {
            media_type
        },
        base64,
        encoded_len: src.len() - comma - 1,
    })
}

/// The segments of a relative path, each percent-decoded, `.` dropped and
/// `..` taken back; a path that would leave its root is refused. A leading
/// `/` means the root itself, as on a host.
fn relative_segments(src: &str) -> Result<Vec<String>, AssetError> {
    let escapes = || AssetError::Escapes(src.to_owned());
    let path = src.split(['?', '#']).next().unwrap_or("");
    let mut segments: Vec<String> = Vec::new();
    for raw in path.split(['/', '\\']) {
        let segment = percent_encoding::percent_decode_str(raw)
            .decode_utf8()
            .map_err(|_| escapes())?;
        if segment.contains(['/', '\\', '\0']) {
            return Err(escapes());
        }
        match segment.as_ref() {
            "" | "." => {}
            ".." => {
                segments.pop().ok_or_else(escapes)?;
            }
            _ => segments.push(segment.into_owned()),
        }
    }
    if segments.is_empty() {
        return Err(AssetError::Empty);
    }
    Ok(segments)
}

fn join(dir: &Path, segments: &[String]) -> PathBuf {
    let mut path = dir.to_path_buf();
    path.extend(segments);
    path
}

/// `root + "/" + src`, as the design tool joins them (a root with a path
/// keeps it).
fn join_url(root: &Url, segments: &[String]) -> Url {
    let mut url = root.clone();
    if let Ok(mut path) = url.path_segments_mut() {
        path.pop_if_empty().extend(segments);
    }
    url
}

/// Reads `resolved`, the file `shown` resolves to under `base` (its links
/// followed), if it is a regular file of at most `limit` bytes: one that is
/// not (a FIFO would wait for a writer, a device read without end) is never
/// opened. It is opened from the root by calls that refuse to leave it, so
/// a link swapped in after [`Resolver::confined`] looked cannot lead out.
fn read_file(
    base: &Path,
    resolved: &Path,
    shown: &Path,
    limit: u64,
) -> Result<Vec<u8>, AssetError> {
    let unreadable = |error| AssetError::Unreadable(shown.to_path_buf(), error);
    let root = base.canonicalize().map_err(unreadable)?;
    let relative = resolved
        .strip_prefix(&root)
        .map_err(|_| AssetError::OutsideRoot(shown.to_path_buf()))?;
    let dir = cap_std::fs::Dir::open_ambient_dir(&root, cap_std::ambient_authority())
        .map_err(unreadable)?;
    let open = || dir.open(relative).map(cap_std::fs::File::into_std);
    read_checked(std::fs::metadata(resolved), open, limit).map_err(|why| match why {
        NotRead::Io(error) if error.kind() == std::io::ErrorKind::NotFound => {
            AssetError::Missing(shown.to_path_buf())
        }
        NotRead::Io(error) => AssetError::Unreadable(shown.to_path_buf(), error),
        NotRead::NotRegular(_) => {
            AssetError::Unreadable(shown.to_path_buf(), std::io::Error::other(why.to_string()))
        }
        NotRead::TooLarge { size, limit } => AssetError::TooLarge { size, limit },
    })
}

#[cfg(test)]
mod tests;
