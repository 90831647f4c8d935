//! PostgreSQL: bulk loading with `COPY` in one transaction per run, so that
//! a run that fails leaves nothing behind.

use std::io::Write;

use postgres::{Client, NoTls};

use crate::keys::{keys, Changes, Dialect, Known, Removal};
use crate::layout::{layout, ColumnType};
use crate::rows::{Cell, Rows, TableRows, Unstorable};
use crate::sql::{create_indexes, create_table, drop_indexes, layout_mismatch, quoted};
use crate::{date_text, Error, Mode, Store};

/// Rows of a table gathered as COPY text before they are sent.
const COPY_BYTES: usize = 4 << 20;

fn sql_type(ty: ColumnType) -> &'static str {
    match ty {
        ColumnType::Text => "text",
        ColumnType::Integer => "bigint",
        ColumnType::Real => "double precision",
        ColumnType::Boolean => "boolean",
        ColumnType::Date => "date",
        ColumnType::TextList => "text[]",
        ColumnType::Json => "json",
        ColumnType::Members => "jsonb",
    }
}

/// The type names `information_schema.columns` gives for [`sql_type`].
fn catalog_type(ty: ColumnType) -> &'static str {
    match ty {
        ColumnType::TextList => "ARRAY",
        other => sql_type(other),
    }
}

/// An export into a PostgreSQL database.
pub struct Postgres {
    client: Client,
    /// COPY text gathered per table.
    pending: Vec<Vec<u8>>,
    build: Option<String>,
    known: Known,
    changes: Changes,
}

