//! The same picture in other viewers: the corpus cards' SVG drawn by
//! rsvg-convert (librsvg, Debian's `librsvg2-bin`) and by CairoSVG (PyPI
//! `cairosvg`) against this crate's own PNG (resvg) of the same render.
//!
//! Pixels are compared as 8-bit premultiplied RGBA (each PNG decoded by
//! tiny-skia): a pixel differs when any of its four channels differs by
//! more than 32. At most 2% of the card's pixels may differ, and at most
//! 2% of those of the rules box (x 140–1360, y 1300–1850, the box of
//! `reference.rs`), where the white rules text has its black shadow (2, 4
//! px), drawn beneath it, and the watermark its white overlay.
//!
//! And no text loses its shadow: where this crate's PNG has the shadow (a
//! black pixel whose neighbour up and left by the offset is white text),
//! the other viewer's picture must be dark too.
//!
//! The programs: `CARDKIT_RSVG_CONVERT` (default `/usr/bin/rsvg-convert`)
//! and `CARDKIT_CAIROSVG` (default `target/ci-venv/bin/cairosvg`, the CI's
//! virtual environment); `.ci/run` installs both. Without them the test
//! says why it is skipped; in CI (`CI=true`) it fails.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use cardkit_render::render;
use resvg::tiny_skia::Pixmap;
use serde_json::json;
use support::{card_of, corpus_card, corpus_template, options, shared_dir, svg_uri, tool};

/// The most pixels that may differ, as a fraction.
const MOST_DIFFERING: f64 = 0.02;

/// A pixel differs when a channel differs by more than this.
const CHANNEL: u8 = 32;

/// The shadow's offset in the corpus cards, in card pixels.
const SHADOW: (u32, u32) = (2, 4);

/// The rules box: left, top, right, bottom (exclusive), in card pixels.
const RULES: (u32, u32, u32, u32) = (140, 1300, 1360, 1850);

struct Viewer {
    name: &'static str,
    program: PathBuf,
}

