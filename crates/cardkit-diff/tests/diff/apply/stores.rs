//! `migrate apply` on the tables of a store made by `cardkit export`: SQLite
//! always, PostgreSQL with a throwaway server; in one transaction, larger
//! than a batch, one build only, rows named by table and key.

use super::*;

/// A store made by `cardkit export` from a generated set, and the catalog
/// ids of its cards.
fn exported(target: &Target) -> Vec<String> {
    exported_as(target, None)
}

/// [`exported`], as the build `build`.
fn exported_as(target: &Target, build: Option<&str>) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let spec = support::pairs::Spec {
        seed: 5,
        sets: 1,
        cards: 4,
        changes: 0,
        set_changes: false,
    };
    let (old, _, _) = support::pair(dir.path(), &spec);
    let set = std::fs::read(old).unwrap();
    let mut exporter = Exporter::open(target, OnInvalid::Fail, build, 1).unwrap();
    exporter
        .input(
            "old.json",
            &set[..],
            &cardkit::Options::default(),
            |_| {},
            |_| {},
        )
        .unwrap();
    exporter.finish().unwrap();
    let value: serde_json::Value = serde_json::from_slice(&set).unwrap();
    value["data"]["S000"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["identifiers"]["catalogAId"].as_str().unwrap().to_owned())
        .collect()
}

fn store_plan(ids: &[String]) -> Plan {
    plan(&[
        notice("n1", &ids[0], Some(A), "2024-01-01"),
        notice("n2", &ids[1], None, "2024-01-01"),
    ])
    .unwrap()
}

#[test]
fn a_sqlite_store_in_one_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let target = Target::Sqlite(path.clone());
    let ids = exported(&target);
    let p = store_plan(&ids);
    let column = |c: &str| {
        let db = rusqlite::Connection::open(&path).unwrap();
        let mut q = db
            .prepare(&format!("SELECT {c} FROM identifiers ORDER BY rowid"))
            .unwrap();
        q.query_map([], |r| r.get::<_, Option<String>>(0))
            .unwrap()
            .map(Result::unwrap)
            .collect::<Vec<_>>()
    };
    let run = |on_delete, dry_run, report: &mut Report| {
        let options = ApplyOptions { on_delete, dry_run };
        store::apply(
            &target,
            "identifiers",
            "catalog_a_id",
            None,
            &p,
            options,
            report,
        )
    };
    let before = column("catalog_a_id");
    let mut report = Report::default();
    run(OnDelete::Drop, true, &mut report).unwrap();
    assert_eq!(report.changes.len(), 2);
    assert_eq!(column("catalog_a_id"), before, "a dry run changes nothing");
    assert!(run(OnDelete::Fail, false, &mut Report::default()).is_err());
    assert_eq!(
        column("catalog_a_id"),
        before,
        "a failed run changes nothing"
    );
    let mut report = Report::default();
    run(OnDelete::Drop, false, &mut report).unwrap();
    let after = column("catalog_a_id");
    assert!(after.contains(&Some(A.to_owned())));
    assert!(!after.contains(&Some(ids[1].clone())));
    assert_eq!(after.len(), before.len() - 1);
    let mut again = Report::default();
    run(OnDelete::Drop, false, &mut again).unwrap();
    assert!(again.changes.is_empty());
    let wrong = store::apply(
        &target,
        "identifiers",
        "nope",
        None,
        &p,
        options(OnDelete::Keep),
        &mut Report::default(),
    );
    assert!(wrong
        .unwrap_err()
        .0
        .starts_with("--column nope: no such column in table identifiers"));
}

