//! Lines, columns and source excerpts of diagnostics, computed from byte
//! offsets while the bytes are at hand, so that renderers never need the
//! file and a streamed file need not stay in memory.

use crate::diagnostic::{Diagnostic, Excerpt};

/// How many characters of a long source line are kept on each side of the
/// offending one.
const EXCERPT_CONTEXT: usize = 60;

/// How many bytes of context around a unit are kept for excerpts.
pub(crate) const CONTEXT_BYTES: usize = 4 * EXCERPT_CONTEXT;

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
        let (line, column) = if newlines == 0 {
            (self.line, self.column + count_chars(bytes))
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

/// Fills in the line, column and excerpt of each diagnostic. `bytes` is a
/// window of the file starting at offset `window_start`; `from` is a known
/// position inside it, at or before every diagnostic's offset. Returns the
/// position of the last diagnostic.
pub(crate) fn locate(
    bytes: &[u8],
    window_start: usize,
    from: Position,
    diagnostics: &mut [&mut Diagnostic],
) -> Position {
    diagnostics.sort_by_key(|d| d.offset);
    let mut at = from;
    for diagnostic in diagnostics.iter_mut() {
        let offset = diagnostic
            .offset
            .clamp(at.offset, window_start + bytes.len());
        at = at.advance(&bytes[at.offset - window_start..offset - window_start]);
        diagnostic.line = at.line;
        diagnostic.column = at.column;
        diagnostic.excerpt = excerpt(bytes, offset - window_start);
    }
    at
}

/// The source line around `offset` of `bytes` (cut to a window when long)
/// and the caret's place in it.
fn excerpt(bytes: &[u8], offset: usize) -> Option<Excerpt> {
    let lower = offset.saturating_sub(CONTEXT_BYTES);
    let upper = (offset + CONTEXT_BYTES).min(bytes.len());
    let start = bytes[lower..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(lower, |i| lower + i + 1);
    let end = bytes[offset..upper]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(upper, |i| offset + i);
    // A window that cuts into the line must not cut into a character.
    let start = (start..offset)
        .find(|&i| !is_continuation(bytes[i]))
        .unwrap_or(offset);
    let cut_before = start > 0 && bytes[start - 1] != b'\n';
    let cut_after = end < bytes.len() && bytes[end] != b'\n';
    let before = String::from_utf8_lossy(&bytes[start..offset])
        .chars()
        .count();
    let line = String::from_utf8_lossy(&bytes[start..end]);
    let line = line.trim_end_matches('\r');
    let chars: Vec<char> = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if chars.iter().all(|c| c.is_whitespace()) && before >= chars.len() {
        return (!chars.is_empty() || offset == bytes.len()).then(|| Excerpt {
            text: chars.iter().collect(),
            caret: before,
        });
    }
    let from = before.saturating_sub(EXCERPT_CONTEXT);
    let to = (before + EXCERPT_CONTEXT).min(chars.len());
    let mut text: String = chars[from..to].iter().collect();
    let mut caret = before - from;
    if from > 0 || cut_before {
        text.insert(0, '…');
        caret += 1;
    }
    if to < chars.len() || cut_after {
        text.push('…');
    }
    Some(Excerpt { text, caret })
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// `\n` bytes in `bytes`, eight at a time.
fn count_newlines(bytes: &[u8]) -> usize {
    count_where(bytes, |x| {
        let y = x ^ (ONES * u64::from(b'\n'));
        // A byte is zero exactly when its high bit ends up set here.
        !(((y & !HIGH) + !HIGH) | y) & HIGH
    })
}

/// Characters in `bytes` (UTF-8): the bytes that are not continuation bytes.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.len() - count_where(bytes, |x| x & !(x << 1) & HIGH)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Counts the bytes for which `mark` sets the high bit of the byte's lane.
fn count_where(bytes: &[u8], mark: impl Fn(u64) -> u64) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut count = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        count += mark(u64::from_le_bytes(word)).count_ones() as usize;
    }
    let mut tail = [0u8; 8];
    let rest = chunks.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    // The padding is zero bytes, which neither mark counts.
    count + mark(u64::from_le_bytes(tail)).count_ones() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

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
