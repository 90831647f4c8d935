//! The integration tests of the `cardkit` command, in one test binary (one
//! link instead of one per file): each file of this folder is a module, a
//! test's name is its module's then its own (`usage::help_explains_…`).

/// `insta::assert_snapshot!(NAME, VALUE)` under the name the snapshot had
/// when each file here was a test binary of its own: `tests/snapshots/`,
/// `MODULE__NAME.snap`. (insta would name it after the module path,
/// `cli__MODULE__NAME`, in a folder beside this one.)
macro_rules! assert_snapshot {
    ($name:expr, $value:expr $(,)?) => {
        insta::with_settings!(
            { snapshot_path => "../snapshots", prepend_module_to_snapshot => false },
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
#[path = "../../crates/cardkit-design/tests/support/layered.rs"]
mod layered;

mod action;
mod as_of_auto;
mod assets;
mod ci_formats;
mod code_scanning;
mod compressed;
mod config;
mod diff_migrate;
mod discovery;
mod doors;
mod dummy;
mod expand;
mod export;
mod first_command;
mod flags;
mod folding;
mod generate;
mod hostile;
mod import;
mod inputs;
mod layers;
mod output;
mod pre_commit;
mod quick_start;
mod render;
mod schema_cli;
mod schema_clients;
mod serve;
mod snapshots;
mod symbols;
mod upstream_names;
mod usage;
