//! A structural index, 64 bytes at a time (simdjson's first stage): where
//! strings are, and the structural characters outside them. Each block of
//! 64 bytes becomes a few 64-bit masks, bit `i` standing for byte `i`:
//!
//! 1. the bytes of interest (quotes, backslashes, `{ } [ ]`, `:` and `,`)
//!    are found with SIMD where the machine has it (`simd.rs`, the one
//!    module of the workspace allowed `unsafe`), or eight at a time in plain
//!    Rust (`portable.rs`); both give the same masks;
//! 2. the rest is plain bit arithmetic, shared by both paths: the bytes
//!    that a run of backslashes escapes, the quotes left, which bytes are
//!    inside strings (a prefix XOR of the quotes), and the structural
//!    characters outside them.
//!
//! Two bits of state carry from one block to the next: whether it ends
//! inside a string, and whether its last byte is a backslash that escapes
//! the next block's first byte.
//!
//! An escape is taken wherever a backslash stands, as in strings: outside
//! strings a backslash is never JSON, and [`Block::stray_backslashes`] says
//! where one is, so that a reader can leave such input to the scanner.
//!
//! A lighter index serves the walk: [`StringStops`], the bytes where a
//! string's plain content stops (quotes, backslashes, control characters),
//! found the same two ways. It needs no state across blocks, so any range
//! can be indexed on its own, and a string's end is then one look-up.

mod classes;
mod portable;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod simd;
#[cfg(test)]
mod tests;

use classes::Classes;
use simd::Simd;

/// What one block of 64 bytes holds, as masks: bit `i` is byte `i` of the
/// block. Past the end of a short last block (read as if padded with
/// spaces) only `in_string` can have bits set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// The quotes that open or close a string (those not escaped).
    pub quotes: u64,
    /// The bytes inside strings: each string's opening quote included, its
    /// closing quote not.
    pub in_string: u64,
    /// `{ } [ ]` outside strings.
    pub brackets: u64,
    /// `:` and `,` outside strings.
    pub separators: u64,
    /// Backslashes outside strings: never JSON, always a syntax error.
    pub stray_backslashes: u64,
}

impl Block {
    /// The structural characters: `{ } [ ] : ,` outside strings, and the
    /// quote that opens each string.
    #[must_use]
    pub fn structurals(&self) -> u64 {
        self.brackets | self.separators | (self.quotes & self.in_string)
    }
}

/// Indexes bytes a block of 64 at a time, carrying from each block to the
/// next whether it ends inside a string or on an escaping backslash. A new
/// indexer starts outside strings.
#[derive(Clone, Debug)]
pub struct Indexer {
    simd: Option<Simd>,
    /// The last block ended inside a string.
    in_string: bool,
    /// The last block ended with a backslash that escapes the next byte.
    escaped: bool,
}

impl Default for Indexer {
    fn default() -> Self {
        Indexer::new()
    }
}

impl Indexer {
    /// An indexer on the fastest path of this machine (AVX-512, else AVX2,
    /// on x86-64 where the processor has it, NEON on 64-bit ARM), found once
    /// per process.
    #[must_use]
    pub fn new() -> Self {
        Indexer {
            simd: simd::detect(),
            in_string: false,
            escaped: false,
        }
    }

    /// An indexer that finds the bytes of interest without SIMD: the path
    /// of machines without it, which gives the same index.
    #[must_use]
    pub fn portable() -> Self {
        Indexer {
            simd: None,
            in_string: false,
            escaped: false,
        }
    }

