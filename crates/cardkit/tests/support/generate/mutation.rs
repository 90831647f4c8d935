//! Mutations: one defect each, with the diagnostic it must give. Every
//! single-defect mutation of a generated document, applying one, and
//! choosing several whose scopes do not overlap.

use std::collections::BTreeMap;

use cardkit::schema::{Format, Type};
use cardkit::Code;
use proptest::sample::Index;

use super::writer::escape_token;
use super::{free, member, Drop, Label, Node, Role, Slot, J};

#[derive(Clone, Debug)]
pub enum Op {
    Remove,
    Replace(J),
}

#[derive(Clone, Debug)]
pub struct Mutation {
    /// Indexes into arrays and objects from the document's root.
    pub path: Vec<usize>,
    pub op: Op,
    pub code: Code,
    /// Where the diagnostic points, relative to the document.
    pub pointer: String,
    /// The place whose offset the diagnostic has (the value, or the
    /// enclosing object for a missing member).
    pub at: String,
    pub field: Option<String>,
    /// What the mutation may affect: no other mutation goes inside it.
    pub scope: Vec<usize>,
}

/// A value of each JSON type, to put where another type belongs.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Kindish {
    Str,
    Int,
    Frac,
    Bool,
    Arr,
    Obj,
}

pub fn accepts(ty: &Type, k: Kindish) -> bool {
    match ty {
        Type::String { .. } | Type::Const { .. } | Type::Enum { .. } => k == Kindish::Str,
        Type::Integer => k == Kindish::Int,
        Type::Number => matches!(k, Kindish::Int | Kindish::Frac),
        Type::Boolean => k == Kindish::Bool,
        Type::List { .. } => k == Kindish::Arr,
        Type::FreeObject | Type::Model { .. } | Type::Tagged(_) => k == Kindish::Obj,
        // A fraction where a union has an integer branch is still refused, but
        // as that branch's problem: keep unions to whole JSON types.
        Type::AnyOf { types, .. } => types.iter().any(|t| {
            accepts(t, k) || (k == Kindish::Frac && matches!(t, Type::Integer | Type::Number))
        }),
    }
}

pub fn sample(k: Kindish, pick: usize) -> J {
    let obj = || {
        J::Obj(vec![member(
            "type",
            free(J::Str(["group", "shadow", "a"][pick % 3].to_owned())),
        )])
    };
    match k {
        Kindish::Str => J::Str(["5", "", "true", "null", "{}"][pick % 5].to_owned()),
        Kindish::Int => J::Num(["5", "-1", "0", "1e2"][pick % 4].to_owned()),
        Kindish::Frac => J::Num(["5.5", "-0.25", "1e-1"][pick % 3].to_owned()),
        Kindish::Bool => J::Bool(pick & 1 == 0),
        Kindish::Arr => J::Arr(if pick & 1 == 0 {
            Vec::new()
        } else {
            vec![free(J::Num("1".to_owned()))]
        }),
        Kindish::Obj => {
            if pick & 1 == 0 {
                J::Obj(Vec::new())
            } else {
                obj()
            }
        }
    }
}

pub fn bad_format(format: Format) -> &'static [&'static str] {
    match format {
        Format::Uuid => &[
            "123",
            "00000000000000000000000000000000",
            "{00000000-0000-0000-0000-000000000000}",
            "urn:uuid:00000000-0000-0000-0000-000000000000",
            "0000000g-0000-0000-0000-000000000000",
            "00000000-0000-0000-0000-0000000000000",
            " 00000000-0000-0000-0000-000000000000",
            "",
        ],
        Format::Date => &[
            "2023-02-29",
            "2024-02-30",
            "2023-13-01",
            "0000-01-01",
            "2023-1-01",
            "2023-01-01T00:00:00Z",
            "20230101",
            "",
            "2023-04-31",
            "\u{ff11}999-01-01",
            "+2023-01-01",
        ],
        Format::Uri => &[
            "",
            "/x",
            "//host/x",
            "x/y",
            "https://x.example/\u{e4}",
            "http://exa mple.example/",
            "https://x.example/%zz",
            ":no-scheme",
        ],
        Format::Color => &[
            "rebeccapurple",
            "currentColor",
            "#12",
            "#12345",
            "notacolor",
            "white ",
            " Lime ",
            "rgb(256,0,0)",
            "rgba(0,0,0,1.5)",
            "hwb(0 0 0)",
            "#c74254g",
            "",
        ],
    }
}

