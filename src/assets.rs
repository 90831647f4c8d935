//! `cardkit assets FILE`: the manifest of a template's or card design's
//! assets, a copy moved to another asset root (`--rebase`), or what a local
//! mirror lacks (`--check`). The manifest, the rebase and the check are the
//! library's (`cardkit_design::assets`); nothing is fetched.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cardkit_design::assets::manifest::{check, manifest, Entry, Missing};
use cardkit_design::assets::rebase::rebase;
use cardkit_design::assets::{Resolver, Root};
use cardkit_design::designs::Named;
use cardkit_design::file::DesignFile;
use cardkit_design::source::Design;
use cardkit_run::render::Text;
use cardkit_run::table::{push_padded, PADDED_WIDTH};
use cardkit_run::ExitStatus;
use serde_json::json;

use crate::design_file::{error, Reading};
use crate::output::ListingFormat;

#[derive(clap::Args)]
pub struct Args {
    /// The template or card design (`-`: standard input): in the spec's
    /// shape, or a file of the design tool's own, converted in memory as
    /// `cardkit import` converts it (the pointers are then the converted
    /// document's, and --rebase writes that document). Example: cardkit
    /// assets template.json
    #[arg(value_name = "FILE")]
    file: PathBuf,

    #[command(flatten)]
    reading: Reading,

    /// The asset root relative paths are resolved against: a URL or a local
    /// folder (default: the file's `asset_root_url`, else its folder).
    /// Example: --root https://example.org/designs/
    #[arg(long, value_name = "URL|DIR")]
    root: Option<String>,

    /// Writes a copy of the file moved to this root (with -o): its
    /// `asset_root_url` set, absolute URLs under the old root moved under
    /// the new one; every other byte kept. Example: --rebase mirror/ -o local.json
    #[arg(
        long,
        value_name = "NEW_ROOT",
        requires = "output",
        conflicts_with = "check"
    )]
    rebase: Option<String>,

    /// Where --rebase writes the copy (never the input itself).
    #[arg(short = 'o', long = "output", value_name = "OUT", requires = "rebase")]
    output: Option<PathBuf>,

    /// Lets -o replace a file already there (never the input); without it,
    /// an existing file is an error.
    #[arg(long, requires = "output")]
    force: bool,

    /// Says which assets a local mirror of the asset root lacks, offline:
    /// exit status 1 when any does. Example: --check mirror/
    #[arg(long, value_name = "DIR")]
    check: Option<PathBuf>,

    /// The output format: `text` or `json`. Example: --format json
    #[arg(long, value_enum, default_value_t = ListingFormat::Text)]
    format: ListingFormat,
}

/// Exit status: 0; 1 when an asset cannot be located or its data read (or,
/// with --check, when the mirror lacks one); 2 when the file cannot be read
/// or written.
pub fn run(args: &Args) -> io::Result<ExitStatus> {
    match run_checked(args) {
        Ok(status) => Ok(status),
        Err(Failure::Io(error)) => Err(error),
        Err(Failure::Message(message)) => {
            error("assets", &message);
            Ok(ExitStatus::Error)
        }
    }
}

enum Failure {
    Io(io::Error),
    Message(String),
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Failure::Io(error)
    }
}

impl From<serde_json::Error> for Failure {
    fn from(error: serde_json::Error) -> Self {
        Failure::Io(error.into())
    }
}

