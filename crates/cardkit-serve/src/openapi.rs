//! The OpenAPI document, generated from the handlers' annotations. The bodies
//! it describes are described by the types that write them: the library's
//! report types (`cardkit_run::render`, with its `openapi` feature) and the
//! service's problem details.

use std::borrow::Cow;

use utoipa::openapi::example::ExampleBuilder;
use utoipa::openapi::path::HttpMethod;
use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{OpenApi as Document, RefOr, Required};
use utoipa::{OpenApi, PartialSchema, ToSchema};

use cardkit_run::options::{as_of_pattern, version_pattern, Values, OPTIONS};
use cardkit_run::Surface;

use crate::problem::Problem;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "cardkit",
        description = "Validates trading-card data documents (templates, card designs, sets, migrations) and reports every problem with where it is and why.\n\nThe service has no authentication (`security` is empty): it belongs on a private network, or behind a proxy that authenticates and encrypts (TLS) when it must be reached from elsewhere.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0")
    ),
    servers((url = "/", description = "The service itself: paths are relative to where it answers")),
    tags(
        (name = "validation", description = "Validating documents"),
        (name = "rendering", description = "Drawing a template or card design as SVG or PNG"),
        (name = "reference", description = "The document kinds' schemas and fields, and the diagnostic codes"),
        (name = "operations", description = "Health, readiness and metrics"),
    ),
    components(schemas(Problem))
)]
pub struct ApiDoc;

/// The report of `POST /v1/validate` (`application/json`).
pub type Report = cardkit_run::render::Report<'static>;
/// One line of the JSON Lines report (`application/x-ndjson`).
pub type ReportLine = cardkit_run::render::ReportLine<'static>;
/// The SARIF report (`application/sarif+json`).
pub type Sarif = cardkit_run::render::SarifLog<'static>;
/// A code explained (`GET /v1/explain/code/{code}`).
pub type CodeExplained = cardkit_run::codes::CodeExplained;
/// An object of any members: the JSON Schema of a kind, a field's
/// explanation and a field's row, whose types the library does not describe
/// (yet).
pub struct FreeObject;

impl PartialSchema for FreeObject {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .additional_properties(Some(AdditionalProperties::FreeForm(true)))
            .into()
    }
}

impl ToSchema for FreeObject {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("FreeObject")
    }
}

/// A request body of any bytes: what is sent is validated, and malformed
/// JSON is reported in the report, not refused.
pub struct AnyBytes;

impl PartialSchema for AnyBytes {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(SchemaType::AnyValue)
            .description(Some(
                "Any bytes: the document(s) to validate. Malformed JSON is reported (`invalid_json`), not refused.",
            ))
            .into()
    }
}

impl ToSchema for AnyBytes {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("AnyBytes")
    }
}

/// A response of the service, from a real run, that the document shows as
/// its example (the files of `openapi-examples/`; a test asks the service
/// again and checks it still answers that).
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The file, in `openapi-examples/`.
    pub file: &'static str,
    /// What it holds.
    pub text: &'static str,
    /// The operation's method.
    pub method: &'static str,
    /// The operation's path, as the document names it.
    pub path: &'static str,
    /// The request's path and query.
    pub request: &'static str,
    /// The request's body, if it has one, and its media type.
    pub body: Option<(&'static str, &'static str)>,
    /// The response's status.
    pub status: u16,
    /// The response's media type, as the document names it (also the
    /// request's `Accept`).
    pub media: &'static str,
}

macro_rules! example_file {
    ($file:literal) => {
        ($file, include_str!(concat!("../openapi-examples/", $file)))
    };
}

/// An invalid migration, the body of the examples of `POST /v1/validate`.
const MIGRATION: &str = include_str!("../../../examples/invalid/migration-problems.json");
/// A card design with problems, the body of the example of `POST /v1/render`.
const INVALID_CARD: &str = include_str!("../../../examples/invalid/card-layer-problems.json");
/// Migrations in JSON Lines, one of them invalid.
const MIGRATIONS: &str = include_str!("../../../examples/invalid/migrations-one-bad-line.jsonl");

