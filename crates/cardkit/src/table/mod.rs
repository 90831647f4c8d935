//! The field tables: one description of every model and field, derived from
//! the model definitions by `#[derive(Model)]`.
//!
//! The validator interprets these tables; the JSON Schema export and the docs
//! ([`crate::schema`]) read them too. Nothing here is written by hand twice: a
//! field's wire name, type, required flag, default, version tag and
//! deprecation all come from the one Rust definition of that field. The
//! models ([`crate::model`]) build their tables from these types, and nothing
//! here knows the models, so the two go one way.

mod kind;
mod layout;
pub mod names;
mod version;

pub use kind::Kind;
pub use layout::Layout;
pub use names::{Names, WireNames};
pub use version::{ParseVersionError, Version};

/// The deepest nesting of arrays and objects that documents may have: the
/// validator follows no deeper and reports a deeper value as `too_deep` (512
/// levels of layer groups fit), and a JSON Pointer of more reference tokens
/// names nothing a document can hold.
pub const MAX_DEPTH: usize = 1100;

/// The models a value of `ty` may be an object of, itself or as an item.
fn collect_models(ty: &'static Type, found: &mut Vec<&'static ModelDef>) {
    match ty {
        Type::List { item } => collect_models(item, found),
        Type::Model { model } => found.push(model()),
        Type::Tagged(union) => found.extend(union.variants.iter().map(|(_, m)| m())),
        Type::AnyOf { types, .. } => types.iter().for_each(|t| collect_models(t, found)),
        _ => {}
    }
}

