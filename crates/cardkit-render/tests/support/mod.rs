//! What the render tests share: the corpus documents, the stand-in assets,
//! and the options that pin everything a render depends on.
#![allow(dead_code)] // Each test crate uses a part of it.

#[path = "../../../cardkit/tests/support/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};

use cardkit::model::{Card, Template};
use cardkit_design::source::Design;
use cardkit_render::Options;
use serde_json::{json, Value};

#[allow(unused_imports)] // Not every test crate reads the corpus.
pub use shared::shared_dir;
#[allow(unused_imports)] // Not every test crate runs an outside program.
pub use shared::tool;

/// The stand-in assets, at the paths the corpus documents name
/// (`make_assets.py` beside them writes them).
pub fn assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/assets")
}

/// Options with the stand-in assets, the year pinned, and the machine's
/// DejaVu Sans as the fallback font (checked to be there).
pub fn options() -> Options {
    let options = Options {
        assets: Some(assets_dir()),
        year: Some(2023),
        ..Options::default()
    };
    for font in &options.fallback_fonts {
        assert!(
            font.is_file(),
            "the fallback font {} is missing: install fonts-dejavu-core",
            font.display()
        );
    }
    options
}

/// A corpus card, read as `cardkit render` reads it: by the design
/// crate's reader, which applies the design tool's frame rule
/// (`cardkit_design::frame`) where the file leaves a frame's box out.
pub fn corpus_card(shared: &Path, name: &str) -> Card {
    let path = shared.join("corpus/raw/card").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match Design::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
        Design::Card(card) => *card,
        Design::Template(_) => panic!("{}: a template, not a card", path.display()),
    }
}

/// A corpus template, converted from the design tool's own layout to the
/// spec's by `cardkit_design::import` (the card inside is the same in both).
pub fn corpus_template(shared: &Path, name: &str) -> Template {
    use cardkit_design::import::{import, ImportOptions};
    let path = shared.join("corpus/raw/template").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let imported = import(&bytes, &ImportOptions::default());
    assert!(
        imported.report.is_valid(),
        "{}: the import failed",
        path.display()
    );
    let document = imported.documents.first().expect("one template");
    let bytes = serde_json::to_vec(&document.value).expect("JSON");
    match Design::read(&bytes).unwrap_or_else(|e| panic!("{} as imported: {e}", path.display())) {
        Design::Template(template) => *template,
        Design::Card(_) => panic!("{} as imported: a card, not a template", path.display()),
    }
}

/// The SVG with each embedded image's base64 replaced by its length and a
/// digest, so a snapshot shows the drawing's structure and still changes
/// when an image does.
pub fn readable_svg(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len() / 4);
    let mut rest = svg;
    while let Some(start) = rest.find(";base64,") {
        let head = start + ";base64,".len();
        out.push_str(&rest[..head]);
        let tail = &rest[head..];
        let end = tail.find('"').unwrap_or(tail.len());
        let payload = tail[..end].trim();
        out.push_str(&format!(
            "[{} base64 characters, sha256 {}]",
            payload.len(),
            &sha256(payload.as_bytes())[..16]
        ));
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The SHA-256 of `bytes` in hex.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A card of `width` × `height` with the given layers (as JSON).
pub fn card_of(width: i64, height: i64, layers: Value) -> Card {
    serde_json::from_value(json!({
        "name": "test",
        "width": width,
        "height": height,
        "data": {"type": "group", "children": layers},
    }))
    .expect("a card")
}

/// A `data:` URI of an SVG.
pub fn svg_uri(svg: &str) -> String {
    use base64::Engine as _;
    format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    )
}

/// An RGBA pixel of a pixmap (premultiplied).
pub fn pixel(pixmap: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> [u8; 4] {
    let p = pixmap.pixel(x, y).expect("a pixel inside the picture");
    [p.red(), p.green(), p.blue(), p.alpha()]
}
