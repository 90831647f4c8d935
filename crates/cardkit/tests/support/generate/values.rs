//! The values of a valid document's leaves: strings, integers and numbers
//! in every allowed spelling, small free objects, and valid samples of every
//! format (uuid, date, uri, color).

use cardkit::schema::Format;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};

use super::{free, member, J};

pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "[a-zA-Z0-9 _.-]{0,10}",
        2 => prop::collection::vec(any::<char>(), 0..6).prop_map(|c| c.into_iter().collect()),
        1 => prop::sample::select(vec![
            "", "\"", "\\", "/", "~1", "é", "日本", "😀", "\u{2028}", "\u{0}", "\u{7f}",
            "\u{feff}", "a\nb", "\r\t",
        ])
        .prop_map(str::to_owned),
    ]
    .boxed()
}

/// A small free object (unique keys).
pub fn free_object() -> impl Strategy<Value = J> {
    prop::collection::btree_map(text(), free_value(), 0..3).prop_map(|map| {
        J::Obj(
            map.into_iter()
                .map(|(key, json)| member(&key, free(json)))
                .collect(),
        )
    })
}

pub fn free_value() -> BoxedStrategy<J> {
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        number().prop_map(J::Num),
        text().prop_map(J::Str),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone().prop_map(free), 0..3).prop_map(J::Arr),
            prop::collection::btree_map(text(), inner, 0..3).prop_map(|map| J::Obj(
                map.into_iter()
                    .map(|(key, json)| member(&key, free(json)))
                    .collect()
            )),
        ]
    })
    .boxed()
}

/// An integer in one of the spellings the spec allows.
pub fn integer(wide: bool) -> BoxedStrategy<String> {
    let mut choices = vec![
        (4, (-1000i64..1000).prop_map(|n| n.to_string()).boxed()),
        (2, any::<i64>().prop_map(|n| n.to_string()).boxed()),
        (
            3,
            (-100_000i64..100_000, 0u8..6)
                .prop_map(|(n, form)| integer_form(n, form))
                .boxed(),
        ),
        (
            1,
            prop::sample::select(vec![i64::MIN, i64::MAX, 0, -1])
                .prop_map(|n| n.to_string())
                .boxed(),
        ),
    ];
    if wide {
        let beyond = (i64::MAX as u64 + 1)..=u64::MAX;
        choices.push((3, beyond.prop_map(|n| n.to_string()).boxed()));
    }
    Union::new_weighted(choices).boxed()
}

/// `n` written with a fraction or an exponent: `5.0`, `5e0`, `50E-1`, ….
pub fn integer_form(n: i64, form: u8) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let digits = n.unsigned_abs().to_string();
    match form {
        0 => format!("{n}.0"),
        1 => format!("{n}e0"),
        2 => format!("{n}.000E+0"),
        3 if n == 0 => "0.0e-1".to_owned(),
        3 => format!("{n}0E-1"),
        4 => {
            let (first, rest) = digits.split_at(1);
            let dot = if rest.is_empty() {
                String::new()
            } else {
                format!(".{rest}")
            };
            format!("{sign}{first}{dot}e{}", rest.len())
        }
        _ if n == 0 => "-0".to_owned(),
        _ => n.to_string(),
    }
}

pub fn number() -> BoxedStrategy<String> {
    let finite = prop::num::f64::POSITIVE
        | prop::num::f64::NEGATIVE
        | prop::num::f64::NORMAL
        | prop::num::f64::SUBNORMAL
        | prop::num::f64::ZERO;
    prop_oneof![
        2 => (-1000i64..1000).prop_map(|n| n.to_string()),
        2 => (-100_000i64..100_000, 1u32..4).prop_map(|(n, scale)| {
            let sign = if n < 0 { "-" } else { "" };
            let m = n.unsigned_abs();
            let p = 10u64.pow(scale);
            format!("{sign}{}.{:0width$}", m / p, m % p, width = scale as usize)
        }),
        2 => finite.prop_map(|f| format!("{f:e}")),
        1 => finite.prop_map(|f| format!("{f}")),
        1 => any::<u64>().prop_map(|n| n.to_string()),
    ]
    .boxed()
}

