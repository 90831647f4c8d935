//! Fonts a designer names: a face given its own file, the template's font
//! files read through the asset root, and the fallback face looked up among
//! the system's fonts.

use crate::support;

use std::path::{Path, PathBuf};

use cardkit_render::{fallback_in, render, NamedFont, Options, Rendered, FALLBACK_FAMILIES};
use serde_json::json;
use support::{card_of, options, shared_dir};

fn open_sans(shared: &Path) -> PathBuf {
    shared.join("corpus/design-tool/OpenSans-Regular.ttf")
}

/// A card of one text layer set in `font`.
fn text_card(font: &str) -> cardkit::model::Card {
    card_of(
        400,
        40,
        json!([{"type": "text", "text": "Wide words here", "size": 20, "font": font,
                "x": 0, "y": 0, "width": 400, "height": 40}]),
    )
}

fn width(rendered: &Rendered) -> f32 {
    rendered.bounds_of("layer-0").expect("drawn").width
}

fn lines(rendered: &Rendered) -> Vec<String> {
    rendered.report().iter().map(ToString::to_string).collect()
}

/// A fresh directory of its own under the system's temporary folder.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "cardkit-render-fonts-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn the_fallback_face_is_found_among_the_systems_fonts() {
    // The system's DejaVu Sans, regular then bold (the render tests need
    // it installed), is the first family of the list.
    let found = cardkit_render::default_fallback_fonts();
    let names: Vec<String> = found
        .iter()
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"]);
    assert_eq!(FALLBACK_FAMILIES[0], "DejaVu Sans");
    // In a database of other fonts, the first family listed that it has.
    let Some(shared) = shared_dir() else { return };
    let mut db = usvg::fontdb::Database::new();
    db.load_font_file(open_sans(&shared)).expect("a font");
    assert_eq!(
        fallback_in(&db, &["No Such Family", "Open Sans"]),
        [open_sans(&shared)],
        "a family without a bold face gives its regular alone"
    );
    assert!(fallback_in(&db, &FALLBACK_FAMILIES).is_empty());
}

#[test]
fn a_substitution_names_the_face_and_its_file() {
    let rendered = render(&text_card("Quango"), None, &options()).expect("renders");
    let file = &cardkit_render::default_fallback_fonts()[0];
    assert_eq!(
        lines(&rendered),
        [format!(
            "/data/children/0: font \"Quango\" (the template declares no such font) substituted by \"DejaVu Sans\" weight 400 from {}",
            file.display()
        )]
    );
}

#[test]
fn a_named_font_file_is_drawn_for_its_face() {
    let Some(shared) = shared_dir() else { return };
    let path = open_sans(&shared);
    let bytes = std::fs::read(&path).expect("the test font");
    let named = NamedFont::new("QUANGO", &path, bytes).expect("a font");
    let with = Options {
        named_fonts: vec![named],
        ..options()
    };
    // Named by the user, the face needs no declaration in the template…
    let drawn = render(&text_card("Quango"), None, &with).expect("renders");
    assert!(lines(&drawn).is_empty(), "{:?}", lines(&drawn));
    let fallback = render(&text_card("Quango"), None, &options()).expect("renders");
    assert_ne!(
        width(&drawn),
        width(&fallback),
        "Open Sans, not DejaVu Sans"
    );
    // …and wins over the template's own file for it.
    let template: cardkit::model::Template = serde_json::from_value(json!({
        "name": "t",
        "context": {"fonts": [{"name": "quango", "src": "missing/Quango.otf"}]},
        "card": {"name": "c", "width": 10, "height": 10},
    }))
    .expect("a template");
    let over = render(&text_card("Quango"), Some(&template), &with).expect("renders");
    assert!(lines(&over).is_empty(), "{:?}", lines(&over));
    assert_eq!(width(&over), width(&drawn));
    // A file that holds no font is refused, naming it.
    let error = NamedFont::new("Quango", Path::new("notes.txt"), b"not a font".to_vec())
        .expect_err("not a font");
    assert!(error.starts_with("notes.txt: not a font file"), "{error}");
}

#[test]
fn a_templates_font_files_are_read_under_the_asset_root() {
    let Some(shared) = shared_dir() else { return };
    let root = fresh_dir("root");
    std::fs::create_dir_all(root.join("fonts")).expect("a folder");
    std::fs::copy(open_sans(&shared), root.join("fonts/Quango.ttf")).expect("a copy");
    let template = |src: &str, root_url: &str| -> cardkit::model::Template {
        serde_json::from_value(json!({
            "name": "t",
            "asset_root_url": root_url,
            "context": {"fonts": [{"name": "Quango", "src": src}]},
            "card": {"name": "c", "width": 10, "height": 10},
        }))
        .expect("a template")
    };
    let with_root = Options {
        assets: Some(root.clone()),
        ..options()
    };
    let fallback = render(&text_card("Quango"), None, &options()).expect("renders");
    // A path under the local root, and a URL under the root's URL read
    // from its mirror: the template's own file is drawn.
    for (src, url) in [
        ("fonts/Quango.ttf", ""),
        (
            "https://cards.example/fonts/Quango.ttf",
            "https://cards.example/",
        ),
    ] {
        let drawn =
            render(&text_card("Quango"), Some(&template(src, url)), &with_root).expect("renders");
        assert!(lines(&drawn).is_empty(), "{src}: {:?}", lines(&drawn));
        assert_ne!(width(&drawn), width(&fallback), "{src}");
    }
    // A path that leaves the root is not followed: the face is substituted,
    // and the report says why.
    let outside = render(
        &text_card("Quango"),
        Some(&template("../root/fonts/Quango.ttf", "")),
        &with_root,
    )
    .expect("renders");
    let said = lines(&outside).join("\n");
    assert!(
        said.contains("template /context/fonts/0: font \"Quango\""),
        "{said}"
    );
    assert!(said.contains("substituted by \"DejaVu Sans\""), "{said}");
    assert_eq!(width(&outside), width(&fallback));
    std::fs::remove_dir_all(root).ok();
}
