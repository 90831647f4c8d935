//! The checker's state: the reader, the findings, the options, the depth
//! and the tape; walking into and out of values. What it does with objects
//! and scalars is in `object.rs` and `value.rs`.

use std::borrow::Cow;

use crate::diagnostic::{Code, Detail, Diagnostic};
use crate::model::Kind;
use crate::report::{Folded, Omitted};
use crate::schema::MAX_DEPTH;
use crate::table::{FieldDef, ModelDef, Names, Type, Version};
use cardkit_json::{DuplicateKeys, Str, StringStops, SyntaxError};

use super::super::findings::{Added, Findings};
use super::super::options::Options;
use super::super::reader::Reader;
use super::super::tape::{Step, Tape, TapeScope};
use super::tags::TagIndex;

/// Where a value sits in the spec, for the `field` of diagnostics.
#[derive(Clone, Copy)]
pub(crate) struct Site {
    pub model: &'static str,
    pub field: &'static str,
}

impl Site {
    /// A document's root, which is no field.
    pub const ROOT: Site = Site {
        model: "",
        field: "",
    };

    pub fn label(self) -> Option<String> {
        (!self.model.is_empty()).then(|| format!("{}.{}", self.model, self.field))
    }
}

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

/// What the walk of a unit found.
pub(crate) struct Found {
    /// The diagnostics kept, in document order (missing members are found
    /// at the end of their object but belong where it starts).
    pub diagnostics: Vec<Diagnostic>,
    /// Those counted past the bounds a document keeps.
    pub omitted: Omitted,
    /// How many the configuration ignored.
    pub ignored: usize,
    /// The warnings past what the report shows, counted.
    pub folded: Folded,
    /// The names the unit was read under.
    pub names: Names,
}

pub(crate) struct Checker<'a> {
    pub read: Reader<'a>,
    pub found: Findings<'a>,
    /// Where a `Model.field` label is written before it is known to be
    /// needed: a warning only counted costs no allocation.
    label: String,
    pub(super) options: &'a Options,
    /// `options.as_of` when some field is newer than it: as of the latest
    /// tag (or later) every field is known and nothing is checked, so that
    /// naming the latest costs nothing.
    pub(super) as_of: Option<Version>,
    /// The fields each model requires as of `as_of`, as they are met.
    pub(super) required_as_of: Vec<(&'static ModelDef, u128)>,
    /// Inside the value of a field newer than `options.as_of`.
    pub(super) inside_newer: bool,
    /// The names the document is read under: `options.names`, until a
    /// document read under [`Names::Auto`] shows which it uses.
    pub(super) names: Names,
    depth: usize,
    /// Where the tags of union objects are, once a look-ahead needed them.
    pub(super) tags: TagIndex,
    /// Where the JSON was found malformed, as an index into the bytes.
    pub malformed_at: Option<usize>,
    /// The tape, when an extractor follows it; its offsets count from
    /// `origin`, where the unit starts.
    tape: Option<Tape>,
    /// The tape holds only the fields the references need.
    tape_links_only: bool,
    origin: usize,
}

/// Whether values of `ty` may hold objects of models.
#[inline]
fn holds_models(ty: &Type) -> bool {
    match ty {
        Type::Model { .. } | Type::Tagged(_) | Type::AnyOf { .. } => true,
        Type::List { item } => holds_models(item),
        _ => false,
    }
}

impl<'a> Checker<'a> {
    /// A checker over `bytes` at `pos`; `bytes[0]` is at file offset `base`,
    /// the unit's root at `prefix`; `bytes` up to `utf8_checked` are known
    /// to be UTF-8.
    pub fn new(
        bytes: &'a [u8],
        base: usize,
        pos: usize,
        prefix: &'a str,
        utf8_checked: usize,
        options: &'a Options,
    ) -> Self {
        let mut read = Reader::new(bytes, base, pos, prefix);
        read.scan.utf8_checked = utf8_checked;
        Checker {
            read,
            found: Findings::new(options).within(prefix),
            label: String::new(),
            options,
            as_of: options
                .as_of
                .filter(|as_of| *as_of < crate::schema::latest_version()),
            required_as_of: Vec::new(),
            inside_newer: false,
            names: options.names,
            depth: 0,
            tags: TagIndex::default(),
            malformed_at: None,
            tape: None,
            tape_links_only: false,
            origin: pos,
        }
    }

