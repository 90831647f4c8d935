//! `cardkit fields`: lists the fields of a document kind, each at its JSON
//! Pointer; the listing is the library's.

use std::io::{self, Write};

use cardkit::schema::Names;
use cardkit::schema::Version;
use cardkit::Kind;
use cardkit_run::listing::{Filter, Listing};

use cardkit_run::ExitStatus;

use crate::kind;
use crate::output::ListingFormat;

#[derive(clap::Args)]
pub struct Args {
    /// The document kind. Example: cardkit fields set
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Kind,

    /// Lists only the fields introduced in this version or a later one: those
    /// whose version tag (`since`) is at or after it. Fields without a version
    /// tag (Template, Card and Migration fields) are left out.
    /// Example: --since v5.2.0
    #[arg(long, value_name = "vX.Y.Z", value_parser = str::parse::<Version>)]
    since: Option<Version>,

    /// Lists only the fields flagged deprecated. Example: --deprecated
    #[arg(long)]
    deprecated: bool,

    /// The wire names the fields are listed under: `spec` or `upstream` (the
    /// publishers' names, as `--names upstream` reads documents).
    /// Example: --names upstream
    #[arg(long, value_enum, default_value_t = Names::Spec, value_name = "NAMES")]
    names: Names,

    /// The output format: `text` (one aligned line per field) or `json` (an
    /// array of objects, one per field). Example: --format json
    #[arg(long, value_enum, default_value_t = ListingFormat::Text)]
    format: ListingFormat,
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let filter = Filter {
        since: args.since,
        deprecated: args.deprecated,
        names: args.names,
    };
    let listing = Listing::new(args.kind, &filter);
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        ListingFormat::Text => out.write_all(listing.text().as_bytes())?,
        ListingFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &listing.rows())?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(ExitStatus::Success)
}
