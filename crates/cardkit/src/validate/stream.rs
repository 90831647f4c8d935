//! Reading a file as a stream of documents. The container around the
//! documents (a catalog's `{"meta": …, "data": {"<CODE>": …}}`, a list
//! object, an array, JSON Lines) is read here, a piece at a time; each
//! document is handed to a [`Documents`] handler, which validates it at once
//! or sends it off to another thread. Only the part of the input around the
//! current document is kept in memory.

use std::io;

use crate::diagnostic::{Detail, Diagnostic};
use crate::json::{
    push_escaped, skip_raw, DuplicateKeys, FoundValue, Scanner, Syntax, SyntaxError,
};

use super::check::{Checker, Flow, Malformed};
use super::findings::severity;
use super::layout::{self, NeedMore};
use super::locate::Position;
pub(crate) use super::source::Source;
use super::{DocumentReport, Layout, Omitted, Options};
use crate::model::Kind;

/// Why reading stopped early.
#[derive(Debug)]
pub(crate) enum Stop {
    /// Malformed JSON, reported; nothing after it can be read.
    Malformed,
    /// The input could not be read.
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Self {
        Stop::Io(error)
    }
}

/// How the kind of a document is found.
#[derive(Debug, Clone, Copy)]
pub(crate) enum KindRule {
    /// It is known (`None`: it cannot be told).
    Named(Option<Kind>),
    /// It is `forced`, or told from the document's members, or else
    /// `otherwise`.
    Told {
        forced: Option<Kind>,
        otherwise: Option<Kind>,
    },
}

impl KindRule {
    /// The kind of the document at `pos` of `bytes`.
    pub fn resolve(self, bytes: &[u8], pos: usize) -> Option<Kind> {
        match self {
            KindRule::Named(kind) => kind,
            KindRule::Told { forced, otherwise } => {
                forced.or_else(|| layout::kind_of(bytes, pos)).or(otherwise)
            }
        }
    }
}

/// What is done with each document found.
pub(crate) trait Documents {
    /// How the documents are laid out, told before the first document.
    fn layout(&mut self, _layout: Layout) {}

    /// The document at file offset `at`: validates it (or sends it off to
    /// be) and returns the offset after it. `Stop::Malformed` when it is
    /// malformed JSON, found now.
    fn document(
        &mut self,
        src: &mut Source<'_>,
        at: usize,
        pointer: String,
        kind: KindRule,
    ) -> Result<usize, Stop>;
}

/// Reads the value at `start` of `src` (the whole input, or one line of JSON
/// Lines), handing its documents to `documents`. Returns the layout, the
/// diagnostics found outside documents, and how reading ended.
pub(crate) fn container<D: Documents>(
    src: &mut Source<'_>,
    start: usize,
    options: &Options,
    documents: &mut D,
) -> (Layout, Vec<Diagnostic>, Result<(), Stop>) {
    let mut reader = Container {
        src,
        pos: start,
        options,
        documents,
        out: Vec::new(),
        layout: Layout::Bare,
    };
    let outcome = reader.file();
    (reader.layout, reader.out, outcome)
}

/// The report of the diagnostics found outside any document.
pub(crate) fn outside_report(diagnostics: Vec<Diagnostic>) -> DocumentReport {
    DocumentReport {
        pointer: String::new(),
        line: None,
        kind: None,
        diagnostics,
        omitted: Omitted::default(),
    }
}

/// Validates each document as it is found, on this thread.
pub(crate) struct Sequential<'s> {
    pub options: &'s Options,
    pub sink: &'s mut dyn FnMut(DocumentReport),
}

impl Documents for Sequential<'_> {
    fn document(
        &mut self,
        src: &mut Source<'_>,
        at: usize,
        pointer: String,
        kind: KindRule,
    ) -> Result<usize, Stop> {
        let options = self.options;
        let mut resolved = None;
        let unit = Unit::Document;
        let (mut diagnostics, omitted, outcome, end) =
            walk_unit(src, at, &pointer, options, unit, |c| {
                let kind = kind.resolve(c.read.scan.bytes, c.pos());
                resolved = Some(kind);
                c.document(kind)
            })?;
        src.locate(&mut diagnostics)?;
        (self.sink)(DocumentReport {
            pointer,
            line: None,
            kind: resolved.flatten(),
            diagnostics,
            omitted,
        });
        outcome.map(|()| end).map_err(|Malformed| Stop::Malformed)
    }
}

