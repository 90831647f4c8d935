//! Text from JSON bytes: UTF-8 checks, JSON Pointer tokens and the keys of
//! one object.

use std::borrow::Cow;
use std::hash::{BuildHasher, RandomState};

use hashbrown::hash_table::{Entry, HashTable};

/// `bytes` as text, invalid UTF-8 replaced: a quick check first, since it is
/// nearly always valid.
#[must_use]
pub fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// How far `bytes` are UTF-8 from the start: all of them, or up to the first
/// byte that is not (or up to a character cut short at the end).
#[must_use]
pub fn utf8_prefix(bytes: &[u8]) -> usize {
    match simdutf8::compat::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(error) => error.valid_up_to(),
    }
}

/// The keys met so far in one object, to find duplicates: a short list that
/// becomes a set of 64-bit hashes when the object is large, so that an
/// object of millions of keys costs a few bytes a key, not a copy of each.
#[derive(Default)]
pub struct DuplicateKeys<'a> {
    few: Vec<Cow<'a, str>>,
    /// The hashes of the keys past the first few, each its own place in
    /// the table: a keyed hash (random per object, so that names cannot be
    /// chosen to collide) needs no hashing again.
    many: HashTable<u64>,
    hasher: RandomState,
}

impl<'a> DuplicateKeys<'a> {
    /// Up to this many keys are compared as text.
    const FEW: usize = 16;

    /// Adds a key; `false` if it was there already.
    #[inline(always)]
    pub fn insert(&mut self, key: Cow<'a, str>) -> bool {
        if self.few.len() < Self::FEW {
            if self.few.contains(&key) {
                return false;
            }
            self.few.push(key);
            return true;
        }
        if self.few.contains(&key) {
            return false;
        }
        let hash = self.hasher.hash_one(key.as_ref());
        match self
            .many
            .entry(hash, |&known| known == hash, |&known| known)
        {
            Entry::Occupied(_) => false,
            Entry::Vacant(place) => {
                place.insert(hash);
                true
            }
        }
    }
}
