//! Tools for the people who make card-design templates and saved card
//! designs, beyond validating them: where a design's assets are and what
//! they are, the symbols its texts can show, and more.
//!
//! Nothing here reaches the network: assets are resolved to locations and
//! read only from local files or `data:` URIs.

pub mod assets;
pub mod symbols;
