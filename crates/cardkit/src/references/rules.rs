//! The run's side of the rules: the ids, codes and names of every document
//! read, what is kept for the end of the run, and the findings. Memory holds, per record, its
//! id and the place of it; per set, its code; every card name once; and
//! each reference not settled within its own document. Never a document.

use std::collections::hash_map::Entry;
use std::collections::BTreeMap;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::digest::{duplicate, Digest, Id, FIRST_GIVEN};
use super::extract::{Mention, SetFacts};
use super::place::{At, Spot};
use super::Target;
use crate::diagnostic::{Detail, Diagnostic, Related, Severity};
use crate::model::Kind;
use crate::report::Layout;
use crate::report::{DocumentReport, Omitted, KEPT_WARNINGS_PER_CODE};
use crate::schema::{FieldDef, Link, Names};
use crate::validate::{Filter, Validated, Validator};
use std::io::{self, Read};

/// One problem with a reference, before it is a diagnostic.
#[derive(Debug, Clone)]
pub struct Finding {
    /// What is wrong.
    pub detail: Detail,
    /// The field of the referring value.
    pub field: &'static FieldDef,
    /// Where the referring value is.
    pub at: At,
    /// The second place, with the index of its document and what it is.
    pub related: Option<(u32, At, String)>,
    /// The referring value, as written.
    pub value: Box<str>,
}

/// One finding of a run as [`References::finish_with`] hands it over: the
/// finding, the diagnostic it is reported as, and the document it is in.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    /// The file (input) of the document.
    pub file: &'a str,
    /// The document's JSON Pointer in its file.
    pub document: &'a str,
    /// The set's code, as the document gives it.
    pub set_code: Option<&'a str>,
    /// The document was valid as validated, before its references.
    pub valid: bool,
    /// The finding.
    pub finding: &'a Finding,
    /// As it is reported: its code, severity, message, place and second
    /// place (whose `file` is given when it is another file).
    pub diagnostic: &'a Diagnostic,
}

impl Finding {
    /// The value the finding is about (where [`Finding::value`] is the
    /// referring value as written): the id, name or code named, given
    /// twice or not named back; the set code a record gives; a printing
    /// given twice, in words.
    #[must_use]
    pub fn subject(&self) -> &str {
        match &self.detail {
            Detail::DanglingReference { value, .. }
            | Detail::DuplicateId { value, .. }
            | Detail::VariationElsewhere { value, .. } => value,
            Detail::DuplicatePrinting { key } => key,
            Detail::SetCodeMismatch { found, .. } => found,
            Detail::AsymmetricFaces { face } => face,
            // No other detail is a finding of references.
            _ => "",
        }
    }
}

/// Every finding of a run, as found ([`References::findings`]).
pub struct Findings {
    /// Each finding with the index of its document, in the order
    /// [`References::add`] was given them: by document, each document's
    /// in file order. Those a configuration's `ignore` names are left out.
    pub findings: Vec<(u32, Finding)>,
    /// As [`Outcome::unchecked`].
    pub unchecked: usize,
}

/// A document read, by the index it was added under.
struct Document {
    file: u32,
    pointer: String,
    /// The set's code.
    code: Option<Box<str>>,
    /// Valid as validated, before its references were checked.
    valid: bool,
    /// The pointers of the places of its ids and code.
    pointers: String,
    /// Findings a configuration's `ignore` left out.
    ignored: usize,
    /// Findings of each code, kept or not: past
    /// [`KEPT_WARNINGS_PER_CODE`] of a code they are only counted, so that
    /// a document of millions of broken references costs no more memory
    /// than its references do.
    found: BTreeMap<crate::Code, usize>,
}

/// A reference not settled within its own document.
struct Pending {
    document: u32,
    mention: Mention<'static>,
    /// What the mention is.
    link: Link,
}

/// Where a record's id (or a set's code) was first given: its pointer
/// among its document's.
struct IdAt {
    document: u32,
    spot: Spot,
}

impl IdAt {
    fn at(&self, documents: &[Document]) -> At {
        At::of_spot(&self.spot, &documents[self.document as usize].pointers)
    }
}

