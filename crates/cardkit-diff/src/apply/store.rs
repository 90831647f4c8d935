//! References in a column of a table of a store made by `cardkit export`
//! (SQLite or PostgreSQL), rewritten in one transaction: every row is read
//! once, in batches, the rows whose id a notice names are updated (or
//! deleted, with `--on-delete drop`) by their row id, and the transaction is committed,
//! or rolled back on a dry run and on any failure, when nothing changes.

use cardkit_export::layout::layout;
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

/// Applies `plan` to column `column` of table `table` of `target`.
///
/// # Errors
/// The target cannot be opened or updated, the table or column is not the
/// export's, or (with [`super::OnDelete::Fail`]) a row refers to a deleted
/// id: the transaction is rolled back, nothing changes.
pub fn apply(
    target: &Target,
    table: &str,
    column: &str,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<(), Error> {
    checked(table, column)?;
    match target {
        Target::Sqlite(path) => sqlite(path, table, column, plan, options, report),
        Target::Postgres(url) => postgres(url, table, column, plan, options, report),
        Target::Parquet(_) => Err(Error::new(
            "--to parquet:…: Parquet files are written once; apply the notices to a SQLite or PostgreSQL store, or to the inputs, and export again",
        )),
    }
}

/// Makes `changes` through `write` (row id, and the new id or `None` to
/// delete the row).
fn make<E>(
    changes: &[Applied],
    mut write: impl FnMut(&str, Option<&str>) -> Result<(), E>,
) -> Result<(), E> {
    for change in changes {
        match (&change.new, change.action) {
            (Some(new), _) => write(&change.at, Some(new))?,
            (None, Action::Dropped) => write(&change.at, None)?,
            _ => {}
        }
    }
    Ok(())
}

/// How many rows are read (and their changes held) at a time.
const BATCH: usize = 4096;

/// Reports `changes` as made.
fn report_changes(changes: Vec<Applied>, report: &mut Report) {
    for change in changes {
        report.push(change);
    }
}

/// Counts the store as written unless the run is dry; whether to commit.
fn done(options: ApplyOptions, report: &mut Report) -> bool {
    report.written += usize::from(!options.dry_run);
    !options.dry_run
}

/// Decides every row of `(row id, id)`: the changes to make.
fn decide_rows(
    rows: impl Iterator<Item = (String, String)>,
    place: &str,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<Vec<Applied>, Error> {
    let mut out = Vec::new();
    for (row, id) in rows {
        report.references += 1;
        if let Some(applied) = decide(plan, options, place, &|| row.clone(), &id)? {
            out.push(applied);
        }
    }
    Ok(out)
}

fn sqlite(
    path: &std::path::Path,
    table: &str,
    column: &str,
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
    let mut connection = rusqlite::Connection::open(path).map_err(at)?;
    let tx = connection.transaction().map_err(at)?;
    let (t, c) = (quoted(table), quoted(column));
    // The rows are read in batches by row id, each batch's changes made
    // before the next is read: memory stays a batch whatever the table
    // holds (row ids do not change when a row is updated).
    {
        let mut select = tx
            .prepare(&format!(
                "SELECT rowid, {c} FROM {t} WHERE {c} IS NOT NULL AND rowid > ?1 ORDER BY rowid LIMIT {BATCH}"
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
            let rows: Vec<(i64, String)> = select
                .query_map([after], |row| Ok((row.get(0)?, row.get(1)?)))
                .map_err(at)?
                .collect::<Result<_, _>>()
                .map_err(at)?;
            let Some(&(last, _)) = rows.last() else {
                break;
            };
            after = last;
            let changes = decide_rows(
                rows.into_iter().map(|(row, id)| (row.to_string(), id)),
                table,
                plan,
                options,
                report,
            )?;
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
    table: &str,
    column: &str,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<(), Error> {
    let at = |e: postgres::Error| Error::new(format!("postgres: {e}"));
    let mut client = postgres::Client::connect(url, postgres::NoTls).map_err(at)?;
    let mut tx = client.transaction().map_err(at)?;
    let (t, c) = (quoted(table), quoted(column));
    let update = tx
        .prepare(&format!(
            "UPDATE {t} SET {c} = $1 WHERE ctid = $2::text::tid"
        ))
        .map_err(at)?;
    let delete = tx
        .prepare(&format!("DELETE FROM {t} WHERE ctid = $1::text::tid"))
        .map_err(at)?;
    // A cursor reads the rows in batches, each batch's changes made before
    // the next is fetched: memory stays a batch. The cursor sees the table
    // as it was when it was declared, so a row updated is not read again.
    tx.batch_execute(&format!(
        "DECLARE cardkit_rows NO SCROLL CURSOR FOR SELECT ctid::text, {c}::text FROM {t} WHERE {c} IS NOT NULL"
    ))
    .map_err(at)?;
    loop {
        let rows: Vec<(String, String)> = tx
            .query(&format!("FETCH {BATCH} FROM cardkit_rows"), &[])
            .map_err(at)?
            .iter()
            .map(|row| (row.get(0), row.get(1)))
            .collect();
        if rows.is_empty() {
            break;
        }
        let changes = decide_rows(rows.into_iter(), table, plan, options, report)?;
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
    tx.batch_execute("CLOSE cardkit_rows").map_err(at)?;
    if done(options, report) {
        tx.commit()
    } else {
        tx.rollback()
    }
    .map_err(at)
}