pub fn label_of(label: Label) -> Option<String> {
    label.map(|(model, field)| format!("{model}.{field}"))
}

/// Every single mutation of `node` and what the validator must say about it.
pub fn mutations(
    node: &Node,
    path: &mut Vec<usize>,
    pointer: &str,
    parent: Option<&Node>,
    out: &mut Vec<Mutation>,
) {
    let Slot::Typed {
        ty,
        nullable,
        role,
        label,
    } = node.slot
    else {
        return;
    };
    let replace = |out: &mut Vec<Mutation>,
                   json: J,
                   code: Code,
                   pointer: &str,
                   field: Option<String>,
                   scope: &[usize]| {
        out.push(Mutation {
            path: path.clone(),
            op: Op::Replace(json),
            code,
            pointer: pointer.to_owned(),
            at: pointer.to_owned(),
            field,
            scope: scope.to_vec(),
        });
    };
    let parent_path = &path[..path.len().saturating_sub(1)];
    let parent_pointer = pointer.rsplit_once('/').map_or("", |(p, _)| p);
    if !path.is_empty() {
        match role {
            Role::Tag(union) => {
                let field = Some(format!("{}.{}", union.name, union.tag));
                // The tag of a one-shape union (the card's top group) is a
                // constant.
                let code = if union.variants.len() == 1 {
                    Code::ConstMismatch
                } else {
                    Code::UnknownDiscriminator
                };
                for json in [
                    J::Str(format!("{}x", union.variants[0].0)),
                    J::Str(union.variants[0].0.to_uppercase()),
                    J::Str(String::new()),
                    J::Null,
                    J::Num("1".to_owned()),
                ] {
                    replace(out, json, code, pointer, field.clone(), parent_path);
                }
            }
            Role::ShapeConst => {
                let Type::Const { value } = ty else {
                    unreachable!("a shape constant is a constant")
                };
                let field = parent.and_then(|p| match p.slot {
                    Slot::Typed { label, .. } => label_of(label),
                    Slot::Free => None,
                });
                for json in [J::Str(format!("{value}x")), J::Null, J::Bool(true)] {
                    out.push(Mutation {
                        path: path.clone(),
                        op: Op::Replace(json),
                        code: Code::NoMatchingShape,
                        pointer: parent_pointer.to_owned(),
                        at: parent_pointer.to_owned(),
                        field: field.clone(),
                        scope: parent_path.to_vec(),
                    });
                }
            }
            Role::Plain => {
                let field = label_of(label);
                let scope = path.clone();
                if !nullable {
                    replace(
                        out,
                        J::Null,
                        Code::NullNotAllowed,
                        pointer,
                        field.clone(),
                        &scope,
                    );
                }
                // A root member `data` holding an array makes the document a
                // list container: not a wrong type.
                let root_data = pointer == "/data";
                for (i, k) in [
                    Kindish::Str,
                    Kindish::Int,
                    Kindish::Frac,
                    Kindish::Bool,
                    Kindish::Arr,
                    Kindish::Obj,
                ]
                .into_iter()
                .enumerate()
                {
                    if accepts(ty, k) || (root_data && k == Kindish::Arr) {
                        continue;
                    }
                    for pick in 0..2 {
                        replace(
                            out,
                            sample(k, i + pick),
                            Code::WrongType,
                            pointer,
                            field.clone(),
                            &scope,
                        );
                    }
                }
                match ty {
                    Type::Integer => {
                        for n in [
                            "18446744073709551616",
                            "-9223372036854775809",
                            "1e20",
                            "1.8446744073709551616e19",
                        ] {
                            replace(
                                out,
                                J::Num(n.to_owned()),
                                Code::OutOfRange,
                                pointer,
                                field.clone(),
                                &scope,
                            );
                        }
                    }
                    Type::String {
                        format: Some(format),
                    } => {
                        for bad in bad_format(*format) {
                            replace(
                                out,
                                J::Str((*bad).to_owned()),
                                Code::InvalidFormat,
                                pointer,
                                field.clone(),
                                &scope,
                            );
                        }
                    }
                    Type::Enum { values, .. } => {
                        let candidates = [
                            values[0].to_uppercase(),
                            format!("{} ", values[0]),
                            String::new(),
                            "unknown".to_owned(),
                        ];
                        for bad in candidates
                            .into_iter()
                            .filter(|c| !values.contains(&c.as_str()))
                        {
                            replace(
                                out,
                                J::Str(bad),
                                Code::EnumMismatch,
                                pointer,
                                field.clone(),
                                &scope,
                            );
                        }
                    }
                    Type::Const { value } => {
                        for bad in [value.to_uppercase(), format!("{value}x"), String::new()] {
                            if bad != *value {
                                replace(
                                    out,
                                    J::Str(bad),
                                    Code::ConstMismatch,
                                    pointer,
                                    field.clone(),
                                    &scope,
                                );
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    match &node.json {
        J::Arr(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i);
                mutations(item, path, &format!("{pointer}/{i}"), Some(node), out);
                path.pop();
            }
        }
        J::Obj(members) => {
            for (i, m) in members.iter().enumerate() {
                path.push(i);
                let member_pointer = format!("{pointer}/{}", escape_token(&m.key));
                let removal = match m.drop {
                    Drop::Allowed => None,
                    Drop::Missing(model) => Some((
                        Code::MissingField,
                        member_pointer.clone(),
                        Some(format!("{model}.{}", m.key)),
                        path.clone(),
                    )),
                    Drop::MissingTag(union) => Some((
                        Code::MissingDiscriminator,
                        member_pointer.clone(),
                        Some(format!("{}.{}", union.name, union.tag)),
                        path[..path.len() - 1].to_vec(),
                    )),
                    Drop::NoShape => Some((
                        Code::NoMatchingShape,
                        pointer.to_owned(),
                        label_of(label),
                        path[..path.len() - 1].to_vec(),
                    )),
                };
                if let Some((code, at_pointer, field, scope)) = removal {
                    out.push(Mutation {
                        path: path.clone(),
                        op: Op::Remove,
                        code,
                        pointer: at_pointer,
                        at: pointer.to_owned(),
                        field,
                        scope,
                    });
                }
                mutations(&m.node, path, &member_pointer, Some(node), out);
                path.pop();
            }
        }
        _ => {}
    }
}

pub fn apply(node: &mut Node, path: &[usize], op: &Op) {
    let (&last, init) = path.split_last().expect("never the root");
    let mut here = node;
    for &i in init {
        here = match &mut here.json {
            J::Arr(items) => &mut items[i],
            J::Obj(members) => &mut members[i].node,
            _ => unreachable!("paths lead through containers"),
        };
    }
    match (&mut here.json, op) {
        (J::Arr(items), Op::Replace(json)) => items[last].json = json.clone(),
        (J::Obj(members), Op::Replace(json)) => members[last].node.json = json.clone(),
        (J::Obj(members), Op::Remove) => {
            members.remove(last);
        }
        _ => unreachable!("removals are of members"),
    }
}

/// The mutations that `picks` choose from `all`, leaving out those whose
/// scope overlaps one chosen before. Each pick chooses the kind of error
/// first, so that rare ones are picked as often as the wrong types that
/// every place offers.
pub fn choose(all: &[Mutation], picks: &[(Index, Index)]) -> Vec<Mutation> {
    let mut by_code: BTreeMap<Code, Vec<&Mutation>> = BTreeMap::new();
    for m in all {
        by_code.entry(m.code).or_default().push(m);
    }
    let by_code: Vec<Vec<&Mutation>> = by_code.into_values().collect();
    let mut chosen: Vec<Mutation> = Vec::new();
    for (code, pick) in picks {
        let group = &by_code[code.index(by_code.len())];
        let m = group[pick.index(group.len())];
        let overlaps = chosen
            .iter()
            .any(|c| c.scope.starts_with(&m.scope) || m.scope.starts_with(&c.scope));
        if !overlaps {
            chosen.push(m.clone());
        }
    }
    chosen
}