    /// The name of the path this indexer takes: `avx512`, `avx2`, `neon`
    /// or `portable`.
    #[must_use]
    pub fn path(&self) -> &'static str {
        self.simd.map_or("portable", Simd::name)
    }

    /// Whether the bytes indexed so far end inside a string.
    #[must_use]
    pub fn in_string(&self) -> bool {
        self.in_string
    }

    /// The index of the next 64 bytes.
    pub fn block(&mut self, bytes: &[u8; 64]) -> Block {
        let mut classes = [Classes::default()];
        self.classify(bytes, &mut classes);
        self.finish(classes[0])
    }

    /// The index of `bytes`, a block at a time, following the blocks
    /// indexed before. When the length is not a multiple of 64, the last
    /// block is read as if padded with spaces: that ends the input.
    pub fn blocks<'a>(&'a mut self, bytes: &'a [u8]) -> Blocks<'a> {
        Blocks {
            indexer: self,
            bytes,
            classes: [Classes::default(); BATCH],
            ready: 0,
            next: 0,
        }
    }

    /// The offsets in `bytes` of its structural characters (see
    /// [`Block::structurals`]), in order, following the blocks indexed
    /// before (as [`Indexer::blocks`]).
    pub fn structurals<'a>(&'a mut self, bytes: &'a [u8]) -> Structurals<'a> {
        Structurals {
            blocks: self.blocks(bytes),
            base: 0,
            next_base: 0,
            bits: 0,
        }
    }

    /// Finds the classes of `bytes`, whose length is 64 times that of `out`.
    fn classify(&self, bytes: &[u8], out: &mut [Classes]) {
        match self.simd {
            Some(simd) => simd.classify(bytes, out),
            None => portable::classify(bytes, out),
        }
    }

    /// The index of a block from its classes, and the state after it.
    #[inline]
    fn finish(&mut self, classes: Classes) -> Block {
        let escaped = self.escaped_bytes(classes.backslash);
        let quotes = classes.quote & !escaped;
        let carried = if self.in_string { !0 } else { 0 };
        let in_string = prefix_xor(quotes) ^ carried;
        self.in_string = in_string >> 63 != 0;
        Block {
            quotes,
            in_string,
            brackets: classes.bracket & !in_string,
            separators: classes.separator & !in_string,
            stray_backslashes: classes.backslash & !in_string,
        }
    }

    /// The bytes that a backslash escapes: those after an odd run of
    /// backslashes. A run's parity is found with one subtraction, as
    /// simdjson does: a carry runs through a run of backslashes from its
    /// start, so a run that starts on an even bit and one that starts on an
    /// odd bit end on opposite bits.
    #[inline]
    fn escaped_bytes(&mut self, backslash: u64) -> u64 {
        const ODD_BITS: u64 = 0xAAAA_AAAA_AAAA_AAAA;
        let carried = u64::from(self.escaped);
        if backslash == 0 {
            self.escaped = false;
            return carried;
        }
        // A backslash escaped by the last block's escapes nothing.
        let potential = backslash & !carried;
        // Odd bits, and the bytes after each backslash, less the runs:
        // where a run starts on an odd bit, the borrow flips the run and the
        // byte after it, so that XOR with the odd bits leaves, in every run,
        // the backslashes that escape and the byte each of them escapes.
        let escapes_and_escaped = ((potential << 1) | ODD_BITS).wrapping_sub(potential) ^ ODD_BITS;
        let escaped = escapes_and_escaped ^ (backslash | carried);
        self.escaped = (escapes_and_escaped & backslash) >> 63 != 0;
        escaped
    }
}

/// Where plain string content stops in a range of bytes: a mask per block
/// of 64 bytes, bit `i` set when byte `i` of the block is `"`, `\` or a
/// control character, the bytes a string's scan stops at. Found for many
/// strings at once, with SIMD where the machine has it, so that the walk
/// finds each string's end with a look-up instead of reading its bytes
/// ([`crate::Scanner::with_string_stops`]).
#[derive(Clone, Debug)]
pub struct StringStops {
    simd: Option<Simd>,
    /// The offset of the first block (a multiple of 64).
    first: usize,
    /// The offset where the indexed range ends: no stop at or after it is
    /// known.
    end: usize,
    masks: Vec<u64>,
}

impl Default for StringStops {
    fn default() -> Self {
        StringStops::new()
    }
}

impl StringStops {
    /// An empty index, on the fastest path of this machine (as
    /// [`Indexer::new`]).
    #[must_use]
    pub fn new() -> Self {
        StringStops {
            simd: simd::detect(),
            first: 0,
            end: 0,
            masks: Vec::new(),
        }
    }

    /// An empty index that finds stops without SIMD, as machines without it
    /// do: the same index.
    #[must_use]
    pub fn portable() -> Self {
        StringStops {
            simd: None,
            ..StringStops::new()
        }
    }

