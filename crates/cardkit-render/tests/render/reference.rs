//! The structure of a render compared with the design tool's own export of
//! the same card, `corpus/design-tool/mightstone_dimirova-smiley.png`
//! (1500 × 2100).
//!
//! The reference's boxes were measured once, by image analysis (Python,
//! Pillow and NumPy, on the PNG as published), and are kept here with how
//! each was taken: the bounding box of the pixels that pass a colour test
//! inside a search window, in card pixels, right and bottom edges
//! exclusive.
//!
//! - Text: pure white pixels (R, G and B above 235). Title in x 100–1150,
//!   y 60–200 (left of the symbols); type line in x 250–1150, y 1870–1975;
//!   power/toughness in x 1200–1400, y 1870–1975; rules text as the bands
//!   of rows with more than 2 white pixels in x 140–1360, y 1300–1850.
//! - Symbols: pixels brighter than 150 on average, or blue (B above 180, R
//!   below 150), in x 1100–1420, y 80–190, split into runs of columns
//!   holding more than 3 such pixels.
//! - Art: the smiley's black features (R, G and B below 40): left eye in x
//!   350–700, y 250–805; right eye in x 800–1150, y 250–805; nose in x
//!   600–900, y 840–1000. They sit inside the art window, away from the
//!   frames, so the stand-in frames cannot change them.
//! - Watermark: pixels of mean 135–215 (lighter than the rules box, darker
//!   than text): x extent in y 1490–1560 (between text lines), top in y
//!   1320–1420 and bottom in y 1690–1800 (x 520–980).
//! - Set icon: pixels with R, G and B above 200 in x 700–800, y 1800–1890.
//!
//! The render uses the stand-in assets and the fallback font (the design
//! tool's fonts, Quango and Montserrat, are not in the corpus), so text is
//! compared by position (edges and centres), not by width, within
//! tolerances that allow for the other font's side bearings and metrics.
//! The reference shows the rules text of the card's earlier version (two
//! paragraphs); the rules are compared on a render of that version
//! (`…_2023-02-18.json`), the rest on both (the earlier one, as the tool
//! saved it, leaves its frames' boxes out: they must cover the card). Where the
//! reference differs by more than the tolerance of the rest, the test says
//! why in its tolerance.

use crate::support;

use cardkit::model::{Card, Group, Layer};
use cardkit_render::{render, Bounds, Options, Rendered};
use support::{corpus_card, corpus_template, options, shared_dir};

/// A box as measured: left, top, right, bottom.
type Edges = (f32, f32, f32, f32);

fn edges(b: Bounds) -> Edges {
    (b.x, b.y, b.x + b.width, b.y + b.height)
}

