//! Finding the tag of a union object before the object is read: its last
//! `type` member decides which model the object is checked against.
//!
//! Looking ahead in every object of a deep layer tree would read each
//! subtree once per level above it. Instead, the first look-ahead in a
//! region indexes every object inside it in one structural pass (brackets,
//! quotes, colons and commas, as strictly as a look-ahead of one object
//! needs), and later look-ahead inside the region are answered from the
//! index: the whole document is read a bounded number of times.

use std::collections::{HashMap, HashSet};

use cardkit_json::{skip_raw, Scanner};

/// What a look-ahead found for the object at an offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lookup {
    /// The object has no such member.
    Absent,
    /// The value of the last such member is at this offset.
    Found(usize),
    /// The object's members are not well formed (checking it reports why).
    Malformed,
}

/// The look-ahead results for the objects of some regions, by member name.
#[derive(Default)]
pub(super) struct TagIndex {
    indexes: Vec<(&'static str, Index)>,
}

#[derive(Default)]
struct Index {
    /// Disjoint byte ranges whose objects are all indexed, in order.
    regions: Vec<(usize, usize)>,
    /// Object start → value of its last member with the name.
    found: HashMap<usize, usize>,
    /// Starts of the objects whose own members are not well formed.
    malformed: HashSet<usize>,
}

impl TagIndex {
    /// The member `name` of the object at `at` of `bytes`.
    pub fn lookup(&mut self, bytes: &[u8], at: usize, name: &'static str) -> Lookup {
        let position = self.indexes.iter().position(|(n, _)| *n == name);
        let index = match position {
            Some(i) => &mut self.indexes[i].1,
            None => {
                self.indexes.push((name, Index::default()));
                &mut self.indexes.last_mut().expect("just pushed").1
            }
        };
        if !index.covers(at) && !index.build(bytes, at, name) {
            return Lookup::Malformed;
        }
        if index.malformed.contains(&at) {
            Lookup::Malformed
        } else {
            index
                .found
                .get(&at)
                .map_or(Lookup::Absent, |&v| Lookup::Found(v))
        }
    }
}

impl Index {
    fn covers(&self, at: usize) -> bool {
        let i = self.regions.partition_point(|&(start, _)| start <= at);
        i > 0 && at < self.regions[i - 1].1
    }

    /// Indexes every object of the value at `start`; `false` when its
    /// brackets do not match or it is cut short.
    fn build(&mut self, bytes: &[u8], start: usize, name: &str) -> bool {
        let Ok(end) = skip_raw(bytes, start) else {
            return false;
        };
        let mut frames: Vec<Frame> = Vec::new();
        let mut pos = start;
        while pos < end {
            let byte = bytes[pos];
            let Some(frame) = frames.last_mut() else {
                // At the value itself.
                frames.push(Frame::open(byte, pos));
                pos += 1;
                continue;
            };
            if matches!(byte, b' ' | b'\n' | b'\r' | b'\t') {
                pos += 1;
                continue;
            }
            if !frame.object {
                // Arrays are read by structure alone, as a look-ahead does.
                match byte {
                    b'"' => pos = skip_raw(bytes, pos).unwrap_or(end),
                    b'{' | b'[' => {
                        frames.push(Frame::open(byte, pos));
                        pos += 1;
                    }
                    b']' | b'}' => {
                        pos += 1;
                        self.close(&mut frames);
                    }
                    _ => pos += 1,
                }
                continue;
            }
            match (frame.state, byte) {
                (State::Key | State::KeyOrEnd, b'"') => {
                    let after = skip_raw(bytes, pos).unwrap_or(end);
                    frame.named = Scanner::new(bytes, pos).string_here().as_deref() == Some(name);
                    frame.state = State::Colon;
                    pos = after;
                }
                (State::KeyOrEnd | State::CommaOrEnd, b'}') => {
                    pos += 1;
                    self.close(&mut frames);
                }
                (State::Colon, b':') => {
                    frame.state = State::Value;
                    pos += 1;
                }
                (State::CommaOrEnd, b',') => {
                    frame.state = State::Key;
                    pos += 1;
                }
                (State::Value, b'}' | b']') => {
                    self.malformed.insert(frame.start);
                    pos += 1;
                    self.close(&mut frames);
                }
                (State::Value, _) => {
                    if frame.named {
                        self.found.insert(frame.start, pos);
                    }
                    frame.state = State::CommaOrEnd;
                    match byte {
                        b'{' | b'[' => {
                            frames.push(Frame::open(byte, pos));
                            pos += 1;
                        }
                        _ => pos = skip_raw(bytes, pos).unwrap_or(end).max(pos + 1),
                    }
                }
                (_, b'{' | b'[') => {
                    // Out of place: the object is malformed, the structure goes on.
                    self.malformed.insert(frame.start);
                    frames.push(Frame::open(byte, pos));
                    pos += 1;
                }
                (_, b']' | b'}') => {
                    // The brackets match (the skip said so): this one ends
                    // the object, out of place.
                    self.malformed.insert(frame.start);
                    pos += 1;
                    self.close(&mut frames);
                }
                (_, b'"') => {
                    self.malformed.insert(frame.start);
                    pos = skip_raw(bytes, pos).unwrap_or(end);
                }
                _ => {
                    self.malformed.insert(frame.start);
                    pos += 1;
                }
            }
        }
        self.regions.push((start, end));
        true
    }

