//! `cardkit layers FILE`: the layers of a template's card or of a card design
//! found by name, pattern, tag and type, each with its JSON Pointer; the
//! queries are the library's (`cardkit_design::layers`).

use std::io::{self, Write};
use std::path::PathBuf;

use cardkit::model::Tag;
use cardkit_design::layers::{parse_tag, HitSummary, LayerQueries, LayerType};
use cardkit_design::source::Design;
use cardkit_run::render::Text;
use cardkit_run::ExitStatus;
use regex::Regex;
use serde_json::json;

use crate::design_file::Reading;
use crate::output::ListingFormat;

#[derive(clap::Args)]
pub struct Args {
    /// The template or card design (`-`: standard input): in the spec's
    /// shape, or a file of the design tool's own, converted in memory as
    /// `cardkit import` converts it. Example: cardkit layers card.json
    #[arg(value_name = "FILE")]
    file: PathBuf,

    #[command(flatten)]
    reading: Reading,

    /// Only layers named exactly this (case-sensitive). Example: --name Title
    #[arg(long, value_name = "TEXT", conflicts_with = "regex")]
    name: Option<String>,

    /// Only layers whose name matches this regular expression from its first
    /// character (it may end before the name does). Example: --regex '.+le'
    #[arg(long, value_name = "RE", value_parser = Regex::new)]
    regex: Option<Regex>,

    /// Only layers with this tag: editable, draggable, new-image-group,
    /// new-text-group or name. Example: --tag editable
    #[arg(long, value_name = "T", value_parser = parse_tag)]
    tag: Option<Tag>,

    /// Only layers of this type: group, image or text (a mask is an image).
    /// Example: --type text
    #[arg(long = "type", value_name = "TYPE", value_parser = str::parse::<LayerType>)]
    kind: Option<LayerType>,

    /// Only the first layer found. Example: --first
    #[arg(long)]
    first: bool,

    /// The output format: `text` (one line per layer) or `json` (an array of
    /// objects). Example: --format json
    #[arg(long, value_enum, default_value_t = ListingFormat::Text)]
    format: ListingFormat,
}

/// Lists the layers found: exit status 0 when some are, 1 when none is (as
/// `grep` does), 2 when the file cannot be read. A file of several designs
/// (a classic save file) lists each design's, under its name.
pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let Some((_, designs)) = crate::design_file::read("layers", &args.file, &args.reading) else {
        return Ok(ExitStatus::Error);
    };
    let several = designs.len() > 1;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut listed = Vec::new();
    let mut found = 0;
    for named in &designs {
        let hits = hits(args, &named.design);
        found += hits.len();
        match args.format {
            ListingFormat::Json if several => listed.push(json!({
                "name": named.name,
                "pointer": named.pointer,
                "layers": hits,
            })),
            ListingFormat::Json => serde_json::to_writer_pretty(&mut out, &hits)?,
            ListingFormat::Text => {
                if several {
                    writeln!(out, "{} ({}):", named.name, named.pointer)?;
                }
                write_text(&mut out, &hits, named.design.kind())?;
            }
        }
    }
    if let ListingFormat::Json = args.format {
        if several {
            serde_json::to_writer_pretty(&mut out, &listed)?;
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(if found == 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// The layers of `design` the arguments ask for.
fn hits(args: &Args, design: &Design) -> Vec<HitSummary> {
    let mut query = design.layers();
    if let Some(name) = &args.name {
        query = query.named(name.as_str());
    }
    if let Some(pattern) = &args.regex {
        query = query.matching(pattern);
    }
    if let Some(tag) = args.tag {
        query = query.tagged(tag);
    }
    if let Some(kind) = args.kind {
        query = query.of_type(kind);
    }
    if args.first {
        query.first().iter().map(HitSummary::from).collect()
    } else {
        query.iter().map(|hit| HitSummary::from(&hit)).collect()
    }
}

/// One line per layer, in aligned columns: pointer, type (`mask` for a mask
/// of an image), name, tags, box; then how many were found.
fn write_text(out: &mut impl Write, hits: &[HitSummary], kind: &str) -> io::Result<()> {
    let rows: Vec<[String; 5]> = hits
        .iter()
        .map(|hit| {
            let name = hit.name.as_ref().map_or_else(
                || "-".to_owned(),
                |name| format!("\"{}\"", Text::escape(name)),
            );
            let tags = if hit.tags.is_empty() {
                "-".to_owned()
            } else {
                hit.tags.join(",")
            };
            let b = hit.layer_box;
            let layer_box: Vec<String> = [
                ("x", b.x),
                ("y", b.y),
                ("w", b.width),
                ("h", b.height),
                ("z", b.z),
            ]
            .into_iter()
            .filter_map(|(label, value)| Some(format!("{label}={}", value?)))
            .collect();
            let kind = if hit.mask { "mask" } else { hit.kind.as_str() };
            [
                hit.pointer.clone(),
                kind.to_owned(),
                name,
                tags,
                layer_box.join(" "),
            ]
        })
        .collect();
    cardkit_run::table::write_aligned(out, &rows)?;
    let noun = if hits.len() == 1 { "layer" } else { "layers" };
    writeln!(out, "{} {noun} found in the {kind}", hits.len())
}
