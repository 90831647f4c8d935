//! What names a document's rows in a store, so that a run adds to what is
//! there and replaces only what it exports again:
//!
//! - a set by its `code`: its row in `sets`, the rows of the tables it owns
//!   (`cards`, `tokens`, `sealed_products`, `set_translations`, by their
//!   set code column) and the rows those own by `uuid` (`identifiers`,
//!   `legalities`, `foreign_data`, …);
//! - a card, token or sealed product by its `uuid`, across sets: a uuid
//!   already stored under another set is removed there (with its rows in
//!   the tables keyed by `uuid`) before the new set's rows go in;
//! - a migration by its `id`;
//! - a `meta` row by its `input`.
//!
//! All within one build (the `build` column): other builds are untouched.
//! The statements are the same for SQLite and PostgreSQL but for the
//! placeholders and the NULL-safe comparison of `build`.

use std::sync::OnceLock;

use crate::layout::{layout, Source};
use crate::rows::{Cell, TableRows};
use crate::sql::quoted;

/// Where the keys are in the layout.
#[derive(Debug)]
pub struct Keys {
    /// The `sets` table and its `code` column.
    pub sets: usize,
    pub set_code: usize,
    /// Tables owned by a set: (table, its set code column, its `uuid`
    /// column if it has one).
    pub set_owned: Vec<(usize, usize, Option<usize>)>,
    /// Tables owned by a card, token or product: (table, its `uuid` column).
    pub uuid_owned: Vec<(usize, usize)>,
    /// The `migrations` table and its `id` column.
    pub migrations: Option<(usize, usize)>,
    /// The `meta` table and its `input` column.
    pub meta: (usize, usize),
}

/// The keys of the layout, found once.
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let l = layout();
        let sets = l.nodes[l.set].table;
        let set_code = l.tables[sets].column("code").unwrap_or(0);
        let mut set_owned = Vec::new();
        let mut uuid_owned = Vec::new();
        for (t, table) in l.tables.iter().enumerate() {
            let owner = table
                .columns
                .iter()
                .position(|c| matches!(c.source, Source::OwnerKey));
            let Some(owner) = owner else { continue };
            if table.columns[owner].name == "uuid" {
                uuid_owned.push((t, owner));
            } else {
                let uuid = table
                    .columns
                    .iter()
                    .position(|c| c.name == "uuid" && matches!(c.source, Source::Field(_)));
                set_owned.push((t, owner, uuid));
            }
        }
        let migration_table = l.nodes[l.migration].table;
        let migrations = l.tables[migration_table]
            .column("id")
            .map(|id| (migration_table, id));
        let meta = (l.meta, l.tables[l.meta].column("input").unwrap_or(1));
        Keys {
            sets,
            set_code,
            set_owned,
            uuid_owned,
            migrations,
            meta,
        }
    })
}

/// The text of a cell, if it is text.
pub fn text<'a>(rows: &'a TableRows, row: &[Cell], column: usize) -> Option<&'a str> {
    match row.get(column) {
        Some(&Cell::Text(span)) => Some(rows.text(span)),
        _ => None,
    }
}

