//! `cardkit symbols TEMPLATE`: the symbols a template's texts can show, the
//! names defined twice, and a text split into what it shows; the table and
//! the split are the library's (`cardkit_design::symbols`).

use std::io::{self, Write};
use std::path::PathBuf;

use cardkit_design::designs::Named;
use cardkit_design::layers::{LayerQueries, LayerRef, LayerType};
use cardkit_design::symbols::{split, Piece, Run, SymbolTable};
use cardkit_run::render::Text;
use cardkit_run::ExitStatus;
use serde_json::{json, Value};

use crate::design_file::Reading;
use crate::output::ListingFormat;

#[derive(clap::Args)]
pub struct Args {
    /// The template (`-`: standard input): in the spec's shape, or in the
    /// design tool's older layered layout, converted in memory as `cardkit
    /// import` converts it. Card designs (a classic save file) have no
    /// symbol sets: the codes their texts use are listed instead.
    /// Example: cardkit symbols template.json
    #[arg(value_name = "TEMPLATE")]
    template: PathBuf,

    #[command(flatten)]
    reading: Reading,

    /// A text to split into runs of text, symbols, text codes and unknown
    /// codes, with their byte positions. Example: --text '{3}{U}{B} and {line}'
    #[arg(long, value_name = "TEXT")]
    text: Option<String>,

    /// The output format: `text` or `json`. Example: --format json
    #[arg(long, value_enum, default_value_t = ListingFormat::Text)]
    format: ListingFormat,
}

