//! The integration tests of the `cardkit` command, in one test binary (one
//! link instead of one per file): each file of this folder is a module, a
//! test's name is its module's then its own (`usage::help_explains_…`).
//!
//! A module that runs a command left out of a build without the default
//! features (`cargo test --no-default-features`) is built only with the
//! features it needs. `left_out` tests the validate-only build: the one
//! `CARDKIT_VALIDATE_ONLY` names, or this binary's own when it is one.

/// `insta::assert_snapshot!(NAME, VALUE)` under the name the snapshot had
/// when each file here was a test binary of its own: `tests/snapshots/`,
/// `MODULE__NAME.snap`. (insta would name it after the module path,
/// `cli__MODULE__NAME`, in a folder beside this one.)
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

/// Templates of the corpus in the spec's shape, as the design crate's tests
/// make them (for `assets`, `expand`, `layers` and `symbols`).
#[cfg(feature = "design")]
#[path = "../../crates/cardkit-design/tests/support/layered.rs"]
mod layered;

mod action;
#[cfg(feature = "export")]
mod as_of_auto;
#[cfg(feature = "design")]
mod assets;
mod ci_formats;
mod code_scanning;
#[cfg(feature = "diff")]
mod compressed;
#[cfg(all(feature = "diff", feature = "serve"))]
mod config;
#[cfg(feature = "render")]
mod design_depth;
mod design_tool_files;
#[cfg(feature = "diff")]
mod diff_migrate;
mod discovery;
#[cfg(feature = "diff")]
mod doors;
mod dummy;
#[cfg(feature = "design")]
mod expand;
#[cfg(feature = "export")]
mod export;
#[cfg(feature = "export")]
mod first_command;
mod flags;
mod folding;
#[cfg(feature = "diff")]
mod generate;
mod hostile;
mod hostile_inputs;
#[cfg(feature = "design")]
mod import;
mod inputs;
#[cfg(feature = "design")]
mod layers;
mod left_out;
mod output;
#[cfg(all(feature = "design", feature = "render"))]
mod outputs;
mod pre_commit;
#[cfg(feature = "serve")]
mod quick_start;
mod references;
#[cfg(feature = "render")]
mod render;
mod render_fonts;
mod schema_cli;
mod schema_clients;
#[cfg(feature = "serve")]
mod serve;
mod snapshots;

#[cfg(feature = "design")]
mod symbols;
#[cfg(feature = "diff")]
mod upstream_names;
mod usage;
