//! Objects: a model's members, tagged unions and plain unions.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

use crate::diagnostic::{Code, Detail};
use crate::schema::words::nearest_field;
use crate::schema::{FieldDef, ModelDef, TaggedUnion, Type};
use crate::table::names::WireNames;
use crate::table::Names;
use cardkit_json::DuplicateKeys;

use super::super::findings::Added;
use super::super::tape::Step;
use super::checker::{Checker, Flow, Site};
use super::tags::Lookup;

impl Checker<'_> {
    /// At `{`: validates an object against a model. `tag` names a member the
    /// enclosing union has already checked.
    pub(crate) fn object(&mut self, model: &'static ModelDef, tag: Option<&'static str>) -> Flow {
        let start = self.pos();
        let mut seen = Seen::default();
        let mut others = DuplicateKeys::default();
        // Unknown members whose `unknown_field` was only counted.
        let mut counted_unknown: HashSet<Cow<'_, str>> = HashSet::new();
        let mut earlier = EarlierValues::default();
        // The publishers' names, when documents use them (or may) and this
        // model has some; `None` (the spec's names) costs nothing more.
        let names = self.names.of(model);
        if self.names == Names::Auto {
            if let Some(names) = names.filter(|names| names.has_weak()) {
                self.decide_names_ahead(names);
            }
        }
        self.step(|_| Step::Open);
        let tape_fields = self.tape_fields(model);
        // Not `tape_fields != 0`: an object on the tape whose model holds no
        // link still has its fields read with the tape stopped.
        let on_tape = self.recording();
        self.members(|c, key, key_at| {
            let mut found = if key.escaped() {
                model.field(&c.read.scan.decode(key))
            } else {
                model.field_at(c.read.scan.bytes, key.start, key.end)
            };
            if let Some(names) = names {
                found = read_name(&mut c.names, model, names, found, || {
                    if key.escaped() {
                        Cow::Owned(c.read.scan.decode(key).into_owned().into_bytes())
                    } else {
                        Cow::Borrowed(&c.read.scan.bytes[key.start..key.end])
                    }
                });
            }
            if let Some((index, field)) = found {
                let wire = c.wire_name(names, index, field);
                // On the tape, the member's value is invalid if any error is
                // found about it: its key given again, too new, or inside.
                let errors =
                    (on_tape && tape_fields >> index & 1 != 0).then(|| c.found.errors_found());
                if seen.insert(index) {
                    earlier.discard(c, wire);
                    c.duplicate_key(key_at, wire, Some(label(model, wire)));
                }
                let newer = c.version_checks(model, field, wire, key_at);
                let from = c.found.out.len();
                let site = Site {
                    model: model.name,
                    field: wire,
                };
                // Inside a field its consumers do not know, the fields of its
                // value are not news of their own.
                let outer = c.inside_newer;
                c.inside_newer |= newer;
                let flow = if on_tape {
                    // A model has fewer than 128 fields (`Seen`).
                    c.value_on_tape(field, index as u32, errors.is_some(), site)
                } else {
                    c.value(field.ty, field.nullable, site)
                };
                c.inside_newer = outer;
                flow?;
                if let Some(errors) = errors {
                    let invalid = c.found.errors_found() > errors;
                    c.step(|end| Step::End { end, invalid });
                }
                earlier.record(c, Cow::Borrowed(wire), from);
                return Ok(());
            }
            let name = c.read.scan.decode(key);
            if !others.insert(name.clone()) {
                earlier.discard(c, &name);
                // Its `unknown_field`, when only counted (past the bound),
                // goes with it too: the member is unknown once.
                if counted_unknown.remove(&name) {
                    c.found.uncount(Code::UnknownField);
                }
                c.duplicate_key(key_at, &name, None);
            }
            // The member's diagnostics, its `unknown_field` among them, go
            // with its value when a later one replaces it.
            let from = c.found.out.len();
            // A configuration's `extend-allowed` members are known extras.
            let allowed = c
                .options
                .filter
                .is_some_and(|f| f.allows(model.name, &name));
            if tag != Some(name.as_ref()) && !allowed {
                // The nearest known name costs more than reading the member:
                // it is looked for only when the report is kept.
                let field = unknown_label(&name);
                let kept = c.keeps_field(Code::UnknownField, model.name, &field);
                let detail = Detail::UnknownField {
                    model: model.name,
                    name: if kept {
                        crate::diagnostic::quote::name(&name)
                    } else {
                        String::new()
                    },
                    suggestion: if kept {
                        nearest_field(model, &name, c.names.written())
                    } else {
                        None
                    },
                };
                if let Added::Counted = c.report_field(detail, key_at, None, model.name, &field) {
                    counted_unknown.insert(name.clone());
                }
            }
            c.skip_value()?;
            earlier.record(c, name, from);
            Ok(())
        })?;
        self.step(|_| Step::Close);
        let required = self.required(model);
        let seen = seen.mask();
        if seen & required != required {
            for (index, field) in model.fields.iter().enumerate() {
                if required & !seen & (1u128 << index) != 0 {
                    let wire = self.wire_name(names, index, field);
                    let detail = Detail::MissingField {
                        model: model.name,
                        field: wire,
                    };
                    self.report_field(detail, start, Some(wire), model.name, wire);
                }
            }
        }
        Ok(())
    }

    /// At `{` of an object whose model has renamings that tell less than
    /// others (a migration's `performed_at`, which comes before its catalog
    /// ids): its names are told by a look-ahead for the others, so that
    /// the weaker, read first, does not decide.
    fn decide_names_ahead(&mut self, names: &'static WireNames) {
        for (spec, upstream) in names.strong() {
            if matches!(self.look_ahead(spec), Lookup::Found(_)) {
                self.names = Names::Spec;
                return;
            }
            if matches!(self.look_ahead(upstream), Lookup::Found(_)) {
                self.names = Names::Upstream;
                return;
            }
        }
    }

    /// The wire name of `model`'s field at `index`, as the document names
    /// it (`names`: the model's publishers' names, when it has some).
    #[inline]
    fn wire_name(
        &self,
        names: Option<&'static WireNames>,
        index: usize,
        field: &'static FieldDef,
    ) -> &'static str {
        match names {
            Some(names) if self.names == Names::Upstream => names.names[index],
            _ => field.name,
        }
    }

    /// The fields of `model` that must be present: with `as_of`, those
    /// introduced after that version are not required yet.
    fn required(&mut self, model: &'static ModelDef) -> u128 {
        let Some(as_of) = self.as_of else {
            return model.required;
        };
        // Worked out once per model and document, not once per object.
        if let Some(&(_, mask)) = self
            .required_as_of
            .iter()
            .find(|(known, _)| std::ptr::eq(*known, model))
        {
            return mask;
        }
        let mask = model
            .fields
            .iter()
            .enumerate()
            .filter(|(_, field)| field.since.is_some_and(|since| since > as_of))
            .fold(model.required, |mask, (index, _)| mask & !(1u128 << index));
        self.required_as_of.push((model, mask));
        mask
    }

    /// The version-aware warnings about a present field: introduced after
    /// `as_of`, or deprecated (when asked for). Whether it is newer than
    /// `as_of`.
    #[inline]
    fn version_checks(
        &mut self,
        model: &ModelDef,
        field: &FieldDef,
        wire: &'static str,
        key_at: usize,
    ) -> bool {
        if self.as_of.is_none() && !self.options.warn_deprecated {
            return false;
        }
        let mut newer = false;
        if let (Some(as_of), Some(since)) = (self.as_of, field.since) {
            newer = since > as_of;
            if newer && !self.inside_newer {
                let detail = Detail::NewerField {
                    model: model.name,
                    field: wire,
                    since,
                    as_of,
                };
                self.report_field(detail, key_at, None, model.name, wire);
            }
        }
        if self.options.warn_deprecated && field.deprecated {
            let detail = Detail::DeprecatedField {
                model: model.name,
                field: wire,
            };
            self.report_field(detail, key_at, None, model.name, wire);
        }
        newer
    }

    /// At `{`: the member `name` of the object at the cursor, read ahead.
    fn look_ahead(&mut self, name: &'static str) -> Lookup {
        let at = self.pos();
        self.tags.lookup(self.read.scan.bytes, at, name)
    }

    /// At `{`: validates an object of a tagged union.
    pub(crate) fn tagged(&mut self, union: &'static TaggedUnion) -> Flow {
        let start = self.pos();
        let tag_label = || Some(format!("{}.{}", union.name, union.tag));
        let model = match self.look_ahead(union.tag) {
            Lookup::Malformed => return self.skip_value(),
            Lookup::Absent if union.tag_optional => union.variants[0].1(),
            Lookup::Absent => {
                let detail = Detail::MissingTag { union };
                self.report(detail, start, Some(union.tag), tag_label());
                return self.skip_value();
            }
            Lookup::Found(at) => {
                let value = cardkit_json::Scanner::new(self.read.scan.bytes, at).string_here();
                match value.as_deref().and_then(|tag| union.variant(tag)) {
                    Some(model) => model,
                    // A union of one shape (the card's top group): its tag is
                    // a constant, and the rest is still that shape.
                    None if union.variants.len() == 1 => {
                        let (tag, model) = union.variants[0];
                        let found = self.found_at(at);
                        let detail = Detail::Constant {
                            expected: tag,
                            found,
                        };
                        self.report(detail, at, Some(union.tag), tag_label());
                        model()
                    }
                    None => {
                        let found = self.found_at(at);
                        let detail = Detail::UnknownTag { union, found };
                        self.report(detail, at, Some(union.tag), tag_label());
                        return self.skip_value();
                    }
                }
            }
        };
        self.enter(|c| c.object(model, Some(union.tag)))
    }

    /// Validates a value of a plain union: by JSON type where that decides,
    /// else by the constant member the object shapes carry.
    pub(crate) fn any_of(
        &mut self,
        ty: &'static Type,
        types: &'static [&'static Type],
        site: Site,
    ) -> Flow {
        let at = self.pos();
        let first = self.read.scan.peek().unwrap_or(b' ');
        let mut fitting = types.iter().copied().filter(|t| accepts(t, first));
        let (Some(only), None) = (fitting.next(), fitting.next()) else {
            if types.iter().any(|t| accepts(t, first)) {
                return self.by_constant(ty, types, site);
            }
            return self.wrong_type(at, ty, site);
        };
        self.value(only, false, site)
    }

    /// At `{`: picks the shape of a plain union whose constant member (such as
    /// a filter's `type`) matches, or reports that none does.
    fn by_constant(
        &mut self,
        ty: &'static Type,
        types: &'static [&'static Type],
        site: Site,
    ) -> Flow {
        let at = self.pos();
        let shapes = types.iter().filter_map(|t| match t {
            Type::Model { model } => {
                let model = model();
                model.fields.iter().find_map(|f| match f.ty {
                    Type::Const { value } => Some((model, f.name, *value)),
                    _ => None,
                })
            }
            _ => None,
        });
        let shapes: Vec<_> = shapes.collect();
        let Some(&(_, member, _)) = shapes.first() else {
            return self.wrong_type(at, ty, site);
        };
        let found = match self.look_ahead(member) {
            Lookup::Malformed => return self.skip_value(),
            Lookup::Absent => None,
            Lookup::Found(value_at) => Some(value_at),
        };
        let bytes = self.read.scan.bytes;
        let tag =
            found.and_then(|value_at| cardkit_json::Scanner::new(bytes, value_at).string_here());
        if let Some(&(model, ..)) = shapes
            .iter()
            .find(|(_, _, value)| Some(*value) == tag.as_deref())
        {
            return self.enter(|c| c.object(model, None));
        }
        let detail = Detail::NoMatchingShape {
            shapes: shapes.iter().map(|(m, _, v)| (m.name, *v)).collect(),
            member,
            found: found.map(|value_at| self.found_at(value_at)),
        };
        self.report(detail, at, None, site.label());
        self.skip_value()
    }
}

