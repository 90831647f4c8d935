//! Generators of documents from the field tables, for property tests: valid
//! documents of every kind (random member order, whitespace, escapes, every
//! allowed spelling of integers, valid samples of every format, unions
//! through every branch), written as JSON text with the byte offset of every
//! place, and every single-defect mutation of such a document with the
//! diagnostic the validator must give for it.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use cardkit::model::{Card, Migration, Set, Template};
use cardkit::schema::{Describe, Format, ModelDef, TaggedUnion, Type};
use cardkit::Code;
use cardkit::Kind;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::{BoxedStrategy, Union};

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

// ---------------------------------------------------------------------------
// Writing JSON text, with the byte offset of every place

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Escape {
    /// Only what must be escaped.
    Minimal,
    /// Also every non-ASCII character and `/`.
    NonAscii,
    /// Every character as `\uXXXX`.
    All,
}

#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Line break and indentation, or none.
    pub newline: Option<&'static str>,
    pub indent: &'static str,
    pub colon: &'static str,
    pub escape: Escape,
}

impl Style {
    pub const COMPACT: Style = Style {
        newline: None,
        indent: "",
        colon: ":",
        escape: Escape::Minimal,
    };
}

pub fn style() -> impl Strategy<Value = Style> {
    (
        prop::sample::select(vec![None, Some("\n"), Some("\r\n")]),
        prop::sample::select(vec!["", "  ", "\t"]),
        prop::sample::select(vec![":", ": ", " : "]),
        prop::sample::select(vec![
            Escape::Minimal,
            Escape::Minimal,
            Escape::NonAscii,
            Escape::All,
        ]),
    )
        .prop_map(|(newline, indent, colon, escape)| Style {
            newline,
            indent,
            colon,
            escape,
        })
}

/// A one-line style (for JSON Lines).
pub fn line_style() -> impl Strategy<Value = Style> {
    style().prop_map(|s| Style { newline: None, ..s })
}

pub struct Writer {
    pub out: String,
    pub style: Style,
    /// Byte offset of the value at each JSON Pointer.
    pub offsets: Option<HashMap<String, usize>>,
}

pub fn write(node: &Node, style: Style) -> String {
    let mut w = Writer {
        out: String::new(),
        style,
        offsets: None,
    };
    w.node(node, &mut String::new(), 0);
    w.out
}

impl Writer {
    pub fn node(&mut self, node: &Node, pointer: &mut String, level: usize) {
        if let Some(offsets) = &mut self.offsets {
            offsets.insert(pointer.clone(), self.out.len());
        }
        match &node.json {
            J::Null => self.out.push_str("null"),
            J::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            J::Num(n) | J::Raw(n) => self.out.push_str(n),
            J::Str(s) => self.string(s),
            J::Arr(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.line(level + 1);
                    let len = pointer.len();
                    pointer.push_str(&format!("/{i}"));
                    self.node(item, pointer, level + 1);
                    pointer.truncate(len);
                }
                if !items.is_empty() {
                    self.line(level);
                }
                self.out.push(']');
            }
            J::Obj(members) => {
                self.out.push('{');
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.line(level + 1);
                    self.string(&m.key);
                    self.out.push_str(self.style.colon);
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&escape_token(&m.key));
                    self.node(&m.node, pointer, level + 1);
                    pointer.truncate(len);
                }
                if !members.is_empty() {
                    self.line(level);
                }
                self.out.push('}');
            }
        }
    }

    pub fn line(&mut self, level: usize) {
        if let Some(newline) = self.style.newline {
            self.out.push_str(newline);
            for _ in 0..level {
                self.out.push_str(self.style.indent);
            }
        }
    }

    pub fn string(&mut self, s: &str) {
        let escape = self.style.escape;
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' if escape == Escape::Minimal => self.out.push_str("\\n"),
                '\t' if escape == Escape::Minimal => self.out.push_str("\\t"),
                '/' if escape == Escape::NonAscii => self.out.push_str("\\/"),
                c if (c as u32) < 0x20
                    || escape == Escape::All
                    || (escape == Escape::NonAscii && !c.is_ascii()) =>
                {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        self.out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

pub fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

// ---------------------------------------------------------------------------
// Generating valid documents from the field tables

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

pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "[a-zA-Z0-9 _.-]{0,10}",
        2 => prop::collection::vec(any::<char>(), 0..6).prop_map(|c| c.into_iter().collect()),
        1 => prop::sample::select(vec![
            "", "\"", "\\", "/", "~1", "é", "日本", "😀", "\u{2028}", "\u{0}", "\u{7f}",
            "\u{feff}", "a\nb", "\r\t",
        ])
        .prop_map(str::to_owned),
    ]
    .boxed()
}

