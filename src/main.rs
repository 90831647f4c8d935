//! The `cardkit` command: parses arguments, reads inputs and renders the
//! library's reports. Everything about documents lives in the library.

mod allocator;
#[cfg(feature = "design")]
mod assets;
mod config;
#[cfg(feature = "design")]
mod design_file;
#[cfg(feature = "diff")]
mod diff;
mod dummy;
#[cfg(feature = "design")]
mod expand;
mod explain;
#[cfg(feature = "export")]
mod export;
mod fields;
mod generate;
#[cfg(feature = "design")]
mod import;
mod kind;
#[cfg(feature = "design")]
mod layers;
#[cfg(feature = "diff")]
mod migrate;
mod options;
mod output;
mod progress;
#[cfg(feature = "render")]
mod render;
mod schema;
#[cfg(feature = "serve")]
mod serve;
#[cfg(feature = "design")]
mod symbols;
mod validate;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

use cardkit_run::{ExitStatus, Surface};

use crate::options::{Origins, Running, Validation};

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
    /// still checked), and when nothing was checked (the directories given
    /// hold no JSON file).
    #[command(
        after_help = "Examples:\n  cardkit validate examples/\n  cardkit validate --kind template my-template.json\n  cardkit validate --format json --deny-unknown-fields sets/ > report.json\n  cardkit validate --as-of v5.0.0 --warn deprecated set.json\n  curl -s https://example.org/migrations | cardkit validate --kind migration -"
    )]
    Validate(validate::Args),
    /// Prints a document to start from: the dummy template (the default),
    /// its dummy card, or the smallest valid set or migration.
    ///
    /// Example: cardkit dummy > template.json; cardkit dummy set
    Dummy(dummy::Args),
    /// Prints the completions of cardkit's commands and flags for a shell.
    ///
    /// Example: cardkit completions zsh > ~/.zfunc/_cardkit
    Completions(generate::Completions),
    /// Prints cardkit's manual pages (roff), the command's and each
    /// subcommand's.
    ///
    /// Example: cardkit man > cardkit.1 && man ./cardkit.1
    Man,
    /// Lists the fields of a document kind, each at its JSON Pointer: type,
    /// required or optional, nullable, default, version tag, deprecation.
    #[command(
        after_help = "Examples:\n  cardkit fields set\n  cardkit fields set --since v5.2.0\n  cardkit fields set --deprecated --format json"
    )]
    Fields(fields::Args),
    /// Explains one field of a document kind in plain words, found by its
    /// JSON Pointer (from the document's root, or from the file's as reports
    /// give it) or by a report's `Model.field`; or explains a diagnostic
    /// code: what it means, an example, the diagnostic and how to fix it.
    ///
    /// `cardkit explain KIND POINTER|Model.field` explains a field;
    /// `cardkit explain CODE` a code (kinds and codes never share a name).
    ///
    /// Exit status: 0, or 2 when the pointer or field names no field (the
    /// nearest known one is suggested when one is close) or goes deeper than
    /// documents may nest.
    #[command(
        after_help = "Examples:\n  cardkit explain set /cards/3/identifiers/shopAId\n  cardkit explain set /data/NEO/cards/3/uuid\n  cardkit explain set CardSet.language\n  cardkit explain card /data/children/0/src\n  cardkit explain set '/translations/Portuguese (Brazil)'\n  cardkit explain --format json migration /uri\n  cardkit explain missing_field"
    )]
    Explain(explain::Args),
    /// Prints the JSON Schema (Draft 2020-12) of a document kind.
    ///
    /// Example: cardkit schema set > set.schema.json
    Schema(schema::Args),
    #[cfg(feature = "serve")]
    /// Serves validation over HTTP (an API under /v1 and a web page at /)
    /// until Ctrl-C or SIGTERM, which let requests in flight finish.
    ///
    /// Exit status: 0 after a clean stop, 2 when the address cannot be
    /// bound.
    #[command(
        after_help = "Examples:\n  cardkit serve\n  cardkit serve --addr 0.0.0.0:8080 --max-body 1GiB --timeout 120\n  curl -H 'Content-Type: application/json' --data-binary @set.json http://127.0.0.1:8080/v1/validate"
    )]
    Serve(serve::Args),
    #[cfg(feature = "export")]
    /// Validates documents and exports their rows to SQLite, PostgreSQL or
    /// Parquet, in one layout of tables generated from the field tables
    /// (`--describe` prints it).
    ///
    /// Exit status: as for validate: 0 when every document is valid and
    /// exported, 1 when any is invalid (with --on-invalid fail nothing is
    /// written then), 2 for usage errors, inputs that cannot be read and
    /// targets that refuse the rows (nothing is written then).
    #[command(
        after_help = "Examples:\n  cardkit export --to cards.db AllPrintings.json\n  cardkit export --to parquet:out/ --build 2024-05-17 AllPrintings.json\n  cardkit export --to postgres://localhost/cards --on-invalid skip sets/\n  cardkit export --describe"
    )]
    Export(export::Args),
    #[cfg(feature = "diff")]
    /// Diffs two builds of sets: sets, cards, tokens and sealed products
    /// added, removed and changed (every changed value by JSON Pointer),
    /// printings whose uuid or identifiers changed, drift of the fields;
    /// optionally the references between documents that the change breaks,
    /// and the Migration notices for the catalog ids that are gone.
    ///
    /// OLD and NEW are each a file or a directory (one build of all its JSON
    /// files, sets matched by code across it); standard input and pipes
    /// cannot be diffed, since each input is read twice. Invalid documents
    /// are reported as `validate` reports them.
    ///
    /// Exit status: 0 when the builds are the same, 1 when they differ, 2
    /// for usage errors, paths that cannot be read, and invalid documents
    /// (unless --on-invalid skip or keep).
    #[command(
        after_help = "Examples:\n  cardkit diff old/AllPrintings.json new/AllPrintings.json\n  cardkit diff sets-2024-05-01/ sets-2024-05-02/\n  cardkit diff --stat old/AllPrintings.json new/AllPrintings.json\n  cardkit diff --on-invalid skip --format json old/ new/ > diff.json\n  cardkit diff --format json --ignore '/cards/*/purchaseUrls' old.json new.json\n  cardkit diff --emit-migrations notices.jsonl old.json new.json"
    )]
    Diff(diff::Args),
    /// Prints the options in effect for the commands that validate, and
    /// where each comes from: a flag, the configuration file (cardkit.toml,
    /// or [tool.cardkit] in pyproject.toml, found upward from the working
    /// directory) or the default. Takes the same flags as validate.
    ///
    /// Exit status: 0, or 2 when the configuration is invalid.
    #[command(
        after_help = "Examples:\n  cardkit config\n  cardkit config --as-of v5.0.0\n  cardkit config --config ci/cardkit.toml --format json"
    )]
    Config(config::Args),
    #[cfg(feature = "design")]
    /// Converts the design tool's own files (layered templates and card
    /// designs, classic save files) to templates and card designs of the
    /// spec's shapes, and reports everything that could not be carried over
    /// at its JSON Pointer in the input.
    ///
    /// Exit status: 0 when every document is converted, 1 when one cannot be
    /// (nothing is written for it), 2 for usage errors, inputs that cannot
    /// be read and outputs that cannot be written.
    #[command(
        after_help = "Examples:\n  cardkit import template.json > template.spec.json\n  cardkit import --format json -o cards/ saved-cards.cardconjurer\n  cardkit import --push-filters --asset-root https://cards.example.org/ -o out.json template.json"
    )]
    Import(import::Args),
    #[cfg(feature = "diff")]
    /// Applies Migration notices to stored references to catalog ids (CSV,
    /// JSON and JSON Lines files, a store made by `cardkit export`), and
    /// checks notices against the two builds they are about.
    #[command(subcommand)]
    Migrate(migrate::Command),
    #[cfg(feature = "design")]
    /// Lists the layers of a template's card or of a card design, each with
    /// its JSON Pointer, type, name, tags and box: all of them, or those
    /// found by name, pattern, tag and type. The order is depth first: a
    /// layer's children, then its masks, then the layer.
    ///
    /// Exit status: 0 when a layer is found, 1 when none is, 2 when the file
    /// cannot be read or is not a template or card design in the spec's
    /// shape (`cardkit import` converts the design tool's older layout).
    #[command(
        after_help = "Examples:\n  cardkit layers card.json --name Title\n  cardkit layers template.json --tag editable --type text --format json\n  cardkit layers card.json --regex '.+le' --first"
    )]
    Layers(layers::Args),
    #[cfg(feature = "design")]
    /// Prints the image layer a variant of a template's image set makes: the
    /// set's prototype with the variant over it, the masks asked for, and
    /// the card's size where neither gives one; ready to add to a card.
    ///
    /// Exit status: 0, or 2 when the template cannot be read or the set,
    /// variant or mask is not there (the error lists those there are).
    #[command(
        after_help = "Examples:\n  cardkit expand template.json --set 1 --variant 'Right Stat Box'\n  cardkit expand template.json --set frame --variant 'Black Frame' --mask 'Right Half'"
    )]
    Expand(expand::Args),
    #[cfg(feature = "design")]
    /// Lists every asset of a template or card design: where its `src` is,
    /// what it is for (frame, mask, font, symbol, image, thumb) and where it
    /// resolves; `data:` URIs with media type, size and SHA-256. Nothing is
    /// fetched, no `src` is followed out of its root, and a `data:` URI is
    /// decoded only up to 4 MiB. --rebase writes a copy moved to another
    /// root; --check says what a local mirror lacks.
    ///
    /// Exit status: 0; 1 when an asset cannot be located or read (or, with
    /// --check, the mirror lacks one); 2 when the file cannot be read.
    #[command(
        after_help = "Examples:\n  cardkit assets template.json\n  cardkit assets template.json --root https://example.org/designs/ --format json\n  cardkit assets template.json --rebase mirror/ -o local.json\n  cardkit assets template.json --check mirror/"
    )]
    Assets(assets::Args),
    #[cfg(feature = "design")]
    /// Lists the symbols a template's texts can show: each name (in braces,
    /// any case), its set, its image, scale, spacing and vertical shift;
    /// warns of names defined twice; with --text, splits a text into runs of
    /// text, symbols, text codes and unknown codes, with byte positions.
    ///
    /// Exit status: 0; 1 when the text has a code that names nothing; 2 when
    /// the template cannot be read.
    #[command(
        after_help = "Examples:\n  cardkit symbols template.json\n  cardkit symbols template.json --text '{3}{U}{B} and {line}' --format json"
    )]
    Symbols(symbols::Args),
    #[cfg(feature = "render")]
    /// Renders card designs to SVG and PNG, offline and the same bytes on
    /// every run: assets from `data:` URIs and local files only (a missing
    /// one is reported and drawn as a placeholder box), text laid out and
    /// drawn as outlines with the template's fonts or a fallback (each
    /// substitution reported).
    ///
    /// Exit status: 0 when every card was rendered (report lines on stderr
    /// do not change it), 2 for usage errors, cards or templates that
    /// cannot be read, and cards beyond the limits.
    #[command(
        after_help = "Examples:\n  cardkit render card.json --png card.png --year 2023\n  cardkit render card.json --template template.json --assets mirror/ --svg card.svg\n  cardkit render cards/*.json -o out/ --scale 0.25 --fonts fonts/"
    )]
    Render(render::Args),
}

