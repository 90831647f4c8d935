//! The configuration's tests: files read, values laid over the settings, errors with their lines.

use super::*;

fn error(text: &str) -> String {
    Config::parse(text, Path::new("cardkit.toml"))
        .unwrap_err()
        .to_string()
}

#[test]
fn every_key_is_read_with_its_line() {
    let text = "kind = \"set\"\nas-of = \"v5.0.0\"\nstrict-version = true\n\
                deny-unknown-fields = true\nwarn = [\"deprecated\"]\nwarning-limit = 0\n\
                jobs = 2\ncolor = \"never\"\nignore = [\"unknown_field\"]\n\
                extend-allowed = [\"Legalities.alchemy\"]\n";
    let config = Config::parse(text, Path::new("cardkit.toml")).unwrap();
    assert_eq!(config.kind.as_ref().unwrap().value, Some(Kind::Set));
    assert_eq!(config.jobs.as_ref().unwrap().line, 7);
    assert_eq!(config.color.as_ref().unwrap().value, Color::Never);
    assert_eq!(config.source("extend-allowed").unwrap(), "cardkit.toml:10");
    let settings = config.settings(Settings::default());
    assert!(settings.strict_version && settings.deny_unknown_fields && settings.warn_deprecated);
    assert_eq!(settings.warning_limit, 0);
    assert!(settings.filter.is_some());
}

#[test]
fn errors_name_the_line_the_key_and_what_was_expected() {
    assert_eq!(
        error("\n\nwarning_limit = 3\n"),
        "cardkit.toml:3:1: warning_limit: unknown key: did you mean warning-limit?"
    );
    assert_eq!(
        error("jobs = \"2\"\n"),
        "cardkit.toml:1:8: jobs: expected an integer from 1 to 256, found string \"2\""
    );
    assert_eq!(
        error("ignore = [\"unknown_feild\"]\n"),
        "cardkit.toml:1:11: ignore: `unknown_feild` is no diagnostic code: did you mean unknown_field?; an entry is a code, a Model.field or a JSON Pointer starting with /"
    );
    assert!(error("as-of = \"v3.0.0\"").contains("older than the first version"));
    assert!(error("as-of = ").starts_with("cardkit.toml:1:"));
}

#[test]
fn exclude_replaces_the_default_list_and_extend_exclude_adds_to_it() {
    let config = |text: &str| Config::parse(text, Path::new("cards/cardkit.toml")).unwrap();
    let cards = std::path::absolute("cards").unwrap();
    let excluded = |config: &Config, path: &str, is_dir: bool| {
        config.exclude().excludes(&cards.join(path), is_dir)
    };
    let default = config("");
    assert!(excluded(&default, "node_modules", true));
    assert!(excluded(&default, "sets/.venv", true));
    assert!(!excluded(&default, "sets", true));

    let extended = config("extend-exclude = [\"drafts/\", \"/sets/*.tmp.json\"]\n");
    assert_eq!(
        extended.source("extend-exclude").unwrap(),
        "cards/cardkit.toml:1"
    );
    assert!(excluded(&extended, "node_modules", true));
    assert!(excluded(&extended, "sets/old/drafts", true));
    assert!(!excluded(&extended, "drafts", false));
    assert!(excluded(&extended, "sets/a.tmp.json", false));
    // Anchored to the configuration's folder.
    assert!(!excluded(&extended, "more/sets/a.tmp.json", false));

    let replaced = config("exclude = [\"legacy\"]\n");
    assert!(!excluded(&replaced, "node_modules", true));
    assert!(excluded(&replaced, "sets/legacy", true));
}

#[test]
fn an_exclude_glob_that_is_no_glob_names_its_line() {
    assert_eq!(
        error("\nexclude = [\"sets/[z-a].json\"]\n"),
        "cardkit.toml:2:12: exclude: `sets/[z-a].json` is no glob: invalid range; 'z' > 'a'"
    );
    assert_eq!(
        error("extend-exclude = \"drafts\"\n"),
        "cardkit.toml:1:18: extend-exclude: expected an array of globs (.gitignore patterns), found string \"drafts\""
    );
}

