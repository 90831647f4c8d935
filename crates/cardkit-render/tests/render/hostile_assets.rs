//! Hostile assets and geometry: images that declare more pixels than they
//! carry, SVGZ that inflate without end, filters and symbols whose work
//! follows the whole picture, boxes far outside the card, fonts that take
//! another font's name, and text beyond what a card draws. Each is refused
//! or bounded with a report line, never a crash; each test is a scaled-down
//! case of `bench/hostile.sh`'s.

use crate::support;

use std::io::Write as _;

use base64::Engine as _;
use cardkit::model::Template;
use cardkit_render::{render, Limits, Options};
use serde_json::json;
use support::{card_of, options, svg_uri};

fn lines(rendered: &cardkit_render::Rendered) -> Vec<String> {
    rendered.report().iter().map(ToString::to_string).collect()
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// A PNG header declaring `width` × `height`, with no pixels after it.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    png.extend_from_slice(&width.to_be_bytes());
    png.extend_from_slice(&height.to_be_bytes());
    png.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    png.extend_from_slice(b"\x00\x00\x00\x00IEND\xae\x42\x60\x82");
    png
}

/// A baseline JPEG's start declaring `side` × `side`.
fn jpeg_header(side: u16) -> Vec<u8> {
    let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 8];
    jpeg.extend_from_slice(&side.to_be_bytes());
    jpeg.extend_from_slice(&side.to_be_bytes());
    jpeg.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]);
    jpeg
}

/// A lossless WebP's start declaring 16384 × 16384.
fn webp_header() -> Vec<u8> {
    let mut webp = b"RIFF\x1c\x00\x00\x00WEBPVP8L\x0f\x00\x00\x00\x2f".to_vec();
    // 14 bits of width - 1, 14 of height - 1, all ones.
    webp.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0x0F, 0, 0, 0, 0, 0, 0, 0, 0]);
    webp
}

/// A real 20 × 20 red PNG.
fn red_png() -> Vec<u8> {
    let mut pixmap = resvg::tiny_skia::Pixmap::new(20, 20).expect("a pixmap");
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(255, 0, 0, 255));
    pixmap.encode_png().expect("a PNG")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("written");
    encoder.finish().expect("finished")
}

#[test]
fn raster_images_declaring_too_many_pixels_are_refused_before_decoding() {
    let cases = [
        ("PNG", data_uri("image/png", &png_header(100_000, 100_000)), "100000 × 100000"),
        ("JPEG", data_uri("image/jpeg", &jpeg_header(16_384)), "16384 × 16384"),
        ("WebP", data_uri("image/webp", &webp_header()), "16384 × 16384"),
        (
            "PNG in an SVG",
            svg_uri(&format!(
                "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='4' height='4'><image width='4' height='4' xlink:href='{}'/></svg>",
                data_uri("image/png", &png_header(100_000, 100_000))
            )),
            "100000 × 100000",
        ),
    ];
    for (what, src, size) in cases {
        let card = card_of(
            40,
            40,
            json!([{"type": "image", "name": "Bomb", "src": src, "x": 0, "y": 0, "width": 40, "height": 40}]),
        );
        let rendered = render(&card, None, &options()).expect("renders");
        let lines = lines(&rendered);
        assert_eq!(lines.len(), 1, "{what}: {lines:?}");
        assert!(
            lines[0].starts_with("/data/children/0 (\"Bomb\"): image `data:")
                && lines[0].ends_with(&format!(
                    "declares {size} pixels, more than the limit of {} pixels an image may have: drawn as a placeholder box",
                    Limits::default().max_image_pixels
                )),
            "{what}: {}",
            lines[0]
        );
        rendered.png().expect("a PNG, with the placeholder");
    }
}

#[test]
fn an_image_drawn_by_many_layers_counts_each_drawing() {
    let src = data_uri("image/png", &red_png());
    let layers: Vec<_> = (0..5)
        .map(|i| json!({"type": "image", "src": src, "x": i * 8, "y": 0, "width": 8, "height": 8}))
        .collect();
    let limits = Limits {
        max_drawn_pixels: 2 * 400,
        ..Limits::default()
    };
    let card = card_of(40, 8, json!(layers));
    let rendered = render(
        &card,
        None,
        &Options {
            limits,
            ..options()
        },
    )
    .expect("renders");
    let lines = lines(&rendered);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines.iter().all(|l| l.ends_with(
        "the card's images add up to more than the limit of 800 pixels of drawing: drawn as a placeholder box"
    )));
    let pixels = rendered.pixmap().expect("pixels");
    assert_eq!(support::pixel(&pixels, 12, 4), [255, 0, 0, 255]);
}

