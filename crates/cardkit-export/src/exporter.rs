//! An export run ([`Exporter`]): each input validated and made into rows on
//! the validating threads, what is done with invalid documents
//! ([`OnInvalid`]), the notes on documents left out or read twice, and the
//! run's [`Totals`].

use std::io::{self, Read};

use cardkit::references::{Digest, Placed, SetFacts};
use cardkit::validate::{Found, Validated, Validator};
use cardkit::Code;
use cardkit::DocumentReport;
use cardkit::Kind;
use cardkit::Options;
pub use cardkit_run::OnInvalid;
use cardkit_run::ReferencesReader;

use crate::finding_rows;
use crate::keys::{self, Changes};
use crate::layout::{self, layout, MetaFact, Source};
use crate::rows::{self, Cell, Rows, TableRows, Unstorable};
use crate::writer::{Spare, Writer};
use crate::{Error, Mode, Store, Target};

/// How many of the keys read twice in a run are told one by one.
pub const TOLD_DUPLICATES: usize = 20;

/// What a note on a document left out of the export says after its place
/// (`sets.jsonl:2: left out: it is invalid`), before why.
pub const LEFT_OUT: &str = "left out";

/// Where a document was read: its input (by number) and its place there.
struct ReadAt {
    input: usize,
    line: Option<usize>,
    pointer: Box<str>,
}

