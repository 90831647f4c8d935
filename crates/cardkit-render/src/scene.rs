//! A card drawn as SVG: the layers in order, each with its assets, masks,
//! filters and text; then parsed by usvg (text shaped into outlines, images
//! decoded) and written back self-contained.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use base64::Engine as _;
use cardkit::model::{
    BoundType, Card, Filter, Group, HorizontalAlign, Image, Layer, Template, Text, VerticalAlign,
};

use cardkit_design::assets::{AssetError, Resolver, Root};
use cardkit_design::symbols::{self, SymbolTable, TextCode};

use crate::fonts::{FontSources, Fonts};
use crate::layout::{self, Frame, Piece, Placed};
use crate::{Options, RenderError, Rendered, Report};

/// The largest card side, in pixels, a render accepts (the SVG of a larger
/// card would not be drawable by any viewer either).
const MAX_SIDE: i64 = 1_000_000;

/// A decoded asset: the `data:` URI it is embedded as and its intrinsic
/// size.
#[derive(Debug, Clone)]
struct Asset {
    href: Arc<str>,
    width: f32,
    height: f32,
}

/// An axis-aligned box in card pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x: f32,
    y: f32,
    width: f32,
    height: f32,
}

/// A layer to draw, with where it is in the card.
struct Drawn<'a> {
    pointer: String,
    layer: &'a Layer,
}

struct Scene<'a> {
    options: &'a Options,
    resolver: Resolver,
    assets: BTreeMap<String, Result<Asset, String>>,
    fonts: Fonts,
    symbols: SymbolTable,
    year: i32,
    report: Vec<Report>,
    svg: String,
    /// Bytes of images embedded so far.
    embedded: u64,
    /// The probe options: our font database, no file or network access.
    usvg_options: usvg::Options<'static>,
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
        year: options.year.unwrap_or_else(crate::current_year),
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

/// The resolver of a render: the asset root given, or the card's, or the
/// template's, else the assets directory; a URL root is read from the
/// assets directory as its mirror.
fn resolver(card: &Card, template: Option<&Template>, options: &Options) -> Resolver {
    let named = options
        .root
        .clone()
        .or_else(|| Some(card.asset_root_url.clone()).filter(|u| !u.is_empty()))
        .or_else(|| {
            template
                .map(|t| t.asset_root_url.clone())
                .filter(|u| !u.is_empty())
        });
    let root = named
        .as_deref()
        .map(Root::parse)
        .or_else(|| options.assets.clone().map(Root::Dir));
    match (&root, &options.assets) {
        (Some(Root::Url(_)), Some(dir)) => Resolver::new(root).with_mirror(dir),
        _ => Resolver::new(root),
    }
}

/// Why an asset cannot be read, for a report line: paths are shown relative
/// to the asset directory, so a report reads the same on every machine.
fn describe(error: &AssetError, resolver: &Resolver) -> String {
    let relative = |path: &std::path::Path| {
        let base = resolver
            .mirror()
            .map(std::path::Path::to_path_buf)
            .or_else(|| match resolver.root() {
                Some(Root::Dir(dir)) => Some(dir.clone()),
                _ => None,
            });
        base.and_then(|base| {
            path.strip_prefix(base)
                .ok()
                .map(|p| p.display().to_string())
        })
        .unwrap_or_else(|| path.display().to_string())
    };
    match error {
        AssetError::Missing(path) => format!("`{}` is not in the asset directory", relative(path)),
        AssetError::Unreadable(path, why) => {
            format!(
                "`{}` cannot be read from the asset directory: {why}",
                relative(path)
            )
        }
        other => other.to_string(),
    }
}

/// The symbol table's own problems: names defined twice, prototype values
/// that are not numbers.
fn symbol_table_report(table: &SymbolTable, report: &mut Vec<Report>) {
    for duplicate in table.duplicates() {
        report.push(Report::new(
            format!("template {}", duplicate.hidden),
            format!(
                "the symbol name {{{}}} is defined again at {}, which is the one drawn",
                duplicate.alias, duplicate.shown
            ),
        ));
    }
    for bad in table.bad_prototypes() {
        report.push(Report::new(
            format!("template {}", bad.pointer),
            format!("{} is not a number: the default is used", bad.found),
        ));
    }
}

