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
    /// What kind of problem, for programs: `bad_parameter`,
    /// `unsupported_media_type`, `body_too_large`, `timed_out`,
    /// `body_too_slow`,
    /// `overloaded`, `unreadable_body`, `not_found`, `method_not_allowed`,
    /// `internal`.
    pub code: &'static str,
    /// Seconds after which to try again (overload only).
    #[serde(skip)]
    pub retry_after: Option<u64>,
}

impl Problem {
    fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
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
        Problem::new(StatusCode::BAD_REQUEST, "bad_parameter", detail)
    }

    /// A body that could not be read: cut short, or not decodable (400).
    pub fn unreadable_body(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::BAD_REQUEST, "unreadable_body", detail)
    }

    /// A body larger than the service takes (413).
    pub fn body_too_large(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", detail)
    }

    /// A body of a media type or content coding the service does not read
    /// (415).
    pub fn unsupported_media_type(detail: impl Into<String>) -> Self {
        Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            detail,
        )
    }

    /// A request that took longer than the time limit (408).
    pub fn timed_out(seconds: u64) -> Self {
        Problem::new(
            StatusCode::REQUEST_TIMEOUT,
            "timed_out",
            format!("the request took longer than the limit of {seconds} s"),
        )
    }

    /// A body that came slower than the minimum rate (408).
    pub fn body_too_slow(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::REQUEST_TIMEOUT, "body_too_slow", detail)
    }

    /// A request shed because the service is at its concurrency limit (503).
    pub fn overloaded(limit: usize) -> Self {
        Problem {
            retry_after: Some(1),
            ..Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "overloaded",
                format!("the service is validating {limit} requests, its limit; try again shortly"),
            )
        }
    }

    /// No such route or resource (404).
    pub fn not_found(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::NOT_FOUND, "not_found", detail)
    }

    /// A route asked with a method it does not take (405).
    pub fn method_not_allowed(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", detail)
    }

    /// A fault of the service itself (500).
    pub fn internal(detail: impl Into<String>) -> Self {
        Problem::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", detail)
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
