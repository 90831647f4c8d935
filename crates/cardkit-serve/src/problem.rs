//! Errors that are not validation results, as RFC 9457 problem details
//! (`application/problem+json`): the status, its phrase as `title`, what went
//! wrong in `detail`, and a stable `code` for programs.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// A problem detail (RFC 9457).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    /// Always `about:blank`: the status and `code` say what kind of problem.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// The status's phrase.
    pub title: &'static str,
    /// What went wrong, in words.
    pub detail: String,
    /// What kind of problem, for programs.
    pub code: ProblemCode,
    /// Seconds after which to try again (overload only).
    #[serde(skip)]
    pub retry_after: Option<u64>,
}

/// What kind of problem a problem detail is, for programs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    /// A query parameter or path segment that cannot be used (400).
    BadParameter,
    /// A body cut short, or one that does not decode (400).
    UnreadableBody,
    /// A body larger than the limit (413).
    BodyTooLarge,
    /// A media type or content coding the service does not read (415).
    UnsupportedMediaType,
    /// The request took longer than the time limit (408).
    TimedOut,
    /// The body came slower than the minimum rate (408).
    BodyTooSlow,
    /// A body that is not a design that can be drawn (422).
    NotRenderable,
    /// The service is at its concurrency limit (503).
    Overloaded,
    /// No such route, kind, code or field (404).
    NotFound,
    /// A route asked with a method it does not take (405).
    MethodNotAllowed,
    /// A fault of the service itself (500).
    Internal,
}

impl Problem {
    fn new(status: StatusCode, code: ProblemCode, detail: impl Into<String>) -> Self {
        Problem {
            kind: "about:blank",
            status: status.as_u16(),
            title: status.canonical_reason().unwrap_or("Error"),
            detail: detail.into(),
            code,
            retry_after: None,
        }
    }

    /// A query parameter or path segment that cannot be used (400).
    pub fn bad_parameter(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::BAD_REQUEST, ProblemCode::BadParameter, detail)
    }

    /// A body that could not be read: cut short, or not decodable (400).
    pub fn unreadable_body(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::BAD_REQUEST, ProblemCode::UnreadableBody, detail)
    }

    /// A body larger than the service takes (413).
    pub fn body_too_large(detail: impl Into<String>) -> Self {
        Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ProblemCode::BodyTooLarge,
            detail,
        )
    }

    /// A body of a media type or content coding the service does not read
    /// (415).
    pub fn unsupported_media_type(detail: impl Into<String>) -> Self {
        Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ProblemCode::UnsupportedMediaType,
            detail,
        )
    }

    /// A request that took longer than the time limit (408).
    pub fn timed_out(seconds: u64) -> Self {
        Problem::new(
            StatusCode::REQUEST_TIMEOUT,
            ProblemCode::TimedOut,
            format!("the request took longer than the limit of {seconds} s"),
        )
    }

    /// A body that came slower than the minimum rate (408).
    pub fn body_too_slow(detail: impl Into<String>) -> Self {
        Problem::new(
            StatusCode::REQUEST_TIMEOUT,
            ProblemCode::BodyTooSlow,
            detail,
        )
    }

    /// A body that is not a design that can be drawn: not a template or
    /// card design, several designs where one is wanted, or a design beyond
    /// the renderer's limits (422).
    pub fn not_renderable(detail: impl Into<String>) -> Self {
        Problem::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ProblemCode::NotRenderable,
            detail,
        )
    }

    /// A request shed because the service is at its concurrency limit (503).
    pub fn overloaded(limit: usize) -> Self {
        Problem {
            retry_after: Some(1),
            ..Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ProblemCode::Overloaded,
                format!("the service is validating {limit} requests, its limit; try again shortly"),
            )
        }
    }

    /// A render shed because `limit` renders are running (503).
    pub fn rendering(limit: usize) -> Self {
        Problem {
            retry_after: Some(1),
            ..Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ProblemCode::Overloaded,
                format!("the service is drawing {limit} designs, its limit; try again shortly"),
            )
        }
    }

    /// No such route or resource (404).
    pub fn not_found(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::NOT_FOUND, ProblemCode::NotFound, detail)
    }

    /// A route asked with a method it does not take (405).
    pub fn method_not_allowed(detail: impl Into<String>) -> Self {
        Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            ProblemCode::MethodNotAllowed,
            detail,
        )
    }

    /// A fault of the service itself (500).
    pub fn internal(detail: impl Into<String>) -> Self {
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ProblemCode::Internal,
            detail,
        )
    }
}

/// The media type of problem details.
pub const PROBLEM_JSON: &str = "application/problem+json";

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::to_vec(&self).unwrap_or_default();
        let mut response = (status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
