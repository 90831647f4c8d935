//! How to import ([`ImportOptions`]): the format to read the input as
//! ([`From`]), the output's asset root, and a group's filters.

/// Which format to read the input as.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum From {
    /// Told from the content.
    #[default]
    Auto,
    /// The layered format of templates and card designs (or the spec's).
    Layered,
    /// The classic save file.
    Classic,
}

/// How to import.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// The input's format, or `Auto`.
    pub from: From,
    /// The output's `asset_root_url`, replacing the input's.
    pub asset_root: Option<String>,
    /// Copy a group's `filters` (which the spec's Group lacks) onto the
    /// layers under it, rather than leaving them out.
    pub push_filters: bool,
}
