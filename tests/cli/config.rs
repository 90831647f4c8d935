//! The configuration file (`cardkit.toml`, `[tool.cardkit]` in
//! `pyproject.toml`): found upward or named, laid under the flags, read the
//! same by validate, export, diff and serve; its errors; `cardkit config`.

use crate::support;

use std::path::Path;

use predicates::str::contains;
use serde_json::Value;

use support::service::Service;
use support::{cardkit, dir_with, examples_dir};

/// A set of format v5.2.0: the example set without `languages` (v5.2.1).
/// Invalid by default, valid `--as-of v5.2.0`.
fn set_of_v520() -> String {
    let mut set: Value = serde_json::from_str(
        &std::fs::read_to_string(examples_dir().join("valid/set.json")).expect("the example"),
    )
    .expect("JSON");
    set.as_object_mut().expect("an object").remove("languages");
    serde_json::to_string_pretty(&set).expect("JSON")
}

/// The example set with a member the spec does not define,
/// `Legalities.alchemy`.
fn set_with_alchemy() -> String {
    let mut set: Value = serde_json::from_str(
        &std::fs::read_to_string(examples_dir().join("valid/set.json")).expect("the example"),
    )
    .expect("JSON");
    set["cards"][0]["legalities"]["alchemy"] = "Legal".into();
    serde_json::to_string_pretty(&set).expect("JSON")
}

/// A repository (`.git` bounds the search) with `config` as `name`, the
/// v5.2.0 set in `data/` and an empty `sub/` to run from.
fn repository(name: &str, config: &str) -> tempfile::TempDir {
    let set = set_of_v520();
    dir_with(&[
        (".git/HEAD", "ref: refs/heads/main\n"),
        (name, config),
        ("data/set.json", &set),
        ("sub/.keep", ""),
    ])
}

fn code_in(dir: &Path, args: &[&str]) -> i32 {
    let output = cardkit()
        .current_dir(dir)
        .env_remove("CARDKIT_CONFIG")
        .args(args)
        .output()
        .expect("cardkit runs");
    output.status.code().expect("an exit status")
}

#[test]
fn a_configuration_found_upward_changes_validate_export_and_diff_alike() {
    let dir = repository("cardkit.toml", "as-of = \"v5.2.0\"\n");
    let sub = dir.path().join("sub");
    let set = "../data/set.json";
    assert_eq!(code_in(&sub, &["validate", set]), 0);
    assert_eq!(code_in(&sub, &["validate", "--no-config", set]), 1);

    let db = dir.path().join("cards.db");
    let to = db.to_str().expect("UTF-8");
    assert_eq!(
        code_in(&sub, &["export", "--no-config", "--to", to, set]),
        1
    );
    assert!(!db.exists(), "nothing is exported from an invalid set");
    assert_eq!(code_in(&sub, &["export", "--to", to, set]), 0);
    assert!(db.exists());

    assert_eq!(code_in(&sub, &["diff", "--no-config", set, set]), 2);
    assert_eq!(code_in(&sub, &["diff", set, set]), 0);
}

#[test]
fn named_pyproject_nearest_and_flags_given_decide() {
    // Named: --config, and CARDKIT_CONFIG.
    let dir = repository("ci/options.toml", "as-of = \"v5.2.0\"\n");
    let set = "data/set.json";
    assert_eq!(code_in(dir.path(), &["validate", set]), 1);
    let named = ["validate", "--config", "ci/options.toml", set];
    assert_eq!(code_in(dir.path(), &named), 0);
    cardkit()
        .current_dir(dir.path())
        .env("CARDKIT_CONFIG", "ci/options.toml")
        .args(["validate", set])
        .assert()
        .code(0);

    // [tool.cardkit] in pyproject.toml.
    let py = "[project]\nname = \"cards\"\n\n[tool.cardkit]\nas-of = \"v5.2.0\"\n";
    let dir = repository("pyproject.toml", py);
    assert_eq!(
        code_in(&dir.path().join("sub"), &["validate", "../data/set.json"]),
        0
    );

    // A flag given wins over the file.
    let dir = repository("cardkit.toml", "as-of = \"v5.2.0\"\n");
    let over = ["validate", "--as-of", "v5.2.1", set];
    assert_eq!(code_in(dir.path(), &over), 1);

    // The nearest wins: sub/'s pyproject.toml over the root's cardkit.toml.
    let dir = repository("cardkit.toml", "as-of = \"v5.2.1\"\n");
    std::fs::write(dir.path().join("sub/pyproject.toml"), py).expect("write");
    assert_eq!(code_in(dir.path(), &["validate", set]), 1);
    assert_eq!(
        code_in(&dir.path().join("sub"), &["validate", "../data/set.json"]),
        0
    );

    // The search stops at the repository's root.
    let outer = dir_with(&[("cardkit.toml", "as-of = \"v5.2.0\"\n")]);
    let inner = outer.path().join("repo");
    std::fs::create_dir_all(inner.join(".git")).expect("mkdir");
    std::fs::write(inner.join("set.json"), set_of_v520()).expect("write");
    assert_eq!(code_in(&inner, &["validate", "set.json"]), 1);
    assert_eq!(code_in(outer.path(), &["validate", "repo/set.json"]), 0);
}

