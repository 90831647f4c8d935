//! References in a column of a table of a store made by `cardkit export`
//! (SQLite or PostgreSQL), rewritten in one transaction: every row of the
//! build asked for (or of every build) is read once, in batches, the rows
//! whose id a notice names are updated (or deleted, with `--on-delete
//! drop`) by their physical row id, and the transaction is committed, or
//! rolled back on a dry run and on any failure, when nothing changes. The
//! report names a row by its table and key ([`key_columns`]), not by its
//! physical id.

use cardkit_export::layout::{layout, Source};
use cardkit_export::sqlite::quoted;
use cardkit_export::Target;

use super::decide::{decide, Action, Applied, ApplyOptions, Report};
use super::notices::Plan;
use crate::Error;

/// The table and column, checked against the export's layout.
fn checked(table: &str, column: &str) -> Result<(), Error> {
    let tables = &layout().tables;
    let Some(t) = tables.iter().find(|t| t.name == table) else {
        let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
        return Err(Error::new(format!(
            "--table {table}: no such table in the export's layout (tables: {})",
            names.join(", ")
        )));
    };
    if !t.columns.iter().any(|c| c.name == column) {
        let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
        return Err(Error::new(format!(
            "--column {column}: no such column in table {table} (columns: {})",
            names.join(", ")
        )));
    }
    Ok(())
}

/// The builds a table holds (`None` for the build without a label), as a
/// summary or an error names them: the first ten, and how many more.
fn builds_text(builds: &[Option<String>]) -> String {
    const SHOWN: usize = 10;
    let mut names: Vec<String> = builds
        .iter()
        .take(SHOWN)
        .map(|b| match b {
            Some(label) => label.clone(),
            None => "the build without a label".to_owned(),
        })
        .collect();
    if builds.len() > SHOWN {
        names.push(format!("{} more", builds.len() - SHOWN));
    }
    names.join(", ")
}

/// Which builds a run rewrites: `build`, refused when the table has no
/// row of it (naming the builds there are), or every build there is.
fn scope(
    store: &str,
    table: &str,
    build: Option<&str>,
    builds: &[Option<String>],
) -> Result<String, Error> {
    match build {
        Some(label) if !builds.iter().any(|b| b.as_deref() == Some(label)) => {
            let there = if builds.is_empty() {
                "the table is empty".to_owned()
            } else {
                format!("builds there: {}", builds_text(builds))
            };
            Err(Error::new(format!(
                "--build {label}: {store} has no build of that label in table {table} ({there})"
            )))
        }
        Some(label) => Ok(format!("build {label}")),
        None if builds.len() == 1 => Ok(format!(
            "every build ({}, the only one)",
            builds_text(builds)
        )),
        None => Ok(format!(
            "every build ({}: {})",
            builds.len(),
            builds_text(builds)
        )),
    }
}

