//! A file's own version (`--as-of auto`): what the `meta.version` of a
//! wrapped document or a catalog declares (`5.2.0+20220425`), read from the
//! first part of the file, where publishers write `meta` since 5.0. A 4.x
//! set file keeps `meta` among the set's own members, after its cards: a
//! file that declares nothing in its first part is looked through once more
//! ([`declared_anywhere`]) when it can be read again.

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};

use cardkit::model::Kind;
use cardkit::schema::Version;
use cardkit_json::{Scanner, BOM};

/// How much of a file is read to find its `meta.version` before it is
/// looked through whole.
pub const DECLARED_WITHIN: u64 = 1 << 20;

/// How much of a stream (standard input, a request's body, a compressed or
/// archived file) is read ahead to find its `meta.version`: enough for
/// `meta` where publishers write it, first, and little enough that a body
/// is validated as it arrives.
pub const STREAM_DECLARED_WITHIN: u64 = 64 << 10;

/// The version a file is checked as of under `--as-of auto`, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declared {
    /// The version it declares (its build suffix left out).
    Version {
        /// As the file writes it.
        declared: String,
        /// The version checked as of.
        as_of: Version,
        /// Where its `meta` member is, when past the file's first part.
        at: Option<u64>,
    },
    /// It declares a version newer than the format's latest tag: checked as
    /// of the latest.
    Newer {
        /// As the file writes it.
        declared: String,
    },
    /// It declares something that is not a version of the format: checked
    /// as of the latest.
    Unusable {
        /// As the file writes it.
        declared: String,
    },
    /// It declares none: checked as of the latest.
    Absent {
        /// The whole file was looked through; else only its first MiB (a
        /// stream is read once).
        whole: bool,
    },
}

impl Declared {
    /// The version to check as of: `None` for the latest.
    #[must_use]
    pub fn as_of(&self) -> Option<Version> {
        match self {
            Declared::Version { as_of, .. } => Some(*as_of),
            _ => None,
        }
    }

    /// What a report says of it.
    #[must_use]
    pub fn note(&self) -> String {
        match self {
            Declared::Version {
                declared,
                as_of,
                at: None,
            } => {
                format!("checked as of {as_of}, the version its meta.version declares ({declared})")
            }
            Declared::Version {
                declared,
                as_of,
                at: Some(at),
            } => format!(
                "checked as of {as_of}, the version its meta.version declares ({declared}, at byte {at})"
            ),
            Declared::Newer { declared } => format!(
                "its meta.version ({declared}) is newer than the versions cardkit knows: checked as of the latest ({})",
                latest()
            ),
            Declared::Unusable { declared } => format!(
                "its meta.version ({declared}) is not a version of the format: checked as of the latest ({})",
                latest()
            ),
            Declared::Absent { whole: true } => format!(
                "it declares no version (no meta.version): checked as of the latest ({})",
                latest()
            ),
            Declared::Absent { whole: false } => format!(
                "it declares no version at its start (a stream is read once: a meta.version later in it is not seen): checked as of the latest ({})",
                latest()
            ),
        }
    }
}

/// The version tag of a report's `field` (`CardSet.language`) in a document
/// of `kind`, when the field has one.
#[must_use]
pub fn since(kind: Kind, field: &str) -> Option<Version> {
    let (model, name) = field.split_once('.')?;
    cardkit::schema::models_of(kind.model())
        .into_iter()
        .filter(|m| m.name == model)
        .find_map(|m| m.field(name))
        .and_then(|(_, f)| f.since)
}

/// The format's latest version tag.
pub(crate) fn latest() -> Version {
    cardkit::schema::latest_version()
}

/// What `head`, the first part of a file, declares (`whole`: it is the
/// whole file).
#[must_use]
pub fn declared(head: &[u8], whole: bool) -> Declared {
    let head = head.strip_prefix(BOM).unwrap_or(head);
    match meta_version(head) {
        Some(text) => version_declared(text, None),
        None => Declared::Absent { whole },
    }
}

