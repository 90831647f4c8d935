//! A configuration's filter in the validator: the same diagnostics left out,
//! and counted, on one thread and on several, in a catalog large enough to
//! be split into batches; nothing changes without one.

use cardkit::validate::{Filter, Options, Validator};
use cardkit::DocumentReport;

/// A catalog of `sets` sets, each card with an unknown member `x`, a
/// `Legalities.alchemy` and a wrong `hasFoil`; well over one batch (1 MiB).
fn catalog(sets: usize) -> Vec<u8> {
    let card = r#"{"uuid": "00000000-0000-5000-8000-000000000000", "name": "C", "number": "1", "x": 1, "hasFoil": "no", "legalities": {"alchemy": "Legal"}}"#;
    let cards = vec![card; 40].join(",");
    let body: Vec<String> = (0..sets)
        .map(|i| format!(r#""S{i}": {{"code": "S{i}", "name": "Set", "cards": [{cards}]}}"#))
        .collect();
    format!(r#"{{"meta": {{}}, "data": {{{}}}}}"#, body.join(",")).into_bytes()
}

fn reports(input: &[u8], options: Options, jobs: usize) -> Vec<DocumentReport> {
    let mut all = Vec::new();
    Validator::new(options)
        .jobs(jobs)
        .reader(input, |report| all.push(report))
        .expect("read");
    all
}

fn filter(ignore: &[&str], allow: &[&str]) -> &'static Filter {
    let mut filter = Filter::new("cardkit.toml");
    for entry in ignore {
        filter.ignore(entry).expect("an entry");
    }
    for entry in allow {
        filter.allow(entry).expect("an entry");
    }
    filter.into_static()
}

#[test]
fn the_same_diagnostics_are_ignored_on_one_thread_and_on_several() {
    let input = catalog(300);
    assert!(input.len() > 1 << 20, "more than one batch");
    let plain = reports(&input, Options::default(), 1);
    let count = |reports: &[DocumentReport], code: &str| {
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.code.as_str() == code)
            .count()
    };
    assert_eq!(count(&plain, "unknown_field"), 300 * 40 * 2);
    assert_eq!(count(&plain, "wrong_type"), 300 * 40);

    let options = Options {
        filter: Some(filter(
            &["/cards/*/x", "CardSet.hasFoil"],
            &["Legalities.alchemy"],
        )),
        ..Options::default()
    };
    let one = reports(&input, options, 1);
    let two = reports(&input, options, 2);
    assert_eq!(one, two);
    // The sets lack required fields: those are still reported, and only
    // those.
    let left = |reports: &[DocumentReport]| -> Vec<_> {
        reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| !matches!(d.code.as_str(), "unknown_field" | "wrong_type"))
            .cloned()
            .collect()
    };
    assert_eq!(left(&one), left(&plain));
    assert_eq!(count(&one, "unknown_field") + count(&one, "wrong_type"), 0);
    let ignored: usize = one.iter().map(|r| r.ignored).sum();
    // `x` and `hasFoil` of every card; the allowed member is no diagnostic.
    assert_eq!(ignored, 300 * 40 * 2);

    // By code, past the bounds a document keeps too.
    let options = Options {
        filter: Some(filter(&["unknown_field", "wrong_type"], &[])),
        ..Options::default()
    };
    let by_code = reports(&input, options, 2);
    assert_eq!(left(&by_code), left(&plain));
    assert!(by_code.iter().all(|r| r.omitted.is_empty()));
    assert_eq!(
        by_code.iter().map(|r| r.ignored).sum::<usize>(),
        300 * 40 * 3
    );
}

#[test]
fn a_filter_that_matches_nothing_changes_nothing() {
    let input = catalog(30);
    let plain = reports(&input, Options::default(), 2);
    let options = Options {
        filter: Some(filter(&["/nothing/**", "Set.nothing"], &[])),
        ..Options::default()
    };
    assert_eq!(reports(&input, options, 2), plain);
}

#[test]
fn invalid_json_is_never_ignored_by_code_or_by_place() {
    let mut refused = Filter::new("cardkit.toml");
    let why = refused.ignore("invalid_json").unwrap_err();
    assert!(why.starts_with("`invalid_json` cannot be ignored"), "{why}");
    let options = Options {
        filter: Some(filter(&["/**", "unknown_kind"], &[])),
        ..Options::default()
    };
    for input in [&b"not json"[..], b"", b"{\"a\": ", b"[1, 2"] {
        let report = cardkit::validate::validate(input, &options);
        let codes: Vec<&str> = report
            .documents
            .iter()
            .flat_map(|r| &r.diagnostics)
            .map(|d| d.code.as_str())
            .collect();
        assert!(codes.contains(&"invalid_json"), "{input:?}: {codes:?}");
        assert!(!report.is_valid(), "{input:?}");
    }
}
