//! The JSON walker: a strict, single-pass reader over the bytes of one unit of
//! a file (a document, or a member around documents) that keeps byte offsets
//! and a path stack, and records diagnostics.
//!
//! It never builds a tree. On the valid path it only moves a cursor and pushes
//! path segments; pointers and messages are made when a problem is found.
//! UTF-8 is checked where it can occur in valid JSON, inside strings; any
//! other byte beyond ASCII is a syntax error anyway.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::validate::Options;

pub use crate::schema::MAX_DEPTH;

/// Stack left below which `enter` moves to a new stack segment, and that
/// segment's size.
const STACK_RED_ZONE: usize = 128 * 1024;
const STACK_GROWTH: usize = 1024 * 1024;
/// How many levels apart the stack is looked at.
const STACK_CHECK_EVERY: usize = 8;

/// The input is malformed JSON; the `invalid_json` diagnostic has been
/// recorded, and nothing after it can be read.
#[derive(Debug)]
pub(crate) struct Malformed;

pub(crate) type Flow = Result<(), Malformed>;

/// A string token: the byte range of its content, without the quotes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Str {
    pub start: usize,
    pub end: usize,
    pub escaped: bool,
}

/// A number token.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Num {
    pub start: usize,
    pub end: usize,
    /// No fraction and no exponent.
    pub plain: bool,
}

/// One step of the path from the document root to the current value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Segment {
    Key(Str),
    Index(usize),
}

pub(crate) struct Walker<'a> {
    /// The bytes the walker may read: the unit, and possibly some context
    /// around it.
    pub bytes: &'a [u8],
    /// Offset in the file of `bytes[0]`: diagnostics carry file offsets.
    pub base: usize,
    pub pos: usize,
    /// Pointer of the current document's root within the file.
    pub prefix: String,
    pub path: Vec<Segment>,
    pub out: Vec<Diagnostic>,
    pub options: &'a Options,
    /// Inside the value of a field newer than `options.as_of`.
    pub inside_newer: bool,
    /// `bytes` up to here are known to be UTF-8 (checked in bulk): strings
    /// before it need no check of their own.
    pub utf8_checked: usize,
    depth: usize,
}

impl<'a> Walker<'a> {
    /// A walker over `bytes` (which must end where the current unit may
    /// end), starting at `pos`; `bytes[0]` is at offset `base` of the file.
    pub fn new(bytes: &'a [u8], base: usize, pos: usize, options: &'a Options) -> Self {
        Walker {
            bytes,
            base,
            pos,
            prefix: String::new(),
            path: Vec::new(),
            out: Vec::new(),
            options,
            inside_newer: false,
            utf8_checked: 0,
            depth: 0,
        }
    }

    // ----- diagnostics -------------------------------------------------

    /// The pointer of the current value, plus `member` if given.
    pub fn pointer(&self, member: Option<&str>) -> String {
        let mut pointer = self.prefix.clone();
        for segment in &self.path {
            pointer.push('/');
            match *segment {
                Segment::Key(key) => push_escaped(&mut pointer, &self.decode(key)),
                Segment::Index(index) => pointer.push_str(&index.to_string()),
            }
        }
        if let Some(member) = member {
            pointer.push('/');
            push_escaped(&mut pointer, member);
        }
        pointer
    }

    /// Records a diagnostic about the current value (or its `member`) at
    /// `at`, an index into `bytes`.
    pub fn report(
        &mut self,
        code: Code,
        at: usize,
        member: Option<&str>,
        field: Option<String>,
        message: String,
    ) {
        let raised = match code {
            Code::UnknownField => self.options.deny_unknown_fields,
            Code::NewerField => self.options.strict_version,
            _ => false,
        };
        let severity = if raised {
            Severity::Error
        } else {
            code.default_severity()
        };
        let pointer = self.pointer(member);
        self.out.push(Diagnostic {
            code,
            severity,
            pointer,
            field,
            message,
            offset: self.base + at,
            line: 0,
            column: 0,
            excerpt: None,
        });
    }

    /// Records malformed JSON at `at`.
    pub fn malformed<T>(&mut self, at: usize, message: impl Into<String>) -> Result<T, Malformed> {
        self.report(Code::InvalidJson, at, None, None, message.into());
        Err(Malformed)
    }