/// The template's fonts, each read from the fonts directory (by its `src`,
/// then by file name) or else through the asset root.
fn font_sources<'a>(
    template: Option<&Template>,
    resolver: &Resolver,
    options: &'a Options,
) -> FontSources<'a> {
    let mut declared = Vec::new();
    for font in template
        .map(|t| t.context.fonts.as_slice())
        .unwrap_or_default()
    {
        let from_dir = options.fonts.as_ref().and_then(|dir| {
            let relative = std::path::Path::new(&font.src);
            let safe = relative
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            let by_src = safe.then(|| dir.join(relative));
            let by_name = relative.file_name().map(|name| dir.join(name));
            [by_src, by_name]
                .into_iter()
                .flatten()
                .find(|p| p.is_file())
        });
        let bytes = match from_dir {
            Some(path) => crate::fonts::read_limited(&path).map_err(|why| {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                format!("`{name}` in the fonts directory {why}")
            }),
            None => resolver
                .load(&font.src, crate::fonts::MAX_FONT_BYTES)
                .map(|asset| asset.bytes)
                .map_err(|error| describe(&error, resolver)),
        };
        declared.push((font.name.clone(), font.weight.clone(), bytes));
    }
    FontSources {
        declared,
        fallback: &options.fallback_fonts,
    }
}

/// The layers in drawing order: each group's children sorted by `z`
/// (stable), a group's children in its place. Walks without recursion, so
/// any depth the model holds is drawn.
fn order<'a>(
    top: &'a Group,
    max_layers: usize,
    report: &mut Vec<Report>,
) -> Result<Vec<Drawn<'a>>, RenderError> {
    let mut drawn = Vec::new();
    let mut count = 0usize;
    // A stack of iterators over sorted children, with the parent's pointer.
    let mut stack: Vec<(String, std::vec::IntoIter<(usize, &Layer)>)> =
        vec![("/data".to_owned(), sorted(&top.children).into_iter())];
    while let Some((pointer, children)) = stack.last_mut() {
        let Some((index, layer)) = children.next() else {
            stack.pop();
            continue;
        };
        count += 1;
        if count > max_layers {
            return Err(RenderError::Limit(format!(
                "the card has more than {max_layers} layers"
            )));
        }
        let here = format!("{pointer}/children/{index}");
        if let Layer::Group(group) = layer {
            for member in ["filters", "opacity", "masks", "rotation"] {
                if group.extra.contains_key(member) {
                    report.push(Report::new(
                        place_of(&here, group.name.as_deref()),
                        format!("a group's `{member}` is not part of the spec: not drawn (`cardkit import --push-filters` moves filters onto the layers)"),
                    ));
                }
            }
            let children = sorted(&group.children).into_iter();
            stack.push((here, children));
        } else {
            drawn.push(Drawn {
                pointer: here,
                layer,
            });
        }
    }
    Ok(drawn)
}

fn sorted(children: &[Layer]) -> Vec<(usize, &Layer)> {
    let mut children: Vec<(usize, &Layer)> = children.iter().enumerate().collect();
    children.sort_by_key(|(_, layer)| z_of(layer));
    children
}

fn z_of(layer: &Layer) -> i64 {
    match layer {
        Layer::Image(image) => image.z,
        Layer::Text(text) => text
            .extra
            .get("z")
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0),
        Layer::Group(group) => group
            .extra
            .get("z")
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0),
    }
}

/// A number as SVG text: at most 3 decimals, no trailing zeros, so the same
/// layout always gives the same bytes.
fn num(value: f32) -> String {
    if !value.is_finite() {
        return "0".to_owned();
    }
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

/// Text escaped for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold are left out.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

/// A layer's name and pointer, for report lines.
fn place_of(pointer: &str, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("{pointer} (\"{name}\")"),
        None => pointer.to_owned(),
    }
}

