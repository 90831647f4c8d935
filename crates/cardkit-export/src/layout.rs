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

use std::fmt::Write as _;
use std::sync::OnceLock;

use cardkit::schema::Names;
use cardkit::schema::{FieldDef, Format, ModelDef, Type, Version};
use cardkit::Kind;

/// The version of the layout, written into `meta`. It changes when a table
/// or column is added, removed, renamed or changes type; the layout test
/// compares the layout with a committed snapshot, so that no change goes
/// unnoticed.
pub const LAYOUT_VERSION: i64 = 2;

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
}

/// The layout, generated once from the field tables.
#[must_use]
pub fn layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(generate)
}

/// The name of the table of a model.
fn table_name(model: &ModelDef) -> String {
    match model.name {
        "Set" => "sets".into(),
        "CardSet" => "cards".into(),
        "CardToken" => "tokens".into(),
        "Ruling" => "rulings".into(),
        "SealedProduct" => "sealed_products".into(),
        "Translations" => "set_translations".into(),
        "Migration" => "migrations".into(),
        other => snake_case(other),
    }
}

/// `shopAId` → `shop_a_id`, `old_catalogA_id` → `old_catalog_a_id`,
/// `codeV3` → `code_v3`, `Portuguese (Brazil)` → `portuguese_brazil`.
#[must_use]
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let after_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let before_lower = i > 0
                && chars[i - 1].is_ascii_uppercase()
                && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if (after_lower || before_lower) && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// The column type of a field's type, or `None` when it is a model (or a
/// list of models), which makes rows of its own.
fn column_type(ty: &Type) -> Option<ColumnType> {
    Some(match ty {
        Type::String {
            format: Some(Format::Date),
        } => ColumnType::Date,
        Type::String { .. } | Type::Const { .. } | Type::Enum { .. } => ColumnType::Text,
        Type::Integer => ColumnType::Integer,
        Type::Number => ColumnType::Real,
        Type::Boolean => ColumnType::Boolean,
        Type::List { item } => match item {
            Type::String { .. } | Type::Const { .. } | Type::Enum { .. } => ColumnType::TextList,
            Type::Model { .. } => return None,
            _ => ColumnType::Json,
        },
        Type::Model { .. } => return None,
        Type::FreeObject | Type::Tagged(_) | Type::AnyOf { .. } => ColumnType::Json,
    })
}

/// The first line of a doc comment.
fn first_sentence(doc: &str) -> String {
    doc.lines().next().unwrap_or_default().trim().to_owned()
}

fn build_column() -> Column {
    Column {
        name: "build".into(),
        ty: ColumnType::Text,
        nullable: true,
        since: None,
        deprecated: false,
        doc: "The build label given with --build (a partition in Parquet); NULL without one."
            .into(),
        source: Source::Build,
    }
}

fn plain(name: &str, ty: ColumnType, nullable: bool, doc: &str, source: Source) -> Column {
    Column {
        name: name.into(),
        ty,
        nullable,
        since: None,
        deprecated: false,
        doc: doc.into(),
        source,
    }
}

/// The key of an owner, as its children's tables name it.
#[derive(Clone, Copy)]
struct OwnerKey {
    /// The column name in the children's tables.
    column: &'static str,
    doc: &'static str,
}

