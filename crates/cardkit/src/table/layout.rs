//! How documents sit in a file: bare, wrapped, in a catalog, a code map, a
//! list object or an array. The validator tells which (`validate/layout.rs`);
//! reports name it.

use serde::Serialize;

/// How the documents of one JSON value are laid out. (`schema --container`
/// takes the others by these names, kebab-case: bare is the default.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(rename_all = "snake_case")
)]
pub enum Layout {
    /// The value is one document.
    #[cfg_attr(feature = "clap", value(skip))]
    Bare,
    /// `{"meta": {...}, "data": <document>}`.
    Wrapped,
    /// `{"meta": {...}, "data": {"<CODE>": <Set>, ...}}` (`meta` optional).
    Catalog,
    /// `{"<CODE>": <Set>, ...}` without a wrapper.
    CodeMap,
    /// `{"object": "list", "data": [<document>, ...]}`.
    List,
    /// `[<document>, ...]`.
    Array,
}

impl Layout {
    /// A short name for reports: `bare`, `wrapped`, `catalog`, `code_map`,
    /// `list`, `array`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Bare => "bare",
            Layout::Wrapped => "wrapped",
            Layout::Catalog => "catalog",
            Layout::CodeMap => "code_map",
            Layout::List => "list",
            Layout::Array => "array",
        }
    }
}

impl Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}
