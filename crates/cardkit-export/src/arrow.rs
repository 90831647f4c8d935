//! The export's tables as Arrow columns: a builder per column type and the
//! schema of a table, shared by the Parquet files and by every reader that
//! takes the tables as Arrow record batches.

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Date32Builder, Float64Builder, Int64Builder, ListBuilder, StringBuilder,
};
use arrow_array::ArrayRef;
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use crate::layout::{ColumnType, Table};
use crate::rows::{Cell, TableRows};

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