#[test]
fn a_sqlite_store_larger_than_a_batch_is_rewritten_whole() {
    // The rows are read a batch (4,096) at a time; 10,000 more references
    // to the merged id and to the deleted one, interleaved, are all met.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let target = Target::Sqlite(path.clone());
    let ids = exported(&target);
    let db = rusqlite::Connection::open(&path).unwrap();
    db.execute_batch("BEGIN").unwrap();
    for i in 0..10_000 {
        db.execute(
            "INSERT INTO identifiers (catalog_a_id) VALUES (?1)",
            [&ids[i % 2]],
        )
        .unwrap();
    }
    db.execute_batch("COMMIT").unwrap();
    let count = |id: &str| -> i64 {
        db.query_row(
            "SELECT count(*) FROM identifiers WHERE catalog_a_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap()
    };
    let (merged, deleted) = (count(&ids[0]), count(&ids[1]));
    assert_eq!((merged, deleted), (5_001, 5_001));
    let mut report = Report::default();
    let options = ApplyOptions {
        on_delete: OnDelete::Drop,
        dry_run: false,
    };
    store::apply(
        &target,
        "identifiers",
        "catalog_a_id",
        None,
        &store_plan(&ids),
        options,
        &mut report,
    )
    .unwrap();
    assert_eq!(report.changes.len(), 10_002);
    assert_eq!((count(&ids[0]), count(&ids[1]), count(A)), (0, 0, 5_001));
}

#[test]
fn a_postgresql_store_larger_than_a_batch_is_rewritten_whole_through_its_portal() {
    // The rows are fetched a batch (4,096) at a time from a portal while
    // the batch's changes are made: 10,000 more references to the merged
    // id and to the deleted one, interleaved, are all met, in one build.
    let server = postgres_server::Server::start();
    let target = Target::Postgres(server.url.clone());
    let ids = exported_as(&target, Some("b1"));
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    client
        .execute(
            "INSERT INTO identifiers (build, catalog_a_id) \
             SELECT CASE WHEN i % 3 = 0 THEN 'b2' ELSE 'b1' END, \
                    CASE WHEN i % 2 = 0 THEN $1 ELSE $2 END \
             FROM generate_series(0, 9999) AS i",
            &[&ids[0], &ids[1]],
        )
        .unwrap();
    let mut count = |id: &str, build: &str| -> i64 {
        client
            .query_one(
                "SELECT count(*) FROM identifiers WHERE catalog_a_id = $1 AND build = $2",
                &[&id, &build],
            )
            .unwrap()
            .get(0)
    };
    let b2 = (count(&ids[0], "b2"), count(&ids[1], "b2"));
    let b1 = (count(&ids[0], "b1"), count(&ids[1], "b1"));
    assert_eq!(b1.0 + b1.1 + b2.0 + b2.1, 10_002);
    let mut report = Report::default();
    store::apply(
        &target,
        "identifiers",
        "catalog_a_id",
        Some("b1"),
        &store_plan(&ids),
        options(OnDelete::Drop),
        &mut report,
    )
    .unwrap();
    let b1_total = usize::try_from(b1.0 + b1.1).unwrap();
    assert_eq!(report.changes.len(), b1_total);
    assert_eq!(
        (count(&ids[0], "b1"), count(&ids[1], "b1"), count(A, "b1")),
        (0, 0, b1.0)
    );
    assert_eq!((count(&ids[0], "b2"), count(&ids[1], "b2")), b2, "b2 kept");
}

#[test]
fn a_postgresql_store_in_one_transaction() {
    let server = postgres_server::Server::start();
    let target = Target::Postgres(server.url.clone());
    let ids = exported(&target);
    let p = store_plan(&ids);
    let mut report = Report::default();
    store::apply(
        &target,
        "identifiers",
        "catalog_a_id",
        None,
        &p,
        options(OnDelete::Keep),
        &mut report,
    )
    .unwrap();
    assert_eq!(
        (report.count(Action::Merged), report.count(Action::Kept)),
        (1, 1)
    );
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    let found: Vec<Option<String>> = client
        .query("SELECT catalog_a_id FROM identifiers", &[])
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(found.contains(&Some(A.to_owned())));
    assert!(!found.contains(&Some(ids[0].clone())));
    assert!(
        found.contains(&Some(ids[1].clone())),
        "a deleted id is kept"
    );
}

/// The catalog ids of table `identifiers` by build (`None`: no label),
/// sorted.
fn ids_by_build(rows: Vec<(Option<String>, Option<String>)>) -> Vec<(Option<String>, String)> {
    let mut rows: Vec<(Option<String>, String)> = rows
        .into_iter()
        .filter_map(|(build, id)| Some((build, id?)))
        .collect();
    rows.sort();
    rows
}

/// A store with the same set in builds `old` and `new` and unlabelled;
/// `--build new` rewrites only `new`'s rows; an unknown build is refused
/// with the builds there are; without `--build`, every build, said in the
/// summary.
fn only_the_build_asked_for(
    target: &Target,
    read: &dyn Fn() -> Vec<(Option<String>, Option<String>)>,
) {
    let ids = exported_as(target, Some("old"));
    assert_eq!(exported_as(target, Some("new")), ids);
    assert_eq!(exported_as(target, None), ids);
    let p = store_plan(&ids);
    let before = ids_by_build(read());
    let run = |build: Option<&str>, report: &mut Report| {
        store::apply(
            target,
            "identifiers",
            "catalog_a_id",
            build,
            &p,
            options(OnDelete::Drop),
            report,
        )
    };
    let mut report = Report::default();
    let refused = run(Some("nope"), &mut report).unwrap_err().0;
    assert!(
        refused.contains("--build nope: ")
            && refused.contains("has no build of that label in table identifiers")
            && refused.contains("builds there: the build without a label, new, old"),
        "{refused}"
    );
    assert_eq!(
        ids_by_build(read()),
        before,
        "a refused run changes nothing"
    );
    let mut report = Report::default();
    run(Some("new"), &mut report).unwrap();
    assert_eq!(report.scope.as_deref(), Some("build new"));
    assert_eq!(report.changes.len(), 2);
    let mut expected: Vec<(Option<String>, String)> = before
        .iter()
        .filter(|(build, id)| build.as_deref() != Some("new") || *id != ids[1])
        .map(|(build, id)| {
            let merged = build.as_deref() == Some("new") && *id == ids[0];
            (
                build.clone(),
                if merged { A.to_owned() } else { id.clone() },
            )
        })
        .collect();
    expected.sort();
    assert_eq!(
        ids_by_build(read()),
        expected,
        "only build new is rewritten"
    );
    let mut text = Vec::new();
    report.text(false, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains(" references in build new: 1 merged"),
        "{text}"
    );
    let mut report = Report::default();
    run(None, &mut report).unwrap();
    assert_eq!(
        report.scope.as_deref(),
        Some("every build (3: the build without a label, new, old)")
    );
    assert_eq!(report.changes.len(), 4, "builds old and unlabelled");
}

#[test]
fn a_sqlite_store_rewrites_only_the_build_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let read = || {
        let db = rusqlite::Connection::open(&path).unwrap();
        let mut q = db
            .prepare("SELECT build, catalog_a_id FROM identifiers")
            .unwrap();
        q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    only_the_build_asked_for(&Target::Sqlite(path.clone()), &read);
}

#[test]
fn a_postgresql_store_rewrites_only_the_build_asked_for() {
    let server = postgres_server::Server::start();
    let read = || {
        let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
        client
            .query("SELECT build, catalog_a_id FROM identifiers", &[])
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    };
    only_the_build_asked_for(&Target::Postgres(server.url.clone()), &read);
}

#[test]
fn every_table_has_a_key_that_names_its_rows() {
    let expected = [
        ("identifiers", vec!["uuid"]),
        ("cards", vec!["uuid"]),
        ("tokens", vec!["uuid"]),
        ("sealed_products", vec!["uuid"]),
        ("rulings", vec!["uuid", "position"]),
        ("foreign_data", vec!["uuid", "position"]),
        ("sets", vec!["code"]),
        ("set_translations", vec!["set_code", "language"]),
        ("migrations", vec!["id"]),
        ("meta", vec!["input"]),
    ];
    for (table, keys) in expected {
        assert_eq!(store::key_columns(table), keys, "{table}");
    }
    for table in &cardkit_export::layout::layout().tables {
        assert!(
            !store::key_columns(&table.name).is_empty(),
            "{} has no key",
            table.name
        );
    }
}

/// The rows of a store a run changes are named by their table and key
/// (`identifiers uuid=…`), with their build when every build is
/// rewritten, never by a physical row id.
fn rows_named_by_key(target: &Target, uuid_of: &dyn Fn(&str) -> String) {
    let ids = exported_as(target, Some("b1"));
    let uuids = [uuid_of(&ids[0]), uuid_of(&ids[1])];
    let p = store_plan(&ids);
    let run = |build: Option<&str>, on_delete, report: &mut Report| {
        let options = ApplyOptions {
            on_delete,
            dry_run: true,
        };
        store::apply(
            target,
            "identifiers",
            "catalog_a_id",
            build,
            &p,
            options,
            report,
        )
    };
    let mut report = Report::default();
    run(Some("b1"), OnDelete::Keep, &mut report).unwrap();
    let named: Vec<(&str, &str)> = report
        .changes
        .iter()
        .map(|c| (c.place.as_str(), c.at.as_str()))
        .collect();
    let (merged, deleted) = (format!("uuid={}", uuids[0]), format!("uuid={}", uuids[1]));
    assert_eq!(
        named,
        [
            ("identifiers", merged.as_str()),
            ("identifiers", deleted.as_str())
        ]
    );
    let mut text = Vec::new();
    report.text(true, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.starts_with(&format!(
            "identifiers uuid={}: {} -> {A} (",
            uuids[0], ids[0]
        )),
        "{text}"
    );
    let mut report = Report::default();
    run(None, OnDelete::Keep, &mut report).unwrap();
    assert_eq!(
        report.changes[0].location(),
        format!("identifiers build=b1 uuid={}", uuids[0])
    );
    let failed = run(Some("b1"), OnDelete::Fail, &mut Report::default())
        .unwrap_err()
        .0;
    assert!(
        failed.starts_with(&format!(
            "identifiers uuid={}: {} is deleted",
            uuids[1], ids[1]
        )),
        "{failed}"
    );
}

#[test]
fn sqlite_store_rows_are_named_by_table_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cards.db");
    let uuid_of = |id: &str| -> String {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.query_row(
            "SELECT uuid FROM identifiers WHERE catalog_a_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap()
    };
    rows_named_by_key(&Target::Sqlite(path.clone()), &uuid_of);
}

#[test]
fn postgresql_store_rows_are_named_by_table_and_key() {
    let server = postgres_server::Server::start();
    let uuid_of = |id: &str| -> String {
        let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
        client
            .query_one(
                "SELECT uuid FROM identifiers WHERE catalog_a_id = $1",
                &[&id],
            )
            .unwrap()
            .get(0)
    };
    rows_named_by_key(&Target::Postgres(server.url.clone()), &uuid_of);
}
