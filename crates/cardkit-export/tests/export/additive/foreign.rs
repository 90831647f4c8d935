//! What a user adds to an export's database beside cardkit's tables: views
//! over them, indexes and triggers are theirs, and later exports go on; an
//! object of another kind under the name of one of cardkit's tables is
//! refused, with its kind and name. SQLite and PostgreSQL alike.

use super::*;

/// Exports `input` into `target`: the error, if any, as text.
fn exported(target: &Target, input: &Path) -> Result<(), String> {
    try_export(target, &[input.to_path_buf()], None, Mode::Append).map(drop)
}

/// What a user adds, in SQL both stores take: a view over cardkit's
/// tables and an index on one.
const USERS_OBJECTS: &str = "CREATE VIEW my_cards AS SELECT parent_set_code FROM cards; \
     CREATE INDEX my_cards_by_set ON cards (parent_set_code);";

#[test]
fn a_users_view_index_and_trigger_do_not_lock_sqlite_exports_out() {
    let dir = tempfile::tempdir().unwrap();
    let a = one_card_set(dir.path(), "AAA", "00000000-0000-4000-8000-000000000001");
    let b = one_card_set(dir.path(), "BBB", "00000000-0000-4000-8000-000000000002");
    let db = dir.path().join("cards.db");
    let target = Target::Sqlite(db.clone());
    exported(&target, &a).unwrap();
    Connection::open(&db)
        .unwrap()
        .execute_batch(&format!(
            "{USERS_OBJECTS} CREATE TRIGGER my_trigger AFTER INSERT ON cards BEGIN SELECT 1; END;"
        ))
        .unwrap();
    exported(&target, &b).expect("a user's view, index and trigger are theirs");
    let through_view: i64 = Connection::open(&db)
        .unwrap()
        .query_row("SELECT COUNT(*) FROM my_cards", [], |r| r.get(0))
        .unwrap();
    assert_eq!(through_view, 2);
    // A view under the name of a cardkit table is refused, and so is a
    // table of another application.
    let named = dir.path().join("named.db");
    Connection::open(&named)
        .unwrap()
        .execute_batch("CREATE VIEW cards AS SELECT 1 AS x;")
        .unwrap();
    let error = exported(&Target::Sqlite(named), &a).unwrap_err();
    assert!(
        error.contains("holds a view named `cards`, the name of a table cardkit writes"),
        "{error}"
    );
    let theirs = dir.path().join("theirs.db");
    Connection::open(&theirs)
        .unwrap()
        .execute_batch("CREATE TABLE users (name TEXT);")
        .unwrap();
    let error = exported(&Target::Sqlite(theirs), &a).unwrap_err();
    assert!(
        error.contains("tables that are not cardkit's (users)"),
        "{error}"
    );
}

#[test]
fn a_users_view_does_not_lock_postgresql_exports_out() {
    let server = support::postgres::Server::start();
    let target = Target::Postgres(server.url.clone());
    let dir = tempfile::tempdir().unwrap();
    let a = one_card_set(dir.path(), "AAA", "00000000-0000-4000-8000-000000000001");
    let b = one_card_set(dir.path(), "BBB", "00000000-0000-4000-8000-000000000002");
    exported(&target, &a).unwrap();
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    client.batch_execute(USERS_OBJECTS).unwrap();
    client
        .batch_execute(
            "CREATE FUNCTION my_noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$; \
             CREATE TRIGGER my_trigger AFTER INSERT ON cards FOR EACH ROW EXECUTE FUNCTION my_noop();",
        )
        .unwrap();
    exported(&target, &b).expect("a user's view, index and trigger are theirs");
    let through_view: i64 = client
        .query_one("SELECT COUNT(*) FROM my_cards", &[])
        .unwrap()
        .get(0);
    assert_eq!(through_view, 2);
    // A view under the name of a cardkit table, in a schema of its own.
    client
        .batch_execute("CREATE SCHEMA viewed; CREATE VIEW viewed.cards AS SELECT 1 AS x;")
        .unwrap();
    let in_schema = format!("{}&options=-csearch_path%3Dviewed", server.url);
    let error = exported(&Target::Postgres(in_schema), &a).unwrap_err();
    assert!(
        error.contains("holds a view named `cards`, the name of a table cardkit writes"),
        "{error}"
    );
}
