//! Where a value of a set document is: a place as the references keep it
//! while a document is read ([`At`]), and written out ([`Spot`]) for what
//! the run keeps until its end.

use std::ops::Range;
use std::sync::Arc;

/// A place in the input: a value's JSON Pointer, byte offset, line and
/// column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    /// JSON Pointer from the file's root of the record (or the document)
    /// the value is in: shared by all its values, so that a record's dozen
    /// places, or a list of millions of ids, hold one pointer.
    pub base: Arc<str>,
    /// The members from `base` to the value, or to the list it is an item
    /// of, by their names as written: at most two (`relatedCards`,
    /// `reverseRelated`); `""` where there are fewer.
    pub tail: [&'static str; 2],
    /// The value's index in the list, when it is an item.
    pub item: Option<usize>,
    /// Byte offset in the file.
    pub offset: usize,
    /// 1-based line: 0 in a document's [`SetFacts`](super::SetFacts) until
    /// [`SetFacts::locate`](super::SetFacts::locate) counts it, which
    /// [`Digest::of`](super::Digest::of) asks only for the places that
    /// outlive the document.
    pub line: usize,
    /// 1-based column, in characters (0 as `line` is).
    pub column: usize,
}

impl At {
    /// The JSON Pointer of the member that holds the value: the value's
    /// own, or that of the list it is an item of.
    #[must_use]
    pub fn member_pointer(&self) -> String {
        let mut pointer = String::new();
        self.write_member_pointer(&mut pointer);
        pointer
    }

    /// The value's JSON Pointer.
    #[must_use]
    pub fn pointer(&self) -> String {
        let mut pointer = String::new();
        self.write_pointer(&mut pointer);
        pointer
    }

    fn write_member_pointer(&self, out: &mut String) {
        out.push_str(&self.base);
        for member in self.tail.iter().filter(|m| !m.is_empty()) {
            out.push('/');
            cardkit_json::pointer::push_escaped(out, member);
        }
    }

    fn write_pointer(&self, out: &mut String) {
        self.write_member_pointer(out);
        if let Some(item) = self.item {
            cardkit_json::pointer::push_index(out, item);
        }
    }

    /// The place written out, its pointer appended to `pointers`.
    pub(super) fn written(&self, pointers: &mut String) -> Spot {
        let start = pointers.len();
        self.write_pointer(pointers);
        Spot {
            pointer: start..pointers.len(),
            offset: self.offset,
            line: self.line,
            column: self.column,
        }
    }

    /// The place `spot` is, its pointer in `pointers`.
    pub(super) fn of_spot(spot: &Spot, pointers: &str) -> At {
        At {
            base: Arc::from(&pointers[spot.pointer.clone()]),
            tail: [""; 2],
            item: None,
            offset: spot.offset,
            line: spot.line,
            column: spot.column,
        }
    }
}

/// A place written out ([`At::written`]): its JSON Pointer a range of a
/// text of pointers kept beside it, so that what keeps millions of places
/// (the run's table of ids) holds no pointer shared with others, to be
/// counted and freed one by one.
#[derive(Debug, Clone)]
pub(super) struct Spot {
    pointer: Range<usize>,
    offset: usize,
    line: usize,
    column: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_written_out_has_the_same_pointer() {
        let at = At {
            base: Arc::from("/data/A~1B/cards/3"),
            tail: ["relatedCards", "reverseRelated"],
            item: Some(2),
            offset: 40,
            line: 2,
            column: 7,
        };
        let mut pointers = String::from("/before");
        let spot = at.written(&mut pointers);
        let again = At::of_spot(&spot, &pointers);
        assert_eq!(again.pointer(), at.pointer());
        assert_eq!(
            again.pointer(),
            "/data/A~1B/cards/3/relatedCards/reverseRelated/2"
        );
        assert_eq!((again.offset, again.line, again.column), (40, 2, 7));
    }
}
