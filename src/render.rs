//! `cardkit render`: card designs drawn to SVG and PNG by `cardkit_render`,
//! offline; what could not be drawn as designed is reported on stderr.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cardkit::model::Template;
use cardkit_design::assets::Root;
use cardkit_design::designs::Named;
use cardkit_design::file::DesignFile;
use cardkit_design::source::Design;
use cardkit_render::{render, NamedFont, Options, MAX_FONT_BYTES};
use cardkit_run::config::Config;
use cardkit_run::ExitStatus;

use crate::options::ConfigFile;

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("output").required(true).multiple(true).args(["svg", "png", "out_dir"])))]
pub struct Args {
    /// Card designs to render (a template renders its own card with its own
    /// fonts and symbols; `-`: standard input). The design tool's own files
    /// are converted in memory as `cardkit import` converts them; of a
    /// classic save file, -o DIR renders every card, named as `cardkit
    /// import -o DIR` names them, and --card NAME one.
    /// Example: cardkit render card.json --png card.png
    #[arg(value_name = "CARD", required = true)]
    cards: Vec<PathBuf>,

    /// The template whose fonts and symbol sets the cards use (`-`:
    /// standard input); one in the design tool's older layered layout is
    /// converted in memory as `cardkit import` converts it.
    #[arg(long, value_name = "T")]
    template: Option<PathBuf>,

    #[command(flatten)]
    reading: crate::design_file::Reading,

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

    /// Draws the face NAME (as the template's text layers name it, in any
    /// case) from FILE, a .ttf or .otf (repeatable); it wins over the
    /// configuration's `[fonts]` for the same name.
    /// Example: --font Quango=fonts/Quango.otf
    #[arg(long = "font", value_name = "NAME=FILE", value_parser = font_pair)]
    font: Vec<(String, PathBuf)>,

    #[command(flatten)]
    pub config: ConfigFile,

    /// Replaces files already at the outputs (never an input of the run);
    /// without it, an output that exists is an error and nothing is written.
    #[arg(long)]
    force: bool,
}

impl Args {
    /// What the arguments ask that cannot be done, beyond what clap checks.
    pub fn check(&self) -> Result<(), String> {
        if self.cards.len() > 1 && (self.svg.is_some() || self.png.is_some()) {
            return Err("--svg and --png take one card; use -o DIR for several".into());
        }
        // A folder that is not there is a mistyped path, not a design
        // without assets or fonts: every asset would be a placeholder.
        for (flag, dir) in [("--assets", &self.assets), ("--fonts", &self.fonts)] {
            if let Some(dir) = dir {
                crate::options::existing_dir(flag, dir)?;
            }
        }
        crate::options::check_paths(self.cards.iter().chain(&self.template))
    }
}

/// Renders the cards of `args`, with the faces `config` names.
pub fn run(args: &Args, config: Option<&Config>) -> io::Result<ExitStatus> {
    let mut stderr = io::stderr().lock();
    let template = match &args.template {
        None => None,
        Some(path) => match read_template(path, args) {
            Ok(template) => Some(template),
            Err(why) => {
                writeln!(stderr, "cardkit render: {why}")?;
                return Ok(ExitStatus::Error);
            }
        },
    };
    let named_fonts = match named_fonts(args, config) {
        Ok(fonts) => fonts,
        Err(why) => {
            writeln!(stderr, "cardkit render: {why}")?;
            return Ok(ExitStatus::Error);
        }
    };
    let options = Options {
        named_fonts,
        scale: args.scale,
        bleed: args.bleed,
        year: args.year,
        assets: args.assets.clone(),
        root: args.root.clone(),
        fonts: args.fonts.clone(),
        ..Options::default()
    };
    // Every card is read, and every output known and refused, before
    // anything is rendered. A file that cannot be read says its name itself.
    let mut status = ExitStatus::Success;
    let mut cards = Vec::new();
    for path in &args.cards {
        match read_cards(path, args) {
            Ok(read) => cards.push((path, read)),
            Err(why) => {
                writeln!(stderr, "cardkit render: {why}")?;
                status = ExitStatus::Error;
            }
        }
    }
    let planned = match plan(args, &cards) {
        Ok(planned) => planned,
        Err(why) => {
            writeln!(stderr, "cardkit render: {why}")?;
            return Ok(ExitStatus::Error);
        }
    };
    let designs = cards
        .iter()
        .flat_map(|(path, (input, designs))| designs.iter().map(move |named| (path, input, named)));
    for ((path, input, named), outputs) in designs.zip(&planned) {
        let rendered = render_one(
            input,
            &named.design,
            template.as_ref(),
            &options,
            (outputs, args),
            &mut stderr,
        )
        .map_err(|why| format!("{}: {why}", path.display()));
        if let Err(why) = rendered {
            writeln!(stderr, "cardkit render: {why}")?;
            status = ExitStatus::Error;
        }
    }
    Ok(status)
}

