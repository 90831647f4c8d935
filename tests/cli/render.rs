//! `cardkit render`: cards to SVG and PNG files, report lines on stderr,
//! exit statuses, and the picture of the README and the book kept current.

use crate::support;

use std::path::{Path, PathBuf};

use predicates::str::contains;
use support::{cardkit, shared_dir, workspace_dir};

fn assets() -> PathBuf {
    workspace_dir().join("crates/cardkit-render/tests/assets")
}

/// The Angular template in the spec's shape, by `cardkit import` (the
/// corpus holds the design tool's own layout).
fn angular_template(shared: &Path, dir: &Path) -> PathBuf {
    let path = dir.join("angular.json");
    cardkit()
        .arg("import")
        .arg(shared.join("corpus/raw/template/mightstone_template-angular.json"))
        .arg("-o")
        .arg(&path)
        .assert()
        .code(0);
    path
}

#[test]
fn a_corpus_card_renders_to_svg_and_png_the_same_every_time() {
    let Some(shared) = shared_dir() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let template = angular_template(&shared, dir.path());
    let card = shared.join("corpus/raw/card/mightstone_dimirova-smiley_head.json");
    let mut outputs = Vec::new();
    for run in 0..2 {
        let svg = dir.path().join(format!("{run}.svg"));
        let png = dir.path().join(format!("{run}.png"));
        let output = cardkit()
            .arg("render")
            .arg(&card)
            .arg("--template")
            .arg(&template)
            .arg("--assets")
            .arg(assets())
            .args(["--year", "2023", "--scale", "0.1", "--svg"])
            .arg(&svg)
            .arg("--png")
            .arg(&png)
            .assert()
            .code(0)
            .get_output()
            .clone();
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        let card_shown = card.display().to_string();
        assert_snapshot!(
            "render_dimirova_stderr",
            stderr.replace(&card_shown, "CARD")
        );
        outputs.push((
            std::fs::read(svg).expect("an SVG"),
            std::fs::read(png).expect("a PNG"),
        ));
    }
    assert_eq!(outputs[0], outputs[1], "the same bytes on every run");
    let (svg, png) = &outputs[0];
    assert!(svg.starts_with(b"<svg width=\"150\" height=\"210\""));
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn several_cards_into_a_directory() {
    let Some(shared) = shared_dir() else { return };
    let out = tempfile::tempdir().expect("a directory");
    cardkit()
        .arg("render")
        .arg(shared.join("corpus/raw/card/mightstone_dimirova-smiley_head.json"))
        .arg(shared.join("corpus/raw/card/mightstone_dimirova-smiley_2023-02-18.json"))
        .arg("--assets")
        .arg(assets())
        .args(["--scale", "0.05", "--year", "2023", "-o"])
        .arg(out.path())
        .assert()
        .code(0)
        // Without the template, its symbols are unknown codes.
        .stderr(contains(
            "text code {U} is not a symbol of the template nor a known code: left out",
        ));
    let mut names: Vec<String> = std::fs::read_dir(out.path())
        .expect("listed")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "mightstone_dimirova-smiley_2023-02-18.png",
            "mightstone_dimirova-smiley_2023-02-18.svg",
            "mightstone_dimirova-smiley_head.png",
            "mightstone_dimirova-smiley_head.svg",
        ]
    );
}

