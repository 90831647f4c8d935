//! A document's rows, made in one pass over its bytes by following the
//! layout's plan with cardkit's JSON scanner: no tree of the document is
//! built. The rows of each table are kept in one arena (the cells row after
//! row, and the text they hold in one buffer), so that a document costs a
//! few allocations, not one per value, wherever its rows are written.
//!
//! Values that do not fit their column (of another JSON type, an integer
//! beyond 64 bits, a date that is no date) and values the validator found
//! invalid become NULL, each with a note that names its place and the
//! reason: such documents are only exported with `--on-invalid keep`.

use std::collections::HashSet;
use std::sync::OnceLock;

use std::borrow::Cow;

use cardkit::json::{push_escaped, Scanner, Str, SyntaxError};

use crate::layout::{layout, ColumnType, Place, Source};

/// Where a text is in its table's text, or where the items of a text list
/// are in its table's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    start: usize,
    end: usize,
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
    text: String,
    /// The items of text lists, as spans of `text`.
    items: Vec<Span>,
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
    fn pop_row(&mut self) {
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

    fn push_text(&mut self, text: &str) -> Span {
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

/// What a target cannot store of values that fit their column's type:
/// such values become NULL with a note, as values of another type do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unstorable {
    /// Text holding the NUL character, U+0000 (PostgreSQL's text cannot).
    pub nul: bool,
}

const NUL: &str = "text holding the NUL character (U+0000), which PostgreSQL cannot store";

/// The columns of each table the row maker fills itself, found once.
struct Columns {
    position: Vec<Option<usize>>,
    owner: Vec<Option<usize>>,
    language: Vec<Option<usize>>,
    translation: Vec<Option<usize>>,
}

fn columns() -> &'static Columns {
    static COLUMNS: OnceLock<Columns> = OnceLock::new();
    COLUMNS.get_or_init(|| {
        let find = |wanted: fn(&Source) -> bool| {
            layout()
                .tables
                .iter()
                .map(|table| table.columns.iter().position(|c| wanted(&c.source)))
                .collect()
        };
        Columns {
            position: find(|s| matches!(s, Source::Position)),
            owner: find(|s| matches!(s, Source::OwnerKey)),
            language: find(|s| matches!(s, Source::Language)),
            translation: find(|s| matches!(s, Source::Translation)),
        }
    })
}

/// The rows of a set (`migration` false) or a migration document, made in
/// `rows` (emptied first). `invalid` holds the JSON Pointers (from the
/// document's root) of the values the validator found invalid: they become
/// NULL, as do the values the target cannot store (`unstorable`).
///
/// # Errors
/// The document cannot be read into rows: it is not well-formed JSON, not
/// an object, or a member that makes rows is given twice.
pub fn rows(
    bytes: &[u8],
    migration: bool,
    invalid: &HashSet<String>,
    unstorable: Unstorable,
    rows: Rows,
) -> Result<Rows, String> {
    let made = |track, rows| rows_tracked(bytes, migration, invalid, unstorable, track, rows);
    let rows = made(false, rows)?;
    // The places of values that could not be stored are kept only when
    // there are some: the rows are made again, keeping them.
    if rows.notes.is_empty() || !invalid.is_empty() {
        return Ok(rows);
    }
    made(true, rows)
}

fn rows_tracked(
    bytes: &[u8],
    migration: bool,
    invalid: &HashSet<String>,
    unstorable: Unstorable,
    track: bool,
    mut rows: Rows,
) -> Result<Rows, String> {
    rows.clear();
    let plan = layout();
    // Checked once, the document's text is sliced for free.
    let Ok(document) = simdutf8::basic::from_utf8(bytes) else {
        return Err("the document is not UTF-8".into());
    };
    let mut scan = Scanner::new(bytes, 0);
    scan.utf8_checked = bytes.len();
    let mut maker = Maker {
        scan,
        document,
        rows,
        invalid,
        unstorable,
        track: track || !invalid.is_empty(),
        path: String::new(),
        children: Vec::new(),
    };
    let node = if migration { plan.migration } else { plan.set };
    maker.scan.ws();
    match maker.object(node, None) {
        Ok(Found::Row(_)) => Ok(maker.rows),
        Ok(_) => Err("the document is not a JSON object".into()),
        Err(Stop::Malformed(error)) => Err(format!(
            "the document could not be read into rows: malformed JSON at byte {}",
            error.at
        )),
        Err(Stop::Twice(name)) => Err(format!(
            "the member `{name}` is given twice, and its rows would be exported twice"
        )),
    }
}

