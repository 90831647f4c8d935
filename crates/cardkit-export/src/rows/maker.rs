//! The row maker: a document's rows made by following the layout's plan
//! along the validator's tape, each object a row and each field's value a
//! cell, or NULL with a note when it does not fit its column or the target
//! cannot store it ([`Unstorable`]).

use std::borrow::Cow;
use std::sync::OnceLock;

use cardkit::validate::{Step, Tape};
use cardkit_json::pointer::push_escaped;
use cardkit_json::{skip_raw, Scanner};

use super::arena::{Cell, Rows, Span, TableRows};
use crate::layout::{layout, ColumnType, Place, Source};

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
    extra: Vec<Option<usize>>,
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
            extra: find(|s| matches!(s, Source::Extra)),
        }
    })
}

/// How rows are made.
#[derive(Clone, Copy)]
pub(super) struct Making {
    pub(super) unstorable: Unstorable,
    pub(super) keep_unknown: bool,
    /// Keep the pointer of the value being read.
    pub(super) track: bool,
}

pub(super) fn rows_tracked(
    bytes: &[u8],
    tape: &Tape,
    migration: bool,
    making: Making,
    mut rows: Rows,
) -> Result<Rows, String> {
    rows.clear();
    let plan = layout();
    // Checked once, the document's text is sliced for free.
    let Ok(document) = simdutf8::basic::from_utf8(bytes) else {
        return Err("the document is not UTF-8".into());
    };
    let mut maker = Maker {
        steps: &tape.steps,
        next: 0,
        document,
        rows,
        unstorable: making.unstorable,
        keep_unknown: making.keep_unknown,
        track: making.track,
        path: String::new(),
        children: Vec::new(),
    };
    let node = if migration { plan.migration } else { plan.set };
    if maker.peek() != Some(Step::Open) {
        return Err("the document is not a JSON object".into());
    }
    // Where the document's object starts (after any byte order mark and
    // white space), for the members the tape does not hold.
    let at = document.len()
        - document
            .trim_start_matches(['\u{feff}', ' ', '\t', '\n', '\r'])
            .len();
    match maker.object(node, None, Some(at)) {
        Ok(_) => Ok(maker.rows),
        Err(Stop::Twice(name)) => Err(format!(
            "the member `{name}` is given twice, and its rows would be exported twice"
        )),
        Err(Stop::Tape) => Err("the document's tape does not follow its objects".into()),
    }
}

/// Why a document cannot be read into rows.
enum Stop {
    /// A member that makes rows is given twice.
    Twice(String),
    /// The tape is not one the checker records.
    Tape,
}

/// A cell, or why the value does not fit its column.
type Fitted = Result<Cell, &'static str>;

struct Maker<'t, 'b> {
    steps: &'t [Step],
    /// The next step to follow.
    next: usize,
    /// The document.
    document: &'b str,
    rows: Rows,
    unstorable: Unstorable,
    /// Keep the members the spec does not define, in `extra`.
    keep_unknown: bool,
    /// Keep the pointer of the value being read.
    track: bool,
    /// The pointer of the value being read, when tracked.
    path: String,
    /// The rows of the objects being read whose owner key is not known yet:
    /// (table, row), the innermost object's last.
    children: Vec<(usize, usize)>,
}

