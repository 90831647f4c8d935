//! `--names upstream` as commands: the hint a file of publishers' names
//! gets without it, the same export as the neutral twin's, notices written
//! in the publishers' names that their own client reads, and the option
//! from a configuration file.

use crate::support;

use std::path::{Path, PathBuf};

use support::{cardkit, shared_dir};

const NEO: &str = "set/jsonsets_NEO.json";

/// Standard output and exit status of `cardkit ARGS…`.
fn run(args: &[&str]) -> (String, i32) {
    let output = cardkit().args(args).output().unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        output.status.code().unwrap(),
    )
}

fn corpus(shared: &Path, names: &str, file: &str) -> String {
    shared
        .join("corpus")
        .join(names)
        .join(file)
        .display()
        .to_string()
}

#[test]
fn a_file_of_publishers_names_read_under_the_spec_names_gets_the_way_out_and_reads_clean_by_default(
) {
    let Some(shared) = shared_dir() else {
        return;
    };
    let raw = corpus(&shared, "raw", NEO);
    let hinted = |text: &str| {
        text.lines()
            .filter(|line| line.contains("--names auto"))
            .count()
    };
    let (text, status) = run(&["validate", "--color", "never", "--names", "spec", &raw]);
    assert_eq!(status, 1);
    // First in the file's block, at its end, and last in the report.
    assert_eq!(hinted(&text), 3, "{text}");
    assert!(text.contains("keyruneCode") || text.contains("edhrecRank"));

    let (text, status) = run(&["validate", &raw]);
    assert_eq!((hinted(&text), status), (0, 0), "{text}");
    let (text, status) = run(&["validate", "--as-of", "auto", "--names", "upstream", &raw]);
    assert_eq!((hinted(&text), status), (0, 0), "{text}");

    let neutral = corpus(&shared, "neutral", NEO);
    let (text, _) = run(&["validate", "--names", "spec", &neutral]);
    assert_eq!(hinted(&text), 0, "{text}");
}

#[test]
fn names_come_from_the_configuration_file_too() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("cardkit.toml"),
        "names = \"upstream\"\nas-of = \"auto\"\n",
    )
    .unwrap();
    let raw = corpus(&shared, "raw", NEO);
    let status = cardkit()
        .current_dir(dir.path())
        .args(["validate", "--quiet", &raw])
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(0));
    let listed = cardkit()
        .current_dir(dir.path())
        .args(["config"])
        .output()
        .unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(
        listed
            .lines()
            .any(|l| l.contains("names") && l.contains("upstream")),
        "{listed}"
    );
}

/// The rows of every table of a SQLite database, as text, but `meta`
/// (which names the input file).
fn dump(db: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'meta' ORDER BY name",
        )
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut rows = Vec::new();
    for table in tables {
        let mut statement = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
        let width = statement.column_count();
        let mut query = statement.query([]).unwrap();
        while let Some(row) = query.next().unwrap() {
            let cells: Vec<String> = (0..width)
                .map(|i| format!("{:?}", row.get_ref(i).unwrap()))
                .collect();
            rows.push(format!("{table}: {}", cells.join(" | ")));
        }
    }
    rows
}

#[test]
fn a_raw_file_exports_under_upstream_names_as_its_neutral_twin_does() {
    let Some(shared) = shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let export = |db: &PathBuf, path: &str, names: &str| {
        let status = cardkit()
            .args([
                "export", "--quiet", "--as-of", "auto", "--names", names, "--build", "b",
            ])
            .arg("--to")
            .arg(db)
            .arg(path)
            .output()
            .unwrap()
            .status;
        assert_eq!(status.code(), Some(0), "export of {path}");
    };
    let (up, spec) = (dir.path().join("up.db"), dir.path().join("spec.db"));
    export(&up, &corpus(&shared, "raw", NEO), "upstream");
    export(&spec, &corpus(&shared, "neutral", NEO), "spec");
    let (up, spec) = (dump(&up), dump(&spec));
    assert!(up.len() > 8000, "{} rows", up.len());
    assert!(up.iter().any(|row| row.starts_with("identifiers: ")));
    assert_eq!(up, spec);
}

