//! What a build keeps of each set and record it reads
//! ([`crate::read`]): fingerprints, not values; the bytes are read again
//! from their file when a record must be compared.

use crate::drift::Tree;

/// One card, token or sealed product of a set.
#[derive(Debug, Clone)]
pub struct RecordPrint {
    /// The index of its list in [`crate::fields::Facts::lists`].
    pub list: u8,
    /// Its place in the list.
    pub index: u32,
    /// Its `uuid`; `#N` (its place) when it has none.
    pub uuid: Box<str>,
    /// A hash of its natural key (number, side, language, name).
    pub natural: u64,
    /// Its `identifiers.catalogAId`, when it is a string.
    pub catalog: Option<Box<str>>,
    /// A hash of its content.
    pub hash: u64,
    /// Where its bytes start in the file.
    pub offset: u64,
    /// How many bytes it takes.
    pub len: u32,
}

/// One set of a build.
#[derive(Debug, Clone)]
pub struct SetPrint {
    /// Its `code` (`""` when it has none that is a string).
    pub code: String,
    /// The index of its file in [`Build::files`](crate::read::Build::files): its bytes are read again
    /// from there.
    pub file: usize,
    /// The document's pointer in its file (`/data/10E`).
    pub pointer: String,
    /// For JSON Lines, the document's line.
    pub line: Option<usize>,
    /// Where the document's bytes start in the file.
    pub offset: u64,
    /// How many bytes the document takes.
    pub len: u64,
    /// The set-level members with a hash of each value, in the order they
    /// come (record lists left out).
    pub members: Vec<(Box<str>, u64)>,
    /// The records, in document order.
    pub records: Vec<RecordPrint>,
    /// The document is valid.
    pub valid: bool,
    /// What its fields look like, held apart until the diff knows whether
    /// the set is left out ([`Build::hold_trees`](crate::read::Build::hold_trees)); `None` once merged into
    /// the build's.
    pub tree: Option<Tree>,
}
