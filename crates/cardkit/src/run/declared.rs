//! A file's own version (`--as-of auto`): what the `meta.version` of a
//! wrapped document or a catalog declares (`5.2.0+20220425`), read from the
//! first part of the file, where publishers write `meta`.

use std::io::{self, Read};

use crate::json::{Scanner, BOM};
use crate::model::Kind;
use crate::table::{versions, ModelDef, Version};

/// How much of an input is read to find its `meta.version`.
pub const DECLARED_WITHIN: u64 = 1 << 20;

/// The version a file is checked as of under `--as-of auto`, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declared {
    /// The version it declares (its build suffix left out).
    Version {
        /// As the file writes it.
        declared: String,
        /// The version checked as of.
        as_of: Version,
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
    /// It declares none (no `meta.version` within its first MiB): checked
    /// as of the latest.
    Absent,
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
            Declared::Version { declared, as_of } => {
                format!("checked as of {as_of}, the version its meta.version declares ({declared})")
            }
            Declared::Newer { declared } => format!(
                "its meta.version ({declared}) is newer than the versions cardkit knows: checked as of the latest ({})",
                latest()
            ),
            Declared::Unusable { declared } => format!(
                "its meta.version ({declared}) is not a version of the format: checked as of the latest ({})",
                latest()
            ),
            Declared::Absent => format!(
                "it declares no version (no meta.version in its first MiB): checked as of the latest ({})",
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
    crate::table::models_of(kind.model())
        .into_iter()
        .filter(|m| m.name == model)
        .find_map(|m| m.field(name))
        .and_then(|(_, f)| f.since)
}

/// The hint a report gives of a file checked as of the latest version whose
/// errors are in part of fields introduced after the version it declares.
#[must_use]
pub fn hint(declared: &Declared, later: usize) -> Option<String> {
    let Declared::Version { declared, as_of } = declared else {
        return None;
    };
    (later > 0).then(|| {
        format!(
            "this file declares version {declared}; {later} of its errors are of fields introduced after {as_of}: check it as of its own version with --as-of auto"
        )
    })
}

/// The format's latest version tag.
pub(crate) fn latest() -> Version {
    let roots: Vec<&'static ModelDef> = Kind::ALL.iter().map(|k| k.model()).collect();
    versions(&roots)
        .last()
        .copied()
        .unwrap_or(Version::new(0, 0, 0))
}

/// What `head`, the first part of a file, declares.
#[must_use]
pub fn declared(head: &[u8]) -> Declared {
    let head = head.strip_prefix(BOM).unwrap_or(head);
    let Some(text) = meta_version(head) else {
        return Declared::Absent;
    };
    // `5.2.0+20220425`: the build is no part of the version.
    let core = text.split(['+', '-']).next().unwrap_or_default();
    match core.parse::<Version>() {
        Ok(version) if version > latest() => Declared::Newer { declared: text },
        Ok(version) if crate::validate::as_of_version(core).is_ok() => Declared::Version {
            declared: text,
            as_of: version,
        },
        _ => Declared::Unusable { declared: text },
    }
}

/// The string at `/meta/version` of the object `bytes` start with, if it is
/// within them.
fn meta_version(bytes: &[u8]) -> Option<String> {
    let mut scan = Scanner::new(bytes, 0);
    scan.ws();
    let meta = scan.members().find(|member| member.name == "meta")?;
    let mut at = Scanner::new(bytes, meta.value_at);
    at.ws();
    let version = at.members().find(|member| member.name == "version")?;
    let value = Scanner::new(bytes, version.value_at);
    value.string_here().map(|text| text.into_owned())
}

/// Reads the first part of `reader` to tell what it declares, and gives the
/// bytes read back in front of the rest. An error reading that part is
/// given back too, after the bytes read before it, as it came (a caller may
/// tell its cause), for whoever reads on to meet it in its place.
pub fn read_declared<'a>(reader: impl Read + 'a) -> (Box<dyn Read + 'a>, Declared) {
    let mut head = Vec::new();
    let mut reader = reader;
    let read = (&mut reader).take(DECLARED_WITHIN).read_to_end(&mut head);
    let found = declared(&head);
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

    #[test]
    fn a_files_version_is_told_from_its_meta() {
        let wrapped = br#"{"meta": {"date": "2022-04-25", "version": "5.2.0+20220425"}, "data": {"#;
        assert_eq!(
            declared(wrapped),
            Declared::Version {
                declared: "5.2.0+20220425".into(),
                as_of: Version::new(5, 2, 0)
            }
        );
        assert_eq!(
            declared(br#"{"data": {}, "meta": {"version": "v5.0.0"}}"#).as_of(),
            Some(Version::new(5, 0, 0))
        );
        assert_eq!(
            declared(br#"{"meta": {"version": "99.0.0"}}"#),
            Declared::Newer {
                declared: "99.0.0".into()
            }
        );
        assert_eq!(
            declared(br#"{"meta": {"version": "5.x"}}"#),
            Declared::Unusable {
                declared: "5.x".into()
            }
        );
        assert_eq!(
            declared(br#"{"meta": {"version": "3.0.0"}}"#),
            Declared::Unusable {
                declared: "3.0.0".into()
            }
        );
        assert_eq!(declared(br#"{"code": "NEO"}"#), Declared::Absent);
        assert_eq!(declared(b"[1, 2"), Declared::Absent);
        assert_eq!(declared(b""), Declared::Absent);
        assert!(Declared::Absent.note().contains("declares no version"));
    }
}
