//! The container around the documents of one value (a catalog's
//! `{"meta": …, "data": {"<CODE>": …}}`, a list object, an array, or a bare
//! document), read a piece at a time: each document is handed to a
//! [`Documents`] handler, and what is found outside documents is kept in an
//! [`Outside`]. The values around documents are read past in `around.rs`.

use crate::diagnostic::{quote, Detail, Diagnostic};
use crate::model::Kind;
use crate::table::Names;
use cardkit_json::pointer::push_escaped;
use cardkit_json::{skip_raw, DuplicateKeys, FoundValue, Scanner, Syntax, SyntaxError};

use super::documents::{Documents, KindRule, Stop, MAX_CHAR_BYTES};
use super::findings::{severity, Added, Findings};
use super::layout::{self, NeedMore};
use super::options::Options;
use super::part::AROUND_LIMIT;
use super::source::Source;
use crate::report::{DocumentReport, Folded, Layout, Omitted};

/// Reads the value at `start` of `src` (the whole input, or one line of JSON
/// Lines), handing its documents to `documents`. Returns the layout, what
/// was found outside documents, and how reading ended.
pub(crate) fn container<D: Documents>(
    src: &mut Source<'_>,
    start: usize,
    options: &Options,
    documents: &mut D,
) -> (Layout, Outside, Result<(), Stop>) {
    let mut reader = Container {
        src,
        pos: start,
        options,
        documents,
        found: Findings::new(options),
        omitted: Vec::new(),
        document_since_omission: true,
        layout: Layout::Bare,
    };
    let outcome = reader.file();
    let outside = Outside {
        diagnostics: reader.found.out,
        omitted: reader.omitted,
    };
    (reader.layout, outside, outcome)
}

/// What was found outside any document: the diagnostics kept (as many as
/// one document keeps), located, and those counted but not kept.
#[derive(Default)]
pub(crate) struct Outside {
    diagnostics: Vec<Diagnostic>,
    /// The counts of diagnostics not kept, in spans that no document
    /// divides, each with the offset of its first diagnostic: those past
    /// the bounds, and how many the configuration ignored.
    omitted: Vec<(usize, Omitted, usize)>,
}

impl Outside {
    /// Diagnostics found outside any document, located.
    pub fn of(diagnostics: Vec<Diagnostic>) -> Outside {
        Outside {
            diagnostics,
            omitted: Vec::new(),
        }
    }

    /// Only what was found before file offset `end` (where a malformed
    /// document stopped the reading that one thread would have done).
    pub fn before(self, end: Option<usize>) -> Outside {
        let Some(end) = end else {
            return self;
        };
        Outside {
            diagnostics: self
                .diagnostics
                .into_iter()
                .filter(|d| d.offset < end)
                .collect(),
            omitted: self
                .omitted
                .into_iter()
                .filter(|&(at, _, _)| at < end)
                .collect(),
        }
    }

    /// The report of it, if anything was found.
    pub fn into_report(self) -> Option<DocumentReport> {
        if self.diagnostics.is_empty() && self.omitted.is_empty() {
            return None;
        }
        let mut omitted = Omitted::default();
        let mut ignored = 0;
        for (_, span, span_ignored) in self.omitted {
            omitted.merge(span);
            ignored += span_ignored;
        }
        Some(DocumentReport {
            pointer: String::new(),
            pointer_bytes: None,
            line: None,
            kind: None,
            diagnostics: self.diagnostics,
            omitted,
            folded: Folded::default(),
            ignored,
            names: Names::Auto,
        })
    }
}

/// Reads the structure around the documents of one value.
pub(super) struct Container<'c, 'r, D> {
    pub src: &'c mut Source<'r>,
    /// The file offset being read.
    pub pos: usize,
    options: &'c Options,
    documents: &'c mut D,
    /// Diagnostics found outside documents, located once kept.
    found: Findings<'c>,
    /// The counts of those not kept, in spans that no document divides
    /// (past the bounds; ignored).
    omitted: Vec<(usize, Omitted, usize)>,
    /// A document was read since the last diagnostic not kept.
    document_since_omission: bool,
    layout: Layout,
}

