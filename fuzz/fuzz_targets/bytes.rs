//! Arbitrary bytes, validated as every kind and with the kind detected, as
//! one JSON value and as JSON Lines. Validation must never panic.
#![no_main]

use cardkit::validate::{validate, Options};
use cardkit::Kind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for kind in std::iter::once(None).chain(Kind::ALL.iter().copied().map(Some)) {
        for json_lines in [false, true] {
            let options = Options {
                kind,
                json_lines,
                ..Options::default()
            };
            let report = validate(data, &options);
            let _ = report.is_valid();
        }
    }
});
