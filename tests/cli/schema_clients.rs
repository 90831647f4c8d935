//! The exported JSON Schemas as two real clients read them: ajv-cli 5 with
//! ajv-formats 3 in ajv's default strict mode (`tests/ajv/`, `npm ci`), and
//! check-jsonschema (`.ci/run` installs it in its virtual environment).
//!
//! 1. Every schema that `cardkit schema` prints by default, of every kind, in
//!    every container and as of a few versions, compiles in ajv's strict mode
//!    with no warning, and is a valid schema to check-jsonschema.
//! 2. Both give `cardkit validate`'s verdict on each file of `examples/` and
//!    of the corpus (`../shared/corpus/neutral`), checked against the schema
//!    of its kind in its container, but for the known differences below.
//! 3. Both give the verdicts of `../shared/spec/colors.jsonl` on the schema's
//!    `color`: the valid strings as items of an array of colors, the invalid
//!    ones as items of an array of non-colors.
//! 4. The book's commands for them (`docs/fields-and-schema.md`) are the
//!    ones run here.
//!
//! The programs: `CARDKIT_AJV` (default `tests/ajv/node_modules/.bin/ajv`)
//! and `CARDKIT_CHECK_JSONSCHEMA` (default
//! `target/ci-venv/bin/check-jsonschema`). Missing ones fail the tests in CI
//! and skip them elsewhere.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cardkit::model::Layout;
use cardkit::schema::json_schema::{container_name, json_schema_with, SchemaOptions, CONTAINERS};
use cardkit::schema::versions;
use cardkit::validate::{validate, Options};
use cardkit::Code;
use cardkit::Kind;
use serde_json::{json, Value};

// ---------------------------------------------------------------------------
// Known differences

/// A verdict of cardkit's that a schema cannot give, on these files. None
/// so far: the others that the book lists (depth limit, integer rounding,
/// duplicate set codes, Unicode digits in colors) are in no example or
/// corpus file.
#[derive(Debug)]
enum Difference {}

/// Files whose verdicts differ (`examples/…` or `corpus/…`, then ` as of
/// latest` or ` as of vX.Y.Z`), and why.
const FILE_DIFFERENCES: &[(&str, Difference)] = &[];

/// Files not compared, by rule: not well-formed JSON (a schema applies to a
/// JSON value), and documents of several kinds or of none cardkit could tell
/// in one file (no one schema applies). JSON Lines are compared line by
/// line, each well-formed line against the schema of its document.
fn skipped(report: &cardkit::validate::FileReport) -> Option<&'static str> {
    let malformed = report
        .documents
        .iter()
        .any(|d| d.diagnostics.iter().any(|x| x.code == Code::InvalidJson));
    if malformed {
        return Some("not well-formed");
    }
    let kinds: Vec<Option<Kind>> = report.documents.iter().map(|d| d.kind).collect();
    match kinds.first() {
        Some(Some(first)) if kinds.iter().all(|k| *k == Some(*first)) => None,
        _ => Some("no one kind"),
    }
}

// ---------------------------------------------------------------------------
// The programs

const AJV_OPTIONS: [&str; 3] = ["--spec=draft2020", "-c", "ajv-formats"];

fn ajv() -> Option<PathBuf> {
    support::tool(
        "CARDKIT_AJV",
        "tests/ajv/node_modules/.bin/ajv",
        &["help"],
        "run `npm ci` in tests/ajv",
    )
}

fn check_jsonschema() -> Option<PathBuf> {
    support::tool(
        "CARDKIT_CHECK_JSONSCHEMA",
        "target/ci-venv/bin/check-jsonschema",
        &["--version"],
        "pip install check-jsonschema (the version .ci/run pins)",
    )
}

fn run(program: &Path, args: &[&str], dir: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{} does not run: {e}", program.display()))
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// ajv's verdict on each data file against `schema`: its lines
/// `FILE valid` and `FILE invalid`.
fn ajv_verdicts(ajv: &Path, dir: &Path, schema: &str, data: &[String]) -> Vec<(String, bool)> {
    let mut args: Vec<&str> = vec!["validate"];
    args.extend(AJV_OPTIONS);
    args.extend(["-s", schema, "--errors=line"]);
    for file in data {
        args.extend(["-d", file]);
    }
    let output = run(ajv, &args, dir);
    let out = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    data.iter()
        .map(|file| {
            let valid = out.lines().any(|l| l == format!("{file} valid"));
            let invalid = out.lines().any(|l| l == format!("{file} invalid"));
            assert!(valid != invalid, "ajv said neither of {file}:\n{out}");
            (file.clone(), valid)
        })
        .collect()
}

/// check-jsonschema's verdict on each data file against `schema`.
fn check_verdicts(check: &Path, dir: &Path, schema: &str, data: &[String]) -> Vec<(String, bool)> {
    let mut args = vec!["--schemafile", schema, "-o", "json"];
    args.extend(data.iter().map(String::as_str));
    let output = run(check, &args, dir);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "check-jsonschema's report is no JSON ({e}):\n{}",
            text(&output)
        )
    });
    let failed = |file: &str| {
        ["errors", "parse_errors"].iter().any(|list| {
            report[list]
                .as_array()
                .is_some_and(|errors| errors.iter().any(|e| e["filename"] == file))
        })
    };
    data.iter()
        .map(|file| (file.clone(), !failed(file)))
        .collect()
}

