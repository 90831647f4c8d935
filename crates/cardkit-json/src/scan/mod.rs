//! The scanner: a cursor over JSON bytes that reads one token or one step of
//! an object or array at a time, strictly, and says what is wrong when the
//! bytes are not JSON. It keeps no path and records nothing: its callers do.

use std::borrow::Cow;

use super::found::{FoundByte, FoundValue};
use super::index::StringStops;
use super::lanes::string_stop;
use super::syntax::{Expect, Syntax, SyntaxError};
use super::text::lossy;

mod members;

/// A string token: the byte range of its content, without the quotes.
#[derive(Debug, Clone, Copy)]
pub struct Str {
    /// Index of the first byte of the content.
    pub start: usize,
    /// Index just past the content (the closing quote).
    pub end: usize,
    /// 1 when the content holds escapes. A word, not a `bool`: a `bool`
    /// leaves seven bytes of padding, which the compiler copies piecewise
    /// with every key returned, and each key read after it then waits for
    /// those stores (a store-forwarding stall on every member).
    escapes: usize,
}

impl Str {
    /// The string from `start` to `end`, holding escapes or not.
    #[must_use]
    #[inline]
    pub fn new(start: usize, end: usize, escaped: bool) -> Str {
        Str {
            start,
            end,
            escapes: usize::from(escaped),
        }
    }

    /// The content holds escapes: decode it before comparing.
    #[must_use]
    #[inline]
    pub fn escaped(&self) -> bool {
        self.escapes != 0
    }
}

/// A number token.
#[derive(Debug, Clone, Copy)]
pub struct Num {
    /// Index of its first byte.
    pub start: usize,
    /// Index just past it.
    pub end: usize,
    /// No fraction and no exponent.
    pub plain: bool,
}

/// A cursor over JSON bytes.
#[derive(Debug, Clone)]
pub struct Scanner<'a> {
    /// The bytes that may be read.
    pub bytes: &'a [u8],
    /// The cursor.
    pub pos: usize,
    /// `bytes` up to here are known to be UTF-8 (checked in bulk as they
    /// were read): strings before it need no check of their own.
    pub utf8_checked: usize,
    /// Where string content stops in some of `bytes`, when that was
    /// indexed.
    stops: Option<&'a StringStops>,
}

type Scan<T> = Result<T, SyntaxError>;

impl<'a> Scanner<'a> {
    /// A scanner over `bytes` at `pos`.
    #[must_use]
    pub fn new(bytes: &'a [u8], pos: usize) -> Self {
        Scanner {
            bytes,
            pos,
            utf8_checked: 0,
            stops: None,
        }
    }

    /// The same scanner, finding the end of each string from `stops`, an
    /// index of (some of) its bytes, instead of reading the string's bytes
    /// where they were indexed.
    #[must_use]
    pub fn with_string_stops(mut self, stops: &'a StringStops) -> Self {
        self.stops = Some(stops);
        self
    }

    /// The byte at the cursor.
    #[inline]
    #[must_use]
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// The cursor has reached the end of the bytes.
    #[must_use]
    pub fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// Skips white space.
    #[inline]
    pub fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// Malformed JSON at `at`.
    #[must_use]
    pub fn error(at: usize, syntax: Syntax) -> SyntaxError {
        SyntaxError { at, syntax }
    }

    /// Something else than `expected` at the cursor.
    #[must_use]
    pub fn unexpected(&self, expected: Expect) -> SyntaxError {
        let found = FoundByte::at(self.bytes, self.pos);
        Self::error(self.pos, Syntax::Expected { expected, found })
    }

