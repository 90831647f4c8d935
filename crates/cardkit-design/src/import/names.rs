//! File names for imported documents written to a directory.

use std::collections::{HashMap, HashSet};

/// A file name for each of `names` (documents' names, in order): the name
/// in lower case, letters and digits kept and every run of other characters
/// one `-`, `document` when nothing is left, then `.json`; made unique by
/// `-2`, `-3`… in order.
///
/// ```
/// use cardkit_design::import::file_names;
///
/// let names = file_names(&["Myrel, Death & Taxes", "Myrel, Death & Taxes", "", "Doran, la Tour de siège"]);
/// assert_eq!(names, ["myrel-death-taxes.json", "myrel-death-taxes-2.json", "document.json", "doran-la-tour-de-siège.json"]);
/// ```
#[must_use]
pub fn file_names<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    let mut taken = HashSet::new();
    // The next number to try after each stem: names that share a stem are
    // numbered on from the last one given, not probed from 2 again (20,000
    // cards of one name were 200 million probes).
    let mut next: HashMap<String, usize> = HashMap::new();
    names
        .iter()
        .map(|name| {
            let stem = stem(name.as_ref());
            let plain = format!("{stem}.json");
            if taken.insert(plain.clone()) {
                return plain;
            }
            let n = next.entry(stem).or_insert(2);
            loop {
                let candidate = format!("{}-{n}.json", &plain[..plain.len() - ".json".len()]);
                *n += 1;
                if taken.insert(candidate.clone()) {
                    return candidate;
                }
            }
        })
        .collect()
}

/// The most characters of a name kept in a file name.
const MAX_STEM_CHARS: usize = 100;

fn stem(name: &str) -> String {
    let mut stem = String::new();
    let mut chars = 0;
    let mut dash = false;
    for c in name.chars().flat_map(char::to_lowercase) {
        if chars >= MAX_STEM_CHARS {
            break;
        }
        if c.is_alphanumeric() {
            if dash && !stem.is_empty() {
                stem.push('-');
                chars += 1;
            }
            dash = false;
            stem.push(c);
            chars += 1;
        } else {
            dash = true;
        }
    }
    if stem.is_empty() {
        "document".to_owned()
    } else {
        stem
    }
}
