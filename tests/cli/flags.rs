//! The flags of `cardkit validate` that change its verdict or its report:
//! `--kind`, `--deny-unknown-fields`, `--warning-limit`, `--as-of` with
//! `--strict-version`, and `--warn deprecated`.

use crate::support;

use predicates::str::contains;
use serde_json::Value;
use support::migrations::MIGRATION;
use support::report::{codes, json_report};
use support::{cardkit, dir_with, show};

/// A valid migration with one unknown member `colour` (line 2, column 2).
const MIGRATION_WITH_UNKNOWN: &str = r#"{"object": "migration", "uri": "https://e.org/m",
 "colour": "red", "created_at": "2023-01-15", "migration_strategy": "delete",
 "old_catalogA_id": "2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0"}
"#;

#[test]
fn kind_forces_the_kind_of_every_document() {
    let dir = dir_with(&[("m.json", MIGRATION)]);
    let path = show(&dir.path().join("m.json"));
    cardkit()
        .args(["validate", "--kind", "migration", &path])
        .assert()
        .code(0);
    cardkit()
        .args(["validate", "--kind", "set", &path])
        .assert()
        .code(1)
        // The members a set has and a migration has not: one block.
        .stdout(contains(format!(
            "{path}:1:1: error[missing_field]: missing required fields `baseSetSize`, `cards`, `code`, "
        )))
        .stdout(contains(format!(
            "{path}:2:3: warning[unknown_field]: unknown field `object` in Set"
        )));

    let report = json_report(&["--kind", "set", &path], None, 1);
    let document = &report["files"][0]["documents"][0];
    assert_eq!(document["kind"], "set");
    assert!(codes(document).contains(&"missing_field"));
    assert_eq!(report["summary"]["invalid"], 1);
}

#[test]
fn deny_unknown_fields_makes_unknown_fields_errors() {
    let dir = dir_with(&[("m.json", MIGRATION_WITH_UNKNOWN)]);
    let path = show(&dir.path().join("m.json"));
    cardkit()
        .args(["validate", &path])
        .assert()
        .code(0)
        .stdout(contains(format!(
            "{path}:2:2: warning[unknown_field]: unknown field `colour` in Migration"
        )))
        .stdout(contains(
            "checked 1 document in 1 file: 1 valid, 0 invalid\n\
             warnings: 1 (unknown_field 1)\n",
        ));
    cardkit()
        .args(["validate", "--deny-unknown-fields", &path])
        .assert()
        .code(1)
        .stdout(contains(format!(
            "{path}:2:2: error[unknown_field]: unknown field `colour` in Migration"
        )))
        .stdout(contains(
            "checked 1 document in 1 file: 0 valid, 1 invalid\n\
             errors: 1 (unknown_field 1)\n",
        ));
    let report = json_report(&["--deny-unknown-fields", &path], None, 1);
    let diagnostic = &report["files"][0]["documents"][0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "unknown_field");
    assert_eq!(diagnostic["severity"], "error");
}

/// A template whose five fonts each have the same unknown member `colour`.
const FIVE_UNKNOWN_FONT_FIELDS: &str = r#"{
  "name": "Fonts",
  "context": {
    "fonts": [
      {"name": "A", "src": "a.woff2", "colour": "red"},
      {"name": "B", "src": "b.woff2", "colour": "red"},
      {"name": "C", "src": "c.woff2", "colour": "red"},
      {"name": "D", "src": "d.woff2", "colour": "red"},
      {"name": "E", "src": "e.woff2", "colour": "red"}
    ]
  },
  "card": {"name": "Card", "width": 100, "height": 100, "data": {"type": "group", "children": []}}
}
"#;

#[test]
fn warning_limit_holds_back_repeated_warnings() {
    let dir = dir_with(&[("t.json", FIVE_UNKNOWN_FONT_FIELDS)]);
    let path = show(&dir.path().join("t.json"));
    let shown = |stdout: &str| stdout.matches("warning[unknown_field]").count();

    let output = cardkit().args(["validate", &path]).assert().code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(shown(&stdout), 3, "{stdout}");
    for line in 5..=7 {
        assert!(stdout.contains(&format!("{path}:{line}:39: warning[unknown_field]")));
    }
    assert!(stdout.contains(
        "note: 2 more unknown_field warnings like TemplateFont.colour not shown (5 in all)\n\
         checked 1 document in 1 file: 1 valid, 0 invalid\n\
         warnings: 5 (unknown_field 5)\n"
    ));

    let output = cardkit()
        .args(["validate", "--warning-limit", "0", &path])
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(shown(&stdout), 5, "{stdout}");
    assert!(!stdout.contains("note:"));

    let output = cardkit()
        .args(["validate", "--warning-limit", "4", &path])
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(shown(&stdout), 4, "{stdout}");
    assert!(stdout.contains("note: 1 more unknown_field warnings like TemplateFont.colour"));

    // JSON: the shown warnings are listed, the rest counted in `suppressed`.
    let report = json_report(&[&path], None, 0);
    assert_eq!(codes(&report["files"][0]["documents"][0]).len(), 3);
    assert_eq!(
        report["suppressed"],
        serde_json::json!([
            {"code": "unknown_field", "pattern": "TemplateFont.colour", "total": 5, "shown": 3}
        ])
    );
    assert_eq!(report["summary"]["warnings"]["unknown_field"], 5);
    let report = json_report(&["--warning-limit", "0", &path], None, 0);
    assert_eq!(codes(&report["files"][0]["documents"][0]).len(), 5);
    assert_eq!(report["suppressed"], Value::Array(Vec::new()));
}