/// A colour as SVG understands it: the spec's `0x`-prefixed and bare hex
/// forms get a `#`; anything svgtypes cannot read is `None`.
fn svg_color(color: &str) -> Option<String> {
    let trimmed = color.trim();
    let hex = trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
        .or_else(|| {
            (!trimmed.starts_with('#') && trimmed.bytes().all(|b| b.is_ascii_hexdigit()))
                .then_some(trimmed)
        });
    let candidate = match hex {
        Some(digits) if matches!(digits.len(), 3 | 4 | 6 | 8) => format!("#{digits}"),
        _ => trimmed.to_owned(),
    };
    let parsed: svgtypes::Color = candidate.parse().ok()?;
    Some(format!(
        "rgb({},{},{})",
        parsed.red, parsed.green, parsed.blue
    ))
    .map(|rgb| {
        if parsed.alpha == 255 {
            rgb
        } else {
            format!(
                "rgba({},{},{},{})",
                parsed.red,
                parsed.green,
                parsed.blue,
                num(f32::from(parsed.alpha) / 255.0)
            )
        }
    })
}

/// The kind of image in `bytes`, by its signature.
fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() > 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else if bytes.starts_with(&[0x1F, 0x8B]) {
        Some("image/svg+xml")
    } else {
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let start = text.iter().position(|b| !b.is_ascii_whitespace())?;
        (text[start] == b'<').then_some("image/svg+xml")
    }
}

