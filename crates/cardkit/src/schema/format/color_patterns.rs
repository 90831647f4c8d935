//! The `color` format as regular expressions, for JSON Schema's standard
//! `enum` and `pattern` keywords: what a validator that knows no custom
//! format can check.
//!
//! The patterns follow [`is_color`](super::is_color) rule by rule, in the
//! syntax that ECMA-262 (`u` flag), the Rust `regex` crate and Python's `re`
//! read alike (no look-around, no inline flags, `\uXXXX` escapes):
//!
//! - names in any case: a class of both cases for each letter (and the Kelvin
//!   sign for `k`, which Python lower-cases to `k`);
//! - Python's `\s` as an explicit class of the characters `str.isspace()`
//!   holds for, since ECMA-262's `\s` differs from it;
//! - ranges as alternatives of digits, and the numbers at a bound that round
//!   to it (`rgb(255.00000000000001, 0, 0)`, an alpha within `1e-9` of 1) as
//!   the decimal fractions at most that far above it.
//!
//! One rule is left out, as a known difference: Python's `\d` takes every
//! Unicode decimal digit (`rgb(١٢٣, 0, 0)`), the patterns ASCII digits only;
//! ranges over 68 digit sets would make patterns of hundreds of kilobytes.

use super::color::COLOR_NAMES;

/// Python's `\s` on `str`: the characters for which `str.isspace()` holds.
const SPACE: &str = r"[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]";

/// The color names (CSS3/SVG) and `transparent`, lower-case, sorted.
#[must_use]
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = COLOR_NAMES.to_vec();
    names.push("transparent");
    names.sort_unstable();
    names
}

/// The names and `transparent` in any case, with no surrounding spaces.
#[must_use]
pub fn names_pattern() -> String {
    let each: Vec<String> = names()
        .iter()
        .map(|name| name.chars().map(any_case).collect())
        .collect();
    format!("^(?:{})$", each.join("|"))
}

/// Hex of 3, 4, 6 or 8 digits, `#` or `0x` before, spaces around.
#[must_use]
pub fn hex_pattern() -> String {
    let hex = "[0-9a-fA-F]";
    format!("^{SPACE}*(?:#|0[xX])?(?:{hex}{{3,4}}|{hex}{{6}}|{hex}{{8}}){SPACE}*$")
}

/// `rgb()`/`rgba()`, comma- or space-separated, components in 0..=255, an
/// alpha in 0..=1.
#[must_use]
pub fn rgb_pattern() -> String {
    let c = component_255();
    let a = alpha();
    functional("rgb", [&c, &c, &c], &a)
}

/// `hsl()`/`hsla()`, comma- or space-separated, any hue, saturation and
/// lightness in 0..=100 %, an alpha in 0..=1.
#[must_use]
pub fn hsl_pattern() -> String {
    let unit = format!("(?:{}|{}|{})", word("deg"), word("rad"), word("turn"));
    let hue = format!(r"-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+){unit}?");
    let percent = format!("{}%", percentage());
    functional("hsl", [&hue, &percent, &percent], &alpha())
}

/// `NAME` or `NAMEa`, `(`, three values and an optional alpha, `)`: either
/// `\s*,\s*` between all, or `\s+` between the three and `\s*/\s*` before
/// the alpha; spaces around.
fn functional(name: &str, [x, y, z]: [&str; 3], alpha: &str) -> String {
    let s = SPACE;
    let css3 = format!("{x}{s}*,{s}*{y}{s}*,{s}*{z}(?:{s}*,{s}*(?:{alpha}))?");
    let css4 = format!("{x}{s}+{y}{s}+{z}(?:{s}*/{s}*(?:{alpha}))?");
    format!(
        r"^{s}*{}{}?\({s}*(?:{css3}|{css4}){s}*\){s}*$",
        word(name),
        any_case('a')
    )
}

/// `\d{1,3}(?:\.\d+)?` whose value, as the nearest binary64, is at most 255.
fn component_255() -> String {
    // 255 + half an ulp rounds to 255 (ties to even).
    let fraction = fraction_at_most("0000000000000142108547152020037174224853515625", true);
    format!(r"(?:(?:[01]?[0-9]{{1,2}}|2[0-4][0-9]|25[0-4])(?:\.[0-9]+)?|255(?:\.{fraction})?)")
}

