//! The color format's tests, against the reference implementation's verdicts.

use super::{decimal_value, is_color, COLOR_NAMES};

#[test]
fn the_name_table_is_sorted_and_complete() {
    assert!(COLOR_NAMES.windows(2).all(|pair| pair[0] < pair[1]));
    assert!(COLOR_NAMES.iter().all(|name| is_color(name)));
}

#[test]
fn names_any_case_but_no_surrounding_whitespace() {
    assert!(is_color("red"));
    assert!(is_color("RED"));
    assert!(is_color("LightGoldenRodYellow"));
    assert!(is_color("grey"));
    assert!(is_color("gray"));
    assert!(is_color("transparent"));
    assert!(is_color("TRANSPARENT"));
    assert!(!is_color(" red"));
    assert!(!is_color("red "));
    assert!(!is_color(" transparent"));
    assert!(!is_color("rebeccapurple"));
    assert!(!is_color("currentcolor"));
    assert!(!is_color("currentColor"));
    assert!(!is_color("none"));
    assert!(!is_color(""));
    assert!(!is_color(" "));
    // Python's str.lower() turns the Kelvin sign into an ASCII "k".
    assert!(is_color("blac\u{212a}"));
}

#[test]
fn hex_of_three_four_six_or_eight_digits() {
    for valid in [
        "fff",
        "#fff",
        "0xfff",
        "#FFF",
        "0XFFF",
        "#ffff",
        "#ffffff",
        "#ffffffff",
        "0x00000000",
        "abc",
        "0abc",
        " #fff ",
        "\t#abcdef\n",
        "\u{3000}#abc\u{a0}",
        "\u{1c}#abc\u{1f}",
    ] {
        assert!(is_color(valid), "{valid:?}");
    }
    for invalid in [
        "#",
        "#f",
        "#ff",
        "#fffff",
        "#fffffff",
        "#fffffffff",
        "#ggg",
        "##fff",
        "#0xfff",
        "0x#fff",
        "# fff",
        "#f ff",
        "0 xfff",
        "#\u{ff10}\u{ff10}\u{ff10}",
        "\u{200b}#fff",
    ] {
        assert!(!is_color(invalid), "{invalid:?}");
    }
}

#[test]
fn rgb_forms() {
    for valid in [
        "rgb(0, 0, 0)",
        "rgb(255,255,255)",
        "RGB(10, 20, 30)",
        "rgba(10, 20, 30)",
        "rgb(10, 20, 30, 0.5)",
        "rgba(10, 20, 30, .5)",
        "rgba(10, 20, 30, 50%)",
        "rgba(10, 20, 30, 0%)",
        "rgba(10, 20, 30, 1)",
        "rgba(10, 20, 30, 1.0000000001)",
        "rgb(255.0, 0.5, 000)",
        "rgb(255.00000000000001, 0, 0)",
        "\u{2003}rgb(0,0,0)\u{2003}",
        " rgb( 1 , 2 , 3 ) ",
        "rgb(0 0 0)",
        "rgba(0 0 0)",
        "rgb(0 0 0 / 0.5)",
        "rgb(0 0 0/50%)",
        "rgb(0\t0\n0)",
        "rgb(\u{661}\u{662}\u{663}, 0, 0)",
    ] {
        assert!(is_color(valid), "{valid:?}");
    }
    for invalid in [
        "rgb(256, 0, 0)",
        "rgb(255.1, 0, 0)",
        "rgb(1000, 0, 0)",
        "rgb(-1, 0, 0)",
        "rgb(10%, 20%, 30%)",
        "rgb(0, 0)",
        "rgb(0, 0, 0, 0, 0)",
        "rgb(0, 0, 0,)",
        "rgb(0,, 0, 0)",
        "rgb(0, 0, 0",
        "rgb 0, 0, 0)",
        "rgb (0, 0, 0)",
        "rgb(1., 0, 0)",
        "rgb(.5, 0, 0)",
        "rgba(0, 0, 0, 1.1)",
        "rgba(0, 0, 0, 1.00000001)",
        "rgba(0, 0, 0, 2)",
        "rgba(0, 0, 0, 10)",
        "rgba(0, 0, 0, 100%)",
        "rgba(0, 0, 0, 0.5%)",
        "rgba(0, 0, 0, -0.5)",
        "rgb(0 0 0 0.5)",
        "rgb(0 0 0, 0.5)",
        "rgb(0, 0, 0 / 0.5)",
        "rgb(0 0, 0)",
        "rgb(0 0 0 /)",
        "rgb(\u{669}\u{669}\u{669}, 0, 0)",
        "rgb(0,\u{200b}0, 0)",
    ] {
        assert!(!is_color(invalid), "{invalid:?}");
    }
}

#[test]
fn hsl_forms() {
    for valid in [
        "hsl(270, 60%, 50%)",
        "hsla(270, 60%, 50%, 0.5)",
        "hsla(270, 60%, 50%, 50%)",
        "hsl(270deg, 60%, 50%)",
        "hsl(1.5rad, 60%, 50%)",
        "hsl(0.25turn, 60%, 50%)",
        "hsl(-90, 0%, 100%)",
        "hsl(-.5turn, 0%, 100%)",
        "hsl(99999999999, 100.0%, 0.0%)",
        "hsl(270 60% 50%)",
        "hsl(270 60% 50% / 0.5)",
        "hsla(270 60% 50% / 50%)",
        " HSL( 270 , 60% , 50% ) ",
    ] {
        assert!(is_color(valid), "{valid:?}");
    }
    let huge_hue = format!("hsl({}, 50%, 50%)", "9".repeat(400));
    assert!(is_color(&huge_hue));
    for invalid in [
        "hsl(270, 101%, 50%)",
        "hsl(270, 60%, 100.5%)",
        "hsl(270, 60, 50%)",
        "hsl(270, 60%, 50)",
        "hsl(270grad, 60%, 50%)",
        "hsl(270 deg, 60%, 50%)",
        "hsl(+270, 60%, 50%)",
        "hsl(270., 60%, 50%)",
        "hsl(270, 1000%, 50%)",
        "hsla(270, 60%, 50%, 1.5)",
        "hsl(270 60% 50% 0.5)",
        "hsl(270, 60%, 50% / 0.5)",
    ] {
        assert!(!is_color(invalid), "{invalid:?}");
    }
}

#[test]
fn decimal_values_of_unicode_digits() {
    assert_eq!(decimal_value('0'), Some(0));
    assert_eq!(decimal_value('9'), Some(9));
    assert_eq!(decimal_value('/'), None);
    assert_eq!(decimal_value(':'), None);
    assert_eq!(decimal_value('\u{663}'), Some(3));
    assert_eq!(decimal_value('\u{ff19}'), Some(9));
    assert_eq!(decimal_value('\u{1d7ff}'), Some(9));
    assert_eq!(decimal_value('\u{1d7ce}'), Some(0));
    assert_eq!(decimal_value('\u{b2}'), None);
    assert_eq!(decimal_value('\u{2160}'), None);
}
