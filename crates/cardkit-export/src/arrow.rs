//! The export's tables as Arrow columns: a builder per column type and the
//! schema of a table, shared by the Parquet files and by every reader that
//! takes the tables as Arrow record batches; and [`Tables`], the store
//! that collects them in memory.

use std::sync::{Arc, Mutex};

use arrow_array::builder::{
    BooleanBuilder, Date32Builder, Float64Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use crate::keys::Changes;
use crate::layout::{layout, ColumnType, Table};
use crate::rows::{Cell, Rows, TableRows};
use crate::twice::Twice;
use crate::{Error, Store};

/// The column builders of one table.
pub(crate) enum Builder {
    Text(StringBuilder),
    Integer(Int64Builder),
    Real(Float64Builder),
    Boolean(BooleanBuilder),
    Date(Date32Builder),
    List(ListBuilder<StringBuilder>),
}

impl Builder {
    pub(crate) fn new(ty: ColumnType) -> Builder {
        match ty {
            ColumnType::Text | ColumnType::Json | ColumnType::Members => {
                Builder::Text(StringBuilder::new())
            }
            ColumnType::Integer => Builder::Integer(Int64Builder::new()),
            ColumnType::Real => Builder::Real(Float64Builder::new()),
            ColumnType::Boolean => Builder::Boolean(BooleanBuilder::new()),
            ColumnType::Date => Builder::Date(Date32Builder::new()),
            ColumnType::TextList => Builder::List(ListBuilder::new(StringBuilder::new())),
        }
    }

    /// Appends `cell`; a cell of another type than the column's (which the
    /// row maker never makes) is NULL. Returns the bytes of text appended.
    pub(crate) fn append(&mut self, cell: Cell, rows: &TableRows) -> usize {
        match (self, cell) {
            (Builder::Text(b), Cell::Text(span)) => {
                let text = rows.text(span);
                b.append_value(text);
                return text.len();
            }
            (Builder::Text(b), _) => b.append_null(),
            (Builder::Integer(b), Cell::Integer(n)) => b.append_value(n),
            (Builder::Integer(b), _) => b.append_null(),
            (Builder::Real(b), Cell::Real(x)) => b.append_value(x),
            (Builder::Real(b), _) => b.append_null(),
            (Builder::Boolean(b), Cell::Boolean(x)) => b.append_value(x),
            (Builder::Boolean(b), _) => b.append_null(),
            (Builder::Date(b), Cell::Date(days)) => b.append_value(days),
            (Builder::Date(b), _) => b.append_null(),
            (Builder::List(b), Cell::TextList(span)) => {
                let mut bytes = 0;
                for item in rows.items(span) {
                    b.values().append_value(item);
                    bytes += item.len();
                }
                b.append(true);
                return bytes;
            }
            (Builder::List(b), _) => b.append(false),
        }
        0
    }

    pub(crate) fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::Integer(b) => Arc::new(b.finish()),
            Builder::Real(b) => Arc::new(b.finish()),
            Builder::Boolean(b) => Arc::new(b.finish()),
            Builder::Date(b) => Arc::new(b.finish()),
            Builder::List(b) => Arc::new(b.finish()),
        }
    }
}

/// The Arrow schema of a table's file: every column but `build` (the
/// partition), each nullable.
pub(crate) fn schema(table: &Table) -> SchemaRef {
    let fields: Vec<Field> = table.columns[1..]
        .iter()
        .map(|c| {
            let ty = match c.ty {
                ColumnType::Text | ColumnType::Json | ColumnType::Members => DataType::Utf8,
                ColumnType::Integer => DataType::Int64,
                ColumnType::Real => DataType::Float64,
                ColumnType::Boolean => DataType::Boolean,
                ColumnType::Date => DataType::Date32,
                ColumnType::TextList => {
                    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
                }
            };
            let field = Field::new(&c.name, ty, true);
            if c.ty == ColumnType::Members {
                // A string of the JSON logical type.
                field.with_extension_type(arrow_schema::extension::Json::default())
            } else {
                field
            }
        })
        .collect();
    Arc::new(Schema::new(fields))
}