// ---------------------------------------------------------------------------
// 1. Every schema compiles

/// The versions the schemas are checked as of: none (the latest), the
/// first version tag, and one between.
fn some_versions() -> Vec<Option<cardkit::schema::Version>> {
    let roots: Vec<_> = Kind::ALL.iter().map(|k| k.model()).collect();
    let tags = versions(&roots);
    assert!(tags.len() >= 3, "{tags:?}");
    vec![None, Some(tags[0]), Some(tags[tags.len() / 2])]
}

/// `cardkit schema KIND [--container C] [--as-of V]`, written to `dir`; the
/// file's name.
fn write_schema(dir: &Path, kind: Kind, container: Layout, as_of: Option<&str>) -> String {
    let mut args = vec!["schema".to_owned(), kind.to_string()];
    if container != Layout::Bare {
        args.extend([
            "--container".to_owned(),
            container_name(container).to_owned(),
        ]);
    }
    if let Some(version) = as_of {
        args.extend(["--as-of".to_owned(), version.to_owned()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let printed = support::stdout_of(&args, 0);
    let name = format!(
        "{kind}.{}.{}.schema.json",
        container_name(container),
        as_of.unwrap_or("latest")
    );
    std::fs::write(dir.join(&name), printed).expect("the schema is written");
    name
}

#[test]
fn every_schema_compiles_in_strict_mode() {
    let (Some(ajv), Some(check)) = (ajv(), check_jsonschema()) else {
        return;
    };
    let dir = tempfile::tempdir().expect("a folder");
    let mut names = Vec::new();
    for &kind in Kind::ALL {
        for container in CONTAINERS {
            for version in some_versions() {
                let version = version.map(|v| v.to_string());
                names.push(write_schema(
                    dir.path(),
                    kind,
                    container,
                    version.as_deref(),
                ));
            }
        }
    }
    assert_eq!(names.len(), Kind::ALL.len() * CONTAINERS.len() * 3);
    let mut args = vec!["compile"];
    args.extend(AJV_OPTIONS);
    for name in &names {
        args.extend(["-s", name]);
    }
    let output = run(&ajv, &args, dir.path());
    let said = text(&output);
    assert!(output.status.success(), "ajv refuses a schema:\n{said}");
    for name in &names {
        assert!(
            said.lines().any(|l| l == format!("schema {name} is valid")),
            "{name}:\n{said}"
        );
    }
    // Not even a warning of the strict mode (strictTypes only logs).
    assert!(!said.contains("strict mode"), "{said}");

    let mut args = vec!["--check-metaschema"];
    args.extend(names.iter().map(String::as_str));
    let output = run(&check, &args, dir.path());
    assert!(
        output.status.success(),
        "check-jsonschema refuses a schema:\n{}",
        text(&output)
    );
}

/// The annotations are what strict validators refuse: that is why they are
/// not in the default output.
#[test]
fn annotations_are_not_strict() {
    let Some(ajv) = ajv() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a folder");
    let printed = support::stdout_of(&["schema", "set", "--annotations"], 0);
    std::fs::write(dir.path().join("set.json"), printed).expect("written");
    let mut args = vec!["compile"];
    args.extend(AJV_OPTIONS);
    args.extend(["-s", "set.json"]);
    let output = run(&ajv, &args, dir.path());
    assert!(!output.status.success());
    assert!(
        text(&output).contains("unknown keyword: \"x-since\""),
        "{}",
        text(&output)
    );
}

// ---------------------------------------------------------------------------
// 2. The verdicts on real files

/// The files compared: `examples/` and the corpus's neutral documents, by
/// their names as listed in [`FILE_DIFFERENCES`].
fn files() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    let mut add = |root: PathBuf, prefix: &str| {
        let mut found = Vec::new();
        collect(&root, &mut found);
        found.sort();
        for path in found {
            let name = path.strip_prefix(&root).expect("below the root");
            let name = format!("{prefix}{}", name.to_string_lossy().replace('\\', "/"));
            files.push((name, path));
        }
    };
    add(support::workspace_dir().join("examples"), "examples/");
    if let Some(shared) = support::shared_dir() {
        add(shared.join("corpus/neutral"), "corpus/");
    }
    files
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect(&path, files);
        } else if path
            .extension()
            .is_some_and(|e| e == "json" || e == "jsonl")
        {
            files.push(path);
        }
    }
}

