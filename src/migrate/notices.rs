//! The Migration notices of `--migrations` (`migrate apply`) and NOTICES
//! (`migrate check`), read through `cardkit_diff::apply::read_notices`.

use std::io;
use std::path::PathBuf;

use cardkit::schema::Names;
use cardkit_diff::apply::{read_notices, Notice};
use cardkit_run::{jobs, open, Walk};

/// The notices of every file given, in order: each found and opened as
/// every input is (compressed, in a zip archive, or a directory of notice
/// files searched as `validate` searches it), validated first.
pub fn read_all(
    paths: &[PathBuf],
    names: Names,
    walk: &Walk,
) -> Result<Vec<Notice>, cardkit_diff::Error> {
    let mut notices = Vec::new();
    for path in paths {
        let found = walk.discover(&[path]);
        if let Some(empty) = found.empty.first() {
            return Err(cardkit_diff::Error(format!(
                "{}: holds no *.json, *.jsonl or *.ndjson file",
                empty.display()
            )));
        }
        for input in found.inputs {
            let opened = open(input).map_err(|unopened| {
                cardkit_diff::Error(format!(
                    "{}: cannot be read: {}",
                    unopened.name, unopened.reason
                ))
            })?;
            notices.extend(read_notices(
                &opened.name,
                io::BufReader::new(opened.reader),
                opened.json_lines,
                jobs(None),
                names,
            )?);
        }
    }
    Ok(notices)
}
