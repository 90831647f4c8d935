//! Where an export goes ([`Target`]): a SQLite file, a PostgreSQL URL or a
//! directory of Parquet files, as the command line names it; and its store
//! opened, when this build has it.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use crate::{Error, Mode, Store};

/// Where an export goes. Every variant is there whatever the features: a
/// build that leaves a store out refuses its target when it is opened
/// ([`crate::Exporter::open`]), and code that names the variants compiles
/// in every build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL.
    Postgres(String),
    /// A directory of Parquet files.
    Parquet(PathBuf),
}

impl Target {
    /// The feature of this crate that builds the target's store.
    #[must_use]
    pub fn feature(&self) -> &'static str {
        match self {
            Target::Sqlite(_) => "sqlite",
            Target::Postgres(_) => "postgres",
            Target::Parquet(_) => "parquet",
        }
    }

    /// The target's store, opened for a run that writes the build `build`
    /// ([`crate::Exporter::open_with`] tells the rest).
    pub(crate) fn open(
        &self,
        build: Option<&str>,
        mode: Mode,
        into_foreign: bool,
    ) -> Result<Box<dyn Store>, Error> {
        match self {
            #[cfg(feature = "sqlite")]
            Target::Sqlite(path) => crate::sqlite::open(path, build, mode, into_foreign),
            #[cfg(feature = "postgres")]
            Target::Postgres(url) => {
                Ok(Box::new(crate::postgres::Postgres::open(url, build, mode)?))
            }
            #[cfg(feature = "parquet")]
            Target::Parquet(dir) => Ok(Box::new(crate::parquet::Parquet::open(dir, build, mode)?)),
            #[cfg(not(all(feature = "sqlite", feature = "postgres", feature = "parquet")))]
            left_out => {
                // Read by the stores this build has (only SQLite reads
                // `into_foreign`).
                let _ = (build, mode, into_foreign);
                let store = match left_out {
                    Target::Sqlite(_) => "SQLite",
                    Target::Postgres(_) => "PostgreSQL",
                    Target::Parquet(_) => "Parquet",
                };
                Err(Error::new(format!(
                    "{left_out}: this build leaves out {store}: the feature `{}` of cardkit-export builds it",
                    left_out.feature()
                )))
            }
        }
    }
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

#[cfg(all(test, not(feature = "sqlite")))]
mod tests {
    use crate::{Exporter, OnInvalid, Target};

    #[test]
    fn a_target_of_a_store_left_out_is_refused_naming_its_feature() {
        let target: Target = "sqlite:cards.db".parse().expect("a target");
        let refused = Exporter::open(&target, OnInvalid::Fail, None, 1).err();
        assert_eq!(
            refused.map(|error| error.to_string()).as_deref(),
            Some("sqlite:cards.db: this build leaves out SQLite: the feature `sqlite` of cardkit-export builds it")
        );
    }
}
