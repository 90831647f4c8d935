//! An image layer: its asset fitted in its bounds, its masks, its filters
//! and rotation; a placeholder box for what cannot be read.

use std::fmt::Write as _;

use cardkit::model::Image;

use super::canvas::Scene;
use super::geometry::{fit_box, Rect};
use super::svg::num;
use super::wording::{place_of, short};
use crate::report::Report;

impl Scene<'_> {
    pub(super) fn image(&mut self, n: usize, pointer: &str, image: &Image) {
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
        let frame = self.clamp_box(frame, "the box", &at);
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
                    let own = self.clamp_box(own, &format!("mask {k}'s box"), &at);
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
        let work = masks
            .iter()
            .map(|(_, mask, own)| {
                self.draw_cost(mask, *own)
                    .saturating_add(self.picture_pixels)
            })
            .fold(self.draw_cost(&asset, frame), u64::saturating_add);
        if !self.embed(cost as u64, &at) || !self.spend(work, &at) {
            self.placeholder(n, frame);
            return;
        }
        // An image draws within its box; a pixel more keeps the edges of
        // an overlay's box clear of the image's own.
        let filter = self.filter_beyond(n, image.filters.as_deref(), frame, rotation, 1.0, &at);
        self.open_layer(n, image.opacity, filter.as_ref());
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
        self.close_layer(filter.as_ref());
    }
}
