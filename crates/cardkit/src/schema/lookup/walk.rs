//! Following a pointer through the field tables, one reference token at a
//! time, every way of reading it at once.

use crate::model::Kind;
use crate::schema::fields::{escape_token, Branch, Choice, Member, Place, Run};
use crate::schema::words::{nearest_name, type_words};
use crate::table::{ModelDef, Names, Type, MAX_DEPTH};

/// What is at a spot of the document.
#[derive(Clone, Copy)]
enum Value {
    /// An object of a model; the tag member of the union it is a branch of.
    Model(&'static ModelDef, Option<&'static str>),
    /// A value of a type.
    Type(&'static Type),
    /// A union's tag value: a string.
    Tag,
}

/// The member a spot is in, and whether it is an item of the member's list.
#[derive(Clone, Copy)]
struct Found {
    model: &'static str,
    member: Member,
    item: Option<&'static Type>,
}

/// One way to read the pointer so far. Its pattern and its branches are
/// nodes of the [`Walk`]'s trees, so that a step costs the same at any depth.
#[derive(Clone, Copy)]
pub(super) struct Spot {
    value: Value,
    /// The member so far (`None` at the root).
    found: Option<Found>,
    /// The last branch taken, if any (an index of `Walk::taken`).
    branches: Option<usize>,
    /// The pattern so far (an index of `Walk::paths`).
    path: usize,
}

/// A pattern: its parent's, then one more reference token.
struct Segment {
    parent: usize,
    /// `/name` (escaped) or `/*`; empty at the root.
    text: String,
    /// The length of the whole pattern.
    len: usize,
}

/// A branch taken: its parent's branches, then one more.
struct Taken {
    parent: Option<usize>,
    /// The pattern of the value whose branch is chosen.
    at: usize,
    choice: Choice,
}

/// The ways of reading one pointer, as trees that share their prefixes.
pub(super) struct Walk {
    paths: Vec<Segment>,
    taken: Vec<Taken>,
}

/// The root pattern, the empty one.
const ROOT: usize = 0;

impl Walk {
    pub(super) fn new() -> Self {
        Walk {
            paths: vec![Segment {
                parent: ROOT,
                text: String::new(),
                len: 0,
            }],
            taken: Vec::new(),
        }
    }

    /// Follows `tokens` from the root of `kind`: the spots they lead to, or
    /// the spots where token `i` leads nowhere.
    pub(super) fn follow(
        &mut self,
        kind: Kind,
        tokens: &[String],
    ) -> Result<Vec<Spot>, (Vec<Spot>, usize)> {
        let mut here = vec![Spot {
            value: Value::Model(kind.model(), None),
            found: None,
            branches: None,
            path: ROOT,
        }];
        for (i, token) in tokens.iter().enumerate() {
            let spots = self.expand(&here);
            let next: Vec<Spot> = spots
                .iter()
                .filter_map(|spot| self.step(spot, token))
                .collect();
            if next.is_empty() {
                return Err((spots, i));
            }
            here = next;
        }
        Ok(here)
    }

    /// Whether `tokens` name something.
    fn resolves(kind: Kind, tokens: &[String]) -> bool {
        tokens.len() <= MAX_DEPTH && Walk::new().follow(kind, tokens).is_ok()
    }

    fn push_path(&mut self, parent: usize, text: String) -> usize {
        count_work(1);
        let len = self.paths[parent].len + text.len();
        self.paths.push(Segment { parent, text, len });
        self.paths.len() - 1
    }

    fn take(&mut self, spot: &Spot, choice: Choice) -> Option<usize> {
        count_work(1);
        self.taken.push(Taken {
            parent: spot.branches,
            at: spot.path,
            choice,
        });
        Some(self.taken.len() - 1)
    }

    /// The pattern of a path, written out.
    fn pattern(&self, path: usize) -> String {
        let mut texts = Vec::new();
        let mut at = path;
        while at != ROOT {
            texts.push(self.paths[at].text.as_str());
            at = self.paths[at].parent;
        }
        let mut out = String::with_capacity(self.paths[path].len);
        for text in texts.iter().rev() {
            out.push_str(text);
        }
        count_work(out.len());
        out
    }

