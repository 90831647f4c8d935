//! The one size limit every design tool keeps, the import's included (a
//! module of its own, so the import and the file reader share it without
//! depending on each other).

/// The largest design file the tools read, in bytes (64 MiB). The design
/// tool's files are small (a save file of 13 cards with three embedded
/// pictures is 434 KB); a file is held whole, and its models or its
/// `serde_json::Value` take a few times its size.
pub const MAX_DESIGN_BYTES: usize = 64 << 20;
