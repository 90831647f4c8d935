//! Lines, columns and source excerpts of diagnostics, computed from byte
//! offsets while the bytes are at hand, so that renderers never need the
//! file and a streamed file need not stay in memory.

use crate::diagnostic::{Diagnostic, Excerpt};

/// How many bytes of context around a unit are kept for excerpts: enough for
/// the characters an excerpt shows, however long they are in UTF-8.
pub(crate) const CONTEXT_BYTES: usize = 4 * Excerpt::CONTEXT;

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A place in a file: its byte offset, 1-based line and column (columns count
/// characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Position {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The start of a file.
    pub const START: Position = Position {
        offset: 0,
        line: 1,
        column: 1,
    };

    /// The position after `bytes`, which start at this position.
    #[must_use]
    pub fn advance(self, bytes: &[u8]) -> Position {
        let newlines = count_newlines(bytes);
        // A byte order mark starting the file is no character of its first
        // line: editors do not count it.
        let bom = usize::from(self.offset == 0 && bytes.starts_with(BOM));
        let (line, column) = if newlines == 0 {
            (self.line, self.column + count_chars(bytes) - bom)
        } else {
            let last = bytes.iter().rposition(|&b| b == b'\n').unwrap_or(0);
            (self.line + newlines, 1 + count_chars(&bytes[last + 1..]))
        };
        Position {
            offset: self.offset + bytes.len(),
            line,
            column,
        }
    }
}

/// Where to count to `offset` from: `from` (a position counted before),
/// or the nearest of `marks` at or before `offset` when that is later or
/// `from` is past `offset`.
fn count_from(from: Position, marks: &[Position], offset: usize) -> Position {
    let nearest = marks.partition_point(|mark| mark.offset <= offset);
    let mark = marks[nearest.saturating_sub(1)];
    if from.offset <= offset && from.offset >= mark.offset {
        from
    } else {
        mark
    }
}

/// The position of file offset `offset` in `bytes`, a window of the file
/// starting at offset `window_start`, counted from `from` or from the
/// nearest of `marks` (known positions in it, in file order, the first at
/// or before `offset`), whichever is nearer.
pub(crate) fn position_at(
    bytes: &[u8],
    window_start: usize,
    marks: &[Position],
    from: Position,
    offset: usize,
) -> Position {
    let start = count_from(from, marks, offset);
    let offset = offset.clamp(start.offset, window_start + bytes.len());
    start.advance(&bytes[start.offset - window_start..offset - window_start])
}

/// Fills in the line, column and excerpt of each diagnostic. `bytes` is a
/// window of the file starting at offset `window_start`; `marks` are known
/// positions inside it, in file order, the first at or before every
/// diagnostic's offset: each diagnostic is counted to from the nearest mark
/// before it. Returns the position of the last diagnostic.
pub(crate) fn locate(
    bytes: &[u8],
    window_start: usize,
    marks: &[Position],
    diagnostics: &mut [&mut Diagnostic],
) -> Position {
    locate_from(bytes, window_start, marks, marks[0], diagnostics)
}

/// [`locate`], counting from `from` (a position counted before) where it
/// is nearer than the marks: the diagnostics of the documents of a batch,
/// located one document after another, count each byte once. Returns the
/// position of the last diagnostic, `from` when there is none.
pub(crate) fn locate_from(
    bytes: &[u8],
    window_start: usize,
    marks: &[Position],
    from: Position,
    diagnostics: &mut [&mut Diagnostic],
) -> Position {
    diagnostics.sort_by_key(|d| d.offset);
    let mut at = from;
    for diagnostic in diagnostics.iter_mut() {
        at = count_from(at, marks, diagnostic.offset);
        let offset = diagnostic
            .offset
            .clamp(at.offset, window_start + bytes.len());
        at = at.advance(&bytes[at.offset - window_start..offset - window_start]);
        diagnostic.line = at.line;
        diagnostic.column = at.column;
        diagnostic.excerpt = excerpt(bytes, offset - window_start);
        // Nor is it shown: the caret would stand one column off.
        if let Some(excerpt) = &mut diagnostic.excerpt {
            let line_start = offset - excerpt.at;
            if line_start == 0 && excerpt.line.starts_with(BOM) {
                excerpt.line.drain(..BOM.len());
                excerpt.at = excerpt.at.saturating_sub(BOM.len());
            }
        }
    }
    at
}

