//! A document's rows, made by following the layout's plan over the parsed
//! document. Values that do not fit their column (of another JSON type, an
//! integer beyond 64 bits, a date that is no date) and values the validator
//! found invalid become NULL, each with a note that names its place and the
//! reason: they are only exported with `--on-invalid keep`.

use std::collections::HashSet;

use serde_json::{Map, Value};

use cardkit::schema::ModelDef;

use crate::layout::{layout, ColumnType, Place, Source};

/// One value of a row.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// NULL.
    Null,
    /// Text (also JSON text).
    Text(String),
    /// A 64-bit integer.
    Integer(i64),
    /// A 64-bit float.
    Real(f64),
    /// A boolean.
    Boolean(bool),
    /// A date, as days since 1970-01-01.
    Date(i32),
    /// A list of strings.
    TextList(Vec<String>),
}

/// The rows of one document, per table (by index in the layout).
#[derive(Debug, Default)]
pub struct Rows {
    /// `tables[t]` holds the rows of table `t`; a row holds one cell per
    /// column, `build` (left NULL here) included.
    pub tables: Vec<Vec<Vec<Cell>>>,
    /// Values made NULL because they could not be stored, each with its
    /// place and the reason.
    pub notes: Vec<String>,
}

impl Rows {
    fn new() -> Rows {
        Rows {
            tables: vec![Vec::new(); layout().tables.len()],
            notes: Vec::new(),
        }
    }

    /// How many rows there are in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tables.iter().map(Vec::len).sum()
    }

    /// There is no row.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The rows of a set (`migration` false) or a migration document. `invalid`
/// holds the JSON Pointers (from the document's root) of the values the
/// validator found invalid: they become NULL. An error when the document
/// cannot be read into rows at all.
///
/// # Errors
/// The document is not JSON serde_json reads (nested too deep), or not an
/// object.
pub fn rows(bytes: &[u8], migration: bool, invalid: &HashSet<String>) -> Result<Rows, String> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| format!("the document could not be read into rows: {e}"))?;
    let Value::Object(object) = value else {
        return Err("the document is not a JSON object".into());
    };
    let plan = layout();
    let mut maker = Maker {
        rows: Rows::new(),
        invalid,
        path: String::new(),
    };
    let node = if migration { plan.migration } else { plan.set };
    maker.object(node, object, Cell::Null, None);
    Ok(maker.rows)
}

struct Maker<'a> {
    rows: Rows,
    invalid: &'a HashSet<String>,
    /// The pointer of the value being read (kept only when some values are
    /// invalid).
    path: String,
}