fn main() -> ExitCode {
    allocator::keep_large_blocks_apart();
    // Parsed through the matches, which tell a flag given on the command
    // line (it wins over the configuration file) from a default.
    let matches = command_line().try_get_matches().unwrap_or_else(|error| {
        left_out(&error);
        error.exit()
    });
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit());
    let matches = matches.subcommand().map_or(&matches, |(_, sub)| sub);
    let result = match cli.command {
        Command::Validate(mut args) => {
            let (config, _) =
                configured("validate", &mut args.validation, &mut args.running, matches);
            if let Err(why) = args.check() {
                usage_error("validate", &why);
            }
            validate::run(&args, args.discovery.walk(config.as_ref()))
        }
        Command::Dummy(args) => dummy::run(&args),
        #[cfg(feature = "design")]
        Command::Import(args) => match args.options() {
            Ok(options) => import::run(&args, &options),
            Err(why) => usage_error("import", &why),
        },
        Command::Completions(args) => generate::completions(&args, command_line()),
        Command::Man => generate::man(command_line()),
        Command::Fields(args) => fields::run(&args),
        Command::Explain(args) => match args.subject() {
            Ok(subject) => explain::run(&args, subject),
            Err(why) => usage_error("explain", &why),
        },
        Command::Schema(args) => schema::run(&args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(&args),
        #[cfg(feature = "diff")]
        Command::Diff(mut args) => {
            let (config, _) = configured("diff", &mut args.validation, &mut args.running, matches);
            if let Err(why) = args.check() {
                usage_error("diff", &why);
            }
            diff::run(&args, args.discovery.walk(config.as_ref()))
        }
        Command::Config(mut args) => {
            let (config, origins) =
                configured("config", &mut args.validation, &mut args.running, matches);
            if let Err(why) = args.validation.settings().check(Surface::CommandLine) {
                usage_error("config", &why);
            }
            config::run(&args, config.as_ref(), &origins)
        }
        #[cfg(feature = "diff")]
        Command::Migrate(command) => {
            if let Err(why) = command.check() {
                usage_error("migrate", &why);
            }
            let config = config_file("migrate", command.file());
            migrate::run(&command, &command.discovery().walk(config.as_ref()))
        }
        #[cfg(feature = "design")]
        Command::Layers(args) => layers::run(&args),
        #[cfg(feature = "design")]
        Command::Expand(args) => expand::run(&args),
        #[cfg(feature = "design")]
        Command::Assets(args) => assets::run(&args),
        #[cfg(feature = "design")]
        Command::Symbols(args) => symbols::run(&args),
        #[cfg(feature = "render")]
        Command::Render(args) => {
            if let Err(why) = args.check() {
                usage_error("render", &why);
            }
            let config = config_file("render", &args.config);
            render::run(&args, config.as_ref())
        }
        #[cfg(feature = "export")]
        Command::Export(mut args) => {
            let (config, _) =
                configured("export", &mut args.validation, &mut args.running, matches);
            if let Err(why) = args.check() {
                usage_error("export", &why);
            }
            export::run(&args, &args.discovery.walk(config.as_ref()))
        }
    };
    match result {
        Ok(status) => ExitCode::from(status),
        // A closed pipe (`cardkit fields set | head`) is not an error.
        // `validate` keeps going without writing, for its exit status.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("cardkit: {error}");
            ExitCode::from(ExitStatus::Error)
        }
    }
}