/// A PostgreSQL error with its whole cause: the server's message, detail
/// and hint, or the connection's reason.
fn described(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let mut text = format!("{}: {}", db.severity(), db.message());
        if let Some(detail) = db.detail() {
            text.push_str(&format!(" (detail: {detail})"));
        }
        if let Some(hint) = db.hint() {
            text.push_str(&format!(" (hint: {hint})"));
        }
        return text;
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

impl Postgres {
    /// Connects to `url` and starts the run's transaction: the tables are
    /// made if missing and checked against the layout if present; the rows
    /// of the same build are deleted ([`Mode::Replace`]) or their keys read
    /// ([`Mode::Append`]: a set exported again replaces its rows, the
    /// others are kept).
    ///
    /// # Errors
    /// The server cannot be reached, or holds tables of another layout.
    pub fn open(url: &str, build: Option<&str>, mode: Mode) -> Result<Postgres, Error> {
        let at = |e: postgres::Error| Error::new(format!("postgres: {}", described(&e)));
        let mut client = Client::connect(url, NoTls).map_err(at)?;
        client.batch_execute("BEGIN").map_err(at)?;
        // The schema may hold anything else (a database server is shared):
        // a user's views over cardkit's tables, their indexes and triggers
        // are theirs. But a relation with the name of one of cardkit's
        // tables must be that table (`CREATE TABLE IF NOT EXISTS` would
        // pass over a view of that name, and the rows would go nowhere).
        let ours: Vec<&str> = layout().tables.iter().map(|t| t.name.as_str()).collect();
        let other = client
            .query_opt(
                "SELECT c.relname::text, CASE c.relkind WHEN 'v' THEN 'view' \
                 WHEN 'm' THEN 'materialized view' WHEN 'f' THEN 'foreign table' \
                 WHEN 'S' THEN 'sequence' WHEN 'i' THEN 'index' ELSE 'relation' END \
                 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                 WHERE n.nspname = current_schema() AND c.relname = ANY($1) \
                 AND c.relkind NOT IN ('r', 'p') ORDER BY 1 LIMIT 1",
                &[&ours],
            )
            .map_err(at)?;
        if let Some(row) = other {
            let (name, kind): (String, String) = (row.get(0), row.get(1));
            return Err(Error::new(format!(
                "postgres: the schema holds a {kind} named `{name}`, the name of a table cardkit writes: rename or drop the {kind}, or export into another schema"
            )));
        }
        for table in &layout().tables {
            client
                .batch_execute(&create_table(table, sql_type))
                .map_err(at)?;
            let found: Vec<(String, String)> = client
                .query(
                    "SELECT column_name::text, data_type::text FROM information_schema.columns \
                     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
                    &[&table.name],
                )
                .map_err(at)?
                .iter()
                .map(|row| (row.get(0), row.get(1)))
                .collect();
            if let Some(why) = layout_mismatch(table, &found, catalog_type) {
                return Err(Error::new(format!("postgres: {why}")));
            }
            if mode == Mode::Replace {
                client
                    .execute(
                        &format!(
                            "DELETE FROM {} WHERE build IS NOT DISTINCT FROM $1",
                            quoted(&table.name)
                        ),
                        &[&build],
                    )
                    .map_err(at)?;
                for drop in drop_indexes(table) {
                    client.batch_execute(&drop).map_err(at)?;
                }
            }
        }
        let mut known = Known::default();
        if mode == Mode::Append {
            let keys = keys();
            let d = Dialect::Postgres;
            let mut pairs = |sql: String| -> Result<Vec<(String, Option<String>)>, Error> {
                Ok(client
                    .query(&sql, &[&build])
                    .map_err(at)?
                    .iter()
                    .filter_map(|row| Some((row.get::<_, Option<String>>(0)?, row.get(1))))
                    .collect())
            };
            for (code, _) in pairs(d.select(keys.sets, keys.set_code, None))? {
                known.set_before(code);
            }
            for &(t, owner, uuid) in &keys.set_owned {
                let Some(uuid) = uuid else { continue };
                for (id, code) in pairs(d.select(t, uuid, Some(owner)))? {
                    if let Some(code) = code {
                        known.uuid_before(&id, &code);
                    }
                }
            }
            if let Some((t, id)) = keys.migrations {
                for (id, _) in pairs(d.select(t, id, None))? {
                    known.migration_before(id);
                }
            }
            for (input, _) in pairs(d.select(keys.meta.0, keys.meta.1, None))? {
                known.meta_before(input);
            }
        }
        Ok(Postgres {
            client,
            pending: vec![Vec::new(); layout().tables.len()],
            build: build.map(str::to_owned),
            known,
            changes: Changes {
                emptied: mode == Mode::Replace,
                ..Changes::default()
            },
        })
    }

    fn send(&mut self, table: usize) -> Result<(), Error> {
        send(&mut self.client, &mut self.pending[table], table)
    }
}

/// Sends the COPY text gathered for `table`.
fn send(client: &mut Client, pending: &mut Vec<u8>, table: usize) -> Result<(), Error> {
    {
        if pending.is_empty() {
            return Ok(());
        }
        let table_def = &layout().tables[table];
        let at = |e: postgres::Error| {
            Error::new(format!(
                "postgres: table {}: {}",
                table_def.name,
                described(&e)
            ))
        };
        let columns: Vec<String> = table_def.columns.iter().map(|c| quoted(&c.name)).collect();
        let sql = format!(
            "COPY {} ({}) FROM STDIN",
            quoted(&table_def.name),
            columns.join(", ")
        );
        let mut copy = client.copy_in(&sql).map_err(at)?;
        copy.write_all(pending)
            .map_err(|e| Error::new(format!("postgres: table {}: {e}", table_def.name)))?;
        copy.finish().map_err(at)?;
        pending.clear();
        Ok(())
    }
}

/// Removes what a batch replaces, once every row gathered before it is
/// sent; the rows removed.
fn remove(
    client: &mut Client,
    pending: &mut [Vec<u8>],
    build: Option<&str>,
    removal: Removal<'_>,
) -> Result<usize, Error> {
    for (table, pending) in pending.iter_mut().enumerate() {
        send(client, pending, table)?;
    }
    let keys = keys();
    let d = Dialect::Postgres;
    let (statements, key) = match removal {
        Removal::Set(code, _) => (d.delete_set(keys), code),
        Removal::Uuid(uuid, _) => (d.delete_uuid(keys), uuid),
        Removal::Migration(id) => match keys.migrations {
            Some((t, c)) => (vec![(t, d.delete_by(t, c))], id),
            None => return Ok(0),
        },
        Removal::Meta(input) => (
            vec![(keys.meta.0, d.delete_by(keys.meta.0, keys.meta.1))],
            input,
        ),
    };
    let mut removed = 0;
    for (_, sql) in statements {
        let n = client
            .execute(&sql, &[&build, &key])
            .map_err(|e| Error::new(format!("postgres: {}", described(&e))))?;
        removed += usize::try_from(n).unwrap_or(usize::MAX);
    }
    Ok(removed)
}

impl Postgres {
    /// Gathers one row of `table` as COPY text, sent once there is enough.
    fn write_row(&mut self, table: usize, row: &[Cell], rows: &TableRows) -> Result<(), Error> {
        let columns = &layout().tables[table].columns;
        let out = &mut self.pending[table];
        match &self.build {
            Some(build) => copy_text(out, build),
            None => out.extend_from_slice(b"\\N"),
        }
        for (i, cell) in row.iter().enumerate().skip(1) {
            out.push(b'\t');
            copy_cell(out, cell, rows).map_err(|why| {
                Error::new(format!(
                    "postgres: table {}, column {}: {why}",
                    layout().tables[table].name,
                    columns[i].name
                ))
            })?;
        }
        out.push(b'\n');
        if self.pending[table].len() >= COPY_BYTES {
            self.send(table)?;
        }
        Ok(())
    }
}

/// The statements that index `table` in PostgreSQL: hash indexes, which
/// hold a value of any length (a B-tree entry is limited to about a third
/// of a page, 2,704 bytes: a valid card name of 3,000 characters failed
/// the whole run), and serve the equality lookups and joins the indexed
/// columns (uuid, name, set codes) are for.
fn pg_indexes(table: &crate::layout::Table) -> Vec<String> {
    let on = format!("ON {} (", quoted(&table.name));
    let hashed = format!("ON {} USING hash (", quoted(&table.name));
    create_indexes(table)
        .into_iter()
        .map(|sql| sql.replacen(&on, &hashed, 1))
        .collect()
}

/// Appends `text` escaped for COPY's text format.
fn copy_text(out: &mut Vec<u8>, text: &str) {
    for byte in text.bytes() {
        match byte {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            other => out.push(other),
        }
    }
}

/// Appends one cell in COPY's text format. The documents' text holds no
/// NUL (see [`Store::unstorable`]): the check is for text made elsewhere
/// (the `meta` table's).
fn copy_cell(out: &mut Vec<u8>, cell: &Cell, rows: &TableRows) -> Result<(), String> {
    let nul = |text: &str| {
        if text.contains('\0') {
            Err("PostgreSQL text cannot hold the NUL character (U+0000)".to_owned())
        } else {
            Ok(())
        }
    };
    match *cell {
        Cell::Null => out.extend_from_slice(b"\\N"),
        Cell::Text(span) => {
            let text = rows.text(span);
            nul(text)?;
            copy_text(out, text);
        }
        Cell::Integer(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Cell::Real(x) => out.extend_from_slice(format!("{x:?}").as_bytes()),
        Cell::Boolean(b) => out.push(if b { b't' } else { b'f' }),
        Cell::Date(days) => out.extend_from_slice(date_text(days).as_bytes()),
        Cell::TextList(span) => {
            let mut array = String::from("{");
            for (i, item) in rows.items(span).enumerate() {
                nul(item)?;
                if i > 0 {
                    array.push(',');
                }
                array.push('"');
                for c in item.chars() {
                    if c == '"' || c == '\\' {
                        array.push('\\');
                    }
                    array.push(c);
                }
                array.push('"');
            }
            array.push('}');
            copy_text(out, &array);
        }
    }
    Ok(())
}

impl Store for Postgres {
    fn write_rows(&mut self, rows: &Rows) -> Result<(), Error> {
        let (client, pending, build) = (&mut self.client, &mut self.pending, self.build.as_deref());
        let twice = self
            .known
            .prepare(&rows.tables, &mut self.changes, |removal| {
                remove(client, pending, build, removal)
            })?;
        for (table, table_rows) in rows.tables.iter().enumerate() {
            if table_rows.is_empty() {
                continue;
            }
            match keys().migrations {
                // A migration twice in the batch: each row after removing
                // the one before.
                Some((t, id)) if t == table && !twice.is_empty() => {
                    for row in table_rows.rows() {
                        if let Some(id) = crate::keys::text(table_rows, row, id) {
                            if twice.contains(id) {
                                remove(
                                    &mut self.client,
                                    &mut self.pending,
                                    self.build.as_deref(),
                                    Removal::Migration(id),
                                )?;
                            }
                        }
                        self.write_row(table, row, table_rows)?;
                    }
                }
                _ => self.write(table, table_rows)?,
            }
        }
        Ok(())
    }

    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
        for row in rows.rows() {
            self.write_row(table, row, rows)?;
        }
        Ok(())
    }

    fn unstorable(&self) -> Unstorable {
        Unstorable { nul: true }
    }

    fn commit(mut self: Box<Self>) -> Result<Changes, Error> {
        for table in 0..self.pending.len() {
            self.send(table)?;
        }
        let at = |e: postgres::Error| Error::new(format!("postgres: {}", described(&e)));
        for table in &layout().tables {
            for index in pg_indexes(table) {
                self.client.batch_execute(&index).map_err(at)?;
            }
            // What the table is, for whoever finds it (`\\dt+`).
            self.client
                .batch_execute(&format!(
                    "COMMENT ON TABLE {} IS 'cardkit export, layout version {}'",
                    quoted(&table.name),
                    crate::layout::LAYOUT_VERSION
                ))
                .map_err(at)?;
        }
        self.client.batch_execute("COMMIT").map_err(at)?;
        Ok(std::mem::take(&mut self.changes))
    }

    fn abort(mut self: Box<Self>) {
        let _ = self.client.batch_execute("ROLLBACK");
    }
}