impl Maker<'_> {
    fn tracking(&self) -> bool {
        !self.invalid.is_empty()
    }

    /// Makes the row of `object` (and its children's) with node `node`.
    fn object(
        &mut self,
        node: usize,
        mut object: Map<String, Value>,
        owner: Cell,
        position: Option<usize>,
    ) {
        let plan = layout();
        let node_plan = &plan.nodes[node];
        let table = &plan.tables[node_plan.table];
        let mut row = vec![Cell::Null; table.columns.len()];
        for (index, column) in table.columns.iter().enumerate() {
            match column.source {
                Source::OwnerKey => row[index] = owner.clone(),
                Source::Position => {
                    row[index] = position.map_or(Cell::Null, |p| Cell::Integer(p as i64));
                }
                _ => {}
            }
        }
        let model_fields = node_plan.model.fields;
        // The key of this row, for its children.
        let key = node_plan
            .key
            .and_then(|key| object.get(key.name))
            .and_then(Value::as_str)
            .filter(|_| {
                let key_name = node_plan.key.map_or("", |k| k.name);
                !self.is_invalid(key_name)
            })
            .map_or(Cell::Null, |key| Cell::Text(key.to_owned()));
        let mut children = Vec::new();
        for (field, place) in model_fields.iter().zip(&node_plan.fields) {
            let Some(value) = object.remove(field.name) else {
                continue;
            };
            let mark = self.path.len();
            if self.tracking() {
                self.path.push('/');
                self.path.push_str(&escape(field.name));
            }
            let invalid = self.tracking() && self.invalid.contains(&self.path);
            match *place {
                Place::Column(index, ty) if !invalid => {
                    row[index] = self.cell(value, ty);
                }
                Place::Column(..) => {}
                _ if invalid || value.is_null() => {}
                Place::Child(child) => match value {
                    Value::Object(inner) => children.push((child, inner, None, self.path.clone())),
                    _ => self.note("is not an object"),
                },
                Place::Children(child) => match value {
                    Value::Array(items) => {
                        for (i, item) in items.into_iter().enumerate() {
                            let path = if self.tracking() {
                                format!("{}/{i}", self.path)
                            } else {
                                String::new()
                            };
                            if self.tracking() && self.invalid.contains(&path) {
                                continue;
                            }
                            match item {
                                Value::Object(inner) => {
                                    children.push((child, inner, Some(i), path))
                                }
                                _ => {
                                    let saved = std::mem::replace(&mut self.path, path);
                                    self.note("is not an object");
                                    self.path = saved;
                                }
                            }
                        }
                    }
                    _ => self.note("is not an array"),
                },
                Place::Translations(table, model) => match value {
                    Value::Object(languages) => self.translations(table, model, languages, &key),
                    _ => self.note("is not an object"),
                },
            }
            self.path.truncate(mark);
        }
        self.rows.tables[node_plan.table].push(row);
        for (child, inner, position, path) in children {
            let saved = std::mem::replace(&mut self.path, path);
            self.object(child, inner, key.clone(), position);
            self.path = saved;
        }
    }

    fn translations(
        &mut self,
        table: usize,
        model: &ModelDef,
        languages: Map<String, Value>,
        owner: &Cell,
    ) {
        let columns = &layout().tables[table].columns;
        // Members the spec does not define are not exported.
        let known = languages
            .into_iter()
            .filter(|(language, _)| model.field(language).is_some());
        for (language, name) in known {
            let mark = self.path.len();
            if self.tracking() {
                self.path.push('/');
                self.path.push_str(&escape(&language));
            }
            let invalid = self.tracking() && self.invalid.contains(&self.path);
            let name = match name {
                Value::String(name) if !invalid => Cell::Text(name),
                Value::Null => Cell::Null,
                _ if invalid => Cell::Null,
                _ => {
                    self.note("is not a string");
                    Cell::Null
                }
            };
            self.path.truncate(mark);
            if matches!(name, Cell::Null) {
                continue;
            }
            let row = columns
                .iter()
                .map(|column| match column.source {
                    Source::OwnerKey => owner.clone(),
                    Source::Language => Cell::Text(language.clone()),
                    Source::Translation => name.clone(),
                    _ => Cell::Null,
                })
                .collect();
            self.rows.tables[table].push(row);
        }
    }

    fn is_invalid(&self, field: &str) -> bool {
        self.tracking()
            && self
                .invalid
                .contains(&format!("{}/{}", self.path, escape(field)))
    }

    fn note(&mut self, why: &str) {
        let at = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        self.rows.notes.push(format!("{at}: {why}: stored as NULL"));
    }

    /// The cell of `value` in a column of type `ty`.
    fn cell(&mut self, value: Value, ty: ColumnType) -> Cell {
        let cell = match (ty, value) {
            (_, Value::Null) => return Cell::Null,
            (ColumnType::Text, Value::String(text)) => Cell::Text(text),
            (ColumnType::Integer, Value::Number(n)) => match n.as_i64() {
                Some(n) => Cell::Integer(n),
                None if n.is_u64() => {
                    self.note("an integer beyond the 64-bit signed range");
                    Cell::Null
                }
                None => Cell::Null,
            },
            (ColumnType::Real, Value::Number(n)) => n.as_f64().map_or(Cell::Null, Cell::Real),
            (ColumnType::Boolean, Value::Bool(b)) => Cell::Boolean(b),
            (ColumnType::Date, Value::String(text)) => date(&text).map_or(Cell::Null, Cell::Date),
            (ColumnType::TextList, Value::Array(items)) => {
                let mut list = Vec::with_capacity(items.len());
                for item in items {
                    match item {
                        Value::String(text) => list.push(text),
                        _ => {
                            self.note("a list item that is not a string");
                            return Cell::Null;
                        }
                    }
                }
                Cell::TextList(list)
            }
            (ColumnType::Json, value) => Cell::Text(value.to_string()),
            _ => Cell::Null,
        };
        if cell == Cell::Null {
            self.note(match ty {
                ColumnType::Text => "not a string",
                ColumnType::Integer => "not an integer",
                ColumnType::Real => "not a number",
                ColumnType::Boolean => "not a boolean",
                ColumnType::Date => "not a date (YYYY-MM-DD)",
                ColumnType::TextList => "not a list of strings",
                ColumnType::Json => "not JSON",
            });
        }
        cell
    }
}

/// A key escaped as a JSON Pointer reference token.
fn escape(key: &str) -> std::borrow::Cow<'_, str> {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1").into()
    } else {
        key.into()
    }
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date.
fn date(text: &str) -> Option<i32> {
    let date = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    if text.len() != 10 {
        return None;
    }
    let epoch = chrono::NaiveDate::from_ymd_opt(1970, 1, 1)?;
    i32::try_from((date - epoch).num_days()).ok()
}
