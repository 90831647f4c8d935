//! Properties of a render, each on small cards made for it: layers drawn or
//! reported, z-order, geometry, masks, filters, opacity, rotation, corners,
//! bleed, and text (wrapping, shrinking, codes, symbols, fonts).

use crate::support;

use cardkit_render::{render, Options, Rendered};
use serde_json::json;
use support::{card_of, corpus_card, corpus_template, options, pixel, shared_dir, svg_uri};

/// A square of one colour, `size` × `size`.
fn square(color: &str, size: u32) -> String {
    svg_uri(&format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}'><rect width='{size}' height='{size}' fill='{color}'/></svg>"
    ))
}

fn pixmap(rendered: &Rendered) -> resvg::tiny_skia::Pixmap {
    rendered.pixmap().expect("pixels")
}

#[test]
fn every_layer_is_drawn_or_reported() {
    let Some(shared) = shared_dir() else { return };
    let template = corpus_template(&shared, "mightstone_template-angular.json");
    for assets in [true, false] {
        for file in [
            "mightstone_dimirova-smiley_head.json",
            "mightstone_dimirova-smiley_2023-02-18.json",
        ] {
            let card = corpus_card(&shared, file);
            let options = Options {
                assets: assets.then(support::assets_dir),
                scale: 0.1,
                ..options()
            };
            let rendered = render(&card, Some(&template), &options).expect("renders");
            // Leaf layers in drawing order, as the renderer numbers them.
            let mut leaves = Vec::new();
            collect_leaves(&card.data, "/data", &mut leaves);
            for (n, (pointer, empty)) in leaves.iter().enumerate() {
                let drawn = rendered.bounds_of(&format!("layer-{n}")).is_some();
                let reported = rendered
                    .report()
                    .iter()
                    .any(|r| r.at.starts_with(pointer.as_str()));
                assert!(
                    drawn || reported || *empty,
                    "{file} (assets: {assets}): layer {n} at {pointer} is neither drawn nor reported"
                );
            }
        }
    }
}

/// Leaf layers in z order per group, with whether they draw nothing (an
/// empty text).
fn collect_leaves(group: &cardkit::model::Group, pointer: &str, out: &mut Vec<(String, bool)>) {
    use cardkit::model::Layer;
    let mut children: Vec<(usize, &Layer)> = group.children.iter().enumerate().collect();
    children.sort_by_key(|(_, layer)| match layer {
        Layer::Image(image) => image.z,
        _ => 0,
    });
    for (index, layer) in children {
        let here = format!("{pointer}/children/{index}");
        match layer {
            Layer::Group(inner) => collect_leaves(inner, &here, out),
            Layer::Text(text) => out.push((here, text.text.trim().is_empty())),
            Layer::Image(_) => out.push((here, false)),
        }
    }
}

