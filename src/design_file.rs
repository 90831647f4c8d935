//! How the design commands read a design file and report one they cannot
//! use; the file itself is read, and a file of the design tool's own
//! converted, by the library (`cardkit_design::file`,
//! `cardkit_design::designs`).

use std::io::{self, Write};
use std::path::Path;

use cardkit::report::WarningFilter;
use cardkit_design::designs::{Designs, Named};
use cardkit_design::file::DesignFile;
use cardkit_run::render::{Renderer, Text};

/// The options every design command reads its file with.
#[derive(clap::Args, Clone, Default)]
pub struct Reading {
    /// Of a file of several designs (the design tool's classic save file),
    /// the one to take: its name as `cardkit import -o DIR` names its file
    /// (with or without `.json`), or its pointer in the file (`/3`).
    /// Example: --card myrel-death-taxes
    #[arg(long, value_name = "NAME")]
    pub card: Option<String>,

    /// For a file of the design tool's own, converted in memory as `cardkit
    /// import` converts it: shows the import's report (what could not be
    /// carried over) on standard error. Example: --verbose
    #[arg(short, long)]
    pub verbose: bool,
}

/// Writes `cardkit COMMAND: error: MESSAGE` on standard error.
pub fn error(command: &str, message: &str) {
    eprintln!("cardkit {command}: error: {message}");
}

/// Reads `path` for `command`: the file, and the designs it holds (every
/// one, or the one `--card` names). A file of the design tool's own is
/// converted in memory, said in one line on standard error (and the
/// import's report under `--verbose`). `None` when the file cannot be
/// used, the error written.
pub fn read(command: &str, path: &Path, reading: &Reading) -> Option<(DesignFile, Vec<Named>)> {
    let designs = DesignFile::read(path).and_then(|input| {
        let designs = input.designs()?;
        Ok((input, designs))
    });
    let (input, designs) = match designs {
        Ok(read) => read,
        Err(why) => {
            error(command, &why.to_string());
            return None;
        }
    };
    announce(path, &designs, reading.verbose);
    match designs.select(reading.card.as_deref()) {
        Ok(chosen) => Some((input, chosen)),
        Err(choice) => {
            error(command, &format!("{}: {choice}", path.display()));
            None
        }
    }
}

/// As [`read`], for a command that takes one design: a file of several
/// without `--card` is an error that names them.
pub fn read_one(command: &str, path: &Path, reading: &Reading) -> Option<(DesignFile, Named)> {
    let (input, mut chosen) = read(command, path, reading)?;
    if chosen.len() > 1 {
        let names: Vec<&str> = chosen.iter().map(|named| named.name.as_str()).collect();
        let message = format!(
            "{}: the file holds {} designs: name one with --card NAME ({}), the names \
             `cardkit import -o DIR` gives their files",
            path.display(),
            names.len(),
            names.join(", ")
        );
        error(command, &message);
        return None;
    }
    Some((input, chosen.remove(0)))
}

/// The line that says a file was converted, and the import's report under
/// `--verbose`; nothing for a file in the spec's shape.
pub fn announce(path: &Path, designs: &Designs, verbose: bool) {
    let Some(converted) = &designs.converted else {
        return;
    };
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{}", Text::escape(&converted.note(path)));
    if verbose {
        let every = || WarningFilter::new(usize::MAX);
        let colored = anstream::AutoStream::choice(&io::stderr()) != anstream::ColorChoice::Never;
        let mut renderer = Text::new(every()).colored(colored);
        let shown = path.display().to_string();
        let _ = renderer.file(&mut stderr, &shown, &converted.report);
    }
}
