//! `cardkit validate`: reads each input, validates it and renders the reports.

use std::io::{self, Read, Write};

use cardkit::render::{Json, Renderer, Text};
use cardkit::report::{Summary, WarningFilter};
use cardkit::schema::Version;
use cardkit::validate::{self, looks_like_json_lines, Kind, Options};
use clap::ValueEnum;

use crate::inputs::{self, Input};

#[derive(clap::Args)]
pub struct Args {
    /// Files or directories to validate; `-` reads standard input.
    /// Directories are searched recursively for *.json, *.jsonl and *.ndjson.
    /// Example: cardkit validate examples/ extra/set.json
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<String>,

    /// The kind of the documents. `auto` tells each document's kind from its
    /// members (see the README for the rules). Example: --kind set
    #[arg(long, value_enum, default_value_t = KindArg::Auto)]
    kind: KindArg,

    /// The report format: `text` (compiler-style diagnostics with the source
    /// line) or `json` (one stable structure, documented in the README).
    /// Example: --format json
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Treats members the spec does not define as errors instead of warnings.
    /// Example: --deny-unknown-fields
    #[arg(long)]
    deny_unknown_fields: bool,

    /// Validates as consumers of this version of the Set format see the
    /// documents: fields introduced later are reported (`newer_field`) and
    /// not required. Example: --as-of v5.0.0
    #[arg(long, value_name = "vX.Y.Z", value_parser = validate::as_of_version)]
    as_of: Option<Version>,

    /// With --as-of, makes fields newer than that version errors instead of
    /// warnings. Example: --as-of v4.6.0 --strict-version
    #[arg(long, requires = "as_of")]
    strict_version: bool,

    /// Extra warnings to report: `deprecated` reports deprecated fields that
    /// are present (`deprecated_field`). Example: --warn deprecated
    #[arg(long, value_enum, value_name = "WHAT")]
    warn: Vec<Warn>,

    /// How many warnings of each kind (same code and field) are shown before
    /// the rest are only counted; 0 shows all. Example: --warning-limit 10
    #[arg(long, default_value_t = WarningFilter::DEFAULT_LIMIT, value_name = "N")]
    warning_limit: usize,
}

#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    Auto,
    Template,
    Card,
    Set,
    Migration,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Warn {
    /// Deprecated fields that are present.
    Deprecated,
}

pub fn run(args: &Args) -> io::Result<u8> {
    let kind = match args.kind {
        KindArg::Auto => None,
        KindArg::Template => Some(Kind::Template),
        KindArg::Card => Some(Kind::Card),
        KindArg::Set => Some(Kind::Set),
        KindArg::Migration => Some(Kind::Migration),
    };
    let limit = if args.warning_limit == 0 {
        usize::MAX
    } else {
        args.warning_limit
    };
    let mut renderer: Box<dyn Renderer> = match args.format {
        Format::Text => Box::new(Text::new(WarningFilter::new(limit))),
        Format::Json => Box::new(Json::new(WarningFilter::new(limit))),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut summary = Summary::default();
    for input in inputs::expand(&args.paths) {
        let (name, bytes, from_stdin) = match input {
            Input::Stdin => {
                let mut bytes = Vec::new();
                match io::stdin().lock().read_to_end(&mut bytes) {
                    Ok(_) => ("<stdin>".to_owned(), bytes, true),
                    Err(error) => {
                        summary.add_unreadable();
                        renderer.unreadable(&mut out, "<stdin>", &error.to_string())?;
                        continue;
                    }
                }
            }
            Input::File(path) => match std::fs::read(&path) {
                Ok(bytes) => (path.display().to_string(), bytes, false),
                Err(error) => {
                    summary.add_unreadable();
                    renderer.unreadable(
                        &mut out,
                        &path.display().to_string(),
                        &error.to_string(),
                    )?;
                    continue;
                }
            },
            Input::Unreadable(path, error) => {
                summary.add_unreadable();
                renderer.unreadable(&mut out, &path, &error)?;
                continue;
            }
        };
        let json_lines = if from_stdin {
            looks_like_json_lines(&bytes)
        } else {
            inputs::is_json_lines(&name)
        };
        let options = Options {
            kind,
            deny_unknown_fields: args.deny_unknown_fields,
            json_lines,
            as_of: args.as_of,
            strict_version: args.strict_version,
            warn_deprecated: args.warn.contains(&Warn::Deprecated),
        };
        let report = validate::validate(&bytes, &options);
        summary.add(&report, bytes.len() as u64);
        renderer.file(&mut out, &name, &bytes, &report)?;
    }
    renderer.finish(&mut out, &summary)?;
    out.flush()?;
    Ok(summary.exit_code())
}
