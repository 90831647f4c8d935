//! What a render says: the lines of its report ([`Report`]), and why a card
//! could not be rendered at all ([`RenderError`]).

use std::fmt;

/// A line of a render's report: something that was not drawn as the design
/// says (a missing asset, a substituted font, text that does not fit), and
/// where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Where: the JSON Pointer of the layer in the card (`/data/children/2`)
    /// or of the template's member, with the layer's name when it has one.
    pub at: String,
    /// What happened.
    pub message: String,
}

impl Report {
    pub(crate) fn new(at: impl Into<String>, message: impl Into<String>) -> Report {
        Report {
            at: at.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// Why a card could not be rendered at all.
#[derive(Debug)]
#[non_exhaustive]
pub enum RenderError {
    /// The card breaks a [`Limits`](crate::Limits) limit or has an unusable size.
    Limit(String),
    /// An option is out of range.
    Option(String),
    /// The SVG drawn could not be parsed back (a bug, or an asset usvg
    /// refuses late).
    Svg(String),
    /// The PNG could not be made.
    Png(String),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Limit(why) => write!(f, "the card is beyond a limit: {why}"),
            RenderError::Option(why) => write!(f, "invalid option: {why}"),
            RenderError::Svg(why) => write!(f, "the drawing could not be built: {why}"),
            RenderError::Png(why) => write!(f, "the PNG could not be made: {why}"),
        }
    }
}

impl std::error::Error for RenderError {}
