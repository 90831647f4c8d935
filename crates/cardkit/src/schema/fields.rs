//! Every field of a document kind, at its place in the document: a JSON
//! Pointer pattern where `*` stands for any item of a list
//! (`/cards/*/identifiers/shopAId`), derived from the field tables.
//!
//! ```
//! use cardkit::schema::fields::fields;
//! use cardkit::Kind;
//!
//! let places = fields(Kind::Set);
//! let shop = places
//!     .iter()
//!     .find(|p| p.pointer == "/cards/*/identifiers/shopAId")
//!     .unwrap();
//! assert_eq!(shop.model, "Identifiers");
//! ```
//!
//! Layers are recursive: a Group's `children` hold Groups. Each model's fields
//! are listed once along a path; where a model comes back inside itself, one
//! place says so ([`Place::repeats`] names where its fields are listed) and
//! the listing goes no deeper. Members of a union are listed once per branch,
//! and each says which branch it belongs to ([`Place::branches`]).

use crate::model::Kind;
use crate::table::{FieldDef, ModelDef, Names, TaggedUnion, Type};

/// One place of a document: a field's value, a union's tag member, or (where
/// the listing stops a recursion, and in lookups) an item of a list field.
#[derive(Debug, Clone)]
pub struct Place {
    /// The JSON Pointer pattern: RFC 6901, with `*` for any item of a list.
    pub pointer: String,
    /// The model the member belongs to (`Identifiers`), or the union a tag
    /// member belongs to (`Layer`).
    pub model: &'static str,
    /// The member.
    pub member: Member,
    /// The member's wire name, under the names listed (the spec's, unless
    /// asked otherwise).
    pub name: &'static str,
    /// When the place is an item of the member's list (at any depth), the
    /// items' type.
    pub item: Option<&'static Type>,
    /// The union branches the place is in, outermost first.
    pub branches: Vec<Branch>,
    /// The value is a model already listed further up this path (layers in
    /// layers): the pointer where its fields are listed.
    pub repeats: Option<String>,
}

/// What a place holds.
#[derive(Debug, Clone, Copy)]
pub enum Member {
    /// A field of a model.
    Field(&'static FieldDef),
    /// The tag member of a tagged union (a layer's or an image filter's
    /// `type`), which chooses the branch.
    Tag(&'static TaggedUnion),
}

impl Member {
    /// The member's wire name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Member::Field(field) => field.name,
            Member::Tag(union) => union.tag,
        }
    }

    /// The field, when the member is one.
    #[must_use]
    pub fn field(&self) -> Option<&'static FieldDef> {
        match self {
            Member::Field(field) => Some(field),
            Member::Tag(_) => None,
        }
    }
}

/// A branch of a union that a place is in.
#[derive(Debug, Clone)]
pub struct Branch {
    /// The pointer pattern of the value whose branch is chosen (the
    /// outermost of a run).
    pub at: String,
    /// The branch.
    pub choice: Choice,
    /// Values nested one inside the next below `at` that all take the same
    /// branch (layers in layers), said once: `None` for one value.
    pub run: Option<Run>,
}

/// Nested values that take the same branch of a union, one inside the next,
/// from [`Branch::at`] down to `last` (a lookup deep into layers in layers
/// says so once, not once per level).
#[derive(Debug, Clone)]
pub struct Run {
    /// How many values, `at` and `last` included (3 or more).
    pub count: usize,
    /// The pointer pattern of the innermost value.
    pub last: String,
}

/// How a union's branch is chosen.
#[derive(Debug, Clone, Copy)]
pub enum Choice {
    /// A tagged union: the tag member has this value.
    Tag {
        /// The union.
        union: &'static TaggedUnion,
        /// The tag's value.
        value: &'static str,
    },
    /// A plain union: the value matches this alternative.
    Shape {
        /// The union's name, e.g. `Filter`.
        union: &'static str,
        /// The alternative.
        ty: &'static Type,
    },
}