/// Every model reachable from `root`, `root` first, each once.
#[must_use]
pub fn models_of(root: &'static ModelDef) -> Vec<&'static ModelDef> {
    fn add(model: &'static ModelDef, found: &mut Vec<&'static ModelDef>) {
        if found.iter().any(|m| std::ptr::eq(*m, model)) {
            return;
        }
        found.push(model);
        for field in model.fields {
            let mut held = Vec::new();
            collect_models(field.ty, &mut held);
            for model in held {
                add(model, found);
            }
        }
    }
    let mut found = Vec::new();
    add(root, &mut found);
    found
}

/// Every version tag (`Since`) of the fields of the models reachable from
/// `roots`, in order.
#[must_use]
pub fn versions(roots: &[&'static ModelDef]) -> Vec<Version> {
    let mut tags: Vec<Version> = roots
        .iter()
        .flat_map(|root| models_of(root))
        .flat_map(|model| model.fields.iter().filter_map(|field| field.since))
        .collect();
    tags.sort_unstable();
    tags.dedup();
    tags
}

/// A model (a JSON object with known fields), as derived from its Rust type.
#[derive(Debug)]
pub struct ModelDef {
    /// The model's name as the spec writes it, e.g. `CardSet`.
    pub name: &'static str,
    /// What the model is, from the type's doc comment.
    pub doc: &'static str,
    /// The fields, in definition order.
    pub fields: &'static [FieldDef],
    /// [`key_words`] of each field's wire name, in the order of `fields`.
    pub keys: &'static [(u64, u64)],
    /// A perfect hash table of the wire names: slot [`key_hash`] of a name
    /// holds its index in `fields`, [`NO_FIELD`] where no name hashes.
    pub slots: &'static [u8],
    /// The multiplier of [`key_hash`] that spreads this model's names over
    /// `slots` without collisions.
    pub seed: u64,
    /// Bit `i` is set when `fields[i]` is required (models have at most 128
    /// fields).
    pub required: u128,
    /// The model's wire names under the publishers' names, when some differ
    /// from the spec's: worked out the first time the model is read under
    /// them, so that no table of every model is needed.
    #[doc(hidden)]
    pub upstream: std::sync::OnceLock<Option<WireNames>>,
    /// [`ModelDef::link_fields`], worked out the first time it is asked.
    #[doc(hidden)]
    pub link_fields: std::sync::OnceLock<u128>,
}

impl ModelDef {
    /// The fields whose values may hold a [`Link`], as a mask of their
    /// indices: those with one, and those holding a model that has one, or
    /// holds one that has (where the references between documents can be
    /// found, and where not: a card's rulings, legalities, prices).
    #[must_use]
    pub fn link_fields(&'static self) -> u128 {
        *self.link_fields.get_or_init(|| {
            // Followed through `models_of`, not through other models' masks:
            // models hold each other in cycles.
            let linked = |model: &'static ModelDef| model.fields.iter().any(|f| f.link.is_some());
            let reaches = |ty: &'static Type| {
                let mut models = Vec::new();
                collect_models(ty, &mut models);
                models
                    .into_iter()
                    .any(|model| models_of(model).into_iter().any(linked))
            };
            self.fields
                .iter()
                .enumerate()
                .filter(|(_, field)| field.link.is_some() || reaches(field.ty))
                .fold(0, |mask, (index, _)| mask | 1 << index)
        })
    }

    /// The field with this wire name, with its index in `fields`.
    #[must_use]
    pub fn field(&self, wire_name: &str) -> Option<(usize, &'static FieldDef)> {
        self.field_by_bytes(wire_name.as_bytes())
    }

    /// The field with this wire name given as UTF-8 bytes.
    #[must_use]
    pub fn field_by_bytes(&self, wire_name: &[u8]) -> Option<(usize, &'static FieldDef)> {
        self.field_at(wire_name, 0, wire_name.len())
    }

    /// The field whose wire name is `bytes[start..end]`: one hash and one
    /// comparison of two words (and of the middle of names over 16 bytes).
    #[must_use]
    #[inline(always)]
    pub fn field_at(
        &self,
        bytes: &[u8],
        start: usize,
        end: usize,
    ) -> Option<(usize, &'static FieldDef)> {
        let words = words_at(bytes, start, end);
        let len = end - start;
        let slot = key_hash(len, words, self.seed, self.slots.len());
        let index = usize::from(*self.slots.get(slot)?);
        let field = self.fields.get(index)?;
        let name = field.name.as_bytes();
        let same = name.len() == len
            && self.keys.get(index) == Some(&words)
            && (len <= 16 || name[8..len - 8] == bytes[start + 8..end - 8]);
        same.then_some((index, field))
    }
}

/// The mark of an empty slot of [`ModelDef::slots`].
pub const NO_FIELD: u8 = u8::MAX;

/// The first and the last eight bytes of a wire name as little-endian words,
/// zero-padded when it is shorter: what a field lookup hashes and compares.
#[must_use]
pub const fn key_words(key: &[u8]) -> (u64, u64) {
    let len = key.len();
    let (mut head, mut tail) = ([0u8; 8], [0u8; 8]);
    let from = len.saturating_sub(8);
    let mut i = 0;
    while i < 8 && i < len {
        head[i] = key[i];
        i += 1;
    }
    let mut j = 0;
    while j < 8 && from + j < len {
        tail[j] = key[from + j];
        j += 1;
    }
    (u64::from_le_bytes(head), u64::from_le_bytes(tail))
}

/// [`key_words`] of `bytes[start..end]`, with whole-word reads where the
/// bytes around allow them. Always inlined: every member of every object
/// is looked up through it, and the compiler left it out of line once the
/// tables had a module of their own (3% more instructions in validation).
#[inline(always)]
fn words_at(bytes: &[u8], start: usize, end: usize) -> (u64, u64) {
    let word = |at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let len = end - start;
    if len >= 8 {
        (word(start), word(end - 8))
    } else if start + 8 <= bytes.len() {
        let head = word(start) & ((1u64 << (8 * len)) - 1);
        (head, head)
    } else {
        key_words(&bytes[start..end])
    }
}

/// The slot of a wire name of `len` bytes with [`key_words`] `words` in a
/// table of `slots` slots (a power of two), for the multiplier `seed`.
/// `#[derive(Model)]` builds the tables with a copy of this function (the
/// derive cannot depend on this crate); a test checks that every field is
/// found through them.
#[must_use]
#[inline]
pub fn key_hash(len: usize, words: (u64, u64), seed: u64, slots: usize) -> usize {
    let mixed =
        words.0 ^ words.1.rotate_left(23) ^ (len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let bits = slots.trailing_zeros();
    if bits == 0 {
        return 0;
    }
    // `slots` is a power of two: keep the high bits, the best mixed.
    (mixed.wrapping_mul(seed) >> (64 - bits)) as usize
}

/// One field of a model.
#[derive(Debug)]
pub struct FieldDef {
    /// The wire name, exactly as it appears in JSON.
    pub name: &'static str,
    /// The Rust field name.
    pub rust_name: &'static str,
    /// The name of the model the field belongs to, as [`ModelDef::name`].
    pub model: &'static str,
    /// The JSON type of a present, non-null value.
    pub ty: &'static Type,
    /// The member must be present.
    pub required: bool,
    /// `null` is an allowed value.
    pub nullable: bool,
    /// The value taken when the member is absent, as JSON.
    pub default: Option<fn() -> serde_json::Value>,
    /// The version of the format that introduced the field (`Since`).
    pub since: Option<Version>,
    /// The spec flags the field as deprecated.
    pub deprecated: bool,
    /// A string (or the strings of a list) whose values come from a short
    /// list the spec does not show, such as a card's rarity, layout or
    /// border color and the values of its legalities: values outside the
    /// ones seen before are news (`cardkit diff` reports them as drift).
    pub few_values: bool,
    /// What the value is to the references between documents, when it is
    /// one end of them (`cardkit validate --references`).
    pub link: Option<Link>,
    /// What the field means, from its doc comment.
    pub doc: &'static str,
}

/// What a field's value is to the references between the documents of a
/// catalog: the ids and codes records are known by, and the members that
/// name them. `cardkit validate --references` checks what these declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Link {
    /// The record's own id (`uuid`), one record's across a catalog.
    Id,
    /// A set's own code, one set's across a catalog.
    Code,
    /// The code of the set a record is in.
    SetCode,
    /// The number of a printing within its set.
    Number,
    /// Which face of a printing the record is.
    Side,
    /// The language of a printing.
    Language,
    /// A name cards are known by (a card's name, or a face's).
    Name,
    /// The ids of the record's other faces, each of which names it back.
    Faces,
    /// The ids of other printings of the card in the same set.
    Variations,
    /// The ids of printings anywhere in the catalog.
    Printings,
    /// The names of cards anywhere in the catalog.
    CardNames,
    /// The code of a set's parent set.
    ParentSet,
    /// The code of the set of a set's tokens.
    TokenSet,
}

/// The JSON type of a value.
#[derive(Debug)]
pub enum Type {
    /// A string, optionally with a format.
    String {
        /// The format the string must have, if any.
        format: Option<Format>,
    },
    /// A JSON number with no fractional part, within 64-bit range.
    Integer,
    /// Any JSON number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// One exact string.
    Const {
        /// The only allowed value.
        value: &'static str,
    },
    /// One of a list of exact strings.
    Enum {
        /// The enumeration's name, e.g. `BoundType`.
        name: &'static str,
        /// The allowed values.
        values: &'static [&'static str],
    },
    /// A JSON array whose items all have one type.
    List {
        /// The items' type.
        item: &'static Type,
    },
    /// A JSON object whose content the spec does not show.
    FreeObject,
    /// A JSON object with known fields.
    Model {
        /// The model's table.
        model: ModelFn,
    },
    /// An object that is one of several models, chosen by a tag member.
    Tagged(&'static TaggedUnion),
    /// A value that matches any one of several types (no tag).
    AnyOf {
        /// The union's name, e.g. `Filter`.
        name: &'static str,
        /// The alternatives.
        types: &'static [&'static Type],
    },
}