/// Fills in the line, column and source excerpt of each diagnostic from its
/// byte offset in `bytes`, the whole input: for diagnostics made outside
/// the validator (the import's), which know only their offsets.
pub fn locate_in(bytes: &[u8], diagnostics: &mut [Diagnostic]) {
    let mut located: Vec<&mut Diagnostic> = diagnostics.iter_mut().collect();
    locate(bytes, 0, &[Position::START], &mut located);
}

/// Lines and columns of places in a document, found by counting from the
/// document's start: asked in increasing order, each byte is counted once.
#[derive(Debug, Clone)]
pub struct Locator<'a> {
    bytes: &'a [u8],
    start: Position,
    at: Position,
}

impl<'a> Locator<'a> {
    /// A locator over `bytes`, which start at file offset `offset`, line
    /// `line` and column `column`.
    #[must_use]
    pub fn new(bytes: &'a [u8], offset: usize, line: usize, column: usize) -> Self {
        let start = Position {
            offset,
            line,
            column,
        };
        Locator {
            bytes,
            start,
            at: start,
        }
    }

    /// The file offset, line and column of `bytes[local]` (clamped to the
    /// bytes' end).
    pub fn at(&mut self, local: usize) -> (usize, usize, usize) {
        let local = local.min(self.bytes.len());
        if local + self.start.offset < self.at.offset {
            self.at = self.start;
        }
        let from = self.at.offset - self.start.offset;
        self.at = self.at.advance(&self.bytes[from..local]);
        (self.at.offset, self.at.line, self.at.column)
    }
}

/// The bytes of the source line around `offset` of `bytes`, within reach
/// of it: the text is made only if the diagnostic is shown.
fn excerpt(bytes: &[u8], offset: usize) -> Option<Excerpt> {
    // One byte short of the context kept on each side of `offset`: the
    // bytes just outside the excerpt tell whether the line goes on, wherever
    // the bytes at hand begin and end.
    let lower = offset.saturating_sub(CONTEXT_BYTES - 1);
    let upper = (offset + CONTEXT_BYTES - 1).min(bytes.len());
    let start = memchr::memrchr(b'\n', &bytes[lower..offset]).map_or(lower, |i| lower + i + 1);
    let end = memchr::memchr(b'\n', &bytes[offset..upper]).map_or(upper, |i| offset + i);
    Some(Excerpt {
        line: bytes[start..end].to_vec(),
        at: offset - start,
        cut_before: start > 0 && bytes[start - 1] != b'\n',
        cut_after: end < bytes.len() && bytes[end] != b'\n',
        at_end: offset == bytes.len(),
    })
}

/// `\n` bytes in `bytes`.
fn count_newlines(bytes: &[u8]) -> usize {
    bytecount::count(bytes, b'\n')
}

/// Characters in `bytes` (UTF-8): the bytes that are not continuation bytes.
fn count_chars(bytes: &[u8]) -> usize {
    bytecount::num_chars(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_counted_from_the_nearest_mark_is_the_one_counted_from_the_start() {
        let text = "{\n  \"a\": \"héllo\",\n  \"b\": [1, 2,\n 3]}\n".repeat(5);
        let bytes = text.as_bytes();
        // A window from offset 10, with marks where a reading thread would
        // have counted them.
        let window_start = 10;
        let window = &bytes[window_start..];
        let marks: Vec<Position> = [10, 31, 77]
            .iter()
            .map(|&at| Position::START.advance(&bytes[..at]))
            .collect();
        for offset in (10..bytes.len()).filter(|&o| text.is_char_boundary(o)) {
            assert_eq!(
                position_at(window, window_start, &marks, marks[0], offset),
                Position::START.advance(&bytes[..offset]),
                "at {offset}"
            );
        }
    }

    #[test]
    fn counts_agree_with_plain_loops() {
        for text in [
            "",
            "a",
            "ab\ncd\n",
            "héllo\nwörld\n\n€ and more text beyond eight bytes\n",
            "\n\n\n\n\n\n\n\n\n",
            "一二三四五六七八九十",
        ] {
            let bytes = text.as_bytes();
            assert_eq!(
                count_newlines(bytes),
                text.matches('\n').count(),
                "{text:?}"
            );
            assert_eq!(count_chars(bytes), text.chars().count(), "{text:?}");
        }
    }

    #[test]
    fn advance_tracks_lines_and_columns() {
        let at = Position::START.advance("ab\ncdé".as_bytes());
        assert_eq!((at.line, at.column, at.offset), (2, 4, 7));
        let at = at.advance(b"xy");
        assert_eq!((at.line, at.column), (2, 6));
    }
}
