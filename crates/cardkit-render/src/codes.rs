//! The text codes of a text layer (`{line}`, `{year}`, symbols such as
//! `{U}`) and the symbols a template's symbol sets define.

use std::collections::BTreeMap;

use cardkit::model::{SymbolName, Template};

/// One symbol a text code stands for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Symbol {
    /// Where its image is: the set's `srcPrefix` and the symbol's `src`.
    pub(crate) src: String,
    /// Its height as a part of the line height.
    pub(crate) scale: f32,
    /// Room on each side of it, as a part of the line height.
    pub(crate) spacing: f32,
    /// How far it is moved down, as a part of the line height.
    pub(crate) vertical_shift: f32,
}

/// The symbols of a template by alias (lower case).
#[derive(Debug, Clone, Default)]
pub(crate) struct SymbolTable {
    by_alias: BTreeMap<String, Symbol>,
}

impl SymbolTable {
    /// The table of a template's symbol sets; the first set naming an alias
    /// wins.
    pub(crate) fn of(template: Option<&Template>) -> SymbolTable {
        let mut by_alias = BTreeMap::new();
        for set in template
            .map(|t| t.context.symbol_sets.as_slice())
            .unwrap_or_default()
        {
            let number = |key: &str, default: f32| {
                #[allow(clippy::cast_possible_truncation)] // fractions of a line
                set.prototype
                    .get(key)
                    .and_then(serde_json::Value::as_f64)
                    .map_or(default, |v| v as f32)
            };
            let scale = number("scale", 1.0);
            let spacing = number("spacing", 0.0);
            let vertical_shift = number("verticalShift", 0.0);
            for symbol in &set.symbols {
                let names = match &symbol.name {
                    SymbolName::One(name) => std::slice::from_ref(name),
                    SymbolName::Many(names) => names.as_slice(),
                };
                for name in names {
                    by_alias
                        .entry(name.to_lowercase())
                        .or_insert_with(|| Symbol {
                            src: format!("{}{}", set.src_prefix, symbol.src),
                            scale,
                            spacing,
                            vertical_shift,
                        });
                }
            }
        }
        SymbolTable { by_alias }
    }

    fn get(&self, alias: &str) -> Option<&Symbol> {
        self.by_alias.get(&alias.to_lowercase())
    }
}

/// A piece of a text layer's text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Run<'a> {
    /// Plain text.
    Text(&'a str),
    /// A symbol drawn inline.
    Symbol(Symbol),
    /// `{line}`: a new line.
    Line,
    /// `{year}`.
    Year,
    /// A text code of the design tool that changes the style (`{i}`,
    /// `{bold}`, …): not drawn.
    Code(&'a str),
    /// A code nothing defines: not drawn.
    Unknown(&'a str),
}

/// Style codes of the design tool's core text codes.
const STYLE_CODES: &[&str] = &[
    "i", "/i", "bold", "/bold", "italic", "/italic", "center", "left", "right", "justify",
    "/center", "/left", "/right",
];

/// Splits `text` into runs of plain text and codes; a `{` without its `}`
/// is plain text.
pub(crate) fn split<'a>(text: &'a str, table: &SymbolTable) -> Vec<Run<'a>> {
    let mut runs = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        if open > 0 {
            runs.push(Run::Text(&rest[..open]));
        }
        let code = &rest[open + 1..close];
        let lower = code.to_ascii_lowercase();
        runs.push(if lower == "line" {
            Run::Line
        } else if lower == "year" {
            Run::Year
        } else if let Some(symbol) = table.get(code) {
            Run::Symbol(symbol.clone())
        } else if STYLE_CODES.contains(&lower.as_str()) || lower.starts_with("fontsize") {
            Run::Code(code)
        } else {
            Run::Unknown(code)
        });
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        runs.push(Run::Text(rest));
    }
    runs
}