    /// Ends the innermost frame.
    fn close(&mut self, frames: &mut Vec<Frame>) {
        frames.pop();
    }
}

/// An object or array being read.
struct Frame {
    start: usize,
    object: bool,
    state: State,
    /// The member being read has the name looked for.
    named: bool,
}

impl Frame {
    fn open(byte: u8, start: usize) -> Frame {
        Frame {
            start,
            object: byte == b'{',
            state: State::KeyOrEnd,
            named: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    KeyOrEnd,
    Key,
    Colon,
    Value,
    CommaOrEnd,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The look-ahead of one object by itself, as it was before the index.
    fn one_object(bytes: &[u8], at: usize, name: &str) -> Lookup {
        let scan = Scanner::new(bytes, at);
        let mut found = Lookup::Absent;
        let mut members = scan.members();
        for member in members.by_ref() {
            if member.name == name {
                found = Lookup::Found(member.value_at);
            }
        }
        if members.complete() {
            found
        } else {
            Lookup::Malformed
        }
    }

    #[test]
    fn the_index_answers_as_a_look_ahead_of_each_object() {
        let cases: &[&str] = &[
            r#"{"type": "group", "children": [{"type": "text"}, {"x": 1, "type": "image", "type": "text"}]}"#,
            r#"{"children": [{"a": {"type": 5}}, {"t\u0079pe": "x"}], "type": "group"}"#,
            r#"{"type": "group" "x": 1}"#,
            r#"{"a": [1, 2, {"type": "x",}], "type": 1}"#,
            r#"{"a": tru e, "type": "x"}"#,
            r#"{"a": {"b": {"type": "deep"}}, "c": [[{"type": "in array"}]]}"#,
            r#"{"a": 1 : 2}"#,
            r#"{}"#,
        ];
        for case in cases {
            let bytes = case.as_bytes();
            let objects: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b'{').collect();
            let mut index = TagIndex::default();
            for &at in &objects {
                // Only objects outside strings are objects.
                if Scanner::new(bytes, 0).bytes[..at]
                    .iter()
                    .filter(|&&b| b == b'"')
                    .count()
                    % 2
                    == 1
                {
                    continue;
                }
                assert_eq!(
                    index.lookup(bytes, at, "type"),
                    one_object(bytes, at, "type"),
                    "{case} at {at}"
                );
            }
        }
    }
}
