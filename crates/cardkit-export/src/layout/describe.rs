//! The layout in words: as `cardkit export --describe` prints it, and as
//! Markdown for `docs/tables.md`.

use std::fmt::Write as _;

use cardkit::schema::Names;

use super::tables::{Column, Layout, Source, LAYOUT_VERSION};

impl Layout {
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
             in any column (the tables declare no NOT NULL). \
             The checks of `cardkit validate --references` written as SQL over these tables, \
             one query per rule, are in [references.md](references.md#the-same-rules-in-sql); \
             `--describe` prints them after the tables.\n"
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
