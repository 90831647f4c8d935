//! Notices read, validated and resolved into a plan: what each catalog id
//! becomes.
//!
//! Notices are ordered by `created_at` (undated ones first), then by their
//! order in the input. A `merge` moves an id to another; chains are followed
//! to their end (A → B then B → C: A becomes C), and a chain that ends in a
//! `delete` deletes. An id that notices give two different outcomes (merged
//! into two ids, or merged and deleted) is an error that names both
//! notices, and so is a cycle (A → B, B → A), named by its notices. The same
//! notice given twice is one notice.

use std::collections::HashMap;
use std::io::{BufRead, Read};

use cardkit::model::Migration;
use cardkit::schema::Names;
use cardkit::validate::{Found, Validated, Validator};
use cardkit::Kind;
use cardkit::Options;

use crate::Error;

/// One Migration notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// How reports name it: its `id`, or its place (`file /data/3`).
    pub label: String,
    /// Where it is: its file and line (`notices.jsonl:3`) or pointer
    /// (`page.json /data/3`); `""` for a notice made in code.
    pub place: String,
    /// Its `created_at`.
    pub created_at: Option<String>,
    /// The catalog id it is about (lower case).
    pub old: String,
    /// For a merge, the id it becomes (lower case); `None` for a delete.
    pub new: Option<String>,
}

impl Notice {
    /// A notice: a merge of `old` into `new`, or a delete of `old`.
    #[must_use]
    pub fn new(old: &str, new: Option<&str>, created_at: Option<&str>) -> Notice {
        Notice {
            label: format!("{} {old}", if new.is_some() { "merge" } else { "delete" }),
            place: String::new(),
            created_at: created_at.map(str::to_owned),
            old: old.to_ascii_lowercase(),
            new: new.map(str::to_ascii_lowercase),
        }
    }

    fn outcome_text(&self) -> String {
        match &self.new {
            Some(new) => format!("merged into {new}"),
            None => "deleted".to_owned(),
        }
    }
}

/// What a catalog id becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It becomes `to`.
    Merged {
        /// The id at the end of the chain.
        to: String,
        /// The notices followed, in order (their labels).
        notices: Vec<String>,
    },
    /// It is deleted.
    Deleted {
        /// The notices followed, the delete last.
        notices: Vec<String>,
    },
}

impl Outcome {
    /// The notices followed, joined (`a > b`).
    #[must_use]
    pub fn notices(&self) -> String {
        match self {
            Outcome::Merged { notices, .. } | Outcome::Deleted { notices } => notices.join(" > "),
        }
    }
}

/// Every notice resolved: what each id they name becomes.
///
/// Each id a notice names is one node: the notice about it, the node of
/// the id it merges into (when a notice names that one too), and the end
/// of its chain, resolved once for the whole chain (so a chain of n merges
/// costs n steps and n nodes, not n² outcomes). The notices a reference
/// followed are read along the chain when they are asked for.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    nodes: Vec<Node>,
    by_id: HashMap<String, usize>,
    /// Notices read (duplicates included).
    pub notices: usize,
}

#[derive(Debug, Clone)]
struct Node {
    label: String,
    /// The id it is about.
    old: String,
    /// The id it merges into; `None` for a delete.
    new: Option<String>,
    /// The node of `new`, when a notice names it.
    next: Option<usize>,
    /// The last node of the chain.
    last: usize,
    /// How many notices the chain from here follows.
    len: usize,
}

/// What a reference becomes, without the notices listed: the id at the
/// end of its chain (`None` when it is deleted), and how many notices
/// were followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved<'a> {
    /// The id at the end of the chain; `None` when the chain deletes.
    pub to: Option<&'a str>,
    node: usize,
    /// The number of notices followed.
    pub followed: usize,
}

/// How many notices a report line names at most: the first and last ones
/// of a longer chain, and how many between.
const NAMED: usize = 8;