/// The drawing index of the layer named `name` (layers in z order per
/// group, as the renderer numbers them).
fn layer(card: &Card, name: &str) -> usize {
    fn walk(group: &Group, out: &mut Vec<Option<String>>) {
        let mut children: Vec<&Layer> = group.children.iter().collect();
        children.sort_by_key(|layer| match layer {
            Layer::Image(image) => image.z,
            _ => 0,
        });
        for layer in children {
            match layer {
                Layer::Group(inner) => walk(inner, out),
                Layer::Image(image) => out.push(image.name.clone()),
                Layer::Text(text) => out.push(text.name.clone()),
            }
        }
    }
    let mut names = Vec::new();
    walk(&card.data, &mut names);
    names
        .iter()
        .position(|n| n.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no layer named {name}"))
}

fn bounds(rendered: &Rendered, id: &str) -> Edges {
    edges(
        rendered
            .bounds_of(id)
            .unwrap_or_else(|| panic!("{id} is not drawn")),
    )
}

/// Checks each edge of `ours` against `reference` within `tolerance`.
fn close(what: &str, ours: Edges, reference: Edges, tolerance: f32) {
    eprintln!("{what}: ours {ours:?}, the reference's {reference:?}");
    let pairs = [
        ("left", ours.0, reference.0),
        ("top", ours.1, reference.1),
        ("right", ours.2, reference.2),
        ("bottom", ours.3, reference.3),
    ];
    for (edge, a, b) in pairs {
        assert!(
            (a - b).abs() <= tolerance,
            "{what}: {edge} edge {a:.1}, the reference's {b:.1} (tolerance {tolerance}): ours {ours:?}, reference {reference:?}"
        );
    }
}

/// Checks the horizontal and vertical centres of two boxes.
fn centred(what: &str, ours: Edges, reference: Edges, dx: f32, dy: f32) {
    eprintln!("{what}: ours {ours:?}, the reference's {reference:?}");
    let centre = |e: Edges| ((e.0 + e.2) / 2.0, (e.1 + e.3) / 2.0);
    let (a, b) = (centre(ours), centre(reference));
    assert!(
        (a.0 - b.0).abs() <= dx && (a.1 - b.1).abs() <= dy,
        "{what}: centre {a:?}, the reference's {b:?} (tolerance {dx} across, {dy} down): ours {ours:?}, reference {reference:?}"
    );
}

/// The bounding box of the pixels of `pixmap` that pass `test` in a
/// window (as the reference was measured).
fn measured(
    pixmap: &resvg::tiny_skia::Pixmap,
    window: (u32, u32, u32, u32),
    test: impl Fn([u8; 4]) -> bool,
) -> Edges {
    let (x0, y0, x1, y1) = window;
    let mut found: Option<(u32, u32, u32, u32)> = None;
    for y in y0..y1 {
        for x in x0..x1 {
            let p = pixmap.pixel(x, y).expect("inside").demultiply();
            if test([p.red(), p.green(), p.blue(), p.alpha()]) {
                let f = found.get_or_insert((x, y, x + 1, y + 1));
                *f = (f.0.min(x), f.1.min(y), f.2.max(x + 1), f.3.max(y + 1));
            }
        }
    }
    let f = found.expect("pixels in the window");
    #[allow(clippy::cast_precision_loss)]
    (f.0 as f32, f.1 as f32, f.2 as f32, f.3 as f32)
}

/// What the card at HEAD and its earlier version share with the reference:
/// the title, the mana symbols, the type line, the power/toughness, the
/// art, the watermark and the set icon.
fn shared_structure(card: &Card, rendered: &Rendered) {
    let id = |name: &str, part: &str| format!("layer-{}{part}", layer(card, name));

    // Title: its left edge and vertical centre (the width is the font's).
    let title = bounds(rendered, &id("Title", "-line-0"));
    let reference_title = (125.0, 107.0, 713.0, 176.0);
    assert!(
        (title.0 - reference_title.0).abs() <= 8.0,
        "title left {title:?}"
    );
    centred(
        "title",
        (title.0, title.1, title.0, title.3),
        (125.0, 107.0, 125.0, 176.0),
        8.0,
        10.0,
    );
    assert!(
        title.2 < 1172.0 - 20.0,
        "the title ends before the symbols: {title:?}"
    );

    // The three symbols of {3}{U}{B}, in order, at the title line's right.
    // The reference's gaps are 7 px, ours 5 (spacing taken as a part of the
    // symbol's size): each edge within 4 px.
    let reference_symbols = [
        (1172.0, 101.0, 1234.0, 163.0),
        (1241.0, 101.0, 1303.0, 163.0),
        (1310.0, 101.0, 1371.0, 162.0),
    ];
    for (s, reference) in reference_symbols.iter().enumerate() {
        let ours = bounds(rendered, &id("Symbols", &format!("-symbol-{s}")));
        close(&format!("symbol {s}"), ours, *reference, 4.0);
    }

    // The type line and the power/toughness, both centred in their boxes.
    let type_line = bounds(rendered, &id("Type", "-line-0"));
    centred(
        "type line",
        type_line,
        (461.0, 1900.0, 1033.0, 1945.0),
        8.0,
        10.0,
    );
    let stats = bounds(rendered, &id("Stats (Right)", "-line-0"));
    centred(
        "power/toughness",
        stats,
        (1249.0, 1896.0, 1350.0, 1949.0),
        8.0,
        10.0,
    );

    // The art's features, exactly where the design tool put them: measured
    // in our pixels the way the reference's were.
    let pixmap = rendered.pixmap().expect("pixels");
    let black = |p: [u8; 4]| p[0] < 40 && p[1] < 40 && p[2] < 40 && p[3] > 200;
    for (what, window, reference) in [
        (
            "left eye",
            (350, 250, 700, 805),
            (405.0, 298.0, 651.0, 800.0),
        ),
        (
            "right eye",
            (800, 250, 1150, 805),
            (883.0, 301.0, 1129.0, 803.0),
        ),
        ("nose", (600, 840, 900, 1000), (680.0, 854.0, 823.0, 986.0)),
    ] {
        close(what, measured(&pixmap, window, black), reference, 3.0);
    }

    // The watermark (its box: the image fitted in its bounds) and the set
    // icon.
    let watermark = bounds(rendered, &id("Watermark", ""));
    assert!(
        (watermark.0 - 534.0).abs() <= 3.0 && (watermark.2 - 966.0).abs() <= 3.0,
        "watermark {watermark:?}"
    );
    assert!(
        (watermark.1 - 1350.0).abs() <= 3.0 && (watermark.3 - 1750.0).abs() <= 3.0,
        "watermark {watermark:?}"
    );
    close(
        "set icon",
        bounds(rendered, &id("Set Icon", "")),
        (728.0, 1831.0, 772.0, 1870.0),
        4.0,
    );
}

#[test]
fn a_render_has_the_reference_pictures_structure() {
    let Some(shared) = shared_dir() else { return };
    let template = corpus_template(&shared, "mightstone_template-angular.json");
    let head = corpus_card(&shared, "mightstone_dimirova-smiley_head.json");
    let earlier = corpus_card(&shared, "mightstone_dimirova-smiley_2023-02-18.json");
    let options = Options { ..options() };
    let rendered = render(&head, Some(&template), &options).expect("renders");
    shared_structure(&head, &rendered);

    // The earlier version, as the design tool saved it, leaves its frames'
    // boxes out: by the tool's rule each covers the card, not the spec's
    // 100 x 100 at the top left.
    let rendered = render(&earlier, Some(&template), &options).expect("renders");
    shared_structure(&earlier, &rendered);
    for name in ["Blue Frame", "Yellow Frame"] {
        let frame = bounds(&rendered, &format!("layer-{}", layer(&earlier, name)));
        close(name, frame, (0.0, 0.0, 1500.0, 2100.0), 1.0);
    }

    // The rules text of the earlier version: two paragraphs, three lines
    // of ink (line 1 is the empty line between them), with the 18 px the
    // design tool leaves between paragraphs. Left edges within 8 px;
    // vertical centres within 4 px.
    let rules = |line: usize| {
        bounds(
            &rendered,
            &format!("layer-{}-line-{line}", layer(&earlier, "Rules")),
        )
    };
    for (line, reference) in [
        (0, (167.0, 1427.0, 339.0, 1484.0)),
        (2, (162.0, 1565.0, 1168.0, 1622.0)),
        (3, (166.0, 1625.0, 918.0, 1679.0)),
    ] {
        let ours = rules(line);
        assert!(
            (ours.0 - reference.0).abs() <= 8.0,
            "rules line {line}: left {ours:?} vs {reference:?}"
        );
        centred(
            &format!("rules line {line}"),
            (ours.0, ours.1, ours.0, ours.3),
            (reference.0, reference.1, reference.0, reference.3),
            8.0,
            4.0,
        );
    }
    // The same words on the same lines: the second paragraph breaks after
    // "the" in both (the first line ends well right of the second's end).
    assert!(rules(2).2 > rules(3).2 + 100.0);
}
