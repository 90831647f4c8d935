//! What a file's documents tell of the option that would read the file as
//! it declares itself, counted as its documents come (see [`WayOutCounts`]).

use std::collections::HashMap;

use super::declared::since;
use super::options::{Setting, Surface};
use cardkit::diagnostic::{Detail, Severity};
use cardkit::model::Kind;
use cardkit::report::{DocumentReport, WayOut};
use cardkit::schema::{names, Version};

/// The members of a file read as unknown under the spec's names that are
/// the publishers' names of fields (`keyruneCode`): how many, and the first
/// few names.
#[derive(Default)]
pub(crate) struct UpstreamNamed {
    pub(crate) members: usize,
    pub(crate) names: Vec<&'static str>,
}

impl UpstreamNamed {
    /// How many names are given as examples.
    const EXAMPLES: usize = 3;

    pub(crate) fn count(&mut self, document: &DocumentReport) {
        for diagnostic in &document.diagnostics {
            // The validator suggests the spec's name for a publishers' name:
            // only members with a suggestion are looked up.
            let Detail::UnknownField {
                model,
                name,
                suggestion: Some(suggestion),
            } = &diagnostic.detail
            else {
                continue;
            };
            let Some(rename) = names::renamed_from(model, name) else {
                continue;
            };
            if rename.spec != *suggestion {
                continue;
            }
            self.members += 1;
            if self.names.len() < Self::EXAMPLES && !self.names.contains(&rename.upstream) {
                self.names.push(rename.upstream);
            }
        }
    }
}

/// What a file's documents tell of an option that would read it as it
/// declares itself: members that are the publishers' names read under the
/// spec's, errors of fields newer than the version it declares.
pub(crate) struct WayOutCounts {
    pub(crate) surface: Surface,
    /// The version the file declares, when it is checked as of a later one.
    pub(crate) declared_before: Option<Version>,
    pub(crate) upstream: UpstreamNamed,
    /// The spec's names were asked for.
    pub(crate) spec_names: bool,
    /// Errors of fields introduced after `declared_before`.
    pub(crate) later: usize,
    /// Each field's version tag, looked up once per kind and field.
    pub(crate) tags: HashMap<Kind, HashMap<String, Option<Version>>>,
}

impl WayOutCounts {
    pub(crate) fn count(&mut self, document: &DocumentReport) {
        if self.spec_names {
            self.upstream.count(document);
        }
        let (Some(version), Some(kind)) = (self.declared_before, document.kind) else {
            return;
        };
        let tags = &mut self.tags;
        self.later += document
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .filter_map(|d| d.field.as_deref())
            .filter(|field| {
                let of_kind = tags.entry(kind).or_default();
                // Looked up by `&str`: a String is made once per field.
                let tag = match of_kind.get(*field) {
                    Some(&tag) => tag,
                    None => *of_kind
                        .entry((*field).to_owned())
                        .or_insert_with(|| since(kind, field)),
                };
                tag.is_some_and(|since| since > version)
            })
            .count();
    }

    /// The option that would change the verdict, when there is one: the
    /// names first (a file read under the wrong names has errors of every
    /// renamed field, whatever the version).
    pub(crate) fn way_out(&self) -> Option<WayOut> {
        if self.upstream.members > 0 {
            return Some(Setting::Names.way_out(
                "auto",
                self.surface,
                format!(
                    "{} of its members are the publishers' names of the spec's fields ({}{}), read under the spec's names as unknown",
                    self.upstream.members,
                    self.upstream.names.join(", "),
                    if self.upstream.members > self.upstream.names.len() {
                        ", …"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let version = self.declared_before?;
        (self.later > 0).then(|| {
            Setting::AsOf.way_out(
                "auto",
                self.surface,
                format!(
                    "it declares version {version}; {} of its errors are of fields introduced after it",
                    self.later
                ),
            )
        })
    }
}
