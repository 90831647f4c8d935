//! A document's rows, made in one pass over its bytes by following the
//! layout's plan: no tree of the document is built. Values that do not fit
//! their column (of another JSON type, an integer beyond 64 bits, a date
//! that is no date) and values the validator found invalid become NULL, each
//! with a note that names its place and the reason: such documents are only
//! exported with `--on-invalid keep`.

use std::collections::HashSet;
use std::fmt;

use cardkit::schema::ModelDef;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

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
/// validator found invalid: they become NULL.
///
/// # Errors
/// The document cannot be read into rows: it is not JSON serde_json reads
/// (nested too deep), not an object, or a member that makes rows is given
/// twice.
pub fn rows(bytes: &[u8], migration: bool, invalid: &HashSet<String>) -> Result<Rows, String> {
    let rows = rows_tracked(bytes, migration, invalid, false)?;
    // The places of values that could not be stored are kept only when
    // there are some: the rows are made again, keeping them.
    if rows.notes.is_empty() || !invalid.is_empty() {
        return Ok(rows);
    }
    rows_tracked(bytes, migration, invalid, true)
}

fn rows_tracked(
    bytes: &[u8],
    migration: bool,
    invalid: &HashSet<String>,
    track: bool,
) -> Result<Rows, String> {
    let plan = layout();
    let mut maker = Maker {
        rows: Rows::new(),
        invalid,
        track,
        path: String::new(),
    };
    let node = if migration { plan.migration } else { plan.set };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let seed = ObjectSeed {
        maker: &mut maker,
        node,
        position: None,
    };
    match seed.deserialize(&mut deserializer) {
        Ok(Some(_)) => Ok(maker.rows),
        Ok(None) => Err("the document is not a JSON object".into()),
        Err(error) => Err(format!("the document could not be read into rows: {error}")),
    }
}

struct Maker<'a> {
    rows: Rows,
    invalid: &'a HashSet<String>,
    /// Keep the pointer of the value being read.
    track: bool,
    /// The pointer of the value being read, kept only when some values are
    /// invalid.
    path: String,
}

impl Maker<'_> {
    fn tracking(&self) -> bool {
        self.track || !self.invalid.is_empty()
    }

    /// Steps into the member or item `token`; returns where to step back to
    /// and whether the value there is invalid.
    fn enter(&mut self, token: &dyn fmt::Display) -> (usize, bool) {
        let mark = self.path.len();
        if !self.tracking() {
            return (mark, false);
        }
        self.path.push('/');
        let token = token.to_string();
        self.path
            .push_str(&token.replace('~', "~0").replace('/', "~1"));
        (mark, self.invalid.contains(&self.path))
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
}

