//! The Parquet store's unit tests: row groups closed within the encoding
//! budget, runs that add to a build and take out of earlier runs' files
//! what they replace, and commits left unfinished, finished by the next run.

use std::collections::BTreeSet;

use arrow_array::{Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};

use super::names::names_in;
use super::*;

/// The sizes of the row groups of the `cards` file that `rows` cards
/// make, written under `budget`, and the cards' names as read back.
fn cards_written(rows: usize, budget: usize) -> (Vec<i64>, Vec<String>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let table = layout()
        .tables
        .iter()
        .position(|t| t.name == "cards")
        .expect("a cards table");
    let name = layout().tables[table]
        .columns
        .iter()
        .position(|c| c.name == "name")
        .expect("a name column");
    let mut cards = TableRows::new(layout().tables[table].columns.len());
    for n in 0..rows {
        let row = cards.push_row();
        cards.set_text(row, name, &format!("card {n}"));
    }
    let mut store = Parquet::open(dir.path(), None, Mode::Replace).expect("a new export");
    store.budget = budget;
    let mut rows = Rows::new();
    rows.tables[table] = cards;
    store.write_rows(&rows).expect("the rows written");
    Box::new(store).commit().expect("the export committed");

    let file = File::open(dir.path().join("cards").join(run_file_name(1))).expect("the cards file");
    let reader = SerializedFileReader::new(file).expect("a Parquet file");
    let groups = reader
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows())
        .collect();
    let names = reader
        .get_row_iter(None)
        .expect("its rows")
        .map(|row| {
            let row = row.expect("a row");
            row.get_column_iter()
                .find(|(column, _)| column.as_str() == "name")
                .map(|(_, value)| value.to_string())
                .unwrap_or_default()
        })
        .collect();
    (groups, names)
}

#[test]
fn row_groups_are_closed_when_the_encoders_outgrow_their_budget() {
    let rows = 2 * BATCH_ROWS + 100;
    let expected: Vec<String> = (0..rows).map(|n| format!("\"card {n}\"")).collect();

    let (groups, names) = cards_written(rows, ENCODING_BUDGET);
    assert_eq!(
        groups,
        [2 * BATCH_ROWS as i64 + 100],
        "one group within the budget"
    );
    assert_eq!(names, expected);

    // Over budget after every batch: each batch closes its group.
    let (groups, names) = cards_written(rows, 0);
    assert_eq!(groups, [BATCH_ROWS as i64, BATCH_ROWS as i64, 100]);
    assert_eq!(names, expected);
}

/// Writes `text` to `dir/relative`, making its folder.
fn put(dir: &Path, relative: &str, text: &str) {
    let path = dir.join(relative);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("the folder made");
    std::fs::write(path, text).expect("the file written");
}

fn read(dir: &Path, relative: &str) -> String {
    std::fs::read_to_string(dir.join(relative)).unwrap_or_else(|e| format!("({e})"))
}

#[test]
fn a_commit_left_unfinished_is_finished_before_the_next_run_writes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = dir.path();
    // Killed after `sets` was renamed, before `cards` was.
    put(dir, COMMIT_RECORD, "sets/build=b\ncards/build=b\n");
    put(dir, "sets/build=b/part-0.parquet", "new sets");
    put(dir, "cards/build=b/part-0.parquet", "old cards");
    put(dir, "cards/build=b/.part-0.parquet.incomplete", "new cards");

    let store = Parquet::open(dir, Some("other"), Mode::Replace).expect("a new run");
    assert_eq!(read(dir, "cards/build=b/part-0.parquet"), "new cards");
    assert_eq!(read(dir, "sets/build=b/part-0.parquet"), "new sets");
    assert!(!dir
        .join("cards/build=b/.part-0.parquet.incomplete")
        .exists());
    assert!(!dir.join(COMMIT_RECORD).exists(), "the record is removed");
    Box::new(store).abort();
    assert_eq!(read(dir, "cards/build=b/part-0.parquet"), "new cards");
}

#[test]
fn a_commit_record_naming_a_folder_outside_the_directory_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let export = dir.path().join("export");
    put(&export, COMMIT_RECORD, "../elsewhere\n");
    put(
        dir.path(),
        "elsewhere/.part-0.parquet.incomplete",
        "not ours",
    );

    let error = Parquet::open(&export, None, Mode::Replace)
        .err()
        .expect("refused");
    assert!(
        error
            .to_string()
            .contains("names `../elsewhere`, which is not a folder inside"),
        "{error}"
    );
    assert_eq!(
        read(dir.path(), "elsewhere/.part-0.parquet.incomplete"),
        "not ours"
    );
    assert!(!dir.path().join("elsewhere/part-0.parquet").exists());
}