/// Rows gathered per table before they become one record batch: large
/// batches make few chunks for the reader (pandas, DuckDB), and the
/// builders of the fourteen tables hold at most this many rows each.
const BATCH_ROWS: usize = 64 * 1024;
/// ...or fewer, once their text takes this many bytes.
const BATCH_BYTES: usize = 16 << 20;

/// One table of the export as Arrow record batches: the columns of the
/// table's Parquet file (every column but `build`, which a read of one run
/// does not have), in the layout's order.
#[derive(Debug, Clone)]
pub struct ArrowTable {
    /// The table's name in the layout (`sets`, `cards`...).
    pub name: String,
    /// Its columns, as the `parquet` module writes them.
    pub schema: SchemaRef,
    /// Its rows, in the order the documents were read.
    pub batches: Vec<RecordBatch>,
}

impl ArrowTable {
    /// How many rows the table holds.
    #[must_use]
    pub fn num_rows(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }
}

/// One table being collected.
struct Collecting {
    schema: SchemaRef,
    builders: Vec<Builder>,
    buffered: usize,
    buffered_bytes: usize,
    batches: Vec<RecordBatch>,
}

impl Collecting {
    fn flush(&mut self) -> Result<(), Error> {
        if self.buffered == 0 {
            return Ok(());
        }
        let columns: Vec<ArrayRef> = self.builders.iter_mut().map(Builder::finish).collect();
        self.buffered = 0;
        self.buffered_bytes = 0;
        let batch = RecordBatch::try_new(Arc::clone(&self.schema), columns)
            .map_err(|e| Error::new(format!("a record batch of the tables: {e}")))?;
        self.batches.push(batch);
        Ok(())
    }
}

/// Where [`Tables`] leaves the tables when its run commits.
#[derive(Clone, Default)]
pub struct Collected(Arc<Mutex<Option<Vec<ArrowTable>>>>);

impl Collected {
    /// The tables of the run, once it has committed (a run that failed or
    /// was aborted leaves none); taken, so a second call gives `None`.
    #[must_use]
    pub fn take(&self) -> Option<Vec<ArrowTable>> {
        self.0.lock().ok()?.take()
    }
}

/// A store that collects each table's rows in memory as Arrow record
/// batches, built as the Parquet files' are: the export read from Python
/// (`pyarrow`), DuckDB or any reader of Arrow, without a file between.
///
/// A set read twice in the run (by code), or a migration (by id), is kept
/// as the later read, as in the other stores.
///
/// ```
/// use cardkit_export::arrow::Tables;
/// use cardkit_export::{Exporter, OnInvalid};
///
/// let (store, collected) = Tables::new();
/// let mut exporter = Exporter::with_store(Box::new(store), OnInvalid::Fail, 1);
/// // The smallest valid set, as `cardkit dummy set` prints it.
/// let set = serde_json::to_vec(&cardkit::schema::minimal::dummy(cardkit::Kind::Set)).unwrap();
/// exporter.input("set.json", &set[..], &Default::default(), |_| {}, |_| {}).unwrap();
/// exporter.finish().unwrap();
/// let tables = collected.take().unwrap();
/// let sets = tables.iter().find(|t| t.name == "sets").unwrap();
/// assert_eq!(sets.num_rows(), 1);
/// ```
pub struct Tables {
    tables: Vec<Collecting>,
    collected: Collected,
    twice: Twice,
}

impl Tables {
    /// A store collecting every table of the layout, and where it leaves
    /// them when the run commits.
    #[must_use]
    pub fn new() -> (Tables, Collected) {
        let collected = Collected::default();
        let tables = layout()
            .tables
            .iter()
            .map(|table| Collecting {
                schema: schema(table),
                builders: table.columns[1..]
                    .iter()
                    .map(|c| Builder::new(c.ty))
                    .collect(),
                buffered: 0,
                buffered_bytes: 0,
                batches: Vec::new(),
            })
            .collect();
        let count = layout().tables.len();
        let store = Tables {
            tables,
            collected: collected.clone(),
            twice: Twice::new(count),
        };
        (store, collected)
    }
}

