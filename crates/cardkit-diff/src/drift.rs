//! Drift: what the fields of a build look like, summed up per field
//! pattern (`/cards/*/rarity`), and how two builds' differ: fields that
//! appear or vanish, fields whose JSON type changed, and fields with few
//! values (as the field tables mark them) that gained values.
//!
//! A [`Tree`] has a node per pattern, reached from the set's root through
//! the field tables (the model of each known member; `*` for the items of
//! a list); members the tables do not know, and free objects, are nodes
//! whose content is not followed, so that keys made of data (a booster's
//! sheets) do not count as fields.

use std::collections::{BTreeMap, HashMap};

use cardkit::schema::{ModelDef, Type};

use crate::data::{DriftKind, DriftReport};

/// The root node: the set.
pub const ROOT: usize = 0;

/// The most distinct values kept of a few-valued field; past it the field
/// is not compared for new values.
pub const VALUE_LIMIT: usize = 256;

/// The JSON type of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum JsonType {
    /// `null`
    Null,
    /// `true`, `false`
    Boolean,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonType {
    /// The type of the value that starts with `byte`.
    #[must_use]
    pub fn at(byte: Option<u8>) -> JsonType {
        match byte {
            Some(b'{') => JsonType::Object,
            Some(b'[') => JsonType::Array,
            Some(b'"') => JsonType::String,
            Some(b't' | b'f') => JsonType::Boolean,
            Some(b'n') => JsonType::Null,
            _ => JsonType::Number,
        }
    }

    /// The type's name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }

    const ALL: [JsonType; 6] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Number,
        JsonType::String,
        JsonType::Array,
        JsonType::Object,
    ];
}

/// One field pattern's counts.
#[derive(Debug, Clone, Default)]
pub struct Node {
    /// The member's name, or `*`.
    pub token: Box<str>,
    /// Its parent (the root is its own).
    pub parent: usize,
    ty: Option<&'static Type>,
    few: bool,
    known: Vec<u32>,
    other: HashMap<Box<[u8]>, u32>,
    star: u32,
    /// Values of each type, with the first one's pointer.
    pub types: [(u64, Option<String>); 6],
    /// For a few-valued field: each value with its count and first pointer;
    /// `None` past [`VALUE_LIMIT`].
    pub values: Option<BTreeMap<Box<str>, (u64, String)>>,
}

impl Node {
    /// How many values the field has.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.types.iter().map(|(n, _)| n).sum()
    }

    fn model(&self) -> Option<&'static ModelDef> {
        match self.ty {
            Some(Type::Model { model }) => Some(model()),
            _ => None,
        }
    }
}

/// The field patterns of a build, each with its counts.
#[derive(Debug, Clone)]
pub struct Tree {
    /// The nodes; [`ROOT`] is the set.
    pub nodes: Vec<Node>,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree::new()
    }
}

impl Tree {
    /// A tree with its root.
    #[must_use]
    pub fn new() -> Tree {
        let set = cardkit::Kind::Set;
        Tree {
            nodes: vec![Node {
                ty: Some(&SET),
                known: vec![0; set.model().fields.len()],
                ..Node::default()
            }],
        }
    }

    fn add(&mut self, parent: usize, token: &str, ty: Option<&'static Type>, few: bool) -> usize {
        let known = match ty {
            Some(Type::Model { model }) => vec![0; model().fields.len()],
            _ => Vec::new(),
        };
        self.nodes.push(Node {
            token: token.into(),
            parent,
            ty,
            few,
            known,
            values: few.then(BTreeMap::new),
            ..Node::default()
        });
        self.nodes.len() - 1
    }

    /// The node of member `name` of an object at `node`, made when new;
    /// `None` when the tables say nothing of what is inside `node`.
    pub fn child(&mut self, node: usize, name: &str) -> Option<usize> {
        self.child_bytes(node, name.as_bytes())
    }

