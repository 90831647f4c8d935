//! PostgreSQL: bulk loading with `COPY` in one transaction per run, so that
//! a run that fails leaves nothing behind.

use std::io::Write;

use postgres::{Client, NoTls};

use crate::layout::{layout, ColumnType};
use crate::rows::{Cell, TableRows, Unstorable};
use crate::sqlite::{create_indexes, create_table, drop_indexes, layout_mismatch, quoted};
use crate::{date_text, Error, Store};

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
}

impl Postgres {
    /// Connects to `url` and starts the run's transaction: the tables are
    /// made if missing, checked against the layout if present, and the rows
    /// of the same build are deleted.
    ///
    /// # Errors
    /// The server cannot be reached, or holds tables of another layout.
    pub fn open(url: &str, build: Option<&str>) -> Result<Postgres, Error> {
        let at = |e: postgres::Error| Error::new(format!("postgres: {e}"));
        let mut client = Client::connect(url, NoTls).map_err(at)?;
        client.batch_execute("BEGIN").map_err(at)?;
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
        Ok(Postgres {
            client,
            pending: vec![Vec::new(); layout().tables.len()],
            build: build.map(str::to_owned),
        })
    }

    fn send(&mut self, table: usize) -> Result<(), Error> {
        if self.pending[table].is_empty() {
            return Ok(());
        }
        let table_def = &layout().tables[table];
        let at =
            |e: postgres::Error| Error::new(format!("postgres: table {}: {e}", table_def.name));
        let columns: Vec<String> = table_def.columns.iter().map(|c| quoted(&c.name)).collect();
        let sql = format!(
            "COPY {} ({}) FROM STDIN",
            quoted(&table_def.name),
            columns.join(", ")
        );
        let mut copy = self.client.copy_in(&sql).map_err(at)?;
        copy.write_all(&self.pending[table])
            .map_err(|e| Error::new(format!("postgres: table {}: {e}", table_def.name)))?;
        copy.finish().map_err(at)?;
        self.pending[table].clear();
        Ok(())
    }
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
    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
        let columns = &layout().tables[table].columns;
        for row in rows.rows() {
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
        }
        if self.pending[table].len() >= COPY_BYTES {
            self.send(table)?;
        }
        Ok(())
    }

    fn unstorable(&self) -> Unstorable {
        Unstorable { nul: true }
    }

    fn commit(mut self: Box<Self>) -> Result<(), Error> {
        for table in 0..self.pending.len() {
            self.send(table)?;
        }
        let at = |e: postgres::Error| Error::new(format!("postgres: {e}"));
        for table in &layout().tables {
            for index in create_indexes(table) {
                self.client.batch_execute(&index).map_err(at)?;
            }
        }
        self.client.batch_execute("COMMIT").map_err(at)
    }

    fn abort(mut self: Box<Self>) {
        let _ = self.client.batch_execute("ROLLBACK");
    }
}