    /// Skips white space and consumes `byte`, or says what was expected.
    #[inline]
    fn expect(&mut self, byte: u8, expected: Expect) -> Scan<()> {
        self.ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    // ----- tokens -----------------------------------------------------

    /// At an opening quote: scans the string.
    #[inline(always)]
    pub fn string(&mut self) -> Scan<Str> {
        let open = self.pos;
        self.pos += 1;
        let mut escaped = false;
        let mut ascii = true;
        loop {
            // The index does not say whether what it passes over is ASCII:
            // the content's UTF-8 is then checked unless it was in bulk.
            let found = match self.stops.map(|stops| stops.next(self.pos)) {
                Some(Ok(at)) => {
                    ascii &= at == self.pos;
                    self.bytes.get(at).map(|&stop| (at, stop))
                }
                Some(Err(beyond)) if beyond > self.pos => {
                    ascii = false;
                    let from = beyond.min(self.bytes.len());
                    string_stop(&self.bytes[from..], &mut ascii).map(|(i, stop)| (from + i, stop))
                }
                _ => string_stop(&self.bytes[self.pos..], &mut ascii)
                    .map(|(i, stop)| (self.pos + i, stop)),
            };
            let Some((at, stop)) = found else {
                self.pos = self.bytes.len();
                return Err(Self::error(open, Syntax::UnterminatedString));
            };
            self.pos = at;
            match stop {
                b'"' => {
                    self.pos += 1;
                    let token = Str::new(open + 1, self.pos - 1, escaped);
                    let content = &self.bytes[token.start..token.end];
                    let checked = token.end <= self.utf8_checked;
                    if !ascii && !checked && simdutf8::basic::from_utf8(content).is_err() {
                        let valid =
                            std::str::from_utf8(content).map_or_else(|e| e.valid_up_to(), str::len);
                        return Err(Self::error(token.start + valid, Syntax::InvalidUtf8));
                    }
                    return Ok(token);
                }
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                _ => return Err(Self::error(self.pos, Syntax::ControlCharacter)),
            }
        }
    }

    /// At a backslash inside a string: checks and consumes one escape.
    pub(super) fn escape(&mut self) -> Scan<()> {
        let at = self.pos;
        match self.bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 2;
                Ok(())
            }
            Some(b'u') => {
                let unit = self.hex4(at)?;
                if (0xDC00..0xE000).contains(&unit) {
                    return Err(Self::error(at, Syntax::LoneLowSurrogate));
                }
                if (0xD800..0xDC00).contains(&unit) {
                    let low = if self.bytes.get(self.pos..self.pos + 2) == Some(b"\\u") {
                        self.hex4(self.pos)?
                    } else {
                        0
                    };
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(Self::error(at, Syntax::LoneHighSurrogate));
                    }
                }
                Ok(())
            }
            None => {
                self.pos = self.bytes.len();
                Err(Self::error(at, Syntax::UnterminatedString))
            }
            _ => Err(Self::error(at, Syntax::InvalidEscape)),
        }
    }

    /// At `\u`: reads four hex digits.
    fn hex4(&mut self, at: usize) -> Scan<u32> {
        let digits = self.bytes.get(at + 2..at + 6);
        match digits.filter(|d| d.iter().all(u8::is_ascii_hexdigit)) {
            Some(digits) => {
                self.pos = at + 6;
                Ok(digits.iter().fold(0, |unit, &d| unit * 16 + hex_value(d)))
            }
            None => {
                if digits.is_none() {
                    self.pos = self.bytes.len();
                }
                Err(Self::error(at, Syntax::ShortUnicodeEscape))
            }
        }
    }

    /// The content of a string token, unescaped.
    #[must_use]
    pub fn decode(&self, s: Str) -> Cow<'a, str> {
        decode(self.bytes, s)
    }

    /// The text of a token that is ASCII by construction (a number).
    #[must_use]
    pub fn ascii(&self, start: usize, end: usize) -> &'a str {
        std::str::from_utf8(&self.bytes[start..end]).unwrap_or_default()
    }

    /// At `-` or a digit: scans a number.
    #[inline]
    pub fn number(&mut self) -> Scan<Num> {
        let start = self.pos;
        let b = self.bytes;
        let mut pos = start;
        let digits = |pos: &mut usize| {
            let from = *pos;
            while b.get(*pos).is_some_and(u8::is_ascii_digit) {
                *pos += 1;
            }
            *pos > from
        };
        if b.get(pos) == Some(&b'-') {
            pos += 1;
        }
        match b.get(pos) {
            Some(b'0') => {
                pos += 1;
                if b.get(pos).is_some_and(u8::is_ascii_digit) {
                    self.pos = pos;
                    return Err(Self::error(start, Syntax::LeadingZero));
                }
            }
            Some(b'1'..=b'9') => {
                digits(&mut pos);
            }
            _ => {
                self.pos = pos;
                return Err(self.unexpected(Expect::Digit));
            }
        }
        let mut plain = true;
        if b.get(pos) == Some(&b'.') {
            pos += 1;
            plain = false;
            if !digits(&mut pos) {
                self.pos = pos;
                return Err(self.unexpected(Expect::FractionDigit));
            }
        }
        if let Some(b'e' | b'E') = b.get(pos) {
            pos += 1;
            plain = false;
            if let Some(b'+' | b'-') = b.get(pos) {
                pos += 1;
            }
            if !digits(&mut pos) {
                self.pos = pos;
                return Err(self.unexpected(Expect::ExponentDigit));
            }
        }
        self.pos = pos;
        // Only a long literal or one with an exponent can overflow a float.
        if (!plain || pos - start > 300) && overflows_f64(&b[start..pos]) {
            let literal = FoundValue::number(&b[start..pos]);
            return Err(Self::error(start, Syntax::FloatOverflow { literal }));
        }
        Ok(Num {
            start,
            end: pos,
            plain,
        })
    }

    /// At `t`, `f` or `n`: consumes `true`, `false` or `null`.
    #[inline]
    pub fn literal(&mut self) -> Scan<&'static str> {
        for word in ["true", "false", "null"] {
            if self.bytes[self.pos..].starts_with(word.as_bytes()) {
                self.pos += word.len();
                return Ok(word);
            }
        }
        Err(self.unexpected(Expect::Value))
    }

    /// Reads any scalar value (string, number, literal) at the cursor.
    #[inline]
    pub fn scalar(&mut self) -> Scan<()> {
        match self.peek() {
            Some(b'"') => self.string().map(drop),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            Some(b't' | b'f' | b'n') => self.literal().map(drop),
            _ => Err(self.unexpected(Expect::Value)),
        }
    }

    // ----- objects and arrays -------------------------------------------

    /// At `{` or `[`: steps inside; `false` when the object or array is
    /// empty (and has been read past).
    #[inline]
    pub fn open(&mut self) -> Scan<bool> {
        let close = if self.peek() == Some(b'{') {
            b'}'
        } else {
            b']'
        };
        self.pos += 1;
        self.ws();
        if self.peek() == Some(close) {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// Inside an object, before a member: reads its name and the `:` after
    /// it, and leaves the cursor at its value. Returns the name and where
    /// it starts.
    #[inline]
    pub fn member_name(&mut self) -> Scan<(Str, usize)> {
        self.ws();
        if self.peek() != Some(b'"') {
            return Err(self.unexpected(Expect::MemberName));
        }
        let at = self.pos;
        let name = self.string()?;
        self.expect(b':', Expect::Colon)?;
        self.ws();
        Ok((name, at))
    }

    /// After a member's value: reads the `,` before the next member (`true`)
    /// or the `}` that ends the object (`false`).
    #[inline]
    pub fn after_member(&mut self) -> Scan<bool> {
        self.after(b'}', Expect::CommaOrBrace)
    }

    /// After an array item: reads the `,` before the next item (`true`) or
    /// the `]` that ends the array (`false`).
    #[inline]
    pub fn after_item(&mut self) -> Scan<bool> {
        self.after(b']', Expect::CommaOrBracket)
    }

    #[inline]
    fn after(&mut self, close: u8, expected: Expect) -> Scan<bool> {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                self.ws();
                Ok(true)
            }
            Some(c) if c == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(self.unexpected(expected)),
        }
    }

    /// Reads past the value at the cursor by structure alone (strings and
    /// brackets), without checking it closely.
    pub fn skip_structure(&mut self) -> Scan<()> {
        self.skip_by(super::skip_raw)
    }

    /// [`Scanner::skip_structure`] over the structural index
    /// ([`crate::skip_indexed`], the same answer): several times faster over
    /// a long value, slower over a short one.
    pub fn skip_structure_indexed(&mut self) -> Scan<()> {
        self.skip_by(super::skip_indexed)
    }

    fn skip_by(&mut self, skip: fn(&[u8], usize) -> Result<usize, usize>) -> Scan<()> {
        match skip(self.bytes, self.pos) {
            Ok(end) => {
                self.pos = end;
                Ok(())
            }
            Err(at) => {
                self.pos = at;
                Err(self.unexpected(Expect::Value))
            }
        }
    }

    /// The decoded string at the cursor, if a well-formed string is there.
    #[must_use]
    pub fn string_here(&self) -> Option<Cow<'a, str>> {
        let mut probe = self.clone();
        if probe.peek() != Some(b'"') {
            return None;
        }
        let token = probe.string().ok()?;
        Some(probe.decode(token))
    }
}

