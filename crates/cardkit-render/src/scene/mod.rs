//! A card drawn as SVG: the layers in order, each with its assets, masks,
//! filters and text; then parsed by usvg (text shaped into outlines, images
//! decoded) and written back self-contained.

mod canvas;
mod filters;
mod geometry;
mod image;
mod order;
mod sources;
mod svg;
mod text;
mod wording;

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
    usvg_options.image_href_resolver = usvg::ImageHrefResolver {
        resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
        // Never a file or the network: every asset is embedded first.
        resolve_string: Box::new(|_, _| None),
    };
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
        usvg_options,
    };

    #[allow(clippy::cast_precision_loss)] // sides are at most MAX_SIDE
    let (width, height) = (card.width as f32, card.height as f32);
    #[allow(clippy::cast_precision_loss)]
    let (view_x, view_y, view_w, view_h) = if options.bleed {
        let (mx, my) = (card.margin_x.max(0) as f32, card.margin_y.max(0) as f32);
        (-mx, -my, width + 2.0 * mx, height + 2.0 * my)
    } else {
        (0.0, 0.0, width, height)
    };
    let scale = options.scale;
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
    let svg = tree.to_string(&usvg::WriteOptions {
        coordinates_precision: 3,
        transforms_precision: 3,
        ..usvg::WriteOptions::default()
    });
    Ok(Rendered {
        svg,
        tree,
        report: scene.report,
        scale,
        max_pixels: options.limits.max_pixels,
        origin: (view_x, view_y),
    })
}