/// A set of two cards, each with a catalog id, in the publishers' names,
/// dated `date`; `second` is the second card's catalog id.
fn upstream_set(date: &str, second: &str) -> String {
    let card = |uuid: &str, number: &str, catalog: &str| {
        format!(
            r#"{{"artist": "A", "availability": ["paper"], "borderColor": "black", "colorIdentity": [], "colors": [], "convertedManaCost": 0, "finishes": ["nonfoil"], "foreignData": [], "frameVersion": "2015", "hasFoil": false, "hasNonFoil": true, "identifiers": {{"scryfallId": "{catalog}"}}, "language": "English", "layout": "normal", "legalities": {{}}, "manaValue": 0, "name": "Card {number}", "number": "{number}", "printings": ["TST"], "purchaseUrls": {{}}, "rarity": "common", "rulings": [], "setCode": "TST", "subtypes": [], "supertypes": [], "type": "Artifact", "types": ["Artifact"], "uuid": "{uuid}"}}"#
        )
    };
    format!(
        r#"{{"meta": {{"date": "{date}", "version": "5.2.1+20240101"}}, "data": {{"baseSetSize": 2, "cards": [{}, {}], "code": "TST", "isFoilOnly": false, "isOnlineOnly": false, "keyruneCode": "TST", "languages": ["English"], "name": "Test", "releaseDate": "2024-01-01", "sealedProduct": [], "tokens": [], "totalSetSize": 2, "translations": {{}}, "type": "expansion"}}}}"#,
        card(
            "3e0fb1fa-1d6d-5d3c-9f5e-0d1d5f7d6b11",
            "1",
            "0b6a9a35-5d39-4a76-9b16-0bde0b4f0c11"
        ),
        card("3e0fb1fa-1d6d-5d3c-9f5e-0d1d5f7d6b12", "2", second),
    )
}

#[test]
fn notices_in_upstream_names_are_read_by_the_publishers_client_and_applied() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.json"), dir.path().join("new.json"));
    let (before, after) = (
        "0b6a9a35-5d39-4a76-9b16-0bde0b4f0c12",
        "0b6a9a35-5d39-4a76-9b16-0bde0b4f0c13",
    );
    std::fs::write(&old, upstream_set("2024-01-01", before)).unwrap();
    std::fs::write(&new, upstream_set("2024-02-01", after)).unwrap();
    for path in [&old, &new] {
        let status = cardkit()
            .args(["validate", "--quiet", "--names", "upstream"])
            .arg(path)
            .output()
            .unwrap()
            .status;
        assert_eq!(status.code(), Some(0), "{}", path.display());
    }
    let notices = dir.path().join("notices.jsonl");
    let status = cardkit()
        .args([
            "diff",
            "--quiet",
            "--names",
            "upstream",
            "--emit-migrations",
        ])
        .arg(&notices)
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap()
        .status;
    assert_eq!(status.code(), Some(1));
    let written = std::fs::read_to_string(&notices).unwrap();
    let notice: serde_json::Value = serde_json::from_str(written.trim()).unwrap();
    assert_eq!(notice["old_scryfall_id"], before);
    assert_eq!(notice["new_scryfall_id"], after);
    assert_eq!(notice["performed_at"], "2024-02-01");
    assert!(notice.get("created_at").is_none(), "{notice}");

    // Read back as notices in the publishers' names, and applied.
    let csv = dir.path().join("deck.csv");
    std::fs::write(&csv, format!("id\n{before}\n")).unwrap();
    let output = cardkit()
        .args(["migrate", "apply", "--names", "upstream", "--column", "id"])
        .arg("--migrations")
        .arg(&notices)
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("id\n{after}\n")
    );

    // The publishers' Python client reads them with its own model.
    let Some(python) = python() else {
        return;
    };
    let script = "import sys, msgspec\n\
        from aioscryfall.models.migrations import ScryMigration\n\
        for line in open(sys.argv[1]):\n\
        \x20   m = msgspec.json.decode(line, type=ScryMigration)\n\
        \x20   print(m.old_scryfall_id, m.new_scryfall_id, m.performed_at, m.migration_strategy.value)\n";
    let output = std::process::Command::new(python)
        .args(["-c", script])
        .arg(&notices)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("{before} {after} 2024-02-01 merge\n")
    );
}

/// The Python with aioscryfall (`CARDKIT_PYTHON`; `.ci/run` sets it to its
/// virtual environment's). `None` (with a note) when it is not set outside
/// CI; in CI a missing one fails.
fn python() -> Option<PathBuf> {
    let python = std::env::var_os("CARDKIT_PYTHON").map(PathBuf::from);
    if python.is_none() {
        let why = "CARDKIT_PYTHON (a Python with aioscryfall) is not set";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("SKIPPED: {why}");
    }
    python
}
