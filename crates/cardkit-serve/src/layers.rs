//! What wraps every request: metrics, the time limit, load shedding and the
//! content codings taken.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::problem::Problem;
use crate::state::{AppState, Slot};

/// Counts the request in flight, then by route, method and status, and
/// times it to its response's head.
pub async fn observe(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let _in_flight = state.metrics.begin();
    // The route's pattern, not the path asked: the label's values stay few.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_owned();
    let method = method_label(request.method());
    let response = next.run(request).await;
    state.metrics.answered(
        &route,
        method,
        response.status().as_u16(),
        started.elapsed().as_secs_f64(),
    );
    response
}

/// A method as a label: one of the standard ones, or `other`.
fn method_label(method: &Method) -> &'static str {
    [
        Method::GET,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::HEAD,
        Method::OPTIONS,
        Method::PATCH,
    ]
    .iter()
    .find(|known| *known == method)
    .map_or("other", Method::as_str)
}

/// Answers 408 when a request's response has not begun within the time
/// limit. (A validation keeps to the limit itself, to its report's end.)
pub async fn time_limit(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let limit = state.config.timeout;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => Problem::timed_out(limit.as_secs()).into_response(),
    }
}

/// Sheds a request when `max_concurrent` are being served: 503 with
/// `Retry-After`, at once, rather than a queue that grows.
pub async fn shed(
    State(state): State<Arc<AppState>>,
    mut request: Request,
    next: Next,
) -> Response {
    let Ok(permit) = Arc::clone(&state.slots).try_acquire_owned() else {
        state.metrics.shed();
        return Problem::overloaded(state.config.max_concurrent).into_response();
    };
    request.extensions_mut().insert(Slot(Arc::new(permit)));
    next.run(request).await
}

/// The content codings a body may be sent in.
const CODINGS: [&str; 4] = ["gzip", "x-gzip", "zstd", "identity"];

/// Marks a request whose body came in a content coding (other than
/// `identity`): it is decoded by it before the handler reads it, and is not
/// told by its first bytes again.
#[derive(Debug, Clone, Copy)]
pub struct Coded;

/// Refuses a body in a content coding that is not read (415), with a
/// problem that names the ones that are; marks a body in one that is read
/// ([`Coded`]).
pub async fn codings(mut request: Request, next: Next) -> Response {
    let mut coded = false;
    for value in request.headers().get_all(header::CONTENT_ENCODING) {
        let text = String::from_utf8_lossy(value.as_bytes()).to_ascii_lowercase();
        for coding in text.split(',').map(str::trim).filter(|c| !c.is_empty()) {
            if !CODINGS.contains(&coding) {
                return Problem::unsupported_media_type(format!(
                    "the body's Content-Encoding is `{coding}`; the codings read are gzip and zstd"
                ))
                .into_response();
            }
            coded |= coding != "identity";
        }
    }
    if coded {
        request.extensions_mut().insert(Coded);
    }
    next.run(request).await
}
