//! A document with a name written twice is read as the validator reads it:
//! the last value of the name counts. Two builds whose earlier and later
//! values of such a name are swapped differ, and the diff says so, for a
//! set-level member and for a record's.

use std::path::Path;

use cardkit_diff::{diff, DiffOptions};

/// The example set, compact, with `block` written twice at the set's level
/// and `artist` twice in its first card, `first` then `last` each time.
fn with_names_twice(dir: &Path, name: &str, first: &str, last: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string("../../examples/valid/set.json").unwrap();
    let mut set: serde_json::Value = serde_json::from_str(&text).unwrap();
    set.as_object_mut().unwrap().remove("block");
    let card = set["cards"][0].as_object_mut().unwrap();
    card.remove("artist");
    let uuid = card["uuid"].as_str().unwrap().to_owned();
    let text = serde_json::to_string(&set).unwrap();
    let member = format!(r#""uuid":"{uuid}""#);
    assert_eq!(text.matches(&member).count(), 1);
    let text = text.replacen(
        &member,
        &format!(r#"{member},"artist":"{first}","artist":"{last}""#),
        1,
    );
    let text = format!(r#"{{"block":"{first}","block":"{last}",{}"#, &text[1..]);
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn swapped_values_of_a_name_written_twice_are_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let old = with_names_twice(dir.path(), "old.json", "Earlier", "Later");
    let same = with_names_twice(dir.path(), "same.json", "Earlier", "Later");
    let new = with_names_twice(dir.path(), "new.json", "Later", "Earlier");
    let options = DiffOptions {
        jobs: 1,
        ..DiffOptions::default()
    };
    let unchanged = diff(&old, &same, &options).unwrap();
    assert!(unchanged.sets.is_empty(), "{:?}", unchanged.sets);
    let d = diff(&old, &new, &options).unwrap();
    assert_eq!(d.sets.len(), 1, "{:?}", d.summary);
    let set = &d.sets[0];
    let set_fields: Vec<_> = set.fields.iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(set_fields, ["/block"]);
    assert_eq!(d.summary.records_changed, 1, "{:?}", d.summary);
    let record = &set.changes[0];
    let fields: Vec<_> = record.fields.iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(fields, ["/artist"]);
    let change = &record.fields[0];
    let text = |value: &Option<cardkit_diff::value::Json>| value.as_ref().unwrap().to_string();
    assert_eq!(
        (text(&change.old), text(&change.new)),
        (r#""Later""#.to_owned(), r#""Earlier""#.to_owned())
    );
}
