//! The keyword arguments of a validation, as every function that validates
//! takes them (`validate`, `iter_documents`, `read_tables`): read from
//! `**keywords` by the names `cardkit_run::OPTIONS` gives Python, so that
//! the set is declared once, with the command line's flags, the
//! configuration's keys and the service's parameters.

use cardkit::Severity;
use cardkit_run::{Setting, Settings};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::settings::{jobs, settings, Jobs};

/// The keyword arguments given, each at its default when not given.
pub(crate) struct Keywords {
    kind: String,
    as_of: Option<String>,
    names: String,
    strict_version: bool,
    deny_unknown_fields: bool,
    warn_deprecated: bool,
    warning_limit: Option<usize>,
    error_limit: Option<usize>,
    jobs: Option<Jobs>,
    references: Option<Severity>,
}

impl Default for Keywords {
    fn default() -> Self {
        Keywords {
            kind: "auto".to_owned(),
            as_of: None,
            names: "auto".to_owned(),
            strict_version: false,
            deny_unknown_fields: false,
            warn_deprecated: false,
            warning_limit: None,
            error_limit: None,
            jobs: None,
            references: None,
        }
    }
}

/// The option Python names `keyword`, if any.
fn setting_named(keyword: &str) -> Option<Setting> {
    Setting::ALL
        .into_iter()
        .find(|setting| setting.def().python == Some(keyword))
}

impl Keywords {
    /// Reads the keyword arguments `function` was given: a keyword no
    /// option has is a `TypeError`, as Python's own.
    pub(crate) fn read(function: &str, given: Option<&Bound<'_, PyDict>>) -> PyResult<Keywords> {
        let mut keywords = Keywords::default();
        for (key, value) in given.into_iter().flatten() {
            let key: String = key.extract()?;
            match setting_named(&key) {
                Some(Setting::Kind) => keywords.kind = value.extract()?,
                Some(Setting::AsOf) => keywords.as_of = value.extract()?,
                Some(Setting::Names) => keywords.names = value.extract()?,
                Some(Setting::StrictVersion) => keywords.strict_version = value.extract()?,
                Some(Setting::DenyUnknownFields) => {
                    keywords.deny_unknown_fields = value.extract()?;
                }
                Some(Setting::Warn) => keywords.warn_deprecated = value.extract()?,
                Some(Setting::WarningLimit) => keywords.warning_limit = value.extract()?,
                Some(Setting::ErrorLimit) => keywords.error_limit = value.extract()?,
                Some(Setting::Jobs) => keywords.jobs = value.extract()?,
                Some(Setting::References) => keywords.references = references(&value)?,
                _ => {
                    return Err(PyTypeError::new_err(format!(
                        "{function}() got an unexpected keyword argument '{key}'"
                    )))
                }
            }
        }
        Ok(keywords)
    }

    /// The settings and the threads asked for, checked as every door
    /// checks them.
    pub(crate) fn run(self) -> PyResult<(Settings, usize)> {
        let mut settings = settings(
            &self.kind,
            self.as_of.as_deref(),
            self.strict_version,
            self.deny_unknown_fields,
            self.warn_deprecated,
            &self.names,
            self.warning_limit,
            self.error_limit,
        )?;
        settings.references = self.references;
        Ok((settings, jobs(self.jobs)?))
    }

    /// Refuses `references` where `function` cannot check them: a
    /// reference to a later document is settled after the last one.
    pub(crate) fn without_references(self, function: &str) -> PyResult<Keywords> {
        if self.references.is_some() {
            return Err(PyValueError::new_err(format!(
                "{function}() does not check references: a reference to a later document is \
                 settled after the last one; validate(references=True) checks them"
            )));
        }
        Ok(self)
    }
}

/// `references`: `True` or `"warning"`, `"error"`, or `False`.
fn references(value: &Bound<'_, PyAny>) -> PyResult<Option<Severity>> {
    if let Ok(on) = value.extract::<bool>() {
        return Ok(on.then_some(Severity::Warning));
    }
    match value.extract::<String>().as_deref() {
        Ok("error") => Ok(Some(Severity::Error)),
        Ok("warning") => Ok(Some(Severity::Warning)),
        _ => Err(PyValueError::new_err(format!(
            "references is {}: expected True, False or \"error\"",
            value
                .repr()
                .map_or_else(|_| "not a value".to_owned(), |r| r.to_string())
        ))),
    }
}

/// The keywords Python names, in the order of the options' table: what
/// every function that validates takes (`cardkit._native.VALIDATION_KEYWORDS`,
/// checked against the package's signatures by its tests).
pub(crate) fn validation_keywords() -> Vec<&'static str> {
    Setting::ALL
        .into_iter()
        .filter_map(|setting| setting.def().python)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each is one arm of [`Keywords::read`]: an option given a Python
    /// name needs its arm there.
    #[test]
    fn every_option_python_names_is_read() {
        let keywords = validation_keywords();
        assert_eq!(
            keywords,
            [
                "kind",
                "as_of",
                "names",
                "strict_version",
                "deny_unknown_fields",
                "warn_deprecated",
                "warning_limit",
                "error_limit",
                "jobs",
                "references"
            ]
        );
    }

    #[test]
    fn the_defaults_are_every_doors_defaults() {
        let (settings, _) = Keywords::default().run().unwrap();
        assert_eq!(settings, Settings::default());
    }
}