    /// [`Tree::child`] of a name given as UTF-8 bytes.
    pub fn child_bytes(&mut self, node: usize, name: &[u8]) -> Option<usize> {
        let model = self.nodes[node].model()?;
        if let Some((index, field)) = model.field_by_bytes(name) {
            let id = self.nodes[node].known[index];
            if id != 0 {
                return Some(id as usize);
            }
            let id = self.add(node, field.name, Some(field.ty), field.few_values);
            self.nodes[node].known[index] = u32::try_from(id).ok()?;
            return Some(id);
        }
        if let Some(&id) = self.nodes[node].other.get(name) {
            return Some(id as usize);
        }
        let id = self.add(node, &String::from_utf8_lossy(name), None, false);
        self.nodes[node]
            .other
            .insert(name.into(), u32::try_from(id).ok()?);
        Some(id)
    }

    /// The node of the items of a list at `node`, made when new.
    pub fn star(&mut self, node: usize) -> Option<usize> {
        let Some(Type::List { item }) = self.nodes[node].ty else {
            return None;
        };
        if self.nodes[node].star != 0 {
            return Some(self.nodes[node].star as usize);
        }
        let few = self.nodes[node].few;
        let id = self.add(node, "*", Some(item), few);
        self.nodes[node].star = u32::try_from(id).ok()?;
        Some(id)
    }

    /// Counts a value of type `ty` at `node`; `true` when it is the first of
    /// its type (its pointer is wanted, for [`Tree::example`]).
    pub fn count(&mut self, node: usize, ty: JsonType) -> bool {
        let slot = &mut self.nodes[node].types[ty as usize];
        slot.0 += 1;
        slot.1.is_none()
    }

    /// The pointer of the first value of type `ty` at `node`.
    pub fn example(&mut self, node: usize, ty: JsonType, pointer: String) {
        self.nodes[node].types[ty as usize].1.get_or_insert(pointer);
    }

    /// Whether `node` is a few-valued field whose values are kept.
    #[must_use]
    pub fn has_values(&self, node: usize) -> bool {
        self.nodes[node].values.is_some()
    }

    /// Whether the string `value` at `node` is kept (a few-valued field);
    /// counts it when it is known already.
    pub fn wants_value(&mut self, node: usize, value: &str) -> bool {
        let Some(values) = self.nodes[node].values.as_mut() else {
            return false;
        };
        if let Some(seen) = values.get_mut(value) {
            seen.0 += 1;
            return false;
        }
        true
    }

    /// Keeps a new value of a few-valued field, with its pointer.
    pub fn value(&mut self, node: usize, value: &str, pointer: String) {
        let node = &mut self.nodes[node];
        if let Some(values) = node.values.as_mut() {
            if values.len() >= VALUE_LIMIT {
                node.values = None;
            } else {
                values.insert(value.into(), (1, pointer));
            }
        }
    }

    /// The node reached by the same tokens as `other`'s node `at`, made
    /// when new.
    fn counterpart(&mut self, at: usize, other: &Tree, map: &[usize]) -> Option<usize> {
        if at == ROOT {
            return Some(ROOT);
        }
        let parent = map[other.nodes[at].parent];
        if parent == usize::MAX {
            return None;
        }
        let token = &other.nodes[at].token;
        if &**token == "*" {
            self.star(parent)
        } else {
            self.child(parent, token)
        }
    }

    /// Adds the counts of `other` (of documents that come after).
    pub fn merge(&mut self, other: &Tree) {
        let mut map = vec![usize::MAX; other.nodes.len()];
        for at in 0..other.nodes.len() {
            let Some(mine) = self.counterpart(at, other, &map) else {
                continue;
            };
            map[at] = mine;
            let theirs = &other.nodes[at];
            let node = &mut self.nodes[mine];
            for (slot, (count, example)) in node.types.iter_mut().zip(&theirs.types) {
                slot.0 += count;
                if slot.1.is_none() {
                    slot.1.clone_from(example);
                }
            }
            match (&mut node.values, &theirs.values) {
                (Some(values), Some(more)) => {
                    for (value, (count, example)) in more {
                        values
                            .entry(value.clone())
                            .and_modify(|v| v.0 += count)
                            .or_insert_with(|| (*count, example.clone()));
                    }
                    if values.len() > VALUE_LIMIT {
                        node.values = None;
                    }
                }
                (values, None) => *values = None,
                (None, Some(_)) => {}
            }
        }
    }

