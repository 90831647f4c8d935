//! A card drawn as SVG: the layers in order, each with its assets, masks,
//! filters and text; then parsed by usvg (text shaped into outlines, images
//! decoded) and written back self-contained.

mod canvas;
mod decoding;
mod effects;
mod filter_work;
mod filters;
mod geometry;
mod image;
mod order;
mod raster;
mod sources;
mod svg;
mod text;
mod wording;
mod work;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cardkit::model::{Card, Layer, Template};
use cardkit_design::symbols::SymbolTable;

use crate::fonts::Fonts;
use crate::options::Options;
use crate::rendered::Rendered;
use crate::report::RenderError;
use crate::year::current_year;

use canvas::Scene;
use order::order;
use sources::{font_sources, resolver, symbol_table_report};
use svg::num;

/// The largest card side, in pixels, a render accepts (the SVG of a larger
/// card would not be drawable by any viewer either).
const MAX_SIDE: i64 = 1_000_000;

/// How usvg writes the isolation of a symbol's group.
const SYMBOL_ISOLATION: &str = " style=\"mix-blend-mode:normal;isolation:isolate\"";

/// The SVG without the isolation of symbols' groups: it only tells resvg to
/// draw each symbol in a layer of the symbol's size (an SVG image is drawn
/// in a layer of its parent's size, the whole picture's, otherwise), and
/// draws the same.
fn without_symbol_isolation(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find(SYMBOL_ISOLATION) {
        let before = &rest[..at];
        let digits = before
            .trim_end_matches('"')
            .trim_end_matches(|c: char| c.is_ascii_digit());
        let ours = before.ends_with('"')
            && digits.ends_with("-symbol-")
            && digits.len() + 1 < before.len();
        out.push_str(before);
        if !ours {
            out.push_str(SYMBOL_ISOLATION);
        }
        rest = &rest[at + SYMBOL_ISOLATION.len()..];
    }
    out.push_str(rest);
    out
}

/// A `--bleed` margin, at most a card side ([`MAX_SIDE`]) so the picture
/// stays drawable; a larger one is a report line.
fn bleed_margin(margin: i64, member: &str, report: &mut Vec<crate::report::Report>) -> f32 {
    if margin > MAX_SIDE {
        report.push(crate::report::Report::new(
            format!("/{member}"),
            format!("the margin of {margin} px is more than the limit of {MAX_SIDE} px: {MAX_SIDE} px drawn"),
        ));
    }
    #[allow(clippy::cast_precision_loss)] // at most MAX_SIDE
    let margin = margin.clamp(0, MAX_SIDE) as f32;
    margin
}

pub(crate) fn render(
    card: &Card,
    template: Option<&Template>,
    options: &Options,
) -> Result<Rendered, RenderError> {
    if !(options.scale.is_finite() && options.scale > 0.0 && options.scale <= 64.0) {
        return Err(RenderError::Option(format!(
            "the scale must be a number above 0 and at most 64, not {}",
            options.scale
        )));
    }
    for (what, side) in [("width", card.width), ("height", card.height)] {
        if !(1..=MAX_SIDE).contains(&side) {
            return Err(RenderError::Limit(format!(
                "the card's {what} is {side}: it must be from 1 to {MAX_SIDE} pixels"
            )));
        }
    }
    let mut report = Vec::new();
    let drawn = order(&card.data, options.limits.max_layers, &mut report)?;

    let resolver = resolver(card, template, options);
    let fonts = Fonts::load(font_sources(template, &resolver, options), &mut report);
    let symbols = SymbolTable::new(
        template
            .map(|t| t.context.symbol_sets.as_slice())
            .unwrap_or_default(),
    );
    symbol_table_report(&symbols, &mut report);
    let mut usvg_options = usvg::Options {
        fontdb: fonts.database(),
        ..usvg::Options::default()
    };
    let seen = decoding::SeenLog::default();
    usvg_options.image_href_resolver = usvg::ImageHrefResolver {
        resolve_data: decoding::data_resolver(
            options.limits.max_image_pixels,
            options.limits.max_asset_bytes,
            std::sync::Arc::clone(&seen),
        ),
        // Never a file or the network: every asset is embedded first.
        resolve_string: Box::new(|_, _| None),
    };
    #[allow(clippy::cast_precision_loss)] // sides are at most MAX_SIDE
    let (width, height) = (card.width as f32, card.height as f32);
    let (margin_x, margin_y) = if options.bleed {
        (
            bleed_margin(card.margin_x, "marginX", &mut report),
            bleed_margin(card.margin_y, "marginY", &mut report),
        )
    } else {
        (0.0, 0.0)
    };
    let (view_x, view_y, view_w, view_h) = (
        -margin_x,
        -margin_y,
        width + 2.0 * margin_x,
        height + 2.0 * margin_y,
    );
    let scale = options.scale;
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // bounded above
    let picture_pixels =
        (f64::from(view_w * scale).ceil() * f64::from(view_h * scale).ceil()) as u64;
    let mut scene = Scene {
        options,
        resolver,
        assets: BTreeMap::new(),
        fonts,
        symbols,
        year: options.year.unwrap_or_else(current_year),
        report,
        svg: String::new(),
        embedded: 0,
        drawn_pixels: 0,
        picture_pixels,
        drawn_words: 0,
        drawn_chars: 0,
        seen,
        canvas: geometry::Rect {
            x: view_x,
            y: view_y,
            width: view_w,
            height: view_h,
        },
        usvg_options,
        blurred: Vec::new(),
    };

    let _ = write!(
        scene.svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\">",
        num(view_w * scale),
        num(view_h * scale),
        num(view_x),
        num(view_y),
        num(view_w),
        num(view_h)
    );
    let rounded = !options.bleed && card.corners > 0;
    if rounded {
        #[allow(clippy::cast_precision_loss)]
        let radius = (card.corners as f32).min(width / 2.0).min(height / 2.0);
        let _ = write!(
            scene.svg,
            "<clipPath id=\"card-corners\"><rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" rx=\"{r}\" ry=\"{r}\"/></clipPath><g clip-path=\"url(#card-corners)\">",
            num(width),
            num(height),
            r = num(radius)
        );
    } else {
        scene.svg.push_str("<g>");
    }
    for (n, item) in drawn.iter().enumerate() {
        match item.layer {
            Layer::Image(image) => scene.image(n, &item.pointer, image),
            Layer::Text(text) => scene.text(n, &item.pointer, text),
            Layer::Group(_) => {}
        }
    }
    scene.svg.push_str("</g></svg>");

    let tree = usvg::Tree::from_str(&scene.svg, &scene.usvg_options)
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    // Three decimals are a thousandth of a pixel: the SVG stays small and
    // its numbers the same on every run.
    let svg = without_symbol_isolation(&tree.to_string(&usvg::WriteOptions {
        coordinates_precision: 3,
        transforms_precision: 3,
        ..usvg::WriteOptions::default()
    }));
    let bounds = raster::Bounds {
        max_pixels: options.limits.max_pixels,
        max_bytes: options
            .limits
            .max_embedded_bytes
            .saturating_sub(scene.embedded),
    };
    let svg =
        raster::blurred_shadows_as_pictures(svg, &tree, &scene.blurred, bounds, &mut scene.report);
    Ok(Rendered {
        svg,
        tree,
        report: scene.report,
        scale,
        max_pixels: options.limits.max_pixels,
        origin: (view_x, view_y),
    })
}