#[test]
fn warning_limit_never_holds_back_errors() {
    let dir = dir_with(&[("t.json", FIVE_UNKNOWN_FONT_FIELDS)]);
    let path = show(&dir.path().join("t.json"));
    let output = cardkit()
        .args([
            "validate",
            "--deny-unknown-fields",
            "--warning-limit",
            "1",
            &path,
        ])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(
        stdout.matches("error[unknown_field]").count(),
        5,
        "{stdout}"
    );
    assert!(!stdout.contains("note:"));
}

/// A set of 4 cards in the v5.2.1 shape: each card carries the deprecated
/// `convertedManaCost`, `hasFoil` and `hasNonFoil`, and `language` (v5.2.1).
fn set_with_cards(cards: usize) -> String {
    let card = r#"{"uuid": "5f8287b1-5bb6-5f4c-ad17-316a40d5bb01", "availability": ["paper"],
      "borderColor": "black", "colorIdentity": [], "colors": [], "convertedManaCost": 1,
      "finishes": ["nonfoil"], "foreignData": [], "frameVersion": "2015", "hasFoil": false,
      "hasNonFoil": true, "identifiers": {}, "language": "English", "layout": "normal",
      "legalities": {}, "manaValue": 1, "name": "Spark", "number": "1", "purchaseUrls": {},
      "rarity": "common", "setCode": "EXA", "subtypes": [], "supertypes": [],
      "type": "Instant", "types": ["Instant"]}"#;
    let cards = vec![card; cards].join(",\n    ");
    format!(
        r#"{{"baseSetSize": 1, "cards": [{cards}], "code": "EXA", "iconCode": "exa",
  "isFoilOnly": false, "isOnlineOnly": false, "languages": ["English"], "name": "Example",
  "releaseDate": "2024-05-17", "sealedProduct": null, "tokens": [], "totalSetSize": 1,
  "translations": {{}}, "type": "expansion"}}"#
    )
}

#[test]
fn as_of_reports_newer_fields_and_does_not_require_them() {
    let dir = dir_with(&[("set.json", &set_with_cards(4))]);
    let path = show(&dir.path().join("set.json"));
    let report = json_report(&["--as-of", "v5.2.0", &path], None, 0);
    // `languages` and four cards' `language` came in v5.2.1.
    assert_eq!(
        report["summary"]["warnings"],
        serde_json::json!({"newer_field": 5})
    );
    let report = json_report(&["--as-of", "v5.2.0", "--strict-version", &path], None, 1);
    assert_eq!(
        report["summary"]["errors"],
        serde_json::json!({"newer_field": 5})
    );
    // Without `languages`, the document is still valid for v5.2.0 consumers,
    // and invalid for v5.2.1 ones.
    let without = set_with_cards(1).replace(r#""languages": ["English"], "#, "");
    let dir = dir_with(&[("old.json", &without)]);
    let old = show(&dir.path().join("old.json"));
    cardkit()
        .args(["validate", "--as-of", "5.2.0", &old])
        .assert()
        .code(0);
    cardkit()
        .args(["validate", "--as-of", "v5.2.1", &old])
        .assert()
        .code(1)
        .stdout(contains(
            "error[missing_field]: missing required field `languages` of Set",
        ));
}

#[test]
fn warn_deprecated_is_summarised_per_field() {
    let dir = dir_with(&[("set.json", &set_with_cards(4))]);
    let path = show(&dir.path().join("set.json"));
    let output = cardkit().args(["validate", &path]).assert().code(0);
    let quiet = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert!(!quiet.contains("deprecated"), "{quiet}");

    let output = cardkit()
        .args(["validate", "--warn", "deprecated", &path])
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    assert_eq!(
        stdout.matches("warning[deprecated_field]").count(),
        9,
        "{stdout}"
    );
    for field in ["convertedManaCost", "hasFoil", "hasNonFoil"] {
        assert!(stdout.contains(&format!(
            "note: 1 more deprecated_field warnings like CardSet.{field} not shown (4 in all)"
        )));
    }
    assert!(
        stdout.contains("warnings: 12 (deprecated_field 12)"),
        "{stdout}"
    );
}
