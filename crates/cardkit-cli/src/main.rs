//! The `cardkit` command: parses arguments, reads inputs and renders the
//! library's reports. Everything about documents lives in the library.

mod inputs;

use std::io::{self, Read, Write};
use std::process::ExitCode;

use cardkit::render::{Json, Renderer, Text};
use cardkit::report::{Summary, WarningFilter};
use cardkit::validate::{self, looks_like_json_lines, Kind, Options};
use clap::{Parser, Subcommand, ValueEnum};

use inputs::Input;

/// Validates trading-card data documents (templates, card designs, sets,
/// migrations) and reports every error with where it is and why.
#[derive(Parser)]
#[command(name = "cardkit", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  cardkit validate examples/\n  cardkit validate --kind set --format json AllPrintings.json\n  cat migrations.jsonl | cardkit validate -\n  cardkit dummy > template.json"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validates documents and reports every problem.
    ///
    /// Exit status: 0 when every document is valid, 1 when any is invalid,
    /// 2 for usage errors or paths that cannot be read (the other paths are
    /// still checked).
    #[command(
        after_help = "Examples:\n  cardkit validate examples/\n  cardkit validate --kind template my-template.json\n  cardkit validate --format json --deny-unknown-fields sets/ > report.json\n  curl -s https://example.org/migrations | cardkit validate --kind migration -"
    )]
    Validate(ValidateArgs),
    /// Prints the dummy template: the empty template every tool can start from.
    ///
    /// Example: cardkit dummy > template.json
    Dummy,
}

#[derive(clap::Args)]
struct ValidateArgs {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate(args) => validate(&args),
        Command::Dummy => dummy(),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // A closed pipe (`cardkit validate … | head`) is not an error.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("cardkit: {error}");
            ExitCode::from(2)
        }
    }
}

fn validate(args: &ValidateArgs) -> io::Result<u8> {
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
        };
        let report = validate::validate(&bytes, &options);
        summary.add(&report, bytes.len() as u64);
        renderer.file(&mut out, &name, &bytes, &report)?;
    }
    renderer.finish(&mut out, &summary)?;
    out.flush()?;
    Ok(summary.exit_code())
}

fn dummy() -> io::Result<u8> {
    let template = cardkit::model::Template::dummy();
    let mut out = io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &template)?;
    writeln!(out)?;
    Ok(0)
}