/// A small free object (unique keys).
pub fn free_object() -> impl Strategy<Value = J> {
    prop::collection::btree_map(text(), free_value(), 0..3).prop_map(|map| {
        J::Obj(
            map.into_iter()
                .map(|(key, json)| member(&key, free(json)))
                .collect(),
        )
    })
}

pub fn free_value() -> BoxedStrategy<J> {
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        number().prop_map(J::Num),
        text().prop_map(J::Str),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone().prop_map(free), 0..3).prop_map(J::Arr),
            prop::collection::btree_map(text(), inner, 0..3).prop_map(|map| J::Obj(
                map.into_iter()
                    .map(|(key, json)| member(&key, free(json)))
                    .collect()
            )),
        ]
    })
    .boxed()
}

/// An integer in one of the spellings the spec allows.
pub fn integer(wide: bool) -> BoxedStrategy<String> {
    let mut choices = vec![
        (4, (-1000i64..1000).prop_map(|n| n.to_string()).boxed()),
        (2, any::<i64>().prop_map(|n| n.to_string()).boxed()),
        (
            3,
            (-100_000i64..100_000, 0u8..6)
                .prop_map(|(n, form)| integer_form(n, form))
                .boxed(),
        ),
        (
            1,
            prop::sample::select(vec![i64::MIN, i64::MAX, 0, -1])
                .prop_map(|n| n.to_string())
                .boxed(),
        ),
    ];
    if wide {
        let beyond = (i64::MAX as u64 + 1)..=u64::MAX;
        choices.push((3, beyond.prop_map(|n| n.to_string()).boxed()));
    }
    Union::new_weighted(choices).boxed()
}

/// `n` written with a fraction or an exponent: `5.0`, `5e0`, `50E-1`, ….
pub fn integer_form(n: i64, form: u8) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let digits = n.unsigned_abs().to_string();
    match form {
        0 => format!("{n}.0"),
        1 => format!("{n}e0"),
        2 => format!("{n}.000E+0"),
        3 if n == 0 => "0.0e-1".to_owned(),
        3 => format!("{n}0E-1"),
        4 => {
            let (first, rest) = digits.split_at(1);
            let dot = if rest.is_empty() {
                String::new()
            } else {
                format!(".{rest}")
            };
            format!("{sign}{first}{dot}e{}", rest.len())
        }
        _ if n == 0 => "-0".to_owned(),
        _ => n.to_string(),
    }
}

pub fn number() -> BoxedStrategy<String> {
    let finite = prop::num::f64::POSITIVE
        | prop::num::f64::NEGATIVE
        | prop::num::f64::NORMAL
        | prop::num::f64::SUBNORMAL
        | prop::num::f64::ZERO;
    prop_oneof![
        2 => (-1000i64..1000).prop_map(|n| n.to_string()),
        2 => (-100_000i64..100_000, 1u32..4).prop_map(|(n, scale)| {
            let sign = if n < 0 { "-" } else { "" };
            let m = n.unsigned_abs();
            let p = 10u64.pow(scale);
            format!("{sign}{}.{:0width$}", m / p, m % p, width = scale as usize)
        }),
        2 => finite.prop_map(|f| format!("{f:e}")),
        1 => finite.prop_map(|f| format!("{f}")),
        1 => any::<u64>().prop_map(|n| n.to_string()),
    ]
    .boxed()
}

