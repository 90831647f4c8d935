//! The bound on what a report echoes of its input. A pointer, a
//! `Model.field` label or a document's pointer is kept to
//! [`QUOTED_BYTES`] bytes (16 KiB), then `…`; its whole length is said beside it (the
//! JSON report's `pointer_bytes`, ` (N bytes)` in the other formats). Names
//! and literals quoted in messages are cut shorter still (40 characters, see
//! [`cardkit_json::QUOTED_CHARS`]). So no input makes a report larger than a
//! bounded size per diagnostic, and no diagnostic holds a copy of a huge key.

/// The most bytes of a pointer or label a report carries: room for the
/// pointer of any value at the deepest nesting documents may have
/// ([`crate::table::MAX_DEPTH`] levels of ordinary members or indexes), so
/// that only a huge member name is cut.
pub const QUOTED_BYTES: usize = 16 * 1024;

/// Cuts `text` to [`QUOTED_BYTES`] bytes (on a character boundary), then
/// `…`, and gives its whole length in bytes; `None`, and `text` untouched,
/// when it is no longer than that.
pub fn cut(text: &mut String) -> Option<usize> {
    let whole = text.len();
    if whole <= QUOTED_BYTES {
        return None;
    }
    let mut end = QUOTED_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push('…');
    text.shrink_to_fit();
    Some(whole)
}

/// A pointer or label as a report holds it: its text, cut as [`cut`] cuts,
/// and its whole length in bytes when it was cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quoted {
    /// The text, at most [`QUOTED_BYTES`] bytes and `…`.
    pub text: String,
    /// The whole length in bytes, when `text` is cut.
    pub whole: Option<usize>,
}

impl From<String> for Quoted {
    fn from(mut text: String) -> Self {
        let whole = cut(&mut text);
        Quoted { text, whole }
    }
}

/// A pointer written a token at a time, of which no more than
/// [`QUOTED_BYTES`] bytes are kept however long its tokens are: its whole
/// length is counted, not held (a member name of 400 MB adds 400 MB to the
/// count and at most 16 KiB to the text).
#[derive(Debug, Default)]
pub struct PointerWriter {
    text: String,
    whole: usize,
}

impl PointerWriter {
    /// A pointer that starts with `prefix` (a pointer already bounded).
    #[must_use]
    pub fn new(prefix: &str) -> Self {
        let mut pointer = PointerWriter::default();
        pointer.push_raw(prefix);
        pointer
    }

    /// Appends text as is (`/`, an index, a pointer already escaped); only
    /// the part that can still be shown is copied.
    pub fn push_raw(&mut self, text: &str) {
        self.whole += text.len();
        let room = (QUOTED_BYTES + 1).saturating_sub(self.text.len());
        let mut end = room.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&text[..end]);
    }

    /// Appends a reference token, escaped per RFC 6901, whose text is
    /// `token`; only the part that can still be shown is copied.
    pub fn push_token(&mut self, token: &str) {
        let escapes =
            bytecount::count(token.as_bytes(), b'~') + bytecount::count(token.as_bytes(), b'/');
        self.whole += token.len() + escapes;
        let room = (QUOTED_BYTES + 1).saturating_sub(self.text.len());
        if room > 0 {
            let mut end = room.min(token.len());
            while !token.is_char_boundary(end) {
                end -= 1;
            }
            cardkit_json::pointer::push_escaped(&mut self.text, &token[..end]);
        }
    }

    /// Appends a reference token of `whole` bytes once escaped, of which
    /// `head` is the start (decoded far enough to be shown).
    pub fn push_token_head(&mut self, head: &str, whole: usize) {
        let before = self.whole;
        self.push_token(head);
        self.whole = before + whole;
    }

    /// The pointer, cut when longer than [`QUOTED_BYTES`].
    #[must_use]
    pub fn finish(self) -> Quoted {
        let mut quoted = Quoted::from(self.text);
        if self.whole > QUOTED_BYTES {
            quoted.whole = Some(self.whole);
        }
        quoted
    }
}

/// `text` as shown to people: cut as [`cut`] does, with its length in bytes
/// said after it when it was cut (`/kkk… (100000000 bytes)`).
#[must_use]
pub fn shown(text: &str, whole: Option<usize>) -> std::borrow::Cow<'_, str> {
    match whole {
        None => std::borrow::Cow::Borrowed(text),
        Some(bytes) => std::borrow::Cow::Owned(format!("{text} ({bytes} bytes)")),
    }
}

/// A member name as a message quotes it: whole when short, else its first
/// 40 characters, `…` and its length in characters
/// (`kkkk… (1000000 characters)`). Only the start of a long name is read.
#[must_use]
pub fn name(key: &str) -> String {
    use cardkit_json::QUOTED_CHARS;
    // The characters shown and whether there are more than fit.
    let mut head = key.char_indices().skip(QUOTED_CHARS + 2);
    if head.next().is_none() {
        return key.to_owned();
    }
    let chars = bytecount::num_chars(key.as_bytes());
    let end = key
        .char_indices()
        .nth(QUOTED_CHARS)
        .map_or(key.len(), |(at, _)| at);
    format!("{}… ({chars} characters)", &key[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_its_length() {
        let mut short = "/a/b".to_owned();
        assert_eq!(cut(&mut short), None);
        assert_eq!(shown(&short, None), "/a/b");
        let mut long = format!("/{}", "é".repeat(QUOTED_BYTES / 2));
        let whole = QUOTED_BYTES + 1;
        assert_eq!(cut(&mut long), Some(whole));
        assert_eq!(long.len(), QUOTED_BYTES - 1 + '…'.len_utf8());
        assert!(long.ends_with("é…"));
        assert!(shown(&long, Some(whole)).ends_with(&format!("é… ({whole} bytes)")));
        assert_eq!(name("short"), "short");
        // A pointer written by tokens keeps its head and counts the rest.
        let mut pointer = PointerWriter::new("/data");
        pointer.push_raw("/");
        pointer.push_token(&"k/".repeat(QUOTED_BYTES));
        pointer.push_raw("/");
        pointer.push_raw("7");
        let quoted = pointer.finish();
        assert_eq!(quoted.whole, Some(6 + 3 * QUOTED_BYTES + 2));
        assert!(quoted.text.starts_with("/data/k~1k~1"));
        assert!(quoted.text.len() <= QUOTED_BYTES + '…'.len_utf8());
        let mut short = PointerWriter::new("");
        short.push_raw("/");
        short.push_token("a~b");
        assert_eq!(
            short.finish(),
            Quoted {
                text: "/a~0b".into(),
                whole: None
            }
        );
        let k = "k".repeat(42);
        assert_eq!(name(&k), k);
        assert_eq!(
            name(&"k".repeat(43)),
            format!("{}… (43 characters)", "k".repeat(40))
        );
    }
}