impl Plan {
    /// Orders and resolves `notices`.
    ///
    /// # Errors
    /// Two notices disagree about an id, or merges go round in a cycle: a
    /// message naming the notices.
    pub fn new(mut notices: Vec<Notice>) -> Result<Plan, Error> {
        let count = notices.len();
        // A stable sort: undated first, then by date, then input order.
        notices.sort_by(|a, b| a.created_at.cmp(&b.created_at));
        let mut by_id: HashMap<String, usize> = HashMap::with_capacity(count);
        let mut firsts: Vec<Notice> = Vec::with_capacity(count);
        for notice in notices {
            if let Some(&earlier) = by_id.get(notice.old.as_str()) {
                let earlier: &Notice = &firsts[earlier];
                if earlier.new != notice.new {
                    return Err(Error::new(format!(
                        "notices disagree about {}: {} says {}, {} says {}",
                        notice.old,
                        earlier.label,
                        earlier.outcome_text(),
                        notice.label,
                        notice.outcome_text()
                    )));
                }
                continue;
            }
            by_id.insert(notice.old.clone(), firsts.len());
            firsts.push(notice);
        }
        let mut nodes: Vec<Node> = firsts
            .into_iter()
            .map(|n| Node {
                label: n.label,
                old: n.old,
                new: n.new,
                next: None,
                last: usize::MAX,
                len: 0,
            })
            .collect();
        for node in &mut nodes {
            node.next = node.new.as_deref().and_then(|n| by_id.get(n).copied());
        }
        // Each chain is walked once: from a node not yet resolved to one
        // that is (or to its end), then resolved back along the path.
        const OPEN: usize = usize::MAX;
        const ON_PATH: usize = usize::MAX - 1;
        let mut path: Vec<usize> = Vec::new();
        for start in 0..nodes.len() {
            if nodes[start].last != OPEN {
                continue;
            }
            path.clear();
            let mut at = start;
            let (mut last, mut len) = loop {
                match nodes[at].last {
                    ON_PATH => {
                        let from = path.iter().position(|&p| p == at).unwrap_or_default();
                        let names: Vec<&str> = path[from..]
                            .iter()
                            .map(|&p| nodes[p].label.as_str())
                            .collect();
                        return Err(Error::new(format!(
                            "merges go round in a cycle through {}: {}",
                            nodes[at].old,
                            names.join(" > ")
                        )));
                    }
                    OPEN => {}
                    last => break (last, nodes[at].len),
                }
                nodes[at].last = ON_PATH;
                path.push(at);
                match nodes[at].next {
                    Some(next) => at = next,
                    None => break (at, 0),
                }
            };
            for &p in path.iter().rev() {
                len += 1;
                if nodes[p].next.is_none() {
                    last = p;
                }
                nodes[p].last = last;
                nodes[p].len = len;
            }
        }
        Ok(Plan {
            nodes,
            by_id,
            notices: count,
        })
    }

    /// What `id` becomes, if a notice names it (any case): the end of its
    /// chain.
    #[must_use]
    pub fn resolve(&self, id: &str) -> Option<Resolved<'_>> {
        let node = if id.bytes().any(|b| b.is_ascii_uppercase()) {
            *self.by_id.get(&id.to_ascii_lowercase())?
        } else {
            *self.by_id.get(id)?
        };
        let start = &self.nodes[node];
        Some(Resolved {
            to: self.nodes[start.last].new.as_deref(),
            node,
            followed: start.len,
        })
    }

    /// The notices `resolved` followed, joined (`a > b`); a chain of more
    /// than a few names its first and last notices and counts the others
    /// (`a > b > c > d > … 9995 more … > z`).
    #[must_use]
    pub fn notices_text(&self, resolved: &Resolved<'_>) -> String {
        let labels = self.labels(resolved.node);
        if resolved.followed <= NAMED {
            return labels.collect::<Vec<_>>().join(" > ");
        }
        // The first ones, how many between, and the last one (the end of
        // the chain is known: a line costs the same for any length).
        let half = NAMED / 2;
        let mut text = labels.take(half).collect::<Vec<_>>().join(" > ");
        let last = &self.nodes[self.nodes[resolved.node].last].label;
        let more = resolved.followed - half - 1;
        text.push_str(&format!(" > … {more} more … > {last}"));
        text
    }

    fn labels(&self, node: usize) -> impl Iterator<Item = &str> {
        std::iter::successors(Some(node), |&n| self.nodes[n].next)
            .map(|n| self.nodes[n].label.as_str())
    }

    /// What `id` becomes, if a notice names it (any case), with every
    /// notice followed.
    #[must_use]
    pub fn outcome(&self, id: &str) -> Option<Outcome> {
        let resolved = self.resolve(id)?;
        let notices = self.labels(resolved.node).map(str::to_owned).collect();
        Some(match resolved.to {
            Some(to) => Outcome::Merged {
                to: to.to_owned(),
                notices,
            },
            None => Outcome::Deleted { notices },
        })
    }

    /// How many ids the notices name.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no notice names an id.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// Reads the Migration notices of `reader` (named `path`; any container
