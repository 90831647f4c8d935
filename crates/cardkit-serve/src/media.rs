//! Media types: what a body is sent as, and what report a client accepts.

use axum::http::{header, HeaderMap};

use crate::problem::Problem;

/// How the body's documents are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyMedia {
    /// One JSON value (`application/json`, or no `Content-Type`).
    Json,
    /// JSON Lines (`application/x-ndjson`, `application/jsonl`).
    JsonLines,
}

/// Media types read as JSON Lines.
const JSON_LINES: [&str; 3] = [
    "application/x-ndjson",
    "application/jsonl",
    "application/json-lines",
];

impl BodyMedia {
    /// The body's media type from `Content-Type`; a request without one is
    /// taken as JSON.
    pub fn of(headers: &HeaderMap) -> Result<BodyMedia, Problem> {
        let Some(value) = headers.get(header::CONTENT_TYPE) else {
            return Ok(BodyMedia::Json);
        };
        let essence = value
            .to_str()
            .ok()
            .map(|text| essence(text).to_ascii_lowercase());
        match essence.as_deref() {
            Some("application/json") => Ok(BodyMedia::Json),
            Some(media) if JSON_LINES.contains(&media) => Ok(BodyMedia::JsonLines),
            _ => Err(Problem::unsupported_media_type(format!(
                "the body is sent as `{}`; send it as `application/json` (one value) or `application/x-ndjson` (JSON Lines), e.g. curl -H 'Content-Type: application/json' --data-binary @file.json",
                String::from_utf8_lossy(value.as_bytes())
            ))),
        }
    }
}

/// The report formats a client can ask for with `Accept`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Accepted {
    /// The JSON report (the default).
    Json,
    /// One line per document as it is known.
    JsonLines,
    /// SARIF 2.1.0.
    Sarif,
}

impl Accepted {
    /// The format `Accept` asks for: the first of its types that names one
    /// (by quality, then order); the JSON report when none does.
    pub fn of(headers: &HeaderMap) -> Accepted {
        ranked(headers, |media| match media {
            "application/json" => Some(Accepted::Json),
            "application/sarif+json" => Some(Accepted::Sarif),
            media if JSON_LINES.contains(&media) => Some(Accepted::JsonLines),
            _ => None,
        })
        .unwrap_or(Accepted::Json)
    }

    /// The response's `Content-Type`.
    pub fn content_type(self) -> &'static str {
        match self {
            Accepted::Json => "application/json",
            Accepted::JsonLines => "application/x-ndjson",
            Accepted::Sarif => "application/sarif+json",
        }
    }
}

/// What a render answers, as `Accept` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    /// The SVG with the render's report, as JSON (the default).
    Json,
    /// The SVG alone (`image/svg+xml`).
    Svg,
    /// The PNG alone (`image/png`).
    Png,
}

impl Picture {
    /// The answer `Accept` asks for: the first of its types that names one
    /// (by quality, then order); JSON when none does.
    pub fn of(headers: &HeaderMap) -> Picture {
        ranked(headers, |media| match media {
            "application/json" => Some(Picture::Json),
            "image/svg+xml" => Some(Picture::Svg),
            "image/png" => Some(Picture::Png),
            _ => None,
        })
        .unwrap_or(Picture::Json)
    }
}

/// The best of the media types `Accept` lists that `known` knows: by
/// quality, then order; none with quality 0.
fn ranked<T: Copy>(headers: &HeaderMap, known: impl Fn(&str) -> Option<T>) -> Option<T> {
    let accept = headers.get(header::ACCEPT)?.to_str().ok()?;
    let mut ranked: Vec<(f32, usize, T)> = accept
        .split(',')
        .enumerate()
        .filter_map(|(order, item)| {
            let mut parts = item.split(';');
            let media = parts.next()?.trim().to_ascii_lowercase();
            let quality = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let format = known(&media)?;
            (quality > 0.0).then_some((quality, order, format))
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    ranked.first().map(|&(_, _, format)| format)
}

/// A media type without its parameters.
fn essence(value: &str) -> &str {
    value.split(';').next().unwrap_or_default().trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(name: header::HeaderName, value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn body_media_types() {
        let of = |value| BodyMedia::of(&headers(header::CONTENT_TYPE, value));
        assert_eq!(of("application/json").unwrap(), BodyMedia::Json);
        assert_eq!(
            of("Application/JSON; charset=utf-8").unwrap(),
            BodyMedia::Json
        );
        assert_eq!(of("application/x-ndjson").unwrap(), BodyMedia::JsonLines);
        assert_eq!(of("application/jsonl").unwrap(), BodyMedia::JsonLines);
        assert_eq!(
            of("application/x-www-form-urlencoded").unwrap_err().status,
            415
        );
        assert_eq!(of("text/plain").unwrap_err().status, 415);
        assert_eq!(BodyMedia::of(&HeaderMap::new()).unwrap(), BodyMedia::Json);
    }

    #[test]
    fn accepted_formats() {
        let of = |value| Accepted::of(&headers(header::ACCEPT, value));
        assert_eq!(of("application/x-ndjson"), Accepted::JsonLines);
        assert_eq!(of("application/sarif+json"), Accepted::Sarif);
        assert_eq!(of("*/*"), Accepted::Json);
        assert_eq!(
            of("text/html, application/sarif+json;q=0.5"),
            Accepted::Sarif
        );
        assert_eq!(
            of("application/json;q=0.4, application/x-ndjson;q=0.9"),
            Accepted::JsonLines
        );
        assert_eq!(of("application/x-ndjson;q=0"), Accepted::Json);
        assert_eq!(Accepted::of(&HeaderMap::new()), Accepted::Json);
    }

    #[test]
    fn pictures_asked() {
        let of = |value| Picture::of(&headers(header::ACCEPT, value));
        assert_eq!(of("image/svg+xml"), Picture::Svg);
        assert_eq!(of("image/png"), Picture::Png);
        assert_eq!(of("Image/PNG, image/svg+xml;q=0.5"), Picture::Png);
        assert_eq!(of("image/png;q=0.2, image/svg+xml"), Picture::Svg);
        assert_eq!(of("*/*"), Picture::Json);
        assert_eq!(of("image/png;q=0"), Picture::Json);
        assert_eq!(Picture::of(&HeaderMap::new()), Picture::Json);
    }
}
