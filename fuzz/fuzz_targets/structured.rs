//! Well-formed JSON built from the spec's field names and arbitrary strings,
//! deep nesting, long strings and keys, numbers of any length and exponent,
//! duplicate keys and an optional byte order mark, validated as every kind
//! and with the kind detected. Validation must never panic, and never call
//! a well-formed input malformed, except for nesting beyond `MAX_DEPTH`.
#![no_main]

use cardkit::validate::{validate, Options, MAX_DEPTH};
use cardkit::Code;
use cardkit::Kind;
use cardkit_fuzz::{max_nesting, Json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|json: Json| {
    let bytes = json.text.as_bytes();
    for kind in std::iter::once(None).chain(Kind::ALL.iter().copied().map(Some)) {
        let options = Options {
            kind,
            ..Options::default()
        };
        let report = validate(bytes, &options);
        let _ = report.is_valid();
        // Generated text is well-formed; numbers beyond binary64 range
        // (huge exponents) are invalid_json by cardkit's rule, as they are
        // for serde_json, and nesting past the limit may stop reading.
        if !json.wide_numbers && max_nesting(bytes) < MAX_DEPTH {
            let malformed = report
                .documents
                .iter()
                .flat_map(|d| &d.diagnostics)
                .find(|d| d.code == Code::InvalidJson);
            assert!(
                malformed.is_none(),
                "well-formed input reported invalid_json ({kind:?}): {malformed:?}"
            );
        }
    }
});
