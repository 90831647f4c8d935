//! The reader of one unit of a file (a document, or a value around
//! documents): a [`Scanner`] over its bytes, where those bytes sit in the
//! file, and the path from the unit's root to the value being read.

use crate::diagnostic::quote::{PointerWriter, Quoted};
use cardkit_json::{Scanner, Str};

/// One step of the path from the unit's root to the current value.
#[derive(Debug, Clone, Copy)]
enum Segment {
    Key(Str),
    Index(usize),
}

pub(crate) struct Reader<'a> {
    /// The bytes of the unit (and possibly some context around it).
    pub scan: Scanner<'a>,
    /// Offset in the file of the first byte: reports carry file offsets.
    pub base: usize,
    /// Pointer of the unit's root within the file.
    prefix: &'a str,
    path: Vec<Segment>,
}

impl<'a> Reader<'a> {
    /// A reader over `bytes` at `pos`; `bytes[0]` is at file offset `base`,
    /// and the unit's root is at `prefix` in the file.
    pub fn new(bytes: &'a [u8], base: usize, pos: usize, prefix: &'a str) -> Self {
        Reader {
            scan: Scanner::new(bytes, pos),
            base,
            prefix,
            path: Vec::new(),
        }
    }

    /// The pointer of the current value, plus `member` if given, kept to
    /// the bound of what a report quotes: a huge member name on the path is
    /// counted, not copied.
    pub fn pointer(&self, member: Option<&str>) -> Quoted {
        let mut pointer = PointerWriter::new(self.prefix);
        for segment in &self.path {
            pointer.push_raw("/");
            match *segment {
                Segment::Key(key) => pointer.push_token(&self.scan.decode(key)),
                Segment::Index(index) => pointer.push_raw(&index.to_string()),
            }
        }
        if let Some(member) = member {
            pointer.push_raw("/");
            pointer.push_token(member);
        }
        pointer.finish()
    }

    /// Steps into the member named by the string token `key`.
    #[inline]
    pub fn enter_member(&mut self, key: Str) {
        self.path.push(Segment::Key(key));
    }

    /// Steps into the item at `index`.
    #[inline]
    pub fn enter_item(&mut self, index: usize) {
        self.path.push(Segment::Index(index));
    }

    /// Steps back out of a member or item.
    #[inline]
    pub fn leave(&mut self) {
        self.path.pop();
    }
}
