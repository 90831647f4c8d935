//! `render` on generated card designs: a small canvas, layers of every kind
//! (groups nested to any depth, images from `data:` URIs or missing files,
//! texts of any length and size) placed anywhere, with masks and filters,
//! rendered to SVG and to a PNG under small limits. Never a panic; the SVG
//! and the PNG within bounds the limits set; each render within a time
//! bound.
#![no_main]

use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use cardkit::model::Card;
use cardkit_render::{render, Limits, Options, RenderError};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

#[derive(Debug, Arbitrary)]
struct Design {
    width: i16,
    height: i16,
    corners: i8,
    margin: (i8, i8),
    /// The scale, in sixteenths (0 is refused by the API).
    scale: u8,
    bleed: bool,
    layers: Vec<Layer>,
}

#[derive(Debug, Arbitrary)]
enum Layer {
    Group(Vec<Layer>),
    /// A 1×1 PNG as a `data:` URI, a missing file, or any text as `src`.
    Image {
        src: Source,
        place: Place,
        opacity: i8,
        masks: u8,
        shadow: Option<(i8, i8, u8)>,
    },
    Text {
        text: String,
        size: i16,
        place: Place,
        one_line: bool,
        align: u8,
        line_height: i8,
    },
}

#[derive(Debug, Arbitrary)]
enum Source {
    Pixel,
    Missing,
    Any(String),
}

#[derive(Debug, Arbitrary)]
struct Place {
    x: i16,
    y: i16,
    z: i8,
    width: i16,
    height: i16,
}

/// A 1×1 transparent PNG.
const PIXEL: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

impl Place {
    fn into(self, layer: &mut Value) {
        layer["x"] = json!(self.x);
        layer["y"] = json!(self.y);
        layer["z"] = json!(self.z);
        layer["width"] = json!(self.width);
        layer["height"] = json!(self.height);
    }
}

fn layer(layer: Layer, depth: usize) -> Value {
    match layer {
        Layer::Group(children) if depth < 64 => json!({
            "type": "group",
            "children": children.into_iter().take(16).map(|l| self::layer(l, depth + 1)).collect::<Vec<_>>(),
        }),
        Layer::Group(_) => json!({"type": "group", "children": []}),
        Layer::Image {
            src,
            place,
            opacity,
            masks,
            shadow,
        } => {
            let src = match src {
                Source::Pixel => PIXEL.to_owned(),
                Source::Missing => "missing/art.png".to_owned(),
                Source::Any(text) => text,
            };
            let mut image = json!({"type": "image", "src": src, "opacity": f64::from(opacity) / 100.0});
            place.into(&mut image);
            if masks > 0 {
                image["masks"] = (0..masks % 4)
                    .map(|_| json!({"type": "image", "src": PIXEL}))
                    .collect();
            }
            if let Some((x, y, blur)) = shadow {
                image["filters"] = json!([
                    {"type": "shadow", "x": x, "y": y, "blur": blur % 32},
                    {"type": "colorOverlay", "color": "#ff000080"},
                ]);
            }
            image
        }
        Layer::Text {
            text,
            size,
            place,
            one_line,
            align,
            line_height,
        } => {
            let align = ["left", "center", "right", "justify"][usize::from(align % 4)];
            let mut layer = json!({
                "type": "text",
                "text": text,
                "size": size,
                "oneLine": one_line,
                "align": align,
                "lineHeightScale": f64::from(line_height) / 16.0,
            });
            place.into(&mut layer);
            layer
        }
    }
}

/// The most a render of this target may take.
const TIME: Duration = Duration::from_secs(10);

fuzz_target!(|design: Design| {
    let (width, height) = (i32::from(design.width) % 400, i32::from(design.height) % 400);
    let card = json!({
        "name": "Fuzzed",
        "width": width,
        "height": height,
        "corners": design.corners,
        "marginX": design.margin.0,
        "marginY": design.margin.1,
        "data": {
            "type": "group",
            "children": design.layers.into_iter().take(32).map(|l| layer(l, 0)).collect::<Vec<_>>(),
        },
    });
    let Ok(card) = cardkit::from_slice::<Card>(card.to_string().as_bytes()) else {
        return;
    };
    // A small canvas: a few hundred pixels a side at most, few layers and
    // characters drawn.
    let limits = Limits {
        max_asset_bytes: 64 * 1024,
        max_embedded_bytes: 1024 * 1024,
        max_layers: 2_000,
        max_pixels: 512 * 512,
        max_text_chars: 4_000,
        max_image_pixels: 512 * 512,
        max_drawn_pixels: 16 * 1024 * 1024,
        max_drawn_words: 2_000,
        max_drawn_chars: 8_000,
    };
    let options = Options {
        scale: f32::from(design.scale) / 16.0,
        bleed: design.bleed,
        year: Some(2024),
        limits,
        ..Options::default()
    };
    let started = Instant::now();
    // An error is an answer (a limit, an option, an asset refused late).
    let Ok(rendered) = render(&card, None, &options) else {
        return;
    };
    let svg = rendered.svg().len();
    assert!(svg <= 16 * 1024 * 1024, "an SVG of {svg} bytes");
    match rendered.png() {
        Ok(png) => {
            // A PNG of at most max_pixels RGBA pixels, deflated or stored.
            let bound = 4 * limits.max_pixels as usize + 64 * 1024;
            assert!(png.len() <= bound, "a PNG of {} bytes", png.len());
        }
        Err(RenderError::Option(why)) => panic!("an option refused only for the PNG: {why}"),
        // A limit, or an asset refused late: an answer.
        Err(_) => {}
    }
    let took = started.elapsed();
    assert!(took <= TIME, "a render took {took:?}");
});
