//! Tools for the people who make card-design templates and saved card
//! designs, beyond validating them:
//!
//! - [`import`]: the design tool's own files (its older layered templates
//!   and card designs, its classic save file) converted to the spec's
//!   shapes, with a report of what could not be carried over;
//! - [`layers`]: the layers of a card found by name, pattern, tag and type,
//!   in the design tool's order;
//! - [`expand`]: the image layer a variant of a template's image set makes;
//! - [`assets`]: where a design's assets are, what they are, a copy re-based
//!   onto another root, and which a local mirror lacks;
//! - [`symbols`]: the symbols a template's texts can show, and a text split
//!   into text, symbols and codes;
//! - [`source`]: a template or card design read from its bytes;
//! - [`designs`]: every design of a file, the design tool's own files
//!   converted in memory by the import;
//! - [`frame`]: the design tool's rule for a frame that leaves its box out;
//! - [`file`]: a design file read from a path or standard input, up to the
//!   one size limit every tool keeps;
//! - [`token`]: a long member name as the pointers the tools report hold it.
//!
//! Nothing here reaches the network: assets are resolved to locations and
//! read only from local files or `data:` URIs.
#![deny(missing_docs)]

pub mod assets;
pub mod designs;
pub mod expand;
pub mod file;
pub mod frame;
pub mod import;
pub mod layers;
mod limit;
pub mod source;
pub mod symbols;
pub mod token;