/// The references of a run, checked as its documents are read.
pub struct References {
    severity: Severity,
    /// A configuration's `ignore`.
    filter: Option<&'static Filter>,
    files: Vec<String>,
    documents: Vec<Document>,
    /// Every record's id, with where it was first given.
    ids: HashMap<u128, IdAt>,
    /// Every set's code, with where.
    codes: HashMap<Box<str>, IdAt>,
    /// Every card name (and face name).
    names: HashSet<Box<str>>,
    pending: Vec<Pending>,
    findings: Vec<(u32, Finding)>,
    /// The run holds a whole catalog, so that a set or card it does not
    /// hold is missing, not merely elsewhere: it read a catalog, and no
    /// set from another kind of input.
    whole_catalog: bool,
    /// Sets were read from an input that is not a catalog.
    loose_sets: bool,
    /// The documents read before the current input.
    before_input: usize,
    /// Every finding is kept, none only counted ([`References::keeping_all`]).
    keep_all: bool,
}

/// What the references of a run came to.
pub struct Outcome {
    /// For each document with findings, in the order read: its file, its
    /// report of them, and whether it was valid as validated.
    pub reports: Vec<(String, DocumentReport, bool)>,
    /// How many references to sets, cards and printings elsewhere could
    /// not be checked, as the run holds no whole catalog.
    pub unchecked: usize,
    /// Documents whose references were read.
    pub documents: usize,
    /// The last file read with set documents.
    pub last_file: Option<String>,
}

impl References {
    /// A check whose findings have `severity`.
    #[must_use]
    pub fn new(severity: Severity) -> Self {
        References {
            severity,
            filter: None,
            files: Vec::new(),
            documents: Vec::new(),
            ids: HashMap::new(),
            codes: HashMap::new(),
            names: HashSet::new(),
            pending: Vec::new(),
            findings: Vec::new(),
            whole_catalog: false,
            loose_sets: false,
            before_input: 0,
            keep_all: false,
        }
    }

    /// Keeps every finding, for [`References::findings`]: past
    /// [`KEPT_WARNINGS_PER_CODE`] of a code in a document they are no
    /// longer only counted, so that two runs' findings can be compared
    /// whole (memory then follows the findings).
    #[must_use]
    pub fn keeping_all(mut self) -> Self {
        self.keep_all = true;
        self
    }

    /// Leaves out what a configuration's `ignore` names, as validation does.
    #[must_use]
    pub fn filtered(mut self, filter: Option<&'static Filter>) -> Self {
        self.filter = filter;
        self
    }

    /// An input of the run ends: whether it is laid out as a whole catalog
    /// (a catalog, or a map of codes to sets). Sets and cards the run does
    /// not hold are missing only when every set was read from such.
    pub fn input_read(&mut self, whole_catalog: bool) {
        let read_sets = self.documents.len() > self.before_input;
        self.before_input = self.documents.len();
        if whole_catalog {
            self.whole_catalog = true;
        } else if read_sets {
            self.loose_sets = true;
        }
    }

    /// Validates `input` (named `name`) with `validator`, handing each
    /// document's report to `on_document`, and reads the references of its
    /// set documents (on the threads that validate them).
    ///
    /// # Errors
    /// As [`Validator::reader`].
    pub fn read(
        &mut self,
        validator: Validator,
        name: &str,
        input: impl Read,
        mut on_document: impl FnMut(&DocumentReport),
    ) -> io::Result<Layout> {
        let layout = validator
            .extracting(|found| SetFacts::read(&found).map(Digest::of))
            .with_links_tape()
            .reader(input, |item| {
                if let Validated::Document(report, digest) = item {
                    if let Some(digest) = digest.flatten() {
                        self.add(name, digest, report.is_valid());
                    }
                    on_document(&report);
                }
            })?;
        self.input_read(matches!(layout, Layout::Catalog | Layout::CodeMap));
        Ok(layout)
    }

