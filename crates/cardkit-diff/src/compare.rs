//! Comparing two values read again from their files: every value that
//! changed, as a JSON Pointer within the record with the old and the new
//! value. Objects are compared member by member; lists are compared as
//! values (a list that changed is one change, with both lists). Numbers are
//! compared by value (`10.0` is `10`): a number written another way is not
//! a change, and is counted apart.

use crate::data::FieldChange;
use crate::number::Decimal;
use crate::pointer::{join, Ignore};
use crate::value::Json;

/// What changed from one value to another.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Compared {
    /// The values that changed, by pointer.
    pub changes: Vec<FieldChange>,
    /// Numbers the same by value but written another way (`3.0` for `3`),
    /// in what did not change.
    pub numbers_rewritten: usize,
}

/// The changes from `old` to `new` (a record or a set's members), at
/// pointers within it; `prefix` is where such a value is from the set's
/// root (`["cards", "*"]`), for `ignore`.
#[must_use]
pub fn compare(old: &Json, new: &Json, prefix: &[&str], ignore: &Ignore) -> Compared {
    let mut path: Vec<String> = prefix.iter().map(|&t| t.to_owned()).collect();
    let mut out = Compared::default();
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
    old: Option<&Json>,
    new: Option<&Json>,
    path: &mut Vec<String>,
    from: usize,
    ignore: &Ignore,
    out: &mut Compared,
) {
    if path.len() > from && ignore.covers(path) {
        return;
    }
    match (old, new) {
        (Some(Json::Object(a)), Some(Json::Object(b))) => {
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
        (a, b) => {
            let mut rewritten = 0;
            if equal(a, b, path, ignore, &mut rewritten) {
                out.numbers_rewritten += rewritten;
            } else {
                out.changes.push(FieldChange {
                    pointer: join("", &path[from..]),
                    old: a.cloned(),
                    new: b.cloned(),
                });
            }
        }
    }
}

/// Whether two values are the same, leaving out what `ignore` names;
/// numbers written another way are counted in `rewritten` (of no use when
/// the values differ).
fn equal(
    a: Option<&Json>,
    b: Option<&Json>,
    path: &mut Vec<String>,
    ignore: &Ignore,
    rewritten: &mut usize,
) -> bool {
    if !ignore.is_empty() && ignore.covers(path) {
        return true;
    }
    match (a, b) {
        (Some(Json::Object(x)), Some(Json::Object(y))) => x
            .keys()
            .chain(y.keys().filter(|k| !x.contains_key(*k)))
            .all(|k| {
                path.push(k.clone());
                let same = equal(x.get(k), y.get(k), path, ignore, rewritten);
                path.pop();
                same
            }),
        (Some(Json::Array(x)), Some(Json::Array(y))) => {
            x.len() == y.len()
                && x.iter().zip(y).enumerate().all(|(i, (p, q))| {
                    path.push(i.to_string());
                    let same = equal(Some(p), Some(q), path, ignore, rewritten);
                    path.pop();
                    same
                })
        }
        (Some(Json::Number(x)), Some(Json::Number(y))) if x != y => {
            // A literal that is not a number (in a document diffed as far
            // as it parses) equals only itself.
            let same = matches!(
                (Decimal::parse(x), Decimal::parse(y)),
                (Some(p), Some(q)) if p == q
            );
            *rewritten += usize::from(same);
            same
        }
        (a, b) => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pointer::Pattern;

    fn json(text: &str) -> Json {
        Json::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn members_lists_and_ignored_pointers() {
        let old = json(
            r#"{"a": 1, "b": [1, 2], "c": {"d": "x", "e": "y"}, "gone": true, "urls": {"x": "1"}}"#,
        );
        let new = json(
            r#"{"a": "1", "b": [1, 3], "c": {"d": "x", "e": "z"}, "new": null, "urls": {"x": "2"}}"#,
        );
        let ignore = Ignore(vec![Pattern::parse("/cards/*/urls").unwrap()]);
        let changes = compare(&old, &new, &["cards", "*"], &ignore).changes;
        let pointers: Vec<&str> = changes.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(pointers, ["/a", "/b", "/c/e", "/gone", "/new"]);
        assert_eq!(changes[3].new, None);
        assert_eq!(changes[4].old, None);
        assert_eq!(changes[4].new, Some(Json::Null));
        assert_eq!(
            compare(&old, &old, &[], &Ignore::default()),
            Compared::default()
        );
    }

    #[test]
    fn numbers_written_another_way_are_counted_not_changed() {
        let old =
            json(r#"{"a": 10, "b": [1, 2.5], "c": {"d": 3}, "e": [1, 2], "f": 9007199254740993}"#);
        let new = json(
            r#"{"a": 10.0, "b": [1e0, 25e-1], "c": {"d": 3.00}, "e": [1.0, 3], "f": 9007199254740992}"#,
        );
        let compared = compare(&old, &new, &[], &Ignore::default());
        let pointers: Vec<&str> = compared
            .changes
            .iter()
            .map(|c| c.pointer.as_str())
            .collect();
        // A list that changed is one change: the numbers rewritten in it
        // are part of it, not counted.
        assert_eq!(pointers, ["/e", "/f"]);
        assert_eq!(compared.numbers_rewritten, 4);
        // Reported as written.
        assert_eq!(
            compared.changes[0]
                .old
                .as_ref()
                .map(Json::to_string)
                .as_deref(),
            Some("[1,2]")
        );
        assert_eq!(
            compared.changes[0]
                .new
                .as_ref()
                .map(Json::to_string)
                .as_deref(),
            Some("[1.0,3]")
        );
        // What is ignored is not counted.
        let ignore = Ignore(vec![Pattern::parse("/c").unwrap()]);
        assert_eq!(compare(&old, &new, &[], &ignore).numbers_rewritten, 3);
        // A number is not its string.
        let text = compare(
            &json(r#"{"a": 10}"#),
            &json(r#"{"a": "10"}"#),
            &[],
            &Ignore::default(),
        );
        assert_eq!((text.changes.len(), text.numbers_rewritten), (1, 0));
    }
}
