//! The command line itself: the help, and the usage errors (unknown flags
//! and subcommands, missing paths, bad flag values, malformed versions) that
//! exit with status 2.

use crate::support;

use predicates::prelude::*;
use predicates::str::contains;
use support::cardkit;

#[test]
fn help_explains_every_flag_with_examples() {
    cardkit()
        .arg("--help")
        .assert()
        .code(0)
        .stdout(contains("validate"))
        .stdout(contains("dummy"))
        .stdout(contains("--help"))
        .stdout(contains("--version"))
        .stdout(contains("Examples:"))
        .stdout(contains("cardkit validate examples/"));

    let output = cardkit().args(["validate", "--help"]).assert().code(0);
    let help = String::from_utf8_lossy(&output.get_output().stdout).into_owned();
    for flag in [
        "--kind",
        "--format",
        "--deny-unknown-fields",
        "--as-of",
        "--strict-version",
        "--warn",
        "--warning-limit",
        "<PATH>",
        "--help",
    ] {
        assert!(
            help.contains(flag),
            "validate --help does not mention {flag}:\n{help}"
        );
    }
    for value in [
        "auto, template, card, set, migration",
        "text, concise, json",
    ] {
        assert!(
            help.contains(value),
            "validate --help does not list {value}"
        );
    }
    assert!(help.contains("Examples:"));
    assert!(help.contains("Exit status"));
    // PATH and each of the seven flags has its own example.
    assert!(help.matches("Example: ").count() >= 8, "{help}");

    cardkit()
        .args(["dummy", "--help"])
        .assert()
        .code(0)
        .stdout(contains("cardkit dummy > template.json"));
}

#[test]
fn usage_errors_exit_2() {
    cardkit()
        .args(["validate", "--bogus", "x.json"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("unexpected argument '--bogus'"));
    cardkit()
        .arg("validate")
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("required arguments were not provided").and(contains("<PATH>")));
    cardkit()
        .args(["validate", "--kind", "deck", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'deck' for '--kind <KIND>'"));
    cardkit()
        .args(["validate", "--format", "yaml", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'yaml'"));
    cardkit()
        .args(["validate", "--warning-limit", "many", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'many'"));
    cardkit().assert().code(2).stdout("");
    cardkit()
        .arg("frobnicate")
        .assert()
        .code(2)
        .stderr(contains("unrecognized subcommand 'frobnicate'"));
}

#[test]
fn a_malformed_or_too_old_version_is_a_usage_error() {
    for (version, why) in [
        ("5.x", "is not a version tag: expected vMAJOR.MINOR.PATCH"),
        ("v5.2", "is not a version tag"),
        (
            "v3.9.9",
            "older than the first version of the format (v4.0.0)",
        ),
    ] {
        cardkit()
            .args(["validate", "--as-of", version, "x.json"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(format!(
                "invalid value '{version}' for '--as-of <auto|latest|vX.Y.Z>'"
            )))
            .stderr(contains(why));
    }
    cardkit()
        .args([
            "validate",
            "--as-of",
            "latest",
            "--strict-version",
            "x.json",
        ])
        .assert()
        .code(2)
        .stderr(contains("--as-of"));
    cardkit()
        .args(["validate", "--warn", "everything", "x.json"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'everything' for '--warn <WHAT>'"));
}