fn run_checked(args: &Args) -> Result<ExitStatus, Failure> {
    let read = if args.rebase.is_some() {
        crate::design_file::read_one("assets", &args.file, &args.reading)
            .map(|(input, named)| (input, vec![named]))
    } else {
        crate::design_file::read("assets", &args.file, &args.reading)
    };
    let Some((input, designs)) = read else {
        return Ok(ExitStatus::Error);
    };
    let several = designs.len() > 1;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut status = ExitStatus::Success;
    let mut listed = Vec::new();
    for named in designs {
        let (done, json) = one_design(args, &input, named, several, &mut out)?;
        listed.extend(json);
        if done != ExitStatus::Success {
            status = done;
        }
    }
    if several && matches!(args.format, ListingFormat::Json) {
        serde_json::to_writer_pretty(&mut out, &listed)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(status)
}

/// The manifest, the rebase or the check of one design of the file; for a
/// file of several, each is headed by its name in text, and its JSON given
/// back to be listed with the others'.
fn one_design(
    args: &Args,
    input: &DesignFile,
    named: Named,
    several: bool,
    out: &mut impl Write,
) -> Result<(ExitStatus, Option<serde_json::Value>), Failure> {
    let bytes = named.json.as_deref().map_or(input.bytes(), str::as_bytes);
    let file = input.on_disk();
    let root = match &args.root {
        Some(root) => Some(Root::parse(root)),
        None => {
            let asset_root_url = match &named.design {
                Design::Template(template) => &template.asset_root_url,
                Design::Card(card) => &card.asset_root_url,
            };
            Root::of_design(asset_root_url, file)
        }
    };
    let resolver = Resolver::new(root.clone());
    let text_header = |out: &mut dyn Write| -> io::Result<()> {
        if several && matches!(args.format, ListingFormat::Text) {
            writeln!(out, "{} ({}):", named.name, named.pointer)?;
        }
        Ok(())
    };

    if let (Some(new_root), Some(output)) = (&args.rebase, &args.output) {
        let inputs: Vec<PathBuf> = file.map(Path::to_path_buf).into_iter().collect();
        let rules = cardkit_run::output::Rules {
            inputs: &inputs,
            replace: args.force,
            suffix: ".tmp",
        };
        // Refused before the rebase is worked out: the input itself (or a
        // link to it), a file already there without --force.
        cardkit_run::output::check(output, &rules)
            .map_err(|why| Failure::Message(why.to_string()))?;
        let rebased = rebase(bytes, root.as_ref(), new_root)
            .map_err(|why| Failure::Message(format!("{}: {why}", args.file.display())))?;
        cardkit_run::output::write(output, &rules, |out| {
            out.write_all(&rebased.bytes)
                .map(|()| true)
                .map_err(|why| cardkit_run::output::Refused::Io(output.clone(), why))
        })
        .map_err(|why| Failure::Message(why.to_string()))?;
        match args.format {
            ListingFormat::Json => {
                let edits: Vec<_> = rebased
                    .edits
                    .iter()
                    .map(|edit| json!({"pointer": edit.pointer, "before": edit.before, "after": edit.after}))
                    .collect();
                serde_json::to_writer_pretty(
                    &mut *out,
                    &json!({"output": output, "edits": edits}),
                )?;
                writeln!(out)?;
            }
            ListingFormat::Text => {
                for edit in &rebased.edits {
                    let before = edit.before.as_deref().map_or("(added)".to_owned(), quoted);
                    writeln!(out, "{}  {before} -> {}", edit.pointer, quoted(&edit.after))?;
                }
                let noun = if rebased.edits.len() == 1 {
                    "string"
                } else {
                    "strings"
                };
                writeln!(
                    out,
                    "{} {noun} rewritten; the rest of {} is unchanged in {}",
                    rebased.edits.len(),
                    args.file.display(),
                    output.display()
                )?;
            }
        }
        return Ok((ExitStatus::Success, None));
    }

    let entries = manifest(bytes, &resolver)
        .map_err(|why| Failure::Message(format!("{}: {why}", args.file.display())))?;
    if let Some(dir) = &args.check {
        let missing = check(&entries, &resolver, dir);
        let status = if missing.is_empty() {
            ExitStatus::Success
        } else {
            ExitStatus::Failure
        };
        let value = json!({"mirror": dir, "assets": entries.len(), "missing": missing});
        return match args.format {
            ListingFormat::Json if several => Ok((status, Some(named_json(&named, value)))),
            ListingFormat::Json => {
                serde_json::to_writer_pretty(&mut *out, &value)?;
                writeln!(out)?;
                Ok((status, None))
            }
            ListingFormat::Text => {
                text_header(out)?;
                write_missing(out, &missing, entries.len(), dir)?;
                Ok((status, None))
            }
        };
    }

    let troubled = entries.iter().any(|entry| entry.problem.is_some());
    let status = if troubled {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    };
    match args.format {
        ListingFormat::Json => {
            let shown = root.as_ref().map(ToString::to_string);
            let value = json!({"root": shown, "assets": entries});
            if several {
                return Ok((status, Some(named_json(&named, value))));
            }
            serde_json::to_writer_pretty(&mut *out, &value)?;
            writeln!(out)?;
        }
        ListingFormat::Text => {
            text_header(out)?;
            write_manifest(out, &entries, root.as_ref())?;
        }
    }
    Ok((status, None))
}

/// The JSON of one design of a file of several: its name and pointer, then
/// what a file of one design gives.
fn named_json(named: &Named, value: serde_json::Value) -> serde_json::Value {
    let mut listed = json!({"name": named.name, "pointer": named.pointer});
    if let (serde_json::Value::Object(listed), serde_json::Value::Object(value)) =
        (&mut listed, value)
    {
        listed.extend(value);
    }
    listed
}

/// A string as the text output shows it: quoted, escaped, a `data:` URI cut
/// after its header.
fn quoted(text: &str) -> String {
    let shown = match text.find(',') {
        Some(comma) if text.starts_with("data:") && text.len() > comma + 1 => {
            format!("{},…", &text[..comma])
        }
        _ => text.to_owned(),
    };
    format!("\"{}\"", Text::escape(&shown))
}

/// One line per asset: pointer, role, `src`, where it is; a `data:` URI's
/// media type, size and SHA-256; a problem after `!`.
fn write_manifest(out: &mut impl Write, entries: &[Entry], root: Option<&Root>) -> io::Result<()> {
    match root {
        Some(root) => writeln!(out, "root: {}", Text::escape(&root.to_string()))?,
        None => writeln!(out, "root: none")?,
    }
    let shown_src = |entry: &Entry| quoted(entry.joined.as_deref().unwrap_or(&entry.src));
    let padded = |count: usize| Some(count).filter(|&n| n <= PADDED_WIDTH);
    let pointer_width = entries
        .iter()
        .filter_map(|e| padded(e.pointer.chars().count()))
        .max()
        .unwrap_or(0);
    let src_width = entries
        .iter()
        .filter_map(|e| padded(shown_src(e).chars().count()))
        .max()
        .unwrap_or(0);
    let mut counts = [0usize; 4];
    for entry in entries {
        let src = shown_src(entry);
        let mut line = String::new();
        push_padded(&mut line, &entry.pointer, pointer_width);
        line.push_str(&format!("  {:6}  ", entry.role.as_str()));
        push_padded(&mut line, &src, src_width);
        match (&entry.data, &entry.location) {
            (Some(data), _) => {
                line.push_str(&format!("  {} {} bytes", data.media_type, data.size));
                if let Some(sha) = &data.sha256 {
                    line.push_str(&format!(" sha256:{sha}"));
                }
            }
            (None, Some(location)) => line.push_str(&format!("  -> {}", Text::escape(location))),
            (None, None) if entry.kind == Some("empty") => line.push_str("  (empty: no asset)"),
            (None, None) => {}
        }
        if let Some(problem) = &entry.problem {
            line.push_str(&format!("  ! {}", Text::escape(problem)));
            counts[3] += 1;
        }
        match entry.kind {
            Some("file") => counts[0] += 1,
            Some("remote") => counts[1] += 1,
            Some("data") => counts[2] += 1,
            _ => {}
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(
        out,
        "{} assets: {} local, {} remote, {} inline; {} with a problem",
        entries.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    )
}

fn write_missing(
    out: &mut impl Write,
    missing: &[Missing],
    total: usize,
    dir: &Path,
) -> io::Result<()> {
    for asset in missing {
        writeln!(
            out,
            "{}  {}  ! {}",
            asset.pointer,
            quoted(&asset.src),
            Text::escape(&asset.why)
        )?;
    }
    writeln!(
        out,
        "{} of {total} assets missing from {}",
        missing.len(),
        dir.display()
    )
}