    /// The branches of a spot, outermost first, runs of the same choice
    /// said once.
    fn branches(&self, head: Option<usize>) -> Vec<Branch> {
        let mut chain: Vec<&Taken> = Vec::new();
        let mut at = head;
        while let Some(index) = at {
            chain.push(&self.taken[index]);
            at = self.taken[index].parent;
        }
        chain.reverse();
        count_work(chain.len());
        let mut out = Vec::new();
        let mut start = 0;
        while start < chain.len() {
            let first = chain[start];
            let end = start
                + chain[start..]
                    .iter()
                    .take_while(|taken| same_choice(taken.choice, first.choice))
                    .count();
            let count = end - start;
            if count >= 3 {
                out.push(Branch {
                    at: self.pattern(first.at),
                    choice: first.choice,
                    run: Some(Run {
                        count,
                        last: self.pattern(chain[end - 1].at),
                    }),
                });
            } else {
                out.extend(chain[start..end].iter().map(|taken| Branch {
                    at: self.pattern(taken.at),
                    choice: taken.choice,
                    run: None,
                }));
            }
            start = end;
        }
        out
    }

    /// The place a spot found.
    pub(super) fn place(&self, spot: &Spot) -> Option<Place> {
        let found = spot.found?;
        Some(Place {
            pointer: self.pattern(spot.path),
            model: found.model,
            member: found.member,
            name: found.member.name(),
            item: found.item,
            branches: self.branches(spot.branches),
            repeats: None,
        })
    }

    /// Replaces unions by their branches, and models by their objects.
    fn expand(&mut self, spots: &[Spot]) -> Vec<Spot> {
        let mut out = Vec::new();
        for spot in spots {
            self.expand_one(*spot, &mut out);
        }
        out
    }

    fn expand_one(&mut self, spot: Spot, out: &mut Vec<Spot>) {
        count_work(1);
        match spot.value {
            Value::Type(Type::Model { model }) => out.push(Spot {
                value: Value::Model(model(), None),
                ..spot
            }),
            Value::Type(Type::Tagged(union)) => {
                // The tag member itself, then each branch.
                out.push(spot);
                for &(value, model) in union.variants {
                    let branches = if union.variants.len() > 1 {
                        self.take(&spot, Choice::Tag { union, value })
                    } else {
                        spot.branches
                    };
                    out.push(Spot {
                        value: Value::Model(model(), Some(union.tag)),
                        branches,
                        ..spot
                    });
                }
            }
            Value::Type(Type::AnyOf { name, types }) => {
                for &ty in *types {
                    let branches = self.take(&spot, Choice::Shape { union: name, ty });
                    self.expand_one(
                        Spot {
                            value: Value::Type(ty),
                            branches,
                            ..spot
                        },
                        out,
                    );
                }
            }
            _ => out.push(spot),
        }
    }

    /// The spot that `token` leads to from `spot`, if any.
    fn step(&mut self, spot: &Spot, token: &str) -> Option<Spot> {
        count_work(1);
        let (value, found, text) = match spot.value {
            Value::Model(model, tag) => {
                let (_, field) = model.field(token).filter(|_| tag != Some(token))?;
                let found = Found {
                    model: model.name,
                    member: Member::Field(field),
                    item: None,
                };
                (
                    Value::Type(field.ty),
                    Some(found),
                    escape_token(token).into_owned(),
                )
            }
            Value::Type(Type::Tagged(union)) if token == union.tag => {
                let found = Found {
                    model: union.name,
                    member: Member::Tag(union),
                    item: None,
                };
                (Value::Tag, Some(found), escape_token(token).into_owned())
            }
            Value::Type(Type::List { item }) if is_index(token) => {
                let found = spot.found.map(|found| Found {
                    item: Some(item),
                    ..found
                });
                (Value::Type(item), found, "*".to_owned())
            }
            _ => return None,
        };
        let path = self.push_path(spot.path, format!("/{text}"));
        Some(Spot {
            value,
            found,
            branches: spot.branches,
            path,
        })
    }