/// The SQL dialect of a store: how a placeholder is written and how
/// `build` is compared to one (NULL-safe).
#[derive(Clone, Copy)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    fn param(self, n: usize) -> String {
        match self {
            Dialect::Sqlite => format!("?{n}"),
            Dialect::Postgres => format!("${n}"),
        }
    }

    fn build_is(self) -> String {
        match self {
            Dialect::Sqlite => "build IS ?1".into(),
            Dialect::Postgres => "build IS NOT DISTINCT FROM $1".into(),
        }
    }

    /// For SQLite, the condition that keeps a statement to rows written
    /// by the run: their rowid is past the table's largest before it
    /// (parameter 3).
    fn in_run(self) -> &'static str {
        match self {
            Dialect::Sqlite => " AND rowid > ?3",
            Dialect::Postgres => "",
        }
    }

    /// The statements that remove a set (parameters: build, code; for
    /// SQLite the largest rowid of the table before the run, only rows
    /// past it removed), the rows keyed by its uuids first; with their
    /// table.
    pub fn delete_set(self, keys: &Keys) -> Vec<(usize, String)> {
        let l = layout();
        let (build, code, in_run) = (self.build_is(), self.param(2), self.in_run());
        let uuids: Vec<String> = keys
            .set_owned
            .iter()
            .filter_map(|&(t, owner, uuid)| {
                let table = &l.tables[t];
                uuid.map(|uuid| {
                    format!(
                        "SELECT {} FROM {} WHERE {build} AND {} = {code}",
                        quoted(&table.columns[uuid].name),
                        quoted(&table.name),
                        quoted(&table.columns[owner].name)
                    )
                })
            })
            .collect();
        let mut statements = Vec::new();
        if !uuids.is_empty() {
            for &(t, uuid) in &keys.uuid_owned {
                statements.push((
                    t,
                    format!(
                        "DELETE FROM {} WHERE {build} AND {} IN ({}){in_run}",
                        quoted(&l.tables[t].name),
                        quoted(&l.tables[t].columns[uuid].name),
                        uuids.join(" UNION ALL ")
                    ),
                ));
            }
        }
        for &(t, owner, _) in &keys.set_owned {
            statements.push((
                t,
                format!(
                    "DELETE FROM {} WHERE {build} AND {} = {code}{in_run}",
                    quoted(&l.tables[t].name),
                    quoted(&l.tables[t].columns[owner].name)
                ),
            ));
        }
        statements.push((
            keys.sets,
            format!(
                "DELETE FROM {} WHERE {build} AND {} = {code}{in_run}",
                quoted(&l.tables[keys.sets].name),
                quoted(&l.tables[keys.sets].columns[keys.set_code].name)
            ),
        ));
        statements
    }

    /// The statements that remove a uuid's rows (parameters as for
    /// [`Dialect::delete_set`]); with their table.
    pub fn delete_uuid(self, keys: &Keys) -> Vec<(usize, String)> {
        let l = layout();
        let (build, uuid, in_run) = (self.build_is(), self.param(2), self.in_run());
        keys.uuid_owned
            .iter()
            .map(|&(t, c)| (t, c))
            .chain(
                keys.set_owned
                    .iter()
                    .filter_map(|&(t, _, c)| c.map(|c| (t, c))),
            )
            .map(|(t, c)| {
                (
                    t,
                    format!(
                        "DELETE FROM {} WHERE {build} AND {} = {uuid}{in_run}",
                        quoted(&l.tables[t].name),
                        quoted(&l.tables[t].columns[c].name)
                    ),
                )
            })
            .collect()
    }

    /// The statement that removes the rows of `table` whose `column` is
    /// a value (parameters: build, value).
    pub fn delete_by(self, table: usize, column: usize) -> String {
        let table = &layout().tables[table];
        format!(
            "DELETE FROM {} WHERE {} AND {} = {}",
            quoted(&table.name),
            self.build_is(),
            quoted(&table.columns[column].name),
            self.param(2)
        )
    }

    /// The statement that selects `column` of the rows of `table` (and a
    /// second column, or NULL) in a build (parameter: build).
    pub fn select(self, table: usize, column: usize, second: Option<usize>) -> String {
        let table = &layout().tables[table];
        format!(
            "SELECT {}, {} FROM {} WHERE {}",
            quoted(&table.columns[column].name),
            second.map_or("NULL".to_owned(), |c| quoted(&table.columns[c].name)),
            quoted(&table.name),
            self.build_is()
        )
    }
}

/// What a run changed of what was in the store before it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// The build was emptied first (`--replace`).
    pub emptied: bool,
    /// Sets that were in the store before the run and were replaced.
    pub replaced_sets: Vec<String>,
    /// Rows that were in the store before the run and were removed (of
    /// the sets, uuids and migrations replaced).
    pub removed_rows: usize,
    /// Migrations that were in the store before the run and were replaced.
    pub replaced_migrations: usize,
    /// Cards, tokens or products whose uuid was stored under another set
    /// (before the run or earlier in it): the other set's rows were
    /// removed. How many, and the first few in words.
    pub moved: usize,
    pub moved_notes: Vec<String>,
    /// Temporary files that killed runs left beside the target, removed
    /// (their name and size in bytes).
    pub stale_removed: Vec<(String, u64)>,
}

/// How many uuid collisions are told one by one.
const MOVED_NOTES: usize = 20;