/// Reads `--font NAME=FILE`.
fn font_pair(text: &str) -> Result<(String, PathBuf), String> {
    match text.split_once('=') {
        Some((name, file)) if !name.trim().is_empty() && !file.is_empty() => {
            Ok((name.to_owned(), PathBuf::from(file)))
        }
        _ => Err("expected NAME=FILE, such as Quango=fonts/Quango.otf".to_owned()),
    }
}

/// The faces named with a file of their own: the configuration's `[fonts]`,
/// then `--font`, which wins for the same name (in any case). Each file is
/// read, and checked to hold a font, before anything is rendered.
fn named_fonts(args: &Args, config: Option<&Config>) -> Result<Vec<NamedFont>, String> {
    let mut named: Vec<(String, PathBuf, String)> = Vec::new();
    if let Some(Config {
        path,
        fonts: Some(entry),
        ..
    }) = config
    {
        for (name, file) in &entry.value {
            let from = format!("{}:{}: fonts: {name}", path.display(), entry.line);
            named.push((name.clone(), file.clone(), from));
        }
    }
    for (name, file) in &args.font {
        named.retain(|(other, ..)| !other.eq_ignore_ascii_case(name));
        let from = format!("--font {name}={}", file.display());
        named.push((name.clone(), file.clone(), from));
    }
    named
        .into_iter()
        .map(|(name, file, from)| {
            let bytes = cardkit_run::regular::read_regular(&file, MAX_FONT_BYTES)
                .map_err(|why| format!("{from}: {}: {why}", file.display()))?;
            NamedFont::new(&name, &file, bytes).map_err(|why| format!("{from}: {why}"))
        })
        .collect()
}

/// The SVG and the PNG each card is written to.
type Outputs = (Option<PathBuf>, Option<PathBuf>);

/// A card file and the designs of it to render.
type Cards<'a> = Vec<(&'a PathBuf, (DesignFile, Vec<Named>))>;

/// The outputs of every card, refused before anything is written: two
/// outputs of the same name (two cards `card.json` from different folders
/// into one `-o DIR`), an output that is an input, a file already there
/// without `--force`. Each design of a file of several (a classic save
/// file) is written under its name, as `cardkit import -o DIR` names it.
fn plan(args: &Args, cards: &Cards<'_>) -> Result<Vec<Outputs>, String> {
    let count: usize = cards.iter().map(|(_, (_, designs))| designs.len()).sum();
    if count > 1 && (args.svg.is_some() || args.png.is_some()) {
        let several = cards.iter().find(|(_, (_, designs))| designs.len() > 1);
        return Err(match several {
            Some((path, (_, designs))) => {
                let names: Vec<&str> = designs.iter().map(|named| named.name.as_str()).collect();
                format!(
                    "{}: the file holds {} cards; --svg and --png take one: name it with \
                     --card NAME ({}), or render them all with -o DIR",
                    path.display(),
                    names.len(),
                    names.join(", ")
                )
            }
            None => "--svg and --png take one card; use -o DIR for several".to_owned(),
        });
    }
    let designs: Vec<(&PathBuf, &Named, bool)> = cards
        .iter()
        .flat_map(|(path, (_, designs))| {
            let several = designs.len() > 1;
            designs.iter().map(move |named| (*path, named, several))
        })
        .collect();
    let planned: Vec<Outputs> = designs
        .iter()
        .map(|(card, named, several)| match &args.out_dir {
            Some(dir) => {
                // Standard input has no name of its own: its card is `card`.
                let stem = if *several {
                    named.name.clone()
                } else {
                    Some(card)
                        .filter(|card| card.as_os_str() != "-")
                        .and_then(|card| card.file_stem())
                        .map_or_else(|| "card".into(), |s| s.to_string_lossy().into_owned())
                };
                (
                    Some(dir.join(format!("{stem}.svg"))),
                    Some(dir.join(format!("{stem}.png"))),
                )
            }
            None => (args.svg.clone(), args.png.clone()),
        })
        .collect();
    let every: Vec<(PathBuf, &PathBuf)> = planned
        .iter()
        .zip(&designs)
        .flat_map(|((svg, png), (card, _, _))| {
            [svg, png]
                .into_iter()
                .flatten()
                .map(move |out| (out.clone(), *card))
        })
        .collect();
    let names: Vec<&Path> = every.iter().map(|(out, _)| out.as_path()).collect();
    if let Some((a, b)) = cardkit_run::output::same_name(&names) {
        let ((out, first), (_, second)) = (&every[a], &every[b]);
        return Err(if first == second {
            format!("{}: --svg and --png name the same file", out.display())
        } else {
            format!(
                "{}: both {} and {} would be written there; render them into different directories",
                out.display(),
                first.display(),
                second.display()
            )
        });
    }
    let inputs = inputs(args);
    for (out, _) in &every {
        cardkit_run::output::check(out, &rules(&inputs, args)).map_err(|why| why.to_string())?;
    }
    Ok(planned)
}