    /// The name of the path this index takes: `avx512`, `avx2`, `neon` or
    /// `portable`.
    #[must_use]
    pub fn path(&self) -> &'static str {
        self.simd.map_or("portable", Simd::name)
    }

    /// Indexes `bytes[range]`, in place of what was indexed before (the
    /// masks' room is kept).
    pub fn index(&mut self, bytes: &[u8], range: std::ops::Range<usize>) {
        let end = range.end.min(bytes.len());
        let first = (range.start / 64 * 64).min(end);
        let bytes = &bytes[first..end];
        let whole = bytes.len() / 64;
        self.first = first;
        self.end = end;
        // Every mask is written below, so the room kept from the last
        // index is not cleared first.
        self.masks.resize(bytes.len().div_ceil(64), 0);
        let (body, tail) = bytes.split_at(whole * 64);
        match self.simd {
            Some(simd) => simd.string_stops(body, &mut self.masks[..whole]),
            None => portable::string_stops(body, &mut self.masks[..whole]),
        }
        // The last block is read as if padded with spaces, which are no
        // stops: what lies past `end` is not indexed.
        if !tail.is_empty() {
            let mut padded = [b' '; 64];
            padded[..tail.len()].copy_from_slice(tail);
            portable::string_stops(&padded, &mut self.masks[whole..]);
        }
    }

    /// The first stop at or after `from`: `Ok` with its offset, or `Err`
    /// with where the indexed range ends when there is none before it (or
    /// `from` is outside it): what lies beyond must be read.
    #[inline]
    pub fn next(&self, from: usize) -> Result<usize, usize> {
        let Some(local) = from.checked_sub(self.first).filter(|_| from < self.end) else {
            return Err(from);
        };
        let mut block = local / 64;
        let mut bits = self.masks[block] >> (local % 64) << (local % 64);
        while bits == 0 {
            block += 1;
            bits = *self.masks.get(block).ok_or(self.end)?;
        }
        Ok(self.first + block * 64 + bits.trailing_zeros() as usize)
    }
}

/// How many blocks are classified in one call of the SIMD path.
const BATCH: usize = 8;

/// The blocks of an input, indexed in turn (see [`Indexer::blocks`]).
pub struct Blocks<'a> {
    indexer: &'a mut Indexer,
    /// What is left to classify.
    bytes: &'a [u8],
    classes: [Classes; BATCH],
    /// `classes[next..ready]` are classified and not yet handed out.
    ready: usize,
    next: usize,
}

impl Iterator for Blocks<'_> {
    type Item = Block;

    #[inline]
    fn next(&mut self) -> Option<Block> {
        if self.next >= self.ready {
            self.refill();
        }
        let classes = *self.classes[..self.ready].get(self.next)?;
        self.next += 1;
        Some(self.indexer.finish(classes))
    }
}

impl Blocks<'_> {
    /// Classifies the next blocks: up to [`BATCH`] whole ones, or the short
    /// last one padded with spaces.
    fn refill(&mut self) {
        let whole = (self.bytes.len() / 64).min(BATCH);
        let (now, rest) = if whole > 0 {
            self.bytes.split_at(whole * 64)
        } else {
            (self.bytes, &[][..])
        };
        self.next = 0;
        self.ready = match now.len() {
            0 => 0,
            len if len % 64 == 0 => {
                self.indexer.classify(now, &mut self.classes[..whole]);
                whole
            }
            len => {
                let mut padded = [b' '; 64];
                padded[..len].copy_from_slice(now);
                self.indexer.classify(&padded, &mut self.classes[..1]);
                1
            }
        };
        self.bytes = rest;
    }
}

/// The offsets of the structural characters of an input (see
/// [`Indexer::structurals`]).
pub struct Structurals<'a> {
    blocks: Blocks<'a>,
    /// The offset of the block `bits` come from.
    base: usize,
    /// The offset of the block after it.
    next_base: usize,
    /// The structural characters of that block not yet handed out.
    bits: u64,
}

impl Iterator for Structurals<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.bits = self.blocks.next()?.structurals();
            self.base = self.next_base;
            self.next_base += 64;
        }
        let at = self.base + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(at)
    }
}

/// Each bit XORed with every bit below it: bit `i` is set when an odd
/// number of the bits `0..=i` are.
#[inline]
fn prefix_xor(mut bits: u64) -> u64 {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    bits
}
