//! The row maker on hostile bytes: it follows the tape the validator
//! recorded of a document, but whatever bytes and tape it is given it must
//! read to an answer (rows, or the reason there are none), never panic.
//! Mutations of a real set: bytes replaced, inserted, removed, and the
//! document cut short, each with its own tape and with the tape of the
//! set before the change.

use cardkit::validate::{Options, Tape, Validated, Validator};
use cardkit_export::rows::{rows, Rows, Unstorable};
use proptest::prelude::*;

/// The tape of the first document of `bytes`, as the validator records it
/// (empty when there is none or it is malformed).
fn tape(bytes: &[u8]) -> Tape {
    let mut first = None;
    let _ = Validator::new(Options::default())
        .extracting(|found| found.tape.clone())
        .with_tape()
        .reader(bytes, |item| {
            if let Validated::Document(_, Some(tape)) = item {
                first.get_or_insert(tape);
            }
        });
    first.unwrap_or_default()
}

/// The rows of a set, made along its own tape, for a target that stores
/// anything.
fn set_rows(bytes: &[u8]) -> Result<Rows, String> {
    rows(
        bytes,
        &tape(bytes),
        false,
        Unstorable::default(),
        Rows::new(),
    )
}

fn example() -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/valid/set.json");
    std::fs::read(path).expect("the example set")
}

/// One change to a document: at a place (a fraction of its length), a byte
/// replaced, a byte inserted, or bytes removed.
#[derive(Debug, Clone)]
enum Change {
    Replace(f64, u8),
    Insert(f64, u8),
    Remove(f64, usize),
}

fn change() -> impl Strategy<Value = Change> {
    // Bytes that matter to JSON's structure, and any byte.
    let byte = prop_oneof![
        prop::sample::select(b"{}[],:\"\\ 0-1e.tfnu".to_vec()),
        any::<u8>(),
    ];
    prop_oneof![
        (0.0..1.0, byte.clone()).prop_map(|(at, b)| Change::Replace(at, b)),
        (0.0..1.0, byte).prop_map(|(at, b)| Change::Insert(at, b)),
        (0.0..1.0, 1..64usize).prop_map(|(at, n)| Change::Remove(at, n)),
    ]
}

