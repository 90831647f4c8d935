//! Filters written as geometry (masked boxes rather than SVG filter
//! primitives, which some viewers leave out): they draw what the filters
//! they stand for draw, in order, and their number is bounded.

use crate::support;

use cardkit_render::{render, Limits, Options};
use serde_json::json;
use support::{card_of, options, pixel, svg_uri};

/// A shape with soft and transparent parts: a half-transparent square and
/// an opaque circle.
const SHAPE: &str = "<svg xmlns='http://www.w3.org/2000/svg' width='40' height='40'><rect x='2' y='2' width='20' height='30' fill='blue' fill-opacity='0.5'/><circle cx='26' cy='22' r='12' fill='green'/></svg>";

/// `SHAPE` drawn with the same filters as SVG filter primitives, in the
/// order the spec applies them, drawn by resvg.
fn drawn_with_svg_filters() -> resvg::tiny_skia::Pixmap {
    let svg = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='100' height='100'>\
         <filter id='f' filterUnits='userSpaceOnUse' color-interpolation-filters='sRGB' x='-50' y='-50' width='200' height='200'>\
         <feFlood flood-color='rgb(0,0,0)' flood-opacity='0.6' result='c0'/><feComposite in='c0' in2='SourceGraphic' operator='in' result='a0'/>\
         <feOffset in='a0' dx='3' dy='5' result='o0'/><feMerge result='f0'><feMergeNode in='o0'/><feMergeNode in='SourceGraphic'/></feMerge>\
         <feFlood flood-color='rgb(255,0,0)' flood-opacity='0.5' result='c1'/><feComposite in='c1' in2='f0' operator='in' result='f1'/>\
         </filter>\
         <g filter='url(#f)' opacity='0.8'><g transform='rotate(30 50 50)'>\
         <image x='20' y='20' width='60' height='60' preserveAspectRatio='none' xlink:href='{}'/></g></g></svg>",
        svg_uri(SHAPE)
    );
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default()).expect("an SVG");
    let mut pixmap = resvg::tiny_skia::Pixmap::new(100, 100).expect("a pixmap");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