impl Branch {
    /// The branch in words: `when /card/data/children/* has "type": "image"`,
    /// or for a run, `when the 40 values from /data/children/* to
    /// /data/children/*/…/children/* each have "type": "group"`.
    #[must_use]
    pub fn words(&self) -> String {
        let (which, has, is) = match &self.run {
            None => (self.at.clone(), "has", "is"),
            Some(run) => (
                format!("the {} values from {} to {}", run.count, self.at, run.last),
                "each have",
                "are each",
            ),
        };
        match self.choice {
            Choice::Tag { union, value } => {
                format!("when {which} {has} \"{}\": \"{value}\"", union.tag)
            }
            Choice::Shape { union, ty } => format!(
                "when {which} {is} the {} alternative of {union}",
                crate::schema::words::type_words(ty)
            ),
        }
    }
}

impl Place {
    /// The type of the value at this place (`None` for a tag member, whose
    /// value is one of the union's tags).
    #[must_use]
    pub fn value_type(&self) -> Option<&'static Type> {
        self.item.or(self.member.field().map(|field| field.ty))
    }
}

/// Every field of `kind`'s documents, in definition order, depth first.
#[must_use]
pub fn fields(kind: Kind) -> Vec<Place> {
    fields_named(kind, Names::Spec)
}

/// Every field of `kind`'s documents under the wire names `names`, in
/// definition order, depth first.
#[must_use]
pub fn fields_named(kind: Kind, names: Names) -> Vec<Place> {
    let mut lister = Lister {
        out: Vec::new(),
        path: Vec::new(),
        names,
    };
    lister.model(kind.model(), "", &[], None);
    lister.out
}

/// Escapes a member name as an RFC 6901 reference token.
pub use cardkit_json::pointer::escape as escape_token;

struct Lister {
    out: Vec<Place>,
    /// The models entered on the current path, with the pointer of each.
    path: Vec<(&'static ModelDef, String)>,
    /// The wire names listed.
    names: Names,
}

/// The field whose value is being listed, for the places of its items.
#[derive(Clone, Copy)]
struct Holder {
    model: &'static ModelDef,
    field: &'static FieldDef,
    /// The value listed is an item of the field's list.
    item: Option<&'static Type>,
}

impl Lister {
    fn model(
        &mut self,
        model: &'static ModelDef,
        pointer: &str,
        branches: &[Branch],
        tag: Option<&str>,
    ) {
        self.path.push((model, pointer.to_owned()));
        for field in model.fields {
            // A variant's own field named like the union's tag is the tag.
            if tag == Some(field.name) {
                continue;
            }
            let name = self.names.wire_name(model, field);
            let here = format!("{pointer}/{}", escape_token(name));
            self.out.push(Place {
                pointer: here.clone(),
                model: model.name,
                member: Member::Field(field),
                name,
                item: None,
                branches: branches.to_vec(),
                repeats: None,
            });
            let holder = Holder {
                model,
                field,
                item: None,
            };
            self.value(field.ty, &here, branches, holder);
        }
        self.path.pop();
    }

