//! `cardkit dummy [KIND]`: a document to start from. The template is the
//! spec's dummy template; its card is the dummy card; a set and a migration
//! are the smallest valid documents the field tables allow.

use std::io::{self, Write};

use cardkit::schema::minimal::dummy;
use cardkit::Kind;
use cardkit_run::ExitStatus;

use crate::kind;

#[derive(clap::Args)]
pub struct Args {
    /// The kind of document (default: template). Example: cardkit dummy set
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Option<Kind>,
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let document = dummy(args.kind.unwrap_or(Kind::Template));
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &document)?;
    writeln!(out)?;
    Ok(ExitStatus::Success)
}
