//! Turning reports into output. One renderer per format; each is fed one
//! document at a time, as validation goes, so a large file's reports can be
//! written before it is all read.

mod cap;
mod concise;
mod github;
mod json;
mod json_lines;
mod junit;
mod renderer;
mod sarif;
mod statistics;
mod text;
pub mod words;

pub use cap::LeftOut;
pub use concise::Concise;
pub use github::Github;
pub use json::{DocumentEntry, FileTail, Json};
#[cfg(feature = "openapi")]
pub use json::{FileEntry, Report};
pub use json_lines::{JsonLines, Line as ReportLine};
pub use junit::Junit;
pub use renderer::{FileEnd, Renderer};
pub use sarif::Sarif;
#[cfg(feature = "openapi")]
pub use sarif::{Log as SarifLog, LogRun as SarifRun};
pub use statistics::Statistics;
pub use text::Text;