    /// Records that something else was expected at the cursor.
    pub fn unexpected<T>(&mut self, expected: &str) -> Result<T, Malformed> {
        let found = describe_byte(self.bytes, self.pos);
        self.malformed(self.pos, format!("expected {expected}, found {found}"))
    }

    // ----- tokens -----------------------------------------------------

    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    pub fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// Skips white space and consumes `byte`, or records what was expected.
    pub fn expect(&mut self, byte: u8, expected: &str) -> Flow {
        self.ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            self.unexpected(expected)
        }
    }

    /// At an opening quote: scans the string.
    #[inline(always)]
    pub fn string(&mut self) -> Result<Str, Malformed> {
        let open = self.pos;
        self.pos += 1;
        let mut escaped = false;
        let mut ascii = true;
        loop {
            let Some((i, stop)) = string_stop(&self.bytes[self.pos..], &mut ascii) else {
                self.pos = self.bytes.len();
                return self.malformed(open, "unterminated string");
            };
            self.pos += i;
            match stop {
                b'"' => {
                    self.pos += 1;
                    let token = Str {
                        start: open + 1,
                        end: self.pos - 1,
                        escaped,
                    };
                    let content = &self.bytes[token.start..token.end];
                    let checked = token.end <= self.utf8_checked;
                    if !ascii && !checked && simdutf8::basic::from_utf8(content).is_err() {
                        let valid =
                            std::str::from_utf8(content).map_or_else(|e| e.valid_up_to(), str::len);
                        return self.malformed(token.start + valid, "invalid UTF-8 in a string");
                    }
                    return Ok(token);
                }
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                _ => {
                    return self.malformed(
                        self.pos,
                        "control character in a string (it must be escaped)",
                    )
                }
            }
        }
    }

    /// At a backslash inside a string: checks and consumes one escape.
    fn escape(&mut self) -> Flow {
        let at = self.pos;
        match self.bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 2;
                Ok(())
            }
            Some(b'u') => {
                let unit = self.hex4(at)?;
                if (0xDC00..0xE000).contains(&unit) {
                    return self.malformed(at, "lone low surrogate in a \\u escape");
                }
                if (0xD800..0xDC00).contains(&unit) {
                    let low = if self.bytes.get(self.pos..self.pos + 2) == Some(b"\\u") {
                        self.hex4(self.pos)?
                    } else {
                        0
                    };
                    if !(0xDC00..0xE000).contains(&low) {
                        return self.malformed(at, "lone high surrogate in a \\u escape");
                    }
                }
                Ok(())
            }
            _ => self.malformed(at, "invalid escape in a string"),
        }
    }

    /// At `\u`: reads four hex digits.
    fn hex4(&mut self, at: usize) -> Result<u32, Malformed> {
        let digits = self.bytes.get(at + 2..at + 6);
        match digits.filter(|d| d.iter().all(u8::is_ascii_hexdigit)) {
            Some(digits) => {
                self.pos = at + 6;
                Ok(digits.iter().fold(0, |unit, &d| unit * 16 + hex_value(d)))
            }
            None => self.malformed(at, "a \\u escape needs four hex digits"),
        }
    }

    /// The content of a string token, unescaped.
    pub fn decode(&self, s: Str) -> Cow<'a, str> {
        let raw = lossy(&self.bytes[s.start..s.end]);
        if !s.escaped {
            return raw;
        }
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
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
        }
        Cow::Owned(out)
    }

    /// The text of a token that is ASCII by construction (a number).
    pub fn ascii(&self, start: usize, end: usize) -> &'a str {
        std::str::from_utf8(&self.bytes[start..end]).unwrap_or_default()
    }

    /// At `-` or a digit: scans a number.
    pub fn number(&mut self) -> Result<Num, Malformed> {
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
            Some(b'0') => pos += 1,
            Some(b'1'..=b'9') => {
                digits(&mut pos);
            }
            _ => {
                self.pos = pos;
                return self.unexpected("a digit");
            }
        }
        let mut plain = true;
        if b.get(pos) == Some(&b'.') {
            pos += 1;
            plain = false;
            if !digits(&mut pos) {
                self.pos = pos;
                return self.unexpected("a digit after the decimal point");
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
                return self.unexpected("a digit in the exponent");
            }
        }
        self.pos = pos;
        // Only a long literal or one with an exponent can overflow a float.
        if !plain || pos - start > 300 {
            let literal = self.ascii(start, pos);
            if !literal.parse::<f64>().is_ok_and(f64::is_finite) {
                return self.malformed(
                    start,
                    format!("number {literal} is beyond the range of a 64-bit float"),
                );
            }
        }
        Ok(Num {
            start,
            end: pos,
            plain,
        })
    }

    /// At `t`, `f` or `n`: consumes `true`, `false` or `null`.
    pub fn literal(&mut self) -> Result<&'static str, Malformed> {
        for word in ["true", "false", "null"] {
            if self.bytes[self.pos..].starts_with(word.as_bytes()) {
                self.pos += word.len();
                return Ok(word);
            }
        }
        self.unexpected("a JSON value")
    }

    // ----- structure ----------------------------------------------------

    /// Runs `inside` one nesting level deeper, or reports `too_deep` and
    /// skips the value when the limit is reached.
    pub fn enter(&mut self, inside: impl FnOnce(&mut Self) -> Flow) -> Flow {
        if self.depth >= MAX_DEPTH {
            let at = self.pos;
            self.report(
                Code::TooDeep,
                at,
                None,
                None,
                format!("nesting deeper than {MAX_DEPTH} arrays and objects is not followed"),
            );
            return match skip_raw(self.bytes, self.pos) {
                Ok(end) => {
                    self.pos = end;
                    Ok(())
                }
                Err(_) => self.malformed(at, "malformed JSON inside a value nested too deep"),
            };
        }
        self.depth += 1;
        // Deep documents recurse deeply: grow the stack on the heap when it
        // runs low, so any thread can validate up to MAX_DEPTH. A level takes
        // far less than the red zone over the levels between two looks.
        let result = if self.depth.is_multiple_of(STACK_CHECK_EVERY) {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || inside(self))
        } else {
            inside(self)
        };
        self.depth -= 1;
        result
    }

    /// At `{`: reads every member, calling `member` with the key and its
    /// offset while the key is on the path; `member` must consume the value.
    pub fn members(&mut self, mut member: impl FnMut(&mut Self, Str, usize) -> Flow) -> Flow {
        self.pos += 1;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return self.unexpected("a member name in double quotes");
            }
            let key_at = self.pos;
            let key = self.string()?;
            self.expect(b':', "`:` after the member name")?;
            self.ws();
            self.path.push(Segment::Key(key));
            let result = member(self, key, key_at);
            self.path.pop();
            result?;
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return self.unexpected("`,` or `}` after an object member"),
            }
        }
    }

    /// At `[`: reads every item, calling `item` with its index while the index
    /// is on the path; `item` must consume the value.
    pub fn items(&mut self, mut item: impl FnMut(&mut Self, usize) -> Flow) -> Flow {
        self.pos += 1;
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        let mut index = 0;
        loop {
            self.ws();
            self.path.push(Segment::Index(index));
            let result = item(self, index);
            self.path.pop();
            result?;
            self.ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return self.unexpected("`,` or `]` after an array item"),
            }
            index += 1;
        }
    }

    /// Reads any value without a type, reporting only malformed JSON,
    /// duplicate keys and excessive depth.
    pub fn skip_value(&mut self) -> Flow {
        self.ws();
        match self.peek() {
            Some(b'{') => self.enter(|w| {
                let mut keys = DuplicateKeys::default();
                w.members(|w, key, key_at| {
                    let name = w.decode(key);
                    if !keys.insert(name.clone()) {
                        w.duplicate_key(key_at, &name, None);
                    }
                    w.skip_value()
                })
            }),
            Some(b'[') => self.enter(|w| w.items(|w, _| w.skip_value())),
            Some(b'"') => self.string().map(drop),
            Some(b'-' | b'0'..=b'9') => self.number().map(drop),
            Some(b't' | b'f' | b'n') => self.literal().map(drop),
            _ => self.unexpected("a JSON value"),
        }
    }

    /// Reports a key seen before in the same object (the path holds it).
    pub fn duplicate_key(&mut self, key_at: usize, name: &str, field: Option<String>) {
        self.report(
            Code::DuplicateKey,
            key_at,
            None,
            field,
            format!("duplicate key `{name}`: this later value replaces the earlier one"),
        );
    }

    /// A short description of the value at `at`, for messages (`string "5"`).
    pub fn describe_value(&self, at: usize) -> String {
        describe_value(self.bytes, at)
    }

    /// The decoded string at `at`, if a well-formed string is there.
    pub fn string_at(&self, at: usize) -> Option<String> {
        string_at(self.bytes, at)
    }
}