/// The text and JSON summaries of `validate` on the invalid example set,
/// with `config` beside it.
fn ignoring(config: &str, flags: &[&str]) -> (i32, String, Value) {
    let problems = std::fs::read_to_string(examples_dir().join("invalid/set-card-problems.json"))
        .expect("the example");
    let dir = dir_with(&[("cardkit.toml", config), ("set.json", &problems)]);
    let run = |format: &str| {
        cardkit()
            .current_dir(dir.path())
            .env_remove("CARDKIT_CONFIG")
            .args(["validate", "--format", format])
            .args(flags)
            .arg("set.json")
            .output()
            .expect("cardkit runs")
    };
    let text = run("text");
    let json: Value = serde_json::from_slice(&run("json").stdout).expect("JSON");
    let code = text.status.code().expect("a status");
    (code, String::from_utf8(text.stdout).expect("UTF-8"), json)
}

#[test]
fn ignore_by_code_field_and_pointer_glob_is_counted_in_the_summary() {
    let (code, _, json) = ignoring("", &[]);
    assert_eq!(code, 1);
    assert_eq!(json["summary"]["errors"]["wrong_type"], 2);
    assert!(json["summary"].get("ignored").is_none());

    let config = "ignore = [\"wrong_type\", \"CardSet.uuid\", \"/cards/*/rulings/**\"]\n";
    let (code, text, json) = ignoring(config, &[]);
    assert_eq!(code, 1, "missing fields are still errors");
    assert!(text.contains("\nignored: 4 (by cardkit.toml)\n"), "{text}");
    assert!(!text.contains("wrong_type"), "{text}");
    assert!(!text.contains("/cards/0/uuid"), "{text}");
    assert!(!text.contains("/cards/0/rulings/0/date"), "{text}");
    let summary = &json["summary"];
    assert_eq!(summary["ignored"], 4);
    assert_eq!(summary["ignored_by"], "cardkit.toml");
    assert_eq!(summary["errors"]["invalid_format"], 1);
    assert!(summary["errors"].get("wrong_type").is_none());

    // Errors ignored make no document invalid.
    let every = "ignore = [\"missing_field\", \"wrong_type\", \"invalid_format\"]\n";
    let (code, text, _) = ignoring(every, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("ignored: 7 (by cardkit.toml)"), "{text}");
}

#[test]
fn extend_allowed_members_are_not_unknown_even_when_unknown_fields_are_denied() {
    let set = set_with_alchemy();
    let unknown = |dir: &Path, flags: &[&str]| {
        let output = cardkit()
            .current_dir(dir)
            .env_remove("CARDKIT_CONFIG")
            .args(["validate", "--format", "json"])
            .args(flags)
            .arg("set.json")
            .output()
            .expect("cardkit runs");
        let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let count = json["summary"]["warnings"]["unknown_field"]
            .as_u64()
            .unwrap_or(0)
            + json["summary"]["errors"]["unknown_field"]
                .as_u64()
                .unwrap_or(0);
        assert!(
            json["summary"].get("ignored").is_none(),
            "allowed, not ignored"
        );
        (output.status.code().expect("a status"), count)
    };
    let without = dir_with(&[("set.json", &set), (".git/HEAD", "")]);
    assert_eq!(unknown(without.path(), &[]), (0, 1));
    assert_eq!(unknown(without.path(), &["--deny-unknown-fields"]), (1, 1));
    let allowed = "extend-allowed = [\"Legalities.alchemy\"]\n";
    let with = dir_with(&[("set.json", &set), ("cardkit.toml", allowed)]);
    assert_eq!(unknown(with.path(), &[]), (0, 0));
    assert_eq!(unknown(with.path(), &["--deny-unknown-fields"]), (0, 0));
}

