//! What one set document says about the references: its code, the codes it
//! names, and each record's id, printing key, names and the ids and names
//! it refers to, each with its place. Read by following the validator's
//! tape along the field tables' [`Link`]s, so that no value is parsed twice
//! and only what references need is kept.

use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Range;
use std::sync::Arc;

use super::place::At;

use uuid::Uuid;

use crate::model::{CardSet, CardToken, Kind, SealedProduct, Set};
use crate::schema::{FieldDef, Link, Model, ModelDef, Names, Type};
use crate::validate::{Found, Locator, Step};

/// The text of a value a [`Link`] field holds: a record's id in the
/// canonical form (lowercase, hyphenated) kept as the number it is, so that
/// the millions of ids a catalog names take no memory of their own; any
/// other text as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value<'a> {
    /// A uuid, written in its canonical form.
    Uuid(u128),
    /// Any other text: borrowed from the document while its facts are
    /// read, owned once kept beyond it.
    Text(Cow<'a, str>),
}

impl<'a> Value<'a> {
    /// The value of the string whose characters are `text`, held by a
    /// field of `link`: only the ids of records, and the ids naming them,
    /// are kept as numbers, read from the bytes as they are; `None` when
    /// the text is not UTF-8 (the validator reports it).
    fn of(text: Cow<'a, [u8]>, link: Option<Link>) -> Option<Value<'a>> {
        let names_ids = matches!(
            link,
            Some(Link::Id | Link::Faces | Link::Variations | Link::Printings)
        );
        // Of the forms `uuid` reads, only the hyphenated one is this long;
        // it is canonical when no hex digit is uppercase.
        if names_ids
            && text.len() == uuid::fmt::Hyphenated::LENGTH
            && !text.iter().any(u8::is_ascii_uppercase)
        {
            if let Ok(id) = Uuid::try_parse_ascii(&text) {
                return Some(Value::Uuid(id.as_u128()));
            }
        }
        let text = match text {
            Cow::Borrowed(bytes) => Cow::Borrowed(std::str::from_utf8(bytes).ok()?),
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8(bytes).ok()?),
        };
        Some(Value::Text(text))
    }

    /// The value, kept beyond the document it was read from.
    #[must_use]
    pub fn into_owned(self) -> Value<'static> {
        match self {
            Value::Uuid(id) => Value::Uuid(id),
            Value::Text(text) => Value::Text(Cow::Owned(text.into_owned())),
        }
    }

    /// The uuid it is, when it is one (in any of the forms `uuid` reads).
    #[must_use]
    pub fn uuid(&self) -> Option<u128> {
        match self {
            Value::Uuid(id) => Some(*id),
            Value::Text(text) => Uuid::try_parse(text).ok().map(|id| id.as_u128()),
        }
    }

    /// The text, when it is not a uuid kept as a number: names, codes,
    /// numbers, sides and languages always are.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Value::Uuid(_) => "",
            Value::Text(text) => text,
        }
    }
}

impl std::fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Uuid(id) => write!(f, "{}", Uuid::from_u128(*id).hyphenated()),
            Value::Text(text) => f.write_str(text),
        }
    }
}

/// A string value a [`Link`] field holds, and where.
#[derive(Debug, Clone)]
pub struct Mention<'a> {
    /// The value.
    pub value: Value<'a>,
    /// The field that holds it.
    pub field: &'static FieldDef,
    /// Where.
    pub at: At,
}

impl Mention<'_> {
    /// The mention, kept beyond the document it was read from.
    #[must_use]
    pub fn into_owned(self) -> Mention<'static> {
        Mention {
            value: self.value.into_owned(),
            field: self.field,
            at: self.at,
        }
    }
}

/// What kind of record: a card, a token or a sealed product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// A card of the set (`CardSet`).
    Card,
    /// A token (`CardToken`).
    Token,
    /// A sealed product (`SealedProduct`).
    Sealed,
}

