//! `cardkit config`: the options in effect (flags over the configuration
//! file over the defaults) and where each came from.

use std::io::{self, Write};

use cardkit::Severity;
use cardkit_run::config::Config;
use serde_json::{json, Value};

use cardkit_run::{ExitStatus, DEFAULT_EXCLUDE};

use crate::options::{Discovery, Origins, Running, Validation};
use crate::output::ListingFormat;

#[derive(clap::Args)]
pub struct Args {
    /// The output: `text` (a line per option) or `json`.
    /// Example: --format json
    #[arg(long, value_enum, default_value_t = ListingFormat::Text)]
    format: ListingFormat,

    #[command(flatten)]
    pub validation: Validation,

    #[command(flatten)]
    pub discovery: Discovery,

    #[command(flatten)]
    pub running: Running,
}

pub fn run(args: &Args, config: Option<&Config>, origins: &Origins) -> io::Result<ExitStatus> {
    let settings = args.validation.settings();
    let list = |entries: Option<&Vec<String>>| json!(entries.cloned().unwrap_or_default());
    let value = |key: &str| -> Value {
        match key {
            "kind" => json!(settings.kind.map_or("auto", |k| k.as_str())),
            "as-of" => match settings.as_of {
                _ if settings.as_of_auto => json!("auto"),
                Some(version) => json!(version.to_string()),
                None => json!("latest"),
            },
            "strict" => json!(args.validation.strict),
            "names" => json!(settings.names.name()),
            "strict-version" => json!(settings.strict_version),
            "deny-unknown-fields" => json!(settings.deny_unknown_fields),
            "references" => match settings.references {
                Some(Severity::Error) => json!("error"),
                Some(Severity::Warning) => json!(true),
                None => json!(false),
            },
            "warn" => json!(if settings.warn_deprecated {
                vec!["deprecated"]
            } else {
                Vec::new()
            }),
            "warning-limit" => json!(settings.warning_limit),
            "error-limit" => json!(settings.error_limit),
            "jobs" => json!(args.running.jobs()),
            "color" => json!(args.running.color),
            "ignore" => list(config.and_then(|c| c.ignore.as_ref()).map(|e| &e.value)),
            "extend-allowed" => list(
                config
                    .and_then(|c| c.extend_allowed.as_ref())
                    .map(|e| &e.value),
            ),
            "exclude" => match config.and_then(|c| c.exclude.as_ref()) {
                Some(entry) => json!(entry.value),
                None => json!(DEFAULT_EXCLUDE),
            },
            // `--exclude` adds to the file's list.
            "extend-exclude" => {
                let file = config.and_then(|c| c.extend_exclude.as_ref());
                let globs = file.iter().flat_map(|e| &e.value);
                json!(globs.chain(&args.discovery.exclude).collect::<Vec<_>>())
            }
            "fonts" => {
                let fonts = config.and_then(|c| c.fonts.as_ref());
                let pairs = fonts.iter().flat_map(|e| &e.value);
                Value::Object(
                    pairs
                        .map(|(name, file)| (name.clone(), json!(file.display().to_string())))
                        .collect(),
                )
            }
            _ => Value::Null,
        }
    };
    let file = config.map(|c| c.path.display().to_string());
    let mut out = io::stdout().lock();
    match args.format {
        ListingFormat::Json => {
            let options: Vec<Value> = origins
                .iter()
                .map(|(key, from)| json!({"key": key, "value": value(key), "from": from}))
                .collect();
            serde_json::to_writer_pretty(&mut out, &json!({"file": file, "options": options}))?;
            writeln!(out)?;
        }
        ListingFormat::Text => {
            match &file {
                Some(file) => writeln!(out, "configuration: {file}")?,
                None => writeln!(
                    out,
                    "configuration: none found (the flags and the defaults)"
                )?,
            }
            let shown: Vec<(&str, String, &str)> = origins
                .iter()
                .map(|(key, from)| {
                    let shown = match value(key) {
                        Value::Null => "none".to_owned(),
                        Value::String(text) => text,
                        // As TOML writes an array.
                        Value::Array(items) => format!(
                            "[{}]",
                            items
                                .iter()
                                .map(Value::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        // As TOML writes an inline table.
                        Value::Object(pairs) => format!(
                            "{{{}}}",
                            pairs
                                .iter()
                                .map(|(name, file)| format!("{name} = {file}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        other => other.to_string(),
                    };
                    (*key, shown, from.as_str())
                })
                .collect();
            // A long list (the default `exclude`) runs past the column
            // rather than push every other line's origin out.
            let width = shown
                .iter()
                .map(|(_, v, _)| v.chars().count())
                .filter(|&n| n <= VALUE_COLUMN)
                .max();
            for (key, shown, from) in &shown {
                writeln!(
                    out,
                    "{key:<19}  {shown:<width$}  {from}",
                    width = width.unwrap_or(0)
                )?;
            }
        }
    }
    Ok(ExitStatus::Success)
}

/// The widest value the text listing lines up the origins after.
const VALUE_COLUMN: usize = 48;
