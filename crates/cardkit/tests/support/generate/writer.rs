//! Writing JSON text, with the byte offset of every place: the styles (line
//! breaks, indentation, spacing, escapes) and the writer.

use std::collections::HashMap;

use proptest::prelude::*;

use super::{Node, J};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Escape {
    /// Only what must be escaped.
    Minimal,
    /// Also every non-ASCII character and `/`.
    NonAscii,
    /// Every character as `\uXXXX`.
    All,
}

#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Line break and indentation, or none.
    pub newline: Option<&'static str>,
    pub indent: &'static str,
    pub colon: &'static str,
    pub escape: Escape,
}

impl Style {
    pub const COMPACT: Style = Style {
        newline: None,
        indent: "",
        colon: ":",
        escape: Escape::Minimal,
    };
}

pub fn style() -> impl Strategy<Value = Style> {
    (
        prop::sample::select(vec![None, Some("\n"), Some("\r\n")]),
        prop::sample::select(vec!["", "  ", "\t"]),
        prop::sample::select(vec![":", ": ", " : "]),
        prop::sample::select(vec![
            Escape::Minimal,
            Escape::Minimal,
            Escape::NonAscii,
            Escape::All,
        ]),
    )
        .prop_map(|(newline, indent, colon, escape)| Style {
            newline,
            indent,
            colon,
            escape,
        })
}

/// A one-line style (for JSON Lines).
pub fn line_style() -> impl Strategy<Value = Style> {
    style().prop_map(|s| Style { newline: None, ..s })
}

pub struct Writer {
    pub out: String,
    pub style: Style,
    /// Byte offset of the value at each JSON Pointer.
    pub offsets: Option<HashMap<String, usize>>,
}

pub fn write(node: &Node, style: Style) -> String {
    let mut w = Writer {
        out: String::new(),
        style,
        offsets: None,
    };
    w.node(node, &mut String::new(), 0);
    w.out
}

impl Writer {
    pub fn node(&mut self, node: &Node, pointer: &mut String, level: usize) {
        if let Some(offsets) = &mut self.offsets {
            offsets.insert(pointer.clone(), self.out.len());
        }
        match &node.json {
            J::Null => self.out.push_str("null"),
            J::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) | J::Raw(n) => self.out.push_str(n),
            J::Str(s) => self.string(s),
            J::Arr(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.line(level + 1);
                    let len = pointer.len();
                    pointer.push_str(&format!("/{i}"));
                    self.node(item, pointer, level + 1);
                    pointer.truncate(len);
                }
                if !items.is_empty() {
                    self.line(level);
                }
                self.out.push(']');
            }
            J::Obj(members) => {
                self.out.push('{');
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.line(level + 1);
                    self.string(&m.key);
                    self.out.push_str(self.style.colon);
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&escape_token(&m.key));
                    self.node(&m.node, pointer, level + 1);
                    pointer.truncate(len);
                }
                if !members.is_empty() {
                    self.line(level);
                }
                self.out.push('}');
            }
        }
    }

    pub fn line(&mut self, level: usize) {
        if let Some(newline) = self.style.newline {
            self.out.push_str(newline);
            for _ in 0..level {
                self.out.push_str(self.style.indent);
            }
        }
    }

    pub fn string(&mut self, s: &str) {
        let escape = self.style.escape;
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' if escape == Escape::Minimal => self.out.push_str("\\n"),
                '\t' if escape == Escape::Minimal => self.out.push_str("\\t"),
                '/' if escape == Escape::NonAscii => self.out.push_str("\\/"),
                c if (c as u32) < 0x20
                    || escape == Escape::All
                    || (escape == Escape::NonAscii && !c.is_ascii()) =>
                {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        self.out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

pub fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
