//! `cardkit export` runs killed midway: while their input is half read from
//! a pipe, during an additive SQLite, Parquet or PostgreSQL export, and while
//! a new database is written: each store keeps what it had.

use super::*;

/// Starts an export of `input`, read from a pipe, and kills it while the
/// pipe holds only the first half of the input: the run cannot have ended.
fn killed_midway(target: &str, input: &Path) {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .args([
            "export", "--jobs", "1", "--build", "new", "--to", target, "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cardkit starts");
    let bytes = std::fs::read(input).expect("the input");
    let mut pipe = child.stdin.take().expect("a pipe");
    std::io::Write::write_all(&mut pipe, &bytes[..bytes.len() / 2]).expect("half the input sent");
    // Time to read and write rows of what was sent.
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().expect("a status").is_none(),
        "the export of half an input ended"
    );
    child.kill().expect("killed");
    child.wait().expect("reaped");
}

#[test]
fn a_run_killed_midway_leaves_no_half_written_export() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let Some(big) = catalog(dir.path(), 6) else {
        return;
    };
    let db = dir.path().join("cards.db");
    let parquet = dir.path().join("parquet");
    for target in [
        format!("sqlite:{}", show(&db)),
        format!("parquet:{}", show(&parquet)),
    ] {
        cardkit()
            .args([
                "export",
                "--build",
                "old",
                "--to",
                &target,
                &example("valid/set.json"),
            ])
            .assert()
            .code(0);
        killed_midway(&target, &big);
    }
    // SQLite: the old build whole, nothing of the new one.
    assert!(count(&db, "SELECT COUNT(*) FROM cards WHERE build = 'old'") > 0);
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM cards WHERE build = 'new'"),
        0
    );
    assert_eq!(
        count(&db, "SELECT COUNT(*) FROM sets WHERE build = 'new'"),
        0
    );
    // A new SQLite database: no file of its name (the run wrote under a
    // hidden temporary one).
    let new_db = dir.path().join("new.db");
    killed_midway(&format!("sqlite:{}", show(&new_db)), &big);
    assert!(!new_db.exists(), "a killed run left {}", show(&new_db));
    // Parquet: the new build's files are only under their hidden temporary
    // name, which readers skip.
    let cards = parquet.join("cards");
    assert!(cards.join("build=old/run-000001.parquet").is_file());
    assert!(!cards.join("build=new/run-000001.parquet").exists());
    assert!(cards
        .join("build=new/.run-000001.parquet.incomplete")
        .is_file());
}

