//! `cardkit schema`: prints the JSON Schema of a document kind.

use std::io::{self, Write};

use cardkit::model::Layout;
use cardkit::schema::json_schema::{json_schema_with, SchemaOptions};
use cardkit::schema::Names;
use cardkit::schema::Version;
use cardkit::Kind;

use cardkit_run::ExitStatus;

use crate::kind;
use crate::options;

#[derive(clap::Args)]
pub struct Args {
    /// The document kind. Example: cardkit schema set
    #[arg(value_name = "KIND", value_parser = kind::parser())]
    kind: Kind,

    /// The wire names the schema's properties have: `spec` or `upstream`
    /// (the publishers' names, as `--names upstream` reads documents).
    /// Example: --names upstream
    #[arg(long, value_enum, default_value_t = Names::Spec, value_name = "NAMES")]
    names: Names,

    /// The schema of a file that holds the documents in a container, as
    /// validate reads them: `wrapped` ({"meta": …, "data": <document>}),
    /// `catalog` ({"meta": …, "data": {"<CODE>": <document>, …}}), `code-map`
    /// ({"<CODE>": <document>, …}), `list` ({"object": "list", "data":
    /// [<document>, …]}) or `array` ([<document>, …]). Default: the bare
    /// document. Example: --container wrapped
    #[arg(long, value_enum, value_name = "CONTAINER")]
    container: Option<Layout>,

    /// The schema as of this version of the format, as `validate --as-of`
    /// checks: fields introduced later are not required (and, present, only
    /// warned about). Example: --as-of v5.0.0
    #[arg(long, value_name = "vX.Y.Z", value_parser = options::as_of_version)]
    as_of: Option<Version>,

    /// Adds the annotations that strict validators (ajv's default mode)
    /// refuse as unknown: the version tag as `x-since`, and `"format":
    /// "color"`. Without it, the version tag is in the description.
    /// Example: --annotations
    #[arg(long)]
    annotations: bool,
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let options = SchemaOptions {
        names: args.names,
        container: args.container.unwrap_or(Layout::Bare),
        as_of: args.as_of,
        annotations: args.annotations,
    };
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &json_schema_with(args.kind, &options))?;
    writeln!(out)?;
    Ok(ExitStatus::Success)
}
