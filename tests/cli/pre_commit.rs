//! The hooks of `.pre-commit-hooks.yaml`, run for real: `pre-commit try-repo`
//! on this repository, in a temporary git repository that holds valid and
//! invalid documents, a file that is no JSON, and other tools' JSON files.
//!
//! try-repo takes the repository as it is on disk: uncommitted changes to
//! tracked files (and staged new files) are committed in a shadow clone;
//! untracked files are left out. The `cardkit` hook is built by pre-commit
//! itself (`cargo install --bins --path .` in that clone), in release mode,
//! with the default features: pre-commit passes no other flag to cargo.
//! The `cardkit-system` hook runs the validate-only build.
//!
//! pre-commit is found through `CARDKIT_PRE_COMMIT` (`.ci/run` installs it
//! in `target/ci-venv`). Without it the tests say why they are skipped; in CI
//! (`CI=true`) they fail.

use crate::support;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::{examples_dir, show, workspace_dir};

/// The files of the temporary repository, copied from `examples/`.
const FILES: &[(&str, &str)] = &[
    ("valid/card.json", "card.json"),
    ("valid/template.json", "designs/TEMPLATE.JSON"),
    ("valid/migrations.jsonl", "migrations.jsonl"),
    ("valid/migrations.jsonl", "feeds/migrations.ndjson"),
    ("invalid/template-problems.json", "broken/template.json"),
];

/// Other tools' JSON files: those the hooks' `exclude` leaves out, and one
/// it does not, which cardkit skips (its kind cannot be told).
const OTHER_TOOLS: &[(&str, &str)] = &[
    (
        "package.json",
        r#"{"name": "site", "version": "1.0.0", "dependencies": {"lodash": "^4"}}"#,
    ),
    (
        "web/tsconfig.json",
        r#"{"compilerOptions": {"strict": true}}"#,
    ),
    (".vscode/settings.json", r#"{"editor.tabSize": 2}"#),
    ("tool-config.json", r#"{"level": "info"}"#),
];

/// What both hooks must say about the valid files (and `notes.txt`, which
/// the hooks' `files` pattern leaves out: read as JSON it would be invalid;
/// and the other tools' files that their `exclude` leaves out).
const VALID_FILES: &[&str] = &[
    "card.json",
    "designs/TEMPLATE.JSON",
    "migrations.jsonl",
    "feeds/migrations.ndjson",
    "notes.txt",
    "package.json",
    "web/tsconfig.json",
    ".vscode/settings.json",
];
const VALID_SUMMARY: &str = "checked 6 documents in 4 files: 6 valid, 0 invalid";

/// The pre-commit executable, or `None` (with the reason on stderr) when
/// the tests are to be skipped.
fn pre_commit() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CARDKIT_PRE_COMMIT").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CARDKIT_PRE_COMMIT is not set: CI must run the pre-commit hooks; \
         set it to a pre-commit executable (.ci/run installs one in target/ci-venv)"
    );
    eprintln!("skipped: set CARDKIT_PRE_COMMIT to a pre-commit executable; .ci/run does");
    None
}

/// The folder of the `cardkit` binary built for these tests.
fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_cardkit"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf()
}

/// The target folder the binary was built in (`target/`).
fn target_dir() -> PathBuf {
    bin_dir().parent().expect("the target folder").to_path_buf()
}

/// `git ARGS` in `dir`, which must succeed. The variables that point git at
/// another repository (set when the tests run inside a git hook) are removed.
fn git(dir: &Path, args: &[&str]) {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A new git repository with the files of `FILES` and `notes.txt`, added.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (from, to) in FILES {
        let to = dir.path().join(to);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("create folders");
        std::fs::copy(examples_dir().join(from), &to).expect("copy an example");
    }
    std::fs::write(dir.path().join("notes.txt"), "{not JSON\n").expect("write notes.txt");
    for (name, text) in OTHER_TOOLS {
        let to = dir.path().join(name);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("create folders");
        std::fs::write(to, text).expect("write another tool's file");
    }
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["config", "user.name", "cardkit tests"]);
    git(
        dir.path(),
        &["config", "user.email", "tests@cardkit.invalid"],
    );
    git(dir.path(), &["add", "--all"]);
    dir
}