impl Viewer {
    /// Draws `svg` into `png`.
    fn draw(&self, svg: &Path, png: &Path) {
        let mut command = Command::new(&self.program);
        if self.name == "rsvg-convert" {
            command.arg("-o").arg(png).arg(svg);
        } else {
            command.arg(svg).arg("-o").arg(png);
        }
        let output = command.output().expect("the viewer runs");
        assert!(
            output.status.success(),
            "{} failed on {}: {}",
            self.name,
            svg.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

fn viewers() -> Option<Vec<Viewer>> {
    let rsvg = tool(
        "CARDKIT_RSVG_CONVERT",
        "/usr/bin/rsvg-convert",
        &["--version"],
        "install Debian's librsvg2-bin (.ci/run does)",
    )?;
    let cairosvg = tool(
        "CARDKIT_CAIROSVG",
        "target/ci-venv/bin/cairosvg",
        &["--version"],
        "pip install cairosvg into a virtual environment (.ci/run does, in target/ci-venv)",
    )?;
    Some(vec![
        Viewer {
            name: "rsvg-convert",
            program: rsvg,
        },
        Viewer {
            name: "CairoSVG",
            program: cairosvg,
        },
    ])
}

fn rgba(pixmap: &Pixmap, x: u32, y: u32) -> [u8; 4] {
    support::pixel(pixmap, x, y)
}

fn differs(a: [u8; 4], b: [u8; 4]) -> bool {
    a.iter().zip(b).any(|(a, b)| a.abs_diff(b) > CHANNEL)
}

/// The fraction of the pixels of the box (left, top, right, bottom) that
/// differ.
fn differing(
    ours: &Pixmap,
    theirs: &Pixmap,
    (left, top, right, bottom): (u32, u32, u32, u32),
) -> f64 {
    let mut count = 0u64;
    for y in top..bottom {
        for x in left..right {
            if differs(rgba(ours, x, y), rgba(theirs, x, y)) {
                count += 1;
            }
        }
    }
    count as f64 / f64::from((right - left) * (bottom - top))
}

fn white(p: [u8; 4]) -> bool {
    p.iter().all(|c| *c > 235)
}

fn dark(p: [u8; 4]) -> bool {
    p[3] > 220 && p[..3].iter().all(|c| *c < 60)
}

/// Of the shadow's pixels in `ours` (in the rules box, black, below and
/// right of white text by the offset), how many there are and how many are
/// dark in `theirs`.
fn shadow_kept(ours: &Pixmap, theirs: &Pixmap) -> (u64, u64) {
    let (left, top, right, bottom) = RULES;
    let (mut shadow, mut kept) = (0, 0);
    for y in top..bottom {
        for x in left..right {
            if dark(rgba(ours, x, y)) && white(rgba(ours, x - SHADOW.0, y - SHADOW.1)) {
                shadow += 1;
                if dark(rgba(theirs, x, y)) {
                    kept += 1;
                }
            }
        }
    }
    (shadow, kept)
}

#[test]
fn corpus_cards_look_the_same_in_rsvg_and_cairosvg() {
    let Some(shared) = shared_dir() else { return };
    let Some(viewers) = viewers() else { return };
    let template = corpus_template(&shared, "mightstone_template-angular.json");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewers");
    std::fs::create_dir_all(&dir).expect("a directory");
    for name in [
        "mightstone_dimirova-smiley_head.json",
        "mightstone_dimirova-smiley_2023-02-18.json",
    ] {
        let card = corpus_card(&shared, name);
        let rendered = render(&card, Some(&template), &options()).expect("renders");
        let ours = rendered.pixmap().expect("a picture");
        assert_eq!((ours.width(), ours.height()), (1500, 2100));
        let svg = dir.join("card.svg");
        std::fs::write(&svg, rendered.svg()).expect("written");
        for viewer in &viewers {
            let png = dir.join("card.png");
            viewer.draw(&svg, &png);
            let theirs = Pixmap::load_png(&png).expect("a PNG");
            assert_eq!(
                (theirs.width(), theirs.height()),
                (ours.width(), ours.height()),
                "{name} in {}: the picture's size",
                viewer.name
            );
            let whole = differing(&ours, &theirs, (0, 0, ours.width(), ours.height()));
            let rules = differing(&ours, &theirs, RULES);
            let (shadow, kept) = shadow_kept(&ours, &theirs);
            eprintln!(
                "{name} in {}: {:.2}% of the card's pixels differ, {:.2}% of the rules box's; {kept} of {shadow} shadow pixels kept",
                viewer.name,
                whole * 100.0,
                rules * 100.0
            );
            assert!(
                whole <= MOST_DIFFERING,
                "{name} in {}: {:.2}% of the card's pixels differ by more than {CHANNEL}",
                viewer.name,
                whole * 100.0
            );
            assert!(
                rules <= MOST_DIFFERING,
                "{name} in {}: {:.2}% of the rules box's pixels differ by more than {CHANNEL}",
                viewer.name,
                rules * 100.0
            );
            assert!(shadow > 1000, "{name}: the rules text has a shadow");
            assert!(
                kept as f64 >= 0.95 * shadow as f64,
                "{name} in {}: the rules text lost its shadow ({kept} of {shadow} pixels kept)",
                viewer.name
            );
        }
    }
}

#[test]
fn a_blurred_shadow_looks_the_same_in_rsvg_and_cairosvg() {
    let Some(viewers) = viewers() else { return };
    // At its own size: librsvg draws an SVG image at its own size, then
    // scales the pixels.
    let shape = svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='80' height='80'><circle cx='40' cy='40' r='36' fill='white'/></svg>");
    let card = card_of(
        120,
        120,
        json!([
            {"type": "image", "src": svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='120' height='120'><rect width='120' height='120' fill='#c08040'/></svg>"),
             "x": 0, "y": 0, "width": 120, "height": 120},
            {"type": "image", "src": shape, "x": 20, "y": 20, "width": 80, "height": 80,
             "filters": [{"type": "shadow", "color": "black", "x": 8, "y": 8, "blur": 10}]},
        ]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    let ours = rendered.pixmap().expect("a picture");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewers");
    std::fs::create_dir_all(&dir).expect("a directory");
    let svg = dir.join("blurred.svg");
    std::fs::write(&svg, rendered.svg()).expect("written");
    for viewer in &viewers {
        let png = dir.join("blurred.png");
        viewer.draw(&svg, &png);
        let theirs = Pixmap::load_png(&png).expect("a PNG");
        let whole = differing(&ours, &theirs, (0, 0, 120, 120));
        eprintln!(
            "blurred shadow in {}: {:.2}% of the pixels differ",
            viewer.name,
            whole * 100.0
        );
        assert!(
            whole <= MOST_DIFFERING,
            "{}: {:.2}% of the pixels differ by more than {CHANNEL}",
            viewer.name,
            whole * 100.0
        );
        // The blur: between the circle and the far edge of its shadow, the
        // shadow fades, as in the PNG.
        for x in [102, 106, 110] {
            let (a, b) = (rgba(&ours, x, 68), rgba(&theirs, x, 68));
            assert!(
                !differs(a, b),
                "{} at ({x}, 68): {b:?}, not {a:?}",
                viewer.name
            );
        }
    }
}