    /// Finds the end of each string from `stops`, an index of (some of) the
    /// checker's bytes.
    #[must_use]
    pub fn with_string_stops(mut self, stops: &'a StringStops) -> Self {
        self.read.scan = self.read.scan.with_string_stops(stops);
        self
    }

    /// Records the tape of the unit (see [`Tape`]), of the fields `scope`
    /// says.
    pub fn record_tape(&mut self, scope: TapeScope) {
        self.tape = Some(Tape::reused());
        self.tape_links_only = scope == TapeScope::Links;
    }

    /// The fields of `model` whose values go on the tape, as a mask of
    /// their indices: none when no tape is recorded.
    #[inline]
    pub(super) fn tape_fields(&self, model: &'static ModelDef) -> u128 {
        match &self.tape {
            None => 0,
            Some(_) if self.tape_links_only => model.link_fields(),
            Some(_) => u128::MAX,
        }
    }

    /// Reads the value of `field` (at `index` in its model) while the tape
    /// is recorded: on the tape when `recorded`; else with the tape stopped
    /// if it may hold objects, which (a card's rulings, legalities,
    /// prices) would only lengthen it. Kept out of line: a run without a
    /// tape never comes here.
    #[inline(never)]
    pub(super) fn value_on_tape(
        &mut self,
        field: &'static FieldDef,
        index: u32,
        recorded: bool,
        site: Site,
    ) -> Flow {
        if recorded {
            self.read.scan.ws();
            self.step(|start| Step::Field { index, start });
        } else if holds_models(field.ty) {
            let tape = self.tape.take();
            let flow = self.value(field.ty, field.nullable, site);
            self.tape = tape;
            return flow;
        }
        self.value(field.ty, field.nullable, site)
    }

    /// The tape recorded, if it was asked for.
    pub fn take_tape(&mut self) -> Option<Tape> {
        self.tape.take()
    }

    /// Records a step, when the tape is recorded.
    #[inline]
    pub fn step(&mut self, step: impl FnOnce(usize) -> Step) {
        if let Some(tape) = &mut self.tape {
            tape.steps.push(step(self.read.scan.pos - self.origin));
        }
    }

    /// Whether the tape is recorded.
    #[inline]
    pub fn recording(&self) -> bool {
        self.tape.is_some()
    }

    /// The cursor, as an index into the bytes.
    pub fn pos(&self) -> usize {
        self.read.scan.pos
    }

    /// Whether the unit must be walked again without folding warnings
    /// (see [`Options::warnings_shown`]): what was folded may no longer
    /// leave the same warnings shown.
    pub fn fold_broken(&self) -> bool {
        self.found.fold_broken()
    }

    /// What the walk found (see [`Found`]).
    pub fn into_found(mut self) -> Found {
        let folded = self.found.take_folded();
        let mut diagnostics = self.found.out;
        diagnostics.sort_by_key(|d| d.offset);
        Found {
            diagnostics,
            omitted: self.found.omitted,
            ignored: self.found.ignored,
            folded,
            names: self.names,
        }
    }

    /// Validates the document at the cursor as `kind` (`None`: its kind
    /// cannot be told).
    pub fn document(&mut self, kind: Option<Kind>) -> Flow {
        self.read.scan.ws();
        match kind {
            Some(kind) => self.value(kind.root_type(), false, Site::ROOT),
            None => {
                // Malformed JSON is the problem to report, not its kind.
                let at = self.pos();
                let classic = classic_entry(self.read.scan.bytes, at);
                self.skip_value()?;
                let detail = if classic {
                    Detail::ClassicEntry
                } else {
                    Detail::UnknownKind
                };
                self.report(detail, at, None, None);
                Ok(())
            }
        }
    }

    // ----- diagnostics -------------------------------------------------

    /// Records a problem about the current value (or its `member`) at `at`,
    /// an index into the bytes; says whether it was kept or only counted.
    pub fn report(
        &mut self,
        detail: Detail,
        at: usize,
        member: Option<&str>,
        field: Option<String>,
    ) -> Added {
        let offset = self.read.base + at;
        let read = &self.read;
        self.found.add(detail, offset, field.map(Cow::Owned), || {
            read.pointer(member)
        })
    }

    /// [`Checker::report`] of a problem about `model`'s `field`: its
    /// `Model.field` label made only if the problem is kept.
    pub fn report_field(
        &mut self,
        detail: Detail,
        at: usize,
        member: Option<&str>,
        model: &str,
        field: &str,
    ) -> Added {
        self.write_label(model, field);
        let offset = self.read.base + at;
        let read = &self.read;
        let label = Cow::Borrowed(self.label.as_str());
        self.found
            .add(detail, offset, Some(label), || read.pointer(member))
    }