/// A model's table, reached through a function so that models can refer to
/// each other in cycles.
pub type ModelFn = fn() -> &'static ModelDef;

/// A union of models discriminated by the string value of one member.
#[derive(Debug)]
pub struct TaggedUnion {
    /// The union's name, e.g. `Layer`.
    pub name: &'static str,
    /// The tag member's wire name, e.g. `type`.
    pub tag: &'static str,
    /// Tag value and model of each variant.
    pub variants: &'static [(&'static str, ModelFn)],
    /// When the tag is absent, the first variant is meant (otherwise absence
    /// is an error).
    pub tag_optional: bool,
}

impl TaggedUnion {
    /// The model for a tag value.
    #[must_use]
    pub fn variant(&self, tag: &str) -> Option<&'static ModelDef> {
        self.variants
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|&(_, model)| model())
    }
}

/// The formats a string may be required to have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Hyphenated 8-4-4-4-12 hexadecimal UUID.
    Uuid,
    /// `YYYY-MM-DD` calendar date.
    Date,
    /// RFC 3986 URI with a scheme, at least one character.
    Uri,
    /// A color as the reference implementation accepts it.
    Color,
}

impl Format {
    /// The format's name, as used in messages and JSON Schema.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Format::Uuid => "uuid",
            Format::Date => "date",
            Format::Uri => "uri",
            Format::Color => "color",
        }
    }

    /// Whether `value` has this format.
    #[must_use]
    pub fn check(self, value: &str) -> bool {
        match self {
            Format::Uuid => crate::schema::format::is_uuid(value),
            Format::Date => crate::schema::format::is_date(value),
            Format::Uri => crate::schema::format::is_uri(value),
            Format::Color => crate::schema::format::is_color(value),
        }
    }

    /// [`Format::check`] of a text given as its bytes: the formats of ASCII
    /// shapes judge the bytes as they stand, with no UTF-8 check first
    /// (bytes that are not UTF-8 have none of those shapes).
    #[must_use]
    pub fn check_bytes(self, text: &[u8]) -> bool {
        match self {
            Format::Uuid => crate::schema::format::is_uuid_bytes(text),
            Format::Date => crate::schema::format::is_date_bytes(text),
            Format::Uri | Format::Color => self.check(&String::from_utf8_lossy(text)),
        }
    }
}

