//! Turning reports into output. One renderer per format; each is fed one file
//! at a time, so output can follow validation as it goes.

mod json;
mod text;

use std::io::{self, Write};

pub use json::Json;
pub use text::Text;

use crate::report::Summary;
use crate::validate::FileReport;

/// An output format.
pub trait Renderer {
    /// Writes what was found in one file; `source` is the file's bytes, for
    /// excerpts.
    fn file(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        source: &[u8],
        report: &FileReport,
    ) -> io::Result<()>;

    /// Writes that a path could not be read.
    fn unreadable(&mut self, out: &mut dyn Write, path: &str, error: &str) -> io::Result<()>;

    /// Writes the end of the output: repeated warnings not shown, and totals.
    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()>;
}