pub fn formatted(format: Format) -> BoxedStrategy<String> {
    match format {
        Format::Uuid => uuid().boxed(),
        Format::Date => date().boxed(),
        Format::Uri => uri().boxed(),
        Format::Color => color().boxed(),
    }
}

/// Letters of `s` upper-cased where the bits of `mask` say so.
pub fn with_case(s: &str, mask: u64) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            if mask >> (i % 64) & 1 == 1 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

pub fn uuid() -> impl Strategy<Value = String> {
    prop_oneof![
        9 => (any::<u128>(), any::<u64>()).prop_map(|(bits, case)| {
            let hex = with_case(&format!("{bits:032x}"), case);
            format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
        }),
        1 => Just("00000000-0000-0000-0000-000000000000".to_owned()),
    ]
}

pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

pub fn date() -> impl Strategy<Value = String> {
    let year = prop_oneof![1i32..=9999, 1900i32..2100, Just(1), Just(9999), Just(2000)];
    (year, 1u32..=12, 1u32..=31).prop_map(|(y, m, d)| {
        let d = d.min(days_in_month(y, m));
        format!("{y:04}-{m:02}-{d:02}")
    })
}

pub fn uri() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "https://x.example/",
            "http://x.example:8080/a/",
            "https://user@x.example/",
            "ftp://[::1]/",
            "file:///",
            "urn:example:",
            "mailto:someone@x.example?to=",
            "HTTPS://X.EXAMPLE/",
        ]),
        "[a-zA-Z0-9._~!$&'()*+,;=:@-]{0,10}",
        prop::option::of("[a-z0-9=&/?]{0,6}"),
        prop::option::of("[a-z0-9/?]{0,6}"),
    )
        .prop_map(|(prefix, path, query, fragment)| {
            let mut uri = format!("{prefix}{path}");
            if let Some(q) = query {
                uri.push('?');
                uri.push_str(&q);
            }
            if let Some(f) = fragment {
                uri.push('#');
                uri.push_str(&f);
            }
            uri
        })
}

/// Valid colors, in the forms `shared/spec/colors.jsonl` marks valid.
pub fn color() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "white",
        "black",
        "red",
        "transparent",
        "skyblue",
        "gold",
        "navy",
        "lightgoldenrodyellow",
        "darkslategrey",
        "grey",
    ]);
    let hex = (
        prop::sample::select(vec!["#", "0x", ""]),
        prop::sample::select(vec![3usize, 4, 6, 8]),
        any::<u32>(),
        any::<u64>(),
        // Python's `\s` around hex colors: any Unicode white space.
        prop::sample::select(vec!["", "", " ", "\t", "\u{a0}", "\u{3000}"]),
    )
        .prop_map(|(prefix, len, bits, case, space)| {
            let digits = format!("{bits:08x}");
            format!("{space}{prefix}{}{space}", with_case(&digits[..len], case))
        });
    let rgb = (
        prop::sample::select(vec!["rgb", "rgba", "RGB"]),
        [0u32..=255, 0u32..=255, 0u32..=255],
        prop::sample::select(vec!["", ", 0", ", 1", ", 0.5", ",.3", ", 50%"]),
        prop::sample::select(vec![", ", ",", " , "]),
    )
        .prop_map(|(name, [r, g, b], alpha, comma)| {
            format!("{name}({r}{comma}{g}{comma}{b}{alpha})")
        });
    let hsl = (
        prop::sample::select(vec!["hsl", "hsla"]),
        0u32..=360,
        prop::sample::select(vec!["", "deg"]),
        0u32..=100,
        0u32..=100,
        prop::sample::select(vec!["", ", 0.5", ", 1"]),
    )
        .prop_map(|(name, h, unit, s, l, alpha)| format!("{name}({h}{unit}, {s}%, {l}%{alpha})"));
    prop_oneof![
        2 => (names, any::<u64>()).prop_map(|(n, case)| with_case(n, case)),
        3 => hex,
        2 => rgb,
        1 => hsl,
    ]
}

// ---------------------------------------------------------------------------
// Mutations: one defect each, with the diagnostic it must give

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