impl Scene<'_> {
    /// An asset by its `src`, loaded, checked and measured once per render.
    fn asset(&mut self, src: &str) -> Result<Asset, String> {
        if let Some(known) = self.assets.get(src) {
            return known.clone();
        }
        let loaded = self.load_asset(src);
        self.assets.insert(src.to_owned(), loaded.clone());
        loaded
    }

    fn load_asset(&self, src: &str) -> Result<Asset, String> {
        let bytes = self
            .resolver
            .load(src, self.options.limits.max_asset_bytes)
            .map_err(|error| describe(&error, &self.resolver))?
            .bytes;
        let mime = sniff(&bytes).ok_or("not an image (PNG, JPEG, GIF, WebP or SVG)")?;
        let href: Arc<str> = format!(
            "data:{mime};base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&bytes)
        )
        .into();
        // The image alone, parsed by usvg as the card will be: what it
        // cannot decode is found here, and its intrinsic size with it.
        let probe = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"1\" height=\"1\"><image xlink:href=\"{href}\"/></svg>"
        );
        let tree = usvg::Tree::from_str(&probe, &self.usvg_options)
            .map_err(|e| format!("cannot be read as {mime}: {e}"))?;
        let size =
            first_image_size(tree.root()).ok_or_else(|| format!("cannot be decoded as {mime}"))?;
        Ok(Asset {
            href,
            width: size.0,
            height: size.1,
        })
    }

    fn image(&mut self, n: usize, pointer: &str, image: &Image) {
        let at = place_of(pointer, image.name.as_deref());
        let asset = self.asset(&image.src);
        let saved = Rect {
            x: image.x as f32,
            y: image.y as f32,
            width: image.width as f32,
            height: image.height as f32,
        };
        let default_box = image.x == 0 && image.y == 0 && image.width == 100 && image.height == 100;
        let frame = match (&image.bounds, default_box) {
            (Some(bounds), true) => {
                let bounds_rect = Rect {
                    x: bounds.x as f32,
                    y: bounds.y as f32,
                    width: bounds.width as f32,
                    height: bounds.height as f32,
                };
                match &asset {
                    Ok(asset) => fit_box(
                        bounds_rect,
                        asset.width,
                        asset.height,
                        bounds.kind,
                        bounds.horizontal,
                        bounds.vertical,
                    ),
                    Err(_) => bounds_rect,
                }
            }
            _ => saved,
        };
        let mut masks = Vec::new();
        let mut missing = Vec::new();
        for (k, mask) in image.masks.iter().flatten().enumerate() {
            match self.asset(&mask.src) {
                Ok(asset) => {
                    let member = |key: &str| {
                        mask.extra
                            .get(key)
                            .and_then(serde_json::Value::as_f64)
                            .map(|v| v as f32)
                    };
                    let own = match (member("x"), member("y"), member("width"), member("height")) {
                        (Some(x), Some(y), Some(width), Some(height)) => Rect {
                            x,
                            y,
                            width,
                            height,
                        },
                        _ => frame,
                    };
                    masks.push((k, asset, own));
                }
                Err(why) => missing.push(format!("mask {} `{}`: {why}", k, short(&mask.src))),
            }
        }
        let rotation = image
            .extra
            .get("rotation")
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(0.0) as f32;
        let asset = match asset {
            Ok(asset) if missing.is_empty() => asset,
            Ok(_) => {
                for why in missing {
                    self.report.push(Report::new(
                        &at,
                        format!("{why}: drawn as a placeholder box"),
                    ));
                }
                self.placeholder(n, frame);
                return;
            }
            Err(why) => {
                self.report.push(Report::new(
                    &at,
                    format!(
                        "image `{}`: {why}: drawn as a placeholder box",
                        short(&image.src)
                    ),
                ));
                for why in missing {
                    self.report.push(Report::new(&at, why));
                }
                self.placeholder(n, frame);
                return;
            }
        };
        let cost = asset.href.len() + masks.iter().map(|(_, m, _)| m.href.len()).sum::<usize>();
        if !self.embed(cost as u64, &at) {
            self.placeholder(n, frame);
            return;
        }
        let filter = self.filter(n, image.filters.as_deref(), frame, rotation, &at);
        self.open_layer(n, image.opacity, filter.as_deref());
        self.open_rotation(rotation, frame);
        for (k, mask, own) in &masks {
            let _ = write!(
                self.svg,
                "<mask id=\"layer-{n}-mask-{k}\" mask-type=\"alpha\" maskUnits=\"userSpaceOnUse\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">",
                num(own.x),
                num(own.y),
                num(own.width),
                num(own.height)
            );
            self.svg_image(&mask.href, *own);
            self.svg.push_str("</mask>");
            let _ = write!(self.svg, "<g mask=\"url(#layer-{n}-mask-{k})\">");
        }
        self.svg_image(&asset.href, frame);
        for _ in &masks {
            self.svg.push_str("</g>");
        }
        self.close_rotation(rotation);
        self.svg.push_str("</g>");
    }

    /// Counts `bytes` of images to embed; past the render's limit, a report
    /// line and `false`.
    fn embed(&mut self, bytes: u64, at: &str) -> bool {
        let limit = self.options.limits.max_embedded_bytes;
        if self.embedded + bytes > limit {
            self.report.push(Report::new(
                at,
                format!("the card's images add up to more than the limit of {limit} bytes: drawn as a placeholder box"),
            ));
            return false;
        }
        self.embedded += bytes;
        true
    }

    fn svg_image(&mut self, href: &str, frame: Rect) {
        let _ = write!(
            self.svg,
            "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" xlink:href=\"{href}\"/>",
            num(frame.x),
            num(frame.y),
            num(frame.width),
            num(frame.height)
        );
    }

    /// A box standing for what could not be drawn: a light fill, an
    /// outline and its diagonals.
    fn placeholder(&mut self, n: usize, frame: Rect) {
        self.placeholder_with_id(&format!("layer-{n}"), frame);
    }

    /// A placeholder whose group has the id `id`.
    fn placeholder_with_id(&mut self, id: &str, frame: Rect) {
        let stroke = (frame.width.min(frame.height) / 100.0).clamp(1.0, 8.0);
        let _ = write!(
            self.svg,
            "<g id=\"{id}\" class=\"placeholder\"><rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"#808080\" fill-opacity=\"0.15\" stroke=\"#808080\" stroke-width=\"{s}\"/><path d=\"M{x} {y}L{x2} {y2}M{x2} {y}L{x} {y2}\" fill=\"none\" stroke=\"#808080\" stroke-width=\"{s}\"/></g>",
            x = num(frame.x),
            y = num(frame.y),
            w = num(frame.width.max(0.0)),
            h = num(frame.height.max(0.0)),
            x2 = num(frame.x + frame.width.max(0.0)),
            y2 = num(frame.y + frame.height.max(0.0)),
            s = num(stroke)
        );
    }

    fn open_layer(&mut self, n: usize, opacity: Option<f64>, filter: Option<&str>) {
        let _ = write!(self.svg, "<g id=\"layer-{n}\"");
        if let Some(opacity) = opacity.filter(|o| o.is_finite()) {
            #[allow(clippy::cast_possible_truncation)]
            let _ = write!(
                self.svg,
                " opacity=\"{}\"",
                num(opacity.clamp(0.0, 1.0) as f32)
            );
        }
        if let Some(filter) = filter {
            let _ = write!(self.svg, " filter=\"url(#{filter})\"");
        }
        self.svg.push('>');
    }

    fn open_rotation(&mut self, degrees: f32, frame: Rect) {
        if degrees != 0.0 && degrees.is_finite() {
            let _ = write!(
                self.svg,
                "<g transform=\"rotate({} {} {})\">",
                num(degrees),
                num(frame.x + frame.width / 2.0),
                num(frame.y + frame.height / 2.0)
            );
        }
    }

    fn close_rotation(&mut self, degrees: f32) {
        if degrees != 0.0 && degrees.is_finite() {
            self.svg.push_str("</g>");
        }
    }

    /// The filter of a layer's `filters`, applied in order; its id, or
    /// `None` when there is nothing to apply.
    fn filter(
        &mut self,
        n: usize,
        filters: Option<&[Filter]>,
        frame: Rect,
        rotation: f32,
        at: &str,
    ) -> Option<String> {
        let filters = filters.filter(|f| !f.is_empty())?;
        let mut primitives = String::new();
        let mut previous = "SourceGraphic".to_owned();
        let mut reach = 0.0f32;
        for (i, filter) in filters.iter().enumerate() {
            let (color, kind) = match filter {
                Filter::Overlay(overlay) => (overlay.color.as_ref(), None),
                Filter::Shadow(shadow) => (shadow.color.as_ref(), Some(shadow)),
            };
            let Some(color) = svg_color(color) else {
                self.report.push(Report::new(
                    at,
                    format!("filter {i}: the colour \"{color}\" cannot be drawn: filter left out"),
                ));
                continue;
            };
            let result = format!("f{i}");
            match kind {
                None => {
                    let _ = write!(
                        primitives,
                        "<feFlood flood-color=\"{color}\" result=\"{result}c\"/><feComposite in=\"{result}c\" in2=\"{previous}\" operator=\"in\" result=\"{result}\"/>"
                    );
                }
                Some(shadow) => {
                    let blur = shadow
                        .extra
                        .get("blur")
                        .and_then(serde_json::Value::as_f64)
                        .filter(|b| b.is_finite() && *b > 0.0)
                        .map_or(0.0, |b| (b as f32).min(1000.0));
                    #[allow(clippy::cast_precision_loss)]
                    let (dx, dy) = (shadow.x as f32, shadow.y as f32);
                    reach = reach.max(dx.abs()).max(dy.abs()) + blur * 3.0;
                    let _ = write!(
                        primitives,
                        "<feFlood flood-color=\"{color}\" result=\"{result}c\"/><feComposite in=\"{result}c\" in2=\"{previous}\" operator=\"in\" result=\"{result}a\"/><feOffset in=\"{result}a\" dx=\"{}\" dy=\"{}\" result=\"{result}o\"/>",
                        num(dx),
                        num(dy)
                    );
                    let shadow_result = if blur > 0.0 {
                        let _ = write!(
                            primitives,
                            "<feGaussianBlur in=\"{result}o\" stdDeviation=\"{}\" result=\"{result}b\"/>",
                            num(blur / 2.0)
                        );
                        format!("{result}b")
                    } else {
                        format!("{result}o")
                    };
                    let _ = write!(
                        primitives,
                        "<feMerge result=\"{result}\"><feMergeNode in=\"{shadow_result}\"/><feMergeNode in=\"{previous}\"/></feMerge>"
                    );
                }
            }
            previous = result;
        }
        if primitives.is_empty() {
            return None;
        }
        // The region: the layer's box, rotated, grown by how far shadows
        // reach (and by a margin for glyphs beyond a text box).
        let region = rotated_bounds(frame, rotation);
        let margin = reach + frame.height.min(frame.width).max(0.0) * 0.5 + 2.0;
        let id = format!("layer-{n}-filter");
        let _ = write!(
            self.svg,
            "<filter id=\"{id}\" filterUnits=\"userSpaceOnUse\" color-interpolation-filters=\"sRGB\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\">{primitives}</filter>",
            num(region.x - margin),
            num(region.y - margin),
            num(region.width + 2.0 * margin),
            num(region.height + 2.0 * margin)
        );
        Some(id)
    }

    fn text(&mut self, n: usize, pointer: &str, text: &Text) {
        let at = place_of(pointer, text.name.as_deref());
        #[allow(clippy::cast_precision_loss)]
        let frame = Rect {
            x: text.x as f32,
            y: text.y as f32,
            width: text.width as f32,
            height: text.height as f32,
        };
        if text.text.chars().count() > self.options.limits.max_text_chars {
            self.report.push(Report::new(
                &at,
                format!(
                    "the text is longer than the limit of {} characters: not drawn",
                    self.options.limits.max_text_chars
                ),
            ));
            self.placeholder(n, frame);
            return;
        }
        let Some(face) = self.fonts.select(
            text.font.as_deref(),
            text.font_weight.as_deref(),
            &at,
            &mut self.report,
        ) else {
            self.report.push(Report::new(
                &at,
                "no font could be loaded (not even a fallback): text not drawn",
            ));
            self.placeholder(n, frame);
            return;
        };
        let color = svg_color(text.color.as_ref()).unwrap_or_else(|| {
            self.report.push(Report::new(
                &at,
                format!("the colour \"{}\" cannot be drawn: white used", text.color),
            ));
            "rgb(255,255,255)".to_owned()
        });
        // Pieces to lay out, and the symbols' assets by piece index.
        let mut pieces = Vec::new();
        let mut symbol_assets: Vec<Result<Asset, (String, String)>> = Vec::new();
        let mut italics_reported = false;
        let table = std::mem::take(&mut self.symbols);
        for run in symbols::split(&text.text, &table) {
            match run.piece {
                symbols::Piece::Text(plain) => push_text(&mut pieces, plain),
                symbols::Piece::Code(TextCode::Line) => pieces.push(Piece::Break),
                symbols::Piece::Code(TextCode::Year) => {
                    push_text(&mut pieces, &self.year.to_string());
                }
                symbols::Piece::Code(code @ (TextCode::ItalicStart | TextCode::ItalicEnd)) => {
                    if !italics_reported {
                        italics_reported = true;
                        self.report.push(Report::new(
                            &at,
                            format!("italics ({}) are not drawn: the text is set upright", code.as_str()),
                        ));
                    }
                }
                symbols::Piece::Symbol(symbol) => {
                    let loaded = self.asset(&symbol.src).map_err(|why| (symbol.src.clone(), why));
                    let aspect = match &loaded {
                        Ok(asset) if asset.height > 0.0 => (asset.width / asset.height).clamp(0.01, 100.0),
                        _ => 1.0,
                    };
                    #[allow(clippy::cast_possible_truncation)] // fractions of a line
                    pieces.push(Piece::Symbol {
                        index: symbol_assets.len(),
                        aspect,
                        scale: symbol.scale as f32,
                        spacing: symbol.spacing as f32,
                        vertical_shift: symbol.vertical_shift as f32,
                    });
                    symbol_assets.push(loaded);
                }
                symbols::Piece::Unknown(code) => self.report.push(Report::new(
                    &at,
                    format!("text code {{{code}}} is not a symbol of the template nor a known code: left out"),
                )),
            }
        }
        self.symbols = table;
        let layout_frame = Frame {
            x: frame.x,
            y: frame.y,
            width: frame.width,
            height: frame.height,
            #[allow(clippy::cast_precision_loss)]
            size: text.size.max(1) as f32,
            #[allow(clippy::cast_possible_truncation)]
            line_height_scale: text.line_height_scale as f32,
            one_line: text.one_line,
            align: text.align.unwrap_or(HorizontalAlign::Left),
            vertical_align: text.vertical_align.unwrap_or(VerticalAlign::Center),
        };
        let block = self.fonts.with_measure(&face, |measure| {
            layout::lay_out(&pieces, &layout_frame, measure)
        });
        if !block.fits {
            self.report.push(Report::new(
                &at,
                format!(
                    "the text does not fit its box of {} × {} even at {} px",
                    num(frame.width),
                    num(frame.height),
                    num(block.size)
                ),
            ));
        }
        #[allow(clippy::cast_precision_loss)]
        let rotation = text.rotation as f32;
        let filter = self.filter(n, text.filters.as_deref(), frame, rotation, &at);
        self.open_layer(n, text.opacity, filter.as_deref());
        self.open_rotation(rotation, frame);
        let family = escape(&face.family);
        let mut symbol_count = 0;
        for (l, line) in block.lines.iter().enumerate() {
            let _ = write!(
                self.svg,
                "<g id=\"layer-{n}-line-{l}\" font-family=\"'{family}'\" font-size=\"{}\" font-weight=\"{}\" fill=\"{color}\">",
                num(block.size),
                face.weight
            );
            let mut empty = true;
            for item in &line.items {
                match item {
                    Placed::Word { x, text } => {
                        empty = false;
                        let _ = write!(
                            self.svg,
                            "<text x=\"{}\" y=\"{}\" xml:space=\"preserve\">{}</text>",
                            num(*x),
                            num(line.baseline),
                            escape(text)
                        );
                    }
                    Placed::Symbol {
                        index,
                        x,
                        y,
                        width,
                        height,
                    } => {
                        empty = false;
                        let rect = Rect {
                            x: *x,
                            y: *y,
                            width: *width,
                            height: *height,
                        };
                        let id = format!("layer-{n}-symbol-{symbol_count}");
                        symbol_count += 1;
                        match &symbol_assets[*index] {
                            Ok(asset) if self.embed(asset.href.len() as u64, &at) => {
                                let href = Arc::clone(&asset.href);
                                let _ = write!(self.svg, "<g id=\"{id}\">");
                                self.svg_image(&href, rect);
                                self.svg.push_str("</g>");
                            }
                            Ok(_) => self.placeholder_with_id(&id, rect),
                            Err((src, why)) => {
                                self.report.push(Report::new(
                                    &at,
                                    format!(
                                        "symbol `{}`: {why}: drawn as a placeholder box",
                                        short(src)
                                    ),
                                ));
                                self.placeholder_with_id(&id, rect);
                            }
                        }
                    }
                }
            }
            if empty {
                // An empty line keeps its group (ids stay in step); usvg
                // drops empty groups, which is what it should draw.
            }
            self.svg.push_str("</g>");
        }
        self.close_rotation(rotation);
        self.svg.push_str("</g>");
    }
}

