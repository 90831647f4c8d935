//! The part of an input at hand: bytes read a chunk at a time, released
//! once they are behind, with lines and columns counted as they go and
//! UTF-8 checked in bulk.

use std::io::{self, Read};
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use cardkit_json::utf8_prefix;

use super::check::Checker;
use super::locate::{self, Position, CONTEXT_BYTES};
use super::options::Options;

/// How much of an input is held in memory while it is read. Only the tests
/// of the streaming itself change it, to make every boundary fall anywhere.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct Buffering {
    /// How much is read at a time, at least.
    pub chunk: usize,
    /// How much of the input is at hand, if it is that long, when a value
    /// starts to be validated: larger than most documents, so that a value
    /// rarely has to be walked again because it went on beyond the bytes.
    pub read_ahead: usize,
    /// How much is read before the layout is told: within it, the whole root
    /// object is seen, so an early `data` member cannot mislead.
    pub retain: usize,
    /// Documents are sent to other threads in batches of about this size.
    pub batch: usize,
    /// How much of a root object may be taken by members that are no
    /// document's field (a long `meta`) before the object is read as a
    /// container, those members read past as a stream instead of held.
    pub foreign_prefix: usize,
    /// For inputs whose bytes come over time (a network body): a read stops
    /// at the first line end that arrives, so that each line of JSON Lines
    /// is validated as soon as it is whole, not when a chunk's worth is.
    pub eager_lines: bool,
}

impl Default for Buffering {
    fn default() -> Self {
        Buffering {
            chunk: 4 << 20,
            read_ahead: 8 << 20,
            retain: 1 << 20,
            batch: 1 << 20,
            foreign_prefix: 1 << 20,
            eager_lines: false,
        }
    }
}

/// The room first made to read into; it doubles as the bytes come.
const FIRST_ROOM: usize = 64 << 10;

/// The part of an input at hand: `buf` holds the bytes from file offset
/// `base` on; lines and columns have been counted up to `at`.
pub(crate) struct Source<'r> {
    reader: Option<Box<dyn Read + 'r>>,
    /// The bytes at hand are `data[..filled]`; the rest is room to read
    /// into, kept initialized so that reading needs no zeroing.
    data: Vec<u8>,
    filled: usize,
    pub base: usize,
    pub eof: bool,
    at: Position,
    pub buffering: Buffering,
    /// The file offset up to which the bytes read are known to be UTF-8,
    /// checked in bulk as they come; it stops at the first byte that is not.
    utf8_to: usize,
    /// Bytes from this file offset on are not released: documents gathered
    /// to be handed to another thread, which still read them here.
    held: Option<usize>,
}

/// Bytes split off a source for another thread: `bytes[..range.len()]` are
/// the input's bytes at file offsets `range`. The rest of `bytes` is room
/// already written, so that the buffer can be read into again without
/// being cleared first.
pub(crate) struct SplitOff {
    pub bytes: Vec<u8>,
    pub range: Range<usize>,
}

impl SplitOff {
    /// The input's bytes it holds.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..self.range.len()]
    }
}

impl<'r> Source<'r> {
    /// A source that reads from `reader`.
    pub fn new(reader: impl Read + 'r, buffering: Buffering) -> Self {
        Source {
            reader: Some(Box::new(reader)),
            data: Vec::new(),
            filled: 0,
            base: 0,
            eof: false,
            at: Position::START,
            buffering,
            utf8_to: 0,
            held: None,
        }
    }