#[test]
fn errors_name_the_file_and_the_reason() {
    let dir = support::dir_with(&[
        ("bad.json", "{\"name\": \"x\"}"),
        (
            "huge.json",
            "{\"name\": \"x\", \"width\": 50000, \"height\": 50000}",
        ),
        (
            "good.json",
            "{\"name\": \"x\", \"width\": 10, \"height\": 10}",
        ),
    ]);
    let path = |name: &str| dir.path().join(name);
    let out = path("out.png");
    cardkit()
        .arg("render")
        .arg(path("bad.json"))
        .arg("--png")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains("bad.json: invalid card design: "))
        .stderr(contains("missing_field"));
    cardkit()
        .arg("render")
        .arg(path("huge.json"))
        .arg("--png")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains(
            "huge.json: the card is beyond a limit: a PNG of 50000 × 50000 is 2500000000 pixels",
        ));
    // A usage error: --svg with several cards.
    cardkit()
        .arg("render")
        .arg(path("good.json"))
        .arg(path("good.json"))
        .arg("--svg")
        .arg(path("x.svg"))
        .assert()
        .code(2)
        .stderr(contains("--svg and --png take one card"));
    // An output is required.
    cardkit()
        .arg("render")
        .arg(path("good.json"))
        .assert()
        .code(2)
        .stderr(contains("required"));
    // A template that is not one.
    cardkit()
        .arg("render")
        .arg(path("good.json"))
        .arg("--template")
        .arg(path("good.json"))
        .arg("--png")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains("good.json: not a template"));
    // And the good card renders.
    cardkit()
        .arg("render")
        .arg(path("good.json"))
        .arg("--png")
        .arg(&out)
        .assert()
        .code(0);
    assert!(std::fs::read(&out)
        .expect("written")
        .starts_with(b"\x89PNG"));
}

const SMALL_CARD: &str = "{\"name\": \"x\", \"width\": 10, \"height\": 10}";

#[test]
fn a_card_from_standard_input() {
    let dir = tempfile::tempdir().expect("a directory");
    let png = dir.path().join("out.png");
    cardkit()
        .args(["render", "-", "--png"])
        .arg(&png)
        .write_stdin(SMALL_CARD)
        .assert()
        .code(0);
    assert!(std::fs::read(&png)
        .expect("written")
        .starts_with(b"\x89PNG"));
    // Into a directory, a card from standard input is named `card`.
    let out = dir.path().join("out");
    cardkit()
        .args(["render", "-", "-o"])
        .arg(&out)
        .write_stdin(SMALL_CARD)
        .assert()
        .code(0);
    assert!(out.join("card.svg").is_file() && out.join("card.png").is_file());
    // Not a card: the error names standard input as it was given.
    cardkit()
        .args(["render", "-", "--force", "--png"])
        .arg(&png)
        .write_stdin("[1]")
        .assert()
        .code(2)
        .stderr(contains(
            "cardkit render: -: expected a template or a card design (a JSON object), found an array",
        ));
    // Standard input is read once: a usage error, with the usage.
    cardkit()
        .args(["render", "-", "--template", "-", "--png"])
        .arg(&png)
        .write_stdin(SMALL_CARD)
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(
            "`-` is given 2 times: standard input can be read once",
        ))
        .stderr(contains("Usage: cardkit render"));
}

#[test]
fn a_template_given_as_the_card_renders_its_own_card() {
    let template = format!("{{\"name\": \"T\", \"context\": {{}}, \"card\": {SMALL_CARD}}}");
    let dir = support::dir_with(&[("template.json", &template)]);
    let svg = dir.path().join("out.svg");
    cardkit()
        .arg("render")
        .arg(dir.path().join("template.json"))
        .arg("--svg")
        .arg(&svg)
        .assert()
        .code(0);
    let drawn = std::fs::read_to_string(&svg).expect("written");
    assert!(
        drawn.starts_with("<svg width=\"10\" height=\"10\""),
        "{drawn}"
    );
    // Given as --template, it is the template the cards use.
    cardkit()
        .arg("render")
        .arg(dir.path().join("template.json"))
        .arg("--template")
        .arg(dir.path().join("template.json"))
        .arg("--svg")
        .arg(&svg)
        .arg("--force")
        .assert()
        .code(0);
}

