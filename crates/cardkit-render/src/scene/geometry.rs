//! Boxes in card pixels ([`Rect`]): an image fitted in its bounds, and the
//! box around a rotated one.

use cardkit::model::{BoundType, HorizontalAlign, VerticalAlign};

/// An axis-aligned box in card pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Rect {
    pub(super) x: f32,
    pub(super) y: f32,
    pub(super) width: f32,
    pub(super) height: f32,
}

/// The farthest a coordinate may lie from the card's origin, in card
/// pixels: four of the largest card's sides, far beyond anything a card
/// shows, and within the whole numbers an `f32` holds exactly; beyond it
/// resvg's rasterizer (tiny-skia) may fail.
pub(super) const MAX_COORD: f32 = 4_000_000.0;

/// `value` within ±`MAX_COORD` (0 when not a number).
pub(super) fn clamp_coord(value: f32) -> f32 {
    if value.is_nan() {
        0.0
    } else {
        value.clamp(-MAX_COORD, MAX_COORD)
    }
}

impl Rect {
    /// The box with its corner within ±`MAX_COORD` and its sides at most
    /// 2 × `MAX_COORD`; `None` when it already was.
    pub(super) fn clamped(self) -> Option<Rect> {
        let side = |v: f32| {
            if v.is_nan() {
                0.0
            } else {
                v.clamp(-2.0 * MAX_COORD, 2.0 * MAX_COORD)
            }
        };
        let clamped = Rect {
            x: clamp_coord(self.x),
            y: clamp_coord(self.y),
            width: side(self.width),
            height: side(self.height),
        };
        (clamped != self).then_some(clamped)
    }

    /// The box grown by `by` on every side.
    pub(super) fn grown(self, by: f32) -> Rect {
        Rect {
            x: self.x - by,
            y: self.y - by,
            width: self.width + 2.0 * by,
            height: self.height + 2.0 * by,
        }
    }

    /// The part of the box inside `other` (empty boxes have no width or
    /// height).
    /// A box already inside keeps its numbers exactly.
    pub(super) fn within(self, other: Rect) -> Rect {
        let (x, width) = span_within((self.x, self.width), (other.x, other.width));
        let (y, height) = span_within((self.y, self.height), (other.y, other.height));
        Rect {
            x,
            y,
            width,
            height,
        }
    }
}

/// The part of the span (start, length) inside `other`.
fn span_within(span: (f32, f32), other: (f32, f32)) -> (f32, f32) {
    let (start, length) = span;
    let (other_start, other_length) = other;
    let end = start + length;
    let other_end = other_start + other_length;
    if start >= other_start && end <= other_end {
        return span;
    }
    let clipped_start = start.max(other_start);
    (clipped_start, (end.min(other_end) - clipped_start).max(0.0))
}

/// The box an image of `width` × `height` takes in `bounds`: contained
/// (`fit`) or covering (`fill`), aligned.
pub(super) fn fit_box(
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
pub(super) fn rotated_bounds(frame: Rect, degrees: f32) -> Rect {
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
}