#[test]
fn invalid_configurations_name_the_file_line_and_key() {
    let cases = [
        "as_of = \"v5.0.0\"\n",
        "kind = \"set\"\n\nwarnign-limit = 3\n",
        "deny-unknown-fields = \"yes\"\n",
        "jobs = 0\n",
        "as-of = \"v3.9.9\"\n",
        "as-of = \"5.x\"\n",
        "kind = \"sets\"\n",
        "warn = [\"everything\"]\n",
        "ignore = [\n  \"unknown_field\",\n  \"unknown_feild\",\n]\n",
        "ignore = [\"CardSte.hasFoil\"]\n",
        "ignore = [\"/cards/~2\"]\n",
        "extend-allowed = [\"Legalities.commander\"]\n",
        "as-of = \n",
        "[tool]\nx = 1\n",
    ];
    let mut all = String::new();
    for config in cases {
        let dir = dir_with(&[("cardkit.toml", config)]);
        let output = cardkit()
            .current_dir(dir.path())
            .env_remove("CARDKIT_CONFIG")
            .args(["validate", "x.json"])
            .output()
            .expect("cardkit runs");
        assert_eq!(output.status.code(), Some(2), "{config}");
        assert!(output.stdout.is_empty(), "{config}");
        all.push_str(&format!(
            "{config}=> {}\n",
            String::from_utf8(output.stderr).expect("UTF-8")
        ));
    }
    assert_snapshot!("invalid_configurations", all);
    // A pyproject.toml's errors name its lines.
    let py = "[project]\nname = \"x\"\n\n[tool.cardkit]\nas_of = \"v5.0.0\"\n";
    let dir = dir_with(&[("pyproject.toml", py)]);
    cardkit()
        .current_dir(dir.path())
        .env_remove("CARDKIT_CONFIG")
        .args(["validate", "x.json"])
        .assert()
        .code(2)
        .stderr(contains(
            "pyproject.toml:5:1: as_of: unknown key: did you mean as-of?",
        ));
    // So does serve.
    cardkit()
        .current_dir(dir.path())
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--config",
            "pyproject.toml",
        ])
        .assert()
        .code(2)
        .stderr(contains("pyproject.toml:5:1: as_of: unknown key"));
}

#[test]
fn cardkit_config_shows_each_option_and_where_it_came_from() {
    let config =
        "as-of = \"v5.2.0\"\nignore = [\"unknown_field\", \"/cards/*/purchaseUrls\"]\njobs = 1\n";
    let dir = dir_with(&[("cardkit.toml", config)]);
    let output = cardkit()
        .current_dir(dir.path())
        .env_remove("CARDKIT_CONFIG")
        .args(["config", "--as-of", "v5.0.0", "--color", "never"])
        .output()
        .expect("cardkit runs");
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert_snapshot!("config_text", text);

    let output = cardkit()
        .current_dir(dir.path())
        .env_remove("CARDKIT_CONFIG")
        .args(["config", "--format", "json"])
        .output()
        .expect("cardkit runs");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["file"], "cardkit.toml");
    let option = |key: &str| {
        json["options"]
            .as_array()
            .expect("options")
            .iter()
            .find(|o| o["key"] == key)
            .cloned()
            .expect("the option")
    };
    assert_eq!(option("as-of")["value"], "v5.2.0");
    assert_eq!(option("as-of")["from"], "cardkit.toml:1");
    assert_eq!(option("ignore")["value"][1], "/cards/*/purchaseUrls");
    assert_eq!(option("jobs")["value"], 1);
    assert_eq!(option("kind")["from"], "default");

    let none = dir_with(&[(".git/HEAD", "")]);
    let output = cardkit()
        .current_dir(none.path())
        .env_remove("CARDKIT_CONFIG")
        .args(["config", "--format", "json", "--deny-unknown-fields"])
        .output()
        .expect("cardkit runs");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json["file"], Value::Null);
    let deny = json["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["key"] == "deny-unknown-fields")
        .expect("deny-unknown-fields is listed");
    assert_eq!(deny["from"], "--deny-unknown-fields");
    assert_eq!(deny["value"], true);
}

#[test]
fn serve_takes_its_defaults_from_the_configuration_and_parameters_override_them() {
    let dir = repository("cardkit.toml", "as-of = \"v5.2.0\"\n");
    let service = Service::start_in(dir.path(), &["--config", "cardkit.toml"]);
    let line = &service.first_line;
    assert!(line.contains("the options of cardkit.toml"), "{line}");
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let body = set_of_v520();
    let valid = |query: &str| {
        let mut response = agent
            .post(service.url(&format!("/v1/validate{query}")))
            .header("content-type", "application/json")
            .send(body.as_bytes())
            .expect("the service answers");
        assert_eq!(response.status(), 200);
        let report: Value = serde_json::from_reader(response.body_mut().as_reader()).expect("JSON");
        report["files"][0]["valid"].as_bool().expect("valid")
    };
    assert!(valid(""), "the file's as-of");
    assert!(!valid("?as_of=v5.2.1"), "the parameter's");
}

#[test]
fn the_books_configuration_is_valid_and_gives_every_key() {
    let chapter =
        std::fs::read_to_string(support::workspace_dir().join("docs/configuration.md")).unwrap();
    let example: String = chapter
        .lines()
        .skip_while(|line| *line != "# cardkit.toml")
        .take_while(|line| *line != "```")
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(
        !example.is_empty(),
        "docs/configuration.md has no `# cardkit.toml` example"
    );
    let config = cardkit_run::config::Config::parse(&example, Path::new("cardkit.toml"))
        .unwrap_or_else(|e| panic!("the book's cardkit.toml: {e}"));
    for key in cardkit_run::config::KEYS {
        assert!(
            config.source(key).is_some(),
            "the book's cardkit.toml does not give `{key}`"
        );
    }
}