/// Plain text as pieces: a new line at each `\n` (`\r\n` too).
fn push_text(pieces: &mut Vec<Piece>, text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            pieces.push(Piece::Break);
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !line.is_empty() {
            pieces.push(Piece::Text(line.replace('\t', " ")));
        }
    }
}

/// A source shortened for a report line (a `data:` URI by its head).
fn short(src: &str) -> String {
    if src.len() > 80 {
        let mut end = 60;
        while !src.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &src[..end], src.len())
    } else {
        src.to_owned()
    }
}

/// The box an image of `width` × `height` takes in `bounds`: contained
/// (`fit`) or covering (`fill`), aligned.
fn fit_box(
    bounds: Rect,
    width: f32,
    height: f32,
    kind: BoundType,
    horizontal: HorizontalAlign,
    vertical: VerticalAlign,
) -> Rect {
    if width <= 0.0 || height <= 0.0 {
        return bounds;
    }
    let sx = bounds.width / width;
    let sy = bounds.height / height;
    let scale = match kind {
        BoundType::Fit => sx.min(sy),
        BoundType::Fill => sx.max(sy),
    };
    let (w, h) = (width * scale, height * scale);
    let x = match horizontal {
        HorizontalAlign::Left => bounds.x,
        HorizontalAlign::Center => bounds.x + (bounds.width - w) / 2.0,
        HorizontalAlign::Right => bounds.x + bounds.width - w,
    };
    let y = match vertical {
        VerticalAlign::Top => bounds.y,
        VerticalAlign::Center => bounds.y + (bounds.height - h) / 2.0,
        VerticalAlign::Bottom => bounds.y + bounds.height - h,
    };
    Rect {
        x,
        y,
        width: w,
        height: h,
    }
}