/// What a `meta.version` of `text` declares; `at`: where its `meta` is,
/// when past the file's first part.
fn version_declared(text: String, at: Option<u64>) -> Declared {
    // `5.2.0+20220425`: the build is no part of the version.
    let core = text.split(['+', '-']).next().unwrap_or_default();
    match core.parse::<Version>() {
        Ok(version) if version > latest() => Declared::Newer { declared: text },
        Ok(version) if cardkit::validate::as_of_version(core).is_ok() => Declared::Version {
            declared: text,
            as_of: version,
            at,
        },
        _ => Declared::Unusable { declared: text },
    }
}

/// The string at `/meta/version` of the object `bytes` start with, if it is
/// within them.
fn meta_version(bytes: &[u8]) -> Option<String> {
    let mut scan = Scanner::new(bytes, 0);
    scan.ws();
    // The root's values (a set's `data`) are long: read past over the
    // index.
    let meta = scan
        .members()
        .over_index()
        .find(|member| member.name == "meta")?;
    version_of(bytes, meta.value_at)
}

/// The string `version` member of the object at `at` in `bytes`.
fn version_of(bytes: &[u8], at: usize) -> Option<String> {
    let mut object = Scanner::new(bytes, at);
    object.ws();
    let version = object.members().find(|member| member.name == "version")?;
    let value = Scanner::new(bytes, version.value_at);
    value.string_here().map(|text| text.into_owned())
}

/// What a file declares wherever its root object keeps `meta`: read once
/// more, in constant memory (only `meta`'s value is held). A file without
/// the bytes `"meta"` anywhere (most files that declare nothing) is told so
/// at the speed of a substring search; only one that has them is read
/// again, structurally.
///
/// # Errors
/// The file cannot be read.
pub fn declared_anywhere(mut reader: impl Read + Seek) -> io::Result<Declared> {
    if !holds(&mut reader, b"\"meta\"")? {
        return Ok(Declared::Absent { whole: true });
    }
    reader.seek(SeekFrom::Start(0))?;
    Ok(match meta_version_anywhere(reader)? {
        Some((text, at)) => version_declared(text, Some(at)),
        None => Declared::Absent { whole: true },
    })
}

/// Whether `needle` is anywhere in what `reader` reads.
fn holds(reader: &mut impl Read, needle: &[u8]) -> io::Result<bool> {
    let finder = memchr::memmem::Finder::new(needle);
    let keep = needle.len() - 1;
    let mut buffer = vec![0; 256 * 1024];
    // The last bytes of the previous chunk, in front of the next, so that
    // a needle across two chunks is found.
    let mut kept = 0;
    loop {
        let n = reader.read(&mut buffer[kept..])?;
        if n == 0 {
            return Ok(false);
        }
        let filled = kept + n;
        if finder.find(&buffer[..filled]).is_some() {
            return Ok(true);
        }
        kept = keep.min(filled);
        buffer.copy_within(filled - kept..filled, 0);
    }
}

/// The most of `meta`'s value that is held to read its `version`.
const META_HELD: usize = 64 * 1024;

/// The structure around the root object's members, as
/// [`meta_version_anywhere`] reads it byte by byte.
#[derive(Default)]
struct RootMembers {
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a member's name.
    expect_name: bool,
    /// The first bytes of the name being read at depth 1, and its offset.
    name: Option<(Vec<u8>, u64)>,
    /// The last name read at depth 1 was `meta`, at this offset, and its
    /// value has not begun.
    after_meta: Option<u64>,
    /// `meta`'s value as it is read, and its member's offset.
    held: Option<(Vec<u8>, u64)>,
}

/// What one byte tells [`meta_version_anywhere`].
enum Told {
    Nothing,
    /// The root is no object, or has ended, or `meta` is too large.
    Done,
    /// `meta`'s object, whole, and its member's offset.
    Meta(Vec<u8>, u64),
}

