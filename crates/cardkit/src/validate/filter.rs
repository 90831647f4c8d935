//! What a configuration leaves out of reports: diagnostics ignored (by code,
//! by `Model.field`, by JSON Pointer glob) and members allowed beyond the
//! spec (`extend-allowed`). Compiled once, and reached by the validator
//! through [`Options::filter`](super::Options::filter) where it records each
//! diagnostic, so that every door (validate, export, diff, the service)
//! leaves out the same ones.

use std::sync::{Mutex, PoisonError};

use cardkit_json::pointer::Pattern;

use crate::diagnostic::Code;
use crate::model::Kind;
use crate::schema::{words::nearest_name, ModelDef};

/// Diagnostics to ignore and members to allow, compiled.
///
/// The validator's [`Options`](super::Options) are `Copy` and handed to
/// every worker thread; a filter reaches them as a `&'static Filter`
/// ([`Filter::into_static`]), a pointer that costs nothing to copy, and
/// nothing at all to the validator when there is none. Equal filters share
/// one allocation, so a process that reads its configuration again holds
/// each distinct filter once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Bit `code.index()` is set for each code ignored.
    codes: u32,
    /// `Model.field` names ignored, sorted.
    fields: Vec<String>,
    /// JSON Pointer globs ignored.
    pointers: Vec<Pattern>,
    /// `Model.member` names allowed, sorted.
    allowed: Vec<String>,
    /// Where the filter comes from, as reports name it (`cardkit.toml`).
    source: String,
}

impl Filter {
    /// An empty filter from `source` (a file's name, for the summary).
    #[must_use]
    pub fn new(source: impl Into<String>) -> Self {
        Filter {
            source: source.into(),
            ..Filter::default()
        }
    }

    /// Ignores diagnostics matching `entry`: a code (`unknown_field`), a
    /// `Model.field` as reports give it (`CardSet.hasFoil`), or a JSON
    /// Pointer glob (`/cards/*/purchaseUrls`, `/**/purchaseUrls`) matched
    /// from the document's root and from the file's.
    ///
    /// # Errors
    /// Why `entry` is none of these, with the nearest code or model when
    /// one is close.
    pub fn ignore(&mut self, entry: &str) -> Result<(), String> {
        if entry.starts_with('/') {
            self.pointers
                .push(Pattern::parse(entry).map_err(|e| format!("`{entry}`: {e}"))?);
        } else if entry.contains('.') {
            model_field(entry)?;
            insert_sorted(&mut self.fields, entry);
        } else {
            let code = entry.parse::<Code>().map_err(|_| {
                let near = nearest_name(Code::ALL.iter().map(|c| c.as_str()), entry);
                format!(
                    "`{entry}` is no diagnostic code{}; an entry is a code, a Model.field or a JSON Pointer starting with /",
                    near.map_or(String::new(), |near| format!(": did you mean {near}?"))
                )
            })?;
            if !Filter::may_ignore(code) {
                return Err(format!(
                    "`{entry}` cannot be ignored: an input that is not JSON was not checked at all, so ignoring it would pass a file nothing was checked in; leave the file out with `exclude` instead"
                ));
            }
            self.codes |= 1 << code.index();
        }
        Ok(())
    }

    /// Whether diagnostics of `code` may be ignored, by code or by place:
    /// not `invalid_json`, which says that an input (or a line of one) was
    /// not checked at all. Ignored, it would count a file that is no JSON
    /// as passing.
    #[must_use]
    pub fn may_ignore(code: Code) -> bool {
        code != Code::InvalidJson
    }

    /// Allows the member `entry` (`Legalities.alchemy`): no `unknown_field`
    /// for it, even when unknown fields are errors.
    ///
    /// # Errors
    /// `entry` is not `Model.member`, names no model (the nearest is
    /// suggested), or names a field the model already has.
    pub fn allow(&mut self, entry: &str) -> Result<(), String> {
        let (model, member) = model_field(entry)?;
        if model.field(member).is_some() {
            return Err(format!(
                "`{entry}`: {member} is already a field of {}",
                model.name
            ));
        }
        insert_sorted(&mut self.allowed, entry);
        Ok(())
    }