/// `validate` reads), validated as migrations.
///
/// # Errors
/// The input cannot be read, a notice is invalid, or says something that
/// cannot be applied (a merge without a new id, a delete with one, another
/// strategy): a message naming the notice.
pub fn read_notices(
    path: &str,
    reader: impl Read,
    json_lines: bool,
    jobs: usize,
    names: Names,
) -> Result<Vec<Notice>, Error> {
    // A file of no notices (empty, or white space) is no notices.
    let mut reader = std::io::BufReader::new(reader);
    loop {
        let head = reader
            .fill_buf()
            .map_err(|e| Error::new(format!("{path}: cannot be read: {e}")))?;
        if head.is_empty() {
            return Ok(Vec::new());
        }
        let blank = head.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if blank < head.len() {
            break;
        }
        reader.consume(blank);
    }
    let options = Options {
        kind: Some(Kind::Migration),
        json_lines,
        names,
        ..Options::default()
    };
    let mut notices = Vec::new();
    let mut failure = None;
    // Read through the library's model, so that the notice's members are
    // the spec's and not names restated here.
    let extract = |found: Found<'_>| {
        names
            .read::<Migration>(found.bytes)
            .map_err(|e| e.to_string())
    };
    let validator = Validator::new(options).jobs(jobs);
    let read = validator.extracting(extract).reader(reader, |item| {
        let Validated::Document(report, value) = item else {
            return;
        };
        if failure.is_some() {
            return;
        }
        let place = report.place(path);
        if !report.is_valid() {
            failure = Some(format!(
                "{place}: not a valid Migration notice: {}",
                crate::read::invalid(&report)
            ));
            return;
        }
        match value.map(|read| read.map(|migration| notice(&migration, &place))) {
            Some(Ok(Ok(notice))) => notices.push(notice),
            Some(Ok(Err(why))) => failure = Some(why),
            Some(Err(why)) => failure = Some(format!("{place}: the notice cannot be read: {why}")),
            None => failure = Some(format!("{place}: the notice cannot be read")),
        }
    });
    read.map_err(|e| Error::new(format!("{path}: cannot be read: {e}")))?;
    match failure {
        Some(why) => Err(Error::new(why)),
        None => Ok(notices),
    }
}

/// The notice a valid Migration document says, if it can be applied.
fn notice(migration: &Migration, place: &str) -> Result<Notice, String> {
    let label = migration
        .id
        .map_or_else(|| place.to_owned(), |id| id.to_string());
    let new = migration.new_catalog_a_id;
    match (migration.migration_strategy.as_str(), new) {
        ("merge", Some(_)) | ("delete", None) => {}
        ("merge", None) => {
            let model = <Migration as cardkit::schema::Model>::model();
            let member = crate::fields::by_rust_name(model, "new_catalog_a_id")
                .map_or("its new id", |field| field.name);
            return Err(format!(
                "{place}: notice {label} is a merge without {member}"
            ));
        }
        ("delete", Some(new)) => {
            return Err(format!(
                "{place}: notice {label} is a delete that names a new id ({new})"
            ))
        }
        (other, _) => {
            return Err(format!(
                "{place}: notice {label} has migration_strategy {other:?}; merge and delete can be applied"
            ))
        }
    }
    // A uuid is written in lower case, as plans compare ids.
    Ok(Notice {
        label,
        place: place.to_owned(),
        created_at: migration.created_at.map(|date| date.to_string()),
        old: migration.old_catalog_a_id.to_string(),
        new: new.map(|id| id.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(old: &str, new: Option<&str>, date: Option<&str>) -> Notice {
        let mut notice = Notice::new(old, new, date);
        notice.label = format!("{old}{}", new.map_or(String::new(), |n| format!(">{n}")));
        notice
    }

    #[test]
    fn chains_cycles_and_conflicts() {
        let plan = Plan::new(vec![n("a", Some("b"), None), n("b", Some("c"), None)]).unwrap();
        assert_eq!(
            plan.outcome("A"),
            Some(Outcome::Merged {
                to: "c".into(),
                notices: vec!["a>b".into(), "b>c".into()]
            })
        );
        let plan = Plan::new(vec![n("a", Some("b"), None), n("b", None, None)]).unwrap();
        assert!(matches!(plan.outcome("a"), Some(Outcome::Deleted { .. })));
        let cycle = Plan::new(vec![n("a", Some("b"), None), n("b", Some("a"), None)]);
        assert!(cycle.unwrap_err().0.contains("cycle"));
        let conflict = Plan::new(vec![n("a", Some("b"), None), n("a", Some("c"), None)]);
        assert!(conflict
            .unwrap_err()
            .0
            .contains("a>b says merged into b, a>c says merged into c"));
        // The same notice twice is one.
        assert!(Plan::new(vec![n("a", Some("b"), None), n("a", Some("b"), None)]).is_ok());
    }
}