#[test]
fn pyproject_is_read_for_its_tool_cardkit_table() {
    let text = "[project]\nname = \"x\"\n\n[tool.cardkit]\nas-of = \"v5.2.0\"\n";
    let config = Config::parse(text, Path::new("pyproject.toml")).unwrap();
    assert_eq!(config.as_of.unwrap().line, 5);
    let none = Config::parse("[project]\n", Path::new("pyproject.toml")).unwrap_err();
    assert!(none.to_string().contains("no [tool.cardkit]"));
}

#[cfg(unix)]
#[test]
fn a_configuration_that_is_no_regular_file_is_refused_without_opening_it() {
    let dir = std::env::temp_dir().join(format!("cardkit-config-fifo-{}", std::process::id()));
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    let pipe = dir.join(PYPROJECT);
    let _ = std::fs::remove_file(&pipe);
    let made = std::process::Command::new("mkfifo").arg(&pipe).status();
    assert!(made.unwrap().success());
    // Found, so that reading it says why it is no configuration.
    assert_eq!(Config::locate(&dir), Some(pipe.clone()));
    let error = Config::find(&dir).unwrap_err().to_string();
    assert!(
        error.ends_with("pyproject.toml: cannot be read: is not a regular file but a FIFO (named pipe): a configuration is read from a file only"),
        "{error}"
    );
    std::fs::remove_file(&pipe).unwrap();
    let zero = dir.join(FILE_NAME);
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let error = Config::load(&zero).unwrap_err().to_string();
    assert!(
        error.contains("is not a regular file but a device"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_configuration_larger_than_the_bound_is_refused() {
    let dir = std::env::temp_dir().join(format!("cardkit-config-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join(FILE_NAME);
    let limit = usize::try_from(MAX_CONFIG_BYTES).unwrap();
    std::fs::write(&big, format!("#{}\n", " ".repeat(limit))).unwrap();
    let error = Config::load(&big).unwrap_err().to_string();
    assert!(
        error.contains("cannot be read: is larger than 1048576 bytes"),
        "{error}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn the_search_stops_before_a_folder_anyone_may_write_to() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("cardkit-config-open-{}", std::process::id()));
    let open = dir.join("open");
    std::fs::create_dir_all(open.join("project")).unwrap();
    std::fs::write(open.join(FILE_NAME), "").unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o1777)).unwrap();
    assert_eq!(Config::locate(&open.join("project")), None);
    assert_eq!(Config::locate(&open), None);
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(
        Config::locate(&open.join("project")),
        Some(open.join(FILE_NAME))
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fonts_are_files_by_name_relative_to_the_configuration() {
    let text = "jobs = 2\n\n[fonts]\nQuango = \"fonts/Quango.otf\"\nMontserrat = \"/abs/M.ttf\"\n";
    let config = Config::parse(text, Path::new("design/cardkit.toml")).unwrap();
    let fonts = config.fonts.as_ref().unwrap();
    assert_eq!(fonts.line, 3);
    assert_eq!(
        fonts.value,
        [
            ("Montserrat".to_owned(), PathBuf::from("/abs/M.ttf")),
            (
                "Quango".to_owned(),
                PathBuf::from("design/fonts/Quango.otf")
            ),
        ]
    );
    assert_eq!(
        config.source("fonts").as_deref(),
        Some("design/cardkit.toml:3")
    );
    for (text, message) in [
        (
            "fonts = \"Quango.otf\"\n",
            "cardkit.toml:1:9: fonts: expected a table of font names to files",
        ),
        (
            "[fonts]\nQuango = 3\n",
            "cardkit.toml:2:10: fonts: Quango: expected the path of a font file, found integer 3",
        ),
        (
            "[fonts]\nQuango = \"\"\n",
            "cardkit.toml:2:10: fonts: \"Quango\": a font needs a name and a file",
        ),
    ] {
        let error = Config::parse(text, Path::new("cardkit.toml")).unwrap_err();
        assert!(error.to_string().starts_with(message), "{error}");
    }
}
