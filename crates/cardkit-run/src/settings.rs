//! What a user asks of a validation, whatever the door: the command line's
//! flags, the service's query parameters, the page's controls and a
//! configuration file all come to [`Settings`], and [`Settings::options`] is
//! the one mapping to the validator's [`Options`].

use cardkit::diagnostic::Severity;
use cardkit::model::Kind;
use cardkit::report::WarningFilter;
use cardkit::schema::Names;
use cardkit::schema::Version;
use cardkit::validate::{Filter, Options};

use crate::options::{Setting, Surface};

/// The validation settings every command that validates takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The kind of every document; `None` (`auto`) tells each document's
    /// kind from its members.
    pub kind: Option<Kind>,
    /// Validate as consumers of this version of the Set format see a
    /// document: newer fields are `newer_field`, and not required.
    pub as_of: Option<Version>,
    /// Check each file as of the version its `meta.version` declares
    /// (`--as-of auto`, the default); `as_of` is then unused.
    pub as_of_auto: bool,
    /// With `as_of`, newer fields are errors instead of warnings.
    pub strict_version: bool,
    /// Members the spec does not define are errors instead of warnings.
    pub deny_unknown_fields: bool,
    /// Deprecated fields present are reported (`deprecated_field`).
    pub warn_deprecated: bool,
    /// How many warnings of each kind (same code and field) are shown
    /// before the rest are only counted; `0` shows all.
    pub warning_limit: usize,
    /// How many errors of each kind are shown before the rest are only
    /// counted; `0` shows all. `None`: the format's own default (10 in text,
    /// every error in the machine formats).
    pub error_limit: Option<usize>,
    /// Diagnostics ignored and members allowed by a configuration file.
    pub filter: Option<&'static Filter>,
    /// The wire names documents use (`--names`): each document's own (the
    /// default), the spec's or the publishers'.
    pub names: Names,
    /// The references between documents are checked, with findings of
    /// this severity (`--references`); `None`: they are not.
    pub references: Option<Severity>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            kind: None,
            as_of: None,
            as_of_auto: true,
            strict_version: false,
            deny_unknown_fields: false,
            warn_deprecated: false,
            warning_limit: WarningFilter::DEFAULT_LIMIT,
            error_limit: None,
            filter: None,
            names: Names::Auto,
            references: None,
        }
    }
}

impl Settings {
    /// The settings that check against the spec itself (`--strict`): its
    /// names and its latest version, whatever a file uses or declares.
    #[must_use]
    pub fn strict(self) -> Settings {
        Settings {
            as_of: None,
            as_of_auto: false,
            names: Names::Spec,
            ..self
        }
    }

    /// What the settings ask that cannot be done together.
    ///
    /// # Errors
    /// Why, naming the settings as `surface` names them (`--strict-version
    /// needs --as-of` on the command line, `strict_version needs as_of` in
    /// Python).
    pub fn check(&self, surface: Surface) -> Result<(), String> {
        if self.strict_version && self.as_of.is_none() && !self.as_of_auto {
            return Err(format!(
                "{} needs {}: it makes fields newer than that version errors",
                Setting::StrictVersion.named(surface),
                Setting::AsOf.named(surface),
            ));
        }
        Ok(())
    }

    /// The validator's options for an input (`json_lines`: it is JSON
    /// Lines).
    #[must_use]
    pub fn options(&self, json_lines: bool) -> Options {
        Options {
            kind: self.kind,
            deny_unknown_fields: self.deny_unknown_fields,
            json_lines,
            as_of: self.as_of,
            strict_version: self.strict_version,
            warn_deprecated: self.warn_deprecated,
            filter: self.filter,
            names: self.names,
            // The run's format decides what it shows.
            warnings_shown: None,
        }
    }

    /// The filter of repeated diagnostics the settings ask for, for a
    /// report read by machines: every error unless a limit was asked.
    #[must_use]
    pub fn warning_filter(&self) -> WarningFilter {
        let filter = WarningFilter::new(all_if_zero(self.warning_limit));
        match self.error_limit {
            Some(limit) => filter.with_error_limit(all_if_zero(limit)),
            None => filter,
        }
    }

    /// The filter for a report read by people (text): errors folded past
    /// [`WarningFilter::DEFAULT_ERROR_LIMIT`] of a kind unless another limit
    /// was asked.
    #[must_use]
    pub fn text_filter(&self) -> WarningFilter {
        let errors = self
            .error_limit
            .unwrap_or(WarningFilter::DEFAULT_ERROR_LIMIT);
        WarningFilter::new(all_if_zero(self.warning_limit)).with_error_limit(all_if_zero(errors))
    }
}

/// A limit as the options give it: `0` for no limit.
fn all_if_zero(limit: usize) -> usize {
    if limit == 0 {
        usize::MAX
    } else {
        limit
    }
}