/// Lays the configuration file under the flags given (see
/// [`options::configure`]); an invalid configuration ends the run with
/// status 2, naming the file, the line and the key.
fn configured(
    subcommand: &str,
    validation: &mut Validation,
    running: &mut Running,
    matches: &ArgMatches,
) -> (Option<cardkit_run::config::Config>, Origins) {
    options::configure(validation, running, matches)
        .unwrap_or_else(|error| config_error(subcommand, &error))
}

/// The configuration file of a command that has no validation options
/// (`migrate apply` reads its `exclude` globs, `render` its `[fonts]`);
/// exits on an invalid one.
#[cfg(any(feature = "diff", feature = "render"))]
fn config_file(
    subcommand: &str,
    file: &options::ConfigFile,
) -> Option<cardkit_run::config::Config> {
    file.read()
        .unwrap_or_else(|error| config_error(subcommand, &error))
}

/// Exits on a configuration file that is invalid or cannot be read.
fn config_error(subcommand: &str, error: &cardkit_run::config::ConfigError) -> ! {
    let _ = writeln!(io::stderr(), "cardkit {subcommand}: error: {error}");
    std::process::exit(ExitStatus::Error.code().into());
}

/// Exits with a usage error of a subcommand, as clap does for its own
/// (`error: …`, the subcommand's usage, status 2).
fn usage_error(subcommand: &str, why: &str) -> ! {
    let mut cli = command_line();
    cli.build();
    match cli.find_subcommand_mut(subcommand) {
        Some(command) => command.error(ErrorKind::ArgumentConflict, why).exit(),
        None => cli.error(ErrorKind::ArgumentConflict, why).exit(),
    }
}