/// A set row of code `code`, as the rows of one document.
fn set_rows(code: &str) -> Rows {
    let keys = keys();
    let mut rows = Rows::new();
    let sets = &mut rows.tables[keys.sets];
    let row = sets.push_row();
    sets.set_text(row, keys.set_code, code);
    rows
}

/// The files of table `table` in build `b`, by name.
fn files_of(dir: &Path, table: &str) -> Vec<String> {
    names_in(&dir.join(table).join("build=b")).expect("the folder")
}

#[test]
fn a_committed_run_leaves_its_files_in_place_and_no_record() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut store = Parquet::open(dir.path(), Some("b"), Mode::Append).expect("a new run");
    store.write_rows(&set_rows("AAA")).expect("written");
    Box::new(store).commit().expect("committed");
    assert!(!dir.path().join(COMMIT_RECORD).exists());
    // Every table has a file, empty or not, for readers to find.
    for table in &layout().tables {
        assert_eq!(
            files_of(dir.path(), &table.name),
            [run_file_name(1)],
            "{}",
            table.name
        );
    }
    let record = read(dir.path(), ".cardkit-runs/build=b/run-000001.keys");
    assert_eq!(
        RunKeys::from_text(&record).expect("a record").sets,
        BTreeSet::from(["AAA".to_owned()])
    );
}

#[test]
fn a_later_run_adds_a_file_and_takes_what_it_replaces_out_of_earlier_ones() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = |codes: &[&str]| {
        let mut store = Parquet::open(dir.path(), Some("b"), Mode::Append).expect("a run");
        for code in codes {
            store.write_rows(&set_rows(code)).expect("written");
        }
        Box::new(store).commit().expect("committed")
    };
    run(&["AAA", "BBB"]);
    let changes = run(&["CCC"]);
    assert!(changes.replaced_sets.is_empty());
    // Only `sets` has rows in the second run: the other tables keep
    // the first run's (empty) file alone.
    assert_eq!(
        files_of(dir.path(), "sets"),
        [run_file_name(1), run_file_name(2)]
    );
    assert_eq!(files_of(dir.path(), "cards"), [run_file_name(1)]);
    let changes = run(&["BBB"]);
    assert_eq!(changes.replaced_sets, ["BBB"]);
    assert_eq!(changes.removed_rows, 1);
    assert_eq!(
        rows_in(&dir.path().join("sets/build=b/run-000001.parquet")).unwrap(),
        1
    );
    // A run whose every key is replaced is removed whole, its record too.
    let changes = run(&["AAA", "BBB", "CCC"]);
    assert_eq!(changes.replaced_sets, ["AAA", "BBB", "CCC"]);
    assert_eq!(changes.removed_rows, 3);
    assert_eq!(files_of(dir.path(), "sets"), [run_file_name(4)]);
    assert_eq!(
        names_in(&dir.path().join(".cardkit-runs/build=b")).unwrap(),
        ["run-000004.keys"]
    );
    // Readers still find a file of every table.
    assert_eq!(files_of(dir.path(), "cards"), [run_file_name(4)]);
    assert!(!dir.path().join(COMMIT_RECORD).exists());
}

/// The codes in the `sets` file of run `run` of build `b`.
fn codes_in(dir: &Path, run: u64) -> Vec<String> {
    let path = dir.join("sets/build=b").join(run_file_name(run));
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path).expect("a file"))
        .expect("a Parquet file")
        .build()
        .expect("a reader");
    let column = keys().set_code - 1;
    let mut codes = Vec::new();
    for batch in reader {
        let batch = batch.expect("a batch");
        let values = batch
            .column(column)
            .as_any()
            .downcast_ref::<StringArray>()
            .expect("text")
            .clone();
        codes.extend((0..values.len()).map(|row| values.value(row).to_owned()));
    }
    codes
}