/// The visitor methods of a seed that wants an object or an array: a
/// scalar (or `null`, where it gets this far) is read past, and is `$none`.
macro_rules! scalars_are_not {
    ($value:ty, $none:expr) => {
        fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<$value, E> {
            Ok($none)
        }

        fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<$value, E> {
            Ok($none)
        }

        fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<$value, E> {
            Ok($none)
        }

        fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<$value, E> {
            Ok($none)
        }

        fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<$value, E> {
            Ok($none)
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<$value, E> {
            Ok($none)
        }
    };
}

/// Reads one object of a node's model: its row, and its children's rows.
/// `Some(row index)` of the object's row, `None` when the value is no object.
struct ObjectSeed<'m, 'a> {
    maker: &'m mut Maker<'a>,
    node: usize,
    position: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for ObjectSeed<'_, '_> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ObjectSeed<'_, '_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let plan = layout();
        let node = &plan.nodes[self.node];
        let model: &ModelDef = node.model;
        let table = &plan.tables[node.table];
        let maker = self.maker;
        let mut row = vec![Cell::Null; table.columns.len()];
        if let (Some(position), Some(at)) = (self.position, table.column("position")) {
            row[at] = Cell::Integer(i64::try_from(position).unwrap_or(i64::MAX));
        }
        // The rows of this object's children, whose owner key is known once
        // the object is read: (table, row index).
        let mut children: Vec<(usize, usize)> = Vec::new();
        let mut seen: u128 = 0;
        let mut key = Cell::Null;
        while let Some(name) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let Some((index, field)) = model.field(&name) else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let again = seen & (1 << index) != 0;
            seen |= 1 << index;
            let (mark, invalid) = maker.enter(&name);
            match node.fields[index] {
                Place::Column(at, ty) => {
                    let cell = if ty == ColumnType::Json {
                        let raw = map.next_value::<&'de RawValue>()?;
                        if raw.get() == "null" {
                            Cell::Null
                        } else {
                            Cell::Text(raw.get().to_owned())
                        }
                    } else {
                        match map.next_value_seed(CellSeed(ty))? {
                            Ok(cell) => cell,
                            Err(why) => {
                                if !invalid {
                                    maker.note(why);
                                }
                                Cell::Null
                            }
                        }
                    };
                    let cell = if invalid { Cell::Null } else { cell };
                    if node.key.is_some_and(|k| std::ptr::eq(k, field)) {
                        key = match &cell {
                            Cell::Text(text) => Cell::Text(text.clone()),
                            _ => Cell::Null,
                        };
                    }
                    row[at] = cell;
                }
                _ if again => {
                    return Err(serde::de::Error::custom(format!(
                        "the member `{name}` is given twice, and its rows would be exported twice"
                    )));
                }
                _ if invalid => {
                    map.next_value::<IgnoredAny>()?;
                }
                Place::Child(child) => {
                    let seed = ObjectSeed {
                        maker: &mut *maker,
                        node: child,
                        position: None,
                    };
                    match map.next_value_seed(OrNull(seed))? {
                        Some(Some(at)) => children.push((plan.nodes[child].table, at)),
                        Some(None) => maker.note("not an object"),
                        None => {}
                    }
                }
                Place::Children(child) => {
                    let seed = ListSeed {
                        maker: &mut *maker,
                        node: child,
                        rows: &mut children,
                    };
                    if let Some(false) = map.next_value_seed(OrNull(seed))? {
                        maker.note("not an array");
                    }
                }
                Place::Translations(at, translations) => {
                    let seed = TranslationsSeed {
                        maker: &mut *maker,
                        table: at,
                        model: translations,
                        rows: &mut children,
                    };
                    if let Some(false) = map.next_value_seed(OrNull(seed))? {
                        maker.note("not an object");
                    }
                }
            }
            maker.leave(mark);
        }
        for (table, at) in children {
            let columns = &plan.tables[table].columns;
            if let Some(owner) = columns
                .iter()
                .position(|c| matches!(c.source, Source::OwnerKey))
            {
                maker.rows.tables[table][at][owner] = key.clone();
            }
        }
        let rows = &mut maker.rows.tables[node.table];
        rows.push(row);
        Ok(Some(rows.len() - 1))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    scalars_are_not!(Self::Value, None);
}

/// A value that may be `null` (then `None`, and nothing is read into rows).
struct OrNull<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for OrNull<S> {
    type Value = Option<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for OrNull<S> {
    type Value = Option<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}

/// Reads a list of objects of a node's model: a row per item (with its
/// position). `false` when the value is no array.
struct ListSeed<'m, 'a, 'r> {
    maker: &'m mut Maker<'a>,
    node: usize,
    rows: &'r mut Vec<(usize, usize)>,
}

impl<'de> DeserializeSeed<'de> for ListSeed<'_, '_, '_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ListSeed<'_, '_, '_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let table = layout().nodes[self.node].table;
        for position in 0.. {
            let (mark, invalid) = self.maker.enter(&position);
            let found = if invalid {
                seq.next_element::<IgnoredAny>()?.map(|_| None)
            } else {
                let seed = ObjectSeed {
                    maker: &mut *self.maker,
                    node: self.node,
                    position: Some(position),
                };
                seq.next_element_seed(seed)?
            };
            match found {
                None => {
                    self.maker.leave(mark);
                    break;
                }
                Some(Some(at)) => self.rows.push((table, at)),
                Some(None) if !invalid => self.maker.note("not an object"),
                Some(None) => {}
            }
            self.maker.leave(mark);
        }
        Ok(true)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }

    scalars_are_not!(bool, false);
}

/// Reads a set's `translations`: a row per language the model names (the
/// members the spec does not define are not exported). `false` when the
/// value is no object.
struct TranslationsSeed<'m, 'a, 'r> {
    maker: &'m mut Maker<'a>,
    table: usize,
    model: &'static ModelDef,
    rows: &'r mut Vec<(usize, usize)>,
}

