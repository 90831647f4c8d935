//! Two runs exporting into the same new SQLite path at once: each builds
//! under a temporary of its own, which the other never removes; the first
//! to finish takes the name, and the other fails saying the database was
//! made meanwhile (never "No such file or directory"), or, when it opened
//! after the first had finished, adds to that database.

use super::*;

use std::sync::{Arc, Barrier};

/// One run into `db`, started when `start` lets both go: its result, as
/// text.
fn racing_run(db: &Path, input: &Path, start: &Barrier) -> Result<(), String> {
    start.wait();
    let target = Target::Sqlite(db.to_path_buf());
    try_export(&target, &[input.to_path_buf()], None, Mode::Append).map(drop)
}

#[test]
fn two_exports_into_one_new_sqlite_path_never_remove_each_others_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let a = one_card_set(dir.path(), "AAA", "00000000-0000-4000-8000-000000000001");
    let b = one_card_set(dir.path(), "BBB", "00000000-0000-4000-8000-000000000002");
    for trial in 0..40 {
        let db = dir.path().join(format!("race{trial}.db"));
        let start = Arc::new(Barrier::new(2));
        let runs: Vec<_> = [a.clone(), b.clone()]
            .into_iter()
            .map(|input| {
                let (db, start) = (db.clone(), Arc::clone(&start));
                std::thread::spawn(move || racing_run(&db, &input, &start))
            })
            .collect();
        let results: Vec<_> = runs.into_iter().map(|r| r.join().unwrap()).collect();
        let won = results.iter().filter(|r| r.is_ok()).count();
        assert!(won >= 1, "trial {trial}: neither run finished: {results:?}");
        for failed in results.iter().filter_map(|r| r.as_ref().err()) {
            assert!(
                failed.contains("the database was made meanwhile"),
                "trial {trial}: {failed}"
            );
            assert!(!failed.contains("No such file"), "trial {trial}: {failed}");
        }
        let sets = per_set(&db);
        assert!(
            sets.len() == won,
            "trial {trial}: {won} runs finished, the database holds {sets:?}"
        );
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporaries left behind: {left:?}");
}