/// What is walked: a document keeps a bounded number of diagnostics; the
/// structure around documents keeps all it has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    Document,
    Around,
}

/// Runs `walk` over the value at file offset `at`, reading more of the input
/// whenever the value may go on beyond the bytes at hand. Returns the
/// diagnostics in document order and those counted but not kept, how the
/// walk ended and the offset after the value.
pub(crate) fn walk_unit(
    src: &mut Source<'_>,
    at: usize,
    pointer: &str,
    options: &Options,
    unit: Unit,
    mut walk: impl FnMut(&mut Checker<'_>) -> Flow,
) -> Result<(Vec<Diagnostic>, Omitted, Flow, usize), Stop> {
    // Reading ahead makes it rare that a value goes on beyond the bytes at
    // hand, which costs walking it again.
    while src.end() - at < src.buffering.read_ahead && src.fill()? {}
    loop {
        let start = at - src.base;
        let mut checker = src.checker(at, pointer, options, unit == Unit::Document);
        let outcome = walk(&mut checker);
        let cut_short = match outcome {
            // The last token (a number) may go on.
            Ok(()) => checker.pos() >= src.bytes().len(),
            Err(Malformed) => skip_raw(src.bytes(), start).is_err_and(|e| e >= src.bytes().len()),
        };
        let end = src.base + checker.pos();
        let (diagnostics, omitted) = checker.into_diagnostics();
        if cut_short && src.fill()? {
            continue;
        }
        return Ok((diagnostics, omitted, outcome, end));
    }
}

/// Reads the structure around the documents of one value.
struct Container<'c, 'r, D> {
    src: &'c mut Source<'r>,
    /// The file offset being read.
    pos: usize,
    options: &'c Options,
    documents: &'c mut D,
    /// Diagnostics found outside documents, located.
    out: Vec<Diagnostic>,
    layout: Layout,
}

impl<D: Documents> Container<'_, '_, D> {
    fn file(&mut self) -> Result<(), Stop> {
        while self.src.end() < self.pos + 4 && self.src.fill()? {}
        let start = self.pos - self.src.base;
        if let Some(utf16) = crate::json::utf16(&self.src.bytes()[start..]) {
            let at = self.pos;
            self.report(Detail::Syntax(utf16), at, String::new())?;
            return Err(Stop::Malformed);
        }
        self.ws()?;
        if self.peek()?.is_none() {
            let at = self.pos;
            self.report(Detail::Syntax(Syntax::EmptyInput), at, String::new())?;
            return Err(Stop::Malformed);
        }
        let forced = self.options.kind;
        let (layout, kind) = loop {
            let at = self.pos - self.src.base;
            // The whole root object is looked at when the input is short
            // enough to be at hand from the start, whatever the reader.
            let whole = self.src.eof && self.src.end() - self.pos <= self.src.buffering.retain;
            match layout::detect(self.src.bytes(), at, whole, forced) {
                Ok(found) => break found,
                // At the end of the input there is no more to wait for.
                Err(NeedMore) if !self.src.fill()? => {
                    break layout::detect(self.src.bytes(), at, true, forced)
                        .unwrap_or((Layout::Bare, forced));
                }
                Err(NeedMore) => {}
            }
        };
        self.layout = layout;
        self.documents.layout(layout);
        match layout {
            Layout::Bare => self.document(String::new(), KindRule::Named(kind))?,
            Layout::Array => self.array(
                String::new(),
                KindRule::Told {
                    forced,
                    otherwise: None,
                },
            )?,
            Layout::Wrapped | Layout::Catalog | Layout::List => self.root(layout, kind)?,
            Layout::CodeMap => self.code_map(String::new(), forced.unwrap_or(Kind::Set))?,
        }
        self.ws()?;
        if self.peek()?.is_some() {
            let at = self.pos;
            self.report(Detail::Syntax(Syntax::TrailingContent), at, String::new())?;
            return Err(Stop::Malformed);
        }
        Ok(())
    }

    /// The root object of a wrapped document, a catalog or a list.
    fn root(&mut self, layout: Layout, kind: Option<Kind>) -> Result<(), Stop> {
        let forced = self.options.kind;
        let mut keys = DuplicateKeys::default();
        let mut contradicted = false;
        self.members(String::new(), |c, key, key_at, pointer| {
            if !keys.insert(key.clone().into()) {
                c.duplicate_key(key_at, &key, pointer.clone())?;
            }
            if key != "data" {
                if !contradicted {
                    contradicted = c.contradiction(&key, key_at)?;
                }
                return c.skip(pointer);
            }
            match layout {
                Layout::Wrapped => c.document(pointer, KindRule::Named(kind)),
                Layout::Catalog => c.code_map(pointer, forced.unwrap_or(Kind::Set)),
                _ if c.peek()? == Some(b'[') => c.array(
                    pointer,
                    KindRule::Told {
                        forced,
                        otherwise: Some(Kind::Migration),
                    },
                ),
                _ => {
                    let at = c.pos;
                    let found = c.found_value();
                    c.report(Detail::DocumentsNotInArray { found }, at, pointer.clone())?;
                    c.skip(pointer)
                }
            }
        })
    }

    /// `{"<CODE>": <document>, ...}`.
    fn code_map(&mut self, pointer: String, kind: Kind) -> Result<(), Stop> {
        let mut codes = DuplicateKeys::default();
        self.members(pointer, |c, code, code_at, pointer| {
            if !codes.insert(code.clone().into()) {
                c.duplicate_key(code_at, &code, pointer.clone())?;
            }
            c.document(pointer, KindRule::Named(Some(kind)))
        })
    }

    /// `[<document>, ...]`.
    fn array(&mut self, pointer: String, kind: KindRule) -> Result<(), Stop> {
        if !self.step(&pointer, |s| s.open())? {
            return Ok(());
        }
        for index in 0.. {
            self.document(format!("{pointer}/{index}"), kind)?;
            if !self.step(&pointer, |s| s.after_item())? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// At `{`: reads each member, calling `member` with its decoded key, the
    /// key's offset and its pointer; `member` must consume the value.
    fn members(
        &mut self,
        pointer: String,
        mut member: impl FnMut(&mut Self, String, usize, String) -> Result<(), Stop>,
    ) -> Result<(), Stop> {
        if !self.step(&pointer, |s| s.open())? {
            return Ok(());
        }
        loop {
            let (key, key_at) = self.step(&pointer, |s| {
                let (name, at) = s.member_name()?;
                Ok((s.decode(name).into_owned(), at))
            })?;
            let key_at = self.src.base + key_at;
            let mut inner = pointer.clone();
            inner.push('/');
            push_escaped(&mut inner, &key);
            member(self, key, key_at, inner)?;
            if !self.step(&pointer, |s| s.after_member())? {
                return Ok(());
            }
        }
    }

    /// Hands the document at the cursor to the handler.
    fn document(&mut self, pointer: String, kind: KindRule) -> Result<(), Stop> {
        self.pos = self.documents.document(self.src, self.pos, pointer, kind)?;
        self.src.release(self.pos);
        Ok(())
    }

    /// Reads past a value around the documents (such as `meta`), reporting
    /// only malformed JSON, duplicate keys and excessive depth.
    fn skip(&mut self, pointer: String) -> Result<(), Stop> {
        let (mut diagnostics, _, outcome, end) = walk_unit(
            self.src,
            self.pos,
            &pointer,
            self.options,
            Unit::Around,
            |c| c.skip_value(),
        )?;
        self.src.locate(&mut diagnostics)?;
        self.out.extend(diagnostics);
        self.pos = end;
        outcome.map_err(|Malformed| Stop::Malformed)
    }

    /// Reports a member beside an early `data` that names a document kind, when
    /// the input was too long to see it before `data` was read as a container.
    fn contradiction(&mut self, key: &str, key_at: usize) -> Result<bool, Stop> {
        self.ensure_value()?;
        let at = self.pos - self.src.base;
        let Some(kind) = layout::contradicting_kind(self.src.bytes(), key, at) else {
            return Ok(false);
        };
        let mut pointer = String::from("/");
        push_escaped(&mut pointer, key);
        let detail = Detail::KindAfterData {
            key: key.to_owned(),
            kind,
            layout: self.layout.as_str(),
        };
        self.report(detail, key_at, pointer)?;
        Ok(true)
    }

    /// Makes sure a string value at the cursor is all at hand.
    fn ensure_value(&mut self) -> Result<(), Stop> {
        while self.src.bytes().get(self.pos - self.src.base) == Some(&b'"')
            && skip_raw(self.src.bytes(), self.pos - self.src.base)
                .is_err_and(|e| e >= self.src.bytes().len())
            && self.src.fill()?
        {}
        Ok(())
    }

    /// Runs one scanner step at the cursor (a member's name, the `,`
    /// after an item), reading more of the input while the step runs into
    /// the end of the bytes at hand; malformed JSON is reported at
    /// `pointer`. Offsets the step returns are relative to `src.base`.
    fn step<T>(
        &mut self,
        pointer: &str,
        step: impl Fn(&mut Scanner<'_>) -> Result<T, SyntaxError>,
    ) -> Result<T, Stop> {
        loop {
            let base = self.src.base;
            let mut scan = Scanner::new(self.src.bytes(), self.pos - base);
            scan.utf8_checked = self.src.utf8_to().saturating_sub(base);
            match step(&mut scan) {
                Ok(value) => {
                    self.pos = base + scan.pos;
                    return Ok(value);
                }
                Err(_) if scan.at_end() && self.src.fill()? => {}
                Err(error) => {
                    self.report(
                        Detail::Syntax(error.syntax),
                        base + error.at,
                        pointer.to_owned(),
                    )?;
                    return Err(Stop::Malformed);
                }
            }
        }
    }

    fn peek(&mut self) -> Result<Option<u8>, Stop> {
        while self.pos >= self.src.end() {
            if !self.src.fill()? {
                return Ok(None);
            }
        }
        Ok(Some(self.src.bytes()[self.pos - self.src.base]))
    }

    fn ws(&mut self) -> Result<(), Stop> {
        loop {
            let mut scan = Scanner::new(self.src.bytes(), self.pos - self.src.base);
            scan.ws();
            self.pos = self.src.base + scan.pos;
            if !scan.at_end() || !self.src.fill()? {
                return Ok(());
            }
        }
    }

    fn found_value(&mut self) -> FoundValue {
        FoundValue::at(self.src.bytes(), self.pos - self.src.base)
    }

    /// Locates diagnostics found outside documents and keeps them.
    fn record(&mut self, mut diagnostics: Vec<Diagnostic>) -> Result<(), Stop> {
        self.src.locate(&mut diagnostics)?;
        self.out.extend(diagnostics);
        Ok(())
    }

    /// Records a problem at file offset `at`.
    fn report(&mut self, detail: Detail, at: usize, pointer: String) -> Result<(), Stop> {
        let found = diagnostic(self.options, detail, at, pointer);
        self.record(vec![found])
    }

    fn duplicate_key(&mut self, key_at: usize, key: &str, pointer: String) -> Result<(), Stop> {
        let detail = Detail::DuplicateKey {
            name: key.to_owned(),
        };
        self.report(detail, key_at, pointer)
    }
}

/// A diagnostic about the value at file offset `at`, not yet located.
pub(crate) fn diagnostic(
    options: &Options,
    detail: Detail,
    at: usize,
    pointer: String,
) -> Diagnostic {
    let severity = severity(options, detail.code());
    Diagnostic::new(detail, severity, pointer, None, at)
}

/// Calls `each` with every line that is not blank, its position and its
/// 1-based number.
pub(crate) fn for_each_line(
    src: &mut Source<'_>,
    start: usize,
    each: &mut dyn FnMut(Vec<u8>, Position, usize),
) -> io::Result<()> {
    let mut line_start = start;
    let mut number = 0;
    loop {
        let line_end = loop {
            let from = line_start - src.base;
            if let Some(i) = memchr::memchr(b'\n', &src.bytes()[from..]) {
                break line_start + i;
            }
            if !src.fill()? {
                break src.end();
            }
        };
        number += 1;
        let line = &src.bytes()[line_start - src.base..line_end - src.base];
        if !line.trim_ascii().is_empty() {
            let line = line.to_vec();
            each(line, src.position(line_start), number);
        }
        if line_end >= src.end() {
            return Ok(());
        }
        line_start = line_end + 1;
        src.release(line_start);
    }
}

/// Validates one line of JSON Lines (a document or a container of them),
/// which starts at `at`.
pub(crate) fn validate_line(
    line: Vec<u8>,
    at: Position,
    number: usize,
    options: &Options,
    sink: &mut dyn FnMut(DocumentReport),
) {
    let mut src = Source::complete(line, at);
    let mut numbered = |mut document: DocumentReport| {
        document.line = Some(number);
        sink(document);
    };
    let mut documents = Sequential {
        options,
        sink: &mut numbered,
    };
    let (_, outside, _) = container(&mut src, at.offset, options, &mut documents);
    if !outside.is_empty() {
        numbered(outside_report(outside));
    }
}
