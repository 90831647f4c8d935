//! Arbitrary bytes posted to the service's `POST /v1/validate`, sent as is
//! or compressed, under any `Content-Encoding` header (the codings the
//! service reads, in any case and order, stacked, unknown ones), with any
//! kind and format. The handler answers every request: a 200 whose body is
//! the report in the format asked for (a JSON report that parses, with one
//! file), or a 4xx whose body is problem details that parse; never a 5xx,
//! never a panic, and a small body is never bigger once decoded than
//! `max_body` allows.
#![no_main]

use std::io::Write;

use arbitrary::{Arbitrary, Unstructured};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use cardkit_serve::{app, Config};
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

/// How the body is sent.
#[derive(Debug, Arbitrary)]
enum Coding {
    /// As is, no header.
    Plain,
    /// Compressed with gzip, said in a header spelled one of several ways,
    /// or not said at all (the service tells it by its first bytes).
    Gzip(GzipHeader),
    /// Compressed with zstd, said or not.
    Zstd(bool),
    /// Gzip twice, said once or twice.
    GzipTwice(bool),
    /// As is, under a header naming any coding.
    Named(String),
}

#[derive(Debug, Arbitrary)]
enum GzipHeader {
    None,
    Gzip,
    XGzip,
    Upper,
    IdentityThenGzip,
}

#[derive(Debug, Arbitrary)]
struct Input<'a> {
    coding: Coding,
    kind: u8,
    format: u8,
    max_body: u16,
    body: &'a [u8],
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    out.write_all(bytes).expect("gzip in memory");
    out.finish().expect("gzip in memory")
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let kind = ["auto", "set", "template", "card", "migration"][usize::from(input.kind) % 5];
    let format = ["json", "ndjson", "sarif", "text"][usize::from(input.format) % 4];
    let (body, headers): (Vec<u8>, Vec<String>) = match &input.coding {
        Coding::Plain => (input.body.to_vec(), vec![]),
        Coding::Gzip(header) => {
            let said = match header {
                GzipHeader::None => vec![],
                GzipHeader::Gzip => vec!["gzip".to_owned()],
                GzipHeader::XGzip => vec!["x-gzip".to_owned()],
                GzipHeader::Upper => vec!["GZIP".to_owned()],
                GzipHeader::IdentityThenGzip => vec!["identity, gzip".to_owned()],
            };
            (gzip(input.body), said)
        }
        Coding::Zstd(said) => (
            zstd::encode_all(input.body, 1).expect("zstd in memory"),
            if *said {
                vec!["zstd".to_owned()]
            } else {
                vec![]
            },
        ),
        Coding::GzipTwice(twice) => (
            gzip(&gzip(input.body)),
            if *twice {
                vec!["gzip".to_owned(), "gzip".to_owned()]
            } else {
                vec!["gzip, gzip".to_owned()]
            },
        ),
        Coding::Named(name) => (input.body.to_vec(), vec![name.clone()]),
    };
    let config = Config {
        // Small enough that bodies cross it, large enough for most.
        max_body: u64::from(input.max_body) * 16 + 1,
        jobs: 1,
        ..Config::default()
    };
    let mut request = Request::post(format!("/v1/validate?kind={kind}&format={format}"))
        .header("content-type", "application/json");
    for value in &headers {
        if axum::http::HeaderValue::from_str(value).is_err() {
            return;
        }
        request = request.header("content-encoding", value.as_str());
    }
    let request = request.body(Body::from(body)).expect("a request");
    runtime().block_on(async {
        let response = app(config).oneshot(request).await.expect("an answer");
        let status = response.status();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("the whole body");
        assert!(
            !status.is_server_error(),
            "{status} for {headers:?}: {}",
            String::from_utf8_lossy(&bytes)
        );
        if status == StatusCode::OK {
            match format {
                "json" | "sarif" => {
                    let report: serde_json::Value =
                        serde_json::from_slice(&bytes).expect("the report is JSON");
                    if format == "json" {
                        assert_eq!(report["files"].as_array().map(Vec::len), Some(1));
                    }
                }
                "ndjson" => {
                    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                        serde_json::from_slice::<serde_json::Value>(line)
                            .expect("each line is JSON");
                    }
                }
                _ => assert!(std::str::from_utf8(&bytes).is_ok()),
            }
        } else {
            assert!(status.is_client_error(), "{status}");
            assert!(
                content_type.starts_with("application/problem+json"),
                "{status} {content_type}"
            );
            let problem: serde_json::Value =
                serde_json::from_slice(&bytes).expect("problem details are JSON");
            assert!(problem["title"].is_string(), "{problem}");
        }
    });
});
