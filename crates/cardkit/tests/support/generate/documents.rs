//! Generating valid documents from the field tables: the tree of a valid
//! document of each kind, required members always, others sometimes, in a
//! random order, unions through every branch.

use cardkit::model::{Card, Migration, Set, Template};
use cardkit::schema::{Describe, ModelDef, TaggedUnion, Type};
use cardkit::Kind;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Union};

use super::values::{formatted, free_object, integer, number, text};
use super::{Drop, Label, Member, Node, Role, Slot, J};

#[derive(Clone, Copy)]
pub struct Ctx {
    /// Models entered so far.
    pub depth: u32,
    /// Tagged unions (layers) entered so far.
    pub layers: u32,
    /// Integers may exceed `i64` (valid, but beyond the typed models).
    pub wide: bool,
}

pub const MAX_DEPTH: u32 = 8;
/// Layers nest at most this deep (the card's data, a group, a group).
pub const MAX_LAYERS: u32 = 3;
pub const MAX_ITEMS: usize = 3;

pub fn root_type(kind: Kind) -> &'static Type {
    match kind {
        Kind::Template => <Template as Describe>::TYPE,
        Kind::Card => <Card as Describe>::TYPE,
        Kind::Set => <Set as Describe>::TYPE,
        Kind::Migration => <Migration as Describe>::TYPE,
    }
}

/// A valid document of `kind`.
pub fn document(kind: Kind) -> BoxedStrategy<Node> {
    let strategy = |wide| {
        typed(
            root_type(kind),
            false,
            Role::Plain,
            None,
            Ctx {
                depth: 0,
                layers: 0,
                wide,
            },
        )
    };
    let doc = Union::new_weighted(vec![(5, strategy(false)), (1, strategy(true))]);
    if kind == Kind::Card {
        doc.prop_map(card_data_last).boxed()
    } else {
        doc.boxed()
    }
}

/// KNOWN: layout detection reads a card's `data` member before its other
/// members, and takes a `type` inside it for the Set's `type`: a card whose
/// first decisive member is `data` holding `type` is read as a Set wrapped
/// in `{"data": …}`, even with the kind named. Keep such a `data` last.
pub fn card_data_last(mut doc: Node) -> Node {
    if let J::Obj(members) = &mut doc.json {
        let typed_data = |m: &Member| {
            m.key == "data"
                && matches!(&m.node.json, J::Obj(inner) if inner.iter().any(|i| i.key == "type"))
        };
        if let Some(i) = members.iter().position(typed_data) {
            let data = members.remove(i);
            members.push(data);
        }
    }
    doc
}

/// A valid document of any kind; layer trees (templates and cards, whose
/// unions have the most to break) more often.
pub fn any_document() -> BoxedStrategy<(Kind, Node)> {
    Union::new_weighted(
        Kind::ALL
            .iter()
            .map(|&kind| {
                let weight = match kind {
                    Kind::Template | Kind::Card => 2,
                    Kind::Set | Kind::Migration => 1,
                };
                (
                    weight,
                    document(kind).prop_map(move |doc| (kind, doc)).boxed(),
                )
            })
            .collect(),
    )
    .boxed()
}

pub fn typed(
    ty: &'static Type,
    nullable: bool,
    role: Role,
    label: Label,
    ctx: Ctx,
) -> BoxedStrategy<Node> {
    let slot = Slot::Typed {
        ty,
        nullable,
        role,
        label,
    };
    let value = json_of(ty, label, ctx).prop_map(move |json| Node { json, slot });
    if nullable {
        prop_oneof![
            1 => Just(Node { json: J::Null, slot }),
            4 => value,
        ]
        .boxed()
    } else {
        value.boxed()
    }
}

