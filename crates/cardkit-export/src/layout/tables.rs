//! What a layout is: its tables and their columns (name, type, meaning and
//! where the values come from), and the plan of nodes the row maker
//! follows; the version of the layout.

use cardkit::schema::{FieldDef, ModelDef, Version};

/// The version of the layout, written into `meta`. It changes when a table
/// or column is added, removed, renamed or changes type; the layout test
/// compares the layout with a committed snapshot, so that no change goes
/// unnoticed.
pub const LAYOUT_VERSION: i64 = 3;

/// The type of a column, as each target stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// Text.
    Text,
    /// A 64-bit signed integer.
    Integer,
    /// A 64-bit float.
    Real,
    /// A boolean.
    Boolean,
    /// A calendar date.
    Date,
    /// A list of strings: PostgreSQL `text[]`, a Parquet list, JSON text in
    /// SQLite.
    TextList,
    /// A JSON value as text (a value whose inner structure the spec does
    /// not show).
    Json,
    /// A JSON object as text, of the members the spec does not define
    /// (`extra`, filled with `--keep-unknown`): PostgreSQL `jsonb`, a
    /// Parquet string of the JSON logical type, JSON text in SQLite.
    Members,
}

impl ColumnType {
    /// The type's name in `--describe` and `docs/tables.md`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Text => "text",
            ColumnType::Integer => "integer",
            ColumnType::Real => "real",
            ColumnType::Boolean => "boolean",
            ColumnType::Date => "date",
            ColumnType::TextList => "text list",
            ColumnType::Json => "json",
            ColumnType::Members => "json",
        }
    }
}

/// Where a column's values come from.
#[derive(Debug, Clone, Copy)]
pub enum Source {
    /// The build label of the run.
    Build,
    /// The key of the row's owner (a set's code, a card's uuid).
    OwnerKey,
    /// The row's place in its owner's list, from 0.
    Position,
    /// A field of the model.
    Field(&'static FieldDef),
    /// The language of a translation (the field's wire name).
    Language,
    /// The translated name.
    Translation,
    /// A `meta` fact of the run.
    Meta(MetaFact),
    /// What a row of `reference_findings` says of its finding.
    Finding(FindingFact),
    /// The members of the row's object that the spec does not define, as a
    /// JSON object (`--keep-unknown`; NULL without it, or when there are
    /// none).
    Extra,
}

/// What a column of `meta` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaFact {
    /// The input's name.
    Input,
    /// The input's `meta`, as JSON.
    InputMeta,
    /// The version of cardkit.
    CardkitVersion,
    /// [`LAYOUT_VERSION`].
    LayoutVersion,
}

/// What a column of `reference_findings` holds (its set's code is the
/// table's [`Source::OwnerKey`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingFact {
    /// The finding's code (`dangling_reference`).
    Code,
    /// What holds the value: `card`, `token`, `sealed` or `set`.
    Kind,
    /// The record's place in its list.
    Position,
    /// The member holding the value, from its record or set.
    Field,
    /// The value's place in its list.
    Item,
    /// The value.
    Value,
    /// `warning` or `error`.
    Severity,
    /// The finding in words.
    Message,
    /// The input the value was read from.
    Input,
    /// The value's JSON Pointer in its input.
    Pointer,
    /// The value's line in its input.
    Line,
    /// The input of the second place.
    RelatedInput,
    /// The second place's JSON Pointer.
    RelatedPointer,
}

/// One column.
#[derive(Debug, Clone)]
pub struct Column {
    /// The column's name, snake_case.
    pub name: String,
    /// Its type.
    pub ty: ColumnType,
    /// It may be NULL.
    pub nullable: bool,
    /// The version of the format that introduced the field, if tagged.
    pub since: Option<Version>,
    /// The field is deprecated.
    pub deprecated: bool,
    /// What it holds.
    pub doc: String,
    /// Where its values come from.
    pub source: Source,
}

/// One table.
#[derive(Debug, Clone)]
pub struct Table {
    /// The table's name, snake_case.
    pub name: String,
    /// What a row is.
    pub doc: String,
    /// The columns, `build` first.
    pub columns: Vec<Column>,
    /// The columns that are indexed (uuid, name, set code, where present).
    pub indexed: Vec<usize>,
}

impl Table {
    /// The index of the column named `name`.
    #[must_use]
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.name == name)
    }
}

/// How a model's objects become rows: the plan the row maker follows.
#[derive(Debug)]
pub struct Node {
    /// The model whose objects the node reads.
    pub model: &'static ModelDef,
    /// The table the rows go to.
    pub table: usize,
    /// The field of the model whose value keys the rows of its children.
    pub key: Option<&'static FieldDef>,
    /// What each field of the model (by index in the field table) becomes.
    pub fields: Vec<Place>,
}

/// What a field becomes.
#[derive(Debug, Clone, Copy)]
pub enum Place {
    /// A column of the node's table (by index), of this type.
    Column(usize, ColumnType),
    /// A row of a child node (by index in [`Layout::nodes`]).
    Child(usize),
    /// A row of a child node per item.
    Children(usize),
    /// A row per language of the model's fields present (the table, by
    /// index).
    Translations(usize, &'static ModelDef),
}

/// The whole layout.
#[derive(Debug)]
pub struct Layout {
    /// Every table, in a fixed order.
    pub tables: Vec<Table>,
    /// The plans, the node of each kind's top model first.
    pub nodes: Vec<Node>,
    /// The node of a set, of a migration.
    pub set: usize,
    /// The node of a migration.
    pub migration: usize,
    /// The `meta` table.
    pub meta: usize,
    /// The `reference_findings` table.
    pub reference_findings: usize,
}

impl Layout {
    /// The table named `name`.
    #[must_use]
    pub fn table(&self, name: &str) -> Option<usize> {
        self.tables.iter().position(|t| t.name == name)
    }
}