impl RecordKind {
    /// The kind of record an object of `model` is, if it is one: asked of
    /// every object a set's tape holds, so told by the model's address.
    fn of(model: &'static ModelDef) -> Option<RecordKind> {
        let is = |record: &'static ModelDef| std::ptr::eq(model, record);
        if is(CardSet::model()) {
            Some(RecordKind::Card)
        } else if is(CardToken::model()) {
            Some(RecordKind::Token)
        } else if is(SealedProduct::model()) {
            Some(RecordKind::Sealed)
        } else {
            None
        }
    }

    /// In words: `card`, `token`, `sealed product`.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            RecordKind::Card => "card",
            RecordKind::Token => "token",
            RecordKind::Sealed => "sealed product",
        }
    }
}

/// One record of a set, as far as references go.
#[derive(Debug, Clone)]
pub struct Record {
    /// Card, token or sealed product.
    pub kind: RecordKind,
    /// Where its mentions of [`Link`] fields are among
    /// [`SetFacts::record_mentions`]: records hold no records, so that a
    /// record's mentions are one run of them.
    pub mentions: Range<usize>,
    /// The first mention of each link a record gives once (see
    /// `given_once`), by its index among the record mentions: looked up
    /// a few times for each record, so found as they are read.
    first: [Option<usize>; GIVEN_ONCE],
}

/// How many links a record gives once.
const GIVEN_ONCE: usize = 5;

/// The slot of a link a record gives once: its id, its set's code and its
/// printing's number, side and language.
fn given_once(link: Link) -> Option<usize> {
    match link {
        Link::Id => Some(0),
        Link::SetCode => Some(1),
        Link::Number => Some(2),
        Link::Side => Some(3),
        Link::Language => Some(4),
        _ => None,
    }
}

/// What one set document says about the references, its texts borrowed
/// from the document.
#[derive(Clone)]
pub struct SetFacts<'a> {
    /// The document's JSON Pointer in its file.
    pub pointer: String,
    /// The set's own mentions (its code, its parent's, its token set's).
    pub mentions: Vec<Mention<'a>>,
    /// Its cards, tokens and sealed products, in document order.
    pub records: Vec<Record>,
    /// Every mention of a [`Link`] field in a record, in document order:
    /// one list for the document, which each record's is a range of.
    pub record_mentions: Vec<Mention<'a>>,
    /// Counts the lines and columns of the document's places.
    locator: Locator<'a>,
    /// Where the document starts in the file.
    origin: usize,
}

impl std::fmt::Debug for SetFacts<'_> {
    /// The facts, without the document's bytes they are located in.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetFacts")
            .field("pointer", &self.pointer)
            .field("mentions", &self.mentions)
            .field("records", &self.records)
            .field("record_mentions", &self.record_mentions)
            .finish_non_exhaustive()
    }
}

