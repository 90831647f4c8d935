//! A document's rows, made by following the layout's plan along the tape
//! the validator recorded as it read the document (where each object and
//! each known field's value is, and which values hold an error): the
//! document is not read again, and no tree of it is built. The rows of each
//! table are kept in one arena (the cells row after row, and the text they
//! hold in one buffer), so that a document costs a few allocations, not one
//! per value, wherever its rows are written.
//!
//! Values the validator found an error in become NULL. So do values that
//! do not fit their column (an integer beyond 64 bits, text the target
//! cannot store), each with a note that names its place and the reason:
//! such documents are only exported with `--on-invalid keep`.
//!
//! The tape holds only the members the spec defines. When the members it
//! does not define are kept ([`rows_keeping`], `--keep-unknown`), each
//! object read into a row is read again by structure alone, from where it
//! starts: every member whose value is not one of the tape's fields of that
//! object is copied, name and value as they are written, into one JSON
//! object in the row's `extra` column. This costs a second pass over the
//! objects, so it is done only when asked.

mod arena;
mod maker;

use cardkit::validate::Tape;

use maker::{rows_tracked, Making};

pub use arena::{Cell, Rows, Span, TableRows};
pub use maker::Unstorable;

/// The rows of a set (`migration` false) or a migration document, made in
/// `rows` (emptied first) by following its `tape`: the values the
/// validator found an error in become NULL, as do the values the target
/// cannot store (`unstorable`).
///
/// # Errors
/// The document cannot be read into rows: it is not UTF-8, not an object,
/// or a member that makes rows is given twice.
pub fn rows(
    bytes: &[u8],
    tape: &Tape,
    migration: bool,
    unstorable: Unstorable,
    rows: Rows,
) -> Result<Rows, String> {
    rows_keeping(bytes, tape, migration, unstorable, false, rows)
}

/// [`rows()`], keeping too (`keep_unknown`) each object's members that the
/// spec does not define, as a JSON object in its row's `extra` column (NULL
/// when it has none).
///
/// # Errors
/// As [`rows()`].
pub fn rows_keeping(
    bytes: &[u8],
    tape: &Tape,
    migration: bool,
    unstorable: Unstorable,
    keep_unknown: bool,
    rows: Rows,
) -> Result<Rows, String> {
    let made = |track, rows| {
        rows_tracked(
            bytes,
            tape,
            migration,
            Making {
                unstorable,
                keep_unknown,
                track,
            },
            rows,
        )
    };
    let rows = made(false, rows)?;
    // The places of values that could not be stored are kept only when
    // there are some: the rows are made again, keeping them.
    if rows.notes.is_empty() {
        return Ok(rows);
    }
    made(true, rows)
}