#[test]
fn a_shadow_then_an_overlay_draw_what_svg_filters_draw() {
    let card = card_of(
        100,
        100,
        json!([{"type": "image", "src": svg_uri(SHAPE), "x": 20, "y": 20, "width": 60, "height": 60,
        "rotation": 30, "opacity": 0.8,
        "filters": [
            {"type": "shadow", "color": "#00000099", "x": 3, "y": 5},
            {"type": "colorOverlay", "color": "#ff000080"},
        ]}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    assert!(rendered.report().is_empty(), "{:?}", rendered.report());
    assert!(!rendered.svg().contains("<filter"), "no filter primitives");
    let ours = rendered.pixmap().expect("a picture");
    let theirs = drawn_with_svg_filters();
    let mut worst = 0;
    let mut drawn = 0;
    for y in 0..100 {
        for x in 0..100 {
            let (a, b) = (pixel(&ours, x, y), pixel(&theirs, x, y));
            worst = worst.max(
                a.iter()
                    .zip(b)
                    .map(|(a, b)| a.abs_diff(b))
                    .max()
                    .unwrap_or(0),
            );
            drawn += u32::from(b[3] > 0);
        }
    }
    assert!(
        drawn > 2000,
        "the reference draws the shape ({drawn} pixels)"
    );
    // Masks and filters round differently (a level or two of 255), and the
    // edges of the overlay's box are smoothed on their own.
    assert!(worst <= 8, "a channel differs by {worst}");
}

#[test]
fn a_layer_with_many_filters_applies_the_first_four() {
    let filters: Vec<_> = (0..10_000)
        .map(|i| json!({"type": "shadow", "color": "black", "x": i % 7, "y": 1}))
        .collect();
    let card = card_of(
        40,
        40,
        json!([{"type": "text", "text": "many", "size": 10, "x": 0, "y": 0, "width": 40, "height": 40,
                "filters": filters}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        ["/data/children/0: 10000 filters are more than the limit of 4: the first 4 applied"]
    );
    assert_eq!(rendered.svg().matches("<mask").count(), 4);
    rendered.png().expect("a PNG");
}

#[test]
fn filters_beyond_the_drawing_budget_are_left_out() {
    let layer = json!({"type": "text", "text": "many", "size": 10, "x": 0, "y": 0, "width": 40, "height": 40,
                       "filters": [{"type": "shadow", "color": "black", "x": 1, "y": 1}, {"type": "colorOverlay", "color": "red"}]});
    let card = card_of(40, 40, json!([layer.clone(), layer.clone(), layer]));
    // Each layer's two filters draw their region (the card grown by the
    // shadow's reach and an eighth of its side: 52 x 52) three times.
    let limits = Limits {
        max_drawn_pixels: 2 * 3 * 52 * 52,
        ..Limits::default()
    };
    let rendered = render(
        &card,
        None,
        &Options {
            limits,
            ..options()
        },
    )
    .expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        ["/data/children/2: its filters would take the card's drawing beyond the limit of 16224 pixels: drawn without them"]
    );
    assert_eq!(rendered.svg().matches("<mask").count(), 4);
    assert!(rendered.bounds_of("layer-2").is_some());
}

fn blurred(blur: f64) -> cardkit::model::Card {
    card_of(
        100,
        100,
        json!([{"type": "image", "src": svg_uri(SHAPE), "x": 20, "y": 20, "width": 60, "height": 60,
                "opacity": 0.8,
                "filters": [{"type": "shadow", "color": "#000000", "x": 6, "y": 4, "blur": blur}]}]),
    )
}

#[test]
fn a_blurred_shadow_is_a_picture_in_the_svg_drawing_what_the_png_draws() {
    let rendered = render(&blurred(6.0), None, &options()).expect("renders");
    assert!(rendered.report().is_empty(), "{:?}", rendered.report());
    let svg = rendered.svg();
    assert!(
        svg.contains("<image id=\"layer-0-shadow-0\" x=\"0\" y=\"0\" width=\"100\" height=\"100\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,"),
        "the shadow's picture, over the picture"
    );
    assert!(
        !svg.contains("filter=\"url("),
        "nothing drawn with a filter"
    );
    // The SVG, drawn again, draws what the PNG draws.
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("an SVG");
    let mut again = resvg::tiny_skia::Pixmap::new(100, 100).expect("a pixmap");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut again.as_mut(),
    );
    let png = rendered.pixmap().expect("a picture");
    let mut worst = 0;
    for y in 0..100 {
        for x in 0..100 {
            let (a, b) = (pixel(&png, x, y), pixel(&again, x, y));
            worst = worst.max(
                a.iter()
                    .zip(b)
                    .map(|(a, b)| a.abs_diff(b))
                    .max()
                    .unwrap_or(0),
            );
        }
    }
    assert!(worst <= 2, "a channel differs by {worst}");
    // The shadow is there, blurred: grey beyond the shape's right edge.
    let edge = pixel(&png, 83, 50);
    assert!(edge[3] > 0 && edge[3] < 200, "{edge:?}");
}

#[test]
fn a_blurred_shadow_beyond_the_pixel_limit_keeps_its_filter() {
    let limits = Limits {
        max_pixels: 100,
        ..Limits::default()
    };
    let rendered = render(
        &blurred(6.0),
        None,
        &Options {
            limits,
            ..options()
        },
    )
    .expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        ["/data/children/0: a blurred shadow of 100 × 100 pixels is more than the limit of 100: written as an SVG filter, which some viewers do not draw"]
    );
    assert!(rendered
        .svg()
        .contains("<g id=\"layer-0-shadow-0\" filter=\"url("));
    assert!(!rendered.svg().contains("image/png"));
}
