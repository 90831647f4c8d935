//! `cardkit explain`: one field of a document kind in plain words, found by
//! its JSON Pointer or its `Model.field`, or a diagnostic code with an
//! example; the explanations are the library's.
//!
//! The first argument tells which: a kind's name (`set`) takes a pointer or
//! a field after it, a code's name (`missing_field`) nothing. Kinds and
//! codes never share a name (a test checks it).

use std::io::{self, Write};

use crate::output::ListingFormat;
use cardkit::schema::Names;
use cardkit::Code;
use cardkit::Kind;
use cardkit_run::codes::explain_code;
use cardkit_run::explain::explain_named;
use cardkit_run::ExitStatus;
use clap::builder::PossibleValuesParser;

#[derive(clap::Args)]
pub struct Args {
    /// A document kind, then the field to explain; or a diagnostic code
    /// alone, for what it means, an example and how to fix it.
    /// Example: cardkit explain set /cards/0/uuid, cardkit explain missing_field
    #[arg(value_name = "KIND|CODE", value_parser = subjects(), hide_possible_values = true)]
    subject: String,

    /// After a KIND: the field's JSON Pointer (RFC 6901: `~1` is `/`, `~0`
    /// is `~`; list items by index or `*`), from the document's root or
    /// from the file's as reports give it (`/data/NEO/cards/3/uuid` in a
    /// catalog), or a report's `Model.field`.
    /// Example: /cards/*/identifiers/shopAId, or Identifiers.shopAId
    #[arg(value_name = "POINTER|Model.field")]
    field: Option<String>,

    /// The output format: `text` (labelled lines) or `json` (the same as
    /// data). Example: --format json
    #[arg(long, value_enum, default_value_t = ListingFormat::Text)]
    format: ListingFormat,

    /// The names the field is given in, as `validate --names` reads
    /// documents: `auto` (the default) and `upstream` take the publishers'
    /// names (`keyruneCode`, `/cards/0/identifiers/scryfallId`) as the
    /// fields they are read as; `spec` only the spec's.
    /// Example: --names spec
    #[arg(long, value_enum, default_value_t = Names::Auto, value_name = "NAMES")]
    names: Names,
}

/// Every kind's name, then every code's.
fn subjects() -> PossibleValuesParser {
    let kinds = Kind::ALL.iter().map(|kind| kind.as_str());
    PossibleValuesParser::new(kinds.chain(Code::ALL.iter().map(|code| code.as_str())))
}

/// What `explain` is asked about.
pub enum Subject {
    /// A field of a kind, by pointer or `Model.field`.
    Field(Kind, String),
    /// A diagnostic code.
    Code(Code),
}

impl Args {
    /// What the arguments ask about: a kind with a field after it, or a
    /// code alone; anything else is a usage error, saying what to give.
    pub fn subject(&self) -> Result<Subject, String> {
        let kind = self.subject.parse::<Kind>().ok();
        let code = self.subject.parse::<Code>().ok();
        match (kind, code, &self.field) {
            (Some(kind), _, Some(field)) => Ok(Subject::Field(kind, field.clone())),
            (_, Some(code), None) => Ok(Subject::Code(code)),
            (Some(kind), _, None) => Err(format!(
                "`{kind}` is a kind: name the field after it, e.g. `cardkit explain {kind} {}`",
                example_pointer(kind)
            )),
            (_, Some(code), Some(_)) => Err(format!(
                "`{code}` is a code: it takes nothing after it (`cardkit explain {code}`)"
            )),
            // The parser takes only kinds and codes.
            (None, None, _) => Err("name a kind or a code".into()),
        }
    }
}

pub fn run(args: &Args, subject: Subject) -> io::Result<ExitStatus> {
    match subject {
        Subject::Field(kind, field) => explain_field(kind, &field, args.names, args.format),
        Subject::Code(code) => {
            let explained = explain_code(code);
            if !cfg!(feature = "design") && code.is_import() {
                eprintln!(
                    "cardkit explain: the diagnostics of this example are those of `cardkit import`, \
                     which this build leaves out (cargo feature `design`) to run on your files"
                );
            }
            write(
                args.format,
                &explained.text(),
                serde_json::to_value(&explained)?,
            )
        }
    }
}

fn explain_field(
    kind: Kind,
    field: &str,
    names: Names,
    format: ListingFormat,
) -> io::Result<ExitStatus> {
    match explain_named(kind, field, names) {
        Ok(explanation) => write(
            format,
            &explanation.text(),
            serde_json::to_value(&explanation)?,
        ),
        Err(error) => {
            eprintln!("cardkit explain: {error}");
            Ok(ExitStatus::Error)
        }
    }
}

/// A pointer that names a field of `kind`, for messages.
fn example_pointer(kind: Kind) -> String {
    format!("/{}", kind.model().fields[0].name)
}

/// Writes the explanation in `format`: as text, or as JSON data.
fn write(format: ListingFormat, text: &str, data: serde_json::Value) -> io::Result<ExitStatus> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match format {
        ListingFormat::Text => out.write_all(text.as_bytes())?,
        ListingFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &data)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(ExitStatus::Success)
}
