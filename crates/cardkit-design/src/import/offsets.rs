//! Where values are in the input's bytes: the byte offset of every JSON
//! Pointer a report names, found in one walk over the input (it enters only
//! the objects and arrays on the way to those pointers, and skips the rest
//! by structure), and how deep the input nests.

use std::collections::{HashMap, HashSet};

use cardkit_json::{skip_raw, Scanner, BOM};

use crate::token::pointer_name;

/// The offsets found.
pub(super) struct Offsets {
    found: HashMap<String, usize>,
}

/// The pointers wanted under one value, by their next token.
#[derive(Default)]
struct Node {
    children: HashMap<String, Node>,
    /// The names of the object here are wanted, in order.
    keys: bool,
}

/// The member names of the objects at `pointers`, in the order the input
/// has them (a name given twice, where it first is), found in one walk.
pub(super) fn key_orders(bytes: &[u8], pointers: &[String]) -> HashMap<String, Vec<String>> {
    let mut root = Node::default();
    for pointer in pointers {
        let mut node = &mut root;
        for token in tokens(pointer) {
            node = node.children.entry(token).or_default();
        }
        node.keys = true;
    }
    let mut found = HashMap::new();
    let mut orders = HashMap::new();
    let start = value_start(bytes, bytes.strip_prefix(BOM).map_or(0, |_| BOM.len()));
    walk_keys(
        bytes,
        start,
        &root,
        &mut String::new(),
        &mut found,
        &mut orders,
    );
    orders
}

fn walk_keys(
    bytes: &[u8],
    at: usize,
    node: &Node,
    pointer: &mut String,
    found: &mut HashMap<String, usize>,
    orders: &mut HashMap<String, Vec<String>>,
) {
    if node.keys && bytes.get(at) == Some(&b'{') {
        // Each name once, where it first is (a set of those seen: 20,000
        // image sets by id were 200 million comparisons).
        let mut seen: HashSet<String> = HashSet::new();
        let mut names: Vec<String> = Vec::new();
        for member in Scanner::new(bytes, at).members() {
            if !seen.contains(member.name.as_ref()) {
                seen.insert(member.name.clone().into_owned());
                names.push(member.name.into_owned());
            }
        }
        orders.insert(pointer.clone(), names);
    }
    walk_with(
        bytes,
        at,
        node,
        pointer,
        found,
        &mut |bytes, at, child, pointer, found| {
            walk_keys(bytes, at, child, pointer, found, orders);
        },
    );
}

impl Offsets {
    /// Finds the offset of each of `pointers` in `bytes` (of the nearest
    /// value on its way that is there, for a member that is not).
    pub fn find(bytes: &[u8], pointers: &[&str]) -> Offsets {
        let mut root = Node::default();
        for pointer in pointers {
            let mut node = &mut root;
            for token in tokens(pointer) {
                node = node.children.entry(token).or_default();
            }
        }
        let mut found = HashMap::new();
        let start = value_start(bytes, bytes.strip_prefix(BOM).map_or(0, |_| BOM.len()));
        walk(bytes, start, &root, &mut String::new(), &mut found);
        Offsets { found }
    }

    /// The offset of `pointer`, or of the nearest value on its way.
    pub fn of(&self, pointer: &str) -> usize {
        let mut pointer = pointer;
        loop {
            if let Some(&offset) = self.found.get(pointer) {
                return offset;
            }
            match pointer.rfind('/') {
                Some(at) => pointer = &pointer[..at],
                None => return 0,
            }
        }
    }
}

/// The unescaped tokens of a pointer (`~1` is `/`, `~0` is `~`).
fn tokens(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|token| cardkit_json::pointer::unescape(token).into_owned())
}

/// The offset of the first byte at or after `at` that is not white space.
fn value_start(bytes: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(at) {
        at += 1;
    }
    at
}

/// Records the offset of the value at `at` (at `pointer`), then those of the
/// pointers wanted under it. The recursion is as deep as the pointers are
/// long, which the notes keep short.
fn walk(
    bytes: &[u8],
    at: usize,
    node: &Node,
    pointer: &mut String,
    found: &mut HashMap<String, usize>,
) {
    walk_with(
        bytes,
        at,
        node,
        pointer,
        found,
        &mut |bytes, at, child, pointer, found| {
            walk(bytes, at, child, pointer, found);
        },
    );
}