    /// Why token `i` leads nowhere from `spots`, and the nearest pointer
    /// that names something.
    pub(super) fn why_not(
        &self,
        kind: Kind,
        spots: &[Spot],
        tokens: &[String],
        i: usize,
    ) -> (String, Option<String>) {
        let token = &tokens[i];
        let pattern = spots
            .first()
            .map_or_else(String::new, |s| self.pattern(s.path));
        let at = if pattern.is_empty() {
            "the document".to_owned()
        } else {
            format!("`{pattern}`")
        };
        let with = |replacement: &str| {
            let mut tokens = tokens.to_vec();
            tokens[i] = replacement.to_owned();
            tokens
        };

        let lists = spots
            .iter()
            .any(|s| matches!(s.value, Value::Type(Type::List { .. })));
        if lists {
            // `/cards/uuid`: the item index is missing.
            let mut inserted = tokens.to_vec();
            inserted.insert(i, "*".to_owned());
            let nearest = Walk::resolves(kind, &inserted).then(|| names(&inserted));
            return (
                format!("{at} is a list: its items are named by index or `*`, not `{token}`"),
                nearest,
            );
        }
        let mut known: Vec<&'static str> = Vec::new();
        for spot in spots {
            match spot.value {
                Value::Model(model, tag) => known.extend(
                    model
                        .fields
                        .iter()
                        .map(|f| f.name)
                        .filter(|name| Some(*name) != tag),
                ),
                Value::Type(Type::Tagged(union)) => known.push(union.tag),
                _ => {}
            }
        }
        if known.is_empty() {
            let what = match spots.first().map(|s| s.value) {
                Some(Value::Type(Type::FreeObject)) => {
                    "a free-form object: the spec does not show its members".to_owned()
                }
                Some(Value::Type(ty)) => format!("{}: it has no members", type_words(ty)),
                _ => "a string: it has no members".to_owned(),
            };
            return (format!("{at} is {what}"), None);
        }
        known.sort_unstable();
        known.dedup();
        // A publishers' name (`scryfallId`) leads to the spec's name of its
        // field (`catalogAId`) before any name that is merely near.
        let renamed = spots.iter().find_map(|spot| match spot.value {
            Value::Model(model, _) => Names::Upstream.field(model, token).map(|(_, f)| f.name),
            Value::Type(_) | Value::Tag => None,
        });
        let nearest = renamed
            .or_else(|| nearest_name(known.iter().copied(), token))
            .map(|name| {
                let full = with(name);
                if Walk::resolves(kind, &full) {
                    names(&full)
                } else {
                    names(&full[..=i])
                }
            });
        let owner = match spots {
            [Spot {
                value: Value::Model(model, _),
                ..
            }] => model.name.to_owned(),
            _ => "its shapes".to_owned(),
        };
        let publishers = renamed
            .map(|spec| {
                format!("; `{token}` is the publishers' name of `{spec}`, read as it under --names auto (the default) or upstream")
            })
            .unwrap_or_default();
        (
            format!(
                "{at} has no member `{token}` ({owner} has {}){publishers}",
                list(&known)
            ),
            nearest,
        )
    }
}

/// Whether two branches choose the same way.
fn same_choice(a: Choice, b: Choice) -> bool {
    match (a, b) {
        (Choice::Tag { union, value }, Choice::Tag { union: u, value: v }) => {
            std::ptr::eq(union, u) && value == v
        }
        (Choice::Shape { union, ty }, Choice::Shape { union: u, ty: t }) => {
            union == u && std::ptr::eq(ty, t)
        }
        _ => false,
    }
}

/// A pointer of reference tokens.
fn names(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|t| format!("/{}", escape_token(t)))
        .collect()
}

/// `*` or an array index as RFC 6901 writes it (no leading zeros).
pub(crate) fn is_index(token: &str) -> bool {
    token == "*"
        || token == "0"
        || (!token.is_empty()
            && !token.starts_with('0')
            && token.bytes().all(|b| b.is_ascii_digit()))
}

fn list(names: &[&str]) -> String {
    const SHOWN: usize = 12;
    let mut quoted: Vec<String> = names.iter().take(SHOWN).map(|n| format!("`{n}`")).collect();
    if names.len() > SHOWN {
        quoted.push(format!("and {} more", names.len() - SHOWN));
    }
    quoted.join(", ")
}

#[cfg(test)]
thread_local! {
    /// Steps taken and bytes written out by the lookups of this thread, for
    /// the tests that check that the work grows with the pointer's length.
    pub(super) static WORK: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[inline]
pub(super) fn count_work(_units: usize) {
    #[cfg(test)]
    WORK.with(|work| work.set(work.get() + _units));
}
