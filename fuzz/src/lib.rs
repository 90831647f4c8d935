//! Shared pieces of the fuzz targets: a structure-aware generator of
//! well-formed JSON text, and small helpers.

use arbitrary::{Arbitrary, Result, Unstructured};

/// Field names and tags of the spec, drawn as keys more often than
/// arbitrary strings so that generated values reach the validators of the
/// models rather than stopping at unknown fields.
pub const KEYS: &[&str] = &[
    "type",
    "children",
    "data",
    "cards",
    "code",
    "object",
    "migration",
    "uri",
    "meta",
    "name",
    "id",
    "version",
    "date",
    "width",
    "height",
    "color",
    "layers",
    "filters",
    "set",
    "card",
    "template",
    "list",
    "fields",
    "value",
    "x",
    "y",
    "text",
    "image",
    "group",
    "from",
    "to",
    "license",
];

/// String values worth trying: kind names, tags, formats that pass and fail.
pub const STRINGS: &[&str] = &[
    "card",
    "set",
    "template",
    "migration",
    "list",
    "group",
    "text",
    "image",
    "rect",
    "#ff0000",
    "#FFF",
    "#12345678",
    "red",
    "rgb(1,2,3)",
    "2024-01-31",
    "2024-02-30",
    "https://example.com/a",
    "not a uri",
    "123e4567-e89b-12d3-a456-426614174000",
    "ABC",
    "",
    "1.0.0",
];

/// Nesting of the generated value's structure (not counting deep chains,
/// which are built without recursion).
const MAX_RECURSION: usize = 48;

/// A well-formed JSON text, optionally after a UTF-8 byte order mark.
#[derive(Debug)]
pub struct Json {
    /// The text, BOM included when there is one.
    pub text: String,
    /// Whether the text starts with a BOM.
    pub bom: bool,
    /// Whether some number has more than 15 significant digits or an
    /// exponent (read differently by binary64 parsers).
    pub wide_numbers: bool,
}

impl<'a> Arbitrary<'a> for Json {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut g = Gen {
            out: String::new(),
            budget: 4096,
            wide_numbers: false,
        };
        let bom = u.ratio(1, 16)?;
        if bom {
            g.out.push('\u{FEFF}');
        }
        g.ws(u)?;
        g.value(u, 0)?;
        g.ws(u)?;
        Ok(Json {
            text: g.out,
            bom,
            wide_numbers: g.wide_numbers,
        })
    }
}

struct Gen {
    out: String,
    /// Values left to generate, so that output stays bounded.
    budget: usize,
    wide_numbers: bool,
}

impl Gen {
    fn ws(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        if u.ratio(1, 8)? {
            let n = u.int_in_range(1..=4)?;
            for _ in 0..n {
                self.out.push(*u.choose(&[' ', '\t', '\n', '\r'])?);
            }
        }
        Ok(())
    }

    fn value(&mut self, u: &mut Unstructured<'_>, depth: usize) -> Result<()> {
        if self.budget == 0 || depth >= MAX_RECURSION || u.is_empty() {
            return self.scalar(u);
        }
        self.budget -= 1;
        match u.int_in_range(0u8..=11)? {
            0..=3 => self.scalar(u),
            4..=6 => self.object(u, depth),
            7..=8 => self.array(u, depth),
            9..=10 => self.chain(u, depth),
            _ => self.string(u),
        }
    }

    fn object(&mut self, u: &mut Unstructured<'_>, depth: usize) -> Result<()> {
        self.out.push('{');
        self.ws(u)?;
        let n = u.int_in_range(0..=8)?;
        let mut keys: Vec<String> = Vec::new();
        for i in 0..n {
            if i > 0 {
                self.out.push(',');
                self.ws(u)?;
            }
            let key = if !keys.is_empty() && u.ratio(1, 8)? {
                // A duplicate key.
                u.choose(&keys)?.clone()
            } else {
                self.key(u)?
            };
            push_string(&mut self.out, &key);
            keys.push(key);
            self.ws(u)?;
            self.out.push(':');
            self.ws(u)?;
            self.value(u, depth + 1)?;
            self.ws(u)?;
        }
        self.out.push('}');
        Ok(())
    }

    fn array(&mut self, u: &mut Unstructured<'_>, depth: usize) -> Result<()> {
        self.out.push('[');
        self.ws(u)?;
        let n = u.int_in_range(0..=8)?;
        for i in 0..n {
            if i > 0 {
                self.out.push(',');
                self.ws(u)?;
            }
            self.value(u, depth + 1)?;
            self.ws(u)?;
        }
        self.out.push(']');
        Ok(())
    }