type Descend<'d> = dyn FnMut(&[u8], usize, &Node, &mut String, &mut HashMap<String, usize>) + 'd;

/// Records the offset of the value at `at`, and calls `descend` on each
/// member or item of it that a child of `node` wants.
fn walk_with(
    bytes: &[u8],
    at: usize,
    node: &Node,
    pointer: &mut String,
    found: &mut HashMap<String, usize>,
    descend: &mut Descend<'_>,
) {
    found.insert(pointer.clone(), at);
    if node.children.is_empty() {
        return;
    }
    let length = pointer.len();
    match bytes.get(at) {
        Some(b'{') => {
            // A key twice: the later one is the value read, as in the import.
            for member in Scanner::new(bytes, at).members() {
                // A long name is in the pointers as `crate::token` cuts it.
                let name = pointer_name(&member.name);
                if let Some(child) = node.children.get(name.as_ref()) {
                    cardkit_json::pointer::push_token(pointer, &name);
                    descend(bytes, member.value_at, child, pointer, found);
                    pointer.truncate(length);
                }
            }
        }
        Some(b'[') => {
            let mut scanner = Scanner::new(bytes, at);
            if !matches!(scanner.open(), Ok(true)) {
                return;
            }
            let mut index = 0usize;
            loop {
                scanner.ws();
                let item = scanner.pos;
                if let Some(child) = node.children.get(&index.to_string()) {
                    pointer.push('/');
                    pointer.push_str(&index.to_string());
                    descend(bytes, item, child, pointer, found);
                    pointer.truncate(length);
                }
                if scanner.skip_structure().is_err() || !matches!(scanner.after_item(), Ok(true)) {
                    return;
                }
                index += 1;
            }
        }
        _ => {}
    }
}

/// The members of `map` in `order` (the input's), any others after them.
pub(super) fn in_order(
    mut map: serde_json::Map<String, serde_json::Value>,
    order: Option<&Vec<String>>,
) -> Vec<(String, serde_json::Value)> {
    let mut ordered = Vec::with_capacity(map.len());
    for name in order.into_iter().flatten() {
        if let Some(value) = map.remove(name) {
            ordered.push((name.clone(), value));
        }
    }
    ordered.extend(map);
    ordered
}

/// The offset of the first bracket nested deeper than `limit` arrays and
/// objects, if one is: counted by bytes alone (strings skipped), so that
/// nothing recursive reads an input nested that deep.
pub(super) fn deeper_than(bytes: &[u8], limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                // To the closing quote; a string cut short ends the input.
                at = match skip_raw(bytes, at) {
                    Ok(end) => end,
                    Err(_) => return None,
                };
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(at);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_items_and_the_nearest_value_of_what_is_missing() {
        let bytes = br#" {"a": [1, {"b~/c": "x"}], "d": {"e": 2}, "d": {"e": 3}}"#;
        let offsets = Offsets::find(bytes, &["/a/1/b~0~1c", "/d/e", "/a/7", "/z"]);
        let at = |text: &str| {
            let text = text.as_bytes();
            bytes.windows(text.len()).position(|w| w == text).unwrap()
        };
        assert_eq!(offsets.of("/a/1/b~0~1c"), at("\"x\""));
        // The later of two keys, as every parser reads it.
        assert_eq!(offsets.of("/d/e"), at("3}"));
        assert_eq!(offsets.of("/a/7"), at("[1"));
        assert_eq!(offsets.of("/z"), 1);
        assert_eq!(offsets.of(""), 1);
    }

    #[test]
    fn depth_is_counted_outside_strings() {
        assert_eq!(deeper_than(b"[[\"[[[[\"]]", 2), None);
        assert_eq!(deeper_than(b"[[[1]]]", 2), Some(2));
        assert_eq!(deeper_than(b"{\"a\": {\"b\": [0]}}", 3), None);
    }
}
