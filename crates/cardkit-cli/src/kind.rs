//! The KIND argument of the commands that describe a document kind.

use cardkit::Kind;
use clap::builder::{PossibleValuesParser, TypedValueParser};

/// Parses `template`, `card`, `set` or `migration`; `--help` lists them.
pub fn parser() -> impl TypedValueParser<Value = Kind> {
    PossibleValuesParser::new(Kind::ALL.iter().map(|kind| kind.as_str()))
        .map(|name| name.parse::<Kind>().expect("a listed kind"))
}
