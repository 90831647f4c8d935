//! A run over many inputs, as every front end drives it: discovery, the JSON
//! Lines rule, counting, unreadable inputs, aborts and the exit status.

use std::fs;
use std::io::Read;

use cardkit::report::WarningFilter;
use cardkit::Options;
use cardkit_run::render::Json;
use cardkit_run::{
    discover, json_lines_by_name, open, ExitStatus, Failure, Input, Run, Settings, Surface,
};
use serde_json::Value;

const MIGRATION: &str = r#"{"object": "migration", "id": "0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e", "uri": "https://example.org/m/1", "created_at": "2023-01-15", "migration_strategy": "merge", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0", "new_catalogA_id": "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b"}"#;

/// Runs `Run::all` over `paths` with the JSON renderer; the report and the
/// exit status.
fn run(paths: &[&std::path::Path]) -> (Value, ExitStatus) {
    let mut out = Vec::new();
    let mut renderer = Json::new(WarningFilter::default());
    let mut run = Run::new(&mut renderer, &mut out, Options::default());
    run.validate_all(discover(paths), 2)
        .expect("writing to memory");
    let (_, status) = run.finish().expect("writing to memory");
    (
        serde_json::from_slice(&out).expect("the JSON report"),
        status,
    )
}

#[test]
fn directories_are_searched_in_name_order_for_json_endings_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["b.JSON", "a.ndjson", "c.txt", "sub/d.Jsonl"] {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "{}").unwrap();
    }
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let found = discover(&[dir.path(), &empty, std::path::Path::new("-")]);
    let names: Vec<String> = found
        .inputs
        .iter()
        .map(|input| match input {
            Input::Found(path) => path.strip_prefix(dir.path()).unwrap().display().to_string(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["a.ndjson", "b.JSON", "sub/d.Jsonl", "Stdin"]);
    assert_eq!(found.empty, [empty]);
}

#[test]
fn the_name_tells_json_lines_first_then_the_first_bytes() {
    assert_eq!(json_lines_by_name("x.JSONL"), Some(true));
    assert_eq!(json_lines_by_name("x.ndjson"), Some(true));
    assert_eq!(json_lines_by_name("x.json"), Some(false));
    assert_eq!(json_lines_by_name("x.txt"), None);
    let dir = tempfile::tempdir().unwrap();
    let lines = format!("{MIGRATION}\n{MIGRATION}\n");
    for (name, json_lines) in [("a.json", false), ("a.txt", true), ("a.jsonl", true)] {
        let path = dir.path().join(name);
        fs::write(&path, &lines).unwrap();
        let mut opened = open(Input::File(path)).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(opened.json_lines, json_lines, "{name}");
        assert_eq!(opened.size, Some(lines.len() as u64));
        // The bytes read to tell are given back.
        let mut read = String::new();
        opened.reader.read_to_string(&mut read).unwrap();
        assert_eq!(read, lines, "{name}");
    }
    // One value on many lines is not JSON Lines, whatever its name.
    let path = dir.path().join("one.txt");
    fs::write(&path, "{\n\"object\":\n\"migration\"}\n").unwrap();
    assert!(
        !open(Input::File(path))
            .unwrap_or_else(|e| panic!("{e:?}"))
            .json_lines
    );
}

#[test]
fn the_exit_status_is_the_worst_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let valid = dir.path().join("valid.jsonl");
    fs::write(&valid, format!("{MIGRATION}\n")).unwrap();
    let invalid = dir.path().join("invalid.json");
    fs::write(&invalid, r#"{"object": "migration"}"#).unwrap();
    let missing = dir.path().join("missing.json");
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();

    let (report, status) = run(&[&valid]);
    assert_eq!(
        (status, status.code()),
        (ExitStatus::Success, 0),
        "{report}"
    );
    let (_, status) = run(&[&valid, &invalid]);
    assert_eq!((status, status.code()), (ExitStatus::Failure, 1));
    let (report, status) = run(&[&missing, &invalid, &valid]);
    assert_eq!((status, status.code()), (ExitStatus::Error, 2));
    // The other paths are still checked.
    assert_eq!(report["summary"]["files"], 2);
    assert_eq!(report["summary"]["unreadable"], 1);
    assert_eq!(report["summary"]["documents"], 2);
    // A run that checked nothing does not pass.
    let (_, status) = run(&[&empty]);
    assert_eq!(status, ExitStatus::Error);
    assert_eq!(
        ExitStatus::Success.and(ExitStatus::Failure),
        ExitStatus::Failure
    );
}

#[test]
fn an_input_cut_short_counts_as_unreadable_and_an_abort_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<_> = (0..3)
        .map(|i| {
            let path = dir.path().join(format!("{i}.json"));
            fs::write(&path, MIGRATION).unwrap();
            path
        })
        .collect();
    let mut out = Vec::new();
    let mut renderer = Json::new(WarningFilter::default());
    let mut run = Run::new(&mut renderer, &mut out, Options::default());
    let mut seen = Vec::new();
    let mut check = |name: &str,
                     reader: &mut dyn Read,
                     _: &Options,
                     _: &mut dyn FnMut(&cardkit::DocumentReport)| {
        seen.push(name.to_owned());
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(Failure::Read)?;
        if name.ends_with("0.json") {
            Err(Failure::Read(std::io::Error::other("cut short")))
        } else {
            Err(Failure::Abort("the target refused a row".into()))
        }
    };
    run.all(discover(&paths), &mut check).unwrap();
    assert_eq!(run.aborted(), Some("the target refused a row"));
    let (summary, status) = run.finish().unwrap();
    // The third input is never read.
    assert_eq!(seen.len(), 2);
    assert_eq!(
        (summary.unreadable, summary.bytes),
        (1, MIGRATION.len() as u64)
    );
    assert_eq!(status, ExitStatus::Error);
}

