//! The `color` format: exactly the strings the original models' color type accepted.
//!
//! The original models (Python, pydantic v2) typed these fields with pydantic's `Color`
//! (`pydantic_extra_types.color.Color`). This is a port of the acceptance logic of its
//! `parse_str`: the value is lower-cased (Unicode `str.lower()`), then it is valid if it is
//!
//! 1. a key of `COLORS_BY_NAME`, compared exactly (no whitespace trimmed);
//! 2. a full match of `r_hex_short` or `r_hex_long`: `\s*(?:#|0x)?` and 3, 4, 6 or 8 hex digits
//!    then `\s*` (every such value is in range);
//! 3. a full match of `r_rgb` or `r_rgb_v4_style` whose components are in 0..=255 and whose
//!    alpha is valid (see below);
//! 4. a full match of `r_hsl` or `r_hsl_v4_style` whose saturation and lightness are in
//!    0..=100 and whose alpha is valid (the hue may be any number, in `deg`, `rad` or `turn`);
//! 5. or exactly `transparent`.
//!
//! The regular expressions are Python's, on `str`: `\s` is any character for which
//! `str.isspace()` holds (Unicode white space and U+001C..=U+001F) and `\d` any Unicode
//! decimal digit (category Nd), which `float()` then reads by its digit value. Numbers are
//! compared as Python compares floats: after correctly rounded conversion to `f64` (as
//! `float()` does), so `rgb(255.00000000000001, 0, 0)` is valid. An alpha is valid when
//! `math.isclose(alpha, 1)` or `0 <= alpha <= 1`.

/// The keys of `COLORS_BY_NAME` (the CSS3/SVG color names), sorted for binary search.
pub(crate) const COLOR_NAMES: [&str; 147] = [
    "aliceblue",
    "antiquewhite",
    "aqua",
    "aquamarine",
    "azure",
    "beige",
    "bisque",
    "black",
    "blanchedalmond",
    "blue",
    "blueviolet",
    "brown",
    "burlywood",
    "cadetblue",
    "chartreuse",
    "chocolate",
    "coral",
    "cornflowerblue",
    "cornsilk",
    "crimson",
    "cyan",
    "darkblue",
    "darkcyan",
    "darkgoldenrod",
    "darkgray",
    "darkgreen",
    "darkgrey",
    "darkkhaki",
    "darkmagenta",
    "darkolivegreen",
    "darkorange",
    "darkorchid",
    "darkred",
    "darksalmon",
    "darkseagreen",
    "darkslateblue",
    "darkslategray",
    "darkslategrey",
    "darkturquoise",
    "darkviolet",
    "deeppink",
    "deepskyblue",
    "dimgray",
    "dimgrey",
    "dodgerblue",
    "firebrick",
    "floralwhite",
    "forestgreen",
    "fuchsia",
    "gainsboro",
    "ghostwhite",
    "gold",
    "goldenrod",
    "gray",
    "green",
    "greenyellow",
    "grey",
    "honeydew",
    "hotpink",
    "indianred",
    "indigo",
    "ivory",
    "khaki",
    "lavender",
    "lavenderblush",
    "lawngreen",
    "lemonchiffon",
    "lightblue",
    "lightcoral",
    "lightcyan",
    "lightgoldenrodyellow",
    "lightgray",
    "lightgreen",
    "lightgrey",
    "lightpink",
    "lightsalmon",
    "lightseagreen",
    "lightskyblue",
    "lightslategray",
    "lightslategrey",
    "lightsteelblue",
    "lightyellow",
    "lime",
    "limegreen",
    "linen",
    "magenta",
    "maroon",
    "mediumaquamarine",
    "mediumblue",
    "mediumorchid",
    "mediumpurple",
    "mediumseagreen",
    "mediumslateblue",
    "mediumspringgreen",
    "mediumturquoise",
    "mediumvioletred",
    "midnightblue",
    "mintcream",
    "mistyrose",
    "moccasin",
    "navajowhite",
    "navy",
    "oldlace",
    "olive",
    "olivedrab",
    "orange",
    "orangered",
    "orchid",
    "palegoldenrod",
    "palegreen",
    "paleturquoise",
    "palevioletred",
    "papayawhip",
    "peachpuff",
    "peru",
    "pink",
    "plum",
    "powderblue",
    "purple",
    "red",
    "rosybrown",
    "royalblue",
    "saddlebrown",
    "salmon",
    "sandybrown",
    "seagreen",
    "seashell",
    "sienna",
    "silver",
    "skyblue",
    "slateblue",
    "slategray",
    "slategrey",
    "snow",
    "springgreen",
    "steelblue",
    "tan",
    "teal",
    "thistle",
    "tomato",
    "turquoise",
    "violet",
    "wheat",
    "white",
    "whitesmoke",
    "yellow",
    "yellowgreen",
];

