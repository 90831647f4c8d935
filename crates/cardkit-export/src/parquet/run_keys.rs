//! The record of one run's keys (`.cardkit-runs/run-NNNNNN.keys`): which
//! set codes, uuids, migration ids and inputs its files hold, so that a
//! later run finds what it replaces without reading the files.

use std::collections::{BTreeMap, BTreeSet};

use crate::keys::{keys, text};
use crate::rows::Rows;

/// The first line of a run's record of keys.
const KEYS_HEADER: &str = "cardkit run keys 1";

/// The keys of one run's files: what a later run looks for to replace.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct RunKeys {
    pub(super) sets: BTreeSet<String>,
    /// Each uuid of a card, token or product, and its set's code.
    pub(super) uuids: BTreeMap<String, String>,
    pub(super) migrations: BTreeSet<String>,
    /// The inputs of the `meta` rows.
    pub(super) metas: BTreeSet<String>,
    /// Rows that no key names (a set without a code, a card without a
    /// uuid): never replaced, so the files holding them are never removed
    /// whole.
    pub(super) unkeyed: usize,
}

impl RunKeys {
    pub(super) fn is_empty(&self) -> bool {
        self.sets.is_empty()
            && self.uuids.is_empty()
            && self.migrations.is_empty()
            && self.metas.is_empty()
            && self.unkeyed == 0
    }

    /// Records the keys of `rows`.
    pub(super) fn note(&mut self, rows: &Rows) {
        let keys = keys();
        let sets = &rows.tables[keys.sets];
        for row in sets.rows() {
            match text(sets, row, keys.set_code) {
                Some(code) => {
                    if !self.sets.contains(code) {
                        self.sets.insert(code.to_owned());
                    }
                }
                None => self.unkeyed += 1,
            }
        }
        for &(t, owner, uuid) in &keys.set_owned {
            let table = &rows.tables[t];
            for row in table.rows() {
                let Some(code) = text(table, row, owner) else {
                    self.unkeyed += 1;
                    continue;
                };
                if let Some(uuid) = uuid.and_then(|uuid| text(table, row, uuid)) {
                    self.uuids.insert(uuid.to_owned(), code.to_owned());
                }
            }
        }
        for &(t, uuid) in &keys.uuid_owned {
            let table = &rows.tables[t];
            self.unkeyed += table
                .rows()
                .filter(|row| text(table, row, uuid).is_none())
                .count();
        }
        if let Some((t, id)) = keys.migrations {
            let table = &rows.tables[t];
            for row in table.rows() {
                match text(table, row, id) {
                    Some(id) => {
                        if !self.migrations.contains(id) {
                            self.migrations.insert(id.to_owned());
                        }
                    }
                    None => self.unkeyed += 1,
                }
            }
        }
        let (t, input) = keys.meta;
        let table = &rows.tables[t];
        for row in table.rows() {
            match text(table, row, input) {
                Some(input) => {
                    self.metas.insert(input.to_owned());
                }
                None => self.unkeyed += 1,
            }
        }
    }

    /// The record's text: a header, then a JSON array per key.
    pub(super) fn to_text(&self) -> String {
        use serde_json::json;
        let mut out = format!("{KEYS_HEADER}\n");
        let mut line = |value: serde_json::Value| {
            out.push_str(&value.to_string());
            out.push('\n');
        };
        line(json!(["unkeyed", self.unkeyed]));
        for code in &self.sets {
            line(json!(["set", code]));
        }
        for (uuid, code) in &self.uuids {
            line(json!(["uuid", uuid, code]));
        }
        for id in &self.migrations {
            line(json!(["migration", id]));
        }
        for input in &self.metas {
            line(json!(["meta", input]));
        }
        out
    }

    /// Reads a record written by [`RunKeys::to_text`]; what is wrong, and
    /// on which line.
    pub(super) fn from_text(text: &str) -> Result<RunKeys, String> {
        let mut lines = text.lines();
        if lines.next() != Some(KEYS_HEADER) {
            return Err(format!("line 1: not `{KEYS_HEADER}`"));
        }
        let mut keys = RunKeys::default();
        for (n, line) in lines.enumerate() {
            let wrong = |why: &str| format!("line {}: {why}", n + 2);
            let value: Vec<serde_json::Value> =
                serde_json::from_str(line).map_err(|e| wrong(&e.to_string()))?;
            let item = |i: usize| -> Result<String, String> {
                value
                    .get(i)
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| wrong("a key is missing"))
            };
            match value.first().and_then(serde_json::Value::as_str) {
                Some("unkeyed") => {
                    keys.unkeyed = value
                        .get(1)
                        .and_then(serde_json::Value::as_u64)
                        .and_then(|n| usize::try_from(n).ok())
                        .ok_or_else(|| wrong("no count"))?;
                }
                Some("set") => {
                    keys.sets.insert(item(1)?);
                }
                Some("uuid") => {
                    keys.uuids.insert(item(1)?, item(2)?);
                }
                Some("migration") => {
                    keys.migrations.insert(item(1)?);
                }
                Some("meta") => {
                    keys.metas.insert(item(1)?);
                }
                _ => return Err(wrong("not a key")),
            }
        }
        Ok(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_of_keys_reads_back_and_names_what_is_wrong() {
        let mut keys = RunKeys {
            unkeyed: 2,
            ..RunKeys::default()
        };
        keys.sets.insert("A\tB\n".to_owned());
        keys.uuids.insert("u-1".to_owned(), "A\tB\n".to_owned());
        keys.migrations.insert("m".to_owned());
        keys.metas.insert("in.json".to_owned());
        assert_eq!(RunKeys::from_text(&keys.to_text()), Ok(keys));
        let wrong = format!("{KEYS_HEADER}\n[\"set\"]\n");
        assert_eq!(
            RunKeys::from_text(&wrong),
            Err("line 2: a key is missing".to_owned())
        );
        assert!(RunKeys::from_text("other").is_err());
    }
}