/// A run stopped (killed) once its commit is recorded, before it put
/// anything in place: readers still see the build as it was, and the
/// next run into the directory finishes the commit before anything
/// else, leaving the build as the stopped run would have.
#[test]
fn a_run_stopped_once_its_commit_is_recorded_is_finished_by_the_next() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = dir.path();
    let mut first = Parquet::open(dir, Some("b"), Mode::Append).expect("a run");
    for code in ["AAA", "BBB"] {
        first.write_rows(&set_rows(code)).expect("written");
    }
    Box::new(first).commit().expect("committed");

    let mut second = Parquet::open(dir, Some("b"), Mode::Append).expect("a run");
    for code in ["BBB", "CCC"] {
        second.write_rows(&set_rows(code)).expect("written");
    }
    let mut commit = Commit::default();
    second.prepare_commit(&mut commit).expect("prepared");
    // What the run replaces is taken out before its files are put in
    // place: a reader meanwhile never sees a set twice.
    let touches = |operation: &Operation, run: u64| {
        let name = run_file_name(run);
        match operation {
            Operation::Rename(_, to) => to.ends_with(&name),
            Operation::Remove(path) => path.ends_with(&name),
        }
    };
    let last_taken_out = commit.operations.iter().rposition(|o| touches(o, 1));
    let first_put = commit.operations.iter().position(|o| touches(o, 2));
    assert!(last_taken_out.is_some() && first_put.is_some());
    assert!(last_taken_out < first_put, "{:?}", commit.operations);
    record_commit(dir, &commit.operations).expect("recorded");
    drop(second);
    assert!(dir.join(COMMIT_RECORD).exists());
    // What readers see (they skip hidden files) is as it was.
    let visible: Vec<String> = files_of(dir, "sets")
        .into_iter()
        .filter(|name| !name.starts_with('.'))
        .collect();
    assert_eq!(visible, [run_file_name(1)]);
    assert_eq!(codes_in(dir, 1), ["AAA", "BBB"]);

    let next = Parquet::open(dir, Some("b"), Mode::Append).expect("the next run");
    Box::new(next).abort();
    assert!(!dir.join(COMMIT_RECORD).exists());
    assert_eq!(files_of(dir, "sets"), [run_file_name(1), run_file_name(2)]);
    assert_eq!(codes_in(dir, 1), ["AAA"]);
    assert_eq!(codes_in(dir, 2), ["BBB", "CCC"]);
    let record = |run: u64| {
        let text = read(
            dir,
            &format!(".cardkit-runs/build=b/{}", keys_file_name(run)),
        );
        RunKeys::from_text(&text).expect("a record").sets
    };
    assert_eq!(record(1), BTreeSet::from(["AAA".to_owned()]));
    assert_eq!(
        record(2),
        BTreeSet::from(["BBB".to_owned(), "CCC".to_owned()])
    );
    // No temporary file is left anywhere.
    for table in &layout().tables {
        let names = files_of(dir, &table.name);
        assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    }
}

#[test]
fn an_empty_run_leaves_nothing_behind() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let pq = dir.path().join("pq");
    let store = Parquet::open(&pq, Some("b"), Mode::Append).expect("a run");
    let changes = Box::new(store).commit().expect("committed");
    assert_eq!(changes, Changes::default());
    assert!(!pq.exists());
}

#[test]
fn a_commit_of_renames_and_removals_left_unfinished_is_finished() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = dir.path();
    // Killed after the new sets file was renamed and before the old
    // cards file was removed.
    put(
        dir,
        COMMIT_RECORD,
        "rename\tsets/.run-000002.parquet.incomplete\tsets/run-000002.parquet\nremove\tcards/run-000001.parquet\nrename\tcards/.run-000002.parquet.incomplete\tcards/run-000002.parquet\n",
    );
    put(dir, "sets/run-000002.parquet", "new sets");
    put(dir, "cards/run-000001.parquet", "old cards");
    put(dir, "cards/.run-000002.parquet.incomplete", "new cards");
    finish_commit(dir).expect("finished");
    assert_eq!(read(dir, "sets/run-000002.parquet"), "new sets");
    assert_eq!(read(dir, "cards/run-000002.parquet"), "new cards");
    assert!(!dir.join("cards/run-000001.parquet").exists());
    assert!(!dir.join(COMMIT_RECORD).exists());
    // A step that is not one is refused, and nothing is done.
    put(dir, COMMIT_RECORD, "move\tcards/run-000002.parquet\n");
    let error = finish_commit(dir).expect_err("refused");
    assert!(
        error.to_string().contains("is not a step of a commit"),
        "{error}"
    );
    assert_eq!(read(dir, "cards/run-000002.parquet"), "new cards");
}

#[test]
fn two_runs_never_write_into_one_directory_at_once() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let first = Parquet::open(dir.path(), Some("a"), Mode::Replace).expect("the first run");
    let error = Parquet::open(dir.path(), Some("b"), Mode::Replace)
        .err()
        .expect("the second refused");
    assert!(
        error
            .to_string()
            .contains("another export is writing into this directory"),
        "{error}"
    );
    Box::new(first).abort();
    let second = Parquet::open(dir.path(), Some("b"), Mode::Replace)
        .expect("the second, once the first is done");
    Box::new(second).abort();
}