struct Generator {
    tables: Vec<Table>,
    nodes: Vec<Node>,
    /// The node made for each model, by its name.
    made: Vec<(&'static str, usize)>,
}

impl Generator {
    /// The node of `model`, made (with its children's) when first met.
    fn node(&mut self, model: &'static ModelDef, owner: Option<OwnerKey>, listed: bool) -> usize {
        if let Some(&(_, node)) = self.made.iter().find(|(name, _)| *name == model.name) {
            let table = &mut self.tables[self.nodes[node].table];
            if listed && table.column("position").is_none() {
                let at = table.columns.len().min(2);
                table.columns.insert(at, position_column());
                // Columns moved: the node's places are renumbered.
                for place in &mut self.nodes[node].fields {
                    if let Place::Column(index, _) = place {
                        if *index >= at {
                            *index += 1;
                        }
                    }
                }
            }
            return node;
        }
        let table = self.tables.len();
        let mut columns = vec![build_column()];
        let own_names: Vec<String> = model.fields.iter().map(|f| snake_case(f.name)).collect();
        if let Some(owner) = owner {
            let name = if own_names.iter().any(|n| n == owner.column) {
                format!("parent_{}", owner.column)
            } else {
                owner.column.to_owned()
            };
            columns.push(plain(
                &name,
                ColumnType::Text,
                true,
                owner.doc,
                Source::OwnerKey,
            ));
        }
        if listed {
            columns.push(position_column());
        }
        self.tables.push(Table {
            name: table_name(model),
            doc: first_sentence(model.doc),
            columns,
            indexed: Vec::new(),
        });
        let node = self.nodes.len();
        let key = model
            .fields
            .iter()
            .find(|f| f.name == "uuid")
            .or_else(|| model.fields.iter().find(|f| f.name == "code"));
        self.nodes.push(Node {
            model,
            table,
            key,
            fields: Vec::new(),
        });
        self.made.push((model.name, node));
        let child_owner = key.map(|key| match key.name {
            "code" => OwnerKey {
                column: "set_code",
                doc: "The code of the set the row is in.",
            },
            _ => OwnerKey {
                column: "uuid",
                doc: "The uuid of the card, token or product the row belongs to.",
            },
        });
        let mut places = Vec::new();
        for field in model.fields {
            let place = match (column_type(field.ty), field.ty) {
                (Some(ty), _) => {
                    let columns = &mut self.tables[table].columns;
                    columns.push(Column {
                        name: snake_case(field.name),
                        ty,
                        nullable: !field.required || field.nullable,
                        since: field.since,
                        deprecated: field.deprecated,
                        doc: first_sentence(field.doc),
                        source: Source::Field(field),
                    });
                    Place::Column(columns.len() - 1, ty)
                }
                (None, Type::Model { model: child }) if child().name == "Translations" => {
                    Place::Translations(self.translations(child(), child_owner), child())
                }
                (None, Type::Model { model: child }) => {
                    Place::Child(self.node(child(), child_owner, false))
                }
                (None, Type::List { item }) => match item {
                    Type::Model { model: child } => {
                        Place::Children(self.node(child(), child_owner, true))
                    }
                    _ => unreachable!("column_type gives every other list a column"),
                },
                (None, _) => unreachable!("column_type gives every other type a column"),
            };
            places.push(place);
        }
        self.nodes[node].fields = places;
        node
    }

    /// The table of a set's translations: one row per language.
    fn translations(&mut self, model: &'static ModelDef, owner: Option<OwnerKey>) -> usize {
        let languages: Vec<&str> = model.fields.iter().map(|f| f.name).collect();
        let mut columns = vec![build_column()];
        if let Some(owner) = owner {
            columns.push(plain(
                owner.column,
                ColumnType::Text,
                true,
                owner.doc,
                Source::OwnerKey,
            ));
        }
        let language_doc = format!("The language: {}.", languages.join(", "));
        columns.push(plain(
            "language",
            ColumnType::Text,
            false,
            &language_doc,
            Source::Language,
        ));
        columns.push(plain(
            "name",
            ColumnType::Text,
            true,
            "The set's name in that language.",
            Source::Translation,
        ));
        self.tables.push(Table {
            name: table_name(model),
            doc: format!(
                "{} One row per set and language.",
                first_sentence(model.doc)
            ),
            columns,
            indexed: Vec::new(),
        });
        self.tables.len() - 1
    }
}

fn position_column() -> Column {
    plain(
        "position",
        ColumnType::Integer,
        false,
        "The row's place in its owner's list, from 0.",
        Source::Position,
    )
}

fn generate() -> Layout {
    let mut generator = Generator {
        tables: Vec::new(),
        nodes: Vec::new(),
        made: Vec::new(),
    };
    let set = generator.node(Kind::Set.model(), None, false);
    let migration = generator.node(Kind::Migration.model(), None, false);
    let meta_columns = vec![
        build_column(),
        plain(
            "input",
            ColumnType::Text,
            false,
            "The input the documents came from (`<stdin>` for standard input).",
            Source::Meta(MetaFact::Input),
        ),
        plain(
            "meta",
            ColumnType::Json,
            true,
            "The input's `meta` member, as JSON; NULL when it has none (or one over 1 MiB).",
            Source::Meta(MetaFact::InputMeta),
        ),
        plain(
            "cardkit_version",
            ColumnType::Text,
            false,
            "The version of cardkit that wrote the export.",
            Source::Meta(MetaFact::CardkitVersion),
        ),
        plain(
            "layout_version",
            ColumnType::Integer,
            false,
            "The version of this layout.",
            Source::Meta(MetaFact::LayoutVersion),
        ),
    ];
    generator.tables.push(Table {
        name: "meta".into(),
        doc: "One row per input of a run: where the rows came from, and which layout they are in."
            .into(),
        columns: meta_columns,
        indexed: Vec::new(),
    });
    let meta = generator.tables.len() - 1;
    // The members the spec does not define, last in each model's table.
    for node in &generator.nodes {
        let table = &mut generator.tables[node.table];
        let name = if table.column("extra").is_some() {
            "cardkit_extra"
        } else {
            "extra"
        };
        table.columns.push(plain(
            name,
            ColumnType::Members,
            true,
            "The members of the object that the spec does not define, as a JSON object (PostgreSQL jsonb, Parquet of the JSON logical type), kept with --keep-unknown; NULL without the flag or when there are none.",
            Source::Extra,
        ));
    }
    for table in &mut generator.tables {
        table.indexed = ["uuid", "name", "code", "set_code", "parent_set_code"]
            .iter()
            .filter_map(|name| table.column(name))
            .collect();
    }
    Layout {
        tables: generator.tables,
        nodes: generator.nodes,
        set,
        migration,
        meta,
    }
}

impl Layout {
    /// The table named `name`.
    #[must_use]
    pub fn table(&self, name: &str) -> Option<usize> {
        self.tables.iter().position(|t| t.name == name)
    }

