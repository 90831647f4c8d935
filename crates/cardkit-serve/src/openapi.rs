//! The OpenAPI document, generated from the handlers' annotations. The
//! report's structure is the library's; the document names it and says where
//! it is described.

use std::borrow::Cow;

use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{OpenApi as Document, RefOr, Required};
use utoipa::{OpenApi, PartialSchema, ToSchema};

use crate::problem::Problem;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "cardkit",
        description = "Validates trading-card data documents (templates, card designs, sets, migrations) and reports every problem with where it is and why.",
        license(name = "MIT OR Apache-2.0")
    ),
    tags(
        (name = "validation", description = "Validating documents"),
        (name = "reference", description = "The document kinds' schemas and fields"),
        (name = "operations", description = "Health, readiness and metrics"),
    ),
    components(schemas(Problem))
)]
pub struct ApiDoc;

/// Declares a schema that is an object described in words.
macro_rules! described_object {
    ($name:ident, $description:literal) => {
        #[doc = $description]
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .description(Some($description))
                    .into()
            }
        }

        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
        }
    };
}

described_object!(
    Report,
    "The report of `cardkit validate --format json`: `files` (one entry, for the body: `path`, `documents`, `valid`, `layout`, `error`), `suppressed` and `summary`. Described in the README."
);
described_object!(
    ReportLine,
    "One line of the JSON Lines report: `type` is `document` (one per document, as soon as it is known), `file` (when the body ends) or `summary` (last)."
);
described_object!(Sarif, "A SARIF 2.1.0 log.");

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

/// What the annotations cannot say: the body of `POST /v1/validate` may be
/// empty (an empty body is validated, and reported as empty input).
pub fn finish(document: &mut Document) {
    let validate = document
        .paths
        .paths
        .get_mut("/v1/validate")
        .and_then(|item| item.post.as_mut())
        .and_then(|operation| operation.request_body.as_mut());
    if let Some(body) = validate {
        body.required = Some(Required::False);
    }
}
