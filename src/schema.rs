//! `cardkit schema`: prints the JSON Schema of a document kind.

use std::io::{self, Write};

use cardkit::schema::json_schema::json_schema_named;
use cardkit::Kind;

use cardkit::run::ExitStatus;

use crate::kind;
use crate::options::WireNames;

#[derive(clap::Args)]
pub struct Args {
    /// The document kind. Example: cardkit schema set
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Kind,

    /// The wire names the schema's properties have: `spec` or `upstream`
    /// (the publishers' names, as `--names upstream` reads documents).
    /// Example: --names upstream
    #[arg(long, value_enum, default_value_t = WireNames::Spec, value_name = "NAMES")]
    names: WireNames,
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &json_schema_named(args.kind, args.names.into()))?;
    writeln!(out)?;
    Ok(ExitStatus::Valid)
}