    /// Whether a problem of `code` about `model`'s `field` found now would
    /// be kept (see [`Findings::keeps`]).
    pub fn keeps_field(&mut self, code: Code, model: &str, field: &str) -> bool {
        self.write_label(model, field);
        self.found.keeps(code, Some(&self.label))
    }

    fn write_label(&mut self, model: &str, field: &str) {
        self.label.clear();
        self.label.push_str(model);
        self.label.push('.');
        self.label.push_str(field);
    }

    /// Records malformed JSON.
    pub fn malformed<T>(&mut self, error: SyntaxError) -> Result<T, Malformed> {
        self.malformed_at = Some(error.at);
        self.report(Detail::Syntax(error.syntax), error.at, None, None);
        Err(Malformed)
    }

    /// The result of a scanner step, malformed JSON recorded.
    #[inline]
    pub fn json<T>(&mut self, result: Result<T, SyntaxError>) -> Result<T, Malformed> {
        match result {
            Ok(value) => Ok(value),
            Err(error) => self.malformed(error),
        }
    }

    /// Reports a key seen before in the same object (the path holds it).
    pub fn duplicate_key(&mut self, key_at: usize, name: &str, field: Option<String>) {
        self.found.duplicate_key();
        let detail = Detail::DuplicateKey {
            name: crate::diagnostic::quote::name(name),
        };
        self.report(detail, key_at, None, field);
    }

    // ----- structure ----------------------------------------------------

    /// Runs `inside` one nesting level deeper, or reports `too_deep` and
    /// skips the value when the limit is reached.
    pub fn enter(&mut self, inside: impl FnOnce(&mut Self) -> Flow) -> Flow {
        if self.depth >= MAX_DEPTH {
            let at = self.pos();
            self.report(Detail::TooDeep { limit: MAX_DEPTH }, at, None, None);
            let skipped = self.read.scan.skip_structure();
            return match skipped {
                Ok(()) => Ok(()),
                Err(_) => self.malformed(SyntaxError {
                    at,
                    syntax: cardkit_json::Syntax::MalformedTooDeep,
                }),
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
        let open = self.read.scan.open();
        if !self.json(open)? {
            return Ok(());
        }
        loop {
            let name = self.read.scan.member_name();
            let (key, key_at) = self.json(name)?;
            self.read.enter_member(key);
            let result = member(self, key, key_at);
            self.read.leave();
            result?;
            let more = self.read.scan.after_member();
            if !self.json(more)? {
                return Ok(());
            }
        }
    }

    /// At `[`: reads every item, calling `item` with its index while the index
    /// is on the path; `item` must consume the value.
    pub fn items(&mut self, mut item: impl FnMut(&mut Self, usize) -> Flow) -> Flow {
        let open = self.read.scan.open();
        if !self.json(open)? {
            return Ok(());
        }
        let mut index = 0;
        loop {
            self.read.enter_item(index);
            let result = item(self, index);
            self.read.leave();
            result?;
            let more = self.read.scan.after_item();
            if !self.json(more)? {
                return Ok(());
            }
            index += 1;
        }
    }

    /// Reads any value without a type, reporting only malformed JSON,
    /// duplicate keys and excessive depth.
    pub fn skip_value(&mut self) -> Flow {
        self.read.scan.ws();
        match self.read.scan.peek() {
            Some(b'{') => self.enter(|c| {
                let mut keys = DuplicateKeys::default();
                c.members(|c, key, key_at| {
                    let name = c.read.scan.decode(key);
                    if !keys.insert(name.clone()) {
                        c.duplicate_key(key_at, &name, None);
                    }
                    c.skip_value()
                })
            }),
            Some(b'[') => self.enter(|c| c.items(|c, _| c.skip_value())),
            _ => {
                let scalar = self.read.scan.scalar();
                self.json(scalar)
            }
        }
    }
}

/// Whether the value at `at` is an object with the members `key` and `data`
/// (among those at hand), as each entry of the design tool's classic save
/// file is.
fn classic_entry(bytes: &[u8], at: usize) -> bool {
    if bytes.get(at) != Some(&b'{') {
        return false;
    }
    let (mut key, mut data) = (false, false);
    for member in cardkit_json::Scanner::new(bytes, at).members() {
        key |= member.name == "key";
        data |= member.name == "data";
        if key && data {
            return true;
        }
    }
    false
}