/// The fields of a model met so far in an object, by index (a model has
/// fewer than 128): two words, not a `u128`, whose shift by a variable
/// costs several instructions more for every member.
#[derive(Default)]
struct Seen([u64; 2]);

impl Seen {
    /// Notes the field at `index`; whether it was met before.
    #[inline]
    fn insert(&mut self, index: usize) -> bool {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let before = self.0[word] & bit != 0;
        self.0[word] |= bit;
        before
    }

    /// The fields met, as a mask of the model's field indices.
    fn mask(&self) -> u128 {
        u128::from(self.0[0]) | u128::from(self.0[1]) << 64
    }
}

/// The diagnostics of member values read so far in one object, so that when
/// a key comes again the earlier value, which the later one replaces, takes
/// its diagnostics with it. Empty (no allocation) while nothing is wrong.
#[derive(Default)]
struct EarlierValues<'a> {
    /// Key and range in the findings of each value that had diagnostics.
    spans: Vec<(Cow<'a, str>, Range<usize>)>,
}

impl<'a> EarlierValues<'a> {
    /// Notes the diagnostics recorded since `from` as those of `key`'s value.
    #[inline]
    fn record(&mut self, c: &Checker<'_>, key: Cow<'a, str>, from: usize) {
        if c.found.out.len() > from {
            self.spans.push((key, from..c.found.out.len()));
        }
    }

