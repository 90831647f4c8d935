//! The cardkit validation service: an HTTP API over the cardkit library
//! (validation as the body arrives, the kinds' schemas and fields) and a web
//! page to paste a document into. It parses requests and renders the
//! library's reports; everything about documents is the library's.
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! let config = cardkit_serve::Config::default();
//! cardkit_serve::serve(listener, config, std::future::pending()).await
//! # }
//! ```

mod body;
mod layers;
mod media;
mod metrics;
mod names;
mod openapi;
mod ops;
mod page;
mod problem;
mod reference;
mod render;
mod server;
mod state;
mod validate;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use openapi::{Example, EXAMPLES};
pub use problem::Problem;
pub use server::{run, serve};
pub use state::Config;

use state::AppState;

/// The service's routes and layers, with the state they share.
pub fn app(config: Config) -> Router {
    router(Arc::new(AppState::new(config)))
}

fn router(state: Arc<AppState>) -> Router {
    let (api, openapi) = OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(validate::validate))
        .routes(routes!(render::render_design))
        .routes(routes!(reference::schema))
        .routes(routes!(reference::fields))
        .routes(routes!(reference::explain))
        .routes(routes!(reference::explain_code_route))
        .split_for_parts();
    let api = api
        // Bodies are streamed and limited by the validation itself.
        .layer(DefaultBodyLimit::disable())
        .layer(from_fn(layers::codings))
        .layer(from_fn_with_state(Arc::clone(&state), layers::shed));
    let (operations, mut openapi) = OpenApiRouter::with_openapi(openapi)
        .routes(routes!(ops::healthz))
        .routes(routes!(ops::readyz))
        .routes(routes!(ops::metrics))
        .split_for_parts();
    openapi::finish(&mut openapi);
    let document = serde_json::to_string_pretty(&openapi).unwrap_or_default();
    // Reports streamed line by line are sent as they are, not compressed.
    let compress = DefaultPredicate::new().and(NotForContentType::new("application/x-ndjson"));
    Router::new()
        .merge(api)
        .merge(operations)
        .route(
            "/openapi.json",
            get(move || async move {
                (
                    [(axum::http::header::CONTENT_TYPE, "application/json")],
                    document,
                )
            }),
        )
        .route("/", get(page::index))
        .route("/page.js", get(page::script))
        .route("/page.css", get(page::style))
        .fallback(|| async {
            Problem::not_found("no such route; see /openapi.json").into_response()
        })
        .method_not_allowed_fallback(|| async {
            Problem::method_not_allowed("the route does not take this method; see /openapi.json")
                .into_response()
        })
        .layer(CompressionLayer::new().compress_when(compress))
        .layer(from_fn_with_state(Arc::clone(&state), layers::time_limit))
        .layer(from_fn_with_state(Arc::clone(&state), layers::observe))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(tracing::Level::INFO))
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .with_state(state)
}
