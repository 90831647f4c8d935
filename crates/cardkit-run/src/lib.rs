//! What every cardkit front end (the command line, the service, Python)
//! shares around the validator: a run over many inputs, the same for every
//! door: which inputs the paths given name ([`discover`]), how each is
//! opened, decoded when it is compressed, and whether it is JSON Lines
//! ([`open`]), how each is validated, counted, summed up and rendered
//! ([`Run`], [`render`]), and what the run's exit status is
//! ([`ExitStatus`]); the configuration ([`config`]), the listings of fields
//! ([`listing`]) and the explanations of fields and codes ([`explain`],
//! [`codes`]).
//!
//! ```no_run
//! use cardkit_run::render::Text;
//! use cardkit::report::WarningFilter;
//! use cardkit_run::{discover, Run};
//! use cardkit::Options;
//!
//! let mut out = std::io::stdout().lock();
//! let mut renderer = Text::new(WarningFilter::default());
//! let mut run = Run::new(&mut renderer, &mut out, Options::default());
//! let found = discover(&["sets/", "-"]);
//! run.validate_all(found, 2).unwrap();
//! let (_, status) = run.finish().unwrap();
//! std::process::exit(status.code().into());
//! ```

pub mod codes;
pub mod config;
pub mod explain;
pub mod listing;
pub mod options;
pub mod output;
pub mod regular;
pub mod render;
pub mod table;

mod archive;
mod beside;
mod check;
mod declared;
mod decode;
mod design_tool;
mod discover;
mod drive;
mod exit;
mod on_invalid;
mod open;
mod references;
mod settings;
mod skip;
mod until_closed;
mod way_out;

pub use archive::ZipMember;
pub use declared::{declared, declared_anywhere, read_declared, Declared, DECLARED_WITHIN};

/// The format's latest version: what a file that declares none is checked
/// as of.
#[must_use]
pub fn latest_version() -> cardkit::schema::Version {
    declared::latest()
}
pub use decode::{Compression, Stored};
pub use discover::{
    check_glob, discover, Discovered, Exclude, Input, Walk, COMPRESSED_ENDINGS, DEFAULT_EXCLUDE,
    ENDINGS, ZIP_ENDING,
};
pub use drive::{Check, Failure, Progress, Run, Shown};
pub use exit::ExitStatus;
pub use on_invalid::OnInvalid;
pub use open::{json_lines_by_name, open, open_reader, open_stream, Opened, Unopened};
pub use options::{Setting, Surface};
pub use references::ReferencesReader;
pub use settings::Settings;
pub use until_closed::UntilClosed;

/// The most threads `jobs` may ask for: more than any machine this runs on
/// has cores, and few enough that starting them cannot fail.
pub use cardkit::validate::MAX_JOBS;

/// The threads a run validates on: `asked`, or by default one per core, at
/// most [`MAX_JOBS`].
#[must_use]
pub fn jobs(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .clamp(1, MAX_JOBS)
}
