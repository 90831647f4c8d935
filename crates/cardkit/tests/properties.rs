//! Property tests of the validator and the typed models.
//!
//! 1. **Generated valid documents.** A generator walks the field tables
//!    (`cardkit::schema`) and builds random valid documents of every kind:
//!    random member order, random whitespace and string escapes, integers in
//!    every allowed spelling (`5`, `5.0`, `5e0`, `50E-1`, `1.2345e4`, 64-bit
//!    extremes), valid samples of every format, nullable fields sometimes
//!    `null`, unions through every branch. Every such document validates with
//!    no diagnostic at all (with its kind named, detected, in containers and
//!    as JSON Lines), reads into its typed model, and round-trips through it.
//! 2. **Mutations.** One (or several independent) mutations of a valid
//!    document — a required member dropped, a value of the wrong JSON type,
//!    `null` where it is not allowed, a broken format, an enumeration or
//!    constant value out of its list, an integer out of range, a union tag
//!    that names no shape — give exactly the expected errors: code, JSON
//!    Pointer, byte offset, line and column, and `Model.field`.
//! 3. **No panic.** Arbitrary bytes, arbitrary JSON texts made of the spec's
//!    member names, truncations and byte edits of valid documents: for every
//!    kind option, JSON Lines or not, `validate` returns, every diagnostic is
//!    located consistently, and `invalid_json` is reported exactly when
//!    `serde_json` refuses the text.
//!
//! The runs are deterministic (fixed seed). Longer runs, by hand:
//!
//! ```sh
//! CARDKIT_PROPTEST_CASES=20000 cargo test --release -p cardkit --test properties
//! CARDKIT_PROPTEST_SEED=7 cargo test -p cardkit --test properties   # another seed
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use cardkit::model::{Card, Migration, Set, Template};
use cardkit::schema::{Describe, Format, ModelDef, TaggedUnion, Type};
use cardkit::validate::{validate, FileReport, Kind, Options};
use cardkit::{Code, Document, ParseError, Severity};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::{BoxedStrategy, Union};
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestCaseError};
use serde::Serialize;

// ---------------------------------------------------------------------------
// Configuration