    /// Drops the diagnostics of the earlier value of `key`.
    fn discard(&mut self, c: &mut Checker<'_>, key: &str) {
        let Some(i) = self.spans.iter().position(|(k, _)| k == key) else {
            return;
        };
        let (_, range) = self.spans.remove(i);
        let removed = range.len();
        c.found.discard(range.clone());
        for (_, later) in &mut self.spans[i..] {
            *later = later.start - removed..later.end - removed;
        }
    }
}

/// Whether a value starting with `first` has the JSON type of `ty`.
fn accepts(ty: &Type, first: u8) -> bool {
    match ty {
        Type::String { .. } | Type::Const { .. } | Type::Enum { .. } => first == b'"',
        Type::Integer | Type::Number => matches!(first, b'-' | b'0'..=b'9'),
        Type::Boolean => matches!(first, b't' | b'f'),
        Type::List { .. } => first == b'[',
        Type::FreeObject | Type::Model { .. } | Type::Tagged(_) => first == b'{',
        Type::AnyOf { types, .. } => types.iter().any(|t| accepts(t, first)),
    }
}

/// A field's `Model.field` label, under the name the document uses.
fn label(model: &ModelDef, wire: &str) -> String {
    format!("{}.{}", model.name, wire)
}

/// An unknown member's name as it stands in a `Model.field` label: cut when
/// long, so a huge key is not copied into every report of it.
fn unknown_label(name: &str) -> Cow<'_, str> {
    const LONGEST: usize = 64;
    if name.len() <= LONGEST {
        return Cow::Borrowed(name);
    }
    let mut end = LONGEST;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &name[..end]))
}

/// The field a member is, given what the spec's names found for it
/// (`found`) and its name (read only when they found nothing), under the
/// names the document is read under (`read_under`): under [`Names::Auto`],
/// the first member that one of the names has and the other has not decides
/// for the rest of the document. Members read before it read alike under
/// both, so the document is read under one name per field.
#[inline]
fn read_name<'n>(
    read_under: &mut Names,
    model: &'static ModelDef,
    names: &'static WireNames,
    found: Option<(usize, &'static FieldDef)>,
    name: impl FnOnce() -> Cow<'n, [u8]>,
) -> Option<(usize, &'static FieldDef)> {
    match *read_under {
        Names::Spec => found,
        Names::Upstream => names.resolve(model, found, name),
        Names::Auto => match found {
            Some((index, _)) => {
                if names.renames(index) {
                    *read_under = Names::Spec;
                }
                found
            }
            None => {
                let upstream = names.resolve(model, None, name);
                if upstream.is_some() {
                    *read_under = Names::Upstream;
                }
                upstream
            }
        },
    }
}
