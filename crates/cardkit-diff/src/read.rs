//! Reading one build (one file, or every file of a directory): every
//! document validated as it is read, its report handed on, every set kept as
//! fingerprints (no values), and what its fields look like summed up.
//!
//! A set becomes a [`SetPrint`]: its code, a hash of each set-level member,
//! and a [`RecordPrint`] per card, token and sealed product: its uuid, a hash
//! of its natural key, its catalog id, a hash of its content and where its
//! bytes are in the file, to be read again when it must be compared. Hashes
//! of objects do not depend on the order of their members, nor on white
//! space or escapes, so that records the same in value hash the same.
//! Members that `--ignore` names are left out of the hashes (and of the
//! drift).

use std::collections::{HashMap, HashSet};
use std::io::{self, Read};

use cardkit::references::{Digest, SetFacts};
use cardkit::report::Layout;
use cardkit::schema::Names;
use cardkit::validate::{Found, Validated, Validator};
use cardkit::DocumentReport;
use cardkit::Kind;
use cardkit::Options;
use cardkit::Severity;
use cardkit_json::{Scanner, Str};

use crate::data::Problem;
use crate::drift::{JsonType, Tree, ROOT};
use crate::fields::{facts_for, Facts};
use crate::hash::{hash_of, mix, Members, ARRAY, OTHER, STRING};
pub use crate::keys::{record_keys, Keys};
use crate::pointer::Ignore;
pub use crate::print::{RecordPrint, SetPrint};
use crate::references::Reading;

/// One build, read.
#[derive(Debug, Default)]
pub struct Build {
    /// The build's path as given (a file or a directory).
    pub path: String,
    /// The names of its files read, in order.
    pub files: Vec<String>,
    /// Its sets, in the order of its files, then in file order.
    pub sets: Vec<SetPrint>,
    /// What its fields look like.
    pub tree: Tree,
    /// `meta.date` of a catalog, when it is a date (the latest of its
    /// files').
    pub date: Option<String>,
    /// Documents read.
    pub documents: usize,
    /// Documents that are invalid or not sets.
    pub problems: Vec<Problem>,
    /// Bytes read.
    pub bytes: u64,
    /// Each set's tree is held in its [`SetPrint::tree`] instead of merged
    /// as it is read, for [`Build::merge_trees`] to leave some out.
    pub hold_trees: bool,
    /// The wire names its documents use.
    pub names: Names,
    /// The references between its documents, read with them when asked
    /// for ([`Build::reading_references`]).
    pub(crate) references: Option<Reading>,
    /// The references are read.
    read_references: bool,
}

impl Build {
    /// An empty build at `path` (a file or a directory).
    #[must_use]
    pub fn new(path: &str) -> Build {
        Build {
            path: path.to_owned(),
            ..Build::default()
        }
    }

    /// Reads the references between the build's documents too, on the
    /// pass that validates them.
    #[must_use]
    pub fn reading_references(mut self) -> Build {
        self.read_references = true;
        self
    }

    /// Records of every set.
    #[must_use]
    pub fn records(&self) -> usize {
        self.sets.iter().map(|s| s.records.len()).sum()
    }