/// `\d{1,3}(?:\.\d+)?` whose value, as the nearest binary64, is at most 100.
fn percentage() -> String {
    // 100 + half an ulp rounds to 100 (ties to even).
    let fraction = fraction_at_most("00000000000000710542735760100185871124267578125", true);
    format!(r"(?:0?[0-9]{{1,2}}(?:\.[0-9]+)?|100(?:\.{fraction})?)")
}

/// `\d(?:\.\d+)?|\.\d+|\d{1,2}%` that `parse_float_alpha` takes: in 0..=1
/// or `math.isclose` to 1. The largest such binary64 is
/// 1.0000000009999999 (odd), so the decimals below the midpoint to the next
/// one are taken, and the midpoint itself is not.
fn alpha() -> String {
    let fraction = fraction_at_most(
        "00000000099999997171806853657471947371959686279296875",
        false,
    );
    format!(r"0(?:\.[0-9]+)?|\.[0-9]+|[0-9]{{1,2}}%|1(?:\.{fraction})?")
}

/// A non-empty run of decimal digits `d` such that `0.d` is at most (or,
/// not `inclusive`, below) `0.bound`, where `bound` ends in a non-zero digit.
fn fraction_at_most(bound: &str, inclusive: bool) -> String {
    let digits: Vec<u8> = bound.bytes().map(|b| b - b'0').collect();
    let mut pattern = String::new();
    // Built from the last digit outwards: at digit i, either a smaller digit
    // and anything after, or the same digit and (optionally) the rest.
    for (i, &digit) in digits.iter().enumerate().rev() {
        let last = i + 1 == digits.len();
        let mut choices = Vec::new();
        if digit > 0 {
            let below = if digit == 1 {
                "0".to_owned()
            } else {
                format!("[0-{}]", digit - 1)
            };
            choices.push(format!("{below}[0-9]*"));
        }
        if last {
            if inclusive {
                choices.push(format!("{digit}0*"));
            }
        } else {
            choices.push(format!("{digit}(?:{pattern})?"));
        }
        pattern = choices.join("|");
    }
    format!("(?:{pattern})")
}

/// `word` in any case.
fn word(word: &str) -> String {
    word.chars().map(any_case).collect()
}

