//! The native module of the `cardkit` Python package (`cardkit._native`):
//! each function maps its arguments onto the library's own settings and
//! calls what the command line calls, and gives back the report as the
//! command line's JSON, which `python/cardkit` turns into objects.

mod interrupt;
mod keywords;
mod runs;
mod settings;
mod source;
mod spec;
mod stream;
mod tables;

use cardkit_run::MAX_JOBS;
use pyo3::prelude::*;

use runs::validate_json;
use spec::{dummy_json, explain_json, fields_json, schema_json};
use stream::{iter_documents_json, DocumentStream};
use tables::{read_tables, TablesRead};

/// The native part of the `cardkit` package.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(validate_json, module)?)?;
    module.add_function(wrap_pyfunction!(schema_json, module)?)?;
    module.add_function(wrap_pyfunction!(fields_json, module)?)?;
    module.add_function(wrap_pyfunction!(explain_json, module)?)?;
    module.add_function(wrap_pyfunction!(dummy_json, module)?)?;
    module.add_function(wrap_pyfunction!(iter_documents_json, module)?)?;
    module.add_class::<DocumentStream>()?;
    module.add_function(wrap_pyfunction!(read_tables, module)?)?;
    module.add_class::<TablesRead>()?;
    module.add("MAX_JOBS", MAX_JOBS)?;
    module.add("VALIDATION_KEYWORDS", keywords::validation_keywords())?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
