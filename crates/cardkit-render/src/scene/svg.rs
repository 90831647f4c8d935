//! Values as the SVG writes them: numbers the same way on every run, text
//! escaped for XML, the spec's colours as SVG colours.

/// A number as SVG text: at most 3 decimals, no trailing zeros, so the same
/// layout always gives the same bytes.
pub(super) fn num(value: f32) -> String {
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
pub(super) fn escape(text: &str) -> String {
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

/// A colour as SVG understands it: the spec's `0x`-prefixed and bare hex
/// forms get a `#`; anything svgtypes cannot read is `None`.
pub(super) fn svg_color(color: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