/// The content of the string token `s` of `bytes`, unescaped.
fn decode(bytes: &[u8], s: Str) -> Cow<'_, str> {
    let raw = lossy(&bytes[s.start..s.end]);
    if !s.escaped() {
        return raw;
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest: &str = &raw;
    // The text between escapes is copied a run at a time.
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let mut chars = rest[at + 1..].chars();
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let hex = |chars: &mut std::str::Chars| {
                    let digits: String = chars.by_ref().take(4).collect();
                    u32::from_str_radix(&digits, 16).unwrap_or(0xFFFD)
                };
                let mut unit = hex(&mut chars);
                if (0xD800..0xDC00).contains(&unit) {
                    chars.nth(1); // the `\u` of the low half, checked when scanned
                    let low = hex(&mut chars);
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low.wrapping_sub(0xDC00));
                }
                out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
        rest = chars.as_str();
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Where a number or literal that starts at `pos` ends, as the scanner reads
/// it: just after it; at the end of `bytes` when it may go on beyond them
/// (`40`, `40.`, `tr`); when it is malformed, at the problem (at least one
/// byte on), for the reading stops there anyway.
pub(super) fn scalar_extent(bytes: &[u8], pos: usize) -> usize {
    let mut scan = Scanner::new(bytes, pos);
    match scan.scalar() {
        Ok(()) => scan.pos,
        // Read to the end of the bytes: more digits may follow (a number
        // found too large, `5E343`, may be `5E3434`).
        Err(error) if error.at.max(scan.pos) >= bytes.len() => bytes.len(),
        Err(_)
            if ["true", "false", "null"]
                .iter()
                .any(|word| word.as_bytes().starts_with(&bytes[pos..])) =>
        {
            bytes.len()
        }
        Err(error) => error.at.max(pos + 1).min(bytes.len()),
    }
}