/// Why a document cannot be read into rows.
enum Stop {
    Malformed(SyntaxError),
    /// A member that makes rows is given twice.
    Twice(String),
}

impl From<SyntaxError> for Stop {
    fn from(error: SyntaxError) -> Stop {
        Stop::Malformed(error)
    }
}

/// What a value read as an object was.
enum Found {
    /// An object: the index of its row.
    Row(usize),
    Null,
    /// Something else (read past).
    Other,
}

/// A cell, or why the value does not fit its column.
type Fitted = Result<Cell, &'static str>;

struct Maker<'a, 'b> {
    scan: Scanner<'b>,
    /// The scanner's bytes, as text.
    document: &'b str,
    rows: Rows,
    invalid: &'a HashSet<String>,
    unstorable: Unstorable,
    /// Keep the pointer of the value being read.
    track: bool,
    /// The pointer of the value being read, when tracked.
    path: String,
    /// The rows of the objects being read whose owner key is not known yet:
    /// (table, row), the innermost object's last.
    children: Vec<(usize, usize)>,
}

impl<'b> Maker<'_, 'b> {
    /// The content of a string token.
    fn text(&self, token: Str) -> Cow<'b, str> {
        if token.escaped {
            self.scan.decode(token)
        } else {
            Cow::Borrowed(
                self.document
                    .get(token.start..token.end)
                    .unwrap_or_default(),
            )
        }
    }

    /// Steps into the member or item `token`; returns where to step back to
    /// and whether the value there is invalid.
    fn enter(&mut self, token: &str) -> (usize, bool) {
        let mark = self.path.len();
        if !self.track {
            return (mark, false);
        }
        self.path.push('/');
        push_escaped(&mut self.path, token);
        (mark, self.invalid.contains(&self.path))
    }

    fn enter_item(&mut self, position: usize) -> (usize, bool) {
        if self.track {
            self.enter(&position.to_string())
        } else {
            (self.path.len(), false)
        }
    }

    fn leave(&mut self, mark: usize) {
        self.path.truncate(mark);
    }

    fn note(&mut self, why: &str) {
        let at = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        self.rows.notes.push(format!("{at}: {why}: stored as NULL"));
    }

    /// Reads past the value at the cursor.
    fn skip(&mut self) -> Result<(), Stop> {
        self.scan.skip_structure()?;
        Ok(())
    }

    /// At a value: `null` is read and is true.
    fn null(&mut self) -> Result<bool, Stop> {
        if self.scan.peek() == Some(b'n') {
            self.scan.literal()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Reads one object of a node's model at the cursor: its row, and its
    /// children's rows.
    fn object(&mut self, node: usize, position: Option<usize>) -> Result<Found, Stop> {
        if self.null()? {
            return Ok(Found::Null);
        }
        if self.scan.peek() != Some(b'{') {
            self.skip()?;
            return Ok(Found::Other);
        }
        let plan = layout();
        let node = &plan.nodes[node];
        let table = node.table;
        let row = self.rows.tables[table].push_row();
        if let (Some(position), Some(at)) = (position, columns().position[table]) {
            let position = i64::try_from(position).unwrap_or(i64::MAX);
            self.rows.tables[table].set(row, at, Cell::Integer(position));
        }
        let children = self.children.len();
        let mut seen: u128 = 0;
        let mut key = None;
        let mut more = self.scan.open()?;
        while more {
            let (name, _) = self.scan.member_name()?;
            let name = self.text(name);
            let Some((index, field)) = node.model.field(&name) else {
                self.skip()?;
                more = self.scan.after_member()?;
                continue;
            };
            let bit = u32::try_from(index)
                .ok()
                .and_then(|i| 1u128.checked_shl(i))
                .unwrap_or(0);
            let again = seen & bit != 0;
            seen |= bit;
            let (mark, invalid) = self.enter(&name);
            match node.fields[index] {
                Place::Column(at, ty) => {
                    let cell = match self.cell(table, ty)? {
                        Ok(_) if invalid => Cell::Null,
                        Ok(cell) => cell,
                        Err(why) => {
                            if !invalid {
                                self.note(why);
                            }
                            Cell::Null
                        }
                    };
                    if node.key.is_some_and(|k| std::ptr::eq(k, field)) {
                        key = match cell {
                            Cell::Text(span) => Some(span),
                            _ => None,
                        };
                    }
                    self.rows.tables[table].set(row, at, cell);
                }
                _ if again => return Err(Stop::Twice(name.into_owned())),
                _ if invalid => self.skip()?,
                Place::Child(child) => match self.object(child, None)? {
                    Found::Row(at) => self.children.push((plan.nodes[child].table, at)),
                    Found::Other => self.note("not an object"),
                    Found::Null => {}
                },
                Place::Children(child) => self.list(child)?,
                Place::Translations(at, model) => self.translations(at, model)?,
            }
            self.leave(mark);
            more = self.scan.after_member()?;
        }
        // The rows of this object's children get its key.
        let key = key.map(|span| self.rows.tables[table].text(span).to_owned());
        for (child_table, at) in self.children.drain(children..) {
            if let (Some(key), Some(owner)) = (&key, columns().owner[child_table]) {
                self.rows.tables[child_table].set_text(at, owner, key);
            }
        }
        Ok(Found::Row(row))
    }

    /// Reads a list of objects of a node's model: a row per item (with its
    /// position).
    fn list(&mut self, node: usize) -> Result<(), Stop> {
        if self.null()? {
            return Ok(());
        }
        if self.scan.peek() != Some(b'[') {
            self.skip()?;
            self.note("not an array");
            return Ok(());
        }
        let table = layout().nodes[node].table;
        let mut more = self.scan.open()?;
        let mut position = 0;
        while more {
            let (mark, invalid) = self.enter_item(position);
            if invalid {
                self.skip()?;
            } else {
                match self.object(node, Some(position))? {
                    Found::Row(at) => self.children.push((table, at)),
                    Found::Null | Found::Other => self.note("not an object"),
                }
            }
            self.leave(mark);
            position += 1;
            more = self.scan.after_item()?;
        }
        Ok(())
    }

    /// Reads a set's `translations`: a row per language the model names
    /// (the members the spec does not define are not exported).
    fn translations(
        &mut self,
        table: usize,
        model: &'static cardkit::schema::ModelDef,
    ) -> Result<(), Stop> {
        if self.null()? {
            return Ok(());
        }
        if self.scan.peek() != Some(b'{') {
            self.skip()?;
            self.note("not an object");
            return Ok(());
        }
        let columns = columns();
        let mut more = self.scan.open()?;
        while more {
            let (language, _) = self.scan.member_name()?;
            let language = self.text(language);
            if model.field(&language).is_none() {
                self.skip()?;
                more = self.scan.after_member()?;
                continue;
            }
            let (mark, invalid) = self.enter(&language);
            let row = self.rows.tables[table].push_row();
            match self.cell(table, ColumnType::Text)? {
                Ok(Cell::Text(name)) if !invalid => {
                    if let Some(at) = columns.translation[table] {
                        self.rows.tables[table].set(row, at, Cell::Text(name));
                    }
                    if let Some(at) = columns.language[table] {
                        self.rows.tables[table].set_text(row, at, &language);
                    }
                    self.children.push((table, row));
                }
                fitted => {
                    if let (Err(why), false) = (fitted, invalid) {
                        self.note(why);
                    }
                    self.rows.tables[table].pop_row();
                }
            }
            self.leave(mark);
            more = self.scan.after_member()?;
        }
        Ok(())
    }

    /// Reads a scalar or a list of strings at the cursor into a cell of a
    /// column of type `ty` of `table`: `Err` with the reason when the value
    /// does not fit it (the value is read past whole).
    fn cell(&mut self, table: usize, ty: ColumnType) -> Result<Fitted, Stop> {
        let misfit = Err(match ty {
            ColumnType::Text => "not a string",
            ColumnType::Integer => "not an integer",
            ColumnType::Real => "not a number",
            ColumnType::Boolean => "not a boolean",
            ColumnType::Date => "not a date (YYYY-MM-DD)",
            ColumnType::TextList => "not a list of strings",
            ColumnType::Json => "not JSON",
        });
        if ty == ColumnType::Json {
            let start = self.scan.pos;
            self.scan.skip_structure()?;
            let raw = self.document.get(start..self.scan.pos).unwrap_or_default();
            return Ok(match raw {
                "null" => Ok(Cell::Null),
                raw => Ok(Cell::Text(self.rows.tables[table].push_text(raw))),
            });
        }
        Ok(match self.scan.peek() {
            Some(b'"') => {
                let token = self.scan.string()?;
                let text = self.text(token);
                let rows = &mut self.rows.tables[table];
                match ty {
                    // Only an escape makes a NUL.
                    ColumnType::Text
                        if token.escaped && self.unstorable.nul && text.contains('\0') =>
                    {
                        Err(NUL)
                    }
                    ColumnType::Text => Ok(Cell::Text(rows.push_text(&text))),
                    ColumnType::Date => {
                        date(&text).map(Cell::Date).ok_or("not a date (YYYY-MM-DD)")
                    }
                    _ => misfit,
                }
            }
            Some(b'-' | b'0'..=b'9') => {
                let number = self.scan.number()?;
                let literal = self
                    .document
                    .get(number.start..number.end)
                    .unwrap_or_default();
                match ty {
                    ColumnType::Integer if number.plain => literal
                        .parse()
                        .map(Cell::Integer)
                        .map_err(|_| "an integer beyond the 64-bit signed range"),
                    ColumnType::Real => literal.parse().map(Cell::Real).or(misfit),
                    _ => misfit,
                }
            }
            Some(b't' | b'f' | b'n') => match (self.scan.literal()?, ty) {
                ("null", _) => Ok(Cell::Null),
                ("true", ColumnType::Boolean) => Ok(Cell::Boolean(true)),
                ("false", ColumnType::Boolean) => Ok(Cell::Boolean(false)),
                _ => misfit,
            },
            Some(b'[') if ty == ColumnType::TextList => self.text_list(table)?,
            Some(b'[' | b'{') => {
                self.skip()?;
                misfit
            }
            _ => {
                return Err(Stop::Malformed(
                    self.scan.unexpected(cardkit::json::Expect::Value),
                ))
            }
        })
    }

    /// At `[`: a list of strings.
    fn text_list(&mut self, table: usize) -> Result<Fitted, Stop> {
        let rows = &mut self.rows.tables[table];
        let (text, items) = (rows.text.len(), rows.items.len());
        let mut more = self.scan.open()?;
        while more {
            let unfit = if self.scan.peek() == Some(b'"') {
                let token = self.scan.string()?;
                let item = self.text(token);
                if token.escaped && self.unstorable.nul && item.contains('\0') {
                    Some(NUL)
                } else {
                    let rows = &mut self.rows.tables[table];
                    let span = rows.push_text(&item);
                    rows.items.push(span);
                    None
                }
            } else {
                self.skip()?;
                Some("a list with an item that is not a string")
            };
            more = self.scan.after_item()?;
            if let Some(why) = unfit {
                // Read past the rest, and forget the items read.
                while more {
                    self.skip()?;
                    more = self.scan.after_item()?;
                }
                let rows = &mut self.rows.tables[table];
                rows.text.truncate(text);
                rows.items.truncate(items);
                return Ok(Err(why));
            }
        }
        let end = self.rows.tables[table].items.len();
        Ok(Ok(Cell::TextList(Span { start: items, end })))
    }
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date.
fn date(text: &str) -> Option<i32> {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let digits = bytes.get(range)?;
        digits.iter().try_fold(0, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
        })
    };
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return None;
    }
    let year = i32::try_from(number(0..4)?).ok()?;
    let date = chrono::NaiveDate::from_ymd_opt(year, number(5..7)?, number(8..10)?)?;
    /// Days from 0001-01-01 to 1970-01-01.
    const EPOCH_FROM_CE: i32 = 719_163;
    Some(chrono::Datelike::num_days_from_ce(&date) - EPOCH_FROM_CE)
}
