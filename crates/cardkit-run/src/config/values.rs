//! What the configuration's reader needs of TOML: a file's kind, strings,
//! integers and values in words.

use std::ops::Range;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Whether a `pyproject.toml`'s text has a `[tool.cardkit]` table (or is not
/// TOML, which reading it will report).
pub(super) fn has_tool_cardkit(text: &str) -> bool {
    let Ok(root) = DeTable::parse(text) else {
        return true;
    };
    root.get_ref()
        .get("tool")
        .and_then(|tool| tool.get_ref().as_table()?.get("cardkit"))
        .is_some()
}

/// The strings of an array, with their spans.
pub(super) fn strings(value: &Spanned<DeValue<'_>>) -> Option<Vec<(String, Range<usize>)>> {
    value
        .get_ref()
        .as_array()?
        .iter()
        .map(|item| Some((item.get_ref().as_str()?.to_owned(), item.span())))
        .collect()
}

pub(super) fn integer(value: &DeValue<'_>) -> Option<i128> {
    let n = value.as_integer()?;
    i128::from_str_radix(&n.as_str().replace('_', ""), n.radix()).ok()
}

/// What a value is, in words.
pub(super) fn found(value: &DeValue<'_>) -> String {
    match value {
        DeValue::String(text) => format!("string {text:?}"),
        DeValue::Integer(n) => format!("integer {}", n.as_str()),
        DeValue::Float(x) => format!("float {}", x.as_str()),
        DeValue::Boolean(b) => format!("boolean {b}"),
        DeValue::Datetime(d) => format!("date-time {d}"),
        DeValue::Array(_) => "an array".to_owned(),
        DeValue::Table(_) => "a table".to_owned(),
    }
}