/// Exit status: 0; 1 when the text has a code that names nothing; 2 when
/// the template cannot be read. Of card designs (which have no symbol
/// sets), the codes their texts use.
pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let Some((_, designs)) = crate::design_file::read("symbols", &args.template, &args.reading)
    else {
        return Ok(ExitStatus::Error);
    };
    let Some(template) = designs.iter().find_map(|named| named.design.template()) else {
        // Card designs carry no symbol sets: the codes their texts use are
        // listed instead, the symbols among them for a template to define.
        if args.text.is_some() {
            let message = format!(
                "{}: card designs, not a template: --text is split with a template's symbol sets",
                args.template.display()
            );
            crate::design_file::error("symbols", &message);
            return Ok(ExitStatus::Error);
        }
        return card_codes(args, &designs);
    };
    let table = SymbolTable::new(&template.context.symbol_sets);
    let runs = args.text.as_deref().map(|text| split(text, &table));
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        ListingFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &as_json(&table, runs.as_deref()))?;
            writeln!(out)?;
        }
        ListingFormat::Text => write_text(&mut out, &table, runs.as_deref())?,
    }
    out.flush()?;
    let unknown = runs
        .iter()
        .flatten()
        .any(|run| matches!(run.piece, Piece::Unknown(_)));
    Ok(if unknown {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

fn as_json(table: &SymbolTable, runs: Option<&[Run<'_, '_>]>) -> Value {
    let symbols: Vec<Value> = table
        .symbols()
        .iter()
        .map(|symbol| {
            json!({
                "alias": symbol.alias,
                "set": symbol.set,
                "set_name": symbol.set_name,
                "src": symbol.src,
                "scale": symbol.scale,
                "spacing": symbol.spacing,
                "vertical_shift": symbol.vertical_shift,
                "pointer": symbol.pointer,
                "shown": table.is_shown(symbol),
            })
        })
        .collect();
    let duplicates: Vec<Value> = table
        .duplicates()
        .iter()
        .map(|d| json!({"alias": d.alias, "hidden": d.hidden, "shown": d.shown}))
        .collect();
    let bad: Vec<Value> = table
        .bad_prototypes()
        .iter()
        .map(|b| json!({"pointer": b.pointer, "found": b.found}))
        .collect();
    let mut value = json!({"symbols": symbols, "duplicates": duplicates, "bad_prototypes": bad});
    if let Some(runs) = runs {
        value["runs"] = runs.iter().map(run_json).collect();
    }
    value
}

fn run_json(run: &Run<'_, '_>) -> Value {
    let (kind, detail) = match run.piece {
        Piece::Text(text) => ("text", json!({"text": text})),
        Piece::Symbol(symbol) => (
            "symbol",
            json!({"alias": symbol.alias, "src": symbol.src, "pointer": symbol.pointer}),
        ),
        Piece::Code(code) => ("code", json!({"code": code.to_string()})),
        Piece::Unknown(name) => ("unknown", json!({"name": name})),
    };
    let mut value = json!({"kind": kind, "start": run.start, "end": run.end});
    if let (Value::Object(value), Value::Object(detail)) = (&mut value, detail) {
        value.extend(detail);
    }
    value
}

fn write_text(
    out: &mut impl Write,
    table: &SymbolTable,
    runs: Option<&[Run<'_, '_>]>,
) -> io::Result<()> {
    let rows: Vec<[String; 6]> = table
        .symbols()
        .iter()
        .map(|symbol| {
            let alias = if table.is_shown(symbol) {
                format!("{{{}}}", Text::escape(&symbol.alias))
            } else {
                format!("{{{}}} (hidden)", Text::escape(&symbol.alias))
            };
            [
                alias,
                Text::escape(&symbol.set_name).into_owned(),
                Text::escape(&symbol.src).into_owned(),
                format!("scale={}", symbol.scale),
                format!("spacing={}", symbol.spacing),
                format!("shift={}", symbol.vertical_shift),
            ]
        })
        .collect();
    cardkit_run::table::write_aligned(out, &rows)?;
    writeln!(out, "{} names of symbols in {} sets", rows.len(), {
        let mut sets: Vec<usize> = table.symbols().iter().map(|s| s.set).collect();
        sets.dedup();
        sets.len()
    })?;
    for duplicate in table.duplicates() {
        writeln!(
            out,
            "warning: {{{}}} is defined twice: {} is hidden by {}",
            Text::escape(&duplicate.alias),
            duplicate.hidden,
            duplicate.shown
        )?;
    }
    for bad in table.bad_prototypes() {
        writeln!(
            out,
            "warning: {} is {}, not a number: its default is used",
            bad.pointer, bad.found
        )?;
    }
    if let Some(runs) = runs {
        writeln!(out)?;
        for run in runs {
            let span = format!("{}..{}", run.start, run.end);
            let line = match run.piece {
                Piece::Text(text) => format!("{span:9}  text     \"{}\"", Text::escape(text)),
                Piece::Symbol(symbol) => format!(
                    "{span:9}  symbol   {{{}}} {}",
                    Text::escape(&symbol.alias),
                    Text::escape(&symbol.src)
                ),
                Piece::Code(code) => format!("{span:9}  code     {code}"),
                Piece::Unknown(name) => {
                    format!(
                        "{span:9}  unknown  {{{}}} names no symbol",
                        Text::escape(name)
                    )
                }
            };
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// The `{…}` codes the texts of card designs use, each with its text
/// layer's pointer: a text code (`{line}`), or another (`other`): a symbol
/// of the template the cards are rendered with, or a code that names
/// nothing. Exit status 0.
fn card_codes(args: &Args, designs: &[Named]) -> io::Result<ExitStatus> {
    let no_sets = SymbolTable::new(&[]);
    let several = designs.len() > 1;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut listed = Vec::new();
    for named in designs {
        let mut codes = Vec::new();
        for hit in named.design.layers().of_type(LayerType::Text).iter() {
            let LayerRef::Text(text) = hit.layer else {
                continue;
            };
            for run in split(&text.text, &no_sets) {
                match run.piece {
                    Piece::Code(code) => {
                        codes.push((hit.pointer.clone(), code.to_string(), "code"));
                    }
                    Piece::Unknown(name) => {
                        codes.push((hit.pointer.clone(), format!("{{{name}}}"), "other"));
                    }
                    Piece::Text(_) | Piece::Symbol(_) => {}
                }
            }
        }
        match args.format {
            ListingFormat::Json => {
                let codes: Vec<Value> = codes
                    .iter()
                    .map(|(pointer, code, kind)| json!({"pointer": pointer, "code": code, "kind": kind}))
                    .collect();
                listed.push(json!({"name": named.name, "pointer": named.pointer, "codes": codes}));
            }
            ListingFormat::Text => {
                if several {
                    writeln!(out, "{} ({}):", named.name, named.pointer)?;
                }
                let rows: Vec<[String; 3]> = codes
                    .iter()
                    .map(|(pointer, code, kind)| {
                        [
                            pointer.clone(),
                            Text::escape(code).into_owned(),
                            (*kind).to_owned(),
                        ]
                    })
                    .collect();
                cardkit_run::table::write_aligned(&mut out, &rows)?;
                let text_codes = codes.iter().filter(|(_, _, kind)| *kind == "code").count();
                writeln!(
                    out,
                    "{} codes in the card's texts: {text_codes} text codes, {} others (a symbol \
                     of the template it is rendered with, or a code that names nothing)",
                    codes.len(),
                    codes.len() - text_codes
                )?;
            }
        }
    }
    if let ListingFormat::Json = args.format {
        let value = if several {
            Value::Array(listed)
        } else {
            listed.pop().unwrap_or(Value::Null)
        };
        serde_json::to_writer_pretty(&mut out, &value)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(ExitStatus::Success)
}
