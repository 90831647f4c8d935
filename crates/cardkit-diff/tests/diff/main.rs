//! The integration tests of `cardkit-diff`, in one test binary (one link
//! instead of one per file): each file of this folder is a module, a test's
//! name is its module's then its own.

/// `insta::assert_snapshot!(NAME, VALUE)` under the name the snapshot had
/// when each file here was a test binary of its own: `tests/snapshots/`,
/// `MODULE__NAME.snap`. (insta would name it after the module path,
/// `diff__MODULE__NAME`, in a folder beside this one.)
macro_rules! assert_snapshot {
    ($name:expr, $value:expr $(,)?) => {
        insta::with_settings!(
            {
                // From the package, not from the file asserting: a test
                // module may sit in a folder of its own.
                snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"),
                prepend_module_to_snapshot => false,
            },
            {
                insta::assert_snapshot!(
                    format!("{}__{}", crate::snapshot_module(module_path!()), $name),
                    $value
                )
            }
        )
    };
}

/// The module a snapshot is asserted in, as the test binary it was: its
/// path without this crate's name.
fn snapshot_module(path: &str) -> String {
    path.split_once("::")
        .map_or(path, |(_, module)| module)
        .replace("::", "__")
}

#[path = "../support/mod.rs"]
mod support;

mod apply;
mod diff;
mod duplicates;
mod references;
