//! Hostile designs: each renders in bounded time and memory, or fails with
//! a clear error, or is drawn with a report line; never a crash. The limits
//! are `cardkit_render::Limits` (documented there and in the book, `docs/rendering.md`).

use crate::support;

use std::time::{Duration, Instant};

use cardkit::model::{Card, Group, Layer, Template};
use cardkit_render::{render, Limits, Options, RenderError};
use serde_json::json;
use support::{card_of, options, svg_uri};

/// A guard against a hang or a blow-up, not a speed target (the time and
/// memory each class of input may take are `bench/hostile.sh`'s, on the
/// release build): debug builds on a loaded 2-core machine took up to 100 s
/// for the heaviest case here, a hang is far beyond it.
const BOUND: Duration = Duration::from_secs(600);

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    assert!(took < BOUND, "{what} took {took:?}");
    out
}

fn dot() -> String {
    svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='2' height='2'><rect width='2' height='2' fill='red'/></svg>")
}

#[test]
fn ten_thousand_layers() {
    let src = dot();
    let layers: Vec<_> = (0..10_000)
        .map(|i| {
            if i % 10 == 0 {
                json!({"type": "text", "text": format!("t{i}"), "size": 8, "x": i % 100 * 10, "y": i / 100 * 10, "width": 10, "height": 10})
            } else {
                json!({"type": "image", "src": src, "x": i % 100 * 10, "y": i / 100 * 10, "width": 10, "height": 10, "z": i % 7})
            }
        })
        .collect();
    let card = card_of(1000, 1000, json!(layers));
    let rendered = timed("10,000 layers", || {
        render(
            &card,
            None,
            &Options {
                scale: 0.1,
                ..options()
            },
        )
    })
    .expect("renders");
    assert!(rendered.report().is_empty());
    assert!(rendered.bounds_of("layer-9999").is_some());
    timed("the PNG of 10,000 layers", || rendered.png()).expect("a PNG");
    // Beyond the limit of layers: a clear error.
    let limits = Limits {
        max_layers: 5_000,
        ..Limits::default()
    };
    let error = render(
        &card,
        None,
        &Options {
            limits,
            ..options()
        },
    )
    .unwrap_err();
    assert!(matches!(error, RenderError::Limit(_)));
    assert_eq!(
        error.to_string(),
        "the card is beyond a limit: the card has more than 5000 layers"
    );
}

fn nested(depth: usize) -> Card {
    let mut group = Group {
        children: vec![Layer::Image(
            serde_json::from_value(
                json!({"type": "image", "src": dot(), "x": 1, "y": 1, "width": 8, "height": 8}),
            )
            .expect("an image"),
        )],
        ..Group::default()
    };
    for _ in 1..depth {
        group = Group {
            children: vec![Layer::Group(group)],
            ..Group::default()
        };
    }
    let mut card = card_of(10, 10, json!([]));
    card.data = group;
    card
}

#[test]
fn nesting_at_the_depth_limit_draws_the_innermost_layer() {
    // 512 levels of groups is the spec's least depth limit; cardkit's is
    // 1100 (`cardkit::schema::MAX_DEPTH`). The renderer walks without
    // recursion, so both draw.
    for depth in [512, cardkit::schema::MAX_DEPTH] {
        let card = nested(depth);
        let rendered = timed("deep nesting", || render(&card, None, &options())).expect("renders");
        let pixels = rendered.pixmap().expect("pixels");
        assert_eq!(
            support::pixel(&pixels, 5, 5),
            [255, 0, 0, 255],
            "depth {depth}"
        );
        let pointer = "/children/0".repeat(depth);
        assert!(rendered.report().is_empty());
        assert!(rendered.svg().contains("layer-0"), "{pointer}");
    }
}

#[test]
fn a_card_of_fifty_thousand_pixels_a_side() {
    let card = card_of(
        50_000,
        50_000,
        json!([{"type": "image", "src": dot(), "x": 0, "y": 0, "width": 50_000, "height": 50_000}]),
    );
    let rendered =
        timed("a huge card", || render(&card, None, &options())).expect("the SVG renders");
    assert_eq!(rendered.size(), (50_000.0, 50_000.0));
    let error = rendered.png().unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the card is beyond a limit: a PNG of 50000 × 50000 is 2500000000 pixels, more than the limit of {} (use a smaller scale)",
            Limits::default().max_pixels
        )
    );
    let small = render(
        &card,
        None,
        &Options {
            scale: 0.01,
            ..options()
        },
    )
    .expect("renders");
    let png = timed("a huge card at 1/100", || small.png()).expect("a PNG");
    assert!(!png.is_empty());
    // A side beyond any drawable size is refused before anything is drawn.
    let error = render(&card_of(2_000_000, 10, json!([])), None, &options()).unwrap_err();
    assert!(error.to_string().contains("width is 2000000"), "{error}");
}

#[test]
fn a_hundred_megabyte_data_image_is_reported_not_decoded() {
    let payload = "A".repeat(100 * 1024 * 1024);
    let src = format!("data:image/png;base64,{payload}");
    drop(payload);
    let card = card_of(
        100,
        100,
        json!([{"type": "image", "name": "Huge", "src": src, "x": 0, "y": 0, "width": 100, "height": 100}]),
    );
    drop(src);
    let rendered =
        timed("a 100 MB data: URI", || render(&card, None, &options())).expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("/data/children/0 (\"Huge\"): image `data:image/png;base64,AAAA")
            && lines[0].ends_with(&format!(
                "78643200 bytes, beyond the limit of {} bytes: drawn as a placeholder box",
                Limits::default().max_asset_bytes
            )),
        "{}",
        lines[0]
    );
    // The placeholder is small: the 100 MB never reach the SVG.
    assert!(rendered.svg().len() < 10_000);
}

