//! The web page at `/`: paste or drop a document, validate it, see the
//! problems on its lines, and a template or card design drawn. Its files are in the binary: it works offline.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// Only the page's own files may load, and no inline script runs; the
/// preview's picture is a `blob:` the page makes of the SVG it was sent.
const POLICY: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
        .into_response()
}

pub async fn index() -> Response {
    asset(
        "text/html; charset=utf-8",
        include_str!("../page/index.html"),
    )
}

pub async fn script() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("../page/page.js"),
    )
}

pub async fn style() -> Response {
    asset("text/css; charset=utf-8", include_str!("../page/page.css"))
}