/// The files a render reads (standard input aside).
fn inputs(args: &Args) -> Vec<PathBuf> {
    args.cards
        .iter()
        .chain(&args.template)
        .filter(|path| path.as_os_str() != "-")
        .cloned()
        .collect()
}

fn rules<'a>(inputs: &'a [PathBuf], args: &Args) -> cardkit_run::output::Rules<'a> {
    cardkit_run::output::Rules {
        inputs,
        replace: args.force,
        suffix: ".tmp",
    }
}

/// A card's file and the designs of it to render: every one, or the one
/// `--card` names; a file of the design tool's own says it was converted.
fn read_cards(path: &Path, args: &Args) -> Result<(DesignFile, Vec<Named>), String> {
    let input = DesignFile::read(path).map_err(|why| why.to_string())?;
    let designs = input.designs().map_err(|why| why.to_string())?;
    crate::design_file::announce(path, &designs, args.reading.verbose);
    let chosen = designs
        .select(args.reading.card.as_deref())
        .map_err(|choice| format!("{}: {choice}", path.display()))?;
    Ok((input, chosen))
}

fn render_one(
    input: &DesignFile,
    design: &Design,
    template: Option<&Template>,
    options: &Options,
    (outputs, args): (&Outputs, &Args),
    stderr: &mut impl Write,
) -> Result<(), String> {
    // A template given as the card renders its own card, with itself.
    let card = design.card();
    let template = template.or(design.template());
    // With no asset root at all, the card's own folder is its root.
    let own_folder;
    let mut options = options;
    let no_root = options.assets.is_none()
        && options.root.is_none()
        && card.asset_root_url.is_empty()
        && template.is_none_or(|t| t.asset_root_url.is_empty());
    if no_root {
        if let Some(Root::Dir(dir)) = Root::of_design("", input.on_disk()) {
            own_folder = Options {
                assets: Some(dir),
                ..options.clone()
            };
            options = &own_folder;
        }
    }
    let rendered = render(card, template, options).map_err(|e| e.to_string())?;
    for line in rendered.report() {
        writeln!(stderr, "cardkit render: {}: {line}", input.path().display())
            .map_err(|e| e.to_string())?;
    }
    let (svg, png) = outputs.clone();
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
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
    let inputs = inputs(args);
    for (out, bytes) in outputs.into_iter().flatten() {
        let done = cardkit_run::output::write(&out, &rules(&inputs, args), |file| {
            file.write_all(bytes)
                .map(|()| true)
                .map_err(|e| cardkit_run::output::Refused::Io(out.clone(), e))
        });
        if let Err(why) = done {
            for done in &written {
                let _ = std::fs::remove_file(done);
            }
            return Err(why.to_string());
        }
        written.push(out);
    }
    Ok(())
}

/// The template `--template` names; a card design there is an error, since
/// only a template has the fonts and symbol sets the cards use.
fn read_template(path: &Path, args: &Args) -> Result<Template, String> {
    let input = DesignFile::read(path).map_err(|why| why.to_string())?;
    let designs = input.designs().map_err(|why| why.to_string())?;
    crate::design_file::announce(path, &designs, args.reading.verbose);
    let named = designs
        .one(None)
        .map_err(|choice| format!("{}: {choice}", path.display()))?;
    match named.design {
        Design::Template(template) => Ok(*template),
        Design::Card(_) => Err(format!(
            "{}: not a template but a card design: only a template has fonts and symbol sets",
            path.display()
        )),
    }
}
