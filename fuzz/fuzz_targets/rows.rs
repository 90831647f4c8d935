//! Well-formed JSON from the generator, validated as a set and as a
//! migration with the tape recorded, and each document's rows made along
//! its tape, for a target that stores anything and for one that cannot
//! store U+0000. Neither may panic, whatever the document and its errors.
#![no_main]

use cardkit::validate::{Found, Options, Validator};
use cardkit::Kind;
use cardkit_export::rows::{rows, Rows, Unstorable};
use cardkit_fuzz::Json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|json: Json| {
    let bytes = json.text.as_bytes();
    for kind in [Kind::Set, Kind::Migration] {
        let options = Options {
            kind: Some(kind),
            ..Options::default()
        };
        let migration = kind == Kind::Migration;
        let _ = Validator::new(options)
            .extracting(|found: Found<'_>| {
                for unstorable in [Unstorable::default(), Unstorable { nul: true }] {
                    let _ = rows(found.bytes, found.tape, migration, unstorable, Rows::new());
                }
            })
            .with_tape()
            .reader(bytes, |_| {});
    }
});