#[test]
fn settings_map_to_options_and_a_lone_strict_version_is_refused() {
    // By default each file is checked as of its own version: newer fields
    // than it declares are errors.
    let settings = Settings {
        strict_version: true,
        ..Settings::default()
    };
    settings.check(Surface::CommandLine).unwrap();
    // As of the latest, no field is newer.
    let settings = Settings {
        strict_version: true,
        as_of_auto: false,
        ..Settings::default()
    };
    assert!(settings
        .check(Surface::CommandLine)
        .unwrap_err()
        .contains("--as-of"));
    assert_eq!(
        settings.check(Surface::Python).unwrap_err(),
        "strict_version needs as_of: it makes fields newer than that version errors"
    );
    // `--strict`: the spec's names, the latest version.
    let strict = Settings::default().strict();
    assert_eq!(
        (strict.names, strict.as_of, strict.as_of_auto),
        (cardkit::schema::Names::Spec, None, false)
    );
    let settings = Settings {
        as_of: Some("v5.0.0".parse().unwrap()),
        strict_version: true,
        deny_unknown_fields: true,
        warn_deprecated: true,
        ..Settings::default()
    };
    settings.check(Surface::CommandLine).unwrap();
    let options = settings.options(true);
    assert!(options.json_lines && options.strict_version && options.deny_unknown_fields);
    assert!(options.warn_deprecated);
    assert_eq!(options.as_of, settings.as_of);
}

#[test]
fn a_documents_place_is_worded_one_way() {
    let report = |line, pointer: &str| cardkit::DocumentReport {
        pointer: pointer.to_owned(),
        pointer_bytes: None,
        line,
        kind: None,
        diagnostics: Vec::new(),
        omitted: cardkit::validate::Omitted::default(),
        folded: cardkit::report::Folded::default(),
        ignored: 0,
        names: cardkit::schema::Names::Auto,
    };
    assert_eq!(report(None, "").place("a.json"), "a.json /");
    assert_eq!(
        report(None, "/data/NEO").place("a.json"),
        "a.json /data/NEO"
    );
    assert_eq!(report(Some(3), "").place("a.jsonl"), "a.jsonl:3");
    assert_eq!(
        report(Some(3), "/data/0").place("a.jsonl"),
        "a.jsonl:3 /data/0"
    );
    assert_eq!(report(Some(3), "").at(), "line 3");
    assert_eq!(report(None, "").at(), "/");
}
