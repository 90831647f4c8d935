//! Files found that are no card documents: a file found in a directory
//! searched (or in an archive) whose first document's kind cannot be told
//! (a `package.json`, a `tsconfig.json`) is skipped and counted, not
//! reported as invalid; a file named is always checked.

use std::io::{self, Read};

use super::declared::Failed;
use super::open::Opened;
use cardkit::model::Kind;

/// How much of a file found is read to tell its first document's kind (as
/// much as the validator reads to tell the layout).
const TOLD_WITHIN: u64 = 1 << 20;

/// What a run does with an input opened.
pub(super) enum Judged {
    /// Checks it: its bytes read to judge it are given back in front.
    Check(Opened),
    /// Skips it: it was found, and is no card document.
    Skip,
}

/// Judges an input opened: one found whose first document's kind cannot be
/// told is skipped, unless every document is of the kind `forced`
/// (`--kind`). A file that cannot be read is checked, which reports why.
pub(super) fn judge(opened: Opened, forced: Option<Kind>) -> Judged {
    if !opened.found || forced.is_some() {
        return Judged::Check(opened);
    }
    let Opened {
        name,
        mut reader,
        size,
        json_lines,
        compressed,
        found,
        again,
    } = opened;
    let mut head = Vec::new();
    let read = (&mut reader).take(TOLD_WITHIN).read_to_end(&mut head);
    let complete = (head.len() as u64) < TOLD_WITHIN;
    if read.is_ok() && !cardkit::validate::first_kind_told(&head, complete, json_lines) {
        return Judged::Skip;
    }
    let head = io::Cursor::new(head);
    let reader: Box<dyn Read> = match read {
        Ok(_) => Box::new(head.chain(reader)),
        Err(error) => Box::new(head.chain(Failed(Some(error)))),
    };
    Judged::Check(Opened {
        name,
        reader,
        size,
        json_lines,
        compressed,
        found,
        again,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(bytes: &'static [u8], json_lines: bool) -> Opened {
        Opened {
            name: "found.json".into(),
            reader: Box::new(bytes),
            size: None,
            json_lines,
            compressed: None,
            found: true,
            again: None,
        }
    }

    fn skipped(bytes: &'static [u8], json_lines: bool) -> bool {
        matches!(judge(found(bytes, json_lines), None), Judged::Skip)
    }

    const PACKAGE: &[u8] = br#"{"name": "site", "version": "1.0.0", "type": "module",
        "scripts": {"build": "vite"}, "dependencies": {"lodash": "^4.17.21"},
        "devDependencies": {"vite": "^5"}}"#;

    #[test]
    fn files_found_whose_kind_cannot_be_told_are_skipped() {
        assert!(skipped(PACKAGE, false));
        assert!(skipped(
            br#"{"compilerOptions": {"strict": true}, "include": ["src"]}"#,
            false
        ));
        assert!(skipped(
            b"{\n  // a comment, as tsconfig.json has\n  \"files\": []\n}",
            false
        ));
        assert!(skipped(b"", false));
        assert!(skipped(b"[1, 2]", false));
        assert!(skipped(br#"[{"name": "x"}]"#, false));
        assert!(skipped(
            b"\n{\"level\": \"info\"}\n{\"level\": \"warn\"}\n",
            true
        ));
    }

    #[test]
    fn documents_and_containers_are_checked() {
        for (bytes, json_lines) in [
            (&br#"{"object": "migration"}"#[..], false),
            (br#"{"name": "x", "width": 5}"#, false),
            (
                br#"{"name": "x", "dependencies": {"extensions": []}}"#,
                false,
            ),
            (br#"{"meta": {}, "data": {"code": "NEO"}}"#, false),
            (br#"{"data": []}"#, false),
            (br#"[{"code": "NEO"}]"#, false),
            // A container of no documents.
            (b"[ ]", false),
            (b"\n\n{\"uri\": \"https://example.org\"}\n", true),
            // UTF-16, which the validator names.
            (b"\xff\xfe{\x00}\x00", false),
        ] {
            assert!(
                matches!(judge(found(bytes, json_lines), None), Judged::Check(_)),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn a_file_named_or_of_a_kind_named_is_checked_and_its_bytes_given_back() {
        let named = Opened {
            found: false,
            ..found(PACKAGE, false)
        };
        assert!(matches!(judge(named, None), Judged::Check(_)));
        assert!(matches!(
            judge(found(PACKAGE, false), Some(Kind::Card)),
            Judged::Check(_)
        ));
        let Judged::Check(mut checked) = judge(found(br#"{"code": "NEO"}"#, false), None) else {
            panic!("a set is checked");
        };
        let mut read = Vec::new();
        checked.reader.read_to_end(&mut read).expect("read");
        assert_eq!(read, br#"{"code": "NEO"}"#);
    }
}