/// Applies `plan` to column `column` of table `table` of `target`, in the
/// rows of build `build` (`None`: every build).
///
/// # Errors
/// The target cannot be opened or updated, the table or column is not the
/// export's, the table holds no row of `build`, or (with
/// [`super::OnDelete::Fail`]) a row refers to a deleted id: the
/// transaction is rolled back, nothing changes.
pub fn apply(
    target: &Target,
    table: &str,
    column: &str,
    build: Option<&str>,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<(), Error> {
    checked(table, column)?;
    let rows = Where {
        table,
        column,
        build,
    };
    match target {
        Target::Sqlite(path) => sqlite(path, &rows, plan, options, report),
        Target::Postgres(url) => postgres(url, &rows, plan, options, report),
        Target::Parquet(_) => Err(Error::new(
            "--to parquet:…: Parquet files are written once; apply the notices to a SQLite or PostgreSQL store, or to the inputs, and export again",
        )),
    }
}

/// Makes `changes` through `write` (physical row id, and the new id or
/// `None` to delete the row).
fn make<E>(
    changes: &[(String, Applied)],
    mut write: impl FnMut(&str, Option<&str>) -> Result<(), E>,
) -> Result<(), E> {
    for (row, change) in changes {
        match (&change.new, change.action) {
            (Some(new), _) => write(row, Some(new))?,
            (None, Action::Dropped) => write(row, None)?,
            _ => {}
        }
    }
    Ok(())
}

/// The columns that name a row of `table` in a report: a card's, token's
/// or product's `uuid`; a set's `code`; a migration's `id`; a `meta` row's
/// `input`; otherwise its owner's key (`uuid`, `set_code`) with its
/// `position` or `language` when it has one. The row is still updated by
/// its physical id.
#[must_use]
pub fn key_columns(table: &str) -> Vec<String> {
    let l = layout();
    let Some(t) = l.tables.iter().find(|t| t.name == table) else {
        return Vec::new();
    };
    let owned = t
        .columns
        .iter()
        .find(|c| c.name == "uuid" && matches!(c.source, Source::Field(_)));
    if let Some(uuid) = owned {
        return vec![uuid.name.clone()];
    }
    let index = l.tables.iter().position(|x| x.name == table);
    let own = |node: usize| Some(l.nodes[node].table) == index;
    let single = if own(l.set) {
        Some("code")
    } else if own(l.migration) {
        Some("id")
    } else if Some(l.meta) == index {
        Some("input")
    } else {
        None
    };
    if let Some(name) = single.filter(|name| t.column(name).is_some()) {
        return vec![name.to_owned()];
    }
    let mut names: Vec<String> = t
        .columns
        .iter()
        .filter(|c| {
            matches!(
                c.source,
                Source::OwnerKey | Source::Position | Source::Language
            )
        })
        .map(|c| c.name.clone())
        .collect();
    if names.is_empty() {
        names = t
            .indexed
            .iter()
            .map(|&i| t.columns[i].name.clone())
            .collect();
    }
    names
}

/// A row read: its physical id (SQLite's rowid, PostgreSQL's ctid), the id
/// in the column, its build, and the values of its key columns.
struct Row {
    physical: String,
    id: String,
    build: Option<String>,
    key: Vec<Option<String>>,
}

/// A value as a report shows it: bare, or as a JSON string when it is
/// empty or holds white space, quotes, `=` or control characters.
fn shown(value: &str) -> String {
    let plain = !value.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\\' | '='));
    if plain {
        value.to_owned()
    } else {
        serde_json::to_string(value).unwrap_or_default()
    }
}

/// How a report names `row`: `uuid=…` (after `build=…` when the run
/// rewrites every build and the row has a label), with its physical id
/// after a key with a NULL (`uuid=NULL (rowid 7)`), which names no row.
fn row_name(keys: &[String], row: &Row, with_build: bool, physical: &str) -> String {
    let mut parts = Vec::new();
    if let (true, Some(build)) = (with_build, &row.build) {
        parts.push(format!("build={}", shown(build)));
    }
    for (name, value) in keys.iter().zip(&row.key) {
        let value = value.as_deref().map_or("NULL".to_owned(), shown);
        parts.push(format!("{name}={value}"));
    }
    if keys.is_empty() || row.key.iter().any(Option::is_none) {
        parts.push(format!("({physical} {})", row.physical));
    }
    parts.join(" ")
}

/// The select list of a batch: physical id, the column, `build`, the key
/// columns as text.
fn select_list(physical: &str, column: &str, keys: &[String]) -> String {
    let mut list = format!("{physical}, {column}, build");
    for key in keys {
        list.push_str(&format!(", CAST({} AS TEXT)", quoted(key)));
    }
    list
}

/// The rows a run rewrites: a column of a table, in a build or all.
struct Where<'a> {
    table: &'a str,
    column: &'a str,
    build: Option<&'a str>,
}

/// How many rows are read (and their changes held) at a time.
const BATCH: usize = 4096;

/// Reports `changes` as made.
fn report_changes(changes: Vec<(String, Applied)>, report: &mut Report) {
    for (_, change) in changes {
        report.push(change);
    }
}

/// Counts the store as written unless the run is dry; whether to commit.
fn done(options: ApplyOptions, report: &mut Report) -> bool {
    report.written += usize::from(!options.dry_run);
    !options.dry_run
}

