//! The keyword arguments every function takes, as the library's settings
//! and as hints name them; the kinds, wire names and threads asked for.

use cardkit::schema::Names;
use cardkit::validate;
use cardkit::Kind;
use cardkit_run::{Setting, Settings, Surface, MAX_JOBS};
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;

/// The settings the keyword arguments ask for, over the defaults every door
/// starts from.
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
pub(crate) fn settings(
    kind: &str,
    as_of: Option<&str>,
    strict_version: bool,
    deny_unknown_fields: bool,
    warn_deprecated: bool,
    names: &str,
    warning_limit: Option<usize>,
    error_limit: Option<usize>,
) -> PyResult<Settings> {
    let kind = match kind {
        "auto" => None,
        name => Some(name.parse::<Kind>().map_err(|_| {
            PyValueError::new_err(format!(
                "kind is {name:?}: expected {}",
                expected(Setting::Kind)
            ))
        })?),
    };
    let (as_of, as_of_auto) = match as_of {
        None | Some("auto") => (None, true),
        Some("latest") => (None, false),
        Some(version) => (
            Some(
                validate::as_of_version(version)
                    .map_err(|why| PyValueError::new_err(format!("as_of: {why}")))?,
            ),
            false,
        ),
    };
    let names = names_named(names)?;
    let defaults = Settings::default();
    let settings = Settings {
        kind,
        as_of,
        as_of_auto,
        strict_version,
        deny_unknown_fields,
        warn_deprecated,
        warning_limit: warning_limit.unwrap_or(defaults.warning_limit),
        error_limit,
        names,
        ..defaults
    };
    // Named as Python names them: `strict_version needs as_of`.
    settings
        .check(Surface::Python)
        .map_err(PyValueError::new_err)?;
    Ok(settings)
}

/// The `jobs` argument as Python gave it: an `int` of any size. One beyond
/// 64 bits is kept as its digits, so that it is refused with the
/// `ValueError` every other count out of range gets, not an `OverflowError`.
pub(crate) enum Jobs {
    Count(i64),
    Huge(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Jobs {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(n) => Ok(Self::Count(n)),
            Err(error) if error.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Self::Huge(obj.str()?.to_string()))
            }
            Err(error) => Err(error),
        }
    }
}

/// The threads asked for, checked as the command line checks `--jobs`: a
/// count out of range (negative ones, and ones beyond 64 bits, included) is
/// a `ValueError`.
pub(crate) fn jobs(asked: Option<Jobs>) -> PyResult<usize> {
    let refused = |n: &dyn std::fmt::Display| {
        PyValueError::new_err(format!(
            "jobs is {n}: expected 1 to {MAX_JOBS}, or None for one per core"
        ))
    };
    match asked {
        None => Ok(cardkit_run::jobs(None)),
        Some(Jobs::Count(n)) => match usize::try_from(n) {
            Ok(n) if (1..=MAX_JOBS).contains(&n) => Ok(cardkit_run::jobs(Some(n))),
            _ => Err(refused(&n)),
        },
        Some(Jobs::Huge(digits)) => Err(refused(&digits)),
    }
}

/// A kind named by the caller: `kind` is the argument's name, for the
/// message.
pub(crate) fn kind_named(name: &str, argument: &str) -> PyResult<Kind> {
    name.parse::<Kind>().map_err(|_| {
        PyValueError::new_err(format!(
            "{argument} is {name:?}: expected 'template', 'card', 'set' or 'migration'"
        ))
    })
}

/// The wire names named by the caller.
pub(crate) fn names_named(names: &str) -> PyResult<Names> {
    Names::named(names).ok_or_else(|| {
        PyValueError::new_err(format!(
            "names is {names:?}: expected {}",
            expected(Setting::Names)
        ))
    })
}

/// The values a keyword argument takes, as its messages list them.
fn expected(setting: Setting) -> String {
    setting.def().choices_said('\'').unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_every_doors_defaults() {
        let asked = settings("auto", None, false, false, false, "auto", None, None).unwrap();
        assert_eq!(asked, Settings::default());
    }

    #[test]
    fn each_argument_sets_its_setting() {
        let asked = settings(
            "set",
            Some("v5.0.0"),
            true,
            true,
            true,
            "upstream",
            Some(0),
            Some(2),
        )
        .unwrap();
        assert_eq!(asked.kind, Some(Kind::Set));
        assert_eq!(asked.as_of, Some("v5.0.0".parse().unwrap()));
        assert!(asked.strict_version && asked.deny_unknown_fields && asked.warn_deprecated);
        assert_eq!(asked.names, Names::Upstream);
        assert_eq!((asked.warning_limit, asked.error_limit), (0, Some(2)));
        let auto = settings("auto", Some("auto"), true, false, false, "spec", None, None).unwrap();
        assert!(auto.as_of_auto && auto.as_of.is_none());
    }

    #[test]
    fn jobs_default_to_the_cores_within_the_limit() {
        assert_eq!(jobs(Some(Jobs::Count(3))).unwrap(), 3);
        assert!(jobs(Some(Jobs::Count(-1))).is_err() && jobs(Some(Jobs::Count(0))).is_err());
        assert!(jobs(Some(Jobs::Huge("1180591620717411303424".into()))).is_err());
        assert!((1..=MAX_JOBS).contains(&jobs(None).unwrap()));
    }
}
