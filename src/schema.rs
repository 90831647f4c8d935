//! `cardkit schema`: prints the JSON Schema of a document kind.

use std::io::{self, Write};

use cardkit::schema::json_schema::json_schema;
use cardkit::Kind;

use cardkit::run::ExitStatus;

use crate::kind;

#[derive(clap::Args)]
pub struct Args {
    /// The document kind. Example: cardkit schema set
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Kind,
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &json_schema(args.kind))?;
    writeln!(out)?;
    Ok(ExitStatus::Valid)
}
