//! What one set document settles about its references by itself, worked
//! out on the thread that validated it ([`Digest::of`]): ids and printings
//! given twice within it, its records' set codes, faces that do not name
//! their card back, and which references name what it does not hold. The
//! run's thread is left with merging the ids and names into the run's and
//! keeping what waits for the end.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::extract::{recycle, Mention, Record, RecordKind, SetFacts, Value};
use super::place::{At, Spot};
use super::Target;
use crate::diagnostic::Detail;
use crate::schema::{FieldDef, Link};

/// What the second place of a duplicate is.
pub(super) const FIRST_GIVEN: &str = "where it is first given";
/// What the second place of a duplicate printing is.
const FIRST_PRINTING: &str = "the first record of that printing";
/// What the second place of a face that does not name its card back is.
const FACE_SILENT: &str = "the face, whose otherFaceIds do not name this record";

/// A finding within one document: the referring value, what is wrong, and
/// the second place in the same document, with what it is.
pub(super) type LocalFinding = (Mention<'static>, Detail, Option<(At, &'static str)>);

/// One set document's references, digested.
#[derive(Debug, Clone)]
pub struct Digest {
    /// The document's JSON Pointer in its file.
    pub(super) pointer: String,
    /// The set's code.
    pub(super) code: Option<Mention<'static>>,
    /// Each record's id, as first given in the document.
    pub(super) ids: Vec<Id>,
    /// The pointers of the ids' places, written out.
    pub(super) pointers: String,
    /// The names of its cards and faces, each once.
    pub(super) names: NameList,
    /// What names what the document does not hold, and what it is.
    pub(super) pending: Vec<(Mention<'static>, Link)>,
    /// What the document settled as wrong.
    pub(super) findings: Vec<LocalFinding>,
}

/// A record's id, as the run keeps it.
#[derive(Debug, Clone)]
pub(super) struct Id {
    /// The id as a number.
    pub(super) key: u128,
    /// As written.
    pub(super) value: Value<'static>,
    /// The field that holds it.
    pub(super) field: &'static FieldDef,
    /// Where, its pointer in [`Digest::pointers`].
    pub(super) spot: Spot,
}

impl Digest {
    /// Settles what `facts` settle by themselves.
    #[must_use]
    pub fn of(mut facts: SetFacts<'_>) -> Digest {
        let mut digest = Digest {
            pointer: facts.pointer.clone(),
            code: facts.one(Link::Code).cloned().map(Mention::into_owned),
            ids: Vec::new(),
            pointers: String::new(),
            names: NameList::default(),
            pending: Vec::new(),
            findings: Vec::new(),
        };
        for link in [Link::ParentSet, Link::TokenSet] {
            if let Some(mention) = facts.one(link) {
                digest.pending.push((mention.clone().into_owned(), link));
            }
        }
        let mut ids = Vec::with_capacity(facts.records.len());
        let (here, names) = digest.records(&facts, &mut ids);
        let deferred = digest.links(&facts, &here, &names);
        // The references kept for the end are moved out of the facts, not
        // copied: a document may name millions.
        let mut deferred = deferred.into_iter().peekable();
        for (m, mention) in facts.record_mentions.drain(..).enumerate() {
            if let Some((_, link)) = deferred.next_if(|&(dm, _)| dm == m) {
                digest.pending.push((mention.into_owned(), link));
            }
        }
        recycle(std::mem::take(&mut facts.record_mentions));
        digest.pending.shrink_to_fit();
        // Lines and columns are counted for what outlives the document
        // alone, in one pass over it.
        facts.locate(&mut digest.places(&mut ids));
        digest.ids.reserve_exact(ids.len());
        for (key, id) in ids {
            let spot = id.at.written(&mut digest.pointers);
            digest.ids.push(Id {
                key,
                value: id.value,
                field: id.field,
                spot,
            });
        }
        digest
    }

