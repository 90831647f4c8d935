//! The conformance cases, read one way for every test that runs them.
//!
//! A case is `tests/conformance/<kind>/<case>.json` (or `.jsonl`) with
//! `<case>.expected` beside it:
//!
//! - `<kind>` is `auto`, `template`, `card`, `set` or `migration`: the
//!   `--kind` the case is validated with (`auto`: none, the kind is told from
//!   the content);
//! - a `.jsonl` case is read as JSON Lines;
//! - a case whose file name starts with `deny-unknown-` is validated with
//!   unknown fields denied;
//! - a `<case>.options` file beside it sets other options, one a line:
//!   `as_of = vX.Y.Z`, `strict_version`, `warn_deprecated`,
//!   `deny_unknown_fields` (blank lines are ignored).

use std::path::{Path, PathBuf};

use cardkit::schema::Names;
use cardkit::Kind;
use cardkit::Options;

/// One conformance case.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case's path below the conformance folder, without its extension:
    /// `set/card-every-field`.
    pub name: String,
    /// The input file.
    pub path: PathBuf,
    /// The input's bytes.
    pub input: Vec<u8>,
    /// The options the case is validated with.
    pub options: Options,
    /// Where the expected report is (it may not exist yet).
    pub expected: PathBuf,
}

impl Case {
    /// Reads the case whose input is `path`, a file in a kind folder of the
    /// conformance suite. Panics with the reason when the case is malformed
    /// (an unknown kind folder, an unknown option).
    pub fn load(path: &Path) -> Case {
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .unwrap_or_else(|| panic!("{}: not in a kind folder", path.display()));
        let file_name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_else(|| panic!("{}: not a UTF-8 file name", path.display()));
        let kind =
            match folder {
                "auto" => None,
                name => Some(name.parse::<Kind>().unwrap_or_else(|e| {
                    panic!("{}: the folder names no kind: {e}", path.display())
                })),
            };
        let mut options = Options {
            kind,
            deny_unknown_fields: file_name.starts_with("deny-unknown-"),
            json_lines: path.extension().is_some_and(|e| e == "jsonl"),
            ..Options::default()
        };
        let options_path = path.with_extension("options");
        match std::fs::read_to_string(&options_path) {
            Ok(text) => read_options(&text, &mut options)
                .unwrap_or_else(|e| panic!("{}: {e}", options_path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => panic!("{}: {e}", options_path.display()),
        }
        let input = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Case {
            name: name(path),
            path: path.to_path_buf(),
            input,
            options,
            expected: path.with_extension("expected"),
        }
    }

    /// Whether the case is validated with the default options, but for its
    /// kind and JSON Lines: no unknown fields denied, no version checks.
    pub fn has_default_checks(&self) -> bool {
        let Options {
            kind: _,
            json_lines: _,
            deny_unknown_fields,
            as_of,
            strict_version,
            warn_deprecated,
            filter,
            // A schema is written under each names: the one a document was
            // read under is compared.
            names: _,
            warnings_shown,
        } = self.options;
        !deny_unknown_fields
            && warnings_shown.is_none()
            && as_of.is_none()
            && !strict_version
            && !warn_deprecated
            && filter.is_none()
    }
}

/// The name of the case whose input is `path`: its kind folder and its file
/// name without the extension, `set/card-every-field`.
pub fn name(path: &Path) -> String {
    let part = |p: Option<&std::ffi::OsStr>| p.map(|n| n.to_string_lossy().into_owned());
    match (
        part(path.parent().and_then(Path::file_name)),
        part(path.file_stem()),
    ) {
        (Some(folder), Some(stem)) => format!("{folder}/{stem}"),
        _ => path.display().to_string(),
    }
}

/// The inputs of every conformance case, in path order.
///
/// Panics when a case's name is taken twice (`x.json` and `x.jsonl`), or
/// when a `.expected` or `.options` file has no input beside it: such a file
/// would be silently ignored.
pub fn case_paths() -> Vec<PathBuf> {
    let root = super::conformance_dir();
    let inputs = super::json_files(&root);
    let mut stems: Vec<PathBuf> = inputs.iter().map(|p| p.with_extension("")).collect();
    stems.sort();
    if let Some(pair) = stems.windows(2).find(|w| w[0] == w[1]) {
        panic!("two cases are named {}", pair[0].display());
    }
    let mut strays = Vec::new();
    collect_strays(&root, &stems, &mut strays);
    assert!(
        strays.is_empty(),
        "files of no case (the input is missing): {strays:#?}"
    );
    inputs
}

/// Every conformance case, loaded.
pub fn all() -> Vec<Case> {
    case_paths().iter().map(|p| Case::load(p)).collect()
}

fn collect_strays(dir: &Path, stems: &[PathBuf], strays: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            collect_strays(&path, stems, strays);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("expected" | "options")
        ) && stems.binary_search(&path.with_extension("")).is_err()
        {
            strays.push(path);
        }
    }
}

/// Applies the lines of a `.options` file to `options`.
fn read_options(text: &str, options: &mut Options) -> Result<(), String> {
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
            Some(("as_of", version)) => {
                let version = version
                    .parse()
                    .map_err(|e| format!("as_of = {version}: not a version tag: {e}"))?;
                options.as_of = Some(version);
            }
            Some(("names", names)) => {
                options.names = Names::named(names)
                    .ok_or_else(|| format!("names = {names}: expected spec or upstream"))?;
            }
            None if line == "strict_version" => options.strict_version = true,
            None if line == "warn_deprecated" => options.warn_deprecated = true,
            None if line == "deny_unknown_fields" => options.deny_unknown_fields = true,
            _ => return Err(format!("unknown option line {line:?}")),
        }
    }
    Ok(())
}
