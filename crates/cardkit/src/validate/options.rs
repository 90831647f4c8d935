//! How to validate: the options every front end maps its own flags,
//! parameters or settings to.

use crate::model::Kind;
use crate::schema::{ModelDef, Version};
use crate::table::Names;

use super::filter::Filter;

/// How to validate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The kind of every document; `None` detects it from the content.
    pub kind: Option<Kind>,
    /// Report unknown fields as errors rather than warnings.
    pub deny_unknown_fields: bool,
    /// The input is JSON Lines: one document (or container) per line.
    pub json_lines: bool,
    /// Validate as consumers of this version of the format see a document:
    /// fields introduced after it are `newer_field`, and not required.
    pub as_of: Option<Version>,
    /// With `as_of`, fields newer than that version are errors, not warnings.
    pub strict_version: bool,
    /// Report deprecated fields that are present (`deprecated_field`).
    pub warn_deprecated: bool,
    /// What a configuration leaves out: diagnostics ignored, members
    /// allowed. `None` costs the validator one branch per diagnostic.
    pub filter: Option<&'static Filter>,
    /// The wire names documents use: each document's own (by default), the
    /// spec's, or the publishers'.
    pub names: Names,
    /// How many warnings of each code and `Model.field` the report that
    /// reads the result shows (a run's `--warning-limit`): past that many in
    /// a document, a warning that has a field is only counted, in
    /// [`crate::DocumentReport::folded`], and neither built nor located.
    /// `None` (the default) builds every one.
    pub warnings_shown: Option<usize>,
}

impl Options {
    /// The options of [`Options::default`], as a constant.
    pub const DEFAULT: Options = Options {
        kind: None,
        deny_unknown_fields: false,
        json_lines: false,
        as_of: None,
        strict_version: false,
        warn_deprecated: false,
        filter: None,
        names: Names::Auto,
        warnings_shown: None,
    };
}

/// Reads the version for [`Options::as_of`]: `vX.Y.Z` (or `X.Y.Z`), no older
/// than the first version tag of the format.
///
/// # Errors
/// A message saying what is wrong with `text`, for a usage error.
pub fn as_of_version(text: &str) -> Result<Version, String> {
    let version: Version = text.parse().map_err(|e| format!("{e}"))?;
    let roots: Vec<&'static ModelDef> = Kind::ALL.iter().map(|k| k.model()).collect();
    let tags = crate::schema::versions(&roots);
    match tags.first() {
        Some(&first) if version < first => Err(format!(
            "{version} is older than the first version of the format ({first}); known versions are {}",
            tags.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        )),
        _ => Ok(version),
    }
}
