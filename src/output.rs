//! Output shared by a run's report and the notes written between its
//! documents.

use std::io::{self, Write};

use cardkit::report::WarningFilter;
use cardkit_run::render::{Concise, Github, Json, Junit, Renderer, Sarif, Text};
use clap::ValueEnum;

/// A writer shared through a `RefCell`: the report of a run writes through
/// it while notes about the same inputs are written to the same stream, in
/// order, between documents (`export` and `diff`).
#[cfg(feature = "export")]
pub struct Shared<'a, W>(pub &'a std::cell::RefCell<W>);

#[cfg(feature = "export")]
impl<W: Write> Write for Shared<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// Writes a note of `command` on standard error (`cardkit export: …`), its
/// text escaped as the text report escapes what comes from inputs. Standard
/// error may be closed: the note is then lost, and the run goes on.
pub fn note(command: &str, text: &str) {
    let _ = writeln!(io::stderr(), "cardkit {command}: {}", Text::escape(text));
}

#[cfg(feature = "diff")]
/// Writes a line on `err` for each document read that is valid but no set
/// (`cardkit diff: PATH AT: MESSAGE`): such documents have no diagnostics
/// of their own to say why they were left out.
///
/// # Errors
/// Writing failed.
pub fn documents_not_sets(
    err: &mut dyn Write,
    command: &str,
    problems: &[cardkit_diff::Problem],
) -> io::Result<()> {
    for p in problems.iter().filter(|p| !p.invalid) {
        let line = format!("{} {}: {}", p.path, p.at, p.message);
        writeln!(err, "cardkit {command}: {}", Text::escape(&line))?;
    }
    Ok(())
}

/// The formats of a report, as `--format` names them.
#[derive(Clone, Copy, ValueEnum)]
pub enum ReportFormat {
    Text,
    Concise,
    Json,
    Github,
    Sarif,
    Junit,
}

impl ReportFormat {
    /// The renderer of the format: the text report shows what `text_filter`
    /// lets through (coloured when `colored`), the others what `filter` does;
    /// the formats with a cap write at most `max_results` results (`None`:
    /// all).
    pub fn renderer(
        self,
        filter: WarningFilter,
        text_filter: WarningFilter,
        colored: bool,
        max_results: Option<usize>,
    ) -> Box<dyn Renderer> {
        match self {
            ReportFormat::Text => Box::new(Text::new(text_filter).colored(colored)),
            ReportFormat::Concise => Box::new(Concise::new(filter)),
            ReportFormat::Json => Box::new(Json::new(filter)),
            ReportFormat::Github => Box::new(Github::new(filter).max_results(max_results)),
            ReportFormat::Sarif => {
                Box::new(Sarif::new(filter, std::env::current_dir().ok()).max_results(max_results))
            }
            ReportFormat::Junit => Box::new(Junit::new(filter)),
        }
    }

    /// The cap `--max-results` sets by default, for the formats that have
    /// one (see each renderer's `DEFAULT_MAX_RESULTS` for why).
    pub fn default_max_results(self) -> Option<usize> {
        match self {
            ReportFormat::Github => Some(Github::DEFAULT_MAX_RESULTS),
            ReportFormat::Sarif => Some(Sarif::DEFAULT_MAX_RESULTS),
            ReportFormat::Text
            | ReportFormat::Concise
            | ReportFormat::Json
            | ReportFormat::Junit => None,
        }
    }

    /// The name `--format` gives the format.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map_or_else(String::new, |value| value.get_name().to_owned())
    }
}

/// The formats of a listing (fields, layers, assets, symbols, an
/// explanation, the configuration): for people, or JSON for programs.
#[derive(Clone, Copy, ValueEnum)]
pub enum ListingFormat {
    Text,
    Json,
}