    /// The layout in words, as `cardkit export --describe` prints it: each
    /// table, then each column's name, type, nullability, version tag and
    /// meaning.
    #[must_use]
    pub fn describe(&self) -> String {
        self.describe_named(Names::Spec)
    }

    /// [`Layout::describe`] for documents that use the wire names `names`:
    /// the columns are the same, and each column read from a field the
    /// documents name otherwise says under which name.
    #[must_use]
    pub fn describe_named(&self, names: Names) -> String {
        let mut out = format!("cardkit export layout, version {LAYOUT_VERSION}\n");
        for table in &self.tables {
            let _ = writeln!(out, "\n{}: {}", table.name, table.doc);
            let width = table
                .columns
                .iter()
                .map(|c| c.name.len())
                .max()
                .unwrap_or(0);
            for column in &table.columns {
                let _ = writeln!(
                    out,
                    "  {:width$}  {:9}  {:8}  {:6}  {}{}",
                    column.name,
                    column.ty.name(),
                    if column.nullable { "null" } else { "not null" },
                    column
                        .since
                        .map_or_else(|| "-".to_owned(), |v| v.to_string()),
                    if column.deprecated {
                        "(deprecated) "
                    } else {
                        ""
                    },
                    read_from(column, names).unwrap_or_default() + &column.doc,
                );
            }
            let indexed: Vec<&str> = table
                .indexed
                .iter()
                .map(|&i| table.columns[i].name.as_str())
                .collect();
            if !indexed.is_empty() {
                let _ = writeln!(out, "  indexed on {}", indexed.join(", "));
            }
        }
        out
    }

    /// The layout as Markdown, for `docs/tables.md`.
    #[must_use]
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "# Export tables\n\nThe tables `cardkit export` writes (layout version {LAYOUT_VERSION}), \
             generated from the field tables (`cardkit export --describe` prints the same). \
             Do not edit: `CARDKIT_BLESS=1 cargo test -p cardkit-export --test layout` rewrites it.\n\n\
             Types: `text`; `integer` (64-bit); `real` (64-bit float); `boolean`; `date`; \
             `text list` (PostgreSQL `text[]`, a Parquet list of strings, JSON text in SQLite); \
             `json` (JSON text; `extra`, the members the spec does not define, kept with \
             `--keep-unknown`, is a PostgreSQL `jsonb` and a Parquet string of the JSON logical type). \
             Every table has `build` (a Hive partition `build=LABEL/` in Parquet). \
             *null* says whether a valid document may leave the column NULL; with \
             `--on-invalid keep`, the invalid or missing values of invalid documents are NULL \
             in any column (the tables declare no NOT NULL).\n"
        );
        for table in &self.tables {
            let _ = write!(out, "\n## `{}`\n\n{}\n\n", table.name, table.doc);
            out.push_str("| column | type | null | since | meaning |\n|---|---|---|---|---|\n");
            for column in &table.columns {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {} | {} | {}{} |",
                    column.name,
                    column.ty.name(),
                    if column.nullable { "yes" } else { "no" },
                    column
                        .since
                        .map_or_else(|| "-".to_owned(), |v| v.to_string()),
                    if column.deprecated {
                        "deprecated. "
                    } else {
                        ""
                    },
                    column.doc.replace('|', "\\|"),
                );
            }
            let indexed: Vec<String> = table
                .indexed
                .iter()
                .map(|&i| format!("`{}`", table.columns[i].name))
                .collect();
            if !indexed.is_empty() {
                let _ = writeln!(out, "\nIndexed on {}.", indexed.join(", "));
            }
        }
        out
    }
}

/// Where a column is read from when its field has another wire name than
/// the spec's, in words before its meaning.
fn read_from(column: &Column, names: Names) -> Option<String> {
    let Source::Field(field) = column.source else {
        return None;
    };
    let wire = names.name_of_field(field);
    (wire != field.name).then(|| format!("(from `{wire}`, the spec's `{}`) ", field.name))
}
