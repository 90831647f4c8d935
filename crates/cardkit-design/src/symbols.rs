//! The symbols a template's texts can show, and a text split into what it
//! shows.
//!
//! A template's symbol sets give each symbol one or more names; a text
//! refers to one by a code in braces, in any case (`{U}` and `{u}` are the
//! same symbol). Each symbol's image is its set's `srcPrefix` followed by
//! its `src`, drawn `scale` times the line's height, with `spacing` (a
//! fraction of its size) on each side and moved down by `verticalShift` (a
//! fraction of its size), from its set's `prototype` — or 1, 0.05 and 0.05
//! where the prototype does not say, as the design tool's reference library
//! reads them. When two symbols share a name, the later one is shown, and
//! the table notes the name as defined twice.
//!
//! A few codes are the text's own, as the design tool reads them: `{line}`
//! starts a new paragraph and `{lns}` a new line, `{year}` is the current
//! year, `{i}` and `{/i}` start and end italics, `{fontsize…}` changes the
//! size of the text that follows. They win over a symbol of the same name.
//!
//! ```
//! use cardkit::model::Template;
//! use cardkit_design::symbols::{split, Piece, SymbolTable, TextCode};
//!
//! let template: Template = serde_json::from_str(r#"{
//!     "name": "T", "card": {"name": "T", "width": 10, "height": 10},
//!     "context": {"symbolSets": [{
//!         "name": "mana", "srcPrefix": "symbols/", "prototype": {"scale": 0.8},
//!         "symbols": [{"src": "u.svg", "name": ["blue", "U"]}, {"src": "3.svg", "name": "3"}]
//!     }]}
//! }"#).unwrap();
//! let table = SymbolTable::new(&template.context.symbol_sets);
//! assert_eq!(table.get("u").unwrap().src, "symbols/u.svg");
//!
//! let runs = split("{3}{U}{line}Draw {x}.", &table);
//! assert!(matches!(runs[1].piece, Piece::Symbol(symbol) if symbol.alias == "u"));
//! assert!(matches!(runs[2].piece, Piece::Code(TextCode::Line)));
//! assert!(matches!(runs[3].piece, Piece::Text("Draw ")));
//! assert!(matches!(runs[4].piece, Piece::Unknown("x")));
//! assert_eq!((runs[4].start, runs[4].end), (17, 20));
//! ```

use std::collections::HashMap;

use cardkit::model::SymbolSet;
use serde_json::{Map, Value};

/// The size of a symbol, as a fraction of the line's height, when its set
/// does not say.
pub const DEFAULT_SCALE: f64 = 1.0;
/// The space on each side of a symbol, as a fraction of its size, when its
/// set does not say.
pub const DEFAULT_SPACING: f64 = 0.05;
/// How far a symbol is moved down, as a fraction of its size, when its set
/// does not say.
pub const DEFAULT_VERTICAL_SHIFT: f64 = 0.05;

/// One name of one symbol.
#[derive(Debug, Clone, PartialEq)]
pub struct Symbol {
    /// The name, in lower case, as texts refer to it (in any case).
    pub alias: String,
    /// The index of its set in the template's symbol sets.
    pub set: usize,
    /// The name of its set.
    pub set_name: String,
    /// Its image: the set's `srcPrefix` and the symbol's `src`, relative to
    /// the asset root as every `src` is.
    pub src: String,
    /// Its size, as a fraction of the line's height.
    pub scale: f64,
    /// The space on each side, as a fraction of its size.
    pub spacing: f64,
    /// How far it is moved down, as a fraction of its size.
    pub vertical_shift: f64,
    /// Where the symbol is defined, from the template's root
    /// (`/context/symbolSets/0/symbols/3`).
    pub pointer: String,
}

/// A name that two symbols share: texts show the later one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The shared name, in lower case.
    pub alias: String,
    /// The symbol no longer shown under that name.
    pub hidden: String,
    /// The symbol shown.
    pub shown: String,
}

