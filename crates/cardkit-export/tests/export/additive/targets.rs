//! The stores an export refuses or marks: SQLite targets that cannot be
//! written, named with the reason; another application's database, refused
//! unless asked; the layout version a new database carries.

use super::*;

/// Targets that cannot be written are refused with what is wrong, and
/// nothing is written.
#[test]
fn sqlite_targets_that_cannot_be_written_are_named_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let open = |path: PathBuf| {
        Exporter::open(&Target::Sqlite(path), OnInvalid::Fail, None, 1)
            .err()
            .expect("refused")
            .to_string()
    };
    let missing = open(dir.path().join("nodir/x.db"));
    assert!(missing.contains("does not exist"), "{missing}");
    assert!(!missing.contains("incomplete"), "{missing}");
    std::fs::create_dir(dir.path().join("adir.db")).unwrap();
    let folder = open(dir.path().join("adir.db"));
    assert!(
        folder.contains("is a folder, not a database file"),
        "{folder}"
    );
    let text = dir.path().join("notes.db");
    std::fs::write(
        &text,
        "not a database, only some text that is long enough".repeat(20),
    )
    .unwrap();
    let not_sqlite = open(text.clone());
    assert!(
        not_sqlite.contains("the file is not a SQLite database"),
        "{not_sqlite}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// A new database says what it is.
#[test]
fn a_new_database_carries_the_layout_version() {
    let dir = tempfile::tempdir().unwrap();
    let a = one_card_set(dir.path(), "AAA", "00000000-0000-4000-8000-000000000001");
    let db = dir.path().join("new.db");
    export_with(&Target::Sqlite(db.clone()), &[a], Mode::Append);
    let c = Connection::open(&db).unwrap();
    let version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    let id: i32 = c
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, cardkit_export::layout::LAYOUT_VERSION);
    assert_eq!(id, cardkit_export::sqlite::APPLICATION_ID);
    let mode: String = c
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

/// Another application's SQLite database (a `users` table) is refused,
/// and left as it was; with `into_foreign` the export adds its tables
/// and leaves the journal mode as it was.
#[test]
fn another_applications_database_is_refused_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("app.db");
    Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ann');")
        .unwrap();
    let a = one_card_set(dir.path(), "AAA", "00000000-0000-4000-8000-000000000001");
    let target = Target::Sqlite(db.clone());
    let error = Exporter::open_with(&target, OnInvalid::Fail, None, 1, Mode::Append, false)
        .err()
        .expect("refused");
    assert!(
        error
            .to_string()
            .contains("the database holds tables that are not cardkit's (users)"),
        "{error}"
    );
    let tables = |db: &Path| -> i64 {
        Connection::open(db)
            .unwrap()
            .query_row(
                "SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(tables(&db), 1);
    let mut exporter =
        Exporter::open_with(&target, OnInvalid::Fail, None, 1, Mode::Append, true).expect("asked");
    exporter
        .input(
            "a",
            std::fs::File::open(&a).unwrap(),
            &cardkit::Options::default(),
            |_| {},
            |_| {},
        )
        .unwrap();
    exporter.finish().unwrap();
    let c = Connection::open(&db).unwrap();
    let mode: String = c
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    let users: i64 = c
        .query_row("SELECT COUNT(*) FROM users", [], |r| r.get(0))
        .unwrap();
    assert_eq!(users, 1);
    assert_eq!(per_set(&db), [("AAA".to_owned(), 1)]);
}
