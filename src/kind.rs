//! The KIND arguments: a document kind, or `auto` where the kind may be told
//! from each document.

use cardkit::Kind;
use clap::builder::{PossibleValuesParser, TypedValueParser};

/// What `--kind` takes to mean "tell each document's kind".
const AUTO: &str = "auto";

/// Parses `template`, `card`, `set` or `migration`; `--help` lists them.
pub fn parser() -> impl TypedValueParser<Value = Kind> {
    PossibleValuesParser::new(names()).map(|name| name.parse::<Kind>().expect("a listed kind"))
}

/// Parses `auto` (`None`: each document's kind is told from its members) or
/// a kind's name; `--help` lists them.
pub fn or_auto_parser() -> impl TypedValueParser<Value = Option<Kind>> {
    // Of the names listed, `auto` is the one that names no kind.
    PossibleValuesParser::new(std::iter::once(AUTO).chain(names()))
        .map(|name| name.parse::<Kind>().ok())
}

/// Every kind's name, in the library's order.
fn names() -> impl Iterator<Item = &'static str> {
    Kind::ALL.iter().map(|kind| kind.as_str())
}