impl RootMembers {
    fn byte(&mut self, b: u8, here: u64) -> Told {
        if let Some((bytes, _)) = &mut self.held {
            bytes.push(b);
            if bytes.len() > META_HELD {
                return Told::Done;
            }
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
                if let Some((text, at)) = self.name.take() {
                    self.after_meta = (text == b"meta").then_some(at);
                }
            } else if let Some((text, _)) = &mut self.name {
                // Enough to tell `meta` from every other name.
                if text.len() <= 4 {
                    text.push(b);
                }
            }
            return Told::Nothing;
        }
        match b {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 {
                    if std::mem::take(&mut self.expect_name) {
                        self.name = Some((Vec::new(), here));
                    } else {
                        self.after_meta = None;
                    }
                }
            }
            b'{' | b'[' => {
                if self.depth == 0 && b == b'[' {
                    return Told::Done;
                }
                self.depth += 1;
                if self.depth == 1 {
                    self.expect_name = true;
                } else if self.depth == 2 {
                    if let Some(at) = self.after_meta.take() {
                        if b == b'{' {
                            self.held = Some((vec![b'{'], at));
                        }
                    }
                }
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                match self.depth {
                    0 => return Told::Done,
                    1 => {
                        if let Some((bytes, at)) = self.held.take() {
                            return Told::Meta(bytes, at);
                        }
                    }
                    _ => {}
                }
            }
            b',' if self.depth == 1 => {
                self.expect_name = true;
                self.after_meta = None;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b':' => {}
            // A scalar value at depth 1: not `meta`'s object.
            _ if self.depth == 1 => self.after_meta = None,
            _ => {}
        }
        Told::Nothing
    }
}

/// The string at `/meta/version` of the object `reader` holds, wherever
/// `meta` is among its members, and the offset of the `meta` member: read
/// structurally, strings and brackets only, nothing checked (the validator
/// reads the file). `None` when the root is no object, or has no `meta`
/// whose value is an object with a string `version`, or `meta` is larger
/// than [`META_HELD`].
fn meta_version_anywhere(reader: impl Read) -> io::Result<Option<(String, u64)>> {
    let mut reader = BufReader::with_capacity(64 * 1024, reader);
    let mut root = RootMembers::default();
    let mut offset: u64 = 0;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(None);
        }
        let len = buf.len();
        for (i, &b) in buf.iter().enumerate() {
            match root.byte(b, offset + i as u64) {
                Told::Nothing => {}
                Told::Done => return Ok(None),
                Told::Meta(bytes, at) => return Ok(version_of(&bytes, 0).map(|text| (text, at))),
            }
        }
        offset += len as u64;
        reader.consume(len);
    }
}

/// Reads the first part of `reader` (`within` bytes) to tell what it
/// declares, and gives the
/// bytes read back in front of the rest. An error reading that part is
/// given back too, after the bytes read before it, as it came (a caller may
/// tell its cause), for whoever reads on to meet it in its place.
pub fn read_declared<'a>(reader: impl Read + 'a, within: u64) -> (Box<dyn Read + 'a>, Declared) {
    let mut head = Vec::new();
    let mut reader = reader;
    let read = (&mut reader).take(within).read_to_end(&mut head);
    let whole = matches!(read, Ok(n) if (n as u64) < within);
    let found = declared(&head, whole);
    let head = io::Cursor::new(head);
    match read {
        Ok(_) => (Box::new(head.chain(reader)), found),
        Err(error) => (Box::new(head.chain(Failed(Some(error)))), found),
    }
}

