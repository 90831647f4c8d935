//! The library's reference outputs, as the command line gives them in JSON:
//! `GET /v1/schema/{kind}`, `GET /v1/fields/{kind}`,
//! `GET /v1/explain/{kind}?pointer=…`, `GET /v1/explain/code/{code}`.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Response};
use axum::Json;
use cardkit::schema::json_schema::{container_name, json_schema_with, SchemaOptions, CONTAINERS};
use cardkit::schema::Version;
use cardkit::Code;
use cardkit::Kind;
use cardkit_run::codes::explain_code;
use cardkit_run::explain::explain_named;
use cardkit_run::listing::{Filter, Listing};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::names;
use crate::problem::Problem;

/// The `{kind}` of a path: a document kind, or 404.
fn kind_of(name: &str) -> Result<Kind, Problem> {
    name.parse::<Kind>().map_err(Problem::not_found)
}

/// The JSON Schema (Draft 2020-12) of a document kind: `cardkit schema`.
#[utoipa::path(
    get,
    path = "/v1/schema/{kind}",
    tag = "reference",
    params(("kind" = String, Path, description = "`template`, `card`, `set` or `migration`", example = "set"), SchemaParams),
    responses(
        (status = 200, description = "The JSON Schema", body = crate::openapi::FreeObject, content_type = "application/json"),
        (status = 400, description = "A bad parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such kind", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn schema(
    Path(kind): Path<String>,
    query: Result<Query<SchemaParams>, QueryRejection>,
) -> Response {
    let schema = (|| {
        let kind = kind_of(&kind)?;
        let Query(params) =
            query.map_err(|rejection| Problem::bad_parameter(rejection.body_text()))?;
        let names = names::asked(params.names.as_deref())?.unwrap_or_default();
        let container = match params.container.as_deref() {
            None => SchemaOptions::default().container,
            Some(name) => CONTAINERS
                .into_iter()
                .find(|&layout| container_name(layout) == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = CONTAINERS.into_iter().map(container_name).collect();
                    Problem::bad_parameter(format!(
                        "`container` is `{name}`: expected one of {}",
                        names.join(", ")
                    ))
                })?,
        };
        let as_of = params
            .as_of
            .as_deref()
            .map(cardkit::validate::as_of_version)
            .transpose()
            .map_err(|why| Problem::bad_parameter(format!("`as_of`: {why}")))?;
        let options = SchemaOptions {
            names,
            container,
            as_of,
            annotations: params.annotations.unwrap_or(false),
        };
        Ok::<_, Problem>(json_schema_with(kind, &options))
    })();
    match schema {
        Ok(schema) => Json(schema).into_response(),
        Err(problem) => problem.into_response(),
    }
}

/// The query of `GET /v1/schema/{kind}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SchemaParams {
    /// The wire names of the schema's properties: `spec` (the default) or
    /// `upstream`, the publishers' names.
    #[param(inline, value_type = Option<cardkit::schema::Names>)]
    names: Option<String>,
    /// The schema of a file that holds the documents in a container:
    /// `bare` (the default: the document itself), `wrapped`, `catalog`,
    /// `code-map`, `list` or `array`, as `cardkit schema --container`.
    #[param(
        example = "wrapped",
        pattern = r"^(bare|wrapped|catalog|code-map|list|array)$"
    )]
    container: Option<String>,
    /// The schema as of this version of the format (`vX.Y.Z`, no older than
    /// v4.0.0): fields introduced later are not required.
    // Its pattern is the library's range of versions (`openapi::finish`).
    #[param(example = "v5.0.0")]
    as_of: Option<String>,
    /// Adds the annotations strict validators refuse: `x-since` and
    /// `"format": "color"`.
    annotations: Option<bool>,
}

/// The query of `GET /v1/fields/{kind}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FieldsParams {
    /// Only the fields introduced in this version or a later one (`vX.Y.Z`).
    #[param(
        example = "v5.2.0",
        pattern = r"^v?(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$"
    )]
    since: Option<String>,
    /// Only the fields flagged deprecated.
    deprecated: Option<bool>,
    /// The wire names the fields are listed under: `spec` (the default) or
    /// `upstream`, the publishers' names.
    #[param(inline, value_type = Option<cardkit::schema::Names>)]
    names: Option<String>,
}