/// One file to compare: its name, where it was copied, and cardkit's verdict.
struct Compared {
    name: String,
    copy: String,
    cardkit_valid: bool,
}

#[test]
fn verdicts_agree_with_cardkit_on_examples_and_the_corpus() {
    let (Some(ajv), Some(check)) = (ajv(), check_jsonschema()) else {
        return;
    };
    let dir = tempfile::tempdir().expect("a folder");
    // The files of each schema, by the schema's file name.
    let mut groups: Vec<(String, Vec<Compared>)> = Vec::new();
    let mut not_compared = Vec::new();
    let first_version = some_versions()[1];
    let mut add = |kind: Kind, options: &SchemaOptions, compared: Compared| {
        let version = options
            .as_of
            .map_or_else(|| "latest".to_owned(), |v| v.to_string());
        let schema = format!(
            "{kind}.{}.{version}.schema.json",
            container_name(options.container)
        );
        if !dir.path().join(&schema).exists() {
            let text = serde_json::to_string(&json_schema_with(kind, options)).expect("JSON");
            std::fs::write(dir.path().join(&schema), text).expect("written");
        }
        let compared = Compared {
            name: format!("{} as of {version}", compared.name),
            ..compared
        };
        match groups.iter_mut().find(|(s, _)| *s == schema) {
            Some((_, files)) => files.push(compared),
            None => groups.push((schema, vec![compared])),
        }
    };
    for (index, (name, path)) in files().into_iter().enumerate() {
        let bytes = std::fs::read(&path).expect("a file");
        if path.extension().is_some_and(|e| e == "jsonl") {
            // Each well-formed line against the schema of its document.
            let options = Options {
                json_lines: true,
                ..Options::default()
            };
            let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
            for document in validate(&bytes, &options).documents {
                let malformed = document
                    .diagnostics
                    .iter()
                    .any(|x| x.code == Code::InvalidJson);
                let (Some(kind), Some(line), false) = (document.kind, document.line, malformed)
                else {
                    not_compared.push(format!("{name}: a line not well-formed, or of no kind"));
                    continue;
                };
                let copy = format!("{index}-{line}.json");
                std::fs::write(dir.path().join(&copy), lines[line - 1]).expect("written");
                let compared = Compared {
                    name: format!("{name} line {line}"),
                    copy,
                    cardkit_valid: document.is_valid(),
                };
                add(kind, &SchemaOptions::default(), compared);
            }
            continue;
        }
        let copy = format!("{index}.json");
        std::fs::write(dir.path().join(&copy), &bytes).expect("written");
        // As of the latest version, and as of the first (`--as-of`).
        for as_of in [None, first_version] {
            let options = Options {
                as_of,
                ..Options::default()
            };
            let report = validate(&bytes, &options);
            if let Some(why) = skipped(&report) {
                if as_of.is_none() {
                    not_compared.push(format!("{name}: {why}"));
                }
                continue;
            }
            let kind = report.documents[0].kind.expect("one kind");
            let options = SchemaOptions {
                container: report.layout,
                as_of,
                ..SchemaOptions::default()
            };
            let compared = Compared {
                name: name.clone(),
                copy: copy.clone(),
                cardkit_valid: report.is_valid(),
            };
            add(kind, &options, compared);
        }
    }
    let compared: usize = groups.iter().map(|(_, files)| files.len()).sum();
    assert!(compared >= 10, "only {compared} files compared");
    eprintln!("not compared, by rule: {not_compared:#?}");

    let mut failures = Vec::new();
    let mut explained = Vec::new();
    for (schema, files) in &groups {
        let copies: Vec<String> = files.iter().map(|f| f.copy.clone()).collect();
        let by_ajv = ajv_verdicts(&ajv, dir.path(), schema, &copies);
        let by_check = check_verdicts(&check, dir.path(), schema, &copies);
        for ((file, (_, ajv_valid)), (_, check_valid)) in files.iter().zip(by_ajv).zip(by_check) {
            let agree = ajv_valid == file.cardkit_valid && check_valid == file.cardkit_valid;
            let known = FILE_DIFFERENCES.iter().find(|(name, _)| *name == file.name);
            match (known, agree) {
                (None, true) => {}
                (Some((name, _)), false) => explained.push(*name),
                (Some((name, difference)), true) => failures.push(format!(
                    "{name}: listed as a known difference ({difference:?}), but the verdicts agree"
                )),
                (None, false) => failures.push(format!(
                    "{} ({schema}): cardkit says valid={}, ajv valid={ajv_valid}, \
                     check-jsonschema valid={check_valid}",
                    file.name, file.cardkit_valid
                )),
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert_eq!(explained.len(), FILE_DIFFERENCES.len());
}

// ---------------------------------------------------------------------------
// 3. The colors

#[test]
fn colors_agree_through_both() {
    let (Some(ajv), Some(check)) = (ajv(), check_jsonschema()) else {
        return;
    };
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let lines = std::fs::read_to_string(shared.join("spec/colors.jsonl")).expect("colors.jsonl");
    let (mut valid, mut invalid) = (Vec::new(), Vec::new());
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let entry: Value = serde_json::from_str(line).expect("JSON");
        let color = entry["color"].as_str().expect("a color").to_owned();
        if entry["valid"].as_bool().expect("a verdict") {
            valid.push(color);
        } else {
            invalid.push(color);
        }
    }
    assert_eq!(valid.len() + invalid.len(), 591);
    let dir = tempfile::tempdir().expect("a folder");
    let card = json_schema_with(Kind::Card, &SchemaOptions::default());
    let color = &card["$defs"]["color"];
    assert!(color["anyOf"].is_array(), "{color}");
    for (name, items) in [
        ("colors", color.clone()),
        ("non-colors", json!({"not": color})),
    ] {
        let schema = json!({
            "$schema": card["$schema"],
            "type": "array",
            "items": items,
        });
        std::fs::write(
            dir.path().join(format!("{name}.schema.json")),
            schema.to_string(),
        )
        .expect("written");
    }
    std::fs::write(dir.path().join("valid.json"), json!(valid).to_string()).expect("written");
    std::fs::write(dir.path().join("invalid.json"), json!(invalid).to_string()).expect("written");
    for (schema, data) in [
        ("colors.schema.json", "valid.json"),
        ("non-colors.schema.json", "invalid.json"),
    ] {
        let data = vec![data.to_owned()];
        let by_ajv = ajv_verdicts(&ajv, dir.path(), schema, &data);
        let by_check = check_verdicts(&check, dir.path(), schema, &data);
        if !by_ajv[0].1 || !by_check[0].1 {
            let mut args = vec!["validate", "--all-errors", "--errors=json"];
            args.extend(AJV_OPTIONS);
            args.extend(["-s", schema, "-d", &data[0]]);
            let output = run(&ajv, &args, dir.path());
            panic!(
                "{}: ajv valid={}, check-jsonschema valid={}\n{}",
                data[0],
                by_ajv[0].1,
                by_check[0].1,
                text(&output)
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 4. The book's commands

/// The commands of the book's block on strict validators
/// (`docs/fields-and-schema.md`), as run here:
/// `cardkit`, `npx ajv` and `check-jsonschema` are the programs found.
const BOOK_COMMANDS: &str = "\
cardkit schema set --container wrapped > set.schema.json
npx ajv compile --spec=draft2020 -c ajv-formats -s set.schema.json
npx ajv validate --spec=draft2020 -c ajv-formats -s set.schema.json -d set.json
check-jsonschema --schemafile set.schema.json set.json
";

#[test]
fn the_book_shows_these_commands() {
    let chapter =
        std::fs::read_to_string(support::workspace_dir().join("docs/fields-and-schema.md"))
            .expect("the book's chapter on JSON Schema");
    let block = format!("```sh\n{BOOK_COMMANDS}```");
    assert!(
        chapter.contains(&block),
        "docs/fields-and-schema.md should show:\n{block}"
    );
}

#[test]
fn the_books_commands_work() {
    let (Some(ajv), Some(check)) = (ajv(), check_jsonschema()) else {
        return;
    };
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::copy(
        support::workspace_dir().join("examples/valid/set-wrapped.json"),
        dir.path().join("set.json"),
    )
    .expect("copied");
    for line in BOOK_COMMANDS.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        let output = match &words[..] {
            ["cardkit", args @ .., ">", file] => {
                let printed = support::cardkit()
                    .current_dir(dir.path())
                    .args(args)
                    .output()
                    .expect("cardkit runs");
                std::fs::write(dir.path().join(file), &printed.stdout).expect("written");
                printed
            }
            ["npx", "ajv", args @ ..] => run(&ajv, args, dir.path()),
            ["check-jsonschema", args @ ..] => run(&check, args, dir.path()),
            _ => panic!("a command of the book that the test cannot run: {line}"),
        };
        assert!(output.status.success(), "{line}:\n{}", text(&output));
    }
}
