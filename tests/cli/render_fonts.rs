//! `cardkit render`'s fonts and folders: faces named by `--font` and the
//! configuration's `[fonts]`, the fallback found where fontconfig says, and
//! `--assets` / `--fonts` folders that are not there.

use crate::support;

use std::path::Path;

use predicates::str::contains;
use support::{cardkit, shared_dir, workspace_dir};

/// A card of one text layer set in the face Quango, which no template
/// declares.
const QUANGO_CARD: &str = r#"{"name": "x", "width": 400, "height": 60, "data": {"type": "group",
  "children": [{"type": "text", "text": "Wide words here", "size": 20, "font": "Quango",
                "x": 0, "y": 0, "width": 400, "height": 40}]}}"#;

/// Renders `card.json` of `dir` (run there) to `name`.svg with `flags`:
/// its stderr and the SVG.
fn render_in(dir: &Path, name: &str, flags: &[&std::ffi::OsStr]) -> (String, String) {
    let svg = dir.join(format!("{name}.svg"));
    let output = cardkit()
        .current_dir(dir)
        .args(["render", "card.json", "--svg"])
        .arg(&svg)
        .args(flags)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    (stderr, std::fs::read_to_string(&svg).expect("the SVG"))
}

#[test]
fn a_font_named_on_the_command_line_is_drawn_for_its_face() {
    let Some(shared) = shared_dir() else { return };
    let font = shared.join("corpus/design-tool/OpenSans-Regular.ttf");
    let dir = support::dir_with(&[("card.json", QUANGO_CARD)]);
    let (said, fallback) = render_in(dir.path(), "fallback", &[]);
    assert!(said.contains("font \"Quango\" (the template declares no such font) substituted by \"DejaVu Sans\" weight 400 from /"), "{said}");
    let mut named = std::ffi::OsString::from("quango=");
    named.push(&font);
    let (said, drawn) = render_in(dir.path(), "named", &["--font".as_ref(), &named]);
    assert!(!said.contains("Quango"), "{said}");
    assert_ne!(drawn, fallback, "Open Sans, not DejaVu Sans");
}

#[test]
fn fonts_in_the_configuration_are_drawn_and_the_command_line_wins() {
    let Some(shared) = shared_dir() else { return };
    let font = shared.join("corpus/design-tool/OpenSans-Regular.ttf");
    let dir = support::dir_with(&[
        ("card.json", QUANGO_CARD),
        ("cardkit.toml", "[fonts]\nQuango = \"fonts/Open.ttf\"\n"),
    ]);
    std::fs::create_dir(dir.path().join("fonts")).expect("a folder");
    std::fs::copy(&font, dir.path().join("fonts/Open.ttf")).expect("a copy");
    let (said, from_file) = render_in(dir.path(), "file", &[]);
    assert!(!said.contains("Quango"), "{said}");
    let mut named = std::ffi::OsString::from("Quango=");
    named.push(&font);
    let (_, from_flag) = render_in(dir.path(), "flag", &["--font".as_ref(), &named]);
    assert_eq!(from_file, from_flag, "the same face");
    let (said, _) = render_in(dir.path(), "none", &["--no-config".as_ref()]);
    assert!(said.contains("substituted by"), "{said}");
    // `cardkit config` lists the table and where it comes from.
    cardkit()
        .current_dir(dir.path())
        .arg("config")
        .assert()
        .code(0)
        .stdout(contains("Quango = \"fonts/Open.ttf\""))
        .stdout(contains("cardkit.toml:1"));
    // A file the configuration names that is not there is an error, unless
    // the command line names the face again.
    std::fs::remove_file(dir.path().join("fonts/Open.ttf")).expect("removed");
    cardkit()
        .current_dir(dir.path())
        .args(["render", "card.json", "--svg", "x.svg"])
        .assert()
        .code(2)
        .stderr(contains("cardkit.toml:1: fonts: Quango: fonts/Open.ttf: "));
    render_in(dir.path(), "again", &["--font".as_ref(), &named]);
}

#[test]
fn a_font_file_that_is_missing_or_no_font_is_an_error_naming_it() {
    let dir = support::dir_with(&[("card.json", QUANGO_CARD), ("notes.txt", "not a font")]);
    for (flag, reason) in [
        (
            "Quango=nowhere.otf",
            "--font Quango=nowhere.otf: nowhere.otf: ",
        ),
        (
            "Quango=notes.txt",
            "notes.txt: not a font file (no face could be read from it)",
        ),
        ("Quango", "expected NAME=FILE"),
    ] {
        cardkit()
            .current_dir(dir.path())
            .args(["render", "card.json", "--svg", "x.svg", "--font", flag])
            .assert()
            .code(2)
            .stderr(contains(reason));
        assert!(
            !dir.path().join("x.svg").exists(),
            "{flag}: nothing written"
        );
    }
}

/// `--assets` or `--fonts` naming a folder that is not there is a mistyped
/// path: a usage error naming it, not a render of placeholders.
#[test]
fn asset_and_font_folders_that_are_not_there_are_usage_errors() {
    let dir = tempfile::tempdir().expect("a directory");
    let file = dir.path().join("file.txt");
    std::fs::write(&file, "x").expect("written");
    for flag in ["--assets", "--fonts"] {
        for (path, why) in [
            (dir.path().join("missing"), "No such file or directory"),
            (file.clone(), "not a directory"),
        ] {
            cardkit()
                .current_dir(workspace_dir())
                .args(["render", "examples/valid/template.json", "--svg"])
                .arg(dir.path().join("out.svg"))
                .arg(flag)
                .arg(&path)
                .assert()
                .code(2)
                .stderr(contains(format!("{flag} {}: {why}", path.display())));
        }
    }
    assert!(!dir.path().join("out.svg").exists());
}

/// The fallback face is found in the folders fontconfig's configuration
/// names (`FONTCONFIG_FILE` here, as fontconfig itself reads it), not in
/// one fixed path: with a configuration naming only a folder of its own,
/// the substitution names the file in that folder.
#[test]
fn the_fallback_is_found_where_fontconfig_says() {
    let system = Path::new("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    if !system.is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing: install fonts-dejavu-core",
            system.display()
        );
        eprintln!(
            "skipped: {} is missing (fonts-dejavu-core)",
            system.display()
        );
        return;
    }
    let dir = tempfile::tempdir().expect("a directory");
    let folder = dir.path().join("my fonts");
    std::fs::create_dir(&folder).expect("a folder");
    std::fs::copy(system, folder.join("sans.ttf")).expect("copied");
    let config = dir.path().join("fonts.conf");
    std::fs::write(
        &config,
        format!(
            "<?xml version=\"1.0\"?>\n<fontconfig><dir>{}</dir></fontconfig>\n",
            folder.display()
        ),
    )
    .expect("written");
    cardkit()
        .current_dir(workspace_dir())
        .env("FONTCONFIG_FILE", &config)
        .args(["render", "examples/valid/template.json", "--svg"])
        .arg(dir.path().join("out.svg"))
        .assert()
        .code(0)
        .stderr(contains(format!(
            "substituted by \"DejaVu Sans\" weight 400 from {}",
            folder.join("sans.ttf").display()
        )));
}
