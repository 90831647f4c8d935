//! The reference rules of `cardkit validate --references` written once more
//! as SQL over the export's tables (`sql/references/`), so that an engine
//! over an export too large for one machine (DuckDB over Parquet, Spark
//! over a partitioned build) checks a catalog: one query per rule, each
//! giving rows of (code, set_code, kind, position, field, item, value), the
//! place and value of each finding. `cardkit export --describe` prints
//! them; the book's chapter on references says how they differ from the
//! streaming check.

/// The queries, by name, in the order they are run: the two the rules read
/// (`reference_records`, and `reference_items` in standard SQL and in
/// Spark SQL's words), then one per rule.
pub const QUERIES: &[(&str, &str)] = &[
    (
        "reference_records",
        include_str!("../sql/references/reference_records.sql"),
    ),
    (
        "reference_items",
        include_str!("../sql/references/reference_items.sql"),
    ),
    (
        "reference_items.spark",
        include_str!("../sql/references/reference_items.spark.sql"),
    ),
    (
        "duplicate_id",
        include_str!("../sql/references/duplicate_id.sql"),
    ),
    (
        "duplicate_printing",
        include_str!("../sql/references/duplicate_printing.sql"),
    ),
    (
        "set_code_mismatch",
        include_str!("../sql/references/set_code_mismatch.sql"),
    ),
    (
        "asymmetric_faces",
        include_str!("../sql/references/asymmetric_faces.sql"),
    ),
    (
        "variation_elsewhere",
        include_str!("../sql/references/variation_elsewhere.sql"),
    ),
    (
        "dangling_reference",
        include_str!("../sql/references/dangling_reference.sql"),
    ),
    (
        "dangling_reference_catalog",
        include_str!("../sql/references/dangling_reference_catalog.sql"),
    ),
];

/// The queries in words, as `cardkit export --describe` prints them after
/// the tables.
#[must_use]
pub fn describe() -> String {
    let mut out = String::from(
        "Reference rules in SQL (the checks of `cardkit validate --references`, one query per rule \
         over the tables above; see the book's chapter on references). Make `reference_records` and \
         `reference_items` views first (`reference_items.spark` in Spark SQL), then run each rule \
         over one build; `dangling_reference_catalog` only over an export of a whole catalog. Each \
         rule gives rows of (code, set_code, kind, position, field, item, value).\n",
    );
    for (name, query) in QUERIES {
        out.push_str(&format!("\n-- {name}.sql\n{}", query.trim_end()));
        out.push('\n');
    }
    out
}