    /// Reads and validates every document of one file of the build
    /// (`reader`, named `name`) on `jobs` threads, keeping the sets'
    /// fingerprints, and hands each document's report to `on_document` in
    /// file order.
    ///
    /// # Errors
    /// The input could not be read to its end.
    pub fn read(
        &mut self,
        name: &str,
        reader: impl Read,
        options: &Options,
        jobs: usize,
        ignore: &Ignore,
        on_document: &mut dyn FnMut(&DocumentReport),
    ) -> io::Result<Layout> {
        let file = self.files.len();
        self.files.push(name.to_owned());
        // The build is named as its documents are: under `auto`, as the
        // first that tells.
        if options.names != Names::Auto {
            self.names = options.names;
        }
        if self.read_references && self.references.is_none() {
            self.references = Some(Reading::new(options.filter));
        }
        let references = self.references.is_some();
        let extract = |found: Found<'_>| -> (Extracted, Option<Digest>) {
            let facts = facts_for(found.report.names);
            let (report, bytes, at) = (found.report, found.bytes, found.offset);
            if report.kind != Some(Kind::Set) {
                let why = match report.kind {
                    Some(kind) => format!("a {} document, not a set", kind.as_str()),
                    None => "its kind cannot be told".to_owned(),
                };
                return (Err(why), None);
            }
            // Its references, from the tape of its links.
            let digest = references
                .then(|| SetFacts::read(&found).map(Digest::of))
                .flatten();
            (read_set(bytes, at, file, report, ignore, facts), digest)
        };
        let mut counted = CountingReader {
            inner: reader,
            count: 0,
        };
        let validator = Validator::new(*options).jobs(jobs.max(1));
        let mut extracting = validator.extracting(extract);
        if references {
            extracting = extracting.with_links_tape();
        }
        let layout = extracting.reader(&mut counted, |item| match item {
            Validated::Around { pointer, bytes } => {
                let date = (pointer == "/meta")
                    .then(|| bytes.as_deref().and_then(meta_date))
                    .flatten();
                if date > self.date {
                    self.date = date;
                }
            }
            Validated::Document(report, extracted) => {
                if self.names == Names::Auto {
                    self.names = report.names;
                }
                on_document(&report);
                self.document(file, &report, extracted);
            }
        });
        self.bytes += counted.count;
        if let (Ok(layout), Some(references)) = (&layout, &mut self.references) {
            references.input_read(*layout);
        }
        layout
    }

    fn document(
        &mut self,
        file: usize,
        report: &DocumentReport,
        extracted: Option<(Extracted, Option<Digest>)>,
    ) {
        let at = report.at();
        let valid = report.is_valid();
        if report.kind.is_some() || !valid {
            self.documents += usize::from(report.kind.is_some());
        }
        let problem = |message: String, read: bool| Problem {
            path: self.files[file].clone(),
            at: at.clone(),
            message,
            read,
            invalid: !valid,
        };
        let (extracted, digest) = match extracted {
            Some((extracted, digest)) => (Some(extracted), digest),
            None => (None, None),
        };
        match extracted {
            Some(Ok((mut set, tree))) => {
                if !valid {
                    self.problems.push(problem(invalid(report), true));
                }
                // A set's references go with the set the diff keeps: a
                // document the diff cannot read as a set is a problem, and
                // so diffed on neither side.
                if let (Some(references), Some(digest)) = (&mut self.references, digest) {
                    references.add(&self.files[file], digest, valid, self.sets.len());
                }
                if self.hold_trees {
                    set.tree = Some(tree);
                } else {
                    self.tree.merge(&tree);
                }
                self.sets.push(set);
            }
            Some(Err(why)) => self.problems.push(problem(why, false)),
            None if !valid => self.problems.push(problem(invalid(report), false)),
            None => {}
        }
    }

    /// Merges the trees held ([`Build::hold_trees`]) into the build's, but
    /// for the sets whose code is in `left_out`.
    pub fn merge_trees(&mut self, left_out: &HashSet<&str>) {
        for set in &mut self.sets {
            if let Some(tree) = set.tree.take() {
                if !left_out.contains(set.code.as_str()) {
                    self.tree.merge(&tree);
                }
            }
        }
    }
}

/// What the extractor makes of one document.
type Extracted = Result<(SetPrint, Tree), String>;

/// What is wrong with an invalid document, in a line.
pub(crate) fn invalid(report: &DocumentReport) -> String {
    let errors: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let count = errors.len() + report.omitted.errors.values().sum::<usize>();
    match errors.first() {
        Some(first) => format!(
            "invalid: {count} error{}; first at {}:{} ({}): {}",
            if count == 1 { "" } else { "s" },
            first.line,
            first.column,
            first.code.as_str(),
            first.message()
        ),
        None => format!("invalid: {count} errors"),
    }
}

/// `date` of a catalog's `meta`, when it is a `YYYY-MM-DD` date (the part
/// before a `T` of a timestamp is taken).
fn meta_date(bytes: &[u8]) -> Option<String> {
    let meta: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let date = meta.get("date")?.as_str()?;
    let date = date.split('T').next().unwrap_or(date);
    cardkit::schema::format::is_date(date).then(|| date.to_owned())
}

struct CountingReader<R> {
    inner: R,
    count: u64,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// A step of the path from a set's root to a value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Step {
    /// A member, by its name's token.
    Key(Str),
    /// An item, by its index.
    Index(u32),
}

/// Walks a set's values: hashes them, sums up their fields in a [`Tree`].
pub(crate) struct Walker<'a, 'i> {
    pub scan: Scanner<'a>,
    pub tree: Tree,
    pub path: Vec<Step>,
    /// The document's pointer in its file.
    pub base: &'a str,
    pub ignore: &'i Ignore,
    /// The members of the objects being hashed.
    pub(crate) members: Members,
}

