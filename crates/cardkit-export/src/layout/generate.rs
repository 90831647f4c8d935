//! The layout generated from the field tables of `cardkit::schema`, by the
//! rules the module's documentation lists.

use cardkit::schema::{Format, ModelDef, Type};
use cardkit::Kind;

use super::tables::{
    Column, ColumnType, FindingFact, Layout, MetaFact, Node, Place, Source, Table,
};

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

pub(super) fn generate() -> Layout {
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
    generator.tables.push(reference_findings());
    let reference_findings = generator.tables.len() - 1;
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
        reference_findings,
    }
}

/// The table of the findings of `--references`: a row per finding, in the
/// words of the rules written as SQL (`sql/references/`), so that the two
/// compare row for row, and where the finding is.
fn reference_findings() -> Table {
    let fact =
        |name, ty, nullable, doc, fact| plain(name, ty, nullable, doc, Source::Finding(fact));
    let columns = vec![
        build_column(),
        plain(
            "set_code",
            ColumnType::Text,
            true,
            "The code of the set whose document holds the value; NULL for a set without one.",
            Source::OwnerKey,
        ),
        fact(
            "code",
            ColumnType::Text,
            false,
            "The finding's code: duplicate_id, duplicate_printing, set_code_mismatch, asymmetric_faces, variation_elsewhere or dangling_reference.",
            FindingFact::Code,
        ),
        fact(
            "kind",
            ColumnType::Text,
            false,
            "What holds the value: `card`, `token` or `sealed` (a record of the set), or `set` (the set itself).",
            FindingFact::Kind,
        ),
        fact(
            "position",
            ColumnType::Integer,
            true,
            "The record's place in its list (`cards`, `tokens`, `sealedProduct`), from 0; NULL for a value of the set itself.",
            FindingFact::Position,
        ),
        fact(
            "field",
            ColumnType::Text,
            false,
            "The member holding the value, from its record or set: `otherFaceIds`, `uuid`, `number`, `setCode`, `relatedCards.reverseRelated`, `parentCode`, `code`…",
            FindingFact::Field,
        ),
        fact(
            "item",
            ColumnType::Integer,
            true,
            "The value's place in its list, from 0; NULL for a single value.",
            FindingFact::Item,
        ),
        fact(
            "value",
            ColumnType::Text,
            false,
            "The value: the uuid, card name or set code named or given.",
            FindingFact::Value,
        ),
        fact(
            "severity",
            ColumnType::Text,
            false,
            "`warning`, or `error` with --references=error.",
            FindingFact::Severity,
        ),
        fact(
            "message",
            ColumnType::Text,
            false,
            "The finding in words, as `cardkit validate --references` reports it.",
            FindingFact::Message,
        ),
        fact(
            "input",
            ColumnType::Text,
            false,
            "The input the value was read from, as `meta` names it.",
            FindingFact::Input,
        ),
        fact(
            "pointer",
            ColumnType::Text,
            false,
            "The value's JSON Pointer in its input.",
            FindingFact::Pointer,
        ),
        fact(
            "line",
            ColumnType::Integer,
            false,
            "The value's line in its input, from 1.",
            FindingFact::Line,
        ),
        fact(
            "related_input",
            ColumnType::Text,
            true,
            "The input of the second place, when there is one: where a duplicate was first given, the face that does not name the record back, the record a variation names.",
            FindingFact::RelatedInput,
        ),
        fact(
            "related_pointer",
            ColumnType::Text,
            true,
            "The second place's JSON Pointer in its input; NULL when there is none.",
            FindingFact::RelatedPointer,
        ),
    ];
    Table {
        name: "reference_findings".into(),
        doc: "One row per finding of the references between the documents a run read (`--references`); empty without it. A finding is kept with its set: a set exported again replaces its rows.".into(),
        columns,
        indexed: Vec::new(),
    }
}
