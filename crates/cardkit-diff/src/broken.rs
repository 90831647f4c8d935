//! The references a change breaks, and those it fixes: the findings of
//! the new build's references ([`crate::references`]) that the old build
//! does not have, each known by its [`Key`], never by its place.

use std::collections::HashSet;

use cardkit::diagnostic::words;

use crate::data::BrokenReference;
use crate::references::{Found, Key};
use crate::side::Side;

/// The references `new` breaks, in its order (a finding given twice once),
/// and how many findings of `old` `new` no longer has; the sets with the
/// codes `left_out` are in neither build. `None` when the references were
/// not read.
pub(crate) fn compare(
    old: &Side,
    new: &Side,
    left_out: &HashSet<&str>,
) -> Option<(Vec<BrokenReference>, usize)> {
    let (Some(old_found), Some(new_found)) = (&old.references, &new.references) else {
        return None;
    };
    let kept =
        |side: &Side, found: &Found| !left_out.contains(side.build.sets[found.set].code.as_str());
    let keys = |side: &'_ Side, found: &'_ [Found]| -> HashSet<Key> {
        found
            .iter()
            .filter(|f| kept(side, f))
            .map(|f| f.key(&side.build.sets))
            .collect()
    };
    let (before, after) = (keys(old, old_found), keys(new, new_found));
    let fixed = before.difference(&after).count();
    let mut seen = HashSet::new();
    let mut broken = Vec::new();
    for found in new_found.iter().filter(|f| kept(new, f)) {
        let key = found.key(&new.build.sets);
        if before.contains(&key) || !seen.insert(key.clone()) {
            continue;
        }
        let set = &new.build.sets[found.set];
        let (code, _, field, value) = key;
        broken.push(BrokenReference {
            code: code.as_str(),
            set: set.code.clone(),
            record: found.record.as_deref().map(str::to_owned),
            field,
            value: value.into_string(),
            file: new.file_of(set),
            pointer: found.finding.at.pointer(),
            message: words::message(&found.finding.detail),
        });
    }
    Some((broken, fixed))
}