    /// A chain of up to a few thousand nested objects and arrays around one
    /// value, written without recursion.
    fn chain(&mut self, u: &mut Unstructured<'_>, depth: usize) -> Result<()> {
        let layers: usize = match u.int_in_range(0u8..=3)? {
            0 => u.int_in_range(1..=16)?,
            1 => u.int_in_range(1..=300)?,
            2 => u.int_in_range(1090..=1110)?,
            _ => u.int_in_range(1..=4000)?,
        };
        // 0: arrays; 1: objects under one key; 2: layer groups
        // ({"type": "group", "children": [...]}); 3: alternating.
        let style = u.int_in_range(0u8..=3)?;
        let mut key = self.key(u)?;
        if key.len().saturating_mul(layers) > 1 << 16 {
            // A long key repeated at every layer would make documents of
            // hundreds of MB, which only slows the fuzzer down.
            key = KEYS[0].to_owned();
        }
        let mut closing = String::new();
        for i in 0..layers {
            let array = match style {
                0 => true,
                1 | 2 => false,
                _ => i % 2 == 0,
            };
            if style == 2 {
                self.out.push_str(r#"{"type":"group","children":["#);
                // Reversed with the rest below: "]}".
                closing.push_str("}]");
            } else if array {
                self.out.push('[');
                closing.push(']');
            } else {
                self.out.push('{');
                push_string(&mut self.out, &key);
                self.out.push(':');
                closing.push('}');
            }
        }
        self.value(u, depth + 1)?;
        self.out.extend(closing.chars().rev());
        Ok(())
    }

    fn key(&mut self, u: &mut Unstructured<'_>) -> Result<String> {
        Ok(match u.int_in_range(0u8..=7)? {
            0..=4 => (*u.choose(KEYS)?).to_owned(),
            5 => {
                let s: String = u.arbitrary()?;
                s
            }
            6 if self.out.len() < 1 << 20 => {
                // A long key.
                let n = u.int_in_range(1..=70_000)?;
                let c: char = u.arbitrary()?;
                std::iter::repeat_n(c, n).collect()
            }
            _ => format!("{}{}", u.choose(KEYS)?, u.arbitrary::<u8>()?),
        })
    }

    fn string(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        let s = match u.int_in_range(0u8..=3)? {
            0 | 1 => (*u.choose(STRINGS)?).to_owned(),
            2 => u.arbitrary::<String>()?,
            3 if self.out.len() < 1 << 20 => {
                let n = u.int_in_range(1..=200_000)?;
                let c: char = u.arbitrary()?;
                std::iter::repeat_n(c, n).collect()
            }
            _ => u.arbitrary::<String>()?,
        };
        push_string(&mut self.out, &s);
        Ok(())
    }

    fn scalar(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        match u.int_in_range(0u8..=7)? {
            0 => self.out.push_str("null"),
            1 => self.out.push_str("true"),
            2 => self.out.push_str("false"),
            3 | 4 => self.string(u)?,
            _ => self.number(u)?,
        }
        Ok(())
    }

    /// A number literal: any sign, any count of digits, any fraction and
    /// exponent the grammar allows.
    fn number(&mut self, u: &mut Unstructured<'_>) -> Result<()> {
        let mut digits = String::new();
        if u.ratio(1, 3)? {
            self.out.push('-');
        }
        let int_len = match u.int_in_range(0u8..=3)? {
            0 | 1 => u.int_in_range(1..=4)?,
            2 => u.int_in_range(1..=20)?,
            _ => u.int_in_range(1..=400)?,
        };
        if u.ratio(1, 6)? {
            digits.push('0');
        } else {
            digits.push(char::from(b'1' + u.int_in_range(0..=8)?));
            for _ in 1..int_len {
                digits.push(char::from(b'0' + u.int_in_range(0..=9)?));
            }
        }
        let int_part = digits.clone();
        self.out.push_str(&int_part);
        if u.ratio(1, 4)? {
            self.out.push('.');
            let most = *u.choose(&[3usize, 30, 400])?;
            let n = u.int_in_range(1..=most)?;
            let mut fraction = String::new();
            for _ in 0..n {
                fraction.push(char::from(b'0' + u.int_in_range(0..=9)?));
            }
            self.out.push_str(&fraction);
            digits.push_str(&fraction);
        }
        if u.ratio(1, 6)? {
            self.wide_numbers = true;
            self.out.push(*u.choose(&['e', 'E'])?);
            match u.int_in_range(0u8..=2)? {
                0 => {}
                1 => self.out.push('+'),
                _ => self.out.push('-'),
            }
            let most = *u.choose(&[2usize, 5, 40])?;
            let n = u.int_in_range(1..=most)?;
            for _ in 0..n {
                self.out.push(char::from(b'0' + u.int_in_range(0..=9)?));
            }
        }
        if digits.trim_start_matches('0').len() > 15 {
            self.wide_numbers = true;
        }
        Ok(())
    }
}

/// Appends `s` as a JSON string literal, escaping what must be escaped and
/// sometimes more (`\u` escapes of plain characters, surrogate pairs).
fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for (i, c) in s.chars().enumerate() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{0}'..='\u{1f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            // Now and then escape a character that needs none.
            c if i % 7 == 3 => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The greatest nesting of arrays and objects in `bytes`, outside strings,
/// whether or not the bytes are well-formed.
#[must_use]
pub fn max_nesting(bytes: &[u8]) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Runs `f` on a thread with a stack deep enough for values nested a few
/// thousand levels in any build.
pub fn with_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(scope, f)
            .expect("a thread")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}