impl<'b> Maker<'_, 'b> {
    fn peek(&self) -> Option<Step> {
        self.steps.get(self.next).copied()
    }

    fn take(&mut self) -> Result<Step, Stop> {
        let step = self.peek().ok_or(Stop::Tape)?;
        self.next += 1;
        Ok(step)
    }

    /// Steps into `name` (a member or an item); returns where to step back
    /// to.
    fn enter(&mut self, name: impl FnOnce() -> String) -> usize {
        let mark = self.path.len();
        if self.track {
            self.path.push('/');
            push_escaped(&mut self.path, &name());
        }
        mark
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

    /// Follows the steps of a field's value to its end: where it ends and
    /// whether it holds an error.
    fn value_end(&mut self) -> Result<(usize, bool), Stop> {
        let mut depth = 0usize;
        loop {
            match self.take()? {
                Step::Field { .. } => depth += 1,
                Step::End { end, invalid } if depth == 0 => return Ok((end, invalid)),
                Step::End { .. } => depth -= 1,
                Step::Open | Step::Close | Step::Item(_) => {}
            }
        }
    }

    /// At an `Open` step: one object of a node's model, its row and its
    /// children's rows; the index of its row. `at` is where the object
    /// starts in the document, when known (it is when members the spec does
    /// not define are kept).
    fn object(
        &mut self,
        node: usize,
        position: Option<usize>,
        at: Option<usize>,
    ) -> Result<usize, Stop> {
        if self.take()? != Step::Open {
            return Err(Stop::Tape);
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
        // Where the values of the tape's fields start, when the other
        // members are kept.
        let mut known: Vec<usize> = Vec::new();
        loop {
            let (index, start) = match self.take()? {
                Step::Close => break,
                Step::Field { index, start } => (index as usize, start),
                _ => return Err(Stop::Tape),
            };
            let field = node.model.fields.get(index).ok_or(Stop::Tape)?;
            if self.keep_unknown {
                known.push(start);
            }
            let bit = 1u128.checked_shl(index as u32).unwrap_or(0);
            let again = seen & bit != 0;
            seen |= bit;
            let mark = self.enter(|| field.name.to_owned());
            match node.fields[index] {
                Place::Column(at, ty) => {
                    let (end, invalid) = self.value_end()?;
                    let cell = if invalid {
                        Cell::Null
                    } else {
                        match self.cell(table, ty, start, end) {
                            Ok(cell) => cell,
                            Err(why) => {
                                self.note(why);
                                Cell::Null
                            }
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
                _ if again => return Err(Stop::Twice(field.name.to_owned())),
                Place::Child(child) => {
                    if self.peek() == Some(Step::Open) {
                        let at = self.object(child, None, Some(start))?;
                        self.children.push((plan.nodes[child].table, at));
                    }
                    self.value_end()?;
                }
                Place::Children(child) => {
                    let child_table = plan.nodes[child].table;
                    let items = if self.keep_unknown {
                        self.item_starts(start)
                    } else {
                        Vec::new()
                    };
                    while let Some(Step::Item(position)) = self.peek() {
                        self.next += 1;
                        if self.peek() == Some(Step::Open) {
                            let mark = self.enter(|| position.to_string());
                            let item = items.get(position).copied();
                            let at = self.object(child, Some(position), item)?;
                            self.children.push((child_table, at));
                            self.leave(mark);
                        }
                    }
                    self.value_end()?;
                }
                Place::Translations(at, model) => self.translations(at, model)?,
            }
            self.leave(mark);
        }
        if let (true, Some(at), Some(column)) = (self.keep_unknown, at, columns().extra[table]) {
            self.unknown_members(table, row, column, at, &known);
        }
        // The rows of this object's children get its key.
        let key = key.map(|span| self.rows.tables[table].text(span).to_owned());
        for (child_table, at) in self.children.drain(children..) {
            if let (Some(key), Some(owner)) = (&key, columns().owner[child_table]) {
                self.rows.tables[child_table].set_text(at, owner, key);
            }
        }
        Ok(row)
    }

    /// Where each item of the list at `start` starts (none when it is not a
    /// list).
    fn item_starts(&self, start: usize) -> Vec<usize> {
        let bytes = self.document.as_bytes();
        let mut starts = Vec::new();
        if bytes.get(start) != Some(&b'[') {
            return starts;
        }
        let mut scan = Scanner::new(bytes, start);
        scan.utf8_checked = bytes.len();
        let Ok(mut more) = scan.open() else {
            return starts;
        };
        while more {
            starts.push(scan.pos);
            if scan.skip_structure().is_err() {
                break;
            }
            let Ok(after) = scan.after_item() else {
                break;
            };
            more = after;
        }
        starts
    }

    /// The members of the object at `at` whose values the tape does not
    /// hold (`known`: where the values it holds start), as a JSON object
    /// in `column` of row `row` of `table`: each name and value as written.
    fn unknown_members(
        &mut self,
        table: usize,
        row: usize,
        column: usize,
        at: usize,
        known: &[usize],
    ) {
        let bytes = self.document.as_bytes();
        let mut scan = Scanner::new(bytes, at);
        scan.utf8_checked = bytes.len();
        let mut object = String::new();
        for member in scan.members() {
            if known.contains(&member.value_at) {
                continue;
            }
            let mut name = Scanner::new(bytes, member.name_at);
            name.utf8_checked = bytes.len();
            let (Ok(_), Ok(end)) = (name.string(), skip_raw(bytes, member.value_at)) else {
                break;
            };
            let (Some(name), Some(value)) = (
                self.document.get(member.name_at..name.pos),
                self.document.get(member.value_at..end),
            ) else {
                break;
            };
            object.push(if object.is_empty() { '{' } else { ',' });
            object.push_str(name);
            object.push(':');
            object.push_str(value);
        }
        if object.is_empty() {
            return;
        }
        object.push('}');
        if self.unstorable.nul && object.contains("\\u0000") {
            // PostgreSQL's jsonb cannot hold U+0000.
            let mark = self.enter(|| "extra".to_owned());
            self.note(NUL);
            self.leave(mark);
            return;
        }
        self.rows.tables[table].set_text(row, column, &object);
    }

    /// A set's `translations`: a row per language the model names (the
    /// members the spec does not define are not exported).
    fn translations(
        &mut self,
        table: usize,
        model: &'static cardkit::schema::ModelDef,
    ) -> Result<(), Stop> {
        if self.peek() == Some(Step::Open) {
            self.next += 1;
            let columns = columns();
            loop {
                let (index, start) = match self.take()? {
                    Step::Close => break,
                    Step::Field { index, start } => (index as usize, start),
                    _ => return Err(Stop::Tape),
                };
                let language = model.fields.get(index).ok_or(Stop::Tape)?.name;
                let mark = self.enter(|| language.to_owned());
                let (end, invalid) = self.value_end()?;
                let row = self.rows.tables[table].push_row();
                match self.cell(table, ColumnType::Text, start, end) {
                    Ok(Cell::Text(name)) if !invalid => {
                        if let Some(at) = columns.translation[table] {
                            self.rows.tables[table].set(row, at, Cell::Text(name));
                        }
                        if let Some(at) = columns.language[table] {
                            self.rows.tables[table].set_text(row, at, language);
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
            }
        }
        self.value_end()?;
        Ok(())
    }

    /// The scalar or list of strings at `start..end` of the document, as a
    /// cell of a column of type `ty` of `table`, or why it does not fit.
    fn cell(&mut self, table: usize, ty: ColumnType, start: usize, end: usize) -> Fitted {
        let misfit = Err(match ty {
            ColumnType::Text => "not a string",
            ColumnType::Integer => "not an integer",
            ColumnType::Real => "not a number",
            ColumnType::Boolean => "not a boolean",
            ColumnType::Date => "not a date (YYYY-MM-DD)",
            ColumnType::TextList => "not a list of strings",
            ColumnType::Json | ColumnType::Members => "not JSON",
        });
        let raw = self.document.get(start..end).unwrap_or_default();
        if ty == ColumnType::Json {
            return Ok(match raw {
                "null" => Cell::Null,
                raw => Cell::Text(self.rows.tables[table].push_text(raw)),
            });
        }
        match raw.as_bytes().first() {
            Some(b'"') => {
                let Some(text) = self.string(start, end) else {
                    return misfit;
                };
                let rows = &mut self.rows.tables[table];
                match ty {
                    ColumnType::Text if self.unstorable.nul && text.contains('\0') => Err(NUL),
                    ColumnType::Text => Ok(Cell::Text(rows.push_text(&text))),
                    ColumnType::Date => {
                        date(&text).map(Cell::Date).ok_or("not a date (YYYY-MM-DD)")
                    }
                    _ => misfit,
                }
            }
            Some(b'-' | b'0'..=b'9') => {
                let plain = !raw.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
                match ty {
                    ColumnType::Integer if plain => raw
                        .parse()
                        .map(Cell::Integer)
                        .map_err(|_| "an integer beyond the 64-bit signed range"),
                    ColumnType::Real => raw.parse().map(Cell::Real).or(misfit),
                    _ => misfit,
                }
            }
            _ => match (raw, ty) {
                ("null", _) => Ok(Cell::Null),
                ("true", ColumnType::Boolean) => Ok(Cell::Boolean(true)),
                ("false", ColumnType::Boolean) => Ok(Cell::Boolean(false)),
                (_, ColumnType::TextList) if raw.starts_with('[') => self.text_list(table, start),
                _ => misfit,
            },
        }
    }

    /// The content of the string token at `start..end`: sliced when it
    /// holds no escape, decoded when it does.
    fn string(&self, start: usize, end: usize) -> Option<Cow<'b, str>> {
        let inner = self.document.get(start + 1..end.checked_sub(1)?)?;
        if !inner.as_bytes().contains(&b'\\') {
            return Some(Cow::Borrowed(inner));
        }
        let mut scan = Scanner::new(self.document.as_bytes(), start);
        scan.utf8_checked = self.document.len();
        let token = scan.string().ok()?;
        Some(scan.decode(token))
    }

    /// At `start`, a `[`: a list of strings.
    fn text_list(&mut self, table: usize, start: usize) -> Fitted {
        let bytes = self.document.as_bytes();
        let mut scan = Scanner::new(bytes, start);
        scan.utf8_checked = bytes.len();
        let rows = &mut self.rows.tables[table];
        let (text, items) = (rows.text.len(), rows.items.len());
        let forget = |rows: &mut TableRows| {
            rows.text.truncate(text);
            rows.items.truncate(items);
        };
        let Ok(mut more) = scan.open() else {
            return Err("not a list of strings");
        };
        while more {
            let item = match scan.peek() {
                Some(b'"') => scan.string().ok().map(|token| scan.decode(token)),
                _ => None,
            };
            let rows = &mut self.rows.tables[table];
            let Some(item) = item else {
                forget(rows);
                return Err("a list with an item that is not a string");
            };
            if self.unstorable.nul && item.contains('\0') {
                forget(rows);
                return Err(NUL);
            }
            let span = rows.push_text(&item);
            rows.items.push(span);
            let Ok(after) = scan.after_item() else {
                forget(rows);
                return Err("not a list of strings");
            };
            more = after;
        }
        let end = self.rows.tables[table].items.len();
        Ok(Cell::TextList(Span { start: items, end }))
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