/// Starts an additive export of `input` into the existing database of
/// `target`, read from a pipe that is sent all of it but its last byte (the
/// run cannot end), and kills it (SIGKILL) once its uncommitted
/// transaction has spilled into the WAL file `wal` (or after a minute): the
/// WAL's size then.
fn killed_while_writing(target: &str, input: &Path, wal: &Path) -> u64 {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .args([
            "export", "--jobs", "1", "--build", "new", "--to", target, "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cardkit starts");
    let bytes = std::fs::read(input).expect("the input");
    let mut pipe = child.stdin.take().expect("a pipe");
    let sender = std::thread::spawn(move || {
        // Fails once the run is killed, which is expected.
        let _ = std::io::Write::write_all(&mut pipe, &bytes[..bytes.len() - 1]);
        pipe
    });
    let size = || std::fs::metadata(wal).map_or(0, |m| m.len());
    let start = std::time::Instant::now();
    while size() == 0 && start.elapsed() < Duration::from_secs(60) {
        assert!(
            child.try_wait().expect("a status").is_none(),
            "the export of an input without its last byte ended"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let written = size();
    child.kill().expect("killed");
    child.wait().expect("reaped");
    drop(sender.join());
    written
}

/// Every row of every table of `db` (and its schema: tables and indexes),
/// in rowid order, as text.
fn dump(db: &Path) -> Vec<String> {
    let c = Connection::open(db).expect("the database");
    let mut out: Vec<String> = c
        .prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
        .expect("the schema")
        .query_map([], |r| {
            Ok(format!(
                "{:?}",
                (
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?
                )
            ))
        })
        .expect("the schema")
        .map(|r| r.expect("a schema row"))
        .collect();
    let tables: Vec<String> = c
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .expect("the tables")
        .query_map([], |r| r.get(0))
        .expect("the tables")
        .map(|r| r.expect("a table"))
        .collect();
    for table in tables {
        let mut q = c
            .prepare(&format!("SELECT rowid, * FROM \"{table}\" ORDER BY rowid"))
            .expect("a table's rows");
        let n = q.column_count();
        let rows: Vec<String> = q
            .query_map([], |r| {
                let cells: Vec<rusqlite::types::Value> =
                    (0..n).map(|i| r.get(i)).collect::<Result<_, _>>()?;
                Ok(format!("{table}: {cells:?}"))
            })
            .expect("a table's rows")
            .map(|r| r.expect("a row"))
            .collect();
        out.extend(rows);
    }
    out
}

/// `cardkit export --build new --to TARGET -` sent every byte of `lines`
/// but the last: the run reads (and writes) every set but cannot end. The
/// write returns once the pipe holds at most its buffer. The pipe is
/// handed back open, so that the run waits for the rest.
fn export_stopped_before_its_last_byte(
    target: &str,
    lines: String,
) -> (std::process::Child, std::process::ChildStdin) {
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_cardkit"))
        .args([
            "export", "--jobs", "1", "--build", "new", "--to", target, "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cardkit starts");
    let mut pipe = child.stdin.take().expect("a pipe");
    let bytes = lines.into_bytes();
    std::io::Write::write_all(&mut pipe, &bytes[..bytes.len() - 1]).expect("the input sent");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().expect("a status").is_none(),
        "the export of an input without its last byte ended"
    );
    (child, pipe)
}

/// The sets of the catalog at `path`, one per line (JSON Lines).
fn sets_as_lines(path: &Path) -> String {
    let catalog: serde_json::Value =
        serde_json::from_slice(&std::fs::read(path).expect("the catalog")).expect("JSON");
    let mut lines = String::new();
    for set in catalog["data"].as_object().expect("the sets").values() {
        lines.push_str(&serde_json::to_string(set).expect("a set"));
        lines.push('\n');
    }
    lines
}

/// `kill -9` during an additive export into an existing database (into a
/// build that holds rows already) leaves the database as it was: intact,
/// the same rows, the same schema and indexes.
#[test]
fn a_run_killed_during_an_additive_sqlite_export_leaves_the_database_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let Some(big_catalog) = catalog(dir.path(), 32) else {
        return;
    };
    // A set per line: each set's rows are written as it is read, long
    // before the input ends.
    let big = dir.path().join("catalog.jsonl");
    std::fs::write(&big, sets_as_lines(&big_catalog)).expect("the sets as JSON Lines");
    let db = dir.path().join("cards.db");
    let target = format!("sqlite:{}", show(&db));
    for build in ["old", "new"] {
        cardkit()
            .args([
                "export",
                "--build",
                build,
                "--to",
                &target,
                &example("valid/set.json"),
            ])
            .assert()
            .code(0);
    }
    let before = dump(&db);
    assert!(before.iter().any(|row| row.starts_with("cards: ")));
    let wal = dir.path().join("cards.db-wal");
    let written = killed_while_writing(&target, &big, &wal);
    assert!(
        written > 0,
        "the run was killed before it wrote to the database's WAL"
    );
    let check: String = Connection::open(&db)
        .expect("the database")
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("an integrity check");
    assert_eq!(check, "ok");
    let after = dump(&db);
    assert!(
        after == before,
        "the killed run changed the database: {} rows before, {} after",
        before.len(),
        after.len()
    );
}

/// Every file of the Parquet export in `dir` but the lock and the hidden
/// temporaries a run writes (which readers skip): its path and bytes.
fn parquet_state(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut state = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder") {
            let path = entry.expect("an entry").path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if path.is_dir() {
                folders.push(path);
            } else if !name.ends_with(".incomplete") && name != ".cardkit-lock" {
                let relative = path
                    .strip_prefix(dir)
                    .expect("inside")
                    .display()
                    .to_string();
                state.push((relative, std::fs::read(&path).expect("a file")));
            }
        }
    }
    state.sort();
    state
}

/// The rows of each table of build `build` of the Parquet export in
/// `dir`, as their files' footers count them.
fn parquet_counts(dir: &Path, build: &str) -> Vec<(String, i64)> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    cardkit_export::layout::layout()
        .tables
        .iter()
        .map(|table| {
            let folder = dir.join(&table.name).join(format!("build={build}"));
            let rows = std::fs::read_dir(&folder)
                .expect("the build's folder")
                .map(|entry| entry.expect("an entry").path())
                .filter(|path| path.extension().is_some_and(|e| e == "parquet"))
                .map(|path| {
                    let reader =
                        SerializedFileReader::new(std::fs::File::open(&path).expect("a file"))
                            .expect("a Parquet file");
                    reader.metadata().file_metadata().num_rows()
                })
                .sum();
            (table.name.clone(), rows)
        })
        .collect()
}

