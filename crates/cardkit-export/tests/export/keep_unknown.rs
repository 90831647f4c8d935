//! `--keep-unknown`: the members the spec does not define kept as a JSON
//! object in the `extra` column of their record's table. The corpus's v4
//! set files carry `prices` on their cards (a member the spec does not
//! define): they come back, as JSON, equal to the files' from each target.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cardkit::Options;
use cardkit_export::{Exporter, Mode, OnInvalid, Target, Totals};
use serde_json::Value;

/// The corpus's v4 set files (invalid for the spec: exported with
/// `--on-invalid keep`).
fn v4_files(shared: &Path) -> Vec<PathBuf> {
    ["cardmaster_WAR.json", "cardmaster_XLN.json"]
        .iter()
        .map(|name| shared.join("corpus/neutral/set").join(name))
        .collect()
}

/// Exports `inputs` to `target`, keeping the unknown members or not.
fn export(target: &Target, inputs: &[PathBuf], keep: bool) -> Totals {
    let mut exporter = Exporter::open_with(target, OnInvalid::Keep, None, 2, Mode::Append, false)
        .expect("the target opens");
    exporter.keep_unknown(keep);
    for input in inputs {
        let file = std::fs::File::open(input).expect("an input");
        exporter
            .input(
                &input.display().to_string(),
                file,
                &Options::default(),
                |_| {},
                |_| {},
            )
            .expect("the input is exported");
    }
    exporter.finish().expect("the export commits")
}

/// Each card's members in the files, by uuid.
fn cards_in(inputs: &[PathBuf]) -> BTreeMap<String, serde_json::Map<String, Value>> {
    let mut cards = BTreeMap::new();
    for input in inputs {
        for set in support::sets_of(input) {
            for card in set["cards"].as_array().into_iter().flatten() {
                let card = card.as_object().expect("a card object").clone();
                let uuid = card["uuid"].as_str().expect("a uuid").to_owned();
                cards.insert(uuid, card);
            }
        }
    }
    cards
}

/// Checks the `extra` of each card (by uuid) against the files: every
/// card's `prices` is there, equal, and every member there is the file's.
fn assert_kept(inputs: &[PathBuf], stored: &BTreeMap<String, Option<String>>) {
    let cards = cards_in(inputs);
    assert_eq!(stored.len(), cards.len(), "a row per card");
    let mut priced = 0;
    for (uuid, card) in &cards {
        let extra = stored.get(uuid).unwrap_or_else(|| panic!("{uuid} stored"));
        let extra: serde_json::Map<String, Value> = match extra {
            Some(text) => serde_json::from_str(text).expect("extra is a JSON object"),
            None => serde_json::Map::new(),
        };
        if let Some(prices) = card.get("prices") {
            priced += 1;
            assert_eq!(extra.get("prices"), Some(prices), "{uuid}'s prices");
        }
        for (name, value) in &extra {
            assert_eq!(card.get(name), Some(value), "{uuid}'s {name}");
        }
    }
    assert!(priced > 300, "{priced} cards with prices in the v4 files");
}

fn kept_names(totals: &Totals) -> Vec<&str> {
    totals
        .kept_unknown
        .iter()
        .map(|(n, _)| n.as_str())
        .collect()
}

#[test]
fn v4_prices_round_trip_through_sqlite() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let files = v4_files(&shared);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cards.db");
    let totals = export(&Target::Sqlite(db.clone()), &files, true);
    assert!(kept_names(&totals).contains(&"CardSet.prices"));
    assert!(!totals
        .not_exported
        .iter()
        .any(|(n, _)| n == "CardSet.prices"));
    let connection = rusqlite::Connection::open(&db).unwrap();
    let mut query = connection.prepare("SELECT uuid, extra FROM cards").unwrap();
    let stored: BTreeMap<String, Option<String>> = query
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_kept(&files, &stored);
    // The set's own (`meta`, `boosterV3` of v4) are on its row.
    let extra: String = connection
        .query_row("SELECT extra FROM sets WHERE code = 'WAR'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let extra: Value = serde_json::from_str(&extra).unwrap();
    assert!(extra.get("boosterV3").is_some(), "{extra}");
}

#[test]
fn without_the_flag_extra_is_null_and_the_members_are_not_exported() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let files = v4_files(&shared);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cards.db");
    let totals = export(&Target::Sqlite(db.clone()), &files, false);
    assert!(totals.kept_unknown.is_empty());
    assert!(totals
        .not_exported
        .iter()
        .any(|(n, count)| n == "CardSet.prices" && *count > 300));
    let connection = rusqlite::Connection::open(&db).unwrap();
    let kept: i64 = connection
        .query_row(
            "SELECT count(*) FROM cards WHERE extra IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(kept, 0);
}