/// A reader whose next read fails with the error it holds.
pub(super) struct Failed(pub(super) Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(error) => Err(error),
            None => Ok(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(declared: &str, as_of: Version, at: Option<u64>) -> Declared {
        Declared::Version {
            declared: declared.into(),
            as_of,
            at,
        }
    }

    #[test]
    fn a_files_version_is_told_from_its_meta() {
        let wrapped = br#"{"meta": {"date": "2022-04-25", "version": "5.2.0+20220425"}, "data": {"#;
        assert_eq!(
            declared(wrapped, false),
            version("5.2.0+20220425", Version::new(5, 2, 0), None)
        );
        assert_eq!(
            declared(br#"{"data": {}, "meta": {"version": "v5.0.0"}}"#, true).as_of(),
            Some(Version::new(5, 0, 0))
        );
        assert_eq!(
            declared(br#"{"meta": {"version": "99.0.0"}}"#, true),
            Declared::Newer {
                declared: "99.0.0".into()
            }
        );
        assert_eq!(
            declared(br#"{"meta": {"version": "5.x"}}"#, true),
            Declared::Unusable {
                declared: "5.x".into()
            }
        );
        assert_eq!(
            declared(br#"{"meta": {"version": "3.0.0"}}"#, true),
            Declared::Unusable {
                declared: "3.0.0".into()
            }
        );
        let absent = Declared::Absent { whole: true };
        assert_eq!(declared(br#"{"code": "NEO"}"#, true), absent);
        assert_eq!(declared(b"[1, 2", true), absent);
        assert_eq!(declared(b"", true), absent);
        assert!(absent.note().contains("declares no version"));
        assert!(Declared::Absent { whole: false }
            .note()
            .contains("a stream is read once"));
    }

    #[test]
    fn meta_is_found_among_a_sets_members_after_its_cards() {
        // As 4.x set files keep it: sorted among the set's members.
        let set = br#"{"cards": [{"name": "meta", "text": "a \"meta\": {\"version\": \"9\"}", "meta": {"version": "1.0.0"}}], "code": "WAR", "meta": {"date": "2019-12-22", "version": "4.6.1+20191222"}, "tokens": []}"#;
        let at = set.windows(6).rposition(|w| w == b"\"meta\"").unwrap() as u64;
        assert_eq!(
            declared_anywhere(io::Cursor::new(&set[..])).unwrap(),
            version("4.6.1+20191222", Version::new(4, 6, 1), Some(at))
        );
        // `meta` after the data of a wrapped document.
        assert_eq!(
            declared_anywhere(io::Cursor::new(
                &br#"{"data": {"code": "X"}, "meta": {"version": "5.1.0"}}"#[..]
            ))
            .unwrap()
            .as_of(),
            Some(Version::new(5, 1, 0))
        );
    }

    #[test]
    fn meta_is_found_across_the_searchs_chunks() {
        // `"meta"` across the 256 KiB chunks of the substring search.
        for pad in (256 * 1024 - 8)..(256 * 1024 + 2) {
            let text = format!(
                r#"{{"a": "{}", "meta": {{"version": "5.1.0"}}}}"#,
                "x".repeat(pad)
            );
            assert_eq!(
                declared_anywhere(io::Cursor::new(text.as_bytes()))
                    .unwrap()
                    .as_of(),
                Some(Version::new(5, 1, 0)),
                "{pad}"
            );
        }
    }

    #[test]
    fn nothing_else_is_taken_for_meta() {
        let absent = Declared::Absent { whole: true };
        for text in [
            // Deeper than the root's members.
            &br#"{"data": {"meta": {"version": "5.1.0"}}}"#[..],
            // A string, not a member's name.
            br#"{"a": "meta", "b": {"version": "5.1.0"}}"#,
            br#"{"meta": "5.1.0", "x": {"version": "5.1.0"}}"#,
            // No object at the root.
            br#"[{"meta": {"version": "5.1.0"}}]"#,
            br#""#,
            br#"{"meta": {"version": 5}}"#,
            // Cut short.
            br#"{"meta": {"version": "5.1"#,
        ] {
            assert_eq!(
                declared_anywhere(io::Cursor::new(text)).unwrap(),
                absent,
                "{text:?}"
            );
        }
        let huge = format!(
            r#"{{"meta": {{"x": "{}", "version": "5.1.0"}}}}"#,
            "a".repeat(META_HELD)
        );
        assert_eq!(
            declared_anywhere(io::Cursor::new(huge.as_bytes())).unwrap(),
            absent
        );
    }
}