impl<'a> SetFacts<'a> {
    /// The set's one mention of `link`.
    #[must_use]
    pub fn one(&self, link: Link) -> Option<&Mention<'a>> {
        self.mentions.iter().find(|m| m.field.link == Some(link))
    }

    /// Every mention of `record`, in document order.
    #[must_use]
    pub fn mentions_of(&self, record: &Record) -> &[Mention<'a>] {
        &self.record_mentions[record.mentions.clone()]
    }

    /// The mentions of `link` in `record`.
    pub fn of(&self, record: &Record, link: Link) -> impl Iterator<Item = &Mention<'a>> {
        self.mentions_of(record)
            .iter()
            .filter(move |m| m.field.link == Some(link))
    }

    /// The one mention of `link` in `record` (its id, its set code…).
    #[must_use]
    pub fn one_of(&self, record: &Record, link: Link) -> Option<&Mention<'a>> {
        match given_once(link) {
            Some(slot) => record.first[slot].map(|m| &self.record_mentions[m]),
            None => self.of(record, link).next(),
        }
    }

    /// Counts the line and column of each of `places`, in the document
    /// these facts were read from: each byte of it is counted once however
    /// many there are, in the order of their offsets.
    pub fn locate(&mut self, places: &mut [&mut At]) {
        places.sort_unstable_by_key(|at| at.offset);
        for at in places {
            let (_, line, column) = self.locator.at(at.offset - self.origin);
            at.line = line;
            at.column = column;
        }
    }

    /// Reads the facts of a set document from its tape; `None` for a
    /// document of another kind, or one whose tape was not recorded.
    #[must_use]
    pub fn read(found: &Found<'a>) -> Option<SetFacts<'a>> {
        if found.report.kind != Some(Kind::Set) || found.tape.steps.is_empty() {
            return None;
        }
        let mut walk = Walk {
            bytes: found.bytes,
            origin: found.offset,
            names: found.report.names,
            path: Vec::new(),
            frames: Vec::new(),
            buffer: String::new(),
            facts: SetFacts {
                pointer: found.report.pointer.clone(),
                mentions: Vec::new(),
                records: Vec::new(),
                record_mentions: SPARE_MENTIONS.take(),
                locator: Locator::new(found.bytes, found.offset, found.line, found.column),
                origin: found.offset,
            },
        };
        touch_values(found.bytes, &found.tape.steps);
        walk.follow(&found.tape.steps);
        Some(walk.facts)
    }
}

thread_local! {
    /// The room of a document's mentions read before on this thread,
    /// emptied: a set's mentions take a MB and more, and memory asked anew
    /// for each document costs a page fault every 4 KiB (as a tape's steps
    /// do, which are kept the same way).
    static SPARE_MENTIONS: Cell<Vec<Mention<'static>>> = const { Cell::new(Vec::new()) };
}

/// A spare list of mentions is kept up to this many (8 MiB).
const SPARE_MENTIONS_KEPT: usize = 1 << 16;

/// Keeps the room of `mentions` for the next document read on this thread,
/// unless a larger one is kept already.
pub(super) fn recycle(mut mentions: Vec<Mention<'_>>) {
    if mentions.capacity() > SPARE_MENTIONS_KEPT {
        return;
    }
    mentions.clear();
    // Empty, the list borrows nothing from its document: collected into
    // owned mentions it keeps its allocation (a `Vec` collected from its own
    // `into_iter` into a type of the same layout reuses it).
    let spare: Vec<Mention<'static>> = mentions.into_iter().map(Mention::into_owned).collect();
    SPARE_MENTIONS.with(|kept| {
        let before = kept.take();
        kept.set(if before.capacity() > spare.capacity() {
            before
        } else {
            spare
        });
    });
}

/// One step of the path to a value.
#[derive(Clone, Copy)]
enum Segment {
    Field(&'static ModelDef, &'static FieldDef, usize),
    Item(usize),
}

/// An object being read: its model (`None` when the tables do not say
/// which), the record it belongs to, and the path's length before it.
struct Frame {
    model: Option<&'static ModelDef>,
    record: Option<usize>,
    path_len: usize,
    /// The pointer of the record (or the document) this object is, or is
    /// within, and the path's length at it: the base of its values' places.
    base: Option<(Arc<str>, usize)>,
}

struct Walk<'a> {
    bytes: &'a [u8],
    /// Where `bytes` start in the file.
    origin: usize,
    names: Names,
    path: Vec<Segment>,
    frames: Vec<Frame>,
    facts: SetFacts<'a>,
    /// Where pointers are written before they are shared.
    buffer: String,
}

