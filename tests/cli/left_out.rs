//! The validate-only build (`cargo build --no-default-features`; see
//! [`support::validate_only_cardkit`]): its help names the commands it
//! leaves out and the feature that builds each, and running one is a usage
//! error that says so, never a panic; validation and the light commands are
//! all there.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::support;

/// Every command a feature builds, with the feature.
const FEATURE_COMMANDS: &[(&str, &str)] = &[
    ("import", "design"),
    ("layers", "design"),
    ("expand", "design"),
    ("assets", "design"),
    ("symbols", "design"),
    ("render", "render"),
    ("export", "export"),
    ("diff", "diff"),
    ("migrate", "diff"),
    ("serve", "serve"),
];

/// The validate-only `cardkit` and the commands it leaves out: all of the
/// features' when it is the build `CARDKIT_VALIDATE_ONLY` names, those of
/// the features this test binary was built without when it is its own.
fn validate_only() -> Option<(PathBuf, Vec<(&'static str, &'static str)>)> {
    let cardkit = support::validate_only_cardkit()?;
    let left_out = FEATURE_COMMANDS
        .iter()
        .copied()
        .filter(|(_, feature)| {
            std::env::var_os("CARDKIT_VALIDATE_ONLY").is_some_and(|p| !p.is_empty())
                || match *feature {
                    "design" => cfg!(not(feature = "design")),
                    "render" => cfg!(not(feature = "render")),
                    "export" => cfg!(not(feature = "export")),
                    "diff" => cfg!(not(feature = "diff")),
                    _ => cfg!(not(feature = "serve")),
                }
        })
        .collect();
    Some((cardkit, left_out))
}

fn run(cardkit: &PathBuf, args: &[&str]) -> Output {
    Command::new(cardkit)
        .args(args)
        .current_dir(support::workspace_dir())
        .output()
        .expect("cardkit runs")
}

#[test]
fn the_help_names_what_is_left_out_and_the_feature_that_builds_it() {
    let Some((cardkit, left_out)) = validate_only() else {
        return;
    };
    let output = run(&cardkit, &["--help"]);
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8_lossy(&output.stdout);
    let (_, after) = help
        .split_once("Left out of this build")
        .unwrap_or_else(|| panic!("the help names what is left out:\n{help}"));
    let commands = help
        .split_once("Commands:")
        .and_then(|(_, rest)| rest.split_once("Options:"))
        .map(|(commands, _)| commands)
        .expect("the help lists the commands");
    for (command, feature) in left_out {
        let line = after
            .lines()
            .find_map(|line| line.strip_prefix(&format!("  {feature}: ")))
            .unwrap_or_else(|| panic!("no line for the feature {feature}:\n{help}"));
        assert!(
            line.split(", ").any(|name| name == command),
            "{command}:\n{help}"
        );
        assert!(
            !commands.contains(&format!("\n  {command} ")),
            "{command} is listed as a command:\n{help}"
        );
    }
    assert!(commands.contains("\n  validate "), "{help}");
}

#[test]
fn a_command_left_out_is_a_usage_error_naming_its_feature() {
    let Some((cardkit, left_out)) = validate_only() else {
        return;
    };
    assert!(!left_out.is_empty());
    for (command, feature) in left_out {
        for args in [
            vec![command],
            vec![command, "--help"],
            vec!["help", command],
        ] {
            let output = run(&cardkit, &args);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!("`cardkit {command}` is not in this build"))
                    && stderr.contains(&format!("cargo feature `{feature}`")),
                "{args:?}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
            assert!(output.stdout.is_empty(), "{args:?}");
        }
    }
}

/// The commands a build without the default features keeps.
#[test]
fn validation_and_the_light_commands_are_there() {
    let Some((cardkit, left_out)) = validate_only() else {
        return;
    };
    let output = run(&cardkit, &["validate", "examples/valid"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains(" 0 invalid"), "{stdout}");
    let output = run(
        &cardkit,
        &["validate", "--format", "sarif", "examples/invalid"],
    );
    assert_eq!(output.status.code(), Some(1));
    let sarif: serde_json::Value = serde_json::from_slice(&output.stdout).expect("SARIF");
    assert!(!sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .is_empty());
    for args in [
        &["explain", "missing_field"][..],
        &["explain", "set", "/cards/0/uuid"],
        &["schema", "set"],
        &["fields", "card"],
        &["config"],
        &["dummy"],
        &["completions", "bash"],
        &["man"],
    ] {
        let output = run(&cardkit, args);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(!output.stdout.is_empty(), "{args:?}");
    }
    // The import's codes are explained as every build explains them, the
    // import's diagnostics on their examples included, with a note that
    // `cardkit import` itself is left out.
    if left_out.iter().any(|(_, feature)| *feature == "design") {
        let code = cardkit::Code::ALL
            .iter()
            .find(|code| code.is_import())
            .expect("an import code");
        let output = run(&cardkit, &["explain", code.as_str()]);
        assert_eq!(output.status.code(), Some(0));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("cargo feature `design`"), "{stderr}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains(&format!("[{code}]: ")), "{stdout}");
    }
}