pub fn formatted(format: Format) -> BoxedStrategy<String> {
    match format {
        Format::Uuid => uuid().boxed(),
        Format::Date => date().boxed(),
        Format::Uri => uri().boxed(),
        Format::Color => color().boxed(),
    }
}

/// Letters of `s` upper-cased where the bits of `mask` say so.
pub fn with_case(s: &str, mask: u64) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            if mask >> (i % 64) & 1 == 1 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

pub fn uuid() -> impl Strategy<Value = String> {
    prop_oneof![
        9 => (any::<u128>(), any::<u64>()).prop_map(|(bits, case)| {
            let hex = with_case(&format!("{bits:032x}"), case);
            format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
        }),
        1 => Just("00000000-0000-0000-0000-000000000000".to_owned()),
    ]
}

pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

pub fn date() -> impl Strategy<Value = String> {
    let year = prop_oneof![1i32..=9999, 1900i32..2100, Just(1), Just(9999), Just(2000)];
    (year, 1u32..=12, 1u32..=31).prop_map(|(y, m, d)| {
        let d = d.min(days_in_month(y, m));
        format!("{y:04}-{m:02}-{d:02}")
    })
}

pub fn uri() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "https://x.example/",
            "http://x.example:8080/a/",
            "https://user@x.example/",
            "ftp://[::1]/",
            "file:///",
            "urn:example:",
            "mailto:someone@x.example?to=",
            "HTTPS://X.EXAMPLE/",
        ]),
        "[a-zA-Z0-9._~!$&'()*+,;=:@-]{0,10}",
        prop::option::of("[a-z0-9=&/?]{0,6}"),
        prop::option::of("[a-z0-9/?]{0,6}"),
    )
        .prop_map(|(prefix, path, query, fragment)| {
            let mut uri = format!("{prefix}{path}");
            if let Some(q) = query {
                uri.push('?');
                uri.push_str(&q);
            }
            if let Some(f) = fragment {
                uri.push('#');
                uri.push_str(&f);
            }
            uri
        })
}

/// Valid colors, in the forms `shared/spec/colors.jsonl` marks valid.
pub fn color() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "white",
        "black",
        "red",
        "transparent",
        "skyblue",
        "gold",
        "navy",
        "lightgoldenrodyellow",
        "darkslategrey",
        "grey",
    ]);
    let hex = (
        prop::sample::select(vec!["#", "0x", ""]),
        prop::sample::select(vec![3usize, 4, 6, 8]),
        any::<u32>(),
        any::<u64>(),
        // Python's `\s` around hex colors: any Unicode white space.
        prop::sample::select(vec!["", "", " ", "\t", "\u{a0}", "\u{3000}"]),
    )
        .prop_map(|(prefix, len, bits, case, space)| {
            let digits = format!("{bits:08x}");
            format!("{space}{prefix}{}{space}", with_case(&digits[..len], case))
        });
    let rgb = (
        prop::sample::select(vec!["rgb", "rgba", "RGB"]),
        [0u32..=255, 0u32..=255, 0u32..=255],
        prop::sample::select(vec!["", ", 0", ", 1", ", 0.5", ",.3", ", 50%"]),
        prop::sample::select(vec![", ", ",", " , "]),
    )
        .prop_map(|(name, [r, g, b], alpha, comma)| {
            format!("{name}({r}{comma}{g}{comma}{b}{alpha})")
        });
    let hsl = (
        prop::sample::select(vec!["hsl", "hsla"]),
        0u32..=360,
        prop::sample::select(vec!["", "deg"]),
        0u32..=100,
        0u32..=100,
        prop::sample::select(vec!["", ", 0.5", ", 1"]),
    )
        .prop_map(|(name, h, unit, s, l, alpha)| format!("{name}({h}{unit}, {s}%, {l}%{alpha})"));
    prop_oneof![
        2 => (names, any::<u64>()).prop_map(|(n, case)| with_case(n, case)),
        3 => hex,
        2 => rgb,
        1 => hsl,
    ]
}
