//! Warnings a report will not show, counted instead of built: past the
//! first few of one code and `Model.field` in a document, a warning costs a
//! count, not a pointer, a message, a line and an excerpt. The report shows
//! the same first few either way, because the validator finds a field's
//! warnings in document order; where it cannot be sure of that (a
//! duplicate key takes an earlier value's warnings away, a warning comes
//! before one already kept), the fold says it is broken and the unit is
//! walked again without it.

use std::collections::HashMap;

use foldhash::fast::RandomState;

use crate::diagnostic::Code;
use crate::report::{Folded, FoldedCount};

/// The warnings of one unit, by field and code: how many kept, how many
/// folded.
pub(crate) struct Fold {
    /// How many of each code and field are kept.
    limit: usize,
    fields: HashMap<Box<str>, Vec<Bucket>, RandomState>,
    /// Some warning was folded.
    any: bool,
    /// The warnings kept may not be the first of their kind any more.
    broken: bool,
}

/// The warnings of one code and field.
struct Bucket {
    code: Code,
    kept: usize,
    folded: usize,
    /// The offset of the last kept.
    last_kept: usize,
}

impl Fold {
    pub fn new(limit: usize) -> Self {
        Fold {
            // A report that shows none still counts the first of each kind.
            limit: limit.max(1),
            fields: HashMap::default(),
            any: false,
            broken: false,
        }
    }

    /// Whether the next warning of `code` about `field` would be kept.
    pub fn keeps(&self, code: Code, field: &str) -> bool {
        self.fields
            .get(field)
            .and_then(|buckets| buckets.iter().find(|b| b.code == code))
            .is_none_or(|bucket| bucket.kept < self.limit)
    }

    /// Counts a warning of `code` about `field` at file offset `offset`:
    /// `true` when it is folded, `false` when it is to be kept.
    pub fn folds(&mut self, code: Code, field: &str, offset: usize) -> bool {
        let buckets = match self.fields.get_mut(field) {
            Some(buckets) => buckets,
            None => self.fields.entry(field.into()).or_default(),
        };
        let bucket = match buckets.iter().position(|b| b.code == code) {
            Some(i) => &mut buckets[i],
            None => {
                buckets.push(Bucket {
                    code,
                    kept: 0,
                    folded: 0,
                    last_kept: offset,
                });
                buckets.last_mut().expect("just pushed")
            }
        };
        if bucket.kept < self.limit {
            bucket.kept += 1;
            bucket.last_kept = bucket.last_kept.max(offset);
            return false;
        }
        // Reports show a document's diagnostics in offset order: one folded
        // before a kept one would have been shown in its place.
        self.broken |= offset < bucket.last_kept;
        bucket.folded += 1;
        self.any = true;
        true
    }

    /// A kept warning of `code` about `field` was taken away (with the
    /// earlier value a duplicate key replaces): a later one may be kept.
    pub fn discarded(&mut self, code: Code, field: &str) {
        if let Some(bucket) = self
            .fields
            .get_mut(field)
            .and_then(|buckets| buckets.iter_mut().find(|b| b.code == code))
        {
            bucket.kept = bucket.kept.saturating_sub(1);
        }
    }

    /// A key came again, and its earlier value goes: warnings folded before
    /// may have been in it, or come before those kept after it.
    pub fn duplicate_key(&mut self) {
        self.broken |= self.any;
    }

    /// Whether the unit must be walked again without folding.
    pub fn broken(&self) -> bool {
        self.broken
    }

    /// The counts of what was folded.
    pub fn into_folded(self) -> Folded {
        let counts = self
            .fields
            .into_iter()
            .flat_map(|(field, buckets)| {
                buckets
                    .into_iter()
                    .filter(|b| b.folded > 0)
                    .map(move |b| FoldedCount {
                        code: b.code,
                        field: field.to_string(),
                        count: b.folded,
                    })
            })
            .collect();
        Folded::new(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_of_each_code_and_field_and_counts_the_rest() {
        let mut fold = Fold::new(2);
        let unknown = Code::UnknownField;
        assert!(!fold.folds(unknown, "Card.a", 10));
        assert!(!fold.folds(unknown, "Card.a", 20));
        assert!(!fold.keeps(unknown, "Card.a"));
        assert!(fold.keeps(unknown, "Card.b"));
        assert!(fold.keeps(Code::NewerField, "Card.a"));
        assert!(fold.folds(unknown, "Card.a", 30));
        assert!(!fold.folds(Code::NewerField, "Card.a", 40));
        assert!(fold.folds(unknown, "Card.a", 50));
        assert!(!fold.broken());
        let folded = fold.into_folded();
        let counts: Vec<_> = folded
            .iter()
            .map(|c| (c.code, c.field.as_str(), c.count))
            .collect();
        assert_eq!(counts, [(unknown, "Card.a", 2)]);
    }

    #[test]
    fn is_broken_by_a_folded_warning_before_a_kept_one() {
        let mut fold = Fold::new(1);
        assert!(!fold.folds(Code::UnknownField, "Card.a", 20));
        assert!(fold.folds(Code::UnknownField, "Card.a", 20));
        assert!(!fold.broken(), "the same place is in order");
        assert!(fold.folds(Code::UnknownField, "Card.a", 10));
        assert!(fold.broken());
    }

    #[test]
    fn is_broken_by_a_duplicate_key_once_anything_was_folded() {
        let mut fold = Fold::new(1);
        assert!(!fold.folds(Code::UnknownField, "Card.a", 1));
        fold.duplicate_key();
        fold.discarded(Code::UnknownField, "Card.a");
        assert!(!fold.broken(), "nothing folded yet: the count goes back");
        assert!(!fold.folds(Code::UnknownField, "Card.a", 2));
        assert!(fold.folds(Code::UnknownField, "Card.a", 3));
        fold.duplicate_key();
        assert!(fold.broken());
    }

    #[test]
    fn a_limit_of_none_shown_still_keeps_the_first() {
        let mut fold = Fold::new(0);
        assert!(!fold.folds(Code::UnknownField, "Card.a", 1));
        assert!(fold.folds(Code::UnknownField, "Card.a", 2));
    }
}