impl ReadAt {
    /// As [`DocumentReport::place`] says it.
    fn place(&self, name: &str) -> String {
        match (self.line, &*self.pointer) {
            (Some(line), "") => format!("{name}:{line}"),
            (Some(line), pointer) => format!("{name}:{line} {pointer}"),
            (None, "") => format!("{name} /"),
            (None, pointer) => format!("{name} {pointer}"),
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Totals {
    /// Documents whose rows were written.
    pub exported: usize,
    /// Of those, invalid ones kept with NULLs (`--on-invalid keep`).
    pub kept_invalid: usize,
    /// Documents left out: invalid, out of scope, or not readable into rows.
    pub left_out: usize,
    /// Documents that are invalid (whatever was done with them).
    pub invalid: usize,
    /// Rows written per table (by index in the layout).
    pub rows: Vec<usize>,
    /// The run was stopped before committing (`--on-invalid fail` and an
    /// invalid document): nothing was written.
    pub failed: bool,
    /// Sets written (each code once).
    pub sets: usize,
    /// Sets and migrations read more than once in the run, one line each
    /// naming both places (the first [`TOLD_DUPLICATES`]); the later one is
    /// kept.
    pub duplicates: Vec<String>,
    /// How many were read more than once, and of those how many sets.
    pub duplicate_count: usize,
    pub duplicate_sets: usize,
    /// Members the spec does not define, left out of the rows (`Model.name`
    /// and how many times), most frequent first.
    pub not_exported: Vec<(String, usize)>,
    /// Members the spec does not define kept in their rows' `extra` column
    /// (`--keep-unknown`), as [`Totals::not_exported`] counts them; those a
    /// set's translations hold are not kept, and stay in `not_exported`.
    pub kept_unknown: Vec<(String, usize)>,
    /// The run kept the members the spec does not define
    /// ([`Exporter::keep_unknown`]); [`Totals::not_exported_unnamed`] are
    /// then kept too.
    pub keeping_unknown: bool,
    /// Of those, occurrences past the bound of warnings a document keeps,
    /// whose names are not known.
    pub not_exported_unnamed: usize,
    /// Rows of tables keyed by `uuid` whose card, token or product has no
    /// uuid (kept invalid): no later export can replace them.
    pub unkeyed: usize,
    /// What the run replaced of what the target held.
    pub changes: Changes,
    /// Findings of the references written into `reference_findings`
    /// ([`Exporter::reading_references`]).
    pub reference_findings: usize,
    /// Documents exported valid that their references' findings, as
    /// errors (`--references=error`), made invalid: known only once every
    /// document is written, so they stay exported unless the run fails
    /// (`--on-invalid fail`).
    pub invalid_by_references: usize,
}

/// What the row maker made of one document, on the thread that validated it.
enum Made {
    /// Rows, and whether some values had to be made NULL.
    Rows(Rows),
    /// The document is not exported; why.
    Left(String),
    /// Rows were not made (an invalid document, not kept).
    Nothing,
}

/// An export in progress: inputs are added one by one, and `finish`
/// commits them all at once.
pub struct Exporter {
    writer: Option<Writer>,
    /// Rows written, emptied, for the next documents.
    spare: Spare,
    on_invalid: OnInvalid,
    unstorable: Unstorable,
    keep_unknown: bool,
    jobs: usize,
    totals: Totals,
    /// Rows of the `meta` table, written at the end.
    meta: TableRows,
    /// Where each set code and migration id of the run was read.
    seen: std::collections::HashMap<String, ReadAt>,
    /// The inputs' names, for [`ReadAt`].
    inputs: Vec<String>,
    /// Members the spec does not define, by `Model.name`.
    unknown: std::collections::HashMap<String, usize>,
    /// The run's references, read from each set document's tape.
    references: Option<ReferencesReader>,
    /// Rows of `reference_findings`, written at the end.
    findings: TableRows,
    /// The documents (input and pointer) made invalid by their findings.
    invalid_by_references: std::collections::HashSet<(String, String)>,
}

impl Exporter {
    /// Opens `target` for a run that writes the build `build` (replacing
    /// the rows of a build of that label), validating on `jobs` threads.
    ///
    /// # Errors
    /// The target cannot be opened, or holds tables of another layout.
    pub fn open(
        target: &Target,
        on_invalid: OnInvalid,
        build: Option<&str>,
        jobs: usize,
    ) -> Result<Exporter, Error> {
        Exporter::open_with(target, on_invalid, build, jobs, Mode::Append, false)
    }

    /// Opens `target` as [`Exporter::open`] does, adding to the build
    /// ([`Mode::Append`]) or emptying it first ([`Mode::Replace`]). A SQLite
    /// database holding tables that are not the layout's (another
    /// application's) is refused unless `into_foreign` (its journal mode is
    /// then left as it is).
    ///
    /// # Errors
    /// The target cannot be opened, or holds tables of another layout, or
    /// of other names.
    pub fn open_with(
        target: &Target,
        on_invalid: OnInvalid,
        build: Option<&str>,
        jobs: usize,
        mode: Mode,
        into_foreign: bool,
    ) -> Result<Exporter, Error> {
        let store = target.open(build, mode, into_foreign)?;
        Ok(Exporter::with_store(store, on_invalid, jobs))
    }

    /// A run into `store`, opened by the caller ([`crate::arrow::Tables`], say),
    /// validating on `jobs` threads.
    #[must_use]
    pub fn with_store(store: Box<dyn Store>, on_invalid: OnInvalid, jobs: usize) -> Exporter {
        let spare = Spare::default();
        Exporter {
            unstorable: store.unstorable(),
            writer: Some(Writer::start(store, spare.clone())),
            spare,
            on_invalid,
            keep_unknown: false,
            jobs,
            totals: Totals {
                rows: vec![0; layout().tables.len()],
                ..Totals::default()
            },
            meta: TableRows::new(layout().tables[layout().meta].columns.len()),
            seen: std::collections::HashMap::new(),
            inputs: Vec::new(),
            unknown: std::collections::HashMap::new(),
            references: None,
            findings: TableRows::new(layout().tables[layout().reference_findings].columns.len()),
            invalid_by_references: std::collections::HashSet::new(),
        }
    }

    /// What the run does with invalid documents.
    #[must_use]
    pub fn on_invalid(&self) -> OnInvalid {
        self.on_invalid
    }

    /// Keeps (`keep`) each object's members that the spec does not define,
    /// as a JSON object in its row's `extra` column, for the inputs given
    /// after; without, `extra` is NULL.
    pub fn keep_unknown(&mut self, keep: bool) {
        self.keep_unknown = keep;
        self.totals.keeping_unknown = keep;
    }

    /// Reads the references of the set documents of the inputs given
    /// after into `references` (the run's, whose check settles them once
    /// every input is read): each document's facts are read from the tape
    /// its rows are made from, on the threads that validate it. Each
    /// finding is then handed to [`Exporter::found_reference`].
    pub fn reading_references(&mut self, references: Option<ReferencesReader>) {
        self.references = references;
    }

    /// Validates and exports every document read from `reader` (named
    /// `name`), handing each report to `on_report` in file order and each
    /// note (a document left out or kept with NULLs, and why) to `on_note`.
    ///
    /// # Errors
    /// The input could not be read (its documents before the error are
    /// exported), or the target refused rows: the run is then aborted.
    pub fn input(
        &mut self,
        name: &str,
        reader: impl Read,
        options: &Options,
        mut on_report: impl FnMut(&DocumentReport),
        mut on_note: impl FnMut(&str),
    ) -> Result<cardkit::validate::Layout, InputError> {
        let (on_invalid, unstorable) = (self.on_invalid, self.unstorable);
        let keep_unknown = self.keep_unknown;
        let spare = self.spare.clone();
        let reading = self.references.is_some();
        let extract = move |found: Found<'_>| {
            let digest = if reading {
                SetFacts::read(&found).map(Digest::of)
            } else {
                None
            };
            let made = make(found, on_invalid, unstorable, keep_unknown, spare.take());
            (made, digest)
        };
        let mut meta = None;
        let mut failure = None;
        let validator = Validator::new(*options).jobs(self.jobs);
        let read = validator
            .extracting(extract)
            .with_tape()
            .reader(reader, |item| match item {
                Validated::Around { pointer, bytes } if pointer == "/meta" => {
                    meta = bytes.and_then(|b| String::from_utf8(b).ok());
                }
                Validated::Around { .. } => {}
                Validated::Document(report, extracted) => {
                    let (made, digest) = match extracted {
                        Some((made, digest)) => (Some(made), digest),
                        None => (None, None),
                    };
                    if let (Some(references), Some(digest)) = (&self.references, digest) {
                        references.add(name, digest, report.is_valid());
                    }
                    on_report(&report);
                    if failure.is_none() {
                        if let Err(error) = self.document(name, &report, made, &mut on_note) {
                            failure = Some(error);
                        }
                    }
                }
            });
        if let Some(error) = failure {
            self.abort();
            return Err(InputError::Store(error));
        }
        if let (Some(references), Ok(layout)) = (&self.references, &read) {
            references.input_read(matches!(
                layout,
                cardkit::validate::Layout::Catalog | cardkit::validate::Layout::CodeMap
            ));
        }
        let columns = &layout().tables[layout().meta].columns;
        let row = self.meta.push_row();
        for (at, column) in columns.iter().enumerate() {
            match column.source {
                Source::Meta(MetaFact::Input) => self.meta.set_text(row, at, name),
                Source::Meta(MetaFact::InputMeta) => {
                    if let Some(meta) = &meta {
                        self.meta.set_text(row, at, meta);
                    }
                }
                Source::Meta(MetaFact::CardkitVersion) => {
                    self.meta.set_text(row, at, env!("CARGO_PKG_VERSION"));
                }
                Source::Meta(MetaFact::LayoutVersion) => {
                    self.meta
                        .set(row, at, Cell::Integer(layout::LAYOUT_VERSION));
                }
                _ => {}
            }
        }
        read.map_err(InputError::Read)
    }

    fn document(
        &mut self,
        name: &str,
        report: &DocumentReport,
        made: Option<Made>,
        on_note: &mut impl FnMut(&str),
    ) -> Result<(), Error> {
        let valid = report.is_valid();
        // Made only for a note: most documents have none.
        let place = || report.place(name);
        if !valid {
            self.totals.invalid += 1;
        }
        let (mut rows, left) = match made {
            // A report of problems outside any document, or a malformed one.
            None if report.kind.is_none() && valid => return Ok(()),
            None => (None, Some("it is not a whole document".to_owned())),
            Some(Made::Nothing) => (None, None),
            Some(Made::Left(why)) => (None, Some(why)),
            Some(Made::Rows(rows)) => (Some(rows), None),
        };
        // Values that could not be stored make a valid document one that is
        // exported only with `keep`.
        let notes = rows.as_ref().map_or(0, |r| r.notes.len());
        if let (Some(made), true) = (&rows, valid) {
            if !made.notes.is_empty() && self.on_invalid != OnInvalid::Keep {
                for note in &made.notes {
                    on_note(&format!("{}: {note}", place()));
                }
                rows = None;
            }
        }
        let exportable =
            rows.is_some() && (valid && notes == 0 || self.on_invalid == OnInvalid::Keep);
        if !exportable {
            self.totals.left_out += 1;
            if self.on_invalid == OnInvalid::Fail {
                self.totals.failed = true;
            }
            let why = left.unwrap_or_else(|| {
                if valid {
                    "values that cannot be stored".to_owned()
                } else {
                    "it is invalid".to_owned()
                }
            });
            let what = if self.on_invalid == OnInvalid::Fail {
                "not exported (nothing will be committed)"
            } else {
                LEFT_OUT
            };
            on_note(&format!("{}: {what}: {why}", place()));
            return Ok(());
        }
        let Some(rows) = rows else {
            return Ok(());
        };
        if !valid || notes > 0 {
            self.totals.kept_invalid += 1;
            for note in &rows.notes {
                on_note(&format!("{}: {note}", place()));
            }
            on_note(&format!(
                "{}: kept with its invalid or missing values as NULL",
                place()
            ));
        }
        self.totals.exported += 1;
        if self.totals.failed {
            return Ok(());
        }
        self.count_unknown(report);
        let set = self.read_twice(name, report, &rows, on_note);
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        for (total, table_rows) in self.totals.rows.iter_mut().zip(&rows.tables) {
            *total += table_rows.len();
        }
        if set {
            // A set's rows go on their own, so that a store removing what
            // they replace never has two of the same set in one batch.
            writer.write_alone(rows)
        } else {
            writer.write(rows)
        }
    }

    /// Writes a finding of the run's references into `reference_findings`
    /// (at the commit). A finding that is an error makes its document
    /// invalid: under [`OnInvalid::Fail`] nothing is then committed; under
    /// the others the document stays exported (its rows are written), and
    /// is counted in [`Totals::invalid_by_references`].
    pub fn found_reference(&mut self, placed: Placed<'_>) {
        let diagnostic = placed.diagnostic;
        if diagnostic.severity == cardkit::Severity::Error
            && placed.valid
            && self
                .invalid_by_references
                .insert((placed.file.to_owned(), placed.document.to_owned()))
        {
            self.totals.invalid += 1;
            if self.on_invalid == OnInvalid::Fail {
                self.totals.failed = true;
                self.totals.left_out += 1;
            } else {
                self.totals.invalid_by_references += 1;
            }
        }
        finding_rows::push(&mut self.findings, placed);
        self.totals.reference_findings += 1;
    }

    /// Counts the members of `report`'s document that the spec does not
    /// define: they are in no table.
    fn count_unknown(&mut self, report: &DocumentReport) {
        for diagnostic in &report.diagnostics {
            if let cardkit::diagnostic::Detail::UnknownField { model, name, .. } =
                &diagnostic.detail
            {
                let key = format!("{model}.{name}");
                *self.unknown.entry(key).or_default() += 1;
            }
        }
        self.totals.not_exported_unnamed += report
            .omitted
            .warnings
            .get(&Code::UnknownField)
            .copied()
            .unwrap_or(0);
    }

    /// Notes the sets and migrations of `rows` read earlier in the run,
    /// naming both places (the later is kept); whether `rows` is a set's.
    fn read_twice(
        &mut self,
        name: &str,
        report: &DocumentReport,
        rows: &Rows,
        on_note: &mut impl FnMut(&str),
    ) -> bool {
        let keys = keys::keys();
        let mut set = false;
        let mut codeless = false;
        if self.inputs.last().is_none_or(|last| last != name) {
            self.inputs.push(name.to_owned());
        }
        let input = self.inputs.len() - 1;
        let inputs = &self.inputs;
        let totals = &mut self.totals;
        let mut twice = |what: String, seen: &mut std::collections::HashMap<String, ReadAt>| {
            let at = ReadAt {
                input,
                line: report.line,
                pointer: report.pointer.as_str().into(),
            };
            if let Some(before) = seen.insert(what.clone(), at) {
                totals.duplicate_count += 1;
                if what.starts_with("set ") {
                    totals.duplicate_sets += 1;
                }
                if totals.duplicates.len() < TOLD_DUPLICATES {
                    let line = format!(
                        "{what} read twice: at {} and at {}; the later is kept",
                        before.place(&inputs[before.input]),
                        report.place(name)
                    );
                    on_note(&format!("warning: {line}"));
                    totals.duplicates.push(line);
                } else if totals.duplicates.len() == TOLD_DUPLICATES
                    && totals.duplicate_count == TOLD_DUPLICATES + 1
                {
                    on_note("warning: more sets or migrations read twice: counted in the summary, not named");
                }
            }
        };
        let sets = &rows.tables[keys.sets];
        for row in sets.rows() {
            set = true;
            if let Some(code) = keys::text(sets, row, keys.set_code) {
                twice(format!("set {code}"), &mut self.seen);
            } else {
                codeless = true;
            }
        }
        if let Some((t, id)) = keys.migrations {
            let migrations = &rows.tables[t];
            for row in migrations.rows() {
                if let Some(id) = keys::text(migrations, row, id) {
                    twice(format!("migration {id}"), &mut self.seen);
                }
            }
        }
        for &(t, uuid) in &keys.uuid_owned {
            let table = &rows.tables[t];
            self.totals.unkeyed += table
                .rows()
                .filter(|row| keys::text(table, row, uuid).is_none())
                .count();
        }
        if codeless {
            on_note(&format!(
                "warning: {}: the set has no code, so nothing names it in the store: it is added, and replaces nothing (another run adds it again)",
                report.place(name)
            ));
        }
        if set {
            self.totals.sets += 1;
        }
        set
    }

    /// Leaves nothing of the run behind.
    pub fn abort(&mut self) {
        if let Some(Ok(store)) = self.writer.take().map(Writer::stop) {
            store.abort();
        }
    }

    /// Commits every input's rows at once, unless the run failed
    /// (`--on-invalid fail` and an invalid document), when nothing is left
    /// behind.
    ///
    /// # Errors
    /// The target could not commit.
    pub fn finish(mut self) -> Result<Totals, Error> {
        let Some(writer) = self.writer.take() else {
            return Err(Error::new("the run was aborted".into()));
        };
        let mut store = writer.finish()?;
        if self.totals.failed {
            store.abort();
            return Ok(std::mem::take(&mut self.totals));
        }
        let meta = layout().meta;
        self.totals.rows[meta] += self.meta.len();
        let mut rows = Rows::new();
        rows.tables[meta] = std::mem::replace(&mut self.meta, TableRows::new(1));
        let findings = layout().reference_findings;
        self.totals.rows[findings] += self.findings.len();
        rows.tables[findings] = std::mem::replace(&mut self.findings, TableRows::new(1));
        if let Err(error) = store.write_rows(&rows) {
            store.abort();
            return Err(error);
        }
        self.totals.changes = store.commit()?;
        self.totals.sets -= self.totals.duplicate_sets;
        let mut unknown: Vec<(String, usize)> = self.unknown.drain().collect();
        unknown.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        if self.keep_unknown {
            // Kept where the model's objects make rows; a set's
            // translations make a row per language, and keep none.
            let (kept, not): (Vec<_>, Vec<_>) = unknown.into_iter().partition(|(name, _)| {
                let model = name.split('.').next().unwrap_or_default();
                layout().nodes.iter().any(|n| n.model.name == model)
            });
            self.totals.kept_unknown = kept;
            unknown = not;
        }
        self.totals.not_exported = unknown;
        Ok(std::mem::take(&mut self.totals))
    }
}

impl Drop for Exporter {
    fn drop(&mut self) {
        self.abort();
    }
}

/// Why an input could not be exported.
#[derive(Debug)]
pub enum InputError {
    /// The input could not be read (to its end).
    Read(io::Error),
    /// The target refused rows; the run is aborted.
    Store(Error),
}

/// What the row maker makes of one document.
fn make(
    found: Found<'_>,
    on_invalid: OnInvalid,
    unstorable: Unstorable,
    keep_unknown: bool,
    rows: Rows,
) -> Made {
    let report = found.report;
    let migration = match report.kind {
        Some(Kind::Set) => false,
        Some(Kind::Migration) => true,
        Some(kind @ (Kind::Template | Kind::Card)) => {
            return Made::Left(format!(
                "a {} is out of the export's scope (sets and migrations are exported)",
                kind.words()
            ))
        }
        None => return Made::Left("its kind cannot be told".into()),
    };
    let valid = report.is_valid();
    if !valid && on_invalid != OnInvalid::Keep {
        return Made::Nothing;
    }
    // The tape of a malformed document ends where it stopped being read.
    let malformed = report
        .diagnostics
        .iter()
        .any(|d| d.code == Code::InvalidJson)
        || report.omitted.errors.contains_key(&Code::InvalidJson);
    if malformed {
        return Made::Left("it is not well-formed JSON".into());
    }
    match rows::rows_keeping(
        found.bytes,
        found.tape,
        migration,
        unstorable,
        keep_unknown,
        rows,
    ) {
        Ok(rows) => Made::Rows(rows),
        Err(why) => Made::Left(why),
    }
}