/// The fields of a document kind, each at its JSON Pointer:
/// `cardkit fields --format json`.
#[utoipa::path(
    get,
    path = "/v1/fields/{kind}",
    tag = "reference",
    params(("kind" = String, Path, description = "`template`, `card`, `set` or `migration`", example = "set"), FieldsParams),
    responses(
        (status = 200, description = "One object per field", body = Vec<cardkit_run::listing::Row>, content_type = "application/json"),
        (status = 400, description = "A bad parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such kind", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn fields(
    Path(kind): Path<String>,
    query: Result<Query<FieldsParams>, QueryRejection>,
) -> Response {
    let listed = (|| {
        let kind = kind_of(&kind)?;
        let Query(params) =
            query.map_err(|rejection| Problem::bad_parameter(rejection.body_text()))?;
        let since = params
            .since
            .as_deref()
            .map(since_version)
            .transpose()
            .map_err(|why| Problem::bad_parameter(format!("`since`: {why}")))?;
        let filter = Filter {
            since,
            deprecated: params.deprecated.unwrap_or(false),
            names: names::asked(params.names.as_deref())?.unwrap_or_default(),
        };
        Ok::<_, Problem>(Listing::new(kind, &filter))
    })();
    match listed {
        Ok(listing) => Json(listing.rows()).into_response(),
        Err(problem) => problem.into_response(),
    }
}

/// `since` read as `as_of` is (a version, no older than the format's
/// first), and no newer than the format's latest: a version the format
/// does not have would list no field, and say nothing of why.
fn since_version(text: &str) -> Result<Version, String> {
    let version = cardkit::validate::as_of_version(text)?;
    let latest = cardkit_run::latest_version();
    if version > latest {
        return Err(format!(
            "{version} is newer than the latest version of the format ({latest})"
        ));
    }
    Ok(version)
}

/// The query of `GET /v1/explain/{kind}`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExplainParams {
    /// The field's JSON Pointer (RFC 6901; list items by index or `*`),
    /// from the document's root or from the file's as reports give it
    /// (`/data/NEO/cards/3/uuid` in a catalog), or a report's `Model.field`
    /// (`CardSet.uuid`).
    #[param(example = "/cards/0/uuid")]
    pointer: String,
    /// The names the field is given in, as `validate` reads documents:
    /// `auto` (the default) and `upstream` take the publishers' names
    /// (`keyruneCode`) as the fields they are read as; `spec` only the
    /// spec's.
    #[param(inline, value_type = Option<cardkit::schema::Names>)]
    names: Option<String>,
}

/// One field of a document kind in plain words: `cardkit explain --format
/// json`.
#[utoipa::path(
    get,
    path = "/v1/explain/{kind}",
    tag = "reference",
    params(("kind" = String, Path, description = "`template`, `card`, `set` or `migration`", example = "set"), ExplainParams),
    responses(
        (status = 200, description = "The explanation of each place the pointer names", body = cardkit_run::explain::Explanation, content_type = "application/json"),
        (status = 400, description = "No `pointer`", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such kind, or the pointer or field names no field (the nearest known one is suggested when one is close)", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn explain(
    Path(kind): Path<String>,
    query: Result<Query<ExplainParams>, QueryRejection>,
) -> Response {
    let explained = (|| {
        let kind = kind_of(&kind)?;
        let Query(params) =
            query.map_err(|rejection| Problem::bad_parameter(rejection.body_text()))?;
        let names = names::asked(params.names.as_deref())?.unwrap_or_default();
        explain_named(kind, &params.pointer, names)
            .map_err(|error| Problem::not_found(error.to_string()))
    })();
    match explained {
        Ok(explanation) => Json(explanation).into_response(),
        Err(problem) => problem.into_response(),
    }
}

/// A diagnostic code explained: what it means, an example document, the
/// diagnostics cardkit gives for it and how to fix it: `cardkit explain
/// CODE --format json`.
#[utoipa::path(
    get,
    path = "/v1/explain/code/{code}",
    tag = "reference",
    params(("code" = String, Path, description = "A diagnostic code, e.g. `missing_field`", example = "missing_field")),
    responses(
        (status = 200, description = "The code explained, with its example's diagnostics", body = crate::openapi::CodeExplained, content_type = "application/json"),
        (status = 404, description = "No such code", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn explain_code_route(Path(code): Path<String>) -> Response {
    match code.parse::<Code>() {
        Ok(code) => Json(explain_code(code)).into_response(),
        Err(why) => Problem::not_found(why).into_response(),
    }
}