/// The first byte of `bytes` that ends a run of plain string content (`"`,
/// `\` or a control character), with its index; clears `ascii` when a byte
/// beyond ASCII comes before it. Eight bytes at a time.
#[inline]
fn string_stop(bytes: &[u8], ascii: &mut bool) -> Option<(usize, u8)> {
    let mut i = 0;
    while let Some(word) = bytes.get(i..i + 8) {
        let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        // Lanes that are `"`, `\` or below 0x20 get their high bit set; a
        // borrow may set one in a later lane too, never in an earlier one,
        // so the lowest is exact.
        let stops = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (x.wrapping_sub(ONES * 0x20) & !x))
            & HIGH;
        if stops != 0 {
            let lane = stops.trailing_zeros() as usize / 8;
            let before = (1u64 << (lane * 8)).wrapping_sub(1);
            if x & HIGH & before != 0 {
                *ascii = false;
            }
            return Some((i + lane, word[lane]));
        }
        if x & HIGH != 0 {
            *ascii = false;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return Some((i, b));
        }
        if b >= 0x80 {
            *ascii = false;
        }
        i += 1;
    }
    None
}

fn hex_value(digit: u8) -> u32 {
    match digit {
        b'0'..=b'9' => u32::from(digit - b'0'),
        b'a'..=b'f' => u32::from(digit - b'a' + 10),
        _ => u32::from(digit - b'A' + 10),
    }
}