fn hex_value(digit: u8) -> u32 {
    match digit {
        b'0'..=b'9' => u32::from(digit - b'0'),
        b'a'..=b'f' => u32::from(digit - b'a' + 10),
        _ => u32::from(digit - b'A' + 10),
    }
}

/// Whether the number literal `literal` (valid JSON) is beyond the range of
/// a 64-bit float, judged on its value in time linear in its length: however
/// many digits it has, only its decimal magnitude and first digits are
/// parsed (a long tail of digits brought back by its exponent is no
/// overflow).
pub(crate) fn overflows_f64(literal: &[u8]) -> bool {
    /// More significant digits than a float's correctly rounded parse reads.
    const KEPT: usize = 800;
    let unsigned = literal.strip_prefix(b"-").unwrap_or(literal);
    let (mantissa, exponent) = match unsigned.iter().position(|&b| b == b'e' || b == b'E') {
        Some(i) => (&unsigned[..i], &unsigned[i + 1..]),
        None => (unsigned, &b""[..]),
    };
    let (whole, fraction) = match mantissa.iter().position(|&b| b == b'.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, &b""[..]),
    };
    // The exponent, saturated far beyond any float's.
    let (negative, digits) = match exponent.first() {
        Some(b'-') => (true, &exponent[1..]),
        Some(b'+') => (false, &exponent[1..]),
        _ => (false, exponent),
    };
    let mut exp: i64 = 0;
    for &d in digits {
        exp = (exp * 10 + i64::from(d - b'0')).min(1 << 40);
    }
    if negative {
        exp = -exp;
    }
    // The digits without leading zeros, and where the decimal point is
    // among them.
    let all = whole.iter().chain(fraction.iter()).copied();
    let leading = all.clone().take_while(|&d| d == b'0').count();
    let total = whole.len() + fraction.len();
    if leading == total {
        return false; // zero
    }
    // value = 0.d1 d2 d3 ... x 10^magnitude
    let magnitude = whole.len() as i64 - leading as i64 + exp;
    if magnitude > 400 {
        return true;
    }
    if magnitude < -400 {
        return false; // rounds to zero
    }
    let mut reduced = String::with_capacity(KEPT + 32);
    reduced.push_str("0.");
    let mut significant = all.skip(leading);
    reduced.extend(significant.by_ref().take(KEPT).map(char::from));
    // A non-zero digit past those kept still rounds up: keep one.
    if significant.any(|d| d != b'0') {
        reduced.push('1');
    }
    reduced.push_str(&format!("e{magnitude}"));
    !reduced.parse::<f64>().is_ok_and(f64::is_finite)
}

#[cfg(test)]
mod tests;
