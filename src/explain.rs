//! `cardkit explain`: one field of a document kind in plain words, found by
//! its JSON Pointer; the explanation is the library's.

use std::io::{self, Write};

use cardkit::schema::explain::explain;
use cardkit::Kind;
use clap::ValueEnum;

use crate::kind;

#[derive(clap::Args)]
pub struct Args {
    /// The document kind. Example: cardkit explain set /cards/0/uuid
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Kind,

    /// The field's JSON Pointer (RFC 6901: `~1` is `/`, `~0` is `~`); list
    /// items by index or `*`. Example: /cards/*/identifiers/shopAId
    #[arg(value_name = "POINTER")]
    pointer: String,

    /// The output format: `text` (labelled lines) or `json` (an object with
    /// the lines of each place the pointer names). Example: --format json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn run(args: &Args) -> io::Result<u8> {
    let explanation = match explain(args.kind, &args.pointer) {
        Ok(explanation) => explanation,
        Err(error) => {
            eprintln!("cardkit explain: {error}");
            return Ok(2);
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        Format::Text => out.write_all(explanation.text().as_bytes())?,
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, &explanation)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(0)
}
