//! `cardkit assets FILE`: the manifest of a template's or card design's
//! assets, a copy moved to another asset root (`--rebase`), or what a local
//! mirror lacks (`--check`). The manifest, the rebase and the check are the
//! library's (`cardkit_design::assets`); nothing is fetched.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cardkit_design::assets::manifest::{check, manifest, Entry, Missing};
use cardkit_design::assets::rebase::rebase;
use cardkit_design::assets::{Resolver, Root};
use cardkit_design::file::{DesignFile, FileError};
use cardkit_design::source::Design;
use cardkit_run::render::Text;
use cardkit_run::table::{push_padded, PADDED_WIDTH};
use cardkit_run::ExitStatus;
use serde_json::json;

use crate::design_file::error;
use crate::output::ListingFormat;

#[derive(clap::Args)]
pub struct Args {
    /// The template or card design, in the spec's shape (`-`: standard
    /// input). Example: cardkit assets template.json
    #[arg(value_name = "FILE")]
    file: PathBuf,

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
    let unusable = |why: FileError| Failure::Message(why.to_string());
    let input = DesignFile::read(&args.file).map_err(unusable)?;
    let design = input.design().map_err(unusable)?;
    let bytes = input.bytes();
    let file = input.on_disk();
    let root = match &args.root {
        Some(root) => Some(Root::parse(root)),
        None => {
            let asset_root_url = match &design {
                Design::Template(template) => &template.asset_root_url,
                Design::Card(card) => &card.asset_root_url,
            };
            Root::of_design(asset_root_url, file)
        }
    };
    // Only its root was needed: the manifest reads the file's text.
    drop(design);
    let resolver = Resolver::new(root.clone());
    let mut out = io::BufWriter::new(io::stdout().lock());

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
                serde_json::to_writer_pretty(&mut out, &json!({"output": output, "edits": edits}))?;
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
        out.flush()?;
        return Ok(ExitStatus::Success);
    }

    let entries = manifest(bytes, &resolver)
        .map_err(|why| Failure::Message(format!("{}: {why}", args.file.display())))?;
    if let Some(dir) = &args.check {
        let missing = check(&entries, &resolver, dir);
        match args.format {
            ListingFormat::Json => {
                serde_json::to_writer_pretty(
                    &mut out,
                    &json!({"mirror": dir, "assets": entries.len(), "missing": missing}),
                )?;
                writeln!(out)?;
            }
            ListingFormat::Text => write_missing(&mut out, &missing, entries.len(), dir)?,
        }
        out.flush()?;
        return Ok(if missing.is_empty() {
            ExitStatus::Success
        } else {
            ExitStatus::Failure
        });
    }

    match args.format {
        ListingFormat::Json => {
            let root = root.as_ref().map(ToString::to_string);
            serde_json::to_writer_pretty(&mut out, &json!({"root": root, "assets": entries}))?;
            writeln!(out)?;
        }
        ListingFormat::Text => write_manifest(&mut out, &entries, root.as_ref())?,
    }
    out.flush()?;
    let troubled = entries.iter().any(|entry| entry.problem.is_some());
    Ok(if troubled {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
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
