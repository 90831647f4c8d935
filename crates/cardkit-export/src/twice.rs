//! What a run writes that a later document of the same run replaces: a set
//! read twice (by code) or a migration read twice (by id) is kept as the
//! later read. Stores that cannot take rows back once written (Parquet
//! files, Arrow batches) note the rows as they go and leave them out at the
//! commit.

use std::collections::HashMap;

use crate::keys::{keys, text};
use crate::rows::Rows;

/// The rows of each table that a later document of the run replaces.
#[derive(Default)]
pub(crate) struct Twice {
    /// Rows written per table.
    pub(crate) written: Vec<usize>,
    /// The rows of the latest set of each code: (table, start, end).
    sets: HashMap<String, Vec<(usize, usize, usize)>>,
    /// The row of the latest migration of each id.
    migrations: HashMap<String, usize>,
    /// Per table, the ranges of rows left out.
    pub(crate) dropped: Vec<Vec<(usize, usize)>>,
    /// Uuids that a later set of the run holds too: per table, the rows
    /// before this one that hold the uuid are left out (noted by the
    /// stores that check uuids against each other: Parquet's).
    #[cfg(feature = "parquet")]
    pub(crate) moved: HashMap<String, Vec<usize>>,
}

impl Twice {
    /// Nothing written yet, into `tables` tables.
    pub(crate) fn new(tables: usize) -> Twice {
        Twice {
            written: vec![0; tables],
            dropped: vec![Vec::new(); tables],
            ..Twice::default()
        }
    }

    /// Notes the rows of `rows`, about to be written, and the rows written
    /// earlier that they replace.
    pub(crate) fn note(&mut self, rows: &Rows) {
        let keys = keys();
        // A set's rows come on their own: a code read before has its rows
        // left out.
        let sets = &rows.tables[keys.sets];
        if let Some(code) = sets
            .rows()
            .next()
            .and_then(|row| text(sets, row, keys.set_code))
        {
            let ranges: Vec<(usize, usize, usize)> = rows
                .tables
                .iter()
                .enumerate()
                .filter(|(_, t)| !t.is_empty())
                .map(|(t, table)| (t, self.written[t], self.written[t] + table.len()))
                .collect();
            if let Some(before) = self.sets.insert(code.to_owned(), ranges) {
                for (t, start, end) in before {
                    self.dropped[t].push((start, end));
                }
            }
        }
        if let Some((t, id)) = keys.migrations {
            let table = &rows.tables[t];
            for (i, row) in table.rows().enumerate() {
                if let Some(id) = text(table, row, id) {
                    let at = self.written[t] + i;
                    if let Some(before) = self.migrations.insert(id.to_owned(), at) {
                        self.dropped[t].push((before, before + 1));
                    }
                }
            }
        }
    }

    /// Counts `rows` as written.
    pub(crate) fn wrote(&mut self, rows: &Rows) {
        for (t, table) in rows.tables.iter().enumerate() {
            self.written[t] += table.len();
        }
    }
}