    /// Whether it leaves nothing out.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.codes == 0
            && self.fields.is_empty()
            && self.pointers.is_empty()
            && self.allowed.is_empty()
    }

    /// Where it comes from, as reports name it.
    #[must_use]
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The filter for the validator's options, kept for the rest of the
    /// process; equal filters share one allocation (see [`Filter`]).
    #[must_use]
    pub fn into_static(self) -> &'static Filter {
        static KEPT: Mutex<Vec<&'static Filter>> = Mutex::new(Vec::new());
        let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&same) = kept.iter().find(|kept| ***kept == self) {
            return same;
        }
        let leaked: &'static Filter = Box::leak(Box::new(self));
        kept.push(leaked);
        leaked
    }

    /// Whether every diagnostic of `code` is ignored.
    #[inline]
    pub(crate) fn ignores_code(&self, code: Code) -> bool {
        self.codes & (1 << code.index()) != 0
    }

    /// Whether a diagnostic's place decides: fields or pointers are ignored.
    #[inline]
    pub(crate) fn by_place(&self) -> bool {
        !self.fields.is_empty() || !self.pointers.is_empty()
    }

    /// Whether a diagnostic at `pointer` (from the file's root; the document
    /// starts at `within`) about `field` is ignored.
    pub(crate) fn ignores_at(&self, pointer: &str, within: usize, field: Option<&str>) -> bool {
        if let Some(field) = field {
            if self
                .fields
                .binary_search_by(|f| f.as_str().cmp(field))
                .is_ok()
            {
                return true;
            }
        }
        let in_document = pointer.get(within..).unwrap_or(pointer);
        self.pointers.iter().any(|glob| {
            glob.matches_pointer(in_document) || (within > 0 && glob.matches_pointer(pointer))
        })
    }

    /// Whether the member `name` of `model` is allowed.
    pub(crate) fn allows(&self, model: &str, name: &str) -> bool {
        !self.allowed.is_empty()
            && self
                .allowed
                .binary_search_by(|allowed| {
                    let (m, n) = allowed.split_once('.').unwrap_or((allowed, ""));
                    m.cmp(model).then_with(|| n.cmp(name))
                })
                .is_ok()
    }
}

fn insert_sorted(names: &mut Vec<String>, name: &str) {
    if let Err(at) = names.binary_search_by(|n| n.as_str().cmp(name)) {
        names.insert(at, name.to_owned());
    }
}

/// `Model.field` read: the model (known) and the field's name.
fn model_field(entry: &str) -> Result<(&'static ModelDef, &str), String> {
    let (model, field) = entry.split_once('.').unwrap_or((entry, ""));
    if model.is_empty() || field.is_empty() {
        return Err(format!(
            "`{entry}` is not Model.field (such as CardSet.hasFoil)"
        ));
    }
    let models = Kind::every_model();
    match models.iter().find(|m| m.name == model) {
        Some(found) => Ok((found, field)),
        None => {
            let near = nearest_name(models.iter().map(|m| m.name), model);
            Err(format!(
                "`{entry}`: {model} is no model{}",
                near.map_or(String::new(), |near| format!(": did you mean {near}?"))
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_entries_are_checked() {
        let mut filter = Filter::new("t");
        let why = filter.ignore("/a~2").unwrap_err();
        assert_eq!(
            why,
            "`/a~2`: `~` in a JSON Pointer is `~0` or `~1` (for `~` and `/`)"
        );
        filter.ignore("/**/a~1b").unwrap();
        assert!(filter.ignores_at("/cards/0/a~1b", 0, None));
    }

    #[test]
    fn pointers_match_from_the_document_and_from_the_file() {
        let mut filter = Filter::new("t");
        filter.ignore("/cards/*/purchaseUrls").unwrap();
        assert!(filter.ignores_at("/data/A/cards/0/purchaseUrls", 7, None));
        let mut filter = Filter::new("t");
        filter.ignore("/data/*/cards/*/purchaseUrls").unwrap();
        assert!(filter.ignores_at("/data/A/cards/0/purchaseUrls", 7, None));
        assert!(!filter.ignores_at("/cards/0/purchaseUrls", 0, None));
    }

    #[test]
    fn entries_are_checked_with_suggestions() {
        let mut filter = Filter::new("t");
        filter.ignore("unknown_field").unwrap();
        filter.ignore("CardSet.hasFoil").unwrap();
        assert!(filter.ignores_code(Code::UnknownField));
        assert!(filter.ignores_at("/x", 0, Some("CardSet.hasFoil")));
        let why = filter.ignore("unknown_fields").unwrap_err();
        assert!(why.contains("did you mean unknown_field?"), "{why}");
        let why = filter.ignore("CardSte.hasFoil").unwrap_err();
        assert!(why.contains("did you mean CardSet?"), "{why}");
        filter.allow("Legalities.alchemy").unwrap();
        assert!(filter.allows("Legalities", "alchemy"));
        assert!(!filter.allows("Legalities", "brawl"));
        assert!(filter.allow("Legalities.commander").is_err());
    }

    #[test]
    fn equal_filters_are_kept_once() {
        let mut a = Filter::new("same");
        a.ignore("duplicate_key").unwrap();
        let b = a.clone();
        assert!(std::ptr::eq(a.into_static(), b.into_static()));
    }
}