/// A prototype value of a symbol set that is not a number.
#[derive(Debug, Clone, PartialEq)]
pub struct BadPrototype {
    /// Where the value is (`/context/symbolSets/0/prototype/scale`).
    pub pointer: String,
    /// The value found.
    pub found: Value,
}

/// Every name of every symbol of a template, in the order of its sets,
/// symbols and names.
#[derive(Debug, Clone, Default)]
pub struct SymbolTable {
    symbols: Vec<Symbol>,
    by_alias: HashMap<String, usize>,
    duplicates: Vec<Duplicate>,
    bad_prototypes: Vec<BadPrototype>,
}

impl SymbolTable {
    /// The table of `sets` (a template's `context.symbolSets`).
    #[must_use]
    pub fn new(sets: &[SymbolSet]) -> SymbolTable {
        let mut table = SymbolTable::default();
        for (set_index, set) in sets.iter().enumerate() {
            let set_pointer = format!("/context/symbolSets/{set_index}");
            let mut number = |key: &str, default: f64| {
                prototype_number(&set.prototype, key, default).unwrap_or_else(|found| {
                    table.bad_prototypes.push(BadPrototype {
                        pointer: format!("{set_pointer}/prototype/{key}"),
                        found,
                    });
                    default
                })
            };
            let scale = number("scale", DEFAULT_SCALE);
            let spacing = number("spacing", DEFAULT_SPACING);
            let vertical_shift = number("verticalShift", DEFAULT_VERTICAL_SHIFT);
            for (symbol_index, symbol) in set.symbols.iter().enumerate() {
                for name in symbol.name.names() {
                    table.add(Symbol {
                        alias: name.to_lowercase(),
                        set: set_index,
                        set_name: set.name.clone(),
                        src: format!("{}{}", set.src_prefix, symbol.src),
                        scale,
                        spacing,
                        vertical_shift,
                        pointer: format!("{set_pointer}/symbols/{symbol_index}"),
                    });
                }
            }
        }
        table
    }

    fn add(&mut self, symbol: Symbol) {
        let index = self.symbols.len();
        if let Some(earlier) = self.by_alias.insert(symbol.alias.clone(), index) {
            // A symbol listing one name twice is not two symbols.
            if self.symbols[earlier].pointer != symbol.pointer {
                self.duplicates.push(Duplicate {
                    alias: symbol.alias.clone(),
                    hidden: self.symbols[earlier].pointer.clone(),
                    shown: symbol.pointer.clone(),
                });
            }
        }
        self.symbols.push(symbol);
    }

    /// The symbol a code names (`"U"`, `"u"`), the later one where two
    /// share the name.
    #[must_use]
    pub fn get(&self, code: &str) -> Option<&Symbol> {
        let alias = code.to_lowercase();
        self.by_alias.get(&alias).map(|&index| &self.symbols[index])
    }

    /// Every name of every symbol, in the order of the template (names
    /// defined twice appear twice).
    #[must_use]
    pub fn symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    /// Whether `symbol` is the one its name shows (not hidden by a later
    /// symbol of the same name).
    #[must_use]
    pub fn is_shown(&self, symbol: &Symbol) -> bool {
        self.get(&symbol.alias)
            .is_some_and(|shown| std::ptr::eq(shown, symbol))
    }

    /// The names two symbols share, in the order they were found.
    #[must_use]
    pub fn duplicates(&self) -> &[Duplicate] {
        &self.duplicates
    }

    /// The prototype values that are not numbers (their defaults are used).
    #[must_use]
    pub fn bad_prototypes(&self) -> &[BadPrototype] {
        &self.bad_prototypes
    }
}

/// A number of a set's prototype: the default when absent, the value found
/// when it is not a number.
fn prototype_number(prototype: &Map<String, Value>, key: &str, default: f64) -> Result<f64, Value> {
    match prototype.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(value) => value.as_f64().ok_or_else(|| value.clone()),
    }
}

