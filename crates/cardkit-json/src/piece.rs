//! A string read a piece at a time: a string longer than any buffer (a
//! 300 MB note in a catalog's `meta`) is checked as its bytes arrive, and
//! the bytes behind the cursor can be let go.

use super::lanes::string_stop;
use super::scan::Scanner;
use super::syntax::{Syntax, SyntaxError};

/// The longest escape, a surrogate pair (`\uD83D\uDE00`): while more bytes
/// may follow, an escape this close to the end waits for them, so that it is
/// checked whole.
const LONGEST_ESCAPE: usize = 12;

impl Scanner<'_> {
    /// Inside a string (just after its opening quote, or where the last
    /// piece stopped): reads on over whole characters and escapes. `Ok(true)`
    /// once past the closing quote; `Ok(false)` where the bytes end. While
    /// `more` bytes may follow, the cursor stops before a character or an
    /// escape that they may complete.
    ///
    /// Problems are found as [`Scanner::string`] finds them, but invalid
    /// UTF-8 is reported at once, where that waits for the closing quote.
    /// An unterminated string is the caller's to report: it knows where the
    /// string began.
    pub fn string_piece(&mut self, more: bool) -> Result<bool, SyntaxError> {
        let start = self.pos;
        let mut ascii = true;
        let (closed, end) = loop {
            let Some((i, stop)) = string_stop(&self.bytes[self.pos..], &mut ascii) else {
                let end = if more {
                    char_start_if_cut(self.bytes, start)
                } else {
                    self.bytes.len()
                };
                self.pos = end;
                break (false, end);
            };
            let at = self.pos + i;
            match stop {
                b'"' => {
                    self.pos = at + 1;
                    break (true, at);
                }
                b'\\' if more && at + LONGEST_ESCAPE > self.bytes.len() => {
                    self.pos = at;
                    break (false, at);
                }
                b'\\' => {
                    self.pos = at;
                    self.escape()?;
                }
                _ => return Err(Self::error(at, Syntax::ControlCharacter)),
            }
        };
        let content = &self.bytes[start..end];
        if !ascii && end > self.utf8_checked && simdutf8::basic::from_utf8(content).is_err() {
            let valid = std::str::from_utf8(content).map_or_else(|e| e.valid_up_to(), str::len);
            return Err(Self::error(start + valid, Syntax::InvalidUtf8));
        }
        Ok(closed)
    }
}

/// The end of `bytes`, or the start of their last character if it is cut
/// short (a lead byte with fewer continuation bytes after it than it
/// needs), but not before `from`.
fn char_start_if_cut(bytes: &[u8], from: usize) -> usize {
    let end = bytes.len();
    for back in 1..=3.min(end - from) {
        let byte = bytes[end - back];
        if byte & 0xC0 != 0x80 {
            let width = match byte {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xFF => 4,
                _ => 1,
            };
            return if back < width { end - back } else { end };
        }
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads the string that starts at `text[0]` (its quote) in pieces that
    /// end at each of `cuts`, as a reader whose buffer ends there would.
    fn in_pieces(text: &[u8], cut: usize) -> Result<bool, SyntaxError> {
        let mut pos = 1;
        let mut end = cut.max(2).min(text.len());
        loop {
            let more = end < text.len();
            let mut scan = Scanner::new(&text[..end], pos);
            if scan.string_piece(more)? {
                return Ok(true);
            }
            if !more {
                return Ok(false);
            }
            pos = scan.pos;
            end = (end + cut).min(text.len());
        }
    }

    #[test]
    fn pieces_agree_with_the_whole_string_wherever_the_bytes_are_cut() {
        let strings: [&[u8]; 12] = [
            br#""plain text""#,
            "\"caf\u{e9} \u{1F600} \u{4e2d}\"".as_bytes(),
            br#""esc \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 end""#,
            br#""bad \x escape""#,
            br#""lone \uDE00 low""#,
            br#""lone \uD83D high""#,
            br#""short \u12 escape""#,
            b"\"control \x01 char\"",
            b"\"bad \xFF utf8\"",
            b"\"cut \xE2\x82 short\"",
            br#""unterminated"#,
            br#""ends in \"#,
        ];
        for text in strings {
            let mut whole = Scanner::new(text, 0);
            let expected = whole.string().map(|_| true);
            for cut in 1..=text.len() {
                let got = in_pieces(text, cut);
                match (&expected, &got) {
                    (Ok(_), Ok(true)) => {}
                    (Err(e), Err(g)) => assert_eq!(e, g, "{} cut at {cut}", text.escape_ascii()),
                    // The caller reports an unterminated string.
                    (Err(e), Ok(false)) if e.syntax == Syntax::UnterminatedString && e.at == 0 => {}
                    _ => panic!(
                        "{}: whole {expected:?}, cut at {cut}: {got:?}",
                        text.escape_ascii()
                    ),
                }
            }
        }
    }

    #[test]
    fn a_cut_character_waits_for_its_continuation_bytes() {
        let euro = "\u{20AC}".as_bytes();
        assert_eq!(char_start_if_cut(&euro[..2], 0), 0);
        assert_eq!(char_start_if_cut(euro, 0), 3);
        assert_eq!(char_start_if_cut(b"ab", 0), 2);
        assert_eq!(char_start_if_cut(&euro[..1], 1), 1);
    }
}