pub fn json_of(ty: &'static Type, label: Label, ctx: Ctx) -> BoxedStrategy<J> {
    match ty {
        Type::String { format: None } => text().prop_map(J::Str).boxed(),
        Type::String { format: Some(f) } => formatted(*f).prop_map(J::Str).boxed(),
        Type::Integer => integer(ctx.wide).prop_map(J::Num).boxed(),
        Type::Number => number().prop_map(J::Num).boxed(),
        Type::Boolean => any::<bool>().prop_map(J::Bool).boxed(),
        Type::Const { value } => Just(J::Str((*value).to_owned())).boxed(),
        Type::Enum { values, .. } => prop::sample::select(*values)
            .prop_map(|v| J::Str(v.to_owned()))
            .boxed(),
        Type::List { item } => {
            let layers = matches!(item, Type::Tagged(_)) && ctx.layers >= MAX_LAYERS;
            if ctx.depth >= MAX_DEPTH || layers {
                return Just(J::Arr(Vec::new())).boxed();
            }
            // Lists of unions (layers, filters) are empty where they stop
            // nesting; elsewhere they have something to break.
            let min = usize::from(is_union(item));
            prop::collection::vec(typed(item, false, Role::Plain, label, ctx), min..=MAX_ITEMS)
                .prop_map(J::Arr)
                .boxed()
        }
        Type::FreeObject => free_object().boxed(),
        Type::Model { model } => object(model(), None, false, ctx),
        Type::Tagged(union) => {
            let ctx = Ctx {
                layers: ctx.layers + 1,
                ..ctx
            };
            Union::new(
                union
                    .variants
                    .iter()
                    .map(|&(tag, model)| object(model(), Some((union, tag)), false, ctx)),
            )
            .boxed()
        }
        Type::AnyOf { types, .. } => Union::new(types.iter().map(|t| match t {
            Type::Model { model } => object(model(), None, true, ctx),
            _ => json_of(t, label, ctx),
        }))
        .boxed(),
    }
}

/// An object of `model`: required members always, others sometimes, in a
/// random order. `tag` is the tagged union's member and value; `shape` says
/// the object is a branch of a plain union, told apart by its first constant.
pub fn object(
    model: &'static ModelDef,
    tag: Option<(&'static TaggedUnion, &'static str)>,
    shape: bool,
    ctx: Ctx,
) -> BoxedStrategy<J> {
    let ctx = Ctx {
        depth: ctx.depth + 1,
        ..ctx
    };
    let shape_const = shape
        .then(|| {
            model
                .fields
                .iter()
                .find(|f| matches!(f.ty, Type::Const { .. }))
                .map(|f| f.name)
        })
        .flatten();
    let mut parts: Vec<BoxedStrategy<Option<Member>>> = Vec::new();
    if let Some((union, value)) = tag {
        let member = Member {
            key: union.tag.to_owned(),
            node: Node {
                json: J::Str(value.to_owned()),
                slot: Slot::Typed {
                    ty: &Type::String { format: None },
                    nullable: false,
                    role: Role::Tag(union),
                    label: None,
                },
            },
            drop: if union.tag_optional {
                Drop::Allowed
            } else {
                Drop::MissingTag(union)
            },
        };
        parts.push(if union.tag_optional {
            prop::option::weighted(0.6, Just(member)).boxed()
        } else {
            Just(Some(member)).boxed()
        });
    }
    for field in model.fields {
        if tag.is_some_and(|(union, _)| union.tag == field.name) {
            continue;
        }
        let is_shape = shape_const == Some(field.name);
        let role = if is_shape {
            Role::ShapeConst
        } else {
            Role::Plain
        };
        let drop = if is_shape {
            Drop::NoShape
        } else if field.required {
            Drop::Missing(model.name)
        } else {
            Drop::Allowed
        };
        let key = field.name;
        let value = typed(
            field.ty,
            field.nullable,
            role,
            Some((model.name, field.name)),
            ctx,
        )
        .prop_map(move |node| Member {
            key: key.to_owned(),
            node,
            drop,
        });
        parts.push(if field.required || is_shape {
            value.prop_map(Some).boxed()
        } else {
            let present = if is_structure(field.ty) { 0.8 } else { 0.5 };
            prop::option::weighted(present, value).boxed()
        });
    }
    parts
        .prop_map(|members| members.into_iter().flatten().collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(J::Obj)
        .boxed()
}

pub fn is_union(ty: &Type) -> bool {
    matches!(ty, Type::Tagged(_) | Type::AnyOf { .. })
}

/// Models, unions and lists of them: optional ones are there more often.
pub fn is_structure(ty: &Type) -> bool {
    match ty {
        Type::Model { .. } | Type::Tagged(_) | Type::AnyOf { .. } => true,
        Type::List { item } => is_structure(item),
        _ => false,
    }
}