/// `bytes` as text, invalid UTF-8 replaced: a quick check first, since it is
/// nearly always valid.
pub(crate) fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// How far `bytes` are UTF-8 from the start: all of them, or up to the first
/// byte that is not (or up to a character cut short at the end).
pub(crate) fn utf8_prefix(bytes: &[u8]) -> usize {
    match simdutf8::compat::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(error) => error.valid_up_to(),
    }
}

/// The byte at `at` in words, for "found …" in messages.
fn describe_byte(bytes: &[u8], at: usize) -> String {
    let Some(&first) = bytes.get(at) else {
        return "the end of the input".to_owned();
    };
    let width = match first {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    let end = (at + width).min(bytes.len());
    match std::str::from_utf8(&bytes[at..end])
        .ok()
        .and_then(|s| s.chars().next())
    {
        Some(c) if c.is_control() || c == ' ' => format!("{c:?}"),
        Some(c) => format!("`{c}`"),
        None => format!("the byte 0x{first:02X}, which is not UTF-8"),
    }
}

/// A short description of the JSON value at `at`, for messages.
pub(crate) fn describe_value(bytes: &[u8], at: usize) -> String {
    let literal = |at: usize| {
        let end = skip_raw(bytes, at).unwrap_or(bytes.len());
        String::from_utf8_lossy(&bytes[at..end]).into_owned()
    };
    match bytes.get(at) {
        Some(b'{') => "an object".to_owned(),
        Some(b'[') => "an array".to_owned(),
        Some(b'"') => {
            let literal = literal(at);
            if literal.chars().count() > 42 {
                let cut: String = literal.chars().take(40).collect();
                format!("string {cut}…\"")
            } else {
                format!("string {literal}")
            }
        }
        Some(b't' | b'f') => format!(
            "boolean {}",
            if bytes[at] == b't' { "true" } else { "false" }
        ),
        Some(b'n') => "null".to_owned(),
        Some(_) => format!("number {}", literal(at)),
        None => "nothing".to_owned(),
    }
}

/// The decoded string at `at`, if a well-formed string is there.
pub(crate) fn string_at(bytes: &[u8], at: usize) -> Option<String> {
    const NO_OPTIONS: Options = Options::DEFAULT;
    let mut probe = Walker::new(bytes, 0, at, &NO_OPTIONS);
    if probe.peek() != Some(b'"') {
        return None;
    }
    let token = probe.string().ok()?;
    Some(probe.decode(token).into_owned())
}

/// Skips one value structurally (strings, brackets), without checking it
/// closely or recording anything; returns the offset after it. `Err(at)`:
/// the value is cut short (`at` is the end of `bytes`) or a bracket at `at`
/// does not match. Iterative, so any depth is safe.
///
/// This is what finds where each document ends before it is sent to another
/// thread, so it reads eight bytes at a time: a word with no backslash and
/// no bracket outside strings only toggles whether the scan is in a string.
pub(crate) fn skip_raw(bytes: &[u8], mut pos: usize) -> Result<usize, usize> {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
        pos += 1;
    }
    match bytes.get(pos) {
        None => return Err(bytes.len()),
        Some(b'{' | b'[') => {}
        Some(b'"') => return skip_string(bytes, pos + 1),
        Some(b'}' | b']') => return Err(pos),
        Some(_) => {
            // A scalar: up to the next delimiter.
            let len = bytes[pos..]
                .iter()
                .position(|b| b",]} \n\r\t:".contains(b))
                .unwrap_or(bytes.len() - pos);
            return Ok(pos + len);
        }
    }
    let mut open: Vec<u8> = Vec::new();
    let mut in_string = false;
    loop {
        // Whole words while they hold no backslash (escapes are read byte by
        // byte), with the brackets outside strings taken in turn.
        while let Some(word) = bytes.get(pos..pos + 8) {
            let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
            if lanes_equal(x, b'\\') != 0 {
                break;
            }
            let quotes = lanes_equal(x, b'"');
            // Lanes inside a string: a prefix XOR of the quotes, from the
            // state the word starts in.
            let mut inside = quotes ^ (quotes << 8);
            inside ^= inside << 16;
            inside ^= inside << 32;
            if in_string {
                inside ^= HIGH;
            }
            // `[` and `]` are `{` and `}` without the 0x20 bit.
            let brackets =
                lanes_equal(x | (ONES * 0x20), b'{') | lanes_equal(x | (ONES * 0x20), b'}');
            let mut outside = brackets & !inside;
            while outside != 0 {
                let lane = outside.trailing_zeros() / 8;
                let at = pos + lane as usize;
                match bytes[at] {
                    b'{' => open.push(b'}'),
                    b'[' => open.push(b']'),
                    close => {
                        if open.pop() != Some(close) {
                            return Err(at);
                        }
                        if open.is_empty() {
                            return Ok(at + 1);
                        }
                    }
                }
                outside &= outside - 1;
            }
            in_string = inside >> 63 != 0;
            pos += 8;
            // A word all inside a string is the middle of a long one (a
            // card's text): jump to its next quote or backslash.
            if in_string && quotes == 0 {
                match memchr::memchr2(b'"', b'\\', &bytes[pos..]) {
                    Some(i) => pos += i,
                    None => return Err(bytes.len()),
                }
            }
        }
        // One byte at a time up to the next word boundary (or the end).
        let stop = (pos + 8).min(bytes.len());
        if pos >= stop {
            return Err(bytes.len());
        }
        while pos < stop {
            let byte = bytes[pos];
            pos += 1;
            if in_string {
                match byte {
                    b'"' => in_string = false,
                    b'\\' => pos += 1,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => in_string = true,
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                b'}' | b']' => {
                    if open.pop() != Some(byte) {
                        return Err(pos - 1);
                    }
                    if open.is_empty() {
                        return Ok(pos);
                    }
                }
                _ => {}
            }
        }
        // An escape may have stepped over the end.
        if pos > bytes.len() {
            return Err(bytes.len());
        }
    }
}

/// Inside a string at `pos`: the offset after its closing quote.
fn skip_string(bytes: &[u8], mut pos: usize) -> Result<usize, usize> {
    loop {
        let mut ascii = true;
        let rest = bytes.get(pos..).unwrap_or_default();
        let Some((i, stop)) = string_stop(rest, &mut ascii) else {
            return Err(bytes.len());
        };
        pos += i + 1;
        match stop {
            b'"' => return Ok(pos),
            b'\\' => pos += 1,
            _ => {}
        }
    }
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that equals `byte`, and no other bit.
#[inline]
fn lanes_equal(x: u64, byte: u8) -> u64 {
    let y = x ^ (ONES * u64::from(byte));
    !(((y & !HIGH) + !HIGH) | y) & HIGH
}

/// The keys met so far in one object, to find duplicates: a short list that
/// becomes a hash set when the object is large.
#[derive(Default)]
pub(crate) struct DuplicateKeys<'a> {
    few: Vec<Cow<'a, str>>,
    many: HashSet<Cow<'a, str>>,
}

impl<'a> DuplicateKeys<'a> {
    /// Adds a key; `false` if it was there already.
    pub fn insert(&mut self, key: Cow<'a, str>) -> bool {
        if !self.many.is_empty() {
            return self.many.insert(key);
        }
        if self.few.contains(&key) {
            return false;
        }
        self.few.push(key);
        if self.few.len() > 16 {
            self.many.extend(self.few.drain(..));
        }
        true
    }
}

/// Appends `token` to a JSON Pointer, escaped per RFC 6901.
pub(crate) fn push_escaped(pointer: &mut String, token: &str) {
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_stop_finds_the_first_stop_and_notes_non_ascii() {
        for text in [
            "abc\"",
            "abcdefghijklmnop\"",
            "abcdefgh\\n\"",
            "héllo wörld, longer than eight\"",
            "0123456\u{1}",
            "ab\"cdé fghijkl",
            "abcdéfg\"h",
            "",
        ] {
            let bytes = text.as_bytes();
            let mut ascii = true;
            let expected = bytes
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .map(|i| (i, bytes[i]));
            assert_eq!(string_stop(bytes, &mut ascii), expected, "{text:?}");
            let upto = expected.map_or(bytes.len(), |(i, _)| i);
            assert_eq!(ascii, bytes[..upto].is_ascii(), "{text:?}");
        }
    }

    /// The byte-at-a-time skip that `skip_raw` must agree with.
    fn skip_reference(bytes: &[u8], mut pos: usize) -> Result<usize, usize> {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
            pos += 1;
        }
        let mut open = Vec::new();
        let mut in_string = false;
        let scalar = !matches!(bytes.get(pos), Some(b'{' | b'[' | b'"' | b'}' | b']'));
        if scalar {
            let len = bytes.get(pos..).ok_or(bytes.len())?;
            if len.is_empty() {
                return Err(bytes.len());
            }
            let end = len.iter().position(|b| b",]} \n\r\t:".contains(b));
            return Ok(pos + end.unwrap_or(len.len()));
        }
        while let Some(&byte) = bytes.get(pos) {
            pos += 1;
            if in_string {
                match byte {
                    b'"' => in_string = false,
                    b'\\' => pos += 1,
                    _ => {}
                }
                if !in_string && open.is_empty() {
                    return Ok(pos);
                }
                continue;
            }
            match byte {
                b'"' => in_string = true,
                b'{' => open.push(b'}'),
                b'[' => open.push(b']'),
                b'}' | b']' => {
                    if open.pop() != Some(byte) {
                        return Err(pos - 1);
                    }
                    if open.is_empty() {
                        return Ok(pos);
                    }
                }
                _ => {}
            }
        }
        Err(bytes.len())
    }

    #[test]
    fn skip_raw_agrees_with_a_byte_at_a_time_skip() {
        let pieces: [&[u8]; 14] = [
            b"{",
            b"}",
            b"[",
            b"]",
            b"\"",
            b"\\",
            b"\\\"",
            b"abc",
            b",",
            b":",
            b" ",
            b"{\"key\": [1, 2, {\"x\": \"y\"}]}",
            b"\"a]{\"",
            b"0123456789",
        ];
        // A small generator of many mixtures: every seed gives one text.
        for seed in 0..20_000u64 {
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut text = Vec::new();
            let len = 1 + (seed % 40) as usize;
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.extend_from_slice(pieces[(state % pieces.len() as u64) as usize]);
            }
            for start in [0, 1, 2] {
                assert_eq!(
                    skip_raw(&text, start),
                    skip_reference(&text, start),
                    "{:?} from {start}",
                    String::from_utf8_lossy(&text)
                );
            }
        }
    }

    #[test]
    fn skip_raw_tells_cut_short_from_mismatched() {
        assert_eq!(skip_raw(br#"{"a": [1, "]"]} x"#, 0), Ok(15));
        assert_eq!(skip_raw(br#"{"a": [1, 2}"#, 0), Err(11));
        assert_eq!(skip_raw(br#"{"a": [1, 2"#, 0), Err(11));
        assert_eq!(skip_raw(br#""abc\"de"  "#, 0), Ok(9));
        assert_eq!(skip_raw(b"12345", 0), Ok(5));
    }
}