/// `pre-commit try-repo <workspace> HOOK --verbose --files FILES...` in
/// `project`: the exit code, and standard output and error together.
///
/// pre-commit keeps its files under `target/pre-commit-home` instead of the
/// user's cache. try-repo installs the hook in a temporary store all the
/// same, so the cargo build of the `cardkit` hook goes to
/// `target/pre-commit-cargo`, where the next run finds the dependencies
/// built. pre-commit builds in release mode; the build is made unoptimized,
/// without link-time optimisation, here, through cargo's profile variables,
/// because what is tested is the hook, not the binary's speed: a first
/// build still takes 5 minutes beside the other tests on two cores (see
/// "The test build" in CONTRIBUTING.md); an optimised one, over 20.
fn try_repo(
    pre_commit: &Path,
    project: &Path,
    hook: &str,
    path: Option<OsString>,
    files: &[&str],
) -> (Option<i32>, String) {
    let mut command = Command::new(pre_commit);
    command
        .arg("try-repo")
        .arg(workspace_dir())
        .args([hook, "--verbose", "--color", "never", "--files"])
        .args(files)
        .current_dir(project)
        .env("PRE_COMMIT_HOME", target_dir().join("pre-commit-home"))
        .env("CARGO_TARGET_DIR", target_dir().join("pre-commit-cargo"))
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE");
    if let Some(path) = path {
        command.env("PATH", path);
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{} cannot be run: {e}", show(pre_commit)));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), text)
}

/// Runs HOOK on the valid files (it passes and names them all) and on an
/// invalid one beside a valid one (it fails with cardkit's diagnostics).
fn check_hook(hook: &str, path: Option<OsString>) {
    let Some(pre_commit) = pre_commit() else {
        return;
    };
    let project = project();

    let (code, out) = try_repo(&pre_commit, project.path(), hook, path.clone(), VALID_FILES);
    assert_eq!(code, Some(0), "{hook} on valid files must pass:\n{out}");
    assert!(
        out.contains("cardkit validate....") && out.contains("Passed"),
        "{out}"
    );
    assert!(
        out.contains(VALID_SUMMARY),
        "{hook} must check the 4 JSON files, not notes.txt nor other tools' files:\n{out}"
    );
    // Left out by the hooks' `exclude`, they are not even skipped.
    assert!(
        !out.contains("skipped") && !out.contains("tsconfig.json"),
        "{hook} was given other tools' files:\n{out}"
    );

    // A commit of no card data passes: a JSON file that `exclude` lets
    // through is skipped, not reported.
    let files = ["tool-config.json"];
    let (code, out) = try_repo(&pre_commit, project.path(), hook, path.clone(), &files);
    assert_eq!(
        code,
        Some(0),
        "{hook} on another tool's file must pass:\n{out}"
    );
    assert!(
        out.contains("1 JSON file is not a card document: skipped"),
        "{out}"
    );

    let files = ["broken/template.json", "card.json"];
    let (code, out) = try_repo(&pre_commit, project.path(), hook, path, &files);
    assert_eq!(code, Some(1), "{hook} on an invalid file must fail:\n{out}");
    assert!(
        out.contains("Failed") && out.contains("- exit code: 1"),
        "{out}"
    );
    for expected in [
        "broken/template.json:1:1: error[missing_field]: missing required field `name` of Template",
        "broken/template.json:83:19: error[missing_field]: missing required field `url` of TemplateRef",
        "checked 2 documents in 2 files: 1 valid, 1 invalid",
    ] {
        assert!(out.contains(expected), "{hook} output lacks {expected:?}:\n{out}");
    }
}

/// The `language: rust` hook, built from this repository by pre-commit.
#[test]
fn rust_hook_passes_valid_files_and_fails_invalid_ones() {
    check_hook("cardkit", None);
}

/// The `language: system` hook, with the validate-only `cardkit` (built
/// with `--no-default-features`, as the hook's users are told to install it)
/// first on PATH: see [`support::validate_only_bin_dir`].
#[test]
fn system_hook_passes_valid_files_and_fails_invalid_ones() {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let bin = support::validate_only_bin_dir();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path)))
        .expect("a PATH");
    check_hook("cardkit-system", Some(path));
}
