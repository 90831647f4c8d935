//! Deep nesting is safe: 512 levels of layer groups validate, deeper input is
//! reported as `too_deep`, and nothing overflows the stack of an ordinary
//! thread (test threads have 2 MiB).

use cardkit::validate::{validate, Options, MAX_DEPTH};
use cardkit::Code;
use cardkit::Kind;

fn card_with_nested_groups(levels: usize) -> String {
    format!(
        r#"{{"name":"deep","width":1,"height":1,"data":{}{}}}"#,
        r#"{"type":"group","children":["#.repeat(levels),
        "]}".repeat(levels)
    )
}

fn codes(input: &str, kind: Kind) -> Vec<Code> {
    let options = Options {
        kind: Some(kind),
        ..Options::default()
    };
    let report = validate(input.as_bytes(), &options);
    report
        .documents
        .iter()
        .flat_map(|d| d.diagnostics.iter().map(|d| d.code))
        .collect()
}

#[test]
fn five_hundred_and_twelve_levels_of_groups_are_valid() {
    assert_eq!(codes(&card_with_nested_groups(512), Kind::Card), []);
}

#[test]
fn groups_nested_past_the_limit_are_too_deep_not_a_crash() {
    let levels = MAX_DEPTH; // two JSON levels per group: well past the limit
    assert_eq!(
        codes(&card_with_nested_groups(levels), Kind::Card),
        [Code::TooDeep]
    );
}

#[test]
fn deep_free_form_values_are_too_deep() {
    let license = format!("{}1{}", r#"{"a":"#.repeat(5_000), "}".repeat(5_000));
    let template = format!(
        r#"{{"name":"x","context":{{"license":{license}}},"card":{{"name":"c","width":1,"height":1}}}}"#
    );
    assert_eq!(codes(&template, Kind::Template), [Code::TooDeep]);
}

#[test]
fn unbalanced_deep_input_is_malformed_not_a_crash() {
    let input = "[".repeat(100_000);
    let found = codes(&input, Kind::Set);
    assert!(found.contains(&Code::TooDeep), "{found:?}");
    assert_eq!(found.last(), Some(&Code::InvalidJson), "{found:?}");
}

#[test]
fn a_thread_with_a_small_stack_validates_to_the_limit() {
    // The walker grows its stack on the heap when it runs low.
    let small = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            (
                codes(&card_with_nested_groups(512), Kind::Card),
                codes(&card_with_nested_groups(MAX_DEPTH), Kind::Card),
            )
        })
        .expect("spawn");
    let (valid, deep) = small.join().expect("no stack overflow");
    assert_eq!(valid, []);
    assert_eq!(deep, [Code::TooDeep]);
}
