//! The rows of a document, held per table in one arena: the cells row after
//! row, and the text they hold in one buffer ([`TableRows`]); a document's
//! tables together ([`Rows`]).

use crate::layout::layout;

/// Where a text is in its table's text, or where the items of a text list
/// are in its table's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub(super) start: usize,
    pub(super) end: usize,
}

/// One value of a row; text is held by the row's [`TableRows`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell {
    /// NULL.
    Null,
    /// Text (also JSON text): see [`TableRows::text`].
    Text(Span),
    /// A 64-bit integer.
    Integer(i64),
    /// A 64-bit float.
    Real(f64),
    /// A boolean.
    Boolean(bool),
    /// A date, as days since 1970-01-01.
    Date(i32),
    /// A list of strings: see [`TableRows::items`].
    TextList(Span),
}

/// The rows of one table: a cell per column (`build` first, left NULL for
/// the store to fill), row after row, and the text they hold.
#[derive(Debug, Clone)]
pub struct TableRows {
    width: usize,
    cells: Vec<Cell>,
    pub(super) text: String,
    /// The items of text lists, as spans of `text`.
    pub(super) items: Vec<Span>,
}

impl TableRows {
    /// No rows yet, of `width` columns (at least one: `build`).
    #[must_use]
    pub fn new(width: usize) -> TableRows {
        TableRows {
            width: width.max(1),
            cells: Vec::new(),
            text: String::new(),
            items: Vec::new(),
        }
    }

    /// How many rows there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len() / self.width
    }

    /// There is no row.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The rows, each a cell per column.
    pub fn rows(&self) -> std::slice::ChunksExact<'_, Cell> {
        self.cells.chunks_exact(self.width)
    }

    /// The text of a [`Cell::Text`].
    #[must_use]
    pub fn text(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or_default()
    }

    /// The items of a [`Cell::TextList`].
    pub fn items(&self, span: Span) -> impl ExactSizeIterator<Item = &str> {
        let items = self.items.get(span.start..span.end).unwrap_or_default();
        items.iter().map(|&item| self.text(item))
    }

    /// Appends a row of NULLs; its index.
    pub fn push_row(&mut self) -> usize {
        self.cells.resize(self.cells.len() + self.width, Cell::Null);
        self.len() - 1
    }

    /// Appends the rows of `other` (of the same table) after these.
    pub fn append(&mut self, other: &TableRows) {
        let (text, items) = (self.text.len(), self.items.len());
        let moved = |span: Span, by: usize| Span {
            start: span.start + by,
            end: span.end + by,
        };
        self.text.push_str(&other.text);
        self.items
            .extend(other.items.iter().map(|&item| moved(item, text)));
        self.cells
            .extend(other.cells.iter().map(|&cell| match cell {
                Cell::Text(span) => Cell::Text(moved(span, text)),
                Cell::TextList(span) => Cell::TextList(moved(span, items)),
                cell => cell,
            }));
    }

    /// Removes the last row.
    pub(super) fn pop_row(&mut self) {
        let len = self.cells.len().saturating_sub(self.width);
        self.cells.truncate(len);
    }

    /// Sets a cell of row `row`.
    pub fn set(&mut self, row: usize, column: usize, cell: Cell) {
        if let Some(slot) = self.cells.get_mut(row * self.width + column) {
            *slot = cell;
        }
    }

    /// Sets a cell of row `row` to `text`.
    pub fn set_text(&mut self, row: usize, column: usize, text: &str) {
        let span = self.push_text(text);
        self.set(row, column, Cell::Text(span));
    }

    pub(super) fn push_text(&mut self, text: &str) -> Span {
        let start = self.text.len();
        self.text.push_str(text);
        Span {
            start,
            end: self.text.len(),
        }
    }
}

/// The rows of one document, per table (by index in the layout).
#[derive(Debug)]
pub struct Rows {
    /// `tables[t]` holds the rows of table `t`.
    pub tables: Vec<TableRows>,
    /// Values made NULL because they could not be stored, each with its
    /// place and the reason.
    pub notes: Vec<String>,
}

impl Rows {
    /// No rows yet.
    #[must_use]
    pub fn new() -> Rows {
        Rows {
            tables: layout()
                .tables
                .iter()
                .map(|table| TableRows::new(table.columns.len()))
                .collect(),
            notes: Vec::new(),
        }
    }

    /// How many rows there are in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tables.iter().map(TableRows::len).sum()
    }

    /// There is no row.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends the rows of `other` after these (its notes are not kept).
    pub fn append(&mut self, other: &Rows) {
        for (table, more) in self.tables.iter_mut().zip(&other.tables) {
            table.append(more);
        }
    }

    /// The bytes of text the rows hold.
    #[must_use]
    pub fn text_len(&self) -> usize {
        self.tables.iter().map(|t| t.text.len()).sum()
    }

    /// Empties the rows, keeping the memory they took for the next
    /// document's.
    pub fn clear(&mut self) {
        for table in &mut self.tables {
            table.cells.clear();
            table.text.clear();
            table.items.clear();
        }
        self.notes.clear();
    }

    /// The memory the rows take, in bytes.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.tables
            .iter()
            .map(|t| {
                t.cells.capacity() * std::mem::size_of::<Cell>()
                    + t.text.capacity()
                    + t.items.capacity() * std::mem::size_of::<Span>()
            })
            .sum()
    }
}

impl Default for Rows {
    fn default() -> Rows {
        Rows::new()
    }
}