#[test]
fn a_card_over_the_size_limit_is_refused() {
    let dir = tempfile::tempdir().expect("a directory");
    let big = dir.path().join("big.json");
    // Sparse: the file is over the limit without taking the disk space.
    let file = std::fs::File::create(&big).expect("created");
    file.set_len((64 << 20) + 1).expect("sized");
    let out = dir.path().join("out.png");
    cardkit()
        .arg("render")
        .arg(&big)
        .arg("--png")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains(format!(
            "cardkit render: {}: cannot read: larger than 67108864 bytes (64 MiB), the limit of a design file",
            big.display()
        )));
    assert!(!out.exists());
    // As a template too.
    let card = dir.path().join("card.json");
    std::fs::write(&card, SMALL_CARD).expect("written");
    cardkit()
        .arg("render")
        .arg(&card)
        .arg("--template")
        .arg(&big)
        .arg("--png")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(contains(format!(
            "{}: cannot read: larger than",
            big.display()
        )));
}

/// The picture in the README (and the book's Rendering chapter): the
/// Dimirova card with the stand-in assets at 1/5 scale, drawn by the
/// command the README shows, run from the repository's root with the
/// corpus where the README says (`../shared`) and the PNG written to a
/// temporary file. `CARDKIT_BLESS=1` writes the picture; otherwise it must
/// show the pixels the command draws now.
#[test]
fn the_readme_picture_is_current() {
    let Some(shared) = shared_dir() else { return };
    let readme = std::fs::read_to_string(workspace_dir().join("README.md")).expect("README.md");
    let command = readme
        .lines()
        .find(|line| line.starts_with("cardkit render ../shared/"))
        .expect("the README shows the command that draws its picture");
    let dir = tempfile::tempdir().expect("a directory");
    let fresh = dir.path().join("card.png");
    let mut words = command.split_whitespace().skip(1);
    let mut args: Vec<std::ffi::OsString> = Vec::new();
    while let Some(word) = words.next() {
        if word == "--png" {
            words.next().expect("the PNG's name");
            args.extend(["--png".into(), fresh.clone().into_os_string()]);
        } else if let Some(rest) = word.strip_prefix("../shared/") {
            args.push(shared.join(rest).into_os_string());
        } else {
            args.push(word.into());
        }
    }
    assert!(
        fresh.is_absolute() && args.iter().any(|arg| arg == "--png"),
        "the README's command writes a PNG: {command}"
    );
    cardkit()
        .current_dir(workspace_dir())
        .args(&args)
        .assert()
        .code(0);
    let fresh = std::fs::read(&fresh).expect("rendered");
    let committed = workspace_dir().join("docs/render-dimirova.png");
    if std::env::var_os("CARDKIT_BLESS").is_some() {
        std::fs::write(&committed, &fresh).expect("written");
        return;
    }
    let current =
        std::fs::read(&committed).expect("docs/render-dimirova.png (CARDKIT_BLESS=1 writes it)");
    assert!(
        pixels(&current) == pixels(&fresh),
        "docs/render-dimirova.png is stale: run CARDKIT_BLESS=1 cargo test --test cli render::"
    );
}

/// A PNG's size, colour type and pixels: what a picture shows, whichever
/// way its bytes were deflated.
fn pixels(png: &[u8]) -> (png::OutputInfo, Vec<u8>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a PNG of a sane size")];
    let info = reader.next_frame(&mut buffer).expect("its pixels");
    buffer.truncate(info.buffer_size());
    (info, buffer)
}