/// A removal a store makes before a batch's rows go in.
#[derive(Debug, Clone, Copy)]
pub enum Removal<'a> {
    /// A set, by code; whether it was stored before the run (else it was
    /// written earlier in the run).
    Set(&'a str, bool),
    /// A card's, token's or product's rows, by uuid; whether they were
    /// stored before the run.
    Uuid(&'a str, bool),
    /// A migration, by id.
    Migration(&'a str),
    /// A `meta` row, by input.
    Meta(&'a str),
}

/// The keys in a store's build: those there before the run, and those
/// the run has written.
#[derive(Debug, Default)]
pub struct Known {
    sets: std::collections::HashSet<String>,
    sets_before: std::collections::HashSet<String>,
    /// Set codes, numbered for [`Known::uuids`].
    codes: Vec<String>,
    uuids: std::collections::HashMap<Box<str>, u32>,
    migrations: std::collections::HashSet<String>,
    migrations_before: std::collections::HashSet<String>,
    metas: std::collections::HashSet<String>,
    /// The sets (by number) written in the run.
    written: std::collections::HashSet<u32>,
}

impl Known {
    /// Records a set code that is in the store before the run.
    pub fn set_before(&mut self, code: String) {
        self.sets.insert(code.clone());
        self.sets_before.insert(code);
    }

    /// Records a uuid stored under a set before the run.
    pub fn uuid_before(&mut self, uuid: &str, code: &str) {
        let n = self.code_number(code);
        self.uuids.insert(uuid.into(), n);
    }

    /// Records a migration id in the store before the run.
    pub fn migration_before(&mut self, id: String) {
        self.migrations.insert(id.clone());
        self.migrations_before.insert(id);
    }

    /// Records an input named in `meta` before the run.
    pub fn meta_before(&mut self, input: String) {
        self.metas.insert(input);
    }

    fn code_number(&mut self, code: &str) -> u32 {
        match self.codes.iter().rposition(|c| c == code) {
            Some(n) => u32::try_from(n).unwrap_or(u32::MAX),
            None => {
                self.codes.push(code.to_owned());
                u32::try_from(self.codes.len() - 1).unwrap_or(u32::MAX)
            }
        }
    }

    /// Makes room for a batch of rows: removes (through `remove`, which
    /// says how many rows it removed) what the batch replaces, and records
    /// its keys. The ids of migrations that the batch holds more than once
    /// are returned: each of their rows is to be inserted after removing
    /// the one before.
    ///
    /// # Errors
    /// What `remove` returns.
    pub fn prepare<E>(
        &mut self,
        tables: &[TableRows],
        changes: &mut Changes,
        mut remove: impl FnMut(Removal<'_>) -> Result<usize, E>,
    ) -> Result<std::collections::HashSet<String>, E> {
        let keys = keys();
        let sets = &tables[keys.sets];
        for row in sets.rows() {
            let Some(code) = text(sets, row, keys.set_code) else {
                continue;
            };
            if self.sets.contains(code) {
                let before = self.sets_before.remove(code);
                let removed = remove(Removal::Set(code, before))?;
                if before {
                    changes.removed_rows += removed;
                    changes.replaced_sets.push(code.to_owned());
                }
            } else {
                self.sets.insert(code.to_owned());
            }
            let n = self.code_number(code);
            self.written.insert(n);
        }
        for &(t, owner, uuid) in &keys.set_owned {
            let Some(uuid) = uuid else { continue };
            let rows = &tables[t];
            for row in rows.rows() {
                let (Some(id), Some(code)) = (text(rows, row, uuid), text(rows, row, owner)) else {
                    continue;
                };
                let n = self.code_number(code);
                match self.uuids.insert(id.into(), n) {
                    Some(old) if old != n => {
                        let before = !self.written.contains(&old);
                        let removed = remove(Removal::Uuid(id, before))?;
                        if before {
                            changes.removed_rows += removed;
                        }
                        changes.moved += 1;
                        if changes.moved_notes.len() < MOVED_NOTES {
                            changes.moved_notes.push(format!(
                                "uuid {id} was stored in set {}; set {code} has it too: the rows of {code} are kept",
                                self.codes[old as usize]
                            ));
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut twice = std::collections::HashSet::new();
        if let Some((t, id)) = keys.migrations {
            let rows = &tables[t];
            let mut seen = std::collections::HashSet::new();
            for row in rows.rows() {
                let Some(id) = text(rows, row, id) else {
                    continue;
                };
                if !seen.insert(id) {
                    twice.insert(id.to_owned());
                    continue;
                }
                if self.migrations.contains(id) {
                    let removed = remove(Removal::Migration(id))?;
                    if self.migrations_before.remove(id) {
                        changes.removed_rows += removed;
                        changes.replaced_migrations += 1;
                    }
                } else {
                    self.migrations.insert(id.to_owned());
                }
            }
        }
        let (t, input) = keys.meta;
        let rows = &tables[t];
        for row in rows.rows() {
            if let Some(name) = text(rows, row, input) {
                if self.metas.remove(name) {
                    remove(Removal::Meta(name))?;
                }
            }
        }
        Ok(twice)
    }
}