#[test]
fn an_svgz_that_inflates_beyond_the_limit_is_refused() {
    let padding = " ".repeat(200_000);
    let svg = format!("<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'>{padding}<rect width='4' height='4'/></svg>");
    let svgz = gzip(svg.as_bytes());
    let inside = svg_uri(&format!(
        "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='4' height='4'><image width='4' height='4' xlink:href='{}'/></svg>",
        data_uri("image/svg+xml", &svgz)
    ));
    let limits = Limits {
        max_asset_bytes: 100_000,
        ..Limits::default()
    };
    for src in [data_uri("image/svg+xml", &svgz), inside] {
        let card = card_of(
            10,
            10,
            json!([{"type": "image", "src": src, "x": 0, "y": 0, "width": 10, "height": 10}]),
        );
        let rendered = render(
            &card,
            None,
            &Options {
                limits,
                ..options()
            },
        )
        .expect("renders");
        let lines = lines(&rendered);
        assert!(
            lines.len() == 1
                && lines[0].ends_with(
                    "inflates to more than the limit of 100000 bytes: drawn as a placeholder box"
                ),
            "{lines:?}"
        );
    }
    // Within the limit, the same SVGZ is drawn.
    let card = card_of(
        10,
        10,
        json!([{"type": "image", "src": data_uri("image/svg+xml", &svgz), "x": 0, "y": 0, "width": 10, "height": 10}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    assert!(rendered.report().is_empty(), "{:?}", rendered.report());
}

#[test]
fn a_layer_far_outside_the_card_is_clamped_not_a_panic() {
    let dot = svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='2' height='2'><rect width='2' height='2' fill='red'/></svg>");
    let card = card_of(
        8,
        8,
        json!([
            {"type": "image", "name": "Far", "src": dot, "x": -2_000_000_000_i64, "y": -2_000_000_000_i64, "width": 5_000_000_000_i64, "height": 5_000_000_000_i64},
            {"type": "image", "src": dot, "x": 0, "y": 0, "width": 40, "height": 40,
             "masks": [{"type": "image", "name": "m", "src": dot, "x": -1e12, "y": -1e12, "width": 1e13, "height": 1e13}],
             "filters": [{"type": "shadow", "color": "black", "x": 3_000_000_000_i64, "y": 0}]},
            {"type": "text", "text": "far", "size": 10, "x": 0, "y": -9_000_000_000_i64, "width": 40, "height": 10_000_000_000_i64},
        ]),
    );
    for scale in [1.0, 64.0] {
        let rendered = render(&card, None, &Options { scale, ..options() }).expect("renders");
        let lines = lines(&rendered);
        assert_eq!(
            lines,
            [
                "/data/children/0 (\"Far\"): the box reaches beyond ±4000000 px: drawn clamped to it",
                "/data/children/1: mask 0's box reaches beyond ±4000000 px: drawn clamped to it",
                "/data/children/1: filter 0: the shadow's offset reaches beyond ±4000000 px: drawn clamped to it",
                "/data/children/2: the box reaches beyond ±4000000 px: drawn clamped to it",
            ]
        );
        rendered.png().expect("a PNG");
    }
    // Margins of 10^12 around the card are drawn at the largest a side may be.
    let mut card = card_of(10, 10, json!([]));
    card.margin_x = 1_000_000_000_000;
    card.margin_y = 1_000_000_000_000;
    let rendered = render(
        &card,
        None,
        &Options {
            bleed: true,
            scale: 0.0001,
            ..options()
        },
    )
    .expect("renders");
    assert_eq!(
        lines(&rendered),
        [
            "/marginX: the margin of 1000000000000 px is more than the limit of 1000000 px: 1000000 px drawn",
            "/marginY: the margin of 1000000000000 px is more than the limit of 1000000 px: 1000000 px drawn",
        ]
    );
    assert!(!rendered.svg().contains("2147483647"));
}

#[test]
fn a_symbol_repeated_in_text_is_drawn_within_the_budget() {
    let template: Template = serde_json::from_value(json!({
        "name": "t",
        "context": {"symbolSets": [{"name": "s", "prototype": {}, "srcPrefix": "", "symbols": [{"name": "T", "src": svg_uri(
            "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><circle cx='5' cy='5' r='5'/></svg>"
        )}]}]},
        "card": {"name": "c", "width": 10, "height": 10},
    }))
    .expect("a template");
    let card = card_of(
        200,
        200,
        json!([{"type": "text", "text": "{T}".repeat(300), "size": 10, "x": 0, "y": 0, "width": 200, "height": 200}]),
    );
    // Each symbol is drawn in a layer of its own size (its group is
    // isolated), not of the picture's; the budget takes some of them.
    let limits = Limits {
        max_drawn_pixels: 1_000,
        ..Limits::default()
    };
    let rendered = render(
        &card,
        Some(&template),
        &Options {
            limits,
            ..options()
        },
    )
    .expect("renders");
    let lines: Vec<String> = lines(&rendered)
        .into_iter()
        .filter(|l| !l.contains("does not fit"))
        .collect();
    assert_eq!(
        lines,
        ["/data/children/0: the card's images add up to more than the limit of 1000 pixels of drawing: drawn as a placeholder box"]
    );
    assert!(rendered.bounds_of("layer-0-symbol-0").is_some());
    // The SVG written has no trace of the isolation.
    assert!(!rendered.svg().contains("isolation"));
    rendered.png().expect("a PNG");
}

#[test]
fn a_blurred_shadow_is_bounded_by_the_picture() {
    let dot = svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='2' height='2'><rect width='2' height='2' fill='red'/></svg>");
    let card = card_of(
        200,
        200,
        json!([{"type": "image", "src": dot, "x": 0, "y": 0, "width": 200, "height": 200,
                "filters": [{"type": "shadow", "color": "black", "x": 5, "y": 5, "blur": 1000}]}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    assert_eq!(
        lines(&rendered),
        ["/data/children/0: filter 0: a blur of 1000 px is more than the limit of 100 px: drawn at 100 px"]
    );
    // The region ends the shadow's reach (305 px, at most the picture's
    // side, 200 px) and an eighth of the picture (25 px) beyond the picture.
    assert!(
        rendered
            .svg()
            .contains("x=\"-225\" y=\"-225\" width=\"650\" height=\"650\""),
        "{}",
        &rendered.svg()[..600]
    );
    rendered.png().expect("a PNG");
}

#[test]
fn an_svg_asset_with_a_huge_morphology_is_refused_by_the_budget() {
    let morphology = svg_uri(
        "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><filter id='f' x='-1e6' y='-1e6' width='2e6' height='2e6' filterUnits='userSpaceOnUse'><feMorphology operator='dilate' radius='5000'/></filter><rect width='10' height='10' filter='url(#f)'/></svg>",
    );
    let card = card_of(
        100,
        100,
        json!([{"type": "image", "src": morphology, "x": 0, "y": 0, "width": 100, "height": 100}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    let lines = lines(&rendered);
    assert!(
        lines.len() == 1 && lines[0].contains("pixels of drawing: drawn as a placeholder box"),
        "{lines:?}"
    );
    rendered.png().expect("a PNG");
}

#[test]
fn text_is_drawn_in_the_face_it_was_measured_with() {
    // DejaVu Sans Condensed calls itself "DejaVu Sans", as the fallback
    // does: text set in it must be drawn in it, not in the fallback.
    let dejavu = std::path::Path::new("/usr/share/fonts/truetype/dejavu");
    let template: Template = serde_json::from_value(json!({
        "name": "t",
        "context": {"fonts": [{"name": "narrow", "src": "DejaVuSansCondensed.ttf"}]},
        "card": {"name": "c", "width": 10, "height": 10},
    }))
    .expect("a template");
    let text = "Measured and drawn in one face";
    let card = card_of(
        600,
        60,
        json!([
            {"type": "text", "text": text, "font": "narrow", "size": 40, "x": 0, "y": 0, "width": 560, "height": 60},
            {"type": "text", "text": text, "font": "undeclared", "size": 40, "x": 0, "y": 0, "width": 560, "height": 60},
        ]),
    );
    let options = Options {
        fonts: Some(dejavu.to_path_buf()),
        ..options()
    };
    let rendered = render(&card, Some(&template), &options).expect("renders");
    for layer in ["layer-0", "layer-1"] {
        let bounds = rendered.bounds_of(layer).expect("drawn");
        assert!(
            bounds.x >= -2.0 && bounds.x + bounds.width <= 562.0,
            "{layer}: {bounds:?}, {:?}",
            rendered.report()
        );
    }
    let narrow = rendered.bounds_of("layer-0").expect("drawn");
    let fallback = rendered.bounds_of("layer-1").expect("drawn");
    // The narrow face fits the box at a larger size.
    assert!(narrow.height > fallback.height, "{narrow:?} {fallback:?}");
}

#[test]
fn text_across_layers_stops_at_the_cards_limit() {
    let layers: Vec<_> = (0..3)
        .map(|i| json!({"type": "text", "text": "a ".repeat(400), "size": 8, "x": 0, "y": i * 100, "width": 100, "height": 100}))
        .collect();
    let limits = Limits {
        max_drawn_words: 1000,
        ..Limits::default()
    };
    let card = card_of(100, 300, json!(layers));
    let rendered = render(
        &card,
        None,
        &Options {
            limits,
            ..options()
        },
    )
    .expect("renders");
    let message = "the card's text reaches the limit of 1000 words and symbols or 200000 characters drawn: the rest of this layer's text is not drawn";
    let lines: Vec<String> = lines(&rendered)
        .into_iter()
        .filter(|l| !l.contains("does not fit"))
        .collect();
    assert_eq!(lines, [format!("/data/children/2: {message}"),]);
    let card = card_of(
        100,
        400,
        json!([layers[0], layers[1], layers[2], layers[0]]),
    );
    let rendered = render(
        &card,
        None,
        &Options {
            limits,
            ..options()
        },
    )
    .expect("renders");
    assert!(lines_of_layer(&rendered, "/data/children/3")
        .contains(&format!("/data/children/3: {message}")));
}

fn lines_of_layer(rendered: &cardkit_render::Rendered, at: &str) -> Vec<String> {
    lines(rendered)
        .into_iter()
        .filter(|l| l.starts_with(at))
        .collect()
}