/// A Rust type that has a JSON type in the field tables.
///
/// Implemented for the primitive types the models use, and derived for every
/// model, enumeration and union by `#[derive(Model)]`.
pub trait Describe {
    /// The JSON type.
    const TYPE: &'static Type;
}

/// A Rust type that is a model with known fields.
pub trait Model: Describe {
    /// The model's field table.
    fn model() -> &'static ModelDef;
}

impl Describe for String {
    const TYPE: &'static Type = &Type::String { format: None };
}
impl Describe for i64 {
    const TYPE: &'static Type = &Type::Integer;
}
impl Describe for f64 {
    const TYPE: &'static Type = &Type::Number;
}
impl Describe for bool {
    const TYPE: &'static Type = &Type::Boolean;
}
impl Describe for uuid::Uuid {
    const TYPE: &'static Type = &Type::String {
        format: Some(Format::Uuid),
    };
}
impl Describe for chrono::NaiveDate {
    const TYPE: &'static Type = &Type::String {
        format: Some(Format::Date),
    };
}
impl Describe for serde_json::Map<String, serde_json::Value> {
    const TYPE: &'static Type = &Type::FreeObject;
}
impl<T: Describe> Describe for Vec<T> {
    const TYPE: &'static Type = &Type::List { item: T::TYPE };
}
/// `Option` says nothing about the JSON type: nullability is a field fact.
impl<T: Describe> Describe for Option<T> {
    const TYPE: &'static Type = T::TYPE;
}
impl<T: Describe> Describe for Box<T> {
    const TYPE: &'static Type = T::TYPE;
}

/// Types and unions are static tables: two are equal when they are the same
/// table (so diagnostics that name them can be compared).
impl PartialEq for Type {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}
impl Eq for Type {}

impl PartialEq for TaggedUnion {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}
impl Eq for TaggedUnion {}