/// A class of the letter's two cases (and the Kelvin sign for `k`); other
/// characters as they are.
fn any_case(c: char) -> String {
    match c {
        'k' => "[kK\\u212a]".to_owned(),
        c if c.is_ascii_lowercase() => format!("[{c}{}]", c.to_ascii_uppercase()),
        c => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::format::is_color;

    fn matcher() -> jsonschema::Validator {
        let schema = serde_json::json!({"anyOf": [
            {"enum": names()},
            {"pattern": names_pattern()},
            {"pattern": hex_pattern()},
            {"pattern": rgb_pattern()},
            {"pattern": hsl_pattern()},
        ]});
        jsonschema::validator_for(&schema).expect("the patterns compile")
    }

    #[test]
    fn the_patterns_agree_with_is_color() {
        let matcher = matcher();
        let mut cases: Vec<String> = [
            "red",
            "RED",
            "Red",
            "blac\u{212a}",
            "transparent",
            "TRANSPARENT",
            " red",
            "red ",
            "rebeccapurple",
            "currentColor",
            "",
            " ",
            "#fff",
            "0XFFF",
            "#ffff",
            "#ffffff",
            "#ffffffff",
            "#f",
            "#fffff",
            "##fff",
            "0x#fff",
            "# fff",
            "\t#abcdef\n",
            "\u{3000}#abc\u{a0}",
            "\u{1c}#abc\u{1f}",
            "\u{200b}#fff",
            "\u{feff}#fff",
            "rgb(0, 0, 0)",
            "RGB(10,20,30)",
            "rgba(10, 20, 30, .5)",
            "rgba(10, 20, 30, 50%)",
            "rgba(10, 20, 30, 100%)",
            "rgba(1,2,3,1.5)",
            "rgba(1,2,3,2)",
            "rgb(0 0 0 / 0.5)",
            "rgb(0 0 0/50%)",
            "rgb(0\t0\n0)",
            "rgb(0,0 0)",
            "rgb(0 0,0)",
            "rgb(0 0 0, 1)",
            "rgb(0, 0, 0 / 1)",
            "rgb(256, 0, 0)",
            "rgb(255.1, 0, 0)",
            "rgb(-1,0,0)",
            "rgb(0255,0,0)",
            "rgb(1.,0,0)",
            "rgb(.5,0,0)",
            " rgb( 1 , 2 , 3 ) ",
            "rgb(1,2)",
            "rgb(100%, 0%, 0%)",
            "hsl(120, 50%, 50%)",
            "hsl(120deg,50%,50%)",
            "HSL(1RAD 0% 0%)",
            "hsl(.5turn 0% 0%)",
            "hsl(-.5TURN, 0%, 0%)",
            "hsl(-1., 0%, 0%)",
            "hsl(1grad,0%,0%)",
            "hsl(361,100%,50%)",
            "hsl(0,100.5%,0%)",
            "hsl(0,101%,0%)",
            "hsl(0,0,0)",
            "hsla(0,0%,0%,0.3)",
            "hsl(0 0% 0% / .3)",
            "hsl(0, 099%, 000%)",
            "rgb(\u{661}\u{662}\u{663}, 0, 0)",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        // The bounds, to the last digit.
        for (prefix, bound, suffix) in [
            (
                "rgb(",
                "255.0000000000000142108547152020037174224853515625",
                ",0,0)",
            ),
            (
                "hsl(0,",
                "100.00000000000000710542735760100185871124267578125",
                "%,0%)",
            ),
            (
                "rgba(0,0,0,",
                "1.00000000099999997171806853657471947371959686279296875",
                ")",
            ),
        ] {
            for value in [
                bound.to_owned(),
                format!("{bound}000"),
                format!("{bound}0001"),
                bound[..bound.len() - 1].to_owned(),
                format!("{}4", &bound[..bound.len() - 1]),
                format!("{}6", &bound[..bound.len() - 1]),
                format!("{}99", &bound[..bound.len() - 2]),
                bound[..bound.len() - 20].to_owned(),
                format!("{}9", &bound[..bound.len() - 20]),
                format!("{}.0", &bound[..bound.find('.').unwrap()]),
                format!("{}.1", &bound[..bound.find('.').unwrap()]),
                format!(
                    "{}.00000000000000000001",
                    &bound[..bound.find('.').unwrap()]
                ),
            ] {
                cases.push(format!("{prefix}{value}{suffix}"));
            }
        }
        let mut wrong = Vec::new();
        for case in &cases {
            let expected = is_color(case);
            if matcher.is_valid(&serde_json::json!(case)) != expected {
                wrong.push(format!("{case:?} should be valid={expected}"));
            }
        }
        // The one known difference.
        let unicode_digits = format!(
            "{:?} should be valid=true",
            "rgb(\u{661}\u{662}\u{663}, 0, 0)"
        );
        assert_eq!(wrong, [unicode_digits]);
    }

    #[test]
    fn fractions_below_a_bound() {
        let check = |bound: &str, inclusive: bool, fraction: &str| {
            let pattern = format!("^{}$", fraction_at_most(bound, inclusive));
            let schema = serde_json::json!({"pattern": pattern});
            jsonschema::validator_for(&schema)
                .unwrap()
                .is_valid(&serde_json::json!(fraction))
        };
        for (fraction, at_most, below) in [
            ("0", true, true),
            ("00000", true, true),
            ("1", true, true),
            ("12", true, true),
            ("1205", true, false),
            ("120500", true, false),
            ("1204999", true, true),
            ("1206", false, false),
            ("13", false, false),
            ("2", false, false),
        ] {
            assert_eq!(check("1205", true, fraction), at_most, "{fraction}");
            assert_eq!(check("1205", false, fraction), below, "{fraction}");
        }
    }
}