/// `default` cases unless `CARDKIT_PROPTEST_CASES` says otherwise (scaled by
/// `scale`), from a fixed seed unless `CARDKIT_PROPTEST_SEED` says otherwise.
fn config(default: u32, scale: u32) -> Config {
    let cases = std::env::var("CARDKIT_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .map_or(default, |n| (n / scale).max(1));
    let seed = std::env::var("CARDKIT_PROPTEST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x00CA_4DC1_7EB1);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------
// The generated tree: JSON with what the field tables say about each place

#[derive(Clone)]
struct Node {
    json: J,
    slot: Slot,
}

#[derive(Clone, Debug)]
enum J {
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
struct Member {
    key: String,
    node: Node,
    drop: Drop,
}

/// `Model.field` of a place, as the validator's diagnostics name it.
type Label = Option<(&'static str, &'static str)>;

#[derive(Clone, Copy, Debug)]
enum Slot {
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
enum Role {
    Plain,
    /// The tag member of a tagged union.
    Tag(&'static TaggedUnion),
    /// The constant member that tells the shapes of a plain union apart.
    ShapeConst,
}

/// What dropping a member does.
#[derive(Clone, Copy, Debug)]
enum Drop {
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

fn free(json: J) -> Node {
    Node {
        json,
        slot: Slot::Free,
    }
}

fn member(key: &str, node: Node) -> Member {
    Member {
        key: key.to_owned(),
        node,
        drop: Drop::Allowed,
    }
}

// ---------------------------------------------------------------------------
// Writing JSON text, with the byte offset of every place

#[derive(Clone, Copy, Debug, PartialEq)]
enum Escape {
    /// Only what must be escaped.
    Minimal,
    /// Also every non-ASCII character and `/`.
    NonAscii,
    /// Every character as `\uXXXX`.
    All,
}

#[derive(Clone, Copy, Debug)]
struct Style {
    /// Line break and indentation, or none.
    newline: Option<&'static str>,
    indent: &'static str,
    colon: &'static str,
    escape: Escape,
}

impl Style {
    const COMPACT: Style = Style {
        newline: None,
        indent: "",
        colon: ":",
        escape: Escape::Minimal,
    };
}

fn style() -> impl Strategy<Value = Style> {
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
fn line_style() -> impl Strategy<Value = Style> {
    style().prop_map(|s| Style { newline: None, ..s })
}

struct Writer {
    out: String,
    style: Style,
    /// Byte offset of the value at each JSON Pointer.
    offsets: Option<HashMap<String, usize>>,
}

fn write(node: &Node, style: Style) -> String {
    let mut w = Writer {
        out: String::new(),
        style,
        offsets: None,
    };
    w.node(node, &mut String::new(), 0);
    w.out
}

impl Writer {
    fn node(&mut self, node: &Node, pointer: &mut String, level: usize) {
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

    fn line(&mut self, level: usize) {
        if let Some(newline) = self.style.newline {
            self.out.push_str(newline);
            for _ in 0..level {
                self.out.push_str(self.style.indent);
            }
        }
    }

    fn string(&mut self, s: &str) {
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

fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

// ---------------------------------------------------------------------------
// Generating valid documents from the field tables

#[derive(Clone, Copy)]
struct Ctx {
    /// Models entered so far.
    depth: u32,
    /// Tagged unions (layers) entered so far.
    layers: u32,
    /// Integers may exceed `i64` (valid, but beyond the typed models).
    wide: bool,
}

const MAX_DEPTH: u32 = 8;
/// Layers nest at most this deep (the card's data, a group, a group).
const MAX_LAYERS: u32 = 3;
const MAX_ITEMS: usize = 3;

fn root_type(kind: Kind) -> &'static Type {
    match kind {
        Kind::Template => <Template as Describe>::TYPE,
        Kind::Card => <Card as Describe>::TYPE,
        Kind::Set => <Set as Describe>::TYPE,
        Kind::Migration => <Migration as Describe>::TYPE,
    }
}

/// A valid document of `kind`.
fn document(kind: Kind) -> BoxedStrategy<Node> {
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
fn card_data_last(mut doc: Node) -> Node {
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
fn any_document() -> BoxedStrategy<(Kind, Node)> {
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

fn typed(
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

fn json_of(ty: &'static Type, label: Label, ctx: Ctx) -> BoxedStrategy<J> {
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
fn object(
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

fn is_union(ty: &Type) -> bool {
    matches!(ty, Type::Tagged(_) | Type::AnyOf { .. })
}

/// Models, unions and lists of them: optional ones are there more often.
fn is_structure(ty: &Type) -> bool {
    match ty {
        Type::Model { .. } | Type::Tagged(_) | Type::AnyOf { .. } => true,
        Type::List { item } => is_structure(item),
        _ => false,
    }
}

fn text() -> BoxedStrategy<String> {
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
fn free_object() -> impl Strategy<Value = J> {
    prop::collection::btree_map(text(), free_value(), 0..3).prop_map(|map| {
        J::Obj(
            map.into_iter()
                .map(|(key, json)| member(&key, free(json)))
                .collect(),
        )
    })
}

fn free_value() -> BoxedStrategy<J> {
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
fn integer(wide: bool) -> BoxedStrategy<String> {
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
fn integer_form(n: i64, form: u8) -> String {
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

fn number() -> BoxedStrategy<String> {
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

fn formatted(format: Format) -> BoxedStrategy<String> {
    match format {
        Format::Uuid => uuid().boxed(),
        Format::Date => date().boxed(),
        Format::Uri => uri().boxed(),
        Format::Color => color().boxed(),
    }
}

/// Letters of `s` upper-cased where the bits of `mask` say so.
fn with_case(s: &str, mask: u64) -> String {
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

fn uuid() -> impl Strategy<Value = String> {
    prop_oneof![
        9 => (any::<u128>(), any::<u64>()).prop_map(|(bits, case)| {
            let hex = with_case(&format!("{bits:032x}"), case);
            format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
        }),
        1 => Just("00000000-0000-0000-0000-000000000000".to_owned()),
    ]
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn date() -> impl Strategy<Value = String> {
    let year = prop_oneof![1i32..=9999, 1900i32..2100, Just(1), Just(9999), Just(2000)];
    (year, 1u32..=12, 1u32..=31).prop_map(|(y, m, d)| {
        let d = d.min(days_in_month(y, m));
        format!("{y:04}-{m:02}-{d:02}")
    })
}

fn uri() -> impl Strategy<Value = String> {
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
fn color() -> impl Strategy<Value = String> {
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
// Property 1: generated documents are valid, read into the models and
// round-trip

fn errors_text(report: &FileReport) -> String {
    let mut out = String::new();
    for doc in &report.documents {
        for d in &doc.diagnostics {
            out.push_str(&format!(
                "{} {} {:?} {:?} @{} {}:{}: {}\n",
                d.severity.as_str(),
                d.code,
                d.pointer,
                d.field,
                d.offset,
                d.line,
                d.column,
                d.message
            ));
        }
    }
    out
}

fn options(kind: Option<Kind>) -> Options {
    Options {
        kind,
        ..Options::default()
    }
}

/// Whether some integer place holds a value beyond `i64` (valid; the typed
/// models refuse it).
fn has_wide_integer(node: &Node) -> bool {
    match &node.json {
        J::Num(n) => {
            matches!(
                node.slot,
                Slot::Typed {
                    ty: Type::Integer,
                    ..
                }
            ) && n.parse::<i64>().is_err()
                && n.parse::<u64>().is_ok()
        }
        J::Arr(items) => items.iter().any(has_wide_integer),
        J::Obj(members) => members.iter().any(|m| has_wide_integer(&m.node)),
        _ => false,
    }
}

fn check_valid<T>(kind: Kind, doc: &Node, style: Style) -> Result<(), TestCaseError>
where
    T: Document + Serialize + PartialEq + Clone + fmt::Debug,
{
    let text = write(doc, style);
    let bytes = text.as_bytes();

    // Valid with the kind named, and with the kind detected.
    for named in [Some(kind), None] {
        let report = validate(bytes, &options(named));
        prop_assert_eq!(report.documents.len(), 1, "{}", errors_text(&report));
        prop_assert_eq!(report.documents[0].kind, Some(kind));
        prop_assert!(
            report.documents[0].diagnostics.is_empty(),
            "kind {:?}: {}\n{}",
            named,
            errors_text(&report),
            text
        );
    }

    // Valid in containers: an array, JSON Lines, and the kind's own wrappers.
    let line = write(doc, Style::COMPACT);
    let mut containers = vec![
        (format!("[{text},\n{line}]"), false, vec!["/0", "/1"]),
        (format!("{line}\n\n{line}\r\n"), true, vec!["", ""]),
    ];
    match kind {
        Kind::Set => {
            containers.push((
                format!(r#"{{"meta": {{"version": "5.2.1"}}, "data": {text}}}"#),
                false,
                vec!["/data"],
            ));
            containers.push((
                format!(r#"{{"data": {{"ABC": {text}, "X/Y": {line}}}}}"#),
                false,
                vec!["/data/ABC", "/data/X~1Y"],
            ));
        }
        Kind::Migration => containers.push((
            format!(r#"{{"object": "list", "has_more": false, "data": [{text}]}}"#),
            false,
            vec!["/data/0"],
        )),
        _ => {}
    }
    for (container, json_lines, pointers) in containers {
        for named in [Some(kind), None] {
            let report = validate(
                container.as_bytes(),
                &Options {
                    kind: named,
                    json_lines,
                    ..Options::default()
                },
            );
            let found: Vec<&str> = report
                .documents
                .iter()
                .map(|d| d.pointer.as_str())
                .collect();
            prop_assert_eq!(&found, &pointers, "{}", errors_text(&report));
            prop_assert!(report.is_valid(), "{}\n{}", errors_text(&report), container);
            prop_assert!(report.documents.iter().all(|d| d.kind == Some(kind)));
            prop_assert_eq!(errors_text(&report), "");
            if json_lines {
                let lines: Vec<_> = report.documents.iter().map(|d| d.line).collect();
                prop_assert_eq!(lines, vec![Some(1), Some(3)]);
            }
        }
    }

    // The typed model.
    let direct = serde_json::from_slice::<T>(bytes);
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let via_value = serde_json::from_value::<T>(value.clone());
    let parsed = cardkit::from_slice::<T>(bytes);
    if has_wide_integer(doc) {
        // Documented: a valid integer beyond i64 does not fit the models.
        prop_assert!(direct.is_err() && via_value.is_err());
        prop_assert!(
            matches!(parsed, Err(ParseError::Model(_))),
            "{:?}",
            parsed.map(|_| ())
        );
        return Ok(());
    }
    let typed = direct.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    let via_value = via_value.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&typed, &via_value);
    let mut completed = typed.clone();
    completed.complete();
    let parsed = parsed.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    prop_assert_eq!(&parsed, &completed);

    // Round trip: typed → JSON → typed.
    let again = serde_json::to_vec(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let back: T = serde_json::from_slice(&again)
        .map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&again))))?;
    if back != typed {
        // KNOWN: serde_json without its `float_roundtrip` feature reads
        // some numbers one or two units in the last place off (e.g.
        // `2.0962273396028517e-16` as `2.0962273396028514e-16`), so a
        // `number` may not survive typed → JSON → typed. Accept exactly
        // that: `back` must be what reading the written JSON gives.
        let written =
            serde_json::to_value(&typed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let reread: serde_json::Value = serde_json::from_str(&written.to_string())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back_value =
            serde_json::to_value(&back).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&back_value, &reread, "{}", String::from_utf8_lossy(&again));
    }
    let report = validate(&again, &options(Some(kind)));
    prop_assert!(
        report.documents.iter().all(|d| d.diagnostics.is_empty()),
        "{}\n{}",
        errors_text(&report),
        String::from_utf8_lossy(&again)
    );
    // The untyped JSON, re-serialized, validates too.
    let value_text = serde_json::to_vec(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let report = validate(&value_text, &options(Some(kind)));
    // KNOWN: serde_json's `Value` sorts keys, which puts a card's `data` first
    // (unless `corners` is there): a `data` holding `type` then makes layout
    // detection read the card as a wrapped Set (see `card_data_last`).
    let sorted_card_misread = kind == Kind::Card
        && value.get("corners").is_none()
        && value.pointer("/data/type").is_some();
    if !sorted_card_misread {
        prop_assert!(report.is_valid(), "{}", errors_text(&report));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn generated_templates_are_valid(doc in document(Kind::Template), style in style()) {
        check_valid::<Template>(Kind::Template, &doc, style)?;
    }

    #[test]
    fn generated_cards_are_valid(doc in document(Kind::Card), style in style()) {
        check_valid::<Card>(Kind::Card, &doc, style)?;
    }

    #[test]
    fn generated_sets_are_valid(doc in document(Kind::Set), style in style()) {
        check_valid::<Set>(Kind::Set, &doc, style)?;
    }

    #[test]
    fn generated_migrations_are_valid(doc in document(Kind::Migration), style in style()) {
        check_valid::<Migration>(Kind::Migration, &doc, style)?;
    }
}

// ---------------------------------------------------------------------------
// Property 2: mutations give exactly the expected errors

#[derive(Clone, Debug)]
enum Op {
    Remove,
    Replace(J),
}

#[derive(Clone, Debug)]
struct Mutation {
    /// Indexes into arrays and objects from the document's root.
    path: Vec<usize>,
    op: Op,
    code: Code,
    /// Where the diagnostic points, relative to the document.
    pointer: String,
    /// The place whose offset the diagnostic has (the value, or the
    /// enclosing object for a missing member).
    at: String,
    field: Option<String>,
    /// What the mutation may affect: no other mutation goes inside it.
    scope: Vec<usize>,
}

/// A value of each JSON type, to put where another type belongs.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kindish {
    Str,
    Int,
    Frac,
    Bool,
    Arr,
    Obj,
}

fn accepts(ty: &Type, k: Kindish) -> bool {
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

fn sample(k: Kindish, pick: usize) -> J {
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

fn bad_format(format: Format) -> &'static [&'static str] {
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

fn label_of(label: Label) -> Option<String> {
    label.map(|(model, field)| format!("{model}.{field}"))
}

/// Every single mutation of `node` and what the validator must say about it.
fn mutations(
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

fn apply(node: &mut Node, path: &[usize], op: &Op) {
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

/// Where the mutated document goes in its file.
#[derive(Clone, Copy, Debug)]
enum Wrap {
    Bare,
    /// The second item of an array.
    Array,
    /// The second line of JSON Lines.
    Lines,
    /// `{"meta": …, "data": <Set>}`.
    Wrapped,
    /// `{"object": "list", "data": [<Migration>]}`.
    List,
}

fn wrap() -> impl Strategy<Value = Wrap> {
    prop::sample::select(vec![
        Wrap::Bare,
        Wrap::Bare,
        Wrap::Array,
        Wrap::Lines,
        Wrap::Wrapped,
        Wrap::List,
    ])
}

/// Applies the mutations chosen by `picks` (those whose scopes do not
/// overlap) and checks that the validator reports exactly their errors.
fn check_mutations(
    kind: Kind,
    doc: &Node,
    style: Style,
    wrap: Wrap,
    picks: &[(Index, Index)],
) -> Result<(), TestCaseError> {
    let mut all = Vec::new();
    mutations(doc, &mut Vec::new(), "", None, &mut all);
    prop_assert!(!all.is_empty(), "every document can be broken");
    // The kind of error first, so that rare ones are picked as often as the
    // wrong types that every place offers.
    let mut by_code: BTreeMap<Code, Vec<&Mutation>> = BTreeMap::new();
    for m in &all {
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
    // Deepest and last first, so that removals do not move the others.
    chosen.sort_by(|a, b| b.path.cmp(&a.path));
    let mut broken = doc.clone();
    for m in &chosen {
        apply(&mut broken, &m.path, &m.op);
    }

    let wrap = match (wrap, kind) {
        (Wrap::Wrapped, Kind::Set) | (Wrap::List, Kind::Migration) => wrap,
        (Wrap::Wrapped | Wrap::List, _) => Wrap::Array,
        _ => wrap,
    };
    let mut w = Writer {
        out: String::new(),
        style,
        offsets: None,
    };
    let (prefix, json_lines, line) = match wrap {
        Wrap::Bare => (String::new(), false, None),
        Wrap::Lines => {
            w.style = Style {
                newline: None,
                ..style
            };
            w.node(doc, &mut String::new(), 0);
            w.out.push('\n');
            (String::new(), true, Some(2))
        }
        Wrap::Array => {
            w.out.push('[');
            w.node(doc, &mut String::new(), 0);
            w.out.push_str(",\n");
            ("/1".to_owned(), false, None)
        }
        Wrap::Wrapped => {
            w.out
                .push_str("{\"meta\": {\"date\": \"2024-01-01\"},\n\"data\": ");
            ("/data".to_owned(), false, None)
        }
        Wrap::List => {
            w.out
                .push_str("{\"object\": \"list\", \"next_page\": null, \"data\": [");
            w.node(doc, &mut String::new(), 0);
            w.out.push_str(", ");
            ("/data/1".to_owned(), false, None)
        }
    };
    w.offsets = Some(HashMap::new());
    let mut pointer = prefix.clone();
    w.node(&broken, &mut pointer, 0);
    w.out.push_str(match wrap {
        Wrap::Bare | Wrap::Lines => "",
        Wrap::Array => "]",
        Wrap::Wrapped => "}",
        Wrap::List => "]}",
    });
    let offsets = w.offsets.take().expect("recorded");
    let text = w.out;

    let report = validate(
        text.as_bytes(),
        &Options {
            kind: Some(kind),
            json_lines,
            ..Options::default()
        },
    );
    let mut expected: Vec<(Code, String, usize, Option<String>)> = chosen
        .iter()
        .map(|m| {
            let at = format!("{prefix}{}", m.at);
            let offset = *offsets.get(&at).expect("the place was written");
            (
                m.code,
                format!("{prefix}{}", m.pointer),
                offset,
                m.field.clone(),
            )
        })
        .collect();
    let mut found = Vec::new();
    for document in &report.documents {
        for d in &document.diagnostics {
            prop_assert_eq!(&document.pointer, &prefix, "{}", errors_text(&report));
            prop_assert_eq!(document.kind, Some(kind));
            prop_assert_eq!(document.line, line);
            prop_assert_eq!(d.severity, Severity::Error, "{}", errors_text(&report));
            let (l, c) = line_column(&text, d.offset);
            prop_assert_eq!((d.line, d.column), (l, c), "{}", errors_text(&report));
            found.push((d.code, d.pointer.clone(), d.offset, d.field.clone()));
        }
    }
    expected.sort();
    found.sort();
    prop_assert_eq!(
        &found,
        &expected,
        "\nmutations: {:#?}\nreport:\n{}\ntext:\n{}",
        chosen,
        errors_text(&report),
        text
    );
    Ok(())
}

/// 1-based line and column (in characters) of a byte offset.
/// The 1-based line and column of `offset`; columns count characters, that
/// is the bytes that do not continue a UTF-8 sequence.
fn line_column(text: impl AsRef<[u8]>, offset: usize) -> (usize, usize) {
    let before = &text.as_ref()[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count();
    (line, column)
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn one_mutation_gives_exactly_its_error(
        (kind, doc) in any_document(),
        style in style(),
        wrap in wrap(),
        pick in any::<(Index, Index)>(),
    ) {
        check_mutations(kind, &doc, style, wrap, &[pick])?;
    }

    #[test]
    fn independent_mutations_give_exactly_their_errors(
        (kind, doc) in any_document(),
        style in style(),
        wrap in wrap(),
        picks in prop::collection::vec(any::<(Index, Index)>(), 2..6),
    ) {
        check_mutations(kind, &doc, style, wrap, &picks)?;
    }
}

// ---------------------------------------------------------------------------
// Property 3: no panic, and consistent diagnostics, on any input

/// Every member name of every model, and the containers' words.
fn known_names() -> Vec<&'static str> {
    fn walk(
        ty: &'static Type,
        seen: &mut BTreeSet<&'static str>,
        names: &mut BTreeSet<&'static str>,
    ) {
        let model = |m: &'static ModelDef,
                     seen: &mut BTreeSet<&'static str>,
                     names: &mut BTreeSet<&'static str>| {
            if seen.insert(m.name) {
                for f in m.fields {
                    names.insert(f.name);
                    walk(f.ty, seen, names);
                }
            }
        };
        match ty {
            Type::List { item } => walk(item, seen, names),
            Type::Model { model: m } => model(m(), seen, names),
            Type::Tagged(union) => {
                names.insert(union.tag);
                for &(tag, m) in union.variants {
                    names.insert(tag);
                    model(m(), seen, names);
                }
            }
            Type::AnyOf { types, .. } => {
                for t in *types {
                    walk(t, seen, names);
                }
            }
            Type::Const { value } => {
                names.insert(value);
            }
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    let mut names: BTreeSet<&'static str> = [
        "data",
        "meta",
        "object",
        "list",
        "migration",
        "has_more",
        "next_page",
        "type",
        "children",
        "cards",
        "group",
        "image",
        "text",
    ]
    .into_iter()
    .collect();
    for &kind in Kind::ALL {
        walk(root_type(kind), &mut seen, &mut names);
    }
    names.into_iter().collect()
}

/// Arbitrary JSON (sometimes with a malformed token), with the spec's member
/// names as keys.
fn arbitrary_json() -> BoxedStrategy<Node> {
    let names = known_names();
    let key = prop_oneof![
        4 => prop::sample::select(names.clone()).prop_map(str::to_owned),
        1 => text(),
    ];
    let leaf = prop_oneof![
        1 => Just(J::Null),
        1 => any::<bool>().prop_map(J::Bool),
        2 => number().prop_map(J::Num),
        1 => integer(true).prop_map(J::Num),
        2 => prop::sample::select(names).prop_map(|s| J::Str(s.to_owned())),
        2 => text().prop_map(J::Str),
        1 => uuid().prop_map(J::Str),
        1 => date().prop_map(J::Str),
        1 => prop::sample::select(vec![
            "1e400", "-1e400", "1E-400", "0e99999999999999999999", "123456789012345678901234567890",
            "1.5e+3", "-0.0", "\"\\ud800\"", "\"\\udc00x\"", "\"\\ud83d\\ude00\"", "\"\\u00e9\"",
            "01", "1.", ".5", "+1", "NaN", "tru", "\"\\x\"", "[1,]", "{\"a\":1,}", "\"\t\"",
        ])
        .prop_map(|s| J::Raw(s.to_owned())),
    ];
    leaf.prop_recursive(6, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone().prop_map(free), 0..6).prop_map(J::Arr),
            prop::collection::vec((key.clone(), inner), 0..6).prop_map(|members| J::Obj(
                members
                    .into_iter()
                    .map(|(key, json)| member(&key, free(json)))
                    .collect()
            )),
        ]
    })
    .prop_map(free)
    .boxed()
}

fn all_options() -> Vec<Options> {
    let mut all = Vec::new();
    for json_lines in [false, true] {
        for kind in [
            None,
            Some(Kind::Template),
            Some(Kind::Card),
            Some(Kind::Set),
            Some(Kind::Migration),
        ] {
            all.push(Options {
                kind,
                json_lines,
                ..Options::default()
            });
        }
    }
    all.push(Options {
        deny_unknown_fields: true,
        ..Options::default()
    });
    all
}

/// Whether `serde_json` reads the input (as JSON Lines: every line), or
/// `None` when it cannot say (its recursion limit).
fn serde_reads(input: &[u8], json_lines: bool) -> Option<bool> {
    let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let parse = |bytes: &[u8]| match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(_) => Some(true),
        Err(e) if e.to_string().contains("recursion limit") => None,
        Err(_) => Some(false),
    };
    if !json_lines {
        return parse(input);
    }
    let Ok(text) = std::str::from_utf8(input) else {
        return Some(false);
    };
    let mut any = false;
    let mut verdict = Some(true);
    for line in text.split('\n') {
        // KNOWN: the validator skips lines that are blank by Unicode's
        // definition (`str::trim`), such as a line of U+00A0 or U+2028, where
        // JSON whitespace is only space, tab, CR and LF. Mirror it here.
        if line.trim().is_empty() {
            continue;
        }
        any = true;
        match parse(line.as_bytes()) {
            Some(true) => {}
            Some(false) => return Some(false),
            None => verdict = None,
        }
    }
    if any {
        verdict
    } else {
        Some(false) // an empty input
    }
}

fn check_any_input(input: &[u8]) -> Result<(), TestCaseError> {
    let lines_in_input = 1 + input.iter().filter(|&&b| b == b'\n').count();
    let reads = [serde_reads(input, false), serde_reads(input, true)];
    for options in all_options() {
        let report = validate(input, &options);
        let context = || {
            format!(
                "options {options:?}\ninput {:?}\n{}",
                String::from_utf8_lossy(input),
                errors_text(&report)
            )
        };
        let mut invalid_json = false;
        for document in &report.documents {
            prop_assert!(
                document.pointer.is_empty() || document.pointer.starts_with('/'),
                "{}",
                context()
            );
            match document.line {
                Some(line) => prop_assert!(
                    options.json_lines && (1..=lines_in_input).contains(&line),
                    "{}",
                    context()
                ),
                // Problems outside any line (an empty input).
                None => prop_assert!(
                    !options.json_lines || document.kind.is_none(),
                    "{}",
                    context()
                ),
            }
            for d in &document.diagnostics {
                invalid_json |= d.code == Code::InvalidJson;
                prop_assert!(d.line >= 1 && d.column >= 1, "{}", context());
                prop_assert!(d.offset <= input.len(), "{}", context());
                // Invalid UTF-8 is reported at its first byte; elsewhere an
                // offset is never inside a character.
                let inside = std::str::from_utf8(&input[..d.offset]).is_err_and(|cut| {
                    // The prefix ends in the middle of a character that the
                    // rest completes.
                    let rest = &input[cut.valid_up_to()..];
                    match std::str::from_utf8(rest) {
                        Ok(rest) => !rest.is_empty(),
                        Err(e) => e.valid_up_to() > 0,
                    }
                });
                prop_assert!(!inside, "offset inside a character: {}", context());
                prop_assert_eq!(
                    (d.line, d.column),
                    line_column(input, d.offset),
                    "{}",
                    context()
                );
                prop_assert!(
                    d.pointer.is_empty() || d.pointer.starts_with('/'),
                    "{}",
                    context()
                );
                let bad_escape = d
                    .pointer
                    .split('~')
                    .skip(1)
                    .any(|s| !s.starts_with('0') && !s.starts_with('1'));
                prop_assert!(!bad_escape, "{}", context());
                let severity = if options.deny_unknown_fields && d.code == Code::UnknownField {
                    Severity::Error
                } else {
                    d.code.default_severity()
                };
                prop_assert_eq!(d.severity, severity, "{}", context());
                prop_assert!(!d.message.is_empty());
            }
        }
        // KNOWN: as JSON Lines, an input whose lines hold only empty
        // containers (`[]`, `{"object": "list", "data": []}`) finds no
        // document and reports `invalid_json` "empty input", though every
        // line is well-formed.
        let no_document_lines = options.json_lines
            && report.documents.iter().all(|d| {
                d.kind.is_none()
                    && d.diagnostics.iter().all(|x| {
                        x.code == Code::InvalidJson && x.message.starts_with("empty input")
                    })
            })
            && input.iter().any(|b| !b.is_ascii_whitespace());
        if let Some(reads) = reads[usize::from(options.json_lines)].filter(|_| !no_document_lines) {
            prop_assert_eq!(
                !invalid_json,
                reads,
                "invalid_json reported exactly when serde_json refuses the text\n{}",
                context()
            );
        }
    }
    Ok(())
}

/// Byte edits of a text: (position, byte, what to do).
fn edit(text: &str, edits: &[(Index, u8, u8)]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    const INTERESTING: &[u8] = b"{}[]\":,\\ \n0-.e";
    for (at, byte, op) in edits {
        let i = at.index(bytes.len() + 1);
        match op % 4 {
            0 if i < bytes.len() => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, INTERESTING[*byte as usize % INTERESTING.len()]),
            2 => bytes.insert(i, *byte),
            _ if i < bytes.len() => bytes[i] = INTERESTING[*byte as usize % INTERESTING.len()],
            _ => bytes.push(*byte),
        }
    }
    bytes
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn no_panic_on_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..512)) {
        check_any_input(&input)?;
    }

    #[test]
    fn no_panic_on_arbitrary_json(
        values in prop::collection::vec(arbitrary_json(), 1..3),
        style in style(),
        bom in prop::bool::weighted(0.05),
    ) {
        let mut text = String::from(if bom { "\u{feff}" } else { "" });
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(&write(value, style));
        }
        check_any_input(text.as_bytes())?;
    }

}

proptest! {
    // Each case validates a whole document eleven times.
    #![proptest_config(config(128, 2))]

    #[test]
    fn no_panic_on_edited_documents(
        (_, doc) in any_document(),
        style in style(),
        edits in prop::collection::vec((any::<Index>(), any::<u8>(), any::<u8>()), 1..4),
    ) {
        check_any_input(&edit(&write(&doc, style), &edits))?;
    }
}

proptest! {
    // Each case validates many truncations.
    #![proptest_config(config(64, 4))]

    #[test]
    fn no_panic_on_truncated_documents(
        (_, doc) in any_document(),
        style in line_style(),
        cuts in prop::collection::vec(any::<Index>(), 12),
    ) {
        let text = write(&doc, style);
        let bytes = text.as_bytes();
        // Every position of small documents, a sample of large ones.
        let positions: BTreeSet<usize> = if bytes.len() <= 160 {
            (0..=bytes.len()).collect()
        } else {
            cuts.iter().map(|c| c.index(bytes.len() + 1)).collect()
        };
        for end in positions {
            check_any_input(&bytes[..end])?;
        }
    }
}

/// The valid examples, truncated at every position.
#[test]
fn no_panic_on_examples_truncated_at_every_position() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/valid");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIPPED: no examples at {}", dir.display());
        return;
    };
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if let Ok(bytes) = std::fs::read(&path) {
            files.insert(path.display().to_string(), bytes);
        }
    }
    for (name, bytes) in files {
        // Every position in long runs; by default (debug builds, CI) every
        // position of the first 256 bytes and of the last 32, and every 61st
        // between.
        let long = std::env::var_os("CARDKIT_PROPTEST_CASES").is_some();
        let len = bytes.len();
        let step = |end: usize| {
            if long || end < 256 || end + 32 >= len {
                1
            } else {
                61
            }
        };
        let mut end = 0;
        while end <= bytes.len() {
            if let Err(e) = check_any_input(&bytes[..end]) {
                panic!("{name} cut at {end}: {e}");
            }
            end += step(end);
        }
    }
}