/// Decides every row: the changes to make, each with its row's physical
/// id.
fn decide_rows(
    rows: Vec<Row>,
    at_rows: &Where,
    keys: &[String],
    physical: &str,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<Vec<(String, Applied)>, Error> {
    let with_build = at_rows.build.is_none();
    let mut out = Vec::new();
    for row in rows {
        report.references += 1;
        let name = || row_name(keys, &row, with_build, physical);
        if let Some(applied) = decide(plan, options, (at_rows.table, true), &name, &row.id)? {
            out.push((row.physical, applied));
        }
    }
    Ok(out)
}

fn sqlite(
    path: &std::path::Path,
    at_rows: &Where,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<(), Error> {
    let at = |e: rusqlite::Error| Error::new(format!("sqlite:{}: {e}", path.display()));
    if !path.is_file() {
        return Err(Error::new(format!(
            "sqlite:{}: no such database (make it with cardkit export)",
            path.display()
        )));
    }
    let Where {
        table,
        column,
        build,
    } = *at_rows;
    let mut connection = rusqlite::Connection::open(path).map_err(at)?;
    let tx = connection.transaction().map_err(at)?;
    let (t, c) = (quoted(table), quoted(column));
    // The builds the table holds (one pass over it): the one asked for
    // must be among them, and the summary names them.
    let builds: Vec<Option<String>> = tx
        .prepare(&format!("SELECT DISTINCT build FROM {t} ORDER BY build"))
        .and_then(|mut q| q.query_map([], |row| row.get(0))?.collect::<Result<_, _>>())
        .map_err(at)?;
    report.scope = Some(scope(
        &format!("sqlite:{}", path.display()),
        table,
        build,
        &builds,
    )?);
    let in_build = if build.is_some() {
        " AND build = ?2"
    } else {
        ""
    };
    let keys = key_columns(table);
    // The rows are read in batches by row id, each batch's changes made
    // before the next is read: memory stays a batch whatever the table
    // holds (row ids do not change when a row is updated).
    {
        let mut select = tx
            .prepare(&format!(
                "SELECT {} FROM {t} WHERE {c} IS NOT NULL AND rowid > ?1{in_build} ORDER BY rowid LIMIT {BATCH}",
                select_list("rowid", &c, &keys)
            ))
            .map_err(at)?;
        let mut update = tx
            .prepare(&format!("UPDATE {t} SET {c} = ?1 WHERE rowid = ?2"))
            .map_err(at)?;
        let mut delete = tx
            .prepare(&format!("DELETE FROM {t} WHERE rowid = ?1"))
            .map_err(at)?;
        let mut after = i64::MIN;
        loop {
            let mut params = vec![rusqlite::types::Value::Integer(after)];
            params.extend(build.map(|b| rusqlite::types::Value::Text(b.to_owned())));
            let rows: Vec<Row> = select
                .query_map(rusqlite::params_from_iter(params), |row| {
                    let rowid: i64 = row.get(0)?;
                    Ok(Row {
                        physical: rowid.to_string(),
                        id: row.get(1)?,
                        build: row.get(2)?,
                        key: (0..keys.len())
                            .map(|i| row.get(3 + i))
                            .collect::<Result<_, _>>()?,
                    })
                })
                .map_err(at)?
                .collect::<Result<_, _>>()
                .map_err(at)?;
            let Some(last) = rows.last().and_then(|row| row.physical.parse().ok()) else {
                break;
            };
            after = last;
            let changes = decide_rows(rows, at_rows, &keys, "rowid", plan, options, report)?;
            make(&changes, |row, new| {
                let row = row.parse::<i64>().unwrap_or_default();
                match new {
                    Some(new) => update.execute(rusqlite::params![new, row]),
                    None => delete.execute([row]),
                }
                .map(drop)
            })
            .map_err(at)?;
            report_changes(changes, report);
        }
    }
    if done(options, report) {
        tx.commit()
    } else {
        tx.rollback()
    }
    .map_err(at)
}

fn postgres(
    url: &str,
    at_rows: &Where,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<(), Error> {
    let at = |e: postgres::Error| Error::new(format!("postgres: {e}"));
    let mut client = postgres::Client::connect(url, postgres::NoTls).map_err(at)?;
    let Where {
        table,
        column,
        build,
    } = *at_rows;
    let mut tx = client.transaction().map_err(at)?;
    let (t, c) = (quoted(table), quoted(column));
    let builds: Vec<Option<String>> = tx
        .query(
            &format!("SELECT DISTINCT build FROM {t} ORDER BY build NULLS FIRST"),
            &[],
        )
        .map_err(at)?
        .iter()
        .map(|row| row.get(0))
        .collect();
    report.scope = Some(scope("postgres", table, build, &builds)?);
    let update = tx
        .prepare(&format!(
            "UPDATE {t} SET {c} = $1 WHERE ctid = $2::text::tid"
        ))
        .map_err(at)?;
    let delete = tx
        .prepare(&format!("DELETE FROM {t} WHERE ctid = $1::text::tid"))
        .map_err(at)?;
    // A portal (a cursor) reads the rows in batches, each batch's changes
    // made before the next is fetched: memory stays a batch. It sees the
    // table as it was when it was opened, so a row updated is not read
    // again.
    let in_build = if build.is_some() {
        " AND build = $1"
    } else {
        ""
    };
    let keys = key_columns(table);
    let select = tx
        .prepare(&format!(
            "SELECT {} FROM {t} WHERE {c} IS NOT NULL{in_build}",
            select_list("ctid::text", &format!("{c}::text"), &keys)
        ))
        .map_err(at)?;
    let portal = match build {
        Some(build) => tx.bind(&select, &[&build]),
        None => tx.bind(&select, &[]),
    }
    .map_err(at)?;
    loop {
        let rows: Vec<Row> = tx
            .query_portal(&portal, BATCH as i32)
            .map_err(at)?
            .iter()
            .map(|row| Row {
                physical: row.get(0),
                id: row.get(1),
                build: row.get(2),
                key: (0..keys.len()).map(|i| row.get(3 + i)).collect(),
            })
            .collect();
        if rows.is_empty() {
            break;
        }
        let changes = decide_rows(rows, at_rows, &keys, "ctid", plan, options, report)?;
        make(&changes, |row, new| {
            match new {
                Some(new) => tx.execute(&update, &[&new, &row]),
                None => tx.execute(&delete, &[&row]),
            }
            .map(drop)
        })
        .map_err(at)?;
        report_changes(changes, report);
    }
    drop(portal);
    if done(options, report) {
        tx.commit()
    } else {
        tx.rollback()
    }
    .map_err(at)
}
