//! What wraps every request: metrics, the time limit, load shedding and the
//! content codings taken.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::body::Coding;
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

/// Marks a request whose body came in one or more content codings (other
/// than `identity`), listed in the order they were applied: it is decoded by
/// them as it is read, and is not told by its first bytes again.
#[derive(Debug, Clone)]
pub struct Coded(pub Vec<Coding>);

/// How many codings a body may have been applied: more is no real client.
const MAX_CODINGS: usize = 4;

/// Reads `Content-Encoding` (every header, each a list, in order; names in
/// any case, `x-gzip` as gzip, `identity` as nothing): refuses a body in a
/// coding that is not read with a 415 problem that names the ones that are,
/// and marks a body in codings that are ([`Coded`]).
pub async fn codings(mut request: Request, next: Next) -> Response {
    let mut codings = Vec::new();
    for value in request.headers().get_all(header::CONTENT_ENCODING) {
        let text = String::from_utf8_lossy(value.as_bytes());
        for token in text.split(',').map(str::trim).filter(|c| !c.is_empty()) {
            match Coding::of(token) {
                Ok(Some(coding)) => codings.push(coding),
                Ok(None) => {}
                Err(()) => {
                    let token: String = token.chars().take(64).collect();
                    return Problem::unsupported_media_type(format!(
                        "the body's Content-Encoding is `{token}`; the codings read are gzip \
                         (or x-gzip), zstd and identity, in any case, one or more in the order \
                         applied"
                    ))
                    .into_response();
                }
            }
        }
    }
    if codings.len() > MAX_CODINGS {
        return Problem::unsupported_media_type(format!(
            "the body's Content-Encoding lists {} codings; at most {MAX_CODINGS} are read \
             (gzip, x-gzip, zstd, identity)",
            codings.len()
        ))
        .into_response();
    }
    if !codings.is_empty() {
        request.extensions_mut().insert(Coded(codings));
    }
    next.run(request).await
}