impl<D: Documents> Container<'_, '_, D> {
    fn file(&mut self) -> Result<(), Stop> {
        while self.src.end() < self.pos + 4 && self.src.fill()? {}
        let start = self.pos - self.src.base;
        if let Some(utf16) = cardkit_json::utf16(&self.src.bytes()[start..]) {
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
        let told = loop {
            let at = self.pos - self.src.base;
            // The whole root object is looked at when the input is short
            // enough to be at hand from the start, whatever the reader.
            let whole = self.src.eof && self.src.end() - self.pos <= self.src.buffering.retain;
            match layout::detect(self.src.bytes(), at, whole, forced) {
                Ok(found) => break Some(found),
                // Members that are no document's field fill the first
                // mebibyte (a long `meta`): they are not held to see what
                // follows, the object is read as a container.
                Err(NeedMore)
                    if self.src.end() - self.pos >= self.src.buffering.foreign_prefix
                        && layout::only_foreign_members(self.src.bytes(), at) =>
                {
                    break None;
                }
                // At the end of the input there is no more to wait for.
                Err(NeedMore) if !self.src.fill()? => {
                    let found = layout::detect(self.src.bytes(), at, true, forced);
                    break Some(found.unwrap_or((Layout::Bare, forced)));
                }
                Err(NeedMore) => {}
            }
        };
        if let Some((layout, _)) = told {
            self.layout = layout;
            self.documents.layout(layout);
        }
        match told {
            None => self.root(None)?,
            Some((Layout::Bare, kind)) => self.document(String::new(), KindRule::Named(kind))?,
            Some((Layout::Array, _)) => self.array(
                String::new(),
                KindRule::Told {
                    forced,
                    otherwise: None,
                },
            )?,
            Some((Layout::CodeMap, _)) => {
                self.code_map(String::new(), forced.unwrap_or(Kind::Set))?;
            }
            Some(told) => self.root(Some(told))?,
        }
        self.ws()?;
        if self.peek()?.is_some() {
            let at = self.pos;
            self.report(Detail::Syntax(Syntax::TrailingContent), at, String::new())?;
            return Err(Stop::Malformed);
        }
        Ok(())
    }

    /// The root object of a wrapped document, a catalog or a list. `told`:
    /// the layout and kind, or `None` when the object's first mebibyte held
    /// only members that are no document's field, and `data` is to tell.
    fn root(&mut self, mut told: Option<(Layout, Option<Kind>)>) -> Result<(), Stop> {
        let mut keys = DuplicateKeys::default();
        let mut contradicted = false;
        let mut first = None;
        self.members(String::new(), |c, key, key_at, pointer| {
            if !keys.insert(key.clone().into()) {
                c.duplicate_key(key_at, &key, pointer.clone())?;
            }
            let first = first.get_or_insert_with(|| quote::name(&key));
            if key == "data" && told.is_none() {
                told = c.data_layout()?;
                if let Some((layout, _)) = told {
                    c.layout = layout;
                    c.documents.layout(layout);
                }
            }
            match told {
                Some((layout, kind)) if key == "data" => c.data(layout, kind, pointer),
                Some(_) => {
                    if !contradicted {
                        contradicted = c.contradiction(&key, key_at)?;
                    }
                    c.skip_around(pointer)
                }
                None => {
                    if !contradicted && layout::is_document_field(&key) {
                        contradicted = true;
                        let detail = Detail::ForeignStart {
                            first: first.clone(),
                            field: Some(quote::name(&key)),
                        };
                        c.report(detail, key_at, pointer.clone())?;
                    }
                    c.skip_around(pointer)
                }
            }
        })?;
        // Reported at the object's end: its start is no longer at hand.
        if let (None, false, Some(first)) = (told, contradicted, first) {
            let detail = Detail::ForeignStart { first, field: None };
            let end = self.pos - 1;
            self.report(detail, end, String::new())?;
        }
        Ok(())
    }

    /// Reads past a member of the root object beside the documents, handing
    /// its bytes to the handler when it wants them.
    fn skip_around(&mut self, pointer: String) -> Result<(), Stop> {
        if !self.documents.wants_around() {
            return self.skip(pointer);
        }
        self.ws()?;
        let start = self.pos;
        self.skip(pointer.clone())?;
        let base = self.src.base;
        let bytes = (base <= start && self.pos - start <= AROUND_LIMIT)
            .then(|| self.src.bytes()[start - base..self.pos - base].to_vec());
        self.documents.around(self.src, pointer, bytes);
        Ok(())
    }

    /// The container that `data` at the cursor makes of the root object.
    fn data_layout(&mut self) -> Result<Option<(Layout, Option<Kind>)>, Stop> {
        loop {
            match layout::data_layout(self.src.bytes(), self.pos - self.src.base) {
                Ok(told) => {
                    return Ok(told.map(|(layout, kind)| (layout, self.options.kind.or(kind))))
                }
                Err(NeedMore) if self.src.fill()? => {}
                Err(NeedMore) => return Ok(None),
            }
        }
    }

    /// The root object's `data`, which holds the documents of `layout`.
    fn data(&mut self, layout: Layout, kind: Option<Kind>, pointer: String) -> Result<(), Stop> {
        let forced = self.options.kind;
        match layout {
            Layout::Wrapped => self.document(pointer, KindRule::Named(kind)),
            // A later `data` beside the one that made the value a catalog
            // may be anything.
            Layout::Catalog if self.peek()? == Some(b'{') => {
                self.code_map(pointer, forced.unwrap_or(Kind::Set))
            }
            Layout::Catalog => {
                let at = self.pos;
                let found = self.found_value();
                self.report(Detail::SetsNotInObject { found }, at, pointer.clone())?;
                self.skip(pointer)
            }
            _ if self.peek()? == Some(b'[') => self.array(
                pointer,
                KindRule::Told {
                    forced,
                    otherwise: Some(Kind::Migration),
                },
            ),
            _ => {
                let at = self.pos;
                let found = self.found_value();
                self.report(Detail::DocumentsNotInArray { found }, at, pointer.clone())?;
                self.skip(pointer)
            }
        }
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
        if !self.open()? {
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
        if !self.open()? {
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
        self.ws()?;
        self.pos = self.documents.document(self.src, self.pos, pointer, kind)?;
        self.src.release(self.pos);
        self.document_since_omission = true;
        Ok(())
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
            key: quote::name(key),
            kind,
            layout: self.layout.as_str(),
        };
        self.report(detail, key_at, pointer)?;
        Ok(true)
    }

    /// Makes sure a string value at the cursor is at hand if it may name a
    /// kind or a layout: such a name is short even with every character
    /// escaped, so a longer string (a huge note) is not read ahead.
    fn ensure_value(&mut self) -> Result<(), Stop> {
        const NAME_AT_HAND: usize = 1024;
        while self.src.bytes().get(self.pos - self.src.base) == Some(&b'"')
            && self.src.end() - self.pos < NAME_AT_HAND
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
    pub(super) fn step<T>(
        &mut self,
        pointer: &str,
        step: impl Fn(&mut Scanner<'_>) -> Result<T, SyntaxError>,
    ) -> Result<T, Stop> {
        self.ws()?;
        loop {
            let base = self.src.base;
            let mut scan = Scanner::new(self.src.bytes(), self.pos - base);
            scan.utf8_checked = self.src.utf8_to().saturating_sub(base);
            let result = step(&mut scan);
            let (pos, at_end) = (scan.pos, scan.at_end());
            match result {
                // A step that ends in white space (the `,` of `after_item`
                // and what follows it) has its answer: the white space
                // beyond is read past by the next step, as a stream.
                Ok(value)
                    if at_end
                        && pos > 0
                        && matches!(self.src.bytes()[pos - 1], b' ' | b'\t' | b'\n' | b'\r') =>
                {
                    self.pos = base + pos;
                    return Ok(value);
                }
                // A token up to the end of the bytes may go on beyond them.
                Ok(_) if at_end && self.src.fill()? => {}
                Ok(value) => {
                    self.pos = base + pos;
                    return Ok(value);
                }
                Err(error)
                    if (at_end || error.at + MAX_CHAR_BYTES > self.src.bytes().len())
                        && self.src.fill()? => {}
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

    pub(super) fn peek(&mut self) -> Result<Option<u8>, Stop> {
        while self.pos >= self.src.end() {
            if !self.src.fill()? {
                return Ok(None);
            }
        }
        Ok(Some(self.src.bytes()[self.pos - self.src.base]))
    }

    /// Reads past white space, a piece at a time: white space up to the end
    /// of the bytes at hand is let go before more is read, so a long run of
    /// it (a body of nothing but spaces) is never held.
    pub(super) fn ws(&mut self) -> Result<(), Stop> {
        loop {
            let mut scan = Scanner::new(self.src.bytes(), self.pos - self.src.base);
            scan.ws();
            self.pos = self.src.base + scan.pos;
            if !scan.at_end() {
                return Ok(());
            }
            let read = self.src.end();
            self.release()?;
            // Letting go may read on (a batch takes the context after
            // it): what it read is looked at before reading more.
            if !self.src.fill_past(read)? {
                return Ok(());
            }
        }
    }

    /// Lets go of the bytes before the cursor (but for some context), once
    /// the documents' handler has taken what it needs of them.
    pub(super) fn release(&mut self) -> Result<(), Stop> {
        self.documents.before_release(self.src)?;
        self.src.release(self.pos);
        Ok(())
    }

    /// At `{` or `[`: steps inside, reading past the white space after it as
    /// [`Self::ws`] does; `false` when the object or array is empty (and has
    /// been read past).
    pub(super) fn open(&mut self) -> Result<bool, Stop> {
        let close = if self.peek()? == Some(b'{') {
            b'}'
        } else {
            b']'
        };
        self.pos += 1;
        self.ws()?;
        if self.peek()? == Some(close) {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    fn found_value(&mut self) -> FoundValue {
        cardkit_json::found_at(self.src.bytes(), self.pos - self.src.base)
    }

    /// Records a problem at file offset `at`: keeps it, located, within the
    /// bounds of one document, or counts it.
    pub(super) fn report(
        &mut self,
        detail: Detail,
        at: usize,
        pointer: String,
    ) -> Result<(), Stop> {
        let (code, severity) = (detail.code(), severity(self.options, detail.code()));
        let kept = self.found.out.len();
        let added = self.found.add(detail, at, None, || pointer.into());
        if added == Added::Kept {
            self.src.locate(&mut self.found.out[kept..])?;
        } else {
            if self.document_since_omission {
                self.omitted.push((at, Omitted::default(), 0));
                self.document_since_omission = false;
            }
            if let Some((_, span, ignored)) = self.omitted.last_mut() {
                match added {
                    Added::Ignored => *ignored += 1,
                    _ => span.add(code, severity),
                }
            }
        }
        Ok(())
    }

    pub(super) fn duplicate_key(
        &mut self,
        key_at: usize,
        key: &str,
        pointer: String,
    ) -> Result<(), Stop> {
        let detail = Detail::DuplicateKey {
            name: quote::name(key),
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
