//! Comparing two values read again from their files: every value that
//! changed, as a JSON Pointer within the record with the old and the new
//! value. Objects are compared member by member; lists are compared as
//! values (a list that changed is one change, with both lists).

use serde_json::Value;

use crate::data::FieldChange;
use crate::pointer::{join, Ignore};

/// The changes from `old` to `new` (a record or a set's members), at
/// pointers within it; `prefix` is where such a value is from the set's
/// root (`["cards", "*"]`), for `ignore`.
#[must_use]
pub fn compare(old: &Value, new: &Value, prefix: &[&str], ignore: &Ignore) -> Vec<FieldChange> {
    let mut path: Vec<String> = prefix.iter().map(|&t| t.to_owned()).collect();
    let mut out = Vec::new();
    walk(
        Some(old),
        Some(new),
        &mut path,
        prefix.len(),
        ignore,
        &mut out,
    );
    out
}

fn walk(
    old: Option<&Value>,
    new: Option<&Value>,
    path: &mut Vec<String>,
    from: usize,
    ignore: &Ignore,
    out: &mut Vec<FieldChange>,
) {
    if path.len() > from && ignore.covers(path) {
        return;
    }
    match (old, new) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a
                .keys()
                .chain(b.keys().filter(|k| !a.contains_key(*k)))
                .collect();
            keys.sort();
            for key in keys {
                path.push(key.clone());
                walk(a.get(key), b.get(key), path, from, ignore, out);
                path.pop();
            }
        }
        (a, b) if equal(a, b, path, ignore) => {}
        (a, b) => out.push(FieldChange {
            pointer: join("", &path[from..]),
            old: a.cloned(),
            new: b.cloned(),
        }),
    }
}

/// Whether two values are the same, leaving out what `ignore` names.
fn equal(a: Option<&Value>, b: Option<&Value>, path: &mut Vec<String>, ignore: &Ignore) -> bool {
    if ignore.is_empty() {
        return a == b;
    }
    if ignore.covers(path) {
        return true;
    }
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => x.keys().chain(y.keys()).all(|k| {
            path.push(k.clone());
            let same = equal(x.get(k), y.get(k), path, ignore);
            path.pop();
            same
        }),
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len()
                && x.iter().zip(y).enumerate().all(|(i, (p, q))| {
                    path.push(i.to_string());
                    let same = equal(Some(p), Some(q), path, ignore);
                    path.pop();
                    same
                })
        }
        (a, b) => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pointer::Pattern;
    use serde_json::json;

    #[test]
    fn members_lists_and_ignored_pointers() {
        let old = json!({"a": 1, "b": [1, 2], "c": {"d": "x", "e": "y"}, "gone": true, "urls": {"x": "1"}});
        let new = json!({"a": "1", "b": [1, 3], "c": {"d": "x", "e": "z"}, "new": null, "urls": {"x": "2"}});
        let ignore = Ignore(vec![Pattern::parse("/cards/*/urls").unwrap()]);
        let changes = compare(&old, &new, &["cards", "*"], &ignore);
        let pointers: Vec<&str> = changes.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(pointers, ["/a", "/b", "/c/e", "/gone", "/new"]);
        assert_eq!(changes[3].new, None);
        assert_eq!(changes[4].old, None);
        assert_eq!(changes[4].new, Some(Value::Null));
        assert!(compare(&old, &old, &[], &Ignore::default()).is_empty());
    }
}
