//! String values with a format: colors and URIs, kept as written.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::table::{Describe, Format, Type};

/// A color string in one of the forms the spec's `color` format accepts
/// (`white`, `#ff000080`, `rgb(0, 0, 0)`, …), kept as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Color(pub String);

impl Color {
    /// `white`, the default color of text.
    #[must_use]
    pub fn white() -> Self {
        Color("white".to_owned())
    }

    /// `black`, the default color of shadows.
    #[must_use]
    pub fn black() -> Self {
        Color("black".to_owned())
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Color {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Describe for Color {
    const TYPE: &'static Type = &Type::String {
        format: Some(Format::Color),
    };
}

/// An RFC 3986 URI with a scheme, kept as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Uri(pub String);

impl fmt::Display for Uri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for Uri {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Describe for Uri {
    const TYPE: &'static Type = &Type::String {
        format: Some(Format::Uri),
    };
}
