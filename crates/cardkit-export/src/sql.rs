//! The SQL statements of the layout's tables and indexes, as SQLite keeps
//! them in its schema, and the check of an existing table against the
//! layout. Shared by SQLite ([`crate::sqlite`]), PostgreSQL
//! ([`crate::postgres`]) and the statements that replace a document's rows
//! ([`crate::keys`]), which all import it: it imports none of them. The
//! statements are built with the stores that run them (features `sqlite`
//! and `postgres`); the quoting, with every build.

#[cfg(any(feature = "sqlite", feature = "postgres"))]
use crate::layout::{ColumnType, Table};

#[cfg(feature = "sqlite")]
pub(crate) fn sql_type(ty: ColumnType) -> &'static str {
    match ty {
        ColumnType::Text | ColumnType::TextList | ColumnType::Json | ColumnType::Members => "TEXT",
        ColumnType::Date => "DATE",
        ColumnType::Integer => "INTEGER",
        ColumnType::Real => "REAL",
        ColumnType::Boolean => "BOOLEAN",
    }
}

/// `"name"`, quoted as an SQL identifier.
pub fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The statement that creates `table` (every column may be NULL: invalid
/// values kept with `--on-invalid keep` are NULL).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn create_table(table: &Table, sql_type: impl Fn(ColumnType) -> &'static str) -> String {
    table_sql(table, sql_type).replacen("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1)
}

/// `CREATE TABLE "name" (...)`, as SQLite keeps it in its schema.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn table_sql(table: &Table, sql_type: impl Fn(ColumnType) -> &'static str) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|c| format!("{} {}", quoted(&c.name), sql_type(c.ty)))
        .collect();
    format!(
        "CREATE TABLE {} ({})",
        quoted(&table.name),
        columns.join(", ")
    )
}

/// `CREATE INDEX "table_column" ON "table" ("column")`, as SQLite keeps it
/// in its schema.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn index_sql(table: &Table, column: usize) -> String {
    let column = &table.columns[column].name;
    format!(
        "CREATE INDEX {} ON {} ({})",
        quoted(&format!("{}_{}", table.name, column)),
        quoted(&table.name),
        quoted(column)
    )
}

/// The names of the indexes of `table`, with the column each is on.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn indexes(table: &Table) -> impl Iterator<Item = (String, &str)> {
    table.indexed.iter().map(|&i| {
        let column = table.columns[i].name.as_str();
        (quoted(&format!("{}_{}", table.name, column)), column)
    })
}

/// The statements that index `table`, made when the rows are in (an index
/// kept up to date row by row costs several times more).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn create_indexes(table: &Table) -> Vec<String> {
    table
        .indexed
        .iter()
        .map(|&column| {
            index_sql(table, column).replacen("CREATE INDEX", "CREATE INDEX IF NOT EXISTS", 1)
        })
        .collect()
}

/// The statements that drop the indexes of `table` before rows are loaded,
/// in the run's transaction: a failed run gets them back.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn drop_indexes(table: &Table) -> Vec<String> {
    indexes(table)
        .map(|(index, _)| format!("DROP INDEX IF EXISTS {index}"))
        .collect()
}

/// Why the columns of an existing table are not the layout's, if they are
/// not.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub(crate) fn layout_mismatch(
    table: &Table,
    found: &[(String, String)],
    sql_type: impl Fn(ColumnType) -> &'static str,
) -> Option<String> {
    let expected: Vec<(String, String)> = table
        .columns
        .iter()
        .map(|c| (c.name.clone(), sql_type(c.ty).to_ascii_lowercase()))
        .collect();
    let found: Vec<(String, String)> = found
        .iter()
        .map(|(n, t)| (n.clone(), t.to_ascii_lowercase()))
        .collect();
    (expected != found).then(|| {
        let missing: Vec<&str> = expected
            .iter()
            .filter(|e| !found.contains(e))
            .map(|(n, _)| n.as_str())
            .collect();
        let extra: Vec<&str> = found
            .iter()
            .filter(|f| !expected.contains(f))
            .map(|(n, _)| n.as_str())
            .collect();
        format!(
            "table `{}` exists with other columns than layout version {} (missing or of another type: {}; not in the layout: {}): export into a new database",
            table.name,
            crate::layout::LAYOUT_VERSION,
            if missing.is_empty() { "none".into() } else { missing.join(", ") },
            if extra.is_empty() { "none".into() } else { extra.join(", ") },
        )
    })
}
