//! The one place that reads JSON bytes: white space, strings (escapes,
//! UTF-8), numbers, literals, the members of objects and the items of arrays,
//! a fast structural skip, and a structural index found 64 bytes at a time
//! with SIMD ([`Indexer`], and [`StringStops`] for the ends of strings).
//! Every reader of the crate (the validator, the reader of containers
//! around documents, kind detection, member look-ups) reads through
//! [`Scanner`], so a rule of JSON syntax is written once.
//!
//! Problems are typed ([`Syntax`]); their words are in `cardkit`'s
//! diagnostics. JSON Pointers and the patterns over them are in [`pointer`].

mod found;
mod index;
mod lanes;
mod piece;
pub mod pointer;
mod scan;
mod skip;
mod syntax;
mod text;

pub use found::{FoundByte, FoundValue, QUOTED_CHARS};
/// The structural index read one byte at a time, to check the index
/// against (the `reference` feature).
#[cfg(feature = "reference")]
pub use index::reference as index_reference;
pub use index::{Block, Blocks, Indexer, StringStops, Structurals};
pub use scan::{Num, Scanner, Str};
pub use skip::{found_at, scalar_end, skip_indexed, skip_raw, IndexedSkip};
pub use syntax::{utf16, Expect, Syntax, SyntaxError, BOM};
pub use text::{lossy, utf8_prefix, DuplicateKeys};
