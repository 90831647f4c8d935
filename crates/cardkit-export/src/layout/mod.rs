//! The relational layout of an export, generated from the field tables of
//! `cardkit::schema`: which tables there are, each column's name, type,
//! nullability, version tag and meaning, and how each is filled from a
//! document. One layout for every target.
//!
//! The rules:
//! - a set is a row of `sets`, a migration a row of `migrations`;
//! - a field holding a model (`identifiers`) makes a row of that model's
//!   table, keyed by its owner's key; a field holding a list of models
//!   (`cards`, `foreignData`) makes a row per item, with its `position`;
//!   a model's table is shared by every place it appears (the identifiers of
//!   cards, tokens and sealed products are one table);
//! - a set's `translations` become one row per set and language;
//! - scalar fields are columns (snake_case of the wire name); lists of
//!   scalars are list columns; values whose inner structure is not shown
//!   (`booster`) are JSON text;
//! - every table has a `build` column (a partition in Parquet).
//!
//! Members the spec does not define are not exported, unless the run is
//! asked to keep them (`--keep-unknown`): then each object's are kept as
//! one JSON object in the `extra` column of its row. Every table of a model
//! has the column, with or without the flag (NULL without it), so that runs
//! with and without the flag add to the same store. A set's translations
//! have none (a member there would be a language the spec does not name).

mod describe;
mod generate;
mod tables;

use std::sync::OnceLock;

use generate::generate;

pub use generate::snake_case;
pub use tables::{
    Column, ColumnType, FindingFact, Layout, MetaFact, Node, Place, Source, Table, LAYOUT_VERSION,
};

/// The layout, generated once from the field tables.
#[must_use]
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(generate)
}