/// The commands this build leaves out, each with the cargo feature that
/// builds it (all of them are default features).
fn left_out_commands() -> Vec<(&'static str, &'static str)> {
    let mut commands = Vec::new();
    if !cfg!(feature = "design") {
        for command in ["import", "layers", "expand", "assets", "symbols"] {
            commands.push((command, "design"));
        }
    }
    if !cfg!(feature = "render") {
        commands.push(("render", "render"));
    }
    if !cfg!(feature = "export") {
        commands.push(("export", "export"));
    }
    if !cfg!(feature = "diff") {
        commands.extend([("diff", "diff"), ("migrate", "diff")]);
    }
    if !cfg!(feature = "serve") {
        commands.push(("serve", "serve"));
    }
    commands
}

/// The command line, with the commands this build leaves out named after
/// the help's examples, by the feature that builds them.
fn command_line() -> clap::Command {
    let command = Cli::command();
    let left_out = left_out_commands();
    if left_out.is_empty() {
        return command;
    }
    let mut features: Vec<(&str, Vec<&str>)> = Vec::new();
    for (name, feature) in left_out {
        match features.iter_mut().find(|(f, _)| *f == feature) {
            Some((_, names)) => names.push(name),
            None => features.push((feature, vec![name])),
        }
    }
    let lines: String = features
        .iter()
        .map(|(feature, names)| format!("\n  {feature}: {}", names.join(", ")))
        .collect();
    let help = command
        .get_after_help()
        .map(|help| format!("{help}\n\n"))
        .unwrap_or_default();
    command.after_help(format!(
        "{help}Left out of this build, by the cargo feature that builds them (all are default \
         features):{lines}"
    ))
}

/// Ends the run with a clear error when the subcommand given is one this
/// build leaves out, naming the feature that builds it; any other error is
/// clap's.
fn left_out(error: &clap::Error) {
    if error.kind() != ErrorKind::InvalidSubcommand {
        return;
    }
    let Some(ContextValue::String(name)) = error.get(ContextKind::InvalidSubcommand) else {
        return;
    };
    if let Some((_, feature)) = left_out_commands()
        .into_iter()
        .find(|(command, _)| command == name)
    {
        let _ = writeln!(
            io::stderr(),
            "error: `cardkit {name}` is not in this build of cardkit: it is built with the cargo \
             feature `{feature}`, a default feature (`cargo install --path . --features {feature}`, \
             or a build without --no-default-features)"
        );
        std::process::exit(ExitStatus::Error.code().into());
    }
}