/// The axis-aligned box around `frame` rotated about its centre.
fn rotated_bounds(frame: Rect, degrees: f32) -> Rect {
    if degrees == 0.0 || !degrees.is_finite() {
        return frame;
    }
    let (sin, cos) = degrees.to_radians().sin_cos();
    let w = (frame.width * cos).abs() + (frame.height * sin).abs();
    let h = (frame.width * sin).abs() + (frame.height * cos).abs();
    let (cx, cy) = (frame.x + frame.width / 2.0, frame.y + frame.height / 2.0);
    Rect {
        x: cx - w / 2.0,
        y: cy - h / 2.0,
        width: w,
        height: h,
    }
}

fn first_image_size(group: &usvg::Group) -> Option<(f32, f32)> {
    for node in group.children() {
        match node {
            usvg::Node::Image(image) => {
                let size = image.size();
                return Some((size.width(), size.height()));
            }
            usvg::Node::Group(inner) => {
                if let Some(size) = first_image_size(inner) {
                    return Some(size);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_contains_and_fill_covers() {
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            width: 200.0,
            height: 100.0,
        };
        let fit = fit_box(
            bounds,
            50.0,
            50.0,
            BoundType::Fit,
            HorizontalAlign::Center,
            VerticalAlign::Top,
        );
        assert_eq!(
            fit,
            Rect {
                x: 50.0,
                y: 0.0,
                width: 100.0,
                height: 100.0
            }
        );
        let fill = fit_box(
            bounds,
            50.0,
            50.0,
            BoundType::Fill,
            HorizontalAlign::Left,
            VerticalAlign::Bottom,
        );
        assert_eq!(
            fill,
            Rect {
                x: 0.0,
                y: -100.0,
                width: 200.0,
                height: 200.0
            }
        );
    }

    #[test]
    fn colors_in_the_spec_forms() {
        assert_eq!(svg_color("white").as_deref(), Some("rgb(255,255,255)"));
        assert_eq!(svg_color("0xff0000").as_deref(), Some("rgb(255,0,0)"));
        assert_eq!(svg_color(" #FFFFFF ").as_deref(), Some("rgb(255,255,255)"));
        assert_eq!(
            svg_color("ff000080").as_deref(),
            Some("rgba(255,0,0,0.502)")
        );
        assert_eq!(svg_color("rgb(0, 0, 255)").as_deref(), Some("rgb(0,0,255)"));
        assert_eq!(svg_color("no such colour"), None);
    }

    #[test]
    fn numbers_are_written_the_same_way_every_time() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1.0 / 3.0), "0.333");
        assert_eq!(num(f32::NAN), "0");
    }

    #[test]
    fn images_are_told_by_their_signature() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), Some("image/png"));
        assert_eq!(
            sniff(b"  <?xml version='1.0'?><svg/>"),
            Some("image/svg+xml")
        );
        assert_eq!(sniff(b"OTTO not an image"), None);
    }
}