    /// Adds one set document of `file` (`valid` as validated), digested
    /// ([`Digest::of`]): its ids and names join the run's, what it names
    /// elsewhere waits for the end.
    pub fn add(&mut self, file: &str, digest: Digest, valid: bool) {
        if self.files.last().map(String::as_str) != Some(file) {
            self.files.push(file.to_owned());
        }
        let document = u32::try_from(self.documents.len()).unwrap_or(u32::MAX);
        let Digest {
            pointer,
            code,
            ids,
            pointers,
            names,
            pending,
            findings,
        } = digest;
        self.documents.push(Document {
            file: u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX),
            pointer,
            code: code
                .as_ref()
                .map(|code| code.value.to_string().into_boxed_str()),
            valid,
            pointers,
            ignored: 0,
            found: BTreeMap::new(),
        });
        if let Some(code) = &code {
            self.set_code(document, code);
        }
        self.ids.reserve(ids.len());
        for Id {
            key,
            value,
            field,
            spot,
        } in ids
        {
            match self.ids.entry(key) {
                Entry::Occupied(first) => {
                    let related = first.get().at(&self.documents);
                    let related = (first.get().document, related, FIRST_GIVEN.to_owned());
                    let at = At::of_spot(&spot, &self.documents[document as usize].pointers);
                    let id = Mention { value, field, at };
                    self.found(document, &id, duplicate(&id, Target::Record), Some(related));
                }
                Entry::Vacant(vacant) => {
                    vacant.insert(IdAt { document, spot });
                }
            }
        }
        for name in names.iter() {
            if !self.names.contains(name) {
                self.names.insert(name.into());
            }
        }
        for (mention, link) in pending {
            self.defer(document, mention, link);
        }
        for (mention, detail, related) in findings {
            let related = related.map(|(at, what)| (document, at, what.to_owned()));
            self.found(document, &mention, detail, related);
        }
    }

    /// A set's own code: one set's across the run.
    fn set_code(&mut self, document: u32, code: &Mention<'_>) {
        match self.codes.get(code.value.as_str()) {
            Some(first) => {
                let related = (
                    first.document,
                    first.at(&self.documents),
                    FIRST_GIVEN.to_owned(),
                );
                self.found(document, code, duplicate(code, Target::Set), Some(related));
            }
            None => {
                let pointers = &mut self.documents[document as usize].pointers;
                let spot = code.at.written(pointers);
                self.codes
                    .insert(code.value.as_str().into(), IdAt { document, spot });
            }
        }
    }

    fn defer(&mut self, document: u32, mention: Mention<'static>, link: Link) {
        self.pending.push(Pending {
            document,
            mention,
            link,
        });
    }

    fn found(
        &mut self,
        document: u32,
        mention: &Mention<'_>,
        detail: Detail,
        related: Option<(u32, At, String)>,
    ) {
        if let Some(filter) = self.filter {
            let entry = &mut self.documents[document as usize];
            let field = format!("{}.{}", mention.field.model, mention.field.name);
            let within = entry.pointer.len();
            if filter.ignores_code(detail.code())
                || (filter.by_place()
                    && filter.ignores_at(&mention.at.pointer(), within, Some(&field)))
            {
                entry.ignored += 1;
                return;
            }
        }
        let found = self.documents[document as usize]
            .found
            .entry(detail.code())
            .or_default();
        *found += 1;
        if *found > KEPT_WARNINGS_PER_CODE && !self.keep_all {
            return;
        }
        self.findings.push((
            document,
            Finding {
                detail,
                field: mention.field,
                at: mention.at.clone(),
                related,
                value: mention.value.to_string().into_boxed_str(),
            },
        ));
    }

    /// Whether a card or set named is known: held by the run, missing from
    /// a whole catalog, or not to be told.
    fn known(&self, held: bool) -> Option<bool> {
        (held || self.whole()).then_some(held)
    }

    /// The run holds a whole catalog.
    fn whole(&self) -> bool {
        self.whole_catalog && !self.loose_sets
    }

    /// A variation that is a record of another document.
    fn variation_elsewhere(&mut self, document: u32, mention: &Mention<'_>, there: u32, at: At) {
        let set = self
            .codes
            .iter()
            .find(|(_, code)| code.document == there)
            .map_or_else(
                || self.documents[there as usize].pointer.clone(),
                |(code, _)| code.to_string(),
            );
        let detail = Detail::VariationElsewhere {
            value: mention.value.to_string(),
            set,
        };
        self.found(
            document,
            mention,
            detail,
            Some((there, at, "the variation".to_owned())),
        );
    }

    /// Settles the references kept for the end, and gives every finding,
    /// by document.
    #[must_use]
    pub fn finish(self) -> Outcome {
        self.finish_with(|_| {})
    }

    /// [`References::finish`], handing each finding reported to
    /// `on_finding` too, in the order of the reports (an export writes
    /// them into a table).
    #[must_use]
    pub fn finish_with(mut self, on_finding: impl FnMut(Placed<'_>)) -> Outcome {
        let unchecked = self.settle();
        let documents = self.documents.len();
        Outcome {
            reports: self.reports(on_finding),
            unchecked,
            documents,
            last_file: self.files.last().cloned(),
        }
    }

    /// Settles the references kept for the end, and gives every finding as
    /// it is, for a caller that compares the findings of two runs rather
    /// than reports them (`cardkit diff`).
    #[must_use]
    pub fn findings(mut self) -> Findings {
        let unchecked = self.settle();
        let mut findings = std::mem::take(&mut self.findings);
        // By document, each document's in file order, as reported.
        findings.sort_by_key(|(document, finding)| (*document, finding.at.offset));
        Findings {
            findings,
            unchecked,
        }
    }

    /// Settles the references kept for the end: gives how many could not
    /// be checked.
    fn settle(&mut self) -> usize {
        let mut unchecked = 0;
        for pending in std::mem::take(&mut self.pending) {
            let Pending {
                document,
                mention,
                link,
            } = pending;
            let target = Target::of(link);
            let settled = match target {
                Target::Record => {
                    let there = mention
                        .value
                        .uuid()
                        .and_then(|k| self.ids.get(&k))
                        .map(|there| (there.document, there.at(&self.documents)));
                    match there {
                        Some((there, at)) => {
                            if link == Link::Variations {
                                self.variation_elsewhere(document, &mention, there, at);
                            }
                            Some(true)
                        }
                        // Faces and variations are of the same set; the
                        // printings a card was rebalanced from or into may
                        // be anywhere in the catalog.
                        None if link == Link::Printings && !self.whole() => None,
                        None => Some(false),
                    }
                }
                Target::Card => self.known(self.names.contains(mention.value.as_str())),
                Target::Set => self.known(self.codes.contains_key(mention.value.as_str())),
            };
            match settled {
                Some(true) => {}
                Some(false) => {
                    let detail = Detail::DanglingReference {
                        value: mention.value.to_string(),
                        target,
                    };
                    self.found(document, &mention, detail, None);
                }
                None => unchecked += 1,
            }
        }
        unchecked
    }

    /// The findings as diagnostics, by document in the order read, each
    /// document's in file order; each code's beyond what a report keeps
    /// counted as omitted.
    fn reports(
        &mut self,
        mut on_finding: impl FnMut(Placed<'_>),
    ) -> Vec<(String, DocumentReport, bool)> {
        let mut by_document: BTreeMap<u32, Vec<Finding>> = BTreeMap::new();
        for (document, finding) in std::mem::take(&mut self.findings) {
            by_document.entry(document).or_default().push(finding);
        }
        // Documents with only ignored findings report how many.
        for (index, entry) in self.documents.iter().enumerate() {
            if entry.ignored > 0 {
                let index = u32::try_from(index).unwrap_or(u32::MAX);
                by_document.entry(index).or_default();
            }
        }
        let mut reports = Vec::with_capacity(by_document.len());
        for (document, mut findings) in by_document {
            findings.sort_by_key(|finding| finding.at.offset);
            let entry = &self.documents[document as usize];
            let mut report = DocumentReport {
                pointer: entry.pointer.clone(),
                pointer_bytes: None,
                line: None,
                kind: Some(Kind::Set),
                diagnostics: Vec::new(),
                omitted: Omitted::default(),
                folded: crate::report::Folded::default(),
                ignored: entry.ignored,
                names: Names::Auto,
            };
            let file = &self.files[entry.file as usize];
            for finding in findings {
                let diagnostic = self.diagnostic(document, &finding);
                on_finding(Placed {
                    file,
                    document: &entry.pointer,
                    set_code: entry.code.as_deref(),
                    valid: entry.valid,
                    finding: &finding,
                    diagnostic: &diagnostic,
                });
                report.diagnostics.push(diagnostic);
            }
            for (&code, &found) in &entry.found {
                let past = found.checked_sub(KEPT_WARNINGS_PER_CODE);
                if let Some(past) = past.filter(|&n| n > 0 && !self.keep_all) {
                    let omitted = match self.severity {
                        Severity::Error => &mut report.omitted.errors,
                        Severity::Warning => &mut report.omitted.warnings,
                    };
                    omitted.insert(code, past);
                }
            }
            reports.push((file.clone(), report, entry.valid));
        }
        reports
    }

    fn diagnostic(&self, document: u32, finding: &Finding) -> Diagnostic {
        let Finding {
            detail,
            field,
            at,
            related,
            ..
        } = finding;
        let label = format!("{}.{}", field.model, field.name);
        let mut diagnostic = Diagnostic::new(
            detail.clone(),
            self.severity,
            at.pointer(),
            Some(label),
            at.offset,
        );
        diagnostic.line = at.line;
        diagnostic.column = at.column;
        diagnostic.related = related.as_ref().map(|(there, at, message)| {
            let there = *there;
            let file_of = |d: u32| self.documents[d as usize].file;
            let file = (file_of(there) != file_of(document))
                .then(|| self.files[file_of(there) as usize].clone());
            Box::new(Related {
                file,
                pointer: at.pointer(),
                offset: at.offset,
                line: at.line,
                column: at.column,
                message: message.clone(),
            })
        });
        diagnostic
    }
}
