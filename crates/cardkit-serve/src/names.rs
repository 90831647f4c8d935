//! The `names` query parameter: which wire names a body uses, or a schema
//! or a field listing is given in.

use cardkit::schema::Names;

use crate::problem::Problem;

/// The names a `names` parameter asks for; `None` when it is not given.
pub fn asked(names: Option<&str>) -> Result<Option<Names>, Problem> {
    names
        .map(|name| {
            Names::named(name).ok_or_else(|| {
                Problem::bad_parameter(format!(
                    "`names` is `{name}`: expected `auto`, `spec` or `upstream`"
                ))
            })
        })
        .transpose()
}