/// One example of each operation (of each of `POST /v1/validate`'s media
/// types), and of a problem.
pub const EXAMPLES: &[Example] = {
    const fn example(
        (file, text): (&'static str, &'static str),
        method: &'static str,
        path: &'static str,
        request: &'static str,
        body: Option<(&'static str, &'static str)>,
        status: u16,
        media: &'static str,
    ) -> Example {
        Example {
            file,
            text,
            method,
            path,
            request,
            body,
            status,
            media,
        }
    }
    &[
        example(
            example_file!("validate.json"),
            "post",
            "/v1/validate",
            "/v1/validate?name=migration.json",
            Some((MIGRATION, "application/json")),
            200,
            "application/json",
        ),
        example(
            example_file!("validate.ndjson"),
            "post",
            "/v1/validate",
            "/v1/validate?name=migrations.jsonl",
            Some((MIGRATIONS, "application/x-ndjson")),
            200,
            "application/x-ndjson",
        ),
        example(
            example_file!("validate.sarif"),
            "post",
            "/v1/validate",
            "/v1/validate?name=migration.json",
            Some((MIGRATION, "application/json")),
            200,
            "application/sarif+json",
        ),
        example(
            example_file!("validate-bad-parameter.json"),
            "post",
            "/v1/validate",
            "/v1/validate?kind=deck",
            Some((MIGRATION, "application/json")),
            400,
            "application/problem+json",
        ),
        example(
            example_file!("render-not-renderable.json"),
            "post",
            "/v1/render",
            "/v1/render",
            Some((INVALID_CARD, "application/json")),
            422,
            "application/problem+json",
        ),
        example(
            example_file!("schema.json"),
            "get",
            "/v1/schema/{kind}",
            "/v1/schema/migration",
            None,
            200,
            "application/json",
        ),
        example(
            example_file!("fields.json"),
            "get",
            "/v1/fields/{kind}",
            "/v1/fields/migration",
            None,
            200,
            "application/json",
        ),
        example(
            example_file!("explain.json"),
            "get",
            "/v1/explain/{kind}",
            "/v1/explain/migration?pointer=/old_catalogA_id",
            None,
            200,
            "application/json",
        ),
        example(
            example_file!("explain-not-found.json"),
            "get",
            "/v1/explain/{kind}",
            "/v1/explain/deck?pointer=/uuid",
            None,
            404,
            "application/problem+json",
        ),
        example(
            example_file!("explain-code.json"),
            "get",
            "/v1/explain/code/{code}",
            "/v1/explain/code/missing_field",
            None,
            200,
            "application/json",
        ),
        example(
            example_file!("healthz.txt"),
            "get",
            "/healthz",
            "/healthz",
            None,
            200,
            "text/plain",
        ),
        example(
            example_file!("readyz.txt"),
            "get",
            "/readyz",
            "/readyz",
            None,
            200,
            "text/plain",
        ),
        example(
            example_file!("metrics.txt"),
            "get",
            "/metrics",
            "/metrics",
            None,
            200,
            "text/plain",
        ),
    ]
};

/// Adds each example to its response, under its file's name; JSON Lines
/// one example per line (the schema is a line's).
fn add_examples(document: &mut Document) {
    for example in EXAMPLES {
        let method = match example.method {
            "post" => HttpMethod::Post,
            _ => HttpMethod::Get,
        };
        let Some(item) = document.paths.paths.get_mut(example.path) else {
            continue;
        };
        let operation = match method {
            HttpMethod::Post => item.post.as_mut(),
            _ => item.get.as_mut(),
        };
        let Some(operation) = operation else { continue };
        let Some(RefOr::T(response)) = operation
            .responses
            .responses
            .get_mut(&example.status.to_string())
        else {
            continue;
        };
        let Some(content) = response.content.get_mut(example.media) else {
            continue;
        };
        let values: Vec<(String, serde_json::Value)> = if example.media == "application/x-ndjson" {
            example
                .text
                .lines()
                .enumerate()
                .map(|(number, line)| {
                    (
                        format!("{} line {}", example.file, number + 1),
                        serde_json::from_str(line).unwrap_or_default(),
                    )
                })
                .collect()
        } else if example.media.starts_with("text/") {
            vec![(example.file.to_owned(), example.text.into())]
        } else {
            vec![(
                example.file.to_owned(),
                serde_json::from_str(example.text).unwrap_or_default(),
            )]
        };
        for (name, value) in values {
            let built = ExampleBuilder::new()
                .summary(format!(
                    "`{} {}`",
                    example.method.to_uppercase(),
                    example.request
                ))
                .value(Some(value))
                .build();
            content.examples.insert(name, RefOr::T(built));
        }
    }
}

/// The query parameters that are options of a validation described by their
/// definitions ([`OPTIONS`]), as a query names options; `as_of`'s pattern
/// (`POST /v1/validate`, `GET /v1/schema/{kind}`) from the library's range
/// of versions.
fn describe_options(document: &mut Document) {
    let operations = [
        ("/v1/validate", HttpMethod::Post, Some(as_of_pattern())),
        (
            "/v1/schema/{kind}",
            HttpMethod::Get,
            Some(format!("^{}$", version_pattern())),
        ),
    ];
    for (path, method, pattern) in operations {
        let Some(item) = document.paths.paths.get_mut(path) else {
            continue;
        };
        let operation = match method {
            HttpMethod::Post => item.post.as_mut(),
            _ => item.get.as_mut(),
        };
        let Some(parameters) = operation.and_then(|o| o.parameters.as_mut()) else {
            continue;
        };
        for parameter in parameters {
            let name = parameter.name.as_str();
            let def = OPTIONS.iter().find(|def| def.query == Some(name));
            if method == HttpMethod::Post {
                if let Some(def) = def {
                    parameter.description = Some(def.help_for(Surface::Query));
                }
            }
            if def.is_some_and(|def| def.values == Values::Version) {
                if let Some(RefOr::T(Schema::Object(object))) = parameter.schema.as_mut() {
                    object.pattern.clone_from(&pattern);
                }
            }
        }
    }
}

/// What the annotations cannot say: the body of `POST /v1/validate` may be
/// empty (an empty body is validated, and reported as empty input); no
/// operation asks for credentials; the options' descriptions; the examples.
pub fn finish(document: &mut Document) {
    describe_options(document);
    add_examples(document);
    let validate = document
        .paths
        .paths
        .get_mut("/v1/validate")
        .and_then(|item| item.post.as_mut())
        .and_then(|operation| operation.request_body.as_mut());
    if let Some(body) = validate {
        body.required = Some(Required::False);
    }
    document.security = Some(Vec::new());
}
