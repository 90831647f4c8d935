//! `cardkit expand TEMPLATE --set ID --variant NAME`: the image layer a
//! variant of the template's image set makes, as JSON, ready to add to a
//! card; the expansion is the library's (`cardkit_design::expand`).

use std::io::{self, Write};
use std::path::PathBuf;

use cardkit_design::expand::{expand, Fill, Request};
use cardkit_run::ExitStatus;

use crate::design_file::{error, Reading};

#[derive(clap::Args)]
pub struct Args {
    /// The template (`-`: standard input): in the spec's shape, or in the
    /// design tool's older layered layout, converted in memory as `cardkit
    /// import` converts it.
    /// Example: cardkit expand template.json --set 1 --variant 'Right Stat Box'
    #[arg(value_name = "TEMPLATE")]
    template: PathBuf,

    #[command(flatten)]
    reading: Reading,

    /// The image set: its index in /context/imageSets (from 0), or its name
    /// (a `name` member of the set or of its prototype). Example: --set 0
    #[arg(long, value_name = "ID_OR_NAME")]
    set: String,

    /// The variant, by name (or index in the set). Example: --variant 'Blue Frame'
    #[arg(long, value_name = "NAME")]
    variant: String,

    /// A mask of the set to put on the layer, by name; repeat it for several,
    /// in order. Example: --mask 'Right Half'
    #[arg(long, value_name = "NAME")]
    mask: Vec<String>,

    /// Leaves out the position and size neither the prototype nor the
    /// variant gives, instead of `x: 0`, `y: 0` and the card's size (as the
    /// design tool saves a layer). Example: --no-card-size
    #[arg(long)]
    no_card_size: bool,
}

/// Prints the layer: exit status 0, or 2 when the template cannot be read
/// or the set, variant or mask is not there.
pub fn run(args: &Args) -> io::Result<ExitStatus> {
    let Some((_, named)) = crate::design_file::read_one("expand", &args.template, &args.reading)
    else {
        return Ok(ExitStatus::Error);
    };
    let Some(template) = named.design.template() else {
        let message = format!(
            "{}: a card design, not a template: only a template has image sets",
            args.template.display()
        );
        error("expand", &message);
        return Ok(ExitStatus::Error);
    };
    let request = Request {
        set: &args.set,
        variant: &args.variant,
        masks: args.mask.iter().map(String::as_str).collect(),
        fill: if args.no_card_size {
            Fill::Nothing
        } else {
            Fill::CardSize
        },
    };
    match expand(template, &request) {
        Ok(layer) => {
            let mut out = io::stdout().lock();
            serde_json::to_writer_pretty(&mut out, &layer)?;
            writeln!(out)?;
            Ok(ExitStatus::Success)
        }
        Err(why) => {
            error("expand", &format!("{}: {why}", args.template.display()));
            Ok(ExitStatus::Error)
        }
    }
}
