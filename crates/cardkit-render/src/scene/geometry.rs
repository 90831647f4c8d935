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
