//! Turning reports into output. One renderer per format; each is fed one
//! document at a time, as validation goes, so a large file's reports can be
//! written before it is all read.

mod github;
mod json;
mod json_lines;
mod junit;
mod renderer;
mod sarif;
mod text;
pub mod words;

pub use github::Github;
pub use json::Json;
pub use json_lines::JsonLines;
pub use junit::Junit;
pub use renderer::{FileEnd, Renderer};
pub use sarif::Sarif;
pub use text::Text;
