//! Where an export goes ([`Target`]): a SQLite file, a PostgreSQL URL or a
//! directory of Parquet files, as the command line names it.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Where an export goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL.
    Postgres(String),
    /// A directory of Parquet files.
    Parquet(PathBuf),
}

impl FromStr for Target {
    type Err = String;

    /// `sqlite:PATH`, `postgres://…` (or `postgresql://…`), `parquet:DIR`,
    /// or a path ending in `.db`, `.sqlite` or `.sqlite3` (SQLite).
    fn from_str(text: &str) -> Result<Target, String> {
        if let Some(path) = text.strip_prefix("sqlite:") {
            return non_empty(path, "sqlite:PATH").map(|p| Target::Sqlite(p.into()));
        }
        if let Some(dir) = text.strip_prefix("parquet:") {
            return non_empty(dir, "parquet:DIR").map(|d| Target::Parquet(d.into()));
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Target::Postgres(text.to_owned()));
        }
        let lower = text.to_ascii_lowercase();
        if [".db", ".sqlite", ".sqlite3"]
            .iter()
            .any(|e| lower.ends_with(e))
        {
            return Ok(Target::Sqlite(text.into()));
        }
        Err(format!(
            "`{text}` names no target: give sqlite:PATH (or a path ending in .db or .sqlite), postgres://… or parquet:DIR"
        ))
    }
}

fn non_empty<'a>(text: &'a str, form: &str) -> Result<&'a str, String> {
    if text.is_empty() {
        Err(format!("{form}: the path is empty"))
    } else {
        Ok(text)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Sqlite(path) => write!(f, "sqlite:{}", path.display()),
            // The URL may hold a password.
            Target::Postgres(_) => f.write_str("postgres"),
            Target::Parquet(dir) => write!(f, "parquet:{}", dir.display()),
        }
    }
}