fn apply(bytes: &mut Vec<u8>, change: &Change) {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let place = |at: f64, len: usize| ((at * len as f64) as usize).min(len);
    match *change {
        Change::Replace(at, b) => {
            let i = place(at, bytes.len().saturating_sub(1));
            if let Some(slot) = bytes.get_mut(i) {
                *slot = b;
            }
        }
        Change::Insert(at, b) => {
            let i = place(at, bytes.len());
            bytes.insert(i, b);
        }
        Change::Remove(at, n) => {
            let i = place(at, bytes.len());
            let end = (i + n).min(bytes.len());
            bytes.drain(i..end);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_row_maker_answers_any_mutation_of_a_set(
        changes in prop::collection::vec(change(), 1..8),
        cut in 0.0..1.0f64,
        migration in any::<bool>(),
    ) {
        let original = tape(&example());
        let mut bytes = example();
        for change in &changes {
            apply(&mut bytes, change);
        }
        // Whole, and cut short; with their own tapes and the original's.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        let end = (cut * bytes.len() as f64) as usize;
        for bytes in [&bytes[..], &bytes[..end]] {
            for tape in [tape(bytes), original.clone()] {
                let _ = rows(bytes, &tape, migration, Unstorable::default(), Rows::new());
            }
        }
    }
}

#[test]
fn the_example_set_makes_rows() {
    let made = set_rows(&example()).expect("rows");
    assert!(made.len() > 3, "a set, its cards and their children");
    assert!(made.notes.is_empty(), "{:?}", made.notes);
}

/// Each row of each table, its cells with their text read out.
fn resolved(rows: &Rows) -> Vec<Vec<Vec<String>>> {
    use cardkit_export::rows::Cell;
    rows.tables
        .iter()
        .map(|table| {
            table
                .rows()
                .map(|row| {
                    row.iter()
                        .map(|&cell| match cell {
                            Cell::Text(span) => format!("text {}", table.text(span)),
                            Cell::TextList(span) => {
                                format!("list {:?}", table.items(span).collect::<Vec<_>>())
                            }
                            cell => format!("{cell:?}"),
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// Rows gathered from several documents read as each document's did: the
/// text and the list items of the rows appended are found at their new
/// places.
#[test]
fn rows_appended_read_as_they_did() {
    let first = set_rows(&example()).expect("the example's rows");
    let other = String::from_utf8(example())
        .expect("UTF-8")
        .replace("\"name\": \"", "\"name\": \"Other ")
        .replace("\"colors\": [", "\"colors\": [\"G\", ");
    let second = set_rows(other.as_bytes()).expect("the other's rows");
    assert_ne!(
        resolved(&first),
        resolved(&second),
        "two different documents"
    );

    let mut gathered = set_rows(&example()).expect("the example's rows");
    gathered.append(&second);
    gathered.append(&first);
    let expected: Vec<Vec<Vec<String>>> = resolved(&first)
        .into_iter()
        .zip(resolved(&second))
        .map(|(a, b)| [a.clone(), b, a].concat())
        .collect();
    assert_eq!(resolved(&gathered), expected);
    assert_eq!(gathered.len(), 2 * first.len() + second.len());
}

/// Text with U+0000, which PostgreSQL cannot store: NULL with a note naming
/// its place when the target says so, a text list whole; kept elsewhere.
#[test]
fn text_with_nul_is_null_with_a_note_where_the_target_cannot_store_it() {
    use cardkit_export::layout::layout;
    use cardkit_export::rows::Cell;
    let mut set: serde_json::Value = serde_json::from_slice(&example()).expect("JSON");
    set["name"] = "Nul\u{0}Set".into();
    set["cards"][0]["subtypes"] = serde_json::json!(["Elf", "Nul\u{0}", "Druid"]);
    let bytes = set.to_string().into_bytes();
    let column = |table: &str, column: &str| {
        let t = layout()
            .tables
            .iter()
            .position(|t| t.name == table)
            .expect("the table");
        let c = layout().tables[t]
            .columns
            .iter()
            .position(|c| c.name == column);
        (t, c.expect("the column"))
    };
    let ((sets, name), (cards, subtypes)) = (column("sets", "name"), column("cards", "subtypes"));

    let postgres = Unstorable { nul: true };
    let made = rows(&bytes, &tape(&bytes), false, postgres, Rows::new()).expect("rows");
    let why =
        "text holding the NUL character (U+0000), which PostgreSQL cannot store: stored as NULL";
    assert_eq!(
        made.notes,
        // In the document's order (its keys sorted, as serde_json writes them).
        [format!("/cards/0/subtypes: {why}"), format!("/name: {why}")]
    );
    let first =
        |table: usize, column: usize| made.tables[table].rows().next().expect("a row")[column];
    assert_eq!(first(sets, name), Cell::Null);
    assert_eq!(first(cards, subtypes), Cell::Null);
    assert!(
        made.tables[cards]
            .rows()
            .skip(1)
            .any(|row| row[subtypes] != Cell::Null),
        "the other cards' lists are kept"
    );

    let elsewhere = set_rows(&bytes).expect("rows");
    assert!(elsewhere.notes.is_empty(), "{:?}", elsewhere.notes);
    let row = elsewhere.tables[sets].rows().next().expect("a row");
    let Cell::Text(span) = row[name] else {
        panic!("the name kept: {:?}", row[name]);
    };
    assert_eq!(elsewhere.tables[sets].text(span), "Nul\u{0}Set");
}

/// A list with an invalid item is an invalid value: NULL whole (it was once
/// exported with the item), the card's other values kept.
#[test]
fn a_list_with_an_invalid_item_is_null() {
    use cardkit_export::layout::layout;
    use cardkit_export::rows::Cell;
    let mut set: serde_json::Value = serde_json::from_slice(&example()).expect("JSON");
    set["cards"][0]["colors"] = serde_json::json!(["R", 7]);
    let bytes = set.to_string().into_bytes();
    let cards = layout()
        .tables
        .iter()
        .position(|t| t.name == "cards")
        .expect("cards");
    let column = |name: &str| {
        let columns = &layout().tables[cards].columns;
        columns
            .iter()
            .position(|c| c.name == name)
            .expect("the column")
    };
    let made = set_rows(&bytes).expect("rows");
    let first = made.tables[cards].rows().next().expect("a card");
    assert_eq!(first[column("colors")], Cell::Null);
    let Cell::Text(name) = first[column("name")] else {
        panic!("the name kept: {:?}", first[column("name")]);
    };
    assert_eq!(
        made.tables[cards].text(name),
        set["cards"][0]["name"].as_str().expect("a name")
    );
    assert!(
        made.notes.is_empty(),
        "an invalid value is no note: {:?}",
        made.notes
    );
}