/// `kill -9` during an additive Parquet export, into a build that holds
/// rows already, once it has read all but the last byte of 32 sets (so it
/// has written their rows to its hidden files): every file readers see is
/// as it was, byte for byte, and so are the records of the runs. The next
/// run removes the killed run's hidden files and adds to the build as
/// usual.
#[test]
fn a_run_killed_during_an_additive_parquet_export_leaves_the_build_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let Some(big) = catalog(dir.path(), 32) else {
        return;
    };
    let lines = sets_as_lines(&big);
    let parquet = dir.path().join("parquet");
    let target = format!("parquet:{}", show(&parquet));
    for build in ["old", "new"] {
        cardkit()
            .args(["export", "--build", build, "--to", &target])
            .arg(example("valid/set.json"))
            .assert()
            .code(0);
    }
    let before = parquet_state(&parquet);
    let counts = parquet_counts(&parquet, "new");
    assert!(counts.iter().any(|(table, n)| table == "cards" && *n > 0));
    let (mut child, pipe) = export_stopped_before_its_last_byte(&target, lines);
    let temporary = parquet.join("cards/build=new/.run-000002.parquet.incomplete");
    assert!(temporary.is_file(), "the run was writing its files");
    child.kill().expect("killed");
    child.wait().expect("reaped");
    drop(pipe);
    assert!(
        parquet_state(&parquet) == before,
        "the killed run changed what readers see"
    );
    assert_eq!(parquet_counts(&parquet, "new"), counts);
    // The next run replaces the set in the build, and leaves no hidden
    // file of the killed run.
    let next = cardkit()
        .args(["export", "--build", "new", "--to", &target])
        .arg(example("valid/set.json"))
        .output()
        .expect("cardkit runs");
    assert!(next.status.success(), "{next:?}");
    assert!(
        String::from_utf8_lossy(&next.stdout).contains("replaced 1 set already there"),
        "{next:?}"
    );
    assert!(!temporary.exists());
    assert_eq!(parquet_counts(&parquet, "new"), counts);
    assert!(parquet
        .join("cards/build=new")
        .join("run-000002.parquet")
        .is_file());
}

/// The row counts of every table of the export in the PostgreSQL database
/// at `url`, in the layout's order.
fn postgres_counts(url: &str) -> Vec<(String, i64)> {
    let mut client = postgres::Client::connect(url, postgres::NoTls).expect("the server");
    cardkit_export::layout::layout()
        .tables
        .iter()
        .map(|table| {
            let count: i64 = client
                .query_one(&format!("SELECT count(*) FROM \"{}\"", table.name), &[])
                .expect("a count")
                .get(0);
            (table.name.clone(), count)
        })
        .collect()
}

/// The PostgreSQL export runs in one transaction: killed once it has read
/// all but the last byte of 32 sets (so it has sent their rows), it leaves
/// the database as it was, and the next run adds to it as usual.
#[test]
fn a_run_killed_during_an_additive_postgresql_export_leaves_the_database_as_it_was() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let Some(big) = catalog(dir.path(), 32) else {
        return;
    };
    let lines = sets_as_lines(&big);
    let server = postgres_server::Server::start();
    let target = server.url.clone();
    cardkit()
        .args(["export", "--build", "old", "--to", &target])
        .arg(example("valid/set.json"))
        .assert()
        .code(0);
    let before = postgres_counts(&target);
    assert!(before.iter().any(|(table, n)| table == "cards" && *n > 0));
    let (mut child, pipe) = export_stopped_before_its_last_byte(&target, lines);
    child.kill().expect("killed");
    child.wait().expect("reaped");
    drop(pipe);
    assert_eq!(
        postgres_counts(&target),
        before,
        "the killed run changed the database"
    );
    cardkit()
        .args(["export", "--build", "new", "--to", &target])
        .arg(example("valid/set.json"))
        .assert()
        .code(0);
    let after = postgres_counts(&target);
    let cards = |counts: &[(String, i64)]| counts.iter().find(|(t, _)| t == "cards").map(|c| c.1);
    assert_eq!(
        cards(&after),
        cards(&before).map(|n| n * 2),
        "the next run adds its build"
    );
}

/// A new SQLite database is made under a hidden temporary name and appears
/// whole, in WAL mode, with the permissions of a file the user makes.
#[test]
fn a_new_sqlite_database_appears_whole_in_wal_mode() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("cards.db");
    cardkit()
        .args(["export", "--to", &format!("sqlite:{}", show(&db))])
        .arg(example("valid/set.json"))
        .assert()
        .code(0);
    let mode: String = Connection::open(&db)
        .expect("the database")
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .expect("the journal mode");
    assert_eq!(mode, "wal");
    assert!(count(&db, "SELECT COUNT(*) FROM cards") > 0);
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(names, ["cards.db"], "nothing but the database is left");
    let probe = dir.path().join("probe");
    std::fs::write(&probe, "").expect("a file made as users make them");
    let mode = |path: &Path| std::fs::metadata(path).expect("metadata").permissions();
    assert_eq!(mode(&db), mode(&probe));
}