impl Store for Tables {
    fn write_rows(&mut self, rows: &Rows) -> Result<(), Error> {
        self.twice.note(rows);
        self.twice.wrote(rows);
        for (t, table) in rows.tables.iter().enumerate() {
            if !table.is_empty() {
                self.write(t, table)?;
            }
        }
        Ok(())
    }

    fn write(&mut self, table: usize, rows: &TableRows) -> Result<(), Error> {
        let collecting = &mut self.tables[table];
        for row in rows.rows() {
            for (builder, &cell) in collecting.builders.iter_mut().zip(&row[1..]) {
                collecting.buffered_bytes += builder.append(cell, rows);
            }
            collecting.buffered += 1;
            if collecting.buffered >= BATCH_ROWS || collecting.buffered_bytes >= BATCH_BYTES {
                collecting.flush()?;
            }
        }
        Ok(())
    }

    fn commit(self: Box<Self>) -> Result<Changes, Error> {
        let Tables {
            tables,
            collected,
            mut twice,
        } = *self;
        let mut done = Vec::with_capacity(tables.len());
        for ((t, mut table), named) in tables.into_iter().enumerate().zip(&layout().tables) {
            table.flush()?;
            let dropped = std::mem::take(&mut twice.dropped[t]);
            done.push(ArrowTable {
                name: named.name.clone(),
                batches: left_out(table.batches, dropped),
                schema: table.schema,
            });
        }
        if let Ok(mut slot) = collected.0.lock() {
            *slot = Some(done);
        }
        Ok(Changes::default())
    }

    fn abort(self: Box<Self>) {}
}

/// `batches` without the rows of `dropped` (ranges of row numbers): slices
/// of the batches, sharing their memory.
fn left_out(batches: Vec<RecordBatch>, mut dropped: Vec<(usize, usize)>) -> Vec<RecordBatch> {
    if dropped.is_empty() {
        return batches;
    }
    dropped.sort_unstable();
    let mut kept = Vec::new();
    let mut at = 0;
    for batch in batches {
        let (start, end) = (at, at + batch.num_rows());
        at = end;
        // The rows of [start, end) kept: between the ranges dropped.
        let mut from = start;
        for &(a, b) in dropped.iter().filter(|&&(a, b)| b > start && a < end) {
            let (a, b) = (a.max(start), b.min(end));
            if a > from {
                kept.push(batch.slice(from - start, a - from));
            }
            from = from.max(b);
        }
        if end > from {
            kept.push(batch.slice(from - start, end - from));
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(n: i64) -> RecordBatch {
        let schema = Arc::new(Schema::new(vec![Field::new("n", DataType::Int64, true)]));
        let column: ArrayRef = Arc::new(arrow_array::Int64Array::from_iter_values(0..n));
        RecordBatch::try_new(schema, vec![column]).expect("a batch")
    }

    fn values(batches: &[RecordBatch]) -> Vec<i64> {
        batches
            .iter()
            .flat_map(|b| {
                let column = b
                    .column(0)
                    .as_any()
                    .downcast_ref::<arrow_array::Int64Array>()
                    .expect("integers");
                column.values().to_vec()
            })
            .collect()
    }

    #[test]
    fn rows_replaced_are_left_out_across_batches() {
        // Rows 0..10 in a batch and 10..16 in another (numbered 0..6).
        let batches = vec![numbers(10), numbers(6)];
        let kept = left_out(batches, vec![(8, 12), (2, 3), (15, 16)]);
        assert_eq!(values(&kept), [0, 1, 3, 4, 5, 6, 7, 2, 3, 4]);
    }

    #[test]
    fn nothing_dropped_keeps_the_batches_as_they_are() {
        let kept = left_out(vec![numbers(3)], Vec::new());
        assert_eq!((kept.len(), values(&kept)), (1, vec![0, 1, 2]));
    }
}