    /// A source whose bytes are all at hand, starting at `start`.
    pub fn complete(bytes: Vec<u8>, start: Position) -> Source<'static> {
        let utf8_to = start.offset + utf8_prefix(&bytes);
        Source {
            reader: None,
            filled: bytes.len(),
            data: bytes,
            base: start.offset,
            eof: true,
            at: start,
            buffering: Buffering::default(),
            utf8_to,
            held: None,
        }
    }

    /// The file offset up to which the bytes read are known to be UTF-8.
    pub fn utf8_to(&self) -> usize {
        self.utf8_to
    }

    /// A checker over the bytes at hand from file offset `at`, which knows
    /// how far they are UTF-8; the value there is at `pointer` in the file.
    pub fn checker<'s>(&'s self, at: usize, pointer: &'s str, options: &'s Options) -> Checker<'s> {
        let utf8_checked = self.utf8_to.saturating_sub(self.base);
        Checker::new(
            self.bytes(),
            self.base,
            at - self.base,
            pointer,
            utf8_checked,
            options,
        )
    }

    /// The bytes at hand, from file offset `base` on.
    pub fn bytes(&self) -> &[u8] {
        &self.data[..self.filled]
    }

    /// The file offset just after the bytes at hand.
    pub fn end(&self) -> usize {
        self.base + self.filled
    }

    /// Reads more of the input (about as much as is at hand, at least a
    /// chunk); `false` at its end.
    pub fn fill(&mut self) -> io::Result<bool> {
        let Some(reader) = self.reader.as_mut().filter(|_| !self.eof) else {
            return Ok(false);
        };
        let want = self.buffering.chunk.max(self.filled);
        let mut read = 0;
        let mut ended = false;
        while read < want {
            // Room is made as the bytes come, and no more than a chunk of
            // it at a time: a small input (a request's body) costs little to
            // read, and a huge document (one member name of 400 MB) is held
            // once, not beside as much room made ready for more.
            let room = (want - read)
                .min(self.filled.max(FIRST_ROOM))
                .min(self.buffering.chunk);
            if self.data.len() < self.filled + room {
                self.data.resize(self.filled + room, 0);
            }
            match reader.read(&mut self.data[self.filled..self.filled + room]) {
                Ok(0) => {
                    ended = true;
                    break;
                }
                Ok(n) => {
                    read += n;
                    self.filled += n;
                    let new = &self.data[self.filled - n..self.filled];
                    if self.buffering.eager_lines && memchr::memchr(b'\n', new).is_some() {
                        break;
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        self.eof = ended;
        // The check stops at the first byte that is not UTF-8 (there, or
        // once it is released, each string is checked on its own).
        if self.utf8_to >= self.base {
            let from = self.utf8_to - self.base;
            self.utf8_to += utf8_prefix(&self.data[from..self.filled]);
        }
        Ok(read > 0)
    }

    /// The input is all at hand from file offset `start` on, and no more
    /// than one batch: there is nothing to share with other threads.
    pub fn small(&self, start: usize) -> bool {
        self.eof && self.end() - start <= self.buffering.batch
    }

    /// Reads more unless the input already reached past `end` (where it
    /// ended before a step that may have read on): whether there are bytes
    /// past `end` to look at.
    pub fn fill_past(&mut self, end: usize) -> io::Result<bool> {
        Ok(self.end() > end || self.fill()?)
    }

    /// Reads until `len` bytes are at hand or the input ends.
    pub fn fill_to(&mut self, len: usize) -> io::Result<()> {
        while self.filled < len && self.fill()? {}
        Ok(())
    }

    /// The position of file offset `offset`, which must not be before the
    /// last one asked for.
    pub fn position(&mut self, offset: usize) -> Position {
        let from = self.at.offset.max(self.base);
        let to = offset.clamp(from, self.end());
        self.at = self
            .at
            .advance(&self.data[from - self.base..to - self.base]);
        self.at
    }

    /// The positions from the last one asked for to file offset `end` (not
    /// past the bytes at hand), `step` bytes apart: counted now, once, so
    /// that another thread locating in these bytes can start counting from
    /// the nearest.
    pub fn marks(&mut self, marks: &mut Vec<Position>, end: usize, step: usize) {
        let end = end.min(self.end());
        while self.at.offset + step < end {
            let next = self.at.offset + step;
            marks.push(self.position(next));
        }
    }

    /// Fills in the line, column and excerpt of diagnostics found in the
    /// bytes at hand, after every diagnostic located before. Reads on if the
    /// context an excerpt shows is not at hand yet.
    pub fn locate(&mut self, diagnostics: &mut [Diagnostic]) -> io::Result<()> {
        let mut all: Vec<&mut Diagnostic> = diagnostics.iter_mut().collect();
        let Some(first) = all.iter().map(|d| d.offset).min() else {
            return Ok(());
        };
        let last = all.iter().map(|d| d.offset).max().unwrap_or(first);
        while self.end() < last + CONTEXT_BYTES && self.fill()? {}
        let from = self.position(first);
        self.at = locate::locate(&self.data[..self.filled], self.base, &[from], &mut all);
        Ok(())
    }

    /// Forgets the bytes before `offset` (but for some context, and those
    /// held), once there are enough of them to be worth moving the rest.
    pub fn release(&mut self, offset: usize) {
        let mut cut = offset.saturating_sub(CONTEXT_BYTES).max(self.base);
        if let Some(held) = self.held {
            cut = cut.min(held.max(self.base));
        }
        let drop = cut - self.base;
        if drop >= self.buffering.chunk && drop * 2 >= self.filled {
            self.position(cut);
            self.data.copy_within(drop..self.filled, 0);
            self.filled -= drop;
            self.base = cut;
        }
    }

    /// Keeps the bytes from file offset `from` on at hand (none released)
    /// until [`Self::split_off`].
    pub fn hold(&mut self, from: usize) {
        self.held = Some(from);
    }

    /// The bytes of `range` (at hand) for another thread, the bytes from
    /// `keep` on staying at hand, by whichever copies less: `range` copied
    /// into a spare buffer, or the whole buffer handed over and the bytes
    /// from `keep` on copied into a spare to read on in. `spares` are
    /// buffers finished with, written to their length.
    pub fn split_off(
        &mut self,
        range: Range<usize>,
        keep: usize,
        spares: &mut Vec<Vec<u8>>,
    ) -> SplitOff {
        self.held = None;
        let keep = keep.clamp(self.base, self.end());
        let kept = self.end() - keep;
        if range.len() <= kept {
            let mut copy = take_spare(spares, range.len());
            copy_into(
                &mut copy,
                &self.data[range.start - self.base..range.end - self.base],
            );
            return SplitOff { bytes: copy, range };
        }
        self.position(keep);
        let mut room = take_spare(spares, self.data.len());
        copy_into(&mut room, &self.data[keep - self.base..self.filled]);
        let whole = std::mem::replace(&mut self.data, room);
        let start = std::mem::replace(&mut self.base, keep);
        self.filled = kept;
        SplitOff {
            bytes: whole,
            range: start..range.end,
        }
    }
}

/// The spare buffer written furthest short of `len` bytes or the shortest
/// as long, so that a small copy does not take the room a large one needs
/// (room written before costs no page touched for the first time).
fn take_spare(spares: &mut Vec<Vec<u8>>, len: usize) -> Vec<u8> {
    let fit = |spare: &Vec<u8>| {
        if spare.len() >= len {
            (1, usize::MAX - spare.len())
        } else {
            (0, spare.len())
        }
    };
    let best = (0..spares.len()).max_by_key(|&i| fit(&spares[i]));
    best.map(|i| spares.swap_remove(i)).unwrap_or_default()
}

/// `bytes` copied to the start of `buffer`, which is lengthened if it is
/// shorter (never shortened: the rest stays written, room to read into).
fn copy_into(buffer: &mut Vec<u8>, bytes: &[u8]) {
    if buffer.len() < bytes.len() {
        buffer.resize(bytes.len(), 0);
    }
    buffer[..bytes.len()].copy_from_slice(bytes);
}
