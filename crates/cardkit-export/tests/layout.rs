//! The layout is a published contract: it is generated from the field
//! tables, compared with a committed snapshot (a column cannot change type
//! or disappear unnoticed: the snapshot names the layout version, which such
//! a change must raise), and `docs/tables.md` is generated from it.

use std::collections::HashSet;
use std::path::Path;

use cardkit::schema::models_of;
use cardkit::Kind;
use cardkit_export::layout::{layout, snake_case, ColumnType, Place, LAYOUT_VERSION};

#[test]
fn the_layout_is_the_committed_one() {
    // A change here is a change of the published layout: raise
    // LAYOUT_VERSION with it, and say so in the book (docs/export.md).
    insta::assert_snapshot!("layout", layout().describe());
}

#[test]
fn docs_tables_md_is_generated_from_the_layout() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/tables.md");
    let generated = layout().markdown();
    if std::env::var("CARDKIT_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("docs/tables.md is written");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/tables.md is stale: CARDKIT_BLESS=1 cargo test -p cardkit-export --test layout rewrites it"
    );
}

#[test]
fn every_field_of_sets_and_migrations_has_a_place() {
    let layout = layout();
    let mut placed = HashSet::new();
    for node in &layout.nodes {
        assert_eq!(
            node.fields.len(),
            node.model.fields.len(),
            "{}",
            node.model.name
        );
        let table = &layout.tables[node.table];
        for (field, place) in node.model.fields.iter().zip(&node.fields) {
            if let Place::Column(index, ty) = *place {
                let column = &table.columns[index];
                assert_eq!(
                    column.name,
                    snake_case(field.name),
                    "{}.{}",
                    node.model.name,
                    field.name
                );
                assert_eq!(column.ty, ty);
                assert_eq!(column.since, field.since);
            }
        }
        placed.insert(node.model.name);
    }
    for kind in [Kind::Set, Kind::Migration] {
        for model in models_of(kind.model()) {
            assert!(
                placed.contains(model.name) || model.name == "Translations",
                "{} has no table",
                model.name
            );
        }
    }
}

#[test]
fn names_are_snake_case_unique_and_build_comes_first() {
    let layout = layout();
    let mut tables = HashSet::new();
    for table in &layout.tables {
        assert!(
            tables.insert(table.name.as_str()),
            "table {} twice",
            table.name
        );
        assert_eq!(table.columns[0].name, "build", "{}", table.name);
        let mut columns = HashSet::new();
        for column in &table.columns {
            let name = column.name.as_str();
            assert!(columns.insert(name), "{}.{name} twice", table.name);
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{}.{name}",
                table.name
            );
        }
    }
    for name in [
        "sets",
        "cards",
        "tokens",
        "identifiers",
        "legalities",
        "purchase_urls",
        "foreign_data",
        "rulings",
        "related_cards",
        "leadership_skills",
        "sealed_products",
        "set_translations",
        "migrations",
        "meta",
    ] {
        assert!(tables.contains(name), "no table {name}");
    }
}

#[test]
fn columns_have_the_types_of_their_fields() {
    let layout = layout();
    let ty = |table: &str, column: &str| {
        let table = &layout.tables[layout.table(table).expect(table)];
        table.columns[table.column(column).expect(column)].ty
    };
    assert_eq!(ty("sets", "release_date"), ColumnType::Date);
    assert_eq!(ty("sets", "base_set_size"), ColumnType::Integer);
    assert_eq!(ty("sets", "booster"), ColumnType::Json);
    assert_eq!(ty("sets", "languages"), ColumnType::TextList);
    assert_eq!(ty("cards", "mana_value"), ColumnType::Real);
    assert_eq!(ty("cards", "colors"), ColumnType::TextList);
    assert_eq!(ty("cards", "is_reprint"), ColumnType::Boolean);
    assert_eq!(ty("cards", "parent_set_code"), ColumnType::Text);
    assert_eq!(ty("foreign_data", "position"), ColumnType::Integer);
    assert_eq!(ty("sealed_products", "set_code"), ColumnType::Text);
    assert_eq!(ty("migrations", "old_catalog_a_id"), ColumnType::Text);
    assert_eq!(ty("meta", "layout_version"), ColumnType::Integer);
    assert!(layout.describe().starts_with(&format!(
        "cardkit export layout, version {LAYOUT_VERSION}\n"
    )));
}

#[test]
fn the_findings_table_has_the_columns_of_the_rules_written_as_sql() {
    // Each rule gives rows of (code, set_code, kind, position, field, item,
    // value): the table has them, under the same names, so that the two
    // compare row for row.
    let (_, rule) = cardkit_export::references::QUERIES
        .iter()
        .find(|(name, _)| *name == "duplicate_id")
        .expect("the rule");
    assert!(
        rule.contains("SELECT 'duplicate_id' AS code, set_code, kind, position, 'uuid' AS field,")
    );
    let layout = layout();
    let table = &layout.tables[layout.reference_findings];
    assert_eq!(table.name, "reference_findings");
    let names: Vec<&str> = table.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names[..8],
        ["build", "set_code", "code", "kind", "position", "field", "item", "value"]
    );
    assert_eq!(
        table.column("position").map(|c| table.columns[c].ty),
        Some(ColumnType::Integer)
    );
    assert_eq!(
        table.column("item").map(|c| table.columns[c].ty),
        Some(ColumnType::Integer)
    );
}