#[test]
fn a_png_that_fails_leaves_no_svg_behind() {
    // Margins of 10^12 are drawn at the largest side a card may have; the
    // PNG of that is beyond the limit, and the SVG asked for with it is not
    // written either.
    let dir = support::dir_with(&[(
        "bleed.json",
        "{\"name\": \"x\", \"width\": 10, \"height\": 10, \"marginX\": 1000000000000, \"marginY\": 1000000000000}",
    )]);
    let (svg, png) = (dir.path().join("out.svg"), dir.path().join("out.png"));
    cardkit()
        .arg("render")
        .arg(dir.path().join("bleed.json"))
        .arg("--bleed")
        .arg("--svg")
        .arg(&svg)
        .arg("--png")
        .arg(&png)
        .assert()
        .code(2)
        .stderr(contains(
            "/marginX: the margin of 1000000000000 px is more than the limit of 1000000 px",
        ))
        .stderr(contains(
            "the card is beyond a limit: a PNG of 2000010 × 2000010",
        ));
    assert!(!svg.exists() && !png.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .expect("the directory")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    assert_eq!(left, ["bleed.json"]);
}

/// The design tool's frame rule: the 2023-02-18 card leaves its frames'
/// and masks' boxes out, and they are drawn at the card's size, not at the
/// spec's 100 × 100 in the top left corner.
#[test]
fn frames_without_a_box_are_drawn_at_the_cards_size() {
    let Some(shared) = shared_dir() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let template = angular_template(&shared, dir.path());
    let svg = dir.path().join("card.svg");
    cardkit()
        .arg("render")
        .arg(shared.join("corpus/raw/card/mightstone_dimirova-smiley_2023-02-18.json"))
        .arg("--template")
        .arg(&template)
        .arg("--assets")
        .arg(assets())
        .args(["--year", "2023", "--svg"])
        .arg(&svg)
        .assert()
        .code(0);
    let svg = std::fs::read_to_string(svg).expect("an SVG");
    // (Symbols are pictures of 100 × 100 of their own: only boxes count.)
    let boxed = "maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"100\" height=\"100\"";
    assert!(!svg.contains(boxed), "a box of 100 × 100");
    // The stand-in frames are 150 × 210 pictures: 10 times over at the
    // card's size, 0.667 × 0.476 in the spec's default box.
    assert!(
        !svg.contains("matrix(0.667 0 0 0.476 0 0)"),
        "a frame of 100 × 100"
    );
    assert!(svg.matches("matrix(10 0 0 10 0 0)").count() >= 6);
    let masks = svg
        .matches("maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"1500\" height=\"2100\"")
        .count();
    assert!(masks >= 5, "{masks} masks of the card's size");
}

/// The design tool's own files rendered as they are: its layered template
/// as the card and as --template, and the classic save file's cards, one
/// by --card or all into a directory under the names the import gives.
#[test]
fn the_design_tools_own_files_render_as_they_are() {
    let Some(shared) = shared_dir() else { return };
    let dir = tempfile::tempdir().expect("a directory");
    let layered = shared.join("corpus/raw/template/mightstone_template-angular.json");
    let output = cardkit()
        .arg("render")
        .arg(shared.join("corpus/raw/card/mightstone_dimirova-smiley_2023-02-18.json"))
        .arg("--template")
        .arg(&layered)
        .arg("--assets")
        .arg(assets())
        .args(["--year", "2023", "--scale", "0.05", "--svg"])
        .arg(dir.path().join("card.svg"))
        .assert()
        .code(0)
        .get_output()
        .clone();
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note: ")).collect();
    assert_eq!(notes.len(), 1, "{stderr}");
    assert!(notes[0].contains("is a template in the design tool's older layered layout"));

    let save = shared.join("corpus/design-tool/naereen_saved-cards.cardconjurer");
    let one = dir.path().join("one.svg");
    let refused = cardkit()
        .arg("render")
        .arg(&save)
        .args(["--scale", "0.05", "--svg"])
        .arg(&one)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8(refused.stderr).expect("UTF-8");
    assert!(
        stderr.contains("the file holds 13 cards; --svg and --png take one: name it with --card NAME (abomination-de-llanowar,"),
        "{stderr}"
    );
    assert!(!one.exists());
    cardkit()
        .arg("render")
        .arg(&save)
        .args(["--card", "myrel-death-taxes", "--scale", "0.05", "--svg"])
        .arg(&one)
        .assert()
        .code(0);
    assert!(std::fs::read_to_string(&one)
        .expect("an SVG")
        .starts_with("<svg"));
    let all = dir.path().join("all");
    cardkit()
        .arg("render")
        .arg(&save)
        .args(["--scale", "0.05", "-o"])
        .arg(&all)
        .assert()
        .code(0);
    let mut names: Vec<String> = std::fs::read_dir(&all)
        .expect("listed")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 26, "{names:?}");
    assert!(
        names.contains(&"myrel-death-taxes.png".to_owned()),
        "{names:?}"
    );
}