/// Values nested deeper than this within a set are hashed by their bytes,
/// not walked (they are in no field the tables know).
const WALK_DEPTH: usize = 64;

impl<'a> Walker<'a, '_> {
    /// The decoded text of a string token.
    pub fn text(&self, s: Str) -> std::borrow::Cow<'a, str> {
        if s.escaped() {
            self.scan.decode(s)
        } else {
            String::from_utf8_lossy(&self.scan.bytes[s.start..s.end])
        }
    }

    /// The bytes of a string token, decoded only when it holds escapes.
    fn raw(&self, s: Str) -> std::borrow::Cow<'a, [u8]> {
        if s.escaped() {
            std::borrow::Cow::Owned(self.scan.decode(s).into_owned().into_bytes())
        } else {
            std::borrow::Cow::Borrowed(&self.scan.bytes[s.start..s.end])
        }
    }

    /// The pointer of the value at the current path.
    pub fn pointer(&self) -> String {
        let mut out = self.base.to_owned();
        for step in &self.path {
            out.push('/');
            match *step {
                Step::Key(s) => out.push_str(&crate::pointer::escape(&self.text(s))),
                Step::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    /// Whether `--ignore` names the value at the current path.
    fn ignored(&self) -> bool {
        if self.ignore.is_empty() {
            return false;
        }
        self.ignore.0.iter().any(|pattern| {
            pattern.0.len() == self.path.len()
                && pattern
                    .0
                    .iter()
                    .zip(&self.path)
                    .all(|(p, step)| match *step {
                        _ if p == "*" => true,
                        Step::Key(s) => *p == self.text(s),
                        Step::Index(i) => p.parse() == Ok(i),
                    })
        })
    }

    /// Hashes the value at the cursor (at node `node` of the tree, or none)
    /// and reads past it. `None` when it is ignored.
    pub fn value(&mut self, node: Option<usize>, depth: usize) -> Result<Option<u64>, String> {
        if self.ignored() {
            self.scan.skip_structure().map_err(syntax)?;
            return Ok(None);
        }
        let start = self.scan.pos;
        let ty = JsonType::at(self.scan.peek());
        if let Some(node) = node {
            if self.tree.count(node, ty) {
                let pointer = self.pointer();
                self.tree.example(node, ty, pointer);
            }
        }
        if depth > WALK_DEPTH {
            self.scan.skip_structure().map_err(syntax)?;
            return Ok(Some(hash_of(OTHER, &self.scan.bytes[start..self.scan.pos])));
        }
        let hash = match ty {
            JsonType::Object => {
                let start = self.members.start();
                if self.scan.open().map_err(syntax)? {
                    loop {
                        let (name, _) = self.scan.member_name().map_err(syntax)?;
                        let key = self.raw(name);
                        let child = node.and_then(|n| self.tree.child_bytes(n, &key));
                        self.path.push(Step::Key(name));
                        let value = self.value(child, depth + 1)?;
                        self.path.pop();
                        if let Some(value) = value {
                            self.members.push(hash_of(STRING, &key), value);
                        }
                        if !self.scan.after_member().map_err(syntax)? {
                            break;
                        }
                    }
                }
                self.members.finish(start)
            }
            JsonType::Array => {
                let mut h = u64::from(ARRAY);
                if self.scan.open().map_err(syntax)? {
                    let star = node.and_then(|n| self.tree.star(n));
                    let mut index = 0u32;
                    loop {
                        self.path.push(Step::Index(index));
                        let value = self.value(star, depth + 1)?;
                        self.path.pop();
                        if let Some(value) = value {
                            h = mix(h, value);
                        }
                        index += 1;
                        if !self.scan.after_item().map_err(syntax)? {
                            break;
                        }
                    }
                }
                h
            }
            JsonType::String => {
                let s = self.scan.string().map_err(syntax)?;
                if let Some(node) = node.filter(|&n| self.tree.has_values(n)) {
                    let text = self.text(s);
                    if self.tree.wants_value(node, &text) {
                        let pointer = self.pointer();
                        self.tree.value(node, &text, pointer);
                    }
                }
                hash_of(STRING, &self.raw(s))
            }
            _ => {
                self.scan.skip_structure().map_err(syntax)?;
                hash_of(OTHER, &self.scan.bytes[start..self.scan.pos])
            }
        };
        Ok(Some(hash))
    }
}

fn syntax(error: cardkit_json::SyntaxError) -> String {
    format!("malformed JSON at byte {}", error.at)
}

/// Reads one set document (`bytes`, at offset `at` of file `file`).
fn read_set(
    bytes: &[u8],
    at: usize,
    file: usize,
    report: &DocumentReport,
    ignore: &Ignore,
    facts: &Facts,
) -> Extracted {
    let mut w = Walker {
        scan: Scanner::new(bytes, 0),
        tree: Tree::new(),
        path: Vec::new(),
        base: &report.pointer,
        ignore,
        members: Members::default(),
    };
    let mut set = SetPrint {
        code: String::new(),
        file,
        pointer: report.pointer.clone(),
        line: report.line,
        offset: at as u64,
        len: bytes.len() as u64,
        members: Vec::new(),
        records: Vec::new(),
        valid: report.is_valid(),
        tree: None,
    };
    w.scan.ws();
    if w.scan.peek() != Some(b'{') {
        return Err("the set is not an object".to_owned());
    }
    if !w.scan.open().map_err(syntax)? {
        return Ok((set, w.tree));
    }
    // A name written twice counts with its last value, as the validator
    // reads it: what an earlier one held is let go. Each member's place
    // and hash, by name.
    let mut members: HashMap<Box<str>, (usize, u64)> = HashMap::new();
    let mut place = 0;
    loop {
        let (name, _) = w.scan.member_name().map_err(syntax)?;
        let text = w.text(name).into_owned();
        let node = w.tree.child(ROOT, &text);
        w.path.push(Step::Key(name));
        let list = facts.list(text.as_bytes());
        members.remove(text.as_str());
        if let Some((list, _)) = list {
            let list = u8::try_from(list).unwrap_or(u8::MAX);
            if set.records.iter().any(|r| r.list == list) {
                set.records.retain(|r| r.list != list);
            }
        }
        match list {
            Some((list, _)) if w.scan.peek() == Some(b'[') && !w.ignored() => {
                read_records(&mut w, &mut set, list, node, at, facts)?;
            }
            _ => {
                let value_at = w.scan.pos;
                let hash = w.value(node, 1)?;
                if text == facts.code && w.scan.bytes[value_at] == b'"' {
                    let mut s = Scanner::new(w.scan.bytes, value_at);
                    let token = s.string().map_err(syntax)?;
                    set.code = w.text(token).into_owned();
                }
                if let Some(hash) = hash {
                    members.insert(text.into_boxed_str(), (place, hash));
                }
            }
        }
        w.path.pop();
        place += 1;
        if !w.scan.after_member().map_err(syntax)? {
            break;
        }
    }
    let mut members: Vec<_> = members.into_iter().collect();
    members.sort_by_key(|(_, (place, _))| *place);
    set.members = members
        .into_iter()
        .map(|(name, (_, hash))| (name, hash))
        .collect();
    Ok((set, w.tree))
}

/// Reads the records of list `list` (the cursor at its `[`).
fn read_records(
    w: &mut Walker<'_, '_>,
    set: &mut SetPrint,
    list: usize,
    node: Option<usize>,
    at: usize,
    facts: &Facts,
) -> Result<(), String> {
    if let Some(node) = node {
        if w.tree.count(node, JsonType::Array) {
            let pointer = w.pointer();
            w.tree.example(node, JsonType::Array, pointer);
        }
    }
    let star = node.and_then(|n| w.tree.star(n));
    if !w.scan.open().map_err(syntax)? {
        return Ok(());
    }
    let mut index = 0u32;
    loop {
        w.path.push(Step::Index(index));
        let start = w.scan.pos;
        let hash = w.value(star, 2)?.unwrap_or_default();
        let end = w.scan.pos;
        w.path.pop();
        let keys = record_keys(&w.scan.bytes[start..end], list, facts);
        set.records.push(RecordPrint {
            list: u8::try_from(list).unwrap_or(u8::MAX),
            index,
            uuid: keys
                .uuid
                .unwrap_or_else(|| format!("#{index}"))
                .into_boxed_str(),
            natural: keys.natural,
            catalog: keys.catalog.map(String::into_boxed_str),
            hash,
            offset: (at + start) as u64,
            len: u32::try_from(end - start).unwrap_or(u32::MAX),
        });
        index += 1;
        if !w.scan.after_item().map_err(syntax)? {
            break;
        }
    }
    Ok(())
}
