//! Operations: `GET /healthz`, `GET /readyz`, `GET /metrics`,
//! `GET /openapi.json`.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::state::AppState;

/// Alive: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "The service is alive", body = String, content_type = "text/plain")))]
pub async fn healthz() -> &'static str {
    "ok\n"
}

/// Ready: the service takes requests (503 once shutdown has begun).
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "The service takes requests", body = String, content_type = "text/plain"),
        (status = 503, description = "The service is shutting down", body = String, content_type = "text/plain"),
    ))]
pub async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    if state.draining.load(Ordering::Relaxed) {
        (StatusCode::SERVICE_UNAVAILABLE, "draining\n").into_response()
    } else {
        "ready\n".into_response()
    }
}

/// The metrics, in the Prometheus text format.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text format 0.0.4", body = String, content_type = "text/plain")))]
pub async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        state.metrics.render(),
    )
        .into_response()
}
