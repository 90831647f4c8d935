//! Parquet builds are added to as SQLite's are: files compared with
//! Python's pyarrow, a build of one file per table replaced only when asked,
//! nothing left behind by a failed run, the later of what a run reads twice
//! kept.

use super::*;

/// A Parquet build is added to as a SQLite database is: `export NEO` then
/// `export L15` keeps both, L15 again replaces L15 alone (the same changes
/// as SQLite's, in a new file, the earlier run's file written again
/// without it), and `Mode::Replace` empties the build first. Each file
/// says which layout it holds; another build sits beside it.
#[test]
fn a_parquet_build_is_added_to_as_sqlite_is() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let neo = corpus_set(&shared, "jsonsets_NEO.json");
    let l15 = corpus_set(&shared, "jsonsets_L15.json");
    let pq = dir.path().join("pq");
    let db = dir.path().join("cards.db");
    let mut runs = Vec::new();
    for target in [Target::Sqlite(db.clone()), Target::Parquet(pq.clone())] {
        runs.push(
            [&neo, &l15, &l15]
                .into_iter()
                .map(|input| export_with(&target, std::slice::from_ref(input), Mode::Append))
                .collect::<Vec<Totals>>(),
        );
    }
    assert_eq!(runs[0], runs[1], "SQLite's totals, then Parquet's");
    assert_eq!(runs[1][2].changes.replaced_sets, ["L15"]);
    assert_eq!(runs[1][2].changes.removed_rows, 3);
    assert_eq!(parquet_per_set(&pq), [("NEO".to_owned(), 553)]);
    let mut sets = parquet_column(&pq, "sets", "code");
    sets.sort();
    assert_eq!(sets, [Some("L15".to_owned()), Some("NEO".to_owned())]);
    // `meta` has a row per input, not per run.
    assert_eq!(parquet_column(&pq, "meta", "input").len(), 2);
    // NEO's run, and the third; the second's files went with L15 (which
    // has no cards: the third run writes no cards file).
    assert_eq!(
        parquet_files(&pq.join("sets")),
        ["run-000001.parquet", "run-000003.parquet"]
    );
    let cards = parquet_files(&pq.join("cards"));
    assert_eq!(cards, ["run-000001.parquet"]);
    // Each file says which layout it holds.
    let file = std::fs::File::open(pq.join("cards").join(&cards[0])).unwrap();
    let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
    let metadata = parquet::file::reader::FileReader::metadata(&reader);
    let version = metadata
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .find(|kv| kv.key == cardkit_export::parquet::LAYOUT_KEY)
        .and_then(|kv| kv.value.clone());
    assert_eq!(
        version,
        Some(cardkit_export::layout::LAYOUT_VERSION.to_string())
    );
    // Another build is added beside it.
    let target = Target::Parquet(pq.clone());
    export_with_build(&target, &l15, Some("b"));
    assert_eq!(parquet_column(&pq, "sets", "code").len(), 3);
    // --replace empties the build first; the other build stays.
    let replaced = export_with(&target, std::slice::from_ref(&l15), Mode::Replace);
    assert!(replaced.changes.emptied);
    assert!(parquet_per_set(&pq).is_empty());
    assert_eq!(parquet_column(&pq, "sets", "code").len(), 2);
}

fn export_with_build(target: &Target, input: &Path, build: Option<&str>) -> Totals {
    try_export(target, &[input.to_path_buf()], build, Mode::Append).expect("the export commits")
}

/// A Parquet build written by an earlier cardkit (one `part-0.parquet` per
/// table) cannot be added to: it is refused, and written anew with
/// `Mode::Replace`.
#[test]
fn a_parquet_build_of_one_file_per_table_is_replaced_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let a = one_card_set(dir.path(), "AAA", "00000000-0000-4000-8000-000000000001");
    let pq = dir.path().join("pq");
    let target = Target::Parquet(pq.clone());
    export_with(&target, std::slice::from_ref(&a), Mode::Append);
    // As an earlier cardkit left it.
    for table in table_names() {
        std::fs::rename(
            pq.join(&table).join("run-000001.parquet"),
            pq.join(&table).join("part-0.parquet"),
        )
        .unwrap();
    }
    std::fs::remove_dir_all(pq.join(".cardkit-runs")).unwrap();
    let error = Exporter::open_with(&target, OnInvalid::Fail, None, 1, Mode::Append, false)
        .err()
        .expect("refused");
    assert!(
        error.to_string().contains(
            "the build without a label was written by an earlier cardkit, as one file per table (part-0.parquet)"
        ),
        "{error}"
    );
    let totals = export_with(&target, std::slice::from_ref(&a), Mode::Replace);
    assert!(totals.changes.emptied);
    assert_eq!(parquet_files(&pq.join("cards")), ["run-000001.parquet"]);
    assert_eq!(parquet_per_set(&pq), [("AAA".to_owned(), 1)]);
}

/// A Parquet run that fails (here: aborted before anything is committed)
/// leaves no folder behind, nor its lock, where there was none; and
/// removes nothing that was there.
#[test]
fn a_failed_parquet_run_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = dir.path().join("pq");
    for build in [None, Some("b")] {
        let exporter = Exporter::open_with(
            &Target::Parquet(fresh.clone()),
            OnInvalid::Fail,
            build,
            1,
            Mode::Append,
            false,
        )
        .expect("opens");
        drop(exporter);
        assert!(!fresh.exists(), "{build:?}");
    }
    let kept = dir.path().join("kept");
    std::fs::create_dir(&kept).unwrap();
    std::fs::write(kept.join("notes.txt"), "mine").unwrap();
    let exporter = Exporter::open_with(
        &Target::Parquet(kept.clone()),
        OnInvalid::Fail,
        None,
        1,
        Mode::Append,
        false,
    )
    .expect("opens");
    drop(exporter);
    let left: Vec<String> = std::fs::read_dir(&kept)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(left.contains(&"notes.txt".to_owned()), "{left:?}");
    assert!(!left.contains(&"cards".to_owned()), "{left:?}");
}

/// Parquet keeps the later of a set or migration read twice in a run, as
/// SQLite does: the corpus's sets and migrations (BRO and LEA in two files
/// each) give the same rows per table to both.
#[test]
fn parquet_keeps_the_later_of_what_a_run_reads_twice() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let mut files = support::corpus_sets(&shared);
    let mut migrations: Vec<PathBuf> = std::fs::read_dir(shared.join("corpus/neutral/migration"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    migrations.sort();
    files.extend(migrations);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("corpus.db");
    let pq = dir.path().join("pq");
    let sqlite = export_with(&Target::Sqlite(db.clone()), &files, Mode::Append);
    let parquet = export_with(&Target::Parquet(pq.clone()), &files, Mode::Append);
    assert_eq!(sqlite.duplicates, parquet.duplicates);
    assert!(parquet.duplicate_sets >= 2);
    let c = Connection::open(&db).unwrap();
    for table in table_names() {
        let in_sqlite: i64 = c
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .unwrap();
        let in_parquet: i64 = parquet_files(&pq.join(&table))
            .iter()
            .map(|file| {
                let file = std::fs::File::open(pq.join(&table).join(file)).unwrap();
                let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
                parquet::file::reader::FileReader::metadata(&reader)
                    .file_metadata()
                    .num_rows()
            })
            .sum();
        assert_eq!(in_parquet, in_sqlite, "{table}");
    }
    let left: Vec<String> = std::fs::read_dir(pq.join("cards"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["run-000001.parquet"]);
}
