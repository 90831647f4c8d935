//! `cardkit render`: card designs drawn to SVG and PNG by `cardkit_render`,
//! offline; what could not be drawn as designed is reported on stderr.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cardkit::model::{Card, Template};
use cardkit_design::assets::Root;
use cardkit_render::{render, Options};
use cardkit_run::ExitStatus;

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("output").required(true).multiple(true).args(["svg", "png", "out_dir"])))]
pub struct Args {
    /// Card designs to render (a template renders its own card with its own
    /// fonts and symbols). Example: cardkit render card.json --png card.png
    #[arg(value_name = "CARD", required = true)]
    cards: Vec<PathBuf>,

    /// The template whose fonts and symbol sets the cards use.
    #[arg(long, value_name = "T")]
    template: Option<PathBuf>,

    /// The local directory assets are read from (the asset root, or a
    /// mirror of it). Nothing is ever fetched from the network.
    #[arg(long, value_name = "DIR")]
    assets: Option<PathBuf>,

    /// The URL of the asset root: sources under it are read from --assets
    /// (default: the card's or the template's asset_root_url).
    #[arg(long, value_name = "URL")]
    root: Option<String>,

    /// Writes the SVG here (one card only).
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,

    /// Writes the PNG here (one card only).
    #[arg(long, value_name = "OUT.png")]
    png: Option<PathBuf>,

    /// Writes NAME.svg and NAME.png of each card into this directory.
    #[arg(short = 'o', long = "out-dir", value_name = "DIR", conflicts_with_all = ["svg", "png"])]
    out_dir: Option<PathBuf>,

    /// Output pixels per card pixel. Example: --scale 0.25
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    scale: f32,

    /// Draws the margins around the card too, corners square.
    #[arg(long)]
    bleed: bool,

    /// The year `{year}` stands for (default: the current year).
    #[arg(long, value_name = "N")]
    year: Option<i32>,

    /// A directory of the template's font files (looked for by their src,
    /// then by file name).
    #[arg(long, value_name = "DIR")]
    fonts: Option<PathBuf>,
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    if args.cards.len() > 1 && (args.svg.is_some() || args.png.is_some()) {
        crate::usage_error(
            "render",
            "--svg and --png take one card; use -o DIR for several",
        );
    }
    let mut stderr = io::stderr().lock();
    let template = match &args.template {
        None => None,
        Some(path) => match read_template(path) {
            Ok(template) => Some(template),
            Err(why) => {
                writeln!(stderr, "cardkit render: {}: {why}", path.display())?;
                return Ok(ExitStatus::Failed);
            }
        },
    };
    let options = Options {
        scale: args.scale,
        bleed: args.bleed,
        year: args.year,
        assets: args.assets.clone(),
        root: args.root.clone(),
        fonts: args.fonts.clone(),
        ..Options::default()
    };
    let mut status = ExitStatus::Valid;
    for path in &args.cards {
        if let Err(why) = render_one(path, template.as_ref(), &options, args, &mut stderr) {
            writeln!(stderr, "cardkit render: {}: {why}", path.display())?;
            status = ExitStatus::Failed;
        }
    }
    Ok(status)
}

fn render_one(
    path: &Path,
    template: Option<&Template>,
    options: &Options,
    args: &Args,
    stderr: &mut impl Write,
) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot be read: {e}"))?;
    let (card, own) = read_card(&bytes)?;
    let template = template.or(own.as_ref());
    // With no asset root at all, the card's own folder is its root.
    let own_folder;
    let mut options = options;
    let no_root = options.assets.is_none()
        && options.root.is_none()
        && card.asset_root_url.is_empty()
        && template.is_none_or(|t| t.asset_root_url.is_empty());
    if no_root {
        if let Some(Root::Dir(dir)) = Root::of_design("", Some(path)) {
            own_folder = Options {
                assets: Some(dir),
                ..options.clone()
            };
            options = &own_folder;
        }
    }
    let rendered = render(&card, template, options).map_err(|e| e.to_string())?;
    for line in rendered.report() {
        writeln!(stderr, "cardkit render: {}: {line}", path.display())
            .map_err(|e| e.to_string())?;
    }
    let (svg, png) = match &args.out_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let stem = path
                .file_stem()
                .map_or_else(|| "card".into(), |s| s.to_string_lossy().into_owned());
            (
                Some(dir.join(format!("{stem}.svg"))),
                Some(dir.join(format!("{stem}.png"))),
            )
        }
        None => (args.svg.clone(), args.png.clone()),
    };
    // The PNG is made before anything is written, and each file is written
    // beside its place and then renamed: a render that fails leaves no
    // output of its own behind, and no half-written file.
    let png_bytes = match &png {
        Some(_) => Some(rendered.png().map_err(|e| e.to_string())?),
        None => None,
    };
    let mut written = Vec::new();
    let outputs = [
        svg.map(|out| (out, rendered.svg().as_bytes())),
        png.zip(png_bytes.as_deref()),
    ];
    for (out, bytes) in outputs.into_iter().flatten() {
        if let Err(why) = write_beside_then_rename(&out, bytes) {
            for done in &written {
                let _ = std::fs::remove_file(done);
            }
            return Err(format!("{}: {why}", out.display()));
        }
        written.push(out);
    }
    Ok(())
}

/// Writes `bytes` to a file beside `out`, then renames it to `out`.
fn write_beside_then_rename(out: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut partial = out.as_os_str().to_owned();
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = PathBuf::from(partial);
    let result = std::fs::write(&partial, bytes).and_then(|()| std::fs::rename(&partial, out));
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    result
}

/// A card, or a template's card with the template.
fn read_card(bytes: &[u8]) -> Result<(Card, Option<Template>), String> {
    match cardkit::from_slice::<Card>(bytes) {
        Ok(card) => Ok((card, None)),
        Err(as_card) => match cardkit::from_slice::<Template>(bytes) {
            Ok(template) => Ok((template.card.clone(), Some(template))),
            Err(_) => Err(format!("not a card design: {as_card}")),
        },
    }
}

fn read_template(path: &Path) -> Result<Template, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot be read: {e}"))?;
    cardkit::from_slice::<Template>(&bytes).map_err(|e| format!("not a template: {e}"))
}