#[test]
fn malformed_and_foreign_images_are_reported() {
    let cases = [
        (
            "malformed SVG",
            svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='10'><rect"),
            "cannot be decoded as image/svg+xml",
        ),
        (
            "not an image",
            "data:text/plain,hello".to_owned(),
            "not an image (PNG, JPEG, GIF, WebP or SVG)",
        ),
        (
            "truncated PNG",
            "data:image/png;base64,iVBORw0KGgo=".to_owned(),
            "cannot be decoded as image/png",
        ),
        (
            "bad base64",
            "data:image/png;base64,!!!".to_owned(),
            "the base64 data cannot be decoded",
        ),
        (
            "outside the root",
            "../../etc/passwd".to_owned(),
            "leads out of the asset root",
        ),
        (
            "remote",
            "https://example.org/frame.png".to_owned(),
            "is remote and not mirrored locally",
        ),
        (
            "another scheme",
            "file:///etc/passwd".to_owned(),
            "the scheme file: is never followed",
        ),
    ];
    for (what, src, expected) in cases {
        let card = card_of(
            10,
            10,
            json!([{"type": "image", "src": src, "x": 0, "y": 0, "width": 10, "height": 10}]),
        );
        let rendered = timed(what, || render(&card, None, &options())).expect("renders");
        let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
        assert!(
            lines.len() == 1 && lines[0].contains(expected),
            "{what}: {lines:?}"
        );
        assert!(
            rendered.svg().contains("<path"),
            "{what}: a placeholder is drawn"
        );
        rendered.png().expect("a PNG");
    }
}

#[test]
fn a_font_file_that_is_not_a_font_is_reported_and_replaced() {
    let dir = std::env::temp_dir().join(format!("cardkit-render-notafont-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    std::fs::write(
        dir.join("Broken.ttf"),
        b"\x00\x01\x00\x00 this is not a font at all",
    )
    .expect("written");
    let template: Template = serde_json::from_value(json!({
        "name": "t",
        "context": {"fonts": [{"name": "broken", "src": "fonts/Broken.ttf"}]},
        "card": {"name": "c", "width": 10, "height": 10},
    }))
    .expect("a template");
    let card = card_of(
        200,
        50,
        json!([{"type": "text", "text": "Hello", "font": "broken", "size": 20, "x": 0, "y": 0, "width": 200, "height": 50}]),
    );
    let options = Options {
        fonts: Some(dir.clone()),
        ..options()
    };
    let rendered =
        timed("a broken font", || render(&card, Some(&template), &options)).expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "template /context/fonts/0: font \"broken\": the file is not a font (no face could be read)",
            "/data/children/0: font \"broken\" (its file could not be loaded) substituted by \"DejaVu Sans\" weight 400 from /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        ]
    );
    assert!(
        rendered.bounds_of("layer-0").is_some(),
        "drawn in the fallback"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn text_beyond_the_limit_and_text_that_cannot_fit() {
    let long = "word ".repeat(30_000);
    let card = card_of(
        100,
        100,
        json!([
            {"type": "text", "text": long, "size": 10, "x": 0, "y": 0, "width": 100, "height": 100},
            {"type": "text", "text": "W", "size": 10, "x": 0, "y": 0, "width": 0, "height": 0},
        ]),
    );
    let rendered = timed("long text", || render(&card, None, &options())).expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "/data/children/0: the text is longer than the limit of 100000 characters: not drawn",
            "/data/children/1: the text does not fit its box of 0 × 0 even at 1 px",
        ]
    );
    // Under the limit, a long text is laid out in bounded time.
    let card = card_of(
        100,
        100,
        json!([{"type": "text", "text": "word ".repeat(15_000), "size": 200, "x": 0, "y": 0, "width": 100, "height": 100}]),
    );
    let rendered = timed("long text shrunk", || render(&card, None, &options())).expect("renders");
    assert_eq!(rendered.report().len(), 1, "{:?}", rendered.report());
}

#[test]
fn a_large_image_drawn_many_times_is_embedded_within_the_limit() {
    // A 1 MB image (an SVG with a long comment) drawn by 1,000 layers:
    // 1.3 GB as embedded base64 were each copy kept. Past the limit the
    // layers are placeholders, each with its report line.
    let padding = "x".repeat(1024 * 1024);
    let big = svg_uri(&format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><!-- {padding} --><rect width='4' height='4' fill='red'/></svg>"
    ));
    let layers: Vec<_> = (0..1_000)
        .map(|i| json!({"type": "image", "src": big, "x": i % 40, "y": i / 40, "width": 4, "height": 4}))
        .collect();
    let card = card_of(50, 30, json!(layers));
    let rendered = timed("an image drawn 1,000 times", || {
        render(&card, None, &options())
    })
    .expect("renders");
    let limit = Limits::default().max_embedded_bytes;
    let per_copy = big.len() as u64;
    let embedded = limit / per_copy;
    assert_eq!(rendered.report().len() as u64, 1_000 - embedded);
    assert!(rendered.report()[0]
        .message
        .starts_with("the card's images add up to more than the limit of"));
    assert!((rendered.svg().len() as u64) < limit + 10_000_000);
}
