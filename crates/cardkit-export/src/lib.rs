//! Validated trading-card documents exported to tables: SQLite (embedded),
//! PostgreSQL and Parquet, in one relational layout generated from the field
//! tables of `cardkit::schema` ([`mod@layout`]).
//!
//! Each input is read once: [`cardkit::validate::Extracting::with_tape`]
//! validates every document, recording where its values are and which hold
//! an error, and on the same threads its rows are made along that tape
//! ([`rows`]), without reading the document again; the
//! rows are written in file order by the target's [`Store`], on a thread of
//! its own while the next documents are validated, in one transaction
//! (PostgreSQL, and SQLite into an existing database) or under temporary
//! names (Parquet, and a new SQLite database), so that a run that fails
//! leaves nothing half-written.
//!
//! When the run checks the references between the documents
//! (`--references`), each set document's facts are read from the same tape
//! ([`Exporter::reading_references`]), and the findings, settled once every
//! input is read, are written into the table `reference_findings` with the
//! rest ([`Exporter::found_reference`]).
//!
//! Each store is a feature of this crate, all on by default: `sqlite`,
//! `postgres` and `parquet`. A build without one refuses its [`Target`]
//! when it is opened, naming the feature; without any, documents are still
//! exported into [`arrow::Tables`], in memory.
//!
//! ```no_run
//! use cardkit::Options;
//! use cardkit_export::{Exporter, OnInvalid, Target};
//!
//! let target: Target = "sqlite:cards.db".parse().unwrap();
//! let mut exporter = Exporter::open(&target, OnInvalid::Fail, Some("2024-05"), 2).unwrap();
//! let file = std::fs::File::open("AllPrintings.json").unwrap();
//! exporter.input("AllPrintings.json", file, &Options::default(), |_report| {}, |note| eprintln!("{note}")).unwrap();
//! let totals = exporter.finish().unwrap();
//! println!("{} rows", totals.rows.iter().sum::<usize>());
//! ```

pub mod arrow;
mod ending;
mod exporter;
mod finding_rows;
pub mod keys;
pub mod layout;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "postgres")]
pub mod postgres;
pub mod references;
pub mod rows;
mod sql;
#[cfg(feature = "sqlite")]
pub mod sqlite;
pub mod stale;
mod store;
mod target;
mod twice;
mod writer;

pub use crate::ending::{Ending, InputsRead};
pub use crate::exporter::{Exporter, InputError, OnInvalid, Totals, LEFT_OUT, TOLD_DUPLICATES};
pub use crate::keys::Changes;
pub use crate::store::{date_text, Error, Mode, Store};
pub use crate::target::Target;