/// A code of the text itself, not a symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextCode {
    /// `{line}`: a new paragraph (a new line, and the paragraph gap).
    Line,
    /// `{lns}` (or `{linenospace}`): a new line without the paragraph gap.
    LineNoSpace,
    /// `{year}`: the current year.
    Year,
    /// `{i}`: italics start.
    ItalicStart,
    /// `{/i}`: italics end.
    ItalicEnd,
    /// `{fontsize4}`, `{fontsize-2}`: the text that follows set that many
    /// pixels larger; `{fontsize12pt}`: set at 12 points (of 72 to the
    /// design tool's 600 pixels per inch).
    FontSize(FontSize),
}

/// A change of the size text is set at, as `{fontsize…}` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontSize {
    /// So many pixels more (or fewer) than the size until then.
    By(i32),
    /// So many points.
    Points(i32),
}

impl FontSize {
    /// The design tool's pixels per point (600 per inch).
    pub const PIXELS_PER_POINT: f64 = 600.0 / 72.0;

    /// The size after this change, from `size` pixels.
    #[must_use]
    pub fn apply(self, size: f64) -> f64 {
        match self {
            FontSize::By(pixels) => size + f64::from(pixels),
            FontSize::Points(points) => f64::from(points) * Self::PIXELS_PER_POINT,
        }
    }
}

impl TextCode {
    /// The code a name in braces is, if any (names of codes are lower case).
    #[must_use]
    pub fn from_name(name: &str) -> Option<TextCode> {
        match name {
            "line" => Some(TextCode::Line),
            "lns" | "linenospace" => Some(TextCode::LineNoSpace),
            "year" => Some(TextCode::Year),
            "i" => Some(TextCode::ItalicStart),
            "/i" => Some(TextCode::ItalicEnd),
            _ => {
                let size = name.strip_prefix("fontsize")?;
                let (number, points) = match size.strip_suffix("pt") {
                    Some(number) => (number, true),
                    None => (size, false),
                };
                // Sizes past a few thousand pixels draw nothing a card
                // can show; the bound keeps sums of them finite.
                let number: i32 = number.parse().ok().filter(|n: &i32| n.abs() <= 10_000)?;
                Some(TextCode::FontSize(if points {
                    FontSize::Points(number)
                } else {
                    FontSize::By(number)
                }))
            }
        }
    }
}

impl std::fmt::Display for TextCode {
    /// The code as written (`{line}`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextCode::Line => f.write_str("{line}"),
            TextCode::LineNoSpace => f.write_str("{lns}"),
            TextCode::Year => f.write_str("{year}"),
            TextCode::ItalicStart => f.write_str("{i}"),
            TextCode::ItalicEnd => f.write_str("{/i}"),
            TextCode::FontSize(FontSize::By(pixels)) => write!(f, "{{fontsize{pixels}}}"),
            TextCode::FontSize(FontSize::Points(points)) => write!(f, "{{fontsize{points}pt}}"),
        }
    }
}