    /// Every place the digest keeps: of the set's code, each id (of
    /// `ids`), each reference kept for the end, each finding and its second
    /// place.
    fn places<'s>(&'s mut self, ids: &'s mut [(u128, Mention<'static>)]) -> Vec<&'s mut At> {
        let mut places = Vec::with_capacity(ids.len() + self.pending.len());
        places.extend(self.code.iter_mut().map(|code| &mut code.at));
        places.extend(ids.iter_mut().map(|(_, id)| &mut id.at));
        places.extend(self.pending.iter_mut().map(|(mention, _)| &mut mention.at));
        for (mention, _, related) in &mut self.findings {
            places.push(&mut mention.at);
            places.extend(related.iter_mut().map(|(at, _)| at));
        }
        places
    }

    /// The records' ids (into `ids`) and names, and the ids and printings
    /// given twice. Gives the records of the document by id, and its names.
    fn records<'f>(
        &mut self,
        facts: &'f SetFacts<'_>,
        ids: &mut Vec<(u128, Mention<'static>)>,
    ) -> (HashMap<u128, usize>, HashSet<&'f str>) {
        // Each as large as the document needs at once: grown from empty,
        // a set's thousand records rehash each table ten times.
        let records = facts.records.len();
        let mut here: HashMap<u128, usize> = HashMap::with_capacity(records);
        let mut names: HashSet<&'f str> = HashSet::with_capacity(records);
        let mut printings: HashMap<(RecordKind, &str, &str, &str), &At> =
            HashMap::with_capacity(records);
        for (index, record) in facts.records.iter().enumerate() {
            for name in facts.of(record, Link::Name) {
                if names.insert(name.value.as_str()) {
                    self.names.push(name.value.as_str());
                }
            }
            if let Some(id) = facts.one_of(record, Link::Id) {
                if let Some(key) = id.value.uuid() {
                    match here.get(&key) {
                        Some(&first) => {
                            let first = facts.one_of(&facts.records[first], Link::Id);
                            let related = first.map(|m| (m.at.clone(), FIRST_GIVEN));
                            let detail = duplicate(id, Target::Record);
                            self.findings
                                .push((id.clone().into_owned(), detail, related));
                        }
                        None => {
                            here.insert(key, index);
                            ids.push((key, id.clone().into_owned()));
                        }
                    }
                }
            }
            let Some(number) = facts.one_of(record, Link::Number) else {
                continue;
            };
            let side = facts
                .one_of(record, Link::Side)
                .map_or("", |m| m.value.as_str());
            let language = facts
                .one_of(record, Link::Language)
                .map_or("", |m| m.value.as_str());
            let printing = (record.kind, number.value.as_str(), side, language);
            match printings.get(&printing) {
                Some(first) => {
                    let detail = Detail::DuplicatePrinting {
                        key: printing_words(record.kind, number.value.as_str(), side, language),
                    };
                    let related = Some(((*first).clone(), FIRST_PRINTING));
                    self.findings
                        .push((number.clone().into_owned(), detail, related));
                }
                None => {
                    printings.insert(printing, &number.at);
                }
            }
        }
        (here, names)
    }

    /// Follows what the records name: settled when the document holds it,
    /// kept for the end of the run when not. Gives those kept, by their
    /// index in [`SetFacts::record_mentions`], in document order.
    fn links(
        &mut self,
        facts: &SetFacts<'_>,
        here: &HashMap<u128, usize>,
        names: &HashSet<&str>,
    ) -> Vec<(usize, Link)> {
        let code = facts.one(Link::Code).map(|m| m.value.as_str());
        let token_set = facts.one(Link::TokenSet).map(|m| m.value.as_str());
        let mut deferred = Vec::new();
        for record in &facts.records {
            if let (Some(set_code), Some(code)) = (facts.one_of(record, Link::SetCode), code) {
                self.record_set_code(record.kind, set_code, code, token_set);
            }
            let own = facts.one_of(record, Link::Id).and_then(|m| m.value.uuid());
            for (m, mention) in facts.mentions_of(record).iter().enumerate() {
                let m = record.mentions.start + m;
                match mention.field.link {
                    Some(link @ (Link::Faces | Link::Variations | Link::Printings)) => {
                        let held = mention.value.uuid().and_then(|k| here.get(&k).copied());
                        match (link, held) {
                            (Link::Faces, Some(face)) => {
                                self.face(facts, mention, own, &facts.records[face]);
                            }
                            (_, Some(_)) => {}
                            (link, None) => deferred.push((m, link)),
                        }
                    }
                    Some(Link::CardNames) if !names.contains(mention.value.as_str()) => {
                        deferred.push((m, Link::CardNames));
                    }
                    _ => {}
                }
            }
        }
        deferred
    }

    /// A face of the record whose id is `own`, held by its document: it
    /// names the record back.
    fn face(
        &mut self,
        facts: &SetFacts<'_>,
        mention: &Mention<'_>,
        own: Option<u128>,
        face: &Record,
    ) {
        let names_back = own.is_some_and(|own| {
            facts
                .of(face, Link::Faces)
                .any(|m| m.value.uuid() == Some(own))
        });
        if names_back {
            return;
        }
        let related = facts
            .one_of(face, Link::Id)
            .map(|m| (m.at.clone(), FACE_SILENT));
        let detail = Detail::AsymmetricFaces {
            face: mention.value.to_string(),
        };
        self.findings
            .push((mention.clone().into_owned(), detail, related));
    }

    /// A record's set code: a card's is its set's; a token's its set's or
    /// its token set's, which a set that does not name one has elsewhere.
    fn record_set_code(
        &mut self,
        kind: RecordKind,
        set_code: &Mention<'_>,
        code: &str,
        token_set: Option<&str>,
    ) {
        if set_code.value.as_str() == code {
            return;
        }
        match (kind, token_set) {
            (RecordKind::Token, Some(token_set)) if set_code.value.as_str() == token_set => {}
            (RecordKind::Token, None) => {
                self.pending
                    .push((set_code.clone().into_owned(), Link::SetCode));
            }
            (kind, token_set) => {
                let expected = match (kind, token_set) {
                    (RecordKind::Token, Some(token_set)) => {
                        format!("`{code}` or its token set's `{token_set}`")
                    }
                    _ => format!("`{code}`"),
                };
                let detail = Detail::SetCodeMismatch {
                    found: set_code.value.to_string(),
                    expected,
                };
                self.findings
                    .push((set_code.clone().into_owned(), detail, None));
            }
        }
    }
}

/// Names, each once, in one text: a set names a thousand cards, and
/// most of them every other set of a catalog names too, so that they are
/// kept apart only when the run has not seen them.
#[derive(Debug, Clone, Default)]
pub(super) struct NameList {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<usize>,
}

impl NameList {
    fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.ends.push(self.text.len());
    }

    /// The names, in the order given.
    pub(super) fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.text[start..end])
    }
}

/// A duplicated id or code, in words.
pub(super) fn duplicate(mention: &Mention<'_>, target: Target) -> Detail {
    Detail::DuplicateId {
        value: mention.value.to_string(),
        target,
    }
}

/// A printing's key in words: `card number `12`, side `a`, in English`.
fn printing_words(kind: RecordKind, number: &str, side: &str, language: &str) -> String {
    let mut words = format!("{} number `{number}`", kind.words());
    if !side.is_empty() {
        words.push_str(&format!(", side `{side}`"));
    }
    if !language.is_empty() {
        words.push_str(&format!(", in {language}"));
    }
    words
}