    /// Lists what is inside a value of `ty` at `pointer`.
    fn value(&mut self, ty: &'static Type, pointer: &str, branches: &[Branch], holder: Holder) {
        match ty {
            Type::List { item } => {
                let holder = Holder {
                    item: Some(item),
                    ..holder
                };
                self.value(item, &format!("{pointer}/*"), branches, holder);
            }
            Type::Model { model } => self.enter(model(), pointer, branches, None, holder),
            Type::Tagged(union) => {
                self.out.push(Place {
                    pointer: format!("{pointer}/{}", escape_token(union.tag)),
                    model: union.name,
                    member: Member::Tag(union),
                    name: union.tag,
                    item: None,
                    branches: branches.to_vec(),
                    repeats: None,
                });
                for &(value, model) in union.variants {
                    let mut inner = branches.to_vec();
                    // A union of one shape chooses nothing.
                    if union.variants.len() > 1 {
                        inner.push(Branch {
                            at: pointer.to_owned(),
                            choice: Choice::Tag { union, value },
                            run: None,
                        });
                    }
                    self.enter(model(), pointer, &inner, Some(union.tag), holder);
                }
            }
            Type::AnyOf { name, types } => {
                for &alternative in *types {
                    let mut inner = branches.to_vec();
                    inner.push(Branch {
                        at: pointer.to_owned(),
                        choice: Choice::Shape {
                            union: name,
                            ty: alternative,
                        },
                        run: None,
                    });
                    self.value(alternative, pointer, &inner, holder);
                }
            }
            _ => {}
        }
    }

    /// Lists a model's fields, or where the model comes back inside itself,
    /// one place that says where they are listed.
    fn enter(
        &mut self,
        model: &'static ModelDef,
        pointer: &str,
        branches: &[Branch],
        tag: Option<&str>,
        holder: Holder,
    ) {
        let listed = self
            .path
            .iter()
            .find(|(m, _)| std::ptr::eq(*m, model))
            .map(|(_, at)| at.clone());
        match listed {
            Some(at) => self.out.push(Place {
                pointer: pointer.to_owned(),
                model: holder.model.name,
                member: Member::Field(holder.field),
                name: self.names.wire_name(holder.model, holder.field),
                item: holder.item,
                branches: branches.to_vec(),
                repeats: Some(at),
            }),
            None => self.model(model, pointer, branches, tag),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(places: &'a [Place], pointer: &str) -> Vec<&'a Place> {
        places.iter().filter(|p| p.pointer == pointer).collect()
    }

    #[test]
    fn nested_models_are_listed_at_every_place() {
        let set = fields(Kind::Set);
        for pointer in [
            "/cards/*/identifiers/shopAId",
            "/tokens/*/identifiers/shopAId",
            "/sealedProduct/*/identifiers/shopAId",
            "/translations/Portuguese (Brazil)",
            "/cards/*/foreignData/*/language",
        ] {
            assert_eq!(find(&set, pointer).len(), 1, "{pointer}");
        }
    }

    #[test]
    fn recursion_is_listed_once_and_named() {
        let card = fields(Kind::Card);
        let repeat: Vec<_> = card.iter().filter(|p| p.repeats.is_some()).collect();
        assert_eq!(repeat.len(), 1);
        assert_eq!(repeat[0].pointer, "/data/children/*");
        assert_eq!(repeat[0].repeats.as_deref(), Some("/data"));
        assert_eq!(repeat[0].branches.len(), 1);
        // The tag of the top group, then the layer tag of the children.
        assert!(
            matches!(find(&card, "/data/type")[..], [p] if matches!(p.member, Member::Tag(u) if u.tag_optional))
        );
        assert!(
            matches!(find(&card, "/data/children/*/type")[..], [p] if matches!(p.member, Member::Tag(u) if !u.tag_optional))
        );
        // Shared member names are listed once per branch.
        assert_eq!(find(&card, "/data/children/*/name").len(), 2);
        assert_eq!(find(&card, "/data/name").len(), 1);
    }

    #[test]
    fn union_members_name_their_branch() {
        let card = fields(Kind::Card);
        let src = find(&card, "/data/children/*/src");
        assert_eq!(src.len(), 1);
        assert_eq!(
            src[0].branches[0].words(),
            "when /data/children/* has \"type\": \"image\""
        );
        // Image filters by tag; text filters by shape.
        let colors = find(&card, "/data/children/*/filters/*/color");
        assert_eq!(colors.len(), 4);
        let tags = find(&card, "/data/children/*/filters/*/type");
        assert_eq!(
            tags.len(),
            3,
            "the image filters' tag, two text shapes' constants"
        );
    }
}