/// What a stretch of a text shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Piece<'text, 'table> {
    /// Text as it is.
    Text(&'text str),
    /// A symbol.
    Symbol(&'table Symbol),
    /// A code of the text itself.
    Code(TextCode),
    /// A code in braces that names no symbol and no text code: the name
    /// between the braces.
    Unknown(&'text str),
}

/// A stretch of a text and what it shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run<'text, 'table> {
    /// What it shows.
    pub piece: Piece<'text, 'table>,
    /// Where it starts in the text, in bytes.
    pub start: usize,
    /// Where it ends in the text, in bytes.
    pub end: usize,
}

/// `text` split into runs of text, symbols, text codes and unknown codes,
/// in order; together they cover the text. A code is a name of letters,
/// digits and `_` (or `/i`) in braces; other braces are text.
#[must_use]
pub fn split<'text, 'table>(
    text: &'text str,
    table: &'table SymbolTable,
) -> Vec<Run<'text, 'table>> {
    let mut runs = Vec::new();
    let mut text_start = 0;
    let mut at = 0;
    while let Some(offset) = text[at..].find('{') {
        let open = at + offset;
        let Some(name) = code_name(&text[open + 1..]) else {
            at = open + 1;
            continue;
        };
        let end = open + name.len() + 2;
        if text_start < open {
            runs.push(Run {
                piece: Piece::Text(&text[text_start..open]),
                start: text_start,
                end: open,
            });
        }
        let piece = match TextCode::from_name(&name.to_lowercase()) {
            Some(code) => Piece::Code(code),
            None => table.get(name).map_or(Piece::Unknown(name), Piece::Symbol),
        };
        runs.push(Run {
            piece,
            start: open,
            end,
        });
        text_start = end;
        at = end;
    }
    if text_start < text.len() {
        runs.push(Run {
            piece: Piece::Text(&text[text_start..]),
            start: text_start,
            end: text.len(),
        });
    }
    runs
}

/// The name of a code that starts `rest` (just after its `{`), if it is
/// one: a word character, then word characters, `-`, `,` and `.` up to a
/// `}` (the design tool's `{elemidinfo-set}`, `{ptshift0,0.0172}`), or
/// `/i`.
fn code_name(rest: &str) -> Option<&str> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    if !rest.starts_with(word) {
        return (rest.starts_with("/i}") || rest.starts_with("/I}")).then(|| &rest[..2]);
    }
    let close = rest
        .char_indices()
        .find(|&(_, c)| !(word(c) || matches!(c, '-' | ',' | '.')));
    match close {
        Some((index, '}')) => Some(&rest[..index]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cardkit::model::Template;

    fn table(symbol_sets: &str) -> SymbolTable {
        let template: Template = serde_json::from_str(&format!(
            r#"{{"name": "T", "card": {{"name": "T", "width": 1, "height": 1}},
                "context": {{"symbolSets": {symbol_sets}}}}}"#
        ))
        .unwrap();
        SymbolTable::new(&template.context.symbol_sets)
    }

    fn mana() -> SymbolTable {
        table(
            r#"[{"name": "mana", "srcPrefix": "s/", "prototype": {"scale": 0.78, "spacing": 0.04},
                 "symbols": [{"src": "b.svg", "name": ["skull", "B"]}, {"src": "3.svg", "name": "3"}]},
                {"name": "icons", "srcPrefix": "i/", "prototype": {},
                 "symbols": [{"src": "other-b.svg", "name": "b"}]}]"#,
        )
    }

    #[test]
    fn names_are_lower_case_with_their_set_s_prefix_and_prototype() {
        let table = mana();
        let skull = table.get("SKULL").unwrap();
        assert_eq!(skull.src, "s/b.svg");
        assert_eq!((skull.scale, skull.spacing), (0.78, 0.04));
        assert_eq!(skull.vertical_shift, DEFAULT_VERTICAL_SHIFT);
        assert_eq!(skull.pointer, "/context/symbolSets/0/symbols/0");
        assert_eq!(table.symbols().len(), 4);
    }

    #[test]
    fn a_name_defined_twice_shows_the_later_symbol_and_is_noted() {
        let table = mana();
        let b = table.get("B").unwrap();
        assert_eq!(b.src, "i/other-b.svg");
        assert_eq!((b.scale, b.spacing), (DEFAULT_SCALE, DEFAULT_SPACING));
        assert_eq!(
            table.duplicates(),
            [Duplicate {
                alias: "b".to_owned(),
                hidden: "/context/symbolSets/0/symbols/0".to_owned(),
                shown: "/context/symbolSets/1/symbols/0".to_owned(),
            }]
        );
        assert!(!table.is_shown(&table.symbols()[1]));
        assert!(table.is_shown(&table.symbols()[3]));
    }

    #[test]
    fn prototype_values_that_are_not_numbers_are_noted_and_defaulted() {
        let table = table(
            r#"[{"name": "m", "srcPrefix": "", "prototype": {"scale": "big"},
                 "symbols": [{"src": "x.svg", "name": "x"}]}]"#,
        );
        assert_eq!(table.get("x").unwrap().scale, DEFAULT_SCALE);
        assert_eq!(
            table.bad_prototypes()[0].pointer,
            "/context/symbolSets/0/prototype/scale"
        );
    }

    fn pieces<'a>(text: &'a str, table: &'a SymbolTable) -> Vec<String> {
        split(text, table)
            .iter()
            .map(|run| {
                let what = match run.piece {
                    Piece::Text(text) => format!("text {text:?}"),
                    Piece::Symbol(symbol) => format!("symbol {}", symbol.src),
                    Piece::Code(code) => format!("code {code}"),
                    Piece::Unknown(name) => format!("unknown {name}"),
                };
                format!("{}..{} {what}", run.start, run.end)
            })
            .collect()
    }

    #[test]
    fn a_text_is_split_into_text_symbols_and_codes() {
        let table = mana();
        assert_eq!(
            pieces("{3}{b} Draw{LINE}{i}é{/i} {year} {nope}", &table),
            [
                "0..3 symbol s/3.svg",
                "3..6 symbol i/other-b.svg",
                "6..11 text \" Draw\"",
                "11..17 code {line}",
                "17..20 code {i}",
                "20..22 text \"é\"",
                "22..26 code {/i}",
                "26..27 text \" \"",
                "27..33 code {year}",
                "33..34 text \" \"",
                "34..40 unknown nope",
            ]
        );
    }

    #[test]
    fn font_sizes_and_lines_without_the_gap_are_the_text_s_own_codes() {
        let table = mana();
        assert_eq!(
            pieces(
                "{fontsize2}a{FontSize-3}{fontsize12pt}{lns}{fontsize}{fontsize99999}",
                &table
            ),
            [
                "0..11 code {fontsize2}",
                "11..12 text \"a\"",
                "12..24 code {fontsize-3}",
                "24..38 code {fontsize12pt}",
                "38..43 code {lns}",
                "43..53 unknown fontsize",
                "53..68 unknown fontsize99999",
            ]
        );
        assert_eq!(FontSize::By(-3).apply(20.0), 17.0);
        assert_eq!(FontSize::Points(12).apply(20.0), 100.0);
    }

    /// The design tool's own codes (`{elemidinfo-set}`, `{ptshift0,0.0172}`)
    /// are codes, unknown to the template: left out with a report line by
    /// whoever draws the text, never drawn as they are written.
    #[test]
    fn the_design_tools_codes_with_dashes_commas_and_points_are_codes() {
        let table = mana();
        assert_eq!(
            pieces("{elemidinfo-set} . {ptshift0,0.0172}{3}{-x} {a,}", &table),
            [
                "0..16 unknown elemidinfo-set",
                "16..19 text \" . \"",
                "19..36 unknown ptshift0,0.0172",
                "36..39 symbol s/3.svg",
                "39..44 text \"{-x} \"",
                "44..48 unknown a,",
            ]
        );
    }

    #[test]
    fn braces_that_hold_no_code_are_text() {
        let table = mana();
        assert_eq!(
            pieces("{ } {} {3 {/x} {", &table),
            ["0..16 text \"{ } {} {3 {/x} {\""]
        );
        assert_eq!(pieces("", &table), Vec::<String>::new());
        assert_eq!(
            pieces("{{3}}", &table),
            ["0..1 text \"{\"", "1..4 symbol s/3.svg", "4..5 text \"}\""]
        );
    }

    #[test]
    fn runs_cover_the_text_and_splitting_is_linear() {
        let table = mana();
        // Many unclosed braces: each is looked at once.
        let text = format!("{}{{3}}", "{".repeat(1 << 20));
        let runs = split(&text, &table);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].end, text.len());
        let long = "{3}x".repeat(10_000);
        let runs = split(&long, &table);
        assert_eq!(runs.len(), 20_000);
        assert!(runs.windows(2).all(|pair| pair[0].end == pair[1].start));
    }
}