impl<'a> Walk<'a> {
    fn follow(&mut self, steps: &[Step]) {
        for &step in steps {
            match step {
                Step::Open => self.open(),
                Step::Close => {
                    if let Some(frame) = self.frames.pop() {
                        self.path.truncate(frame.path_len);
                    }
                }
                Step::Item(index) => self.path.push(Segment::Item(index)),
                Step::Field { index, start } => {
                    let model = self.frames.last().and_then(|f| f.model);
                    let field = model.and_then(|m| m.fields.get(index as usize).map(|f| (m, f)));
                    if let Some((model, field)) = field {
                        self.path.push(Segment::Field(model, field, start));
                    } else {
                        // A field of an object the tables do not describe:
                        // kept as a placeholder so that its `End` pops it.
                        self.path.push(Segment::Item(usize::MAX));
                    }
                }
                Step::End { end, invalid } => {
                    if let Some(Segment::Field(_, field, start)) = self.path.last().copied() {
                        if field.link.is_some() && !invalid {
                            self.value(field, start, end);
                        }
                    }
                    self.path.pop();
                }
            }
        }
    }

    /// An object starts: of the set's model at the root, else of the model
    /// the field being read holds.
    fn open(&mut self) {
        let path_len = match self.path.last() {
            Some(Segment::Item(_)) => self.path.len() - 1,
            _ => self.path.len(),
        };
        let model = if self.frames.is_empty() {
            Some(<Set as Model>::model())
        } else {
            match self.path.iter().rev().find_map(|s| match s {
                Segment::Field(_, field, _) => Some(*field),
                Segment::Item(_) => None,
            }) {
                Some(field) => model_of(field.ty),
                None => None,
            }
        };
        let inherited = self.frames.last().and_then(|f| f.record);
        let inherited_base = self.frames.last().and_then(|f| f.base.clone());
        let (record, base) = match model.and_then(RecordKind::of) {
            Some(kind) => {
                let at = self.facts.record_mentions.len();
                self.facts.records.push(Record {
                    kind,
                    mentions: at..at,
                    first: [None; GIVEN_ONCE],
                });
                let base = (self.shared_pointer(self.path.len()), self.path.len());
                (Some(self.facts.records.len() - 1), Some(base))
            }
            None if self.frames.is_empty() => (None, Some((self.facts.pointer.as_str().into(), 0))),
            None => (inherited, inherited_base),
        };
        self.frames.push(Frame {
            model,
            record,
            path_len,
            base,
        });
    }

    /// The value of a link field, `bytes[start..end]`: a string, a list of
    /// strings, or `null`.
    fn value(&mut self, field: &'static FieldDef, start: usize, end: usize) {
        let bytes = self.bytes;
        let value = &bytes[start..end];
        match value.first() {
            Some(b'"') => {
                if let Some(text) = string_at(value) {
                    let place = self.place();
                    self.mention(field, &place, start, None, text);
                }
            }
            Some(b'[') => {
                let mut list_place = None;
                let mut at = 1;
                let mut index = 0;
                loop {
                    at += skip_space_and_commas(&value[at..]);
                    if value.get(at) != Some(&b'"') {
                        break;
                    }
                    let Some((text, len)) = string_and_len(&value[at..]) else {
                        break;
                    };
                    // The list's place, found with its first item.
                    let place = &*list_place.get_or_insert_with(|| self.place());
                    self.mention(field, place, start + at, Some(index), text);
                    at += len;
                    index += 1;
                }
            }
            _ => {}
        }
    }

