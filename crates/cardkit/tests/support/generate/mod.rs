//! Generators of documents from the field tables, for property tests: valid
//! documents of every kind (random member order, whitespace, escapes, every
//! allowed spelling of integers, valid samples of every format, unions
//! through every branch), written as JSON text with the byte offset of every
//! place, and every single-defect mutation of such a document with the
//! diagnostic the validator must give for it.
//!
//! Here, the generated tree; beside it, `writer.rs` (JSON text and offsets),
//! `documents.rs` (valid documents from the field tables), `values.rs` (the
//! values of leaves: strings, numbers, formats) and `mutation.rs` (the
//! mutations and their diagnostics).

mod documents;
mod mutation;
mod values;
mod writer;

// Every item is at `support::generate::…`; not every test crate uses every
// part.
#[allow(unused_imports)]
pub use {documents::*, mutation::*, values::*, writer::*};

use std::fmt;

use cardkit::schema::{TaggedUnion, Type};

// ---------------------------------------------------------------------------
// The generated tree: JSON with what the field tables say about each place

#[derive(Clone)]
pub struct Node {
    pub json: J,
    pub slot: Slot,
}

#[derive(Clone, Debug)]
pub enum J {
    Null,
    Bool(bool),
    /// A number, as written.
    Num(String),
    Str(String),
    /// A token written as it is (may be malformed on purpose).
    Raw(String),
    Arr(Vec<Node>),
    Obj(Vec<Member>),
}

#[derive(Clone, Debug)]
pub struct Member {
    pub key: String,
    pub node: Node,
    pub drop: Drop,
}

/// `Model.field` of a place, as the validator's diagnostics name it.
pub type Label = Option<(&'static str, &'static str)>;

#[derive(Clone, Copy, Debug)]
pub enum Slot {
    /// Inside a free object, or a container: nothing is checked.
    Free,
    Typed {
        ty: &'static Type,
        nullable: bool,
        role: Role,
        label: Label,
    },
}

#[derive(Clone, Copy, Debug)]
pub enum Role {
    Plain,
    /// The tag member of a tagged union.
    Tag(&'static TaggedUnion),
    /// The constant member that tells the shapes of a plain union apart.
    ShapeConst,
}

/// What dropping a member does.
#[derive(Clone, Copy, Debug)]
pub enum Drop {
    Allowed,
    /// `missing_field` (the member of this model).
    Missing(&'static str),
    /// `missing_discriminator`.
    MissingTag(&'static TaggedUnion),
    /// `no_matching_shape` at the object.
    NoShape,
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self, Style::COMPACT))
    }
}

pub fn free(json: J) -> Node {
    Node {
        json,
        slot: Slot::Free,
    }
}

pub fn member(key: &str, node: Node) -> Member {
    Member {
        key: key.to_owned(),
        node,
        drop: Drop::Allowed,
    }
}
