//! What a run into an existing database removes of what it holds: the rows
//! written earlier in the run that a batch replaces, removed as it goes,
//! and the rows stored before the run of the sets and uuids it replaces,
//! removed at the commit, by rowid, so that the run writes meanwhile
//! without indexes.

use std::collections::HashMap;

use rusqlite::Connection;

use crate::keys::{keys, Dialect, Removal};
use crate::layout::layout;
use crate::sql::quoted;

/// What a run removes of what the store holds.
#[derive(Default)]
pub(super) struct Pending {
    /// The rowid of each migration of the build, by id: a migration
    /// replaced is removed by rowid (the column `id` has no index).
    pub(super) migration_rows: HashMap<String, i64>,
    /// The largest rowid of each table before the run (an existing
    /// database): the rows the run writes come after it.
    pub(super) before: Vec<i64>,
    /// Sets and uuids stored before the run that it replaces: removed at
    /// the commit, by rowid up to `before`, so that the run can write its
    /// rows meanwhile without indexes.
    pub(super) sets: Vec<String>,
    pub(super) uuids: Vec<String>,
}

/// Removes what a batch replaces; the rows removed. What was stored
/// before the run is removed at the commit ([`remove_pending`]).
pub(super) fn remove(
    connection: &Connection,
    build: Option<&str>,
    pending: &mut Pending,
    removal: Removal<'_>,
) -> rusqlite::Result<usize> {
    let keys = keys();
    let d = Dialect::Sqlite;
    let existing = !pending.before.is_empty();
    match removal {
        Removal::Set(code, true) if existing => {
            pending.sets.push(code.to_owned());
            return Ok(0);
        }
        Removal::Uuid(uuid, true) if existing => {
            pending.uuids.push(uuid.to_owned());
            return Ok(0);
        }
        Removal::Migration(id) => {
            if let (Some((t, _)), Some(rowid)) =
                (keys.migrations, pending.migration_rows.remove(id))
            {
                let sql = format!(
                    "DELETE FROM {} WHERE rowid = ?1",
                    quoted(&layout().tables[t].name)
                );
                return connection.prepare_cached(&sql)?.execute([rowid]);
            }
        }
        _ => {}
    }
    let (statements, key, in_run) = match removal {
        Removal::Set(code, _) => (d.delete_set(keys), code, true),
        Removal::Uuid(uuid, _) => (d.delete_uuid(keys), uuid, true),
        Removal::Migration(id) => match keys.migrations {
            Some((t, c)) => (vec![(t, d.delete_by(t, c))], id, false),
            None => return Ok(0),
        },
        Removal::Meta(input) => (
            vec![(keys.meta.0, d.delete_by(keys.meta.0, keys.meta.1))],
            input,
            false,
        ),
    };
    let mut removed = 0;
    for (t, sql) in statements {
        let mut statement = connection.prepare_cached(&sql)?;
        removed += if in_run {
            let after = pending.before.get(t).copied().unwrap_or(0);
            statement.execute(rusqlite::params![build, key, after])?
        } else {
            statement.execute(rusqlite::params![build, key])?
        };
    }
    Ok(removed)
}

/// Removes the rows stored before the run of the sets and uuids it
/// replaced, table by table; the rows removed.
pub(super) fn remove_pending(
    c: &Connection,
    build: &Option<String>,
    pending: &Pending,
) -> rusqlite::Result<usize> {
    if pending.sets.is_empty() && pending.uuids.is_empty() {
        return Ok(0);
    }
    let (l, keys) = (layout(), keys());
    c.execute_batch(
        "CREATE TEMP TABLE cardkit_sets (code TEXT PRIMARY KEY);
         CREATE TEMP TABLE cardkit_moved (uuid TEXT PRIMARY KEY);
         CREATE TEMP TABLE cardkit_gone (uuid TEXT PRIMARY KEY);",
    )?;
    for code in &pending.sets {
        c.execute("INSERT OR IGNORE INTO cardkit_sets VALUES (?1)", [code])?;
    }
    for uuid in &pending.uuids {
        c.execute("INSERT OR IGNORE INTO cardkit_moved VALUES (?1)", [uuid])?;
        c.execute("INSERT OR IGNORE INTO cardkit_gone VALUES (?1)", [uuid])?;
    }
    let name = |t: usize| quoted(&l.tables[t].name);
    let column = |t: usize, c: usize| quoted(&l.tables[t].columns[c].name);
    let before = |t: usize| pending.before.get(t).copied().unwrap_or(0);
    for &(t, owner, uuid) in &keys.set_owned {
        if let Some(uuid) = uuid {
            c.execute(
                &format!(
                    "INSERT OR IGNORE INTO cardkit_gone SELECT {} FROM {} WHERE rowid <= {} AND build IS ?1 AND {} IN (SELECT code FROM cardkit_sets) AND {} IS NOT NULL",
                    column(t, uuid),
                    name(t),
                    before(t),
                    column(t, owner),
                    column(t, uuid)
                ),
                [build],
            )?;
        }
    }
    let mut removed = 0;
    for &(t, uuid) in &keys.uuid_owned {
        removed += c.execute(
            &format!(
                "DELETE FROM {} WHERE rowid <= {} AND build IS ?1 AND {} IN (SELECT uuid FROM cardkit_gone)",
                name(t),
                before(t),
                column(t, uuid)
            ),
            [build],
        )?;
    }
    for &(t, owner, uuid) in &keys.set_owned {
        let moved = uuid.map_or(String::new(), |uuid| {
            format!(
                " OR {} IN (SELECT uuid FROM cardkit_moved)",
                column(t, uuid)
            )
        });
        removed += c.execute(
            &format!(
                "DELETE FROM {} WHERE rowid <= {} AND build IS ?1 AND ({} IN (SELECT code FROM cardkit_sets){moved})",
                name(t),
                before(t),
                column(t, owner)
            ),
            [build],
        )?;
    }
    removed += c.execute(
        &format!(
            "DELETE FROM {} WHERE rowid <= {} AND build IS ?1 AND {} IN (SELECT code FROM cardkit_sets)",
            name(keys.sets),
            before(keys.sets),
            column(keys.sets, keys.set_code)
        ),
        [build],
    )?;
    c.execute_batch("DROP TABLE cardkit_sets; DROP TABLE cardkit_moved; DROP TABLE cardkit_gone;")?;
    Ok(removed)
}
