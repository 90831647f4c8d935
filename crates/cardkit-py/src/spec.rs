//! What the spec itself answers: a kind's JSON Schema, its fields, a field
//! or a diagnostic code explained, a document to start from; each as JSON
//! text.

use cardkit::model::Layout;
use cardkit::schema::json_schema::{json_schema_with, SchemaOptions};
use cardkit::schema::minimal::dummy;
use cardkit::schema::Version;
use cardkit::validate;
use cardkit::Code;
use cardkit::Kind;
use cardkit_run::codes::explain_code;
use cardkit_run::explain::explain_named;
use cardkit_run::listing::{self, Listing};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::settings::{kind_named, names_named};

/// A JSON value as the JSON text Python reads.
fn json_text(value: serde_json::Result<String>) -> PyResult<String> {
    value.map_err(|error| PyValueError::new_err(error.to_string()))
}

/// The JSON Schema of a kind, as `cardkit schema` prints it: its JSON text.
#[pyfunction]
#[pyo3(signature = (kind, *, names="spec", container=None, as_of=None, annotations=false))]
pub(crate) fn schema_json(
    kind: &str,
    names: &str,
    container: Option<&str>,
    as_of: Option<&str>,
    annotations: bool,
) -> PyResult<String> {
    let container = match container {
        None | Some("bare") => Layout::Bare,
        Some("wrapped") => Layout::Wrapped,
        Some("catalog") => Layout::Catalog,
        Some("code-map" | "code_map") => Layout::CodeMap,
        Some("list") => Layout::List,
        Some("array") => Layout::Array,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "container is {other:?}: expected None, 'wrapped', 'catalog', 'code-map', 'list' or 'array'"
            )))
        }
    };
    let options = SchemaOptions {
        names: names_named(names)?,
        container,
        as_of: as_of
            .map(|version| {
                validate::as_of_version(version)
                    .map_err(|why| PyValueError::new_err(format!("as_of: {why}")))
            })
            .transpose()?,
        annotations,
    };
    json_text(serde_json::to_string(&json_schema_with(
        kind_named(kind, "kind")?,
        &options,
    )))
}

/// The fields of a kind, as `cardkit fields --format json` lists them: its
/// JSON text.
#[pyfunction]
#[pyo3(signature = (kind, *, since=None, deprecated=false, names="spec"))]
pub(crate) fn fields_json(
    kind: &str,
    since: Option<&str>,
    deprecated: bool,
    names: &str,
) -> PyResult<String> {
    let filter = listing::Filter {
        since: since
            .map(|version| {
                version
                    .parse::<Version>()
                    .map_err(|why| PyValueError::new_err(format!("since: {why}")))
            })
            .transpose()?,
        deprecated,
        names: names_named(names)?,
    };
    json_text(serde_json::to_string(
        &Listing::new(kind_named(kind, "kind")?, &filter).rows(),
    ))
}

/// A field of a kind, or a diagnostic code, explained as `cardkit explain
/// --format json` does: its JSON text.
#[pyfunction]
#[pyo3(signature = (kind_or_code, pointer=None, *, names="auto"))]
pub(crate) fn explain_json(
    kind_or_code: &str,
    pointer: Option<&str>,
    names: &str,
) -> PyResult<String> {
    let names = names_named(names)?;
    let kind = kind_or_code.parse::<Kind>().ok();
    let code = kind_or_code.parse::<Code>().ok();
    match (kind, code, pointer) {
        (Some(kind), _, Some(pointer)) => json_text(serde_json::to_string(
            &explain_named(kind, pointer, names)
                .map_err(|error| PyValueError::new_err(error.to_string()))?,
        )),
        (_, Some(code), None) => json_text(serde_json::to_string(&explain_code(code))),
        (Some(kind), _, None) => Err(PyValueError::new_err(format!(
            "{kind:?} is a kind: name the field after it, e.g. explain({kind:?}, \"/{}\")",
            kind.model().fields[0].name
        ))),
        (_, Some(code), Some(_)) => Err(PyValueError::new_err(format!(
            "{code:?} is a code: it takes no pointer"
        ))),
        (None, None, _) => Err(PyValueError::new_err(format!(
            "{kind_or_code:?} is neither a kind ('template', 'card', 'set', 'migration') nor a diagnostic code"
        ))),
    }
}

/// A document to start from, as `cardkit dummy` prints it: its JSON text.
#[pyfunction]
#[pyo3(signature = (kind="template"))]
pub(crate) fn dummy_json(kind: &str) -> PyResult<String> {
    json_text(serde_json::to_string(&dummy(kind_named(kind, "kind")?)))
}
