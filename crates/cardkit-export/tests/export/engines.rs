//! Independent engines read the export and agree: the same queries (rows per
//! table and build, cards joined with their identifiers and legalities,
//! cards per set per build, dates, integers, booleans and lists) give the
//! same answers from SQLite, from the Parquet files read by DuckDB and by
//! Apache Spark in local mode, and from a PostgreSQL server started for the
//! test, and so do the findings of the references the export writes
//! (`reference_findings`). The queries are `engines/queries.py`.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use cardkit_export::{OnInvalid, Target};
use serde_json::Value;

/// The answers of one engine.
fn answers(python: &Path, engine: &str, at: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/queries.py");
    let output = Command::new(python)
        .arg(script)
        .args([engine, at])
        .output()
        .expect("the queries run");
    assert!(
        output.status.success(),
        "{engine}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the answers are JSON")
}

/// Two builds: the corpus's sets and migrations with a generated catalog
/// (invalid documents kept with NULLs), and the catalog alone.
fn builds(shared: &Path, dir: &Path) -> Vec<(&'static str, Vec<PathBuf>)> {
    let catalog = support::generated_catalog(shared, dir, 2);
    let mut first = support::corpus_sets(shared);
    let migrations = shared.join("corpus/neutral/migration");
    let mut more: Vec<PathBuf> = std::fs::read_dir(migrations)
        .expect("the corpus's migrations")
        .map(|e| e.expect("an entry").path())
        .collect();
    more.sort();
    first.extend(more);
    first.push(catalog.clone());
    vec![("b1", first), ("b2", vec![catalog])]
}

fn export_builds(target: &Target, builds: &[(&str, Vec<PathBuf>)]) {
    for (build, inputs) in builds {
        support::export_with_references(target, inputs, OnInvalid::Keep, Some(build));
    }
}

#[test]
fn sqlite_duckdb_spark_and_postgresql_give_the_same_answers() {
    let (Some(shared), Some(python)) = (support::shared_dir(), support::python()) else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let builds = builds(&shared, dir.path());
    let db = dir.path().join("export.db");
    let parquet = dir.path().join("parquet");
    export_builds(&Target::Sqlite(db.clone()), &builds);
    export_builds(&Target::Parquet(parquet.clone()), &builds);

    let expected = answers(&python, "sqlite", &db.display().to_string());
    let counts = expected["counts"].as_array().expect("counts");
    assert!(
        counts.len() >= 25,
        "rows in most tables of both builds: {counts:?}"
    );
    assert!(
        counts.iter().any(|row| row[0] == "migrations"),
        "{counts:?}"
    );
    let joined = expected["cards_identifiers_legalities"]
        .as_array()
        .expect("rows");
    // (Over 10,000 while the corpus's BRO and LEA, in two files each, were
    // stored twice; each is now kept once.)
    assert!(joined.len() > 8_000, "{} joined rows", joined.len());

    let findings = expected["reference_findings"].as_array().expect("rows");
    // The corpus's defects and its sets read twice (782 when written), and
    // the generated catalog's partial references, in each build.
    assert!(findings.len() > 500, "{} findings", findings.len());
    for build in ["b1", "b2"] {
        assert!(
            findings.iter().any(|row| row[0] == build),
            "no finding in {build}"
        );
    }

    let parquet = parquet.display().to_string();
    assert_eq!(
        answers(&python, "duckdb", &parquet),
        expected,
        "DuckDB on Parquet"
    );
    assert_eq!(
        answers(&python, "spark", &parquet),
        expected,
        "Spark on Parquet"
    );

    let server = support::postgres::Server::start();
    export_builds(&Target::Postgres(server.url.clone()), &builds);
    assert_eq!(
        answers(&python, "postgres", &server.url),
        expected,
        "PostgreSQL"
    );
}

/// Text PostgreSQL cannot store (U+0000) is handled as values of another
/// type are: with `fail` the run commits nothing and says where the text
/// is; with `keep` the document is exported with that value NULL.
#[test]
fn text_postgresql_cannot_store_is_null_and_invalid_modes_decide() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/valid");
    let server = support::postgres::Server::start();
    let target = Target::Postgres(server.url.clone());
    support::export(
        &target,
        &[examples.join("set.json")],
        OnInvalid::Fail,
        Some("good"),
    );

    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut set: Value = serde_json::from_str(
        &std::fs::read_to_string(examples.join("set.json")).expect("the example"),
    )
    .expect("JSON");
    set["name"] = Value::from("Nul\u{0}Set");
    let bad = dir.path().join("nul.json");
    std::fs::write(&bad, set.to_string()).expect("the input");

    let (totals, notes) = support::export(
        &target,
        std::slice::from_ref(&bad),
        OnInvalid::Fail,
        Some("bad"),
    );
    assert!(totals.failed, "nothing committed");
    let at = format!("{} /", bad.display());
    assert!(
        notes.contains(&format!(
            "{at}: /name: text holding the NUL character (U+0000), which PostgreSQL cannot store: stored as NULL"
        )),
        "{notes:?}"
    );
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).expect("a client");
    let builds = |client: &mut postgres::Client| -> Vec<String> {
        client
            .query("SELECT DISTINCT build FROM sets ORDER BY build", &[])
            .expect("the sets")
            .iter()
            .map(|row| row.get(0))
            .collect()
    };
    assert_eq!(builds(&mut client), ["good"]);

    let (totals, _) = support::export(&target, &[bad], OnInvalid::Keep, Some("bad"));
    assert_eq!((totals.exported, totals.kept_invalid), (1, 1));
    assert_eq!(builds(&mut client), ["bad", "good"]);
    let row = client
        .query_one("SELECT name, code FROM sets WHERE build = 'bad'", &[])
        .expect("the set kept");
    let (name, code): (Option<String>, Option<String>) = (row.get(0), row.get(1));
    assert_eq!(name, None);
    assert_eq!(code.as_deref(), set["code"].as_str());
}