#[test]
fn layers_are_drawn_by_z_and_stable_within_a_z() {
    // Three full-card squares: red z 1, green z 0, blue z 0. Blue is last
    // among z 0, red above both.
    let card = card_of(
        10,
        10,
        json!([
            {"type": "image", "src": square("red", 4), "x": 0, "y": 0, "width": 10, "height": 10, "z": 1},
            {"type": "image", "src": square("lime", 4), "x": 0, "y": 0, "width": 10, "height": 10},
            {"type": "image", "src": square("blue", 4), "x": 0, "y": 0, "width": 5, "height": 10},
        ]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    let pixels = pixmap(&rendered);
    assert_eq!(
        pixel(&pixels, 2, 5),
        [255, 0, 0, 255],
        "red has the highest z"
    );
    // Without red, blue over green on the left, green on the right.
    let card = card_of(
        10,
        10,
        json!([
            {"type": "image", "src": square("lime", 4), "x": 0, "y": 0, "width": 10, "height": 10},
            {"type": "image", "src": square("blue", 4), "x": 0, "y": 0, "width": 5, "height": 10},
        ]),
    );
    let pixels = pixmap(&render(&card, None, &options()).expect("renders"));
    assert_eq!(pixel(&pixels, 2, 5), [0, 0, 255, 255]);
    assert_eq!(pixel(&pixels, 8, 5), [0, 255, 0, 255]);
}

#[test]
fn bounds_fit_contains_and_fill_covers_with_alignment() {
    // A 2:1 image in a 100 × 100 box.
    let wide = svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='20' height='10'><rect width='20' height='10' fill='red'/></svg>");
    let bounds = |kind: &str, vertical: &str| json!({"x": 0, "y": 0, "width": 100, "height": 100, "type": kind, "horizontal": "left", "vertical": vertical});
    let card = card_of(
        100,
        100,
        json!([{"type": "image", "src": wide, "bounds": bounds("fit", "bottom")}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    let b = rendered.bounds_of("layer-0").expect("drawn");
    assert_eq!((b.x, b.y, b.width, b.height), (0.0, 50.0, 100.0, 50.0));
    let card = card_of(
        100,
        100,
        json!([{"type": "image", "src": wide, "bounds": bounds("fill", "top")}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    let b = rendered.bounds_of("layer-0").expect("drawn");
    assert_eq!((b.x, b.y, b.width, b.height), (0.0, 0.0, 200.0, 100.0));
}

#[test]
fn several_masks_intersect_as_alpha_masks() {
    // A black (opaque) left half and a top half: only the top-left quarter
    // of the red square shows. Black is opaque: as a luminance mask it
    // would hide everything.
    let left = svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='5' height='10' fill='black'/></svg>");
    let top = svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='5' fill='black'/></svg>");
    let card = card_of(
        10,
        10,
        json!([{"type": "image", "src": square("red", 10), "x": 0, "y": 0, "width": 10, "height": 10,
                "masks": [{"type": "image", "name": "left", "src": left}, {"type": "image", "name": "top", "src": top}]}]),
    );
    let pixels = pixmap(&render(&card, None, &options()).expect("renders"));
    assert_eq!(pixel(&pixels, 2, 2), [255, 0, 0, 255]);
    assert_eq!(pixel(&pixels, 7, 2)[3], 0, "outside the left mask");
    assert_eq!(pixel(&pixels, 2, 7)[3], 0, "outside the top mask");
    assert_eq!(pixel(&pixels, 7, 7)[3], 0, "outside both");
}

#[test]
fn color_overlay_keeps_alpha_and_shadow_is_an_offset_copy() {
    // A red square on the left half of a transparent image.
    let half = svg_uri("<svg xmlns='http://www.w3.org/2000/svg' width='20' height='20'><rect width='10' height='20' fill='red'/></svg>");
    let card = card_of(
        40,
        20,
        json!([{"type": "image", "src": half, "x": 0, "y": 0, "width": 20, "height": 20,
                "filters": [{"type": "colorOverlay", "color": "#0000ff"}, {"type": "shadow", "x": 20, "y": 0, "color": "lime"}]}]),
    );
    let pixels = pixmap(&render(&card, None, &options()).expect("renders"));
    assert_eq!(pixel(&pixels, 5, 10), [0, 0, 255, 255], "overlaid in blue");
    assert_eq!(
        pixel(&pixels, 15, 10)[3],
        0,
        "transparent stays transparent"
    );
    assert_eq!(
        pixel(&pixels, 25, 10),
        [0, 255, 0, 255],
        "the shadow, 20 px right"
    );
    assert_eq!(pixel(&pixels, 35, 10)[3], 0);
}

#[test]
fn opacity_on_one_layer_leaves_another_sharing_its_image() {
    let red = square("red", 4);
    let layers = |opacity: serde_json::Value| {
        json!([
            {"type": "image", "src": red, "x": 0, "y": 0, "width": 10, "height": 10, "opacity": opacity},
            {"type": "image", "src": red, "x": 10, "y": 0, "width": 10, "height": 10},
        ])
    };
    let plain =
        pixmap(&render(&card_of(20, 10, layers(json!(null))), None, &options()).expect("renders"));
    let faded =
        pixmap(&render(&card_of(20, 10, layers(json!(0.25))), None, &options()).expect("renders"));
    assert_eq!(pixel(&faded, 5, 5)[3], 64, "the first layer at a quarter");
    for x in 10..20 {
        for y in 0..10 {
            assert_eq!(
                pixel(&faded, x, y),
                pixel(&plain, x, y),
                "the second layer at ({x}, {y})"
            );
        }
    }
}

#[test]
fn a_rotation_of_zero_draws_the_same_as_none() {
    let text = |rotation: Option<i64>| {
        let mut layer = json!({"type": "text", "text": "Rotate me", "size": 20, "x": 10, "y": 10, "width": 180, "height": 40});
        if let Some(r) = rotation {
            layer["rotation"] = json!(r);
        }
        card_of(200, 60, json!([layer]))
    };
    let none = render(&text(None), None, &options()).expect("renders");
    let zero = render(&text(Some(0)), None, &options()).expect("renders");
    assert_eq!(none.svg(), zero.svg());
    assert_eq!(none.png().expect("png"), zero.png().expect("png"));
    // And a rotation does change it, about the box's centre.
    let turned = render(&text(Some(180)), None, &options()).expect("renders");
    assert_ne!(none.svg(), turned.svg());
    let (a, b) = (
        none.bounds_of("layer-0").expect("drawn"),
        turned.bounds_of("layer-0").expect("drawn"),
    );
    let centre = |x: f32, w: f32| x + w / 2.0;
    // Half a turn about (100, 30) mirrors the ink's centre through it.
    assert!((centre(a.x, a.width) + centre(b.x, b.width) - 200.0).abs() < 0.5);
    assert!((centre(a.y, a.height) + centre(b.y, b.height) - 60.0).abs() < 0.5);
}

#[test]
fn corners_clip_the_card_and_bleed_draws_the_margins() {
    let mut card = card_of(
        100,
        100,
        json!([{"type": "image", "src": square("red", 4), "x": -10, "y": -10, "width": 120, "height": 120}]),
    );
    card.corners = 20;
    card.margin_x = 10;
    card.margin_y = 5;
    let rounded = render(&card, None, &options()).expect("renders");
    let pixels = pixmap(&rounded);
    assert_eq!(pixel(&pixels, 0, 0)[3], 0, "the corner is cut");
    assert_eq!(pixel(&pixels, 50, 50), [255, 0, 0, 255]);
    let bled = render(
        &card,
        None,
        &Options {
            bleed: true,
            ..options()
        },
    )
    .expect("renders");
    assert_eq!(bled.size(), (120.0, 110.0));
    let pixels = pixmap(&bled);
    assert_eq!(pixel(&pixels, 0, 0), [255, 0, 0, 255], "the margin, square");
}

#[test]
fn scale_scales_the_picture() {
    let card = card_of(100, 60, json!([]));
    let rendered = render(
        &card,
        None,
        &Options {
            scale: 0.25,
            ..options()
        },
    )
    .expect("renders");
    assert_eq!(rendered.size(), (25.0, 15.0));
    let error = render(
        &card,
        None,
        &Options {
            scale: 0.0,
            ..options()
        },
    )
    .unwrap_err();
    assert!(error.to_string().contains("scale"), "{error}");
}

fn text_card(layer: serde_json::Value) -> cardkit::model::Card {
    card_of(400, 300, json!([layer]))
}

fn line_count(rendered: &Rendered, n: usize) -> usize {
    (0..)
        .take_while(|l| rendered.bounds_of(&format!("layer-{n}-line-{l}")).is_some())
        .count()
}

#[test]
fn text_wraps_and_breaks_at_line_codes_and_new_lines() {
    let layer = json!({"type": "text", "text": "one two three four five six seven eight nine ten", "size": 20,
                       "x": 10, "y": 10, "width": 200, "height": 200, "verticalAlign": "top"});
    let rendered = render(&text_card(layer), None, &options()).expect("renders");
    let lines = line_count(&rendered, 0);
    assert!(lines >= 3, "wrapped into {lines} lines");
    for l in 0..lines {
        let b = rendered
            .bounds_of(&format!("layer-0-line-{l}"))
            .expect("a line");
        assert!(
            b.x >= 10.0 - 0.5 && b.x + b.width <= 210.5,
            "line {l} is inside the box: {b:?}"
        );
    }
    let layer = json!({"type": "text", "text": "a{line}b\nc", "size": 20, "x": 10, "y": 10, "width": 200, "height": 200});
    let rendered = render(&text_card(layer), None, &options()).expect("renders");
    assert_eq!(line_count(&rendered, 0), 3);
}

#[test]
fn shrink_to_fit_never_overflows_its_box() {
    // Data: texts of growing length in boxes of several shapes, wrapped and
    // on one line. The ink may pass the layout box by the font's ascent and
    // descent beyond the line height, a tenth of the size at most here.
    let words = "Flying When this creature enters the battlefield draw a card then discard a card";
    for (width, height) in [(300, 60), (120, 200), (400, 30), (60, 60)] {
        for count in [1, 4, 9, 15] {
            for one_line in [false, true] {
                let text: Vec<&str> = words.split(' ').take(count).collect();
                let layer = json!({"type": "text", "text": text.join(" "), "size": 40, "oneLine": one_line,
                                   "x": 20, "y": 20, "width": width, "height": height});
                let rendered = render(&text_card(layer), None, &options()).expect("renders");
                let lines = line_count(&rendered, 0);
                assert!(lines >= 1);
                if one_line {
                    assert_eq!(lines, 1, "oneLine stays on one line");
                }
                let whole = rendered.bounds_of("layer-0").expect("drawn");
                let slack = 4.0;
                let case =
                    format!("{count} words in {width} x {height}, oneLine {one_line}: {whole:?}");
                assert!(
                    whole.x >= 20.0 - 0.5 && whole.x + whole.width <= 20.0 + width as f32 + 0.5,
                    "{case}"
                );
                assert!(
                    whole.y >= 20.0 - slack
                        && whole.y + whole.height <= 20.0 + height as f32 + slack,
                    "{case}"
                );
                assert!(
                    rendered.report().is_empty(),
                    "{case}: {:?}",
                    rendered.report()
                );
            }
        }
    }
}

#[test]
fn alignment_places_lines_left_centre_and_right() {
    let at = |align: &str| {
        let layer = json!({"type": "text", "text": "Short", "size": 20, "align": align, "x": 0, "y": 0, "width": 400, "height": 40});
        render(&text_card(layer), None, &options())
            .expect("renders")
            .bounds_of("layer-0")
            .expect("drawn")
    };
    let (left, centre, right) = (at("left"), at("center"), at("right"));
    assert!(left.x < 3.0, "{left:?}");
    assert!(
        (centre.x + centre.width / 2.0 - 200.0).abs() < 2.0,
        "{centre:?}"
    );
    assert!((right.x + right.width - 400.0).abs() < 3.0, "{right:?}");
}

#[test]
fn year_comes_from_the_options() {
    let layer = json!({"type": "text", "text": "{year}", "size": 20, "x": 0, "y": 0, "width": 400, "height": 40});
    let card = text_card(layer);
    let a = render(
        &card,
        None,
        &Options {
            year: Some(2023),
            ..options()
        },
    )
    .expect("renders");
    let b = render(
        &card,
        None,
        &Options {
            year: Some(2023),
            ..options()
        },
    )
    .expect("renders");
    let c = render(
        &card,
        None,
        &Options {
            year: Some(1999),
            ..options()
        },
    )
    .expect("renders");
    assert_eq!(a.svg(), b.svg());
    assert_ne!(a.svg(), c.svg());
}

#[test]
fn symbols_are_inline_in_order_and_right_aligned() {
    let Some(shared) = shared_dir() else { return };
    let template = corpus_template(&shared, "mightstone_template-angular.json");
    let layer = json!({"type": "text", "text": "{3}{U}{B}", "size": 80, "oneLine": true, "align": "right",
                       "x": 125, "y": 90, "width": 1250, "height": 80, "textCodesOnly": true});
    let card = card_of(1500, 300, json!([layer]));
    let rendered = render(&card, Some(&template), &options()).expect("renders");
    // The template's fonts are not at hand (reported); the layer is drawn.
    let layer_lines: Vec<_> = rendered
        .report()
        .iter()
        .filter(|r| r.at.starts_with("/data"))
        .collect();
    assert!(layer_lines.is_empty(), "{layer_lines:?}");
    let symbols: Vec<_> = (0..3)
        .map(|s| {
            rendered
                .bounds_of(&format!("layer-0-symbol-{s}"))
                .expect("a symbol")
        })
        .collect();
    // 0.78 of the 80 px line, with 0.04 of that on each side.
    for s in &symbols {
        assert!((s.height - 62.4).abs() < 0.5, "{s:?}");
    }
    assert!(symbols[0].x < symbols[1].x && symbols[1].x < symbols[2].x);
    let end = symbols[2].x + symbols[2].width;
    assert!(
        (1375.0 - end - 0.04 * 62.4).abs() < 0.1,
        "the last symbol ends at the box's right: {end}"
    );
    // Each symbol is drawn from its own file: the order is {3}, {U}, {B}.
    let svg = rendered.svg();
    let three = svg.find("layer-0-symbol-0").expect("first");
    let blue = svg.find("layer-0-symbol-1").expect("second");
    assert!(three < blue);
}

#[test]
fn fonts_are_chosen_by_name_and_weight_and_substitutions_reported() {
    let Some(shared) = shared_dir() else { return };
    let template: cardkit::model::Template = serde_json::from_value(json!({
        "name": "fonts",
        "context": {"fonts": [
            {"name": "Open", "src": "OpenSans-Regular.ttf"},
            {"name": "Deja", "src": "DejaVuSans.ttf"},
            {"name": "Deja", "src": "DejaVuSans-Bold.ttf", "weight": "bold"},
        ]},
        "card": {"name": "c", "width": 10, "height": 10},
    }))
    .expect("a template");
    let text = |font: &str, weight: Option<&str>| {
        let mut layer = json!({"type": "text", "text": "Wide words here", "size": 20, "font": font,
                               "x": 0, "y": 0, "width": 400, "height": 40});
        if let Some(w) = weight {
            layer["fontWeight"] = json!(w);
        }
        text_card(layer)
    };
    let fonts_dir = tempdir_with(&[
        shared.join("corpus/design-tool/OpenSans-Regular.ttf"),
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf".into(),
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf".into(),
    ]);
    let options = Options {
        fonts: Some(fonts_dir.clone()),
        ..options()
    };
    let open = render(&text("open", None), Some(&template), &options).expect("renders");
    assert!(open.report().is_empty(), "{:?}", open.report());
    let deja = render(&text("Deja", None), Some(&template), &options).expect("renders");
    let bold = render(&text("Deja", Some("bold")), Some(&template), &options).expect("renders");
    assert!(bold.report().is_empty(), "{:?}", bold.report());
    let width = |r: &Rendered| r.bounds_of("layer-0").expect("drawn").width;
    assert_ne!(width(&open), width(&deja), "two faces, two widths");
    assert!(width(&bold) > width(&deja), "bold is wider");
    let missing = render(&text("Quango", None), Some(&template), &options).expect("renders");
    let lines: Vec<String> = missing.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        ["/data/children/0: font \"Quango\" (the template declares no such font) substituted by \"DejaVu Sans\" weight 400 from /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
    );
    std::fs::remove_dir_all(fonts_dir).ok();
}

/// A fresh directory holding copies of `files`.
fn tempdir_with(files: &[std::path::PathBuf]) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "cardkit-render-test-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    for file in files {
        std::fs::copy(file, dir.join(file.file_name().expect("a file name"))).expect("a copy");
    }
    dir
}

#[test]
fn members_a_group_cannot_have_are_reported() {
    let card = card_of(
        10,
        10,
        json!([{"type": "group", "name": "Frame", "filters": [{"type": "shadow", "x": 1, "y": 1}],
                "children": [{"type": "image", "src": square("red", 4), "x": 0, "y": 0, "width": 10, "height": 10}]}]),
    );
    let rendered = render(&card, None, &options()).expect("renders");
    let lines: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        ["/data/children/0 (\"Frame\"): a group's `filters` is not part of the spec: not drawn (`cardkit import --push-filters` moves filters onto the layers)"]
    );
    assert!(
        rendered.bounds_of("layer-0").is_some(),
        "its children are drawn"
    );
}

/// `{i}` slants the words it covers (the top of a letter leans right of its
/// foot) and `{fontsize…}` sets them larger, as the design tool does; the
/// words around them stay as they were.
#[test]
fn italics_slant_and_font_sizes_grow_the_words_they_cover() {
    let drawn = |text: &str| {
        let layer = json!({"type": "text", "text": text, "size": 40, "verticalAlign": "top", "x": 0, "y": 0, "width": 1000, "height": 200});
        render(&text_card(layer), None, &options())
            .expect("renders")
            .bounds_of("layer-0-line-0")
            .expect("drawn")
    };
    let upright = drawn("l");
    let italic = drawn("{i}l{/i}");
    // An upright `l` is a bar; slanted, its box is wider by about the tangent
    // of 12° times its height, and starts where the upright one did.
    let lean = italic.width - upright.width;
    assert!(
        (lean - upright.height * 0.2126).abs() < 2.0,
        "{upright:?} {italic:?}"
    );
    assert!((italic.height - upright.height).abs() < 0.5);
    let larger = drawn("{fontsize20}l");
    assert!(
        (larger.height / upright.height - 1.5).abs() < 0.05,
        "{upright:?} {larger:?}"
    );
    let back = drawn("{fontsize20}{fontsize-20}l");
    assert!((back.height - upright.height).abs() < 0.5);
}