impl<'de> DeserializeSeed<'de> for TranslationsSeed<'_, '_, '_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TranslationsSeed<'_, '_, '_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let columns = &layout().tables[self.table].columns;
        while let Some(language) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if self.model.field(&language).is_none() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let (mark, invalid) = self.maker.enter(&language);
            let name = match map.next_value_seed(CellSeed(ColumnType::Text))? {
                Ok(Cell::Text(name)) if !invalid => Some(name),
                Err(why) if !invalid => {
                    self.maker.note(why);
                    None
                }
                _ => None,
            };
            self.maker.leave(mark);
            let Some(name) = name else {
                continue;
            };
            let row = columns
                .iter()
                .map(|column| match column.source {
                    Source::Language => Cell::Text(language.clone().into_owned()),
                    Source::Translation => Cell::Text(name.clone()),
                    _ => Cell::Null,
                })
                .collect();
            let rows = &mut self.maker.rows.tables[self.table];
            rows.push(row);
            self.rows.push((self.table, rows.len() - 1));
        }
        Ok(true)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }

    scalars_are_not!(bool, false);
}

/// Reads a scalar or a list of strings into a cell of a column of type
/// `ty`: `Err` with the reason when the value does not fit it (the value is
/// read past whole).
struct CellSeed(ColumnType);

type Fitted = Result<Cell, &'static str>;

impl CellSeed {
    fn misfit(&self) -> Fitted {
        Err(match self.0 {
            ColumnType::Text => "not a string",
            ColumnType::Integer => "not an integer",
            ColumnType::Real => "not a number",
            ColumnType::Boolean => "not a boolean",
            ColumnType::Date => "not a date (YYYY-MM-DD)",
            ColumnType::TextList => "not a list of strings",
            ColumnType::Json => "not JSON",
        })
    }

    fn text(&self, text: String) -> Fitted {
        match self.0 {
            ColumnType::Text => Ok(Cell::Text(text)),
            ColumnType::Date => date(&text).map_or_else(|| self.misfit(), |d| Ok(Cell::Date(d))),
            _ => self.misfit(),
        }
    }
}

impl<'de> DeserializeSeed<'de> for CellSeed {
    type Value = Fitted;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Fitted, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CellSeed {
    type Value = Fitted;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Fitted, E> {
        Ok(Ok(Cell::Null))
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Fitted, E> {
        Ok(match self.0 {
            ColumnType::Boolean => Ok(Cell::Boolean(value)),
            _ => self.misfit(),
        })
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Fitted, E> {
        Ok(match self.0 {
            ColumnType::Integer => Ok(Cell::Integer(value)),
            #[allow(clippy::cast_precision_loss)]
            ColumnType::Real => Ok(Cell::Real(value as f64)),
            _ => self.misfit(),
        })
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Fitted, E> {
        Ok(match (self.0, i64::try_from(value)) {
            (ColumnType::Integer, Ok(value)) => Ok(Cell::Integer(value)),
            (ColumnType::Integer, Err(_)) => Err("an integer beyond the 64-bit signed range"),
            #[allow(clippy::cast_precision_loss)]
            (ColumnType::Real, _) => Ok(Cell::Real(value as f64)),
            _ => self.misfit(),
        })
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Fitted, E> {
        Ok(match self.0 {
            ColumnType::Real => Ok(Cell::Real(value)),
            _ => self.misfit(),
        })
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Fitted, E> {
        Ok(self.text(value.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Fitted, E> {
        Ok(self.text(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Fitted, A::Error> {
        if self.0 != ColumnType::TextList {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(self.misfit());
        }
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(4));
        while let Some(item) = seq.next_element_seed(CellSeed(ColumnType::Text))? {
            match item {
                Ok(Cell::Text(text)) => items.push(text),
                _ => {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    return Ok(Err("a list with an item that is not a string"));
                }
            }
        }
        Ok(Ok(Cell::TextList(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fitted, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(self.misfit())
    }
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date.
fn date(text: &str) -> Option<i32> {
    if text.len() != 10 {
        return None;
    }
    let date = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    let epoch = chrono::NaiveDate::from_ymd_opt(1970, 1, 1)?;
    i32::try_from((date - epoch).num_days()).ok()
}
