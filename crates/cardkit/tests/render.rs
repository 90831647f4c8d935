//! Snapshots of what a user reads: the text report (diagnostics with their
//! source excerpt and caret, the notes on held-back warnings, the closing
//! totals) and the JSON report, for inputs chosen to exercise each part of
//! the rendering.
//!
//! The snapshots are in `tests/snapshots/`; after a deliberate change of the
//! output, regenerate them with
//! `INSTA_UPDATE=always cargo test -p cardkit --test render` and review the
//! diff.

use cardkit::report::{Summary, WarningFilter};
use cardkit::validate::{validate, Options};
use cardkit::Kind;
use cardkit_run::render::{Json, Renderer, Text};

/// One input of a run.
enum Input<'a> {
    /// A file read with the given options.
    File(&'a str, &'a str, Options),
    /// A path that could not be read, with the reason.
    Unreadable(&'a str, &'a str),
}

fn file<'a>(path: &'a str, source: &'a str) -> Input<'a> {
    Input::File(path, source, Options::default())
}

/// Renders a run over `inputs` with `renderer`, as the CLI does.
fn render(renderer: &mut dyn Renderer, inputs: &[Input<'_>]) -> String {
    let mut out = Vec::new();
    let mut summary = Summary::default();
    for input in inputs {
        match input {
            Input::File(path, source, options) => {
                let report = validate(source.as_bytes(), options);
                summary.add(&report, source.len() as u64);
                renderer
                    .file(&mut out, path, &report)
                    .expect("write to a Vec");
            }
            Input::Unreadable(path, error) => {
                summary.add_unreadable();
                renderer
                    .unreadable(&mut out, path, error)
                    .expect("write to a Vec");
            }
        }
    }
    renderer.finish(&mut out, &summary).expect("write to a Vec");
    String::from_utf8(out).expect("the output is UTF-8")
}

fn text(inputs: &[Input<'_>], limit: usize) -> String {
    render(&mut Text::new(WarningFilter::new(limit)), inputs)
}

/// The JSON report, checked to be one JSON value and indented for reading
/// (members keep their order).
fn json(inputs: &[Input<'_>], limit: usize) -> String {
    let raw = render(&mut Json::new(WarningFilter::new(limit)), inputs);
    let parsed: serde_json::Value = serde_json::from_str(&raw)
        .unwrap_or_else(|error| panic!("the JSON report is not JSON ({error}):\n{raw}"));
    let pretty = indent(&raw);
    let reparsed: serde_json::Value = serde_json::from_str(&pretty).expect("indented JSON");
    assert_eq!(parsed, reparsed, "indenting changed the report");
    pretty
}

/// Indents JSON text two spaces a level, keeping members in their order
/// (`serde_json::Value` would sort them). Empty arrays and objects stay `[]`
/// and `{}`.
fn indent(raw: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let (mut in_string, mut escaped) = (false, false);
    let mut chars = raw.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
                out.push(c);
                if chars.peek().is_some_and(|&next| next == '}' || next == ']') {
                    out.push(chars.next().expect("peeked"));
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth -= 1;
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out.push('\n');
    out
}

/// Snapshots the text and the JSON report of a run as `<name>_text` and
/// `<name>_json`.
fn snapshot(name: &str, inputs: &[Input<'_>], limit: usize) {
    insta::assert_snapshot!(format!("{name}_text"), text(inputs, limit));
    insta::assert_snapshot!(format!("{name}_json"), json(inputs, limit));
}

/// A template with problems on many lines: wrong types, missing members (the
/// caret on their object), a bad color and enum, an unknown layer type, and
/// line numbers that grow from one digit to two.
const SEVERAL_ERRORS: &str = r#"{
  "name": "Classic",
  "context": {
    "fonts": [
      {"name": "Beleren", "src": 42},
      {"weight": "bold"}
    ],
    "imageSets": "none"
  },
  "card": {
    "name": "Classic",
    "width": "750",
    "height": 1050,
    "corners": null,
    "data": {
      "type": "group",
      "children": [
        {"type": "text", "text": "Hi", "size": 12, "x": 0, "y": 0, "width": 10, "height": 10,
         "color": "not-a-color", "align": "justify"},
        {"type": "video"}
      ]
    }
  }
}
"#;

#[test]
fn several_errors_on_several_lines() {
    snapshot(
        "several_errors",
        &[file("templates/classic.json", SEVERAL_ERRORS)],
        WarningFilter::DEFAULT_LIMIT,
    );
}

/// Migrations on one long line: an error near its start (the excerpt is cut
/// at the end only) and errors far into it (cut on both sides with `…`).
fn long_line() -> String {
    let migration = |id: &str, created: &str| {
        format!(
            r#"{{"object": "migration", "id": {id}, "uri": "https://api.catalog.example.org/migrations/0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e", "created_at": "{created}", "migration_strategy": "merge", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0", "new_catalogA_id": null, "note": "Merged the duplicate printing into its original."}}"#
        )
    };
    format!(
        "[{}, {}, {}]",
        migration("5", "2023-01-15"),
        migration(r#""0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e""#, "2023-02-30"),
        migration(r#""0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e""#, "2023-03-01"),
    )
}

#[test]
fn long_single_line_is_cut_around_the_caret() {
    let source = long_line();
    assert!(!source.contains('\n'));
    snapshot(
        "long_line",
        &[file("migrations.json", &source)],
        WarningFilter::DEFAULT_LIMIT,
    );
}

/// Multi-byte characters (2 and 3 bytes, all one column wide) before the
/// errors on their line: the column counts characters, not bytes, and the
/// caret stays under the value.
const MULTI_BYTE: &str = r#"{"card": {"name": "Crème brûlée ✓", "width": "100", "height": 100,
  "data": {"type": "group", "children": [
    {"type": "text", "text": "Ça va — ñ", "size": 1.5, "x": 0, "y": 0, "width": 1, "height": 1}]}},
  "name": "Ünïcødé", "context": {}}
"#;

#[test]
fn multi_byte_characters_are_counted_as_one_column() {
    let width = MULTI_BYTE.find("\"100\"").expect("the width");
    let chars_before = MULTI_BYTE[..width].chars().count();
    assert!(
        chars_before < width,
        "the fixture has multi-byte characters"
    );
    let report = validate(MULTI_BYTE.as_bytes(), &Options::default());
    let diagnostic = &report.documents[0].diagnostics[0];
    assert_eq!(diagnostic.pointer, "/card/width");
    assert_eq!(diagnostic.offset, width);
    assert_eq!(diagnostic.column, chars_before + 1);
    snapshot(
        "multi_byte",
        &[file("crème.json", MULTI_BYTE)],
        WarningFilter::DEFAULT_LIMIT,
    );
}

/// JSON Lines: a valid line, a line with an error, a blank line (still
/// counted in line numbers) and a line cut short.
const JSON_LINES: &str = r#"{"object": "migration", "uri": "https://e.org/m/1", "created_at": "2023-01-15", "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}
{"object": "migration", "uri": "https://e.org/m/2", "created_at": "15/01/2023", "migration_strategy": "split", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}

{"object": "migration", "uri": "https://e.org/m/4", "created_at": "2023-01-15",
"#;

#[test]
fn json_lines_report_each_line() {
    snapshot(
        "json_lines",
        &[Input::File(
            "migrations.jsonl",
            JSON_LINES,
            Options {
                json_lines: true,
                ..Options::default()
            },
        )],
        WarningFilter::DEFAULT_LIMIT,
    );
}

#[test]
fn an_unreadable_path() {
    snapshot(
        "unreadable",
        &[
            Input::Unreadable(
                "sets/missing.json",
                "No such file or directory (os error 2)",
            ),
            file(
                "migration.json",
                r#"{"object": "migration", "uri": "https://e.org/m", "created_at": "2023-01-15", "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}"#,
            ),
        ],
        WarningFilter::DEFAULT_LIMIT,
    );
}

/// A template whose five fonts have the same unknown member (more than the
/// limit) and whose first two also have another (fewer than the limit).
const REPEATED_WARNINGS: &str = r#"{
  "name": "Fonts",
  "context": {
    "fonts": [
      {"name": "A", "src": "a.woff2", "colour": "red", "kerning": 1},
      {"name": "B", "src": "b.woff2", "colour": "red", "kerning": 1},
      {"name": "C", "src": "c.woff2", "colour": "red"},
      {"name": "D", "src": "d.woff2", "colour": "red"},
      {"name": "E", "src": "e.woff2", "colour": "red"}
    ]
  },
  "card": {"name": "Card", "width": 100, "height": 100, "data": {"type": "group", "children": []}}
}
"#;

#[test]
fn repeated_warnings_beyond_the_limit_are_counted() {
    snapshot(
        "repeated_warnings",
        &[file("fonts.json", REPEATED_WARNINGS)],
        WarningFilter::DEFAULT_LIMIT,
    );
    // With no limit (the CLI's `--warning-limit 0`), every warning is shown.
    let all = text(&[file("fonts.json", REPEATED_WARNINGS)], usize::MAX);
    assert_eq!(all.matches("warning[unknown_field]").count(), 7);
    assert!(!all.contains("note:"));
}

/// A run over several inputs: a valid file (nothing but totals), an empty one,
/// one that is not JSON, one forced to the wrong kind, and an unreadable path.
#[test]
fn a_run_over_several_files() {
    let migration = r#"{"object": "migration", "uri": "https://e.org/m", "created_at": "2023-01-15", "migration_strategy": "delete", "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}"#;
    snapshot(
        "run",
        &[
            file("ok.json", migration),
            file("empty.json", ""),
            file(
                "broken.json",
                "{\"name\": \"Classic\", \"card\": {\"name\": \"x\",, }\n",
            ),
            Input::File(
                "as-card.json",
                r#"{"name": "Dummy", "width": 100, "height": 100, "data": {"type": "group", "children": []}}"#,
                Options {
                    kind: Some(Kind::Template),
                    ..Options::default()
                },
            ),
            Input::Unreadable("gone.json", "Permission denied (os error 13)"),
        ],
        WarningFilter::DEFAULT_LIMIT,
    );
}

/// A set in the v5.2.1 shape, pretty-printed: two cards with the deprecated
/// `hasFoil`, and `languages`, `language` (v5.2.1) and `finishes` (v5.2.0).
const VERSIONED_SET: &str = r#"{
  "baseSetSize": 2,
  "cards": [
    {"uuid": "5f8287b1-5bb6-5f4c-ad17-316a40d5bb01", "availability": ["paper"], "borderColor": "black",
     "colorIdentity": [], "colors": [], "convertedManaCost": 1, "finishes": ["nonfoil"],
     "foreignData": [], "frameVersion": "2015", "hasFoil": false, "hasNonFoil": true,
     "identifiers": {}, "language": "English", "layout": "normal", "legalities": {},
     "manaValue": 1, "name": "Spark", "number": "1", "purchaseUrls": {}, "rarity": "common",
     "setCode": "EXA", "subtypes": [], "supertypes": [], "type": "Instant", "types": ["Instant"]},
    {"uuid": "6f8287b1-5bb6-5f4c-ad17-316a40d5bb02", "availability": ["paper"], "borderColor": "black",
     "colorIdentity": [], "colors": [], "convertedManaCost": 2, "finishes": ["nonfoil"],
     "foreignData": [], "frameVersion": "2015", "hasFoil": true, "hasNonFoil": true,
     "identifiers": {}, "language": "English", "layout": "normal", "legalities": {},
     "manaValue": 2, "name": "Flame", "number": "2", "purchaseUrls": {}, "rarity": "common",
     "setCode": "EXA", "subtypes": [], "supertypes": [], "type": "Instant", "types": ["Instant"]}
  ],
  "code": "EXA", "iconCode": "exa", "isFoilOnly": false, "isOnlineOnly": false,
  "languages": ["English"], "name": "Example", "releaseDate": "2024-05-17",
  "sealedProduct": null, "tokens": [], "totalSetSize": 2, "translations": {}, "type": "expansion"
}
"#;

#[test]
fn fields_newer_than_a_version_and_deprecated_fields() {
    let options = Options {
        as_of: Some("v5.1.0".parse().expect("a version")),
        warn_deprecated: true,
        ..Options::default()
    };
    snapshot(
        "versions",
        &[Input::File("set.json", VERSIONED_SET, options)],
        1,
    );
}

/// A template whose fonts miss members: the first misses `name`, the second
/// `name` and `src`, the third both again. In text, the members missing from
/// one object are one block; with one error of a kind shown
/// (`--error-limit 1`), a block names only the members still shown (the
/// second font's `src`, shown alone as its own diagnostic) and the others
/// are counted in the closing notes. Every other format keeps a diagnostic
/// per member.
const MISSING_MEMBERS: &str = r#"{
  "name": "Fonts",
  "context": {
    "fonts": [
      {"src": "a.woff2"},
      {"weight": "bold"},
      {"weight": "light"}
    ]
  },
  "card": {"name": "Card", "width": 100, "height": 100, "data": {"type": "group", "children": []}}
}
"#;

#[test]
fn the_members_missing_from_one_object_are_one_block_in_text() {
    let inputs = [file("fonts.json", MISSING_MEMBERS)];
    let all = text(&inputs, WarningFilter::DEFAULT_LIMIT);
    assert_eq!(all.matches("error[missing_field]").count(), 3, "{all}");
    assert_eq!(
        all.matches("missing required fields `name`, `src` of TemplateFont")
            .count(),
        2,
        "{all}"
    );
    let folded = render(
        &mut Text::new(WarningFilter::new(WarningFilter::DEFAULT_LIMIT).with_error_limit(1)),
        &inputs,
    );
    insta::assert_snapshot!("missing_members_folded_text", folded);
    // The JSON report keeps a diagnostic per member, with its pointer.
    let report: serde_json::Value =
        serde_json::from_str(&render(&mut Json::default(), &inputs)).expect("JSON");
    let pointers: Vec<&str> = report["files"][0]["documents"][0]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["pointer"].as_str().expect("a pointer"))
        .collect();
    assert_eq!(
        pointers,
        [
            "/context/fonts/0/name",
            "/context/fonts/1/name",
            "/context/fonts/1/src",
            "/context/fonts/2/name",
            "/context/fonts/2/src",
        ]
    );
}
