//! Re-keyed printings: a record removed from the old build and one added to
//! the new one in the same set and list, with the same natural key
//! (collector number, side, language, name), are one printing whose uuid
//! changed. Only pairs that are unique on both sides are matched: when two
//! removed or two added records share a natural key, which is which cannot
//! be told, and they stay removed and added.

use std::collections::HashMap;

use crate::print::RecordPrint;

/// Pairs `(removed, added)` of indices into `removed` and `added` that are
/// one printing, in the order of `added`.
#[must_use]
pub fn pairs(removed: &[&RecordPrint], added: &[&RecordPrint]) -> Vec<(usize, usize)> {
    let count = |records: &[&RecordPrint]| {
        let mut by_key: HashMap<(u8, u64), (usize, usize)> = HashMap::new();
        for (i, r) in records.iter().enumerate() {
            by_key.entry((r.list, r.natural)).or_insert((i, 0)).1 += 1;
        }
        by_key
    };
    let (gone, new) = (count(removed), count(added));
    let mut out: Vec<(usize, usize)> = new
        .iter()
        .filter(|(_, &(_, n))| n == 1)
        .filter_map(|(key, &(a, _))| match gone.get(key) {
            Some(&(r, 1)) => Some((r, a)),
            _ => None,
        })
        .collect();
    out.sort_by_key(|&(_, a)| a);
    out
}