/// The code points of the digit zero of every run of Unicode decimal digits (category Nd),
/// each followed by the digits one to nine; from Python 3.13's `unicodedata` (Unicode 15.1).
const DIGIT_ZEROS: [u32; 68] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x11F50, 0x16A60,
    0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E4F0,
    0x1E950, 0x1FBF0,
];

/// Whether `value` is a color that the original models' color type accepted: a CSS3/SVG
/// color name or `transparent` (any case, no surrounding whitespace), a hex color of 3, 4,
/// 6 or 8 digits with an optional `#` or `0x` prefix, or an `rgb()`/`rgba()`/`hsl()`/`hsla()`
/// form (comma-separated, or space-separated with an optional `/ alpha`) whose values are in
/// range.
///
/// The module documentation lists the rules this follows exactly, quirks included.
#[must_use]
pub fn is_color(value: &str) -> bool {
    let lower = value.to_lowercase();
    COLOR_NAMES.binary_search(&lower.as_str()).is_ok()
        || is_hex(&lower)
        || rgb(&lower).is_some_and(|rgb| rgb.is_valid())
        || hsl(&lower).is_some_and(|hsl| hsl.is_valid())
        || lower == "transparent"
}

/// `r_hex_short` or `r_hex_long`: `\s*(?:#|0x)?`, then 3 or 4 (short) or 6 or 8 (long) hex
/// digits, then `\s*`.
fn is_hex(s: &str) -> bool {
    let body = s.trim_matches(is_space);
    [Some(body), body.strip_prefix('#'), body.strip_prefix("0x")]
        .into_iter()
        .flatten()
        .any(|digits| {
            matches!(digits.len(), 3 | 4 | 6 | 8)
                && digits
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
}

/// The captures of `r_rgb` or `r_rgb_v4_style`, as numbers.
struct Rgb {
    components: [f64; 3],
    alpha: Option<f64>,
}

impl Rgb {
    /// `ints_to_rgba`: `parse_color_value` of each component, then `parse_float_alpha`.
    fn is_valid(&self) -> bool {
        self.components.iter().all(|&c| (0.0..=255.0).contains(&c))
            && self.alpha.is_none_or(is_valid_alpha)
    }
}

/// The captures of `r_hsl` or `r_hsl_v4_style` that can make the color invalid, as numbers.
struct Hsl {
    saturation: f64,
    lightness: f64,
    alpha: Option<f64>,
}

impl Hsl {
    /// `parse_hsl`: `parse_color_value(…, 100)` of saturation and lightness, then
    /// `parse_float_alpha`. The hue is only reduced modulo a turn (infinity gives NaN, no
    /// error), so it never makes the color invalid.
    fn is_valid(&self) -> bool {
        (0.0..=100.0).contains(&self.saturation)
            && (0.0..=100.0).contains(&self.lightness)
            && self.alpha.is_none_or(is_valid_alpha)
    }
}

/// `parse_float_alpha`: valid when `math.isclose(alpha, 1)` (with its default relative
/// tolerance 1e-9) or `0 <= alpha <= 1`.
fn is_valid_alpha(alpha: f64) -> bool {
    // CPython's math.isclose(a, b), with b = 1, rel_tol = 1e-9 and abs_tol = 0. Its special
    // case for infinities is left out: an alpha here is at most 9.99….
    const REL_TOL: f64 = 1e-9;
    let diff = (1.0 - alpha).abs();
    let close_to_one = diff <= REL_TOL || diff <= (REL_TOL * alpha).abs();
    close_to_one || (0.0..=1.0).contains(&alpha)
}

/// The two forms of `rgb()`/`rgba()`; at most one of them matches a string.
fn rgb(s: &str) -> Option<Rgb> {
    // \s*rgba?\(\s*
    let mut open = Scanner(s);
    open.skip_spaces();
    open.eat("rgb").then_some(())?;
    open.eat("a");
    open.eat("(").then_some(())?;
    open.skip_spaces();
    [Style::Css3, Style::Css4].into_iter().find_map(|style| {
        let mut scanner = open;
        let r = scanner.number_255()?;
        scanner.separator(style)?;
        let g = scanner.number_255()?;
        scanner.separator(style)?;
        let b = scanner.number_255()?;
        let alpha = scanner.alpha_and_close(style)?;
        Some(Rgb {
            components: [r, g, b],
            alpha,
        })
    })
}

/// The two forms of `hsl()`/`hsla()`; at most one of them matches a string.
fn hsl(s: &str) -> Option<Hsl> {
    // \s*hsla?\(\s*
    let mut open = Scanner(s);
    open.skip_spaces();
    open.eat("hsl").then_some(())?;
    open.eat("a");
    open.eat("(").then_some(())?;
    open.skip_spaces();
    [Style::Css3, Style::Css4].into_iter().find_map(|style| {
        let mut scanner = open;
        scanner.hue()?;
        scanner.separator(style)?;
        let saturation = scanner.percentage()?;
        scanner.separator(style)?;
        let lightness = scanner.percentage()?;
        let alpha = scanner.alpha_and_close(style)?;
        Some(Hsl {
            saturation,
            lightness,
            alpha,
        })
    })
}

/// Which of the two regular expressions of a functional form is being matched.
#[derive(Clone, Copy)]
enum Style {
    /// `r_rgb`, `r_hsl`: components separated by `\s*,\s*`, alpha by `\s*,\s*` too.
    Css3,
    /// `r_rgb_v4_style`, `r_hsl_v4_style`: components separated by `\s+`, alpha by `\s*/\s*`.
    Css4,
}

/// A cursor over the rest of the string being matched.
///
/// Each method matches one piece of the regular expressions greedily. That finds a match
/// exactly when the regular expression has one, because in these expressions no piece can
/// give characters back to the next one: numbers are followed by `%`, a unit, a separator or
/// `)`, none of which starts with a digit or `.`.
#[derive(Clone, Copy)]
struct Scanner<'a>(&'a str);

impl Scanner<'_> {
    /// Consumes `prefix` if the rest starts with it.
    fn eat(&mut self, prefix: &str) -> bool {
        match self.0.strip_prefix(prefix) {
            Some(rest) => {
                self.0 = rest;
                true
            }
            None => false,
        }
    }

    /// `\s*`; returns whether it consumed anything.
    fn skip_spaces(&mut self) -> bool {
        let rest = self.0.trim_start_matches(is_space);
        let skipped = rest.len() < self.0.len();
        self.0 = rest;
        skipped
    }

    /// `\d*`, as ASCII digits (as `float()` reads them).
    fn digits(&mut self) -> String {
        let end = self
            .0
            .find(|c| decimal_value(c).is_none())
            .unwrap_or(self.0.len());
        let (run, rest) = self.0.split_at(end);
        self.0 = rest;
        run.chars()
            .filter_map(decimal_value)
            .map(|d| char::from(b'0' + d))
            .collect()
    }

    /// `(?:\.\d+)?` after an integer part; `None` when a `.` is not followed by a digit.
    fn fraction(&mut self, number: &mut String) -> Option<()> {
        if self.eat(".") {
            let digits = self.digits();
            if digits.is_empty() {
                return None;
            }
            number.push('.');
            number.push_str(&digits);
        }
        Some(())
    }

    /// `_r_255`, `(\d{1,3}(?:\.\d+)?)`, as `float()` reads it.
    fn number_255(&mut self) -> Option<f64> {
        let mut number = self.digits();
        if !(1..=3).contains(&number.len()) {
            return None;
        }
        self.fraction(&mut number)?;
        number.parse().ok()
    }

    /// `_r_sl`, `(\d{1,3}(?:\.\d+)?)%`, as `float()` reads the number.
    fn percentage(&mut self) -> Option<f64> {
        let number = self.number_255()?;
        self.eat("%").then_some(number)
    }

    /// `_r_h`, `(-?\d+(?:\.\d+)?|-?\.\d+)(deg|rad|turn)?`. Its value never matters.
    fn hue(&mut self) -> Option<()> {
        self.eat("-");
        let mut number = self.digits();
        if number.is_empty() {
            // -?\.\d+
            self.eat(".").then_some(())?;
            if self.digits().is_empty() {
                return None;
            }
        } else {
            self.fraction(&mut number)?;
        }
        let _unit = self.eat("deg") || self.eat("rad") || self.eat("turn");
        Some(())
    }

    /// `_r_alpha`, `(\d(?:\.\d+)?|\.\d+|\d{1,2}%)`, as `parse_float_alpha` reads it: a
    /// percentage is divided by 100.
    fn alpha(&mut self) -> Option<f64> {
        let mut number = self.digits();
        if number.is_empty() {
            // \.\d+
            self.eat(".").then_some(())?;
            let digits = self.digits();
            if digits.is_empty() {
                return None;
            }
            return format!("0.{digits}").parse().ok();
        }
        if self.eat("%") {
            // \d{1,2}%
            if number.len() > 2 {
                return None;
            }
            return number.parse::<f64>().ok().map(|percent| percent / 100.0);
        }
        // \d(?:\.\d+)?
        if number.len() != 1 {
            return None;
        }
        self.fraction(&mut number)?;
        number.parse().ok()
    }

    /// The separator between two components: `\s*,\s*` or `\s+`.
    fn separator(&mut self, style: Style) -> Option<()> {
        let spaces = self.skip_spaces();
        match style {
            Style::Css3 => {
                self.eat(",").then_some(())?;
                self.skip_spaces();
            }
            Style::Css4 => spaces.then_some(())?,
        }
        Some(())
    }

    /// The end of the string after the third component: `(?:\s*,\s*A)?\s*\)\s*` or
    /// `(?:\s*/\s*A)?\s*\)\s*`. Returns the alpha, if any.
    fn alpha_and_close(&mut self, style: Style) -> Option<Option<f64>> {
        self.skip_spaces();
        let alpha_separator = match style {
            Style::Css3 => ",",
            Style::Css4 => "/",
        };
        let alpha = if self.eat(alpha_separator) {
            self.skip_spaces();
            let alpha = self.alpha()?;
            self.skip_spaces();
            Some(alpha)
        } else {
            None
        };
        self.eat(")").then_some(())?;
        self.skip_spaces();
        self.0.is_empty().then_some(alpha)
    }
}

/// Python's `\s` on `str`: the characters for which `str.isspace()` holds.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\u{1c}'..='\u{1f}'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// Python's `\d` on `str`: the value of a Unicode decimal digit (category Nd).
fn decimal_value(c: char) -> Option<u8> {
    let code = u32::from(c);
    let runs_started = DIGIT_ZEROS.partition_point(|&zero| zero <= code);
    let zero = DIGIT_ZEROS[..runs_started].last()?;
    u8::try_from(code - zero).ok().filter(|&d| d < 10)
}

#[cfg(test)]
mod tests;
