//! The GitHub Action's validation step (`action.yml`), run with bash as the
//! runner runs it: its inputs come in through the environment, the `args`
//! input is split on white space with no wildcards and reaches both runs,
//! and the step's status is cardkit's.

use std::path::Path;
use std::process::{Command, Output};

use support::{dir_with, workspace_dir};

use crate::support;

/// The script of the step named `name` in `action.yml` (its `run: |`
/// block, unindented).
fn step_script(name: &str) -> String {
    let action = std::fs::read_to_string(workspace_dir().join("action.yml")).expect("action.yml");
    let step = action
        .split(&format!("    - name: {name}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("action.yml has a step named {name}"));
    let block = step
        .split("      run: |\n")
        .nth(1)
        .expect("the step runs a script");
    block
        .lines()
        .take_while(|line| line.is_empty() || line.starts_with("        "))
        .map(|line| line.get(8..).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the validation step in `dir` with the inputs given (`paths`,
/// `kind`, `sarif`, `args`) and the validate-only `cardkit` the action
/// installs on the PATH (see [`support::validate_only_bin_dir`]).
fn validate_step(dir: &Path, inputs: &[(&str, &str)]) -> Output {
    let bin = support::validate_only_bin_dir();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("a PATH");
    let mut command = Command::new("bash");
    command
        .arg("-e")
        .arg("-c")
        .arg(step_script("Validate"))
        .current_dir(dir)
        .env("PATH", path);
    for input in ["paths", "kind", "sarif", "args"] {
        let value = inputs
            .iter()
            .find(|(name, _)| *name == input)
            .map_or("", |(_, value)| *value);
        command.env(format!("CARDKIT_{}", input.to_uppercase()), value);
    }
    command.output().expect("bash runs")
}

fn annotations(output: &Output) -> usize {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|l| l.starts_with("::error file=") || l.starts_with("::warning file="))
        .count()
}

/// Three files with two missing members each.
fn invalid_files() -> tempfile::TempDir {
    let migration =
        "{\"object\": \"migration\", \"id\": \"0fca5b4c-3a5a-4a22-bd26-4b7a3f1b4c9e\", \
                     \"old_catalogA_id\": \"2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0\", \
                     \"new_catalogA_id\": \"7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b\"}";
    dir_with(&[
        ("a.json", migration),
        ("b.json", migration),
        ("c.json", migration),
    ])
}

#[test]
fn args_reach_both_runs_split_on_white_space() {
    let dir = invalid_files();
    let all = validate_step(dir.path(), &[("paths", "a.json b.json c.json")]);
    assert_eq!(all.status.code(), Some(1));
    assert_eq!(annotations(&all), 6);
    let capped = validate_step(
        dir.path(),
        &[
            ("paths", "a.json\nb.json c.json"),
            ("args", "  --max-results\n 4\t"),
            ("sarif", "reports/cardkit.sarif"),
        ],
    );
    let stdout = String::from_utf8_lossy(&capped.stdout);
    assert_eq!(capped.status.code(), Some(1), "{stdout}");
    assert_eq!(annotations(&capped), 4, "{stdout}");
    assert!(
        stdout.contains("2 annotations were left out (cap 4)"),
        "{stdout}"
    );
    let sarif = std::fs::read(dir.path().join("reports/cardkit.sarif")).expect("the report");
    let sarif: serde_json::Value = serde_json::from_slice(&sarif).expect("SARIF is JSON");
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(4)
    );
}

/// A wildcard in `args` is an argument as it is, not the files it would
/// match; quotes are characters.
#[test]
fn args_are_taken_literally() {
    let dir = invalid_files();
    let output = validate_step(
        dir.path(),
        &[("paths", "a.json"), ("args", "--kind *.json")],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("'*.json'"), "{stderr}");
    let output = validate_step(
        dir.path(),
        &[("paths", "a.json"), ("args", "--max-results '1 2'")],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("''1'"), "{stderr}");
}

/// The install is skipped when the cache restored cardkit, and the cache
/// is keyed on the runner's system and the action's files.
#[test]
fn the_build_is_cached_by_system_and_sources() {
    let action = std::fs::read_to_string(workspace_dir().join("action.yml")).expect("action.yml");
    let install = action
        .split("    - name: Install cardkit\n")
        .nth(1)
        .expect("an install step");
    assert!(
        install.starts_with("      if: steps.cache.outputs.cache-hit != 'true'\n"),
        "{install}"
    );
    assert!(action.contains("uses: actions/cache@v4"));
    let find = step_script("Find cardkit's build");
    assert!(find.contains("$RUNNER_OS-$RUNNER_ARCH"), "{find}");
    // The digest changes with the action's files, and only with them.
    let run = |root: &Path| -> String {
        let outputs = tempfile::NamedTempFile::new().expect("a file");
        let path = tempfile::NamedTempFile::new().expect("a file");
        let status = Command::new("bash")
            .args(["-e", "-c", &find])
            .env("GITHUB_ACTION_PATH", root)
            .env("GITHUB_OUTPUT", outputs.path())
            .env("GITHUB_PATH", path.path())
            .env("RUNNER_TEMP", "/runner/temp")
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("CARDKIT_REF", "v1/x")
            .status()
            .expect("bash runs");
        assert!(status.success());
        let outputs = std::fs::read_to_string(outputs.path()).expect("outputs");
        assert_eq!(
            std::fs::read_to_string(path.path()).expect("the PATH"),
            "/runner/temp/cardkit-action/bin\n"
        );
        outputs
            .lines()
            .find_map(|line| line.strip_prefix("key="))
            .expect("a key")
            .to_owned()
    };
    let sources = dir_with(&[
        ("Cargo.toml", "[package]\n"),
        ("src/main.rs", "fn main() {}\n"),
    ]);
    let key = run(sources.path());
    assert!(key.starts_with("cardkit-Linux-X64-v1_x-"), "{key}");
    std::fs::create_dir(sources.path().join("target")).expect("a folder");
    std::fs::write(sources.path().join("target/built"), "").expect("a file");
    assert_eq!(run(sources.path()), key, "what was built is no source");
    std::fs::write(sources.path().join("src/main.rs"), "fn main() { }\n").expect("a file");
    assert_ne!(run(sources.path()), key);
}

/// The action installs the validate-only build (no default features), and
/// the `cardkit` its validation step is tested with above is that build.
#[test]
fn the_action_installs_the_validate_only_build() {
    let action = std::fs::read_to_string(workspace_dir().join("action.yml")).expect("action.yml");
    let install = action
        .split("    - name: Install cardkit\n")
        .nth(1)
        .and_then(|step| step.split("\n    - name: ").next())
        .expect("an install step");
    let run = install
        .lines()
        .find_map(|line| line.trim_start().strip_prefix("run: "))
        .expect("the install step runs a command");
    assert!(
        run.starts_with("cargo install ")
            && run.contains(" --no-default-features ")
            && run.contains(" --locked ")
            && run.contains("--path \"$GITHUB_ACTION_PATH\""),
        "{run}"
    );
    assert!(!run.contains("--features"), "{run}");

    // The validate-only build, whose help names the commands it leaves out.
    let Some(bin) = support::validate_only_cardkit() else {
        return;
    };
    let help = Command::new(&bin)
        .arg("--help")
        .output()
        .expect("cardkit runs");
    let help = String::from_utf8_lossy(&help.stdout);
    for left_out in [
        "  render: render\n",
        "  export: export\n",
        "  serve: serve\n",
    ] {
        assert!(help.contains(left_out), "{}:\n{help}", bin.display());
    }
}
