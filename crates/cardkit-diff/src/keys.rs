//! What names a record, read from its bytes without walking its values
//! ([`record_keys`]), and the catalog ids of a set's records
//! ([`catalog_ids`]): a look at members, no deeper than a record's
//! identifiers.

use cardkit_json::Scanner;

use crate::fields::Facts;
use crate::hash::{hash_of, mix, OTHER};

/// What names a record.
#[derive(Debug, Default)]
pub struct Keys {
    /// Its `uuid`, when a string.
    pub uuid: Option<String>,
    /// A hash of its natural key.
    pub natural: u64,
    /// Its catalog id, when a string.
    pub catalog: Option<String>,
}

/// The keys of a record of list `list` (its bytes): a look at its members
/// only, no deeper than its identifiers.
#[must_use]
pub fn record_keys(bytes: &[u8], list: usize, facts: &Facts) -> Keys {
    let natural_key = &facts.lists[list].natural_key;
    let mut keys = Keys::default();
    // A hash of each natural key member's value (its bytes), by position.
    let mut natural = vec![0u64; natural_key.len()];
    let string_at = |scan: &Scanner<'_>| -> Option<String> {
        let mut s = scan.clone();
        (s.peek() == Some(b'"'))
            .then(|| s.string().ok().map(|t| s.decode(t).into_owned()))
            .flatten()
    };
    let mut scan = Scanner::new(bytes, 0);
    each_member(&mut scan, &mut |name, scan| {
        if name == facts.key {
            keys.uuid = string_at(scan);
        } else if let Some(i) = natural_key.iter().position(|k| *k == name) {
            let start = scan.pos;
            if scan.skip_structure().is_ok() {
                natural[i] = hash_of(OTHER, &scan.bytes[start..scan.pos]);
            }
        } else if name == facts.identifiers_name {
            each_member(&mut scan.clone(), &mut |name, scan| {
                if name == facts.catalog_id {
                    keys.catalog = string_at(scan);
                }
            });
        }
    });
    keys.natural = natural.into_iter().fold(list as u64, mix);
    keys
}

/// Calls `f` with each member of the object at the cursor (the cursor at
/// the member's value; `f` may read past it).
fn each_member(scan: &mut Scanner<'_>, f: &mut dyn FnMut(&str, &mut Scanner<'_>)) {
    if scan.peek() != Some(b'{') || !scan.open().unwrap_or(false) {
        return;
    }
    loop {
        let Ok((name, _)) = scan.member_name() else {
            return;
        };
        let name = scan.decode(name).into_owned();
        let start = scan.pos;
        f(&name, scan);
        if scan.pos == start && scan.skip_structure().is_err() {
            return;
        }
        if !scan.after_member().unwrap_or(false) {
            return;
        }
    }
}

/// What `pick` makes of the catalog ids of the records of a set document
/// (`bytes`), in document order, those it gives `None` for left out. A
/// list written twice counts with its last value, as the validator reads
/// it.
///
/// # Errors
/// The set is not an object, or is malformed: why.
pub fn catalog_ids<T>(
    bytes: &[u8],
    facts: &Facts,
    pick: &dyn Fn(&str) -> Option<T>,
) -> Result<Vec<T>, String> {
    let syntax = |e: cardkit_json::SyntaxError| format!("malformed JSON at byte {}", e.at);
    let mut scan = Scanner::new(bytes, 0);
    scan.ws();
    if scan.peek() != Some(b'{') {
        return Err("the set is not an object".to_owned());
    }
    // What each list gave, by the list's index.
    let mut picked: Vec<(usize, T)> = Vec::new();
    if !scan.open().map_err(syntax)? {
        return Ok(Vec::new());
    }
    loop {
        let (name, _) = scan.member_name().map_err(syntax)?;
        let list = facts.list(&scan.decode(name).into_owned().into_bytes());
        match list {
            Some((list, _)) if scan.peek() == Some(b'[') => {
                picked.retain(|(l, _)| *l != list);
                if scan.open().map_err(syntax)? {
                    loop {
                        let start = scan.pos;
                        scan.skip_structure().map_err(syntax)?;
                        let record = &scan.bytes[start..scan.pos];
                        if let Some(id) = record_keys(record, list, facts).catalog {
                            if let Some(found) = pick(&id) {
                                picked.push((list, found));
                            }
                        }
                        if !scan.after_item().map_err(syntax)? {
                            break;
                        }
                    }
                }
            }
            Some((list, _)) => {
                picked.retain(|(l, _)| *l != list);
                scan.skip_structure().map_err(syntax)?;
            }
            None => scan.skip_structure().map_err(syntax)?,
        }
        if !scan.after_member().map_err(syntax)? {
            break;
        }
    }
    Ok(picked.into_iter().map(|(_, found)| found).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::facts;

    #[test]
    fn catalog_ids_are_picked_from_each_list_and_a_list_written_twice_counts_last() {
        let set = br#"{"code": "X", "cards": [{"identifiers": {"catalogAId": "A"}}],
            "tokens": [{"uuid": "t", "identifiers": {"catalogAId": "B"}}, {"identifiers": {}}],
            "cards": [{"identifiers": {"catalogAId": "C"}}, {"identifiers": {"catalogAId": "D"}}]}"#;
        let ids = catalog_ids(set, facts(), &|id| (id != "D").then(|| id.to_owned())).unwrap();
        assert_eq!(ids, ["B", "C"]);
        assert!(catalog_ids(b"[1]", facts(), &|_| Some(())).is_err());
        assert!(catalog_ids(b"{\"cards\": [{]}", facts(), &|_| Some(())).is_err());
    }
}