    /// The pattern of `node` (`/cards/*/rarity`).
    #[must_use]
    pub fn pattern(&self, mut node: usize) -> String {
        let mut tokens = Vec::new();
        while node != ROOT {
            tokens.push(&*self.nodes[node].token);
            node = self.nodes[node].parent;
        }
        tokens.reverse();
        crate::pointer::join("", &tokens)
    }

    /// Every node with its pattern, by pattern.
    fn by_pattern(&self) -> BTreeMap<String, usize> {
        (1..self.nodes.len())
            .filter(|&n| self.nodes[n].count() > 0)
            .map(|n| (self.pattern(n), n))
            .collect()
    }
}

/// The type of a set, at the root of a tree.
static SET: Type = Type::Model { model: set_model };

fn set_model() -> &'static ModelDef {
    cardkit::Kind::Set.model()
}

/// Whether `node` of `tree` is news of its own when its pattern is in one
/// build only: a member (not the items of a list), not inside another
/// member that is in that build only.
fn news(tree: &Tree, node: usize, other: &BTreeMap<String, usize>) -> bool {
    let node = &tree.nodes[node];
    &*node.token != "*" && (node.parent == ROOT || other.contains_key(&tree.pattern(node.parent)))
}

/// How the fields of `new` differ from those of `old`, by pattern.
#[must_use]
pub fn compare(old: &Tree, new: &Tree) -> Vec<DriftReport> {
    let (before, after) = (old.by_pattern(), new.by_pattern());
    let mut out = Vec::new();
    for (pattern, &n) in &after {
        let node = &new.nodes[n];
        let Some(&o) = before.get(pattern) else {
            if news(new, n, &before) {
                out.push(DriftReport {
                    pattern: pattern.clone(),
                    kind: DriftKind::NewField,
                    count: node.count(),
                    example: first_example(node),
                    old_types: Vec::new(),
                    new_types: types(node),
                    values: Vec::new(),
                });
            }
            continue;
        };
        let was = &old.nodes[o];
        let (old_types, new_types) = (types(was), types(node));
        let gained: Vec<JsonType> = JsonType::ALL
            .into_iter()
            .filter(|&t| node.types[t as usize].0 > 0 && was.types[t as usize].0 == 0)
            .filter(|&t| t != JsonType::Null)
            .collect();
        if let Some(&first) = gained.first() {
            out.push(DriftReport {
                pattern: pattern.clone(),
                kind: DriftKind::TypeChanged,
                count: gained.iter().map(|&t| node.types[t as usize].0).sum(),
                example: node.types[first as usize].1.clone().unwrap_or_default(),
                old_types,
                new_types,
                values: Vec::new(),
            });
        }
        if let (Some(values), Some(known)) = (&node.values, &was.values) {
            let fresh: Vec<(&str, u64, &str)> = values
                .iter()
                .filter(|(value, _)| !known.contains_key(*value))
                .map(|(value, (count, example))| (&**value, *count, example.as_str()))
                .collect();
            if let Some(&(_, _, example)) = fresh.first() {
                out.push(DriftReport {
                    pattern: pattern.clone(),
                    kind: DriftKind::NewValues,
                    count: fresh.iter().map(|f| f.1).sum(),
                    example: example.to_owned(),
                    old_types: Vec::new(),
                    new_types: Vec::new(),
                    values: fresh.iter().map(|f| (f.0.to_owned(), f.1)).collect(),
                });
            }
        }
    }
    for (pattern, &o) in &before {
        if after.contains_key(pattern) {
            continue;
        }
        let node = &old.nodes[o];
        if news(old, o, &after) {
            out.push(DriftReport {
                pattern: pattern.clone(),
                kind: DriftKind::VanishedField,
                count: node.count(),
                example: first_example(node),
                old_types: types(node),
                new_types: Vec::new(),
                values: Vec::new(),
            });
        }
    }
    out.sort_by(|a, b| (a.kind, &a.pattern).cmp(&(b.kind, &b.pattern)));
    out
}

fn types(node: &Node) -> Vec<String> {
    JsonType::ALL
        .into_iter()
        .filter(|&t| node.types[t as usize].0 > 0)
        .map(|t| t.as_str().to_owned())
        .collect()
}

fn first_example(node: &Node) -> String {
    node.types
        .iter()
        .find_map(|(_, e)| e.clone())
        .unwrap_or_default()
}