    /// Keeps a mention of `field`: `text`, at `offset`, item `item` of the
    /// list at `place` or the value there.
    fn mention(
        &mut self,
        field: &'static FieldDef,
        (base, tail): &(Arc<str>, [&'static str; 2]),
        offset: usize,
        item: Option<usize>,
        text: Cow<'a, [u8]>,
    ) {
        let Some(value) = Value::of(text, field.link) else {
            return;
        };
        // Lines and columns are counted later, for the places kept.
        let (offset, line, column) = (self.origin + offset, 0, 0);
        let mention = Mention {
            value,
            field,
            at: At {
                base: base.clone(),
                tail: *tail,
                item,
                offset,
                line,
                column,
            },
        };
        match self.frames.last().and_then(|f| f.record) {
            Some(record) => {
                let index = self.facts.record_mentions.len();
                self.facts.record_mentions.push(mention);
                let record = &mut self.facts.records[record];
                record.mentions.end = index + 1;
                if let Some(slot) = field.link.and_then(given_once) {
                    record.first[slot].get_or_insert(index);
                }
            }
            None => self.facts.mentions.push(mention),
        }
    }

    /// The place of the value being read: the base its record (or
    /// document) shares, and the members from it; a pointer of its own when
    /// the value is deeper than two members in its record.
    fn place(&mut self) -> (Arc<str>, [&'static str; 2]) {
        if let Some((base, len)) = self.frames.last().and_then(|f| f.base.as_ref()) {
            let mut tail = [""; 2];
            let mut members = 0;
            for segment in &self.path[*len..] {
                match segment {
                    Segment::Field(model, field, _) if members < 2 => {
                        tail[members] = self.names.written().wire_name(model, field);
                        members += 1;
                    }
                    _ => {
                        members = usize::MAX;
                        break;
                    }
                }
            }
            if members != usize::MAX {
                return (base.clone(), tail);
            }
        }
        (self.shared_pointer(self.path.len()), [""; 2])
    }

    /// The JSON Pointer of the first `len` steps of the path, written in
    /// the walk's buffer and allocated once, where it is kept.
    fn shared_pointer(&mut self, len: usize) -> Arc<str> {
        let mut pointer = std::mem::take(&mut self.buffer);
        pointer.clear();
        pointer.push_str(&self.facts.pointer);
        for segment in &self.path[..len] {
            match segment {
                Segment::Field(model, field, _) => {
                    pointer.push('/');
                    cardkit_json::pointer::push_escaped(
                        &mut pointer,
                        self.names.written().wire_name(model, field),
                    );
                }
                Segment::Item(index) => cardkit_json::pointer::push_index(&mut pointer, *index),
            }
        }
        let shared = Arc::from(pointer.as_str());
        self.buffer = pointer;
        shared
    }
}

/// Reads the first byte of each value on the tape, so that the values
/// the walk then reads are in the cache: validated some time before, most
/// of a large document has left it, and the walk, which reads one value at
/// a time, would wait for each in turn; loaded here in a loop that does
/// nothing else, many are fetched at once.
fn touch_values(bytes: &[u8], steps: &[Step]) {
    let mut touched = 0u8;
    for step in steps {
        if let Step::Field { start, .. } = *step {
            touched |= bytes.get(start).copied().unwrap_or(0);
        }
    }
    std::hint::black_box(touched);
}

/// The model a field's objects are read against, when the tables say.
fn model_of(ty: &'static Type) -> Option<&'static ModelDef> {
    match ty {
        Type::Model { model } => Some(model()),
        Type::List { item } => model_of(item),
        _ => None,
    }
}

fn skip_space_and_commas(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b','))
        .unwrap_or(bytes.len())
}

/// The characters of the JSON string `bytes` starts with, unescaped.
fn string_at(bytes: &[u8]) -> Option<Cow<'_, [u8]>> {
    string_and_len(bytes).map(|(text, _)| text)
}

/// The characters of the JSON string `bytes` starts with, unescaped, and
/// its length in bytes.
fn string_and_len(bytes: &[u8]) -> Option<(Cow<'_, [u8]>, usize)> {
    // Most strings have no escape: taken as they are (the validator has
    // checked them).
    if let Some(end) = memchr::memchr2(b'"', b'\\', bytes.get(1..)?) {
        if bytes[1 + end] == b'"' {
            return Some((Cow::Borrowed(&bytes[1..1 + end]), end + 2));
        }
    }
    let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<Cow<'_, str>>();
    let text = stream.next()?.ok()?;
    Some((
        Cow::Owned(text.into_owned().into_bytes()),
        stream.byte_offset(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recycled_list_of_mentions_keeps_its_room() {
        let mentions: Vec<Mention<'_>> = Vec::with_capacity(100);
        recycle(mentions);
        let spare = SPARE_MENTIONS.take();
        assert!(spare.is_empty());
        assert!(spare.capacity() >= 100, "room kept: {}", spare.capacity());
    }
}