#[test]
fn v4_prices_round_trip_through_postgresql() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let files = v4_files(&shared);
    let server = support::postgres::Server::start();
    export(&Target::Postgres(server.url.clone()), &files, true);
    let mut client = postgres::Client::connect(&server.url, postgres::NoTls).unwrap();
    let ty: String = client
        .query_one(
            "SELECT data_type FROM information_schema.columns \
             WHERE table_name = 'cards' AND column_name = 'extra'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(ty, "jsonb");
    let stored: BTreeMap<String, Option<String>> = client
        .query("SELECT uuid, extra::text FROM cards", &[])
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect();
    assert_kept(&files, &stored);
}

#[test]
fn v4_prices_round_trip_through_parquet() {
    use arrow_array::{Array, StringArray};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::basic::LogicalType;

    let Some(shared) = support::shared_dir() else {
        return;
    };
    let files = v4_files(&shared);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pq");
    export(&Target::Parquet(out.clone()), &files, true);
    let mut parquet_files = Vec::new();
    let mut folders = vec![out.join("cards")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                parquet_files.push(path);
            }
        }
    }
    assert!(!parquet_files.is_empty(), "no cards file");
    let mut stored = BTreeMap::new();
    for path in parquet_files {
        let builder =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&path).unwrap()).unwrap();
        let schema = builder.parquet_schema();
        let extra = (0..schema.num_columns())
            .map(|i| schema.column(i))
            .find(|c| c.name() == "extra")
            .expect("an extra column");
        assert_eq!(extra.logical_type_ref(), Some(&LogicalType::Json));
        for batch in builder.build().unwrap() {
            let batch = batch.unwrap();
            let column = |name: &str| {
                batch
                    .column_by_name(name)
                    .unwrap()
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .unwrap()
                    .clone()
            };
            let (uuids, extras) = (column("uuid"), column("extra"));
            for i in 0..batch.num_rows() {
                let extra = (!extras.is_null(i)).then(|| extras.value(i).to_owned());
                stored.insert(uuids.value(i).to_owned(), extra);
            }
        }
    }
    assert_kept(&files, &stored);
}

/// Nested records and list items keep theirs on their own rows, names
/// with escapes and values as written; a record without any has NULL.
#[test]
fn nested_records_and_list_items_keep_their_own() {
    let Some(shared) = support::shared_dir() else {
        return;
    };
    let source = shared.join("corpus/neutral/set/cardmaster_WAR.json");
    let mut set: Value = serde_json::from_slice(&std::fs::read(source).unwrap()).unwrap();
    let card = &mut set["cards"][0];
    card["legalities"]["alchemy"] = Value::from("legal");
    card["foreignData"][1]["flavorName"] = serde_json::json!({"a": [1, 2.5, null]});
    set["na\"me"] = Value::from("quoted");
    let uuid = set["cards"][0]["uuid"].as_str().unwrap().to_owned();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("WAR.json");
    // Pretty-printed: the values are kept with their white space, as JSON.
    std::fs::write(&input, serde_json::to_string_pretty(&set).unwrap()).unwrap();
    let db = dir.path().join("cards.db");
    export(&Target::Sqlite(db.clone()), &[input], true);
    let connection = rusqlite::Connection::open(&db).unwrap();
    let json = |sql: &str| -> Option<Value> {
        let text: Option<String> = connection.query_row(sql, [&uuid], |r| r.get(0)).unwrap();
        text.map(|t| serde_json::from_str(&t).expect("JSON"))
    };
    assert_eq!(
        json("SELECT extra FROM legalities WHERE uuid = ?1"),
        Some(serde_json::json!({"alchemy": "legal"}))
    );
    assert_eq!(
        json("SELECT extra FROM foreign_data WHERE uuid = ?1 AND position = 1"),
        Some(serde_json::json!({"flavorName": {"a": [1, 2.5, null]}}))
    );
    assert_eq!(
        json("SELECT extra FROM foreign_data WHERE uuid = ?1 AND position = 0"),
        None
    );
    let set_extra: String = connection
        .query_row("SELECT extra FROM sets", [], |r| r.get(0))
        .unwrap();
    let set_extra: Value = serde_json::from_str(&set_extra).unwrap();
    assert_eq!(set_extra["na\"me"], Value::from("quoted"));
}
