//! The service's bodies: gzip, zstd and the other codings, told by their
//! header or their first bytes, cut short, over the limit, streamed while
//! they arrive, hostile; and compressed responses.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gzip_and_zstd_bodies_are_decoded() {
    let server = Server::default().await;
    let expected = library_report(INVALID.as_bytes(), "<body>", false);
    for (coding, body) in [
        ("gzip", gzip(INVALID.as_bytes())),
        ("zstd", zstd::encode_all(INVALID.as_bytes(), 3).unwrap()),
    ] {
        let response = post(
            &server,
            "/v1/validate",
            &[
                ("content-type", "application/json"),
                ("content-encoding", coding),
            ],
            body,
        )
        .await;
        assert_eq!(response.status(), 200, "{coding}");
        let report: Value = response.json().await.unwrap();
        assert_eq!(report["summary"]["bytes"], INVALID.len(), "{coding}");
        assert_eq!(without_time(report), expected, "{coding}");
    }
    for coding in ["br", "deflate, gzip", "compress"] {
        let response = post(
            &server,
            "/v1/validate",
            &[
                ("content-type", "application/json"),
                ("content-encoding", coding),
            ],
            "{}",
        )
        .await;
        assert_eq!(
            problem(response).await,
            (415, "unsupported_media_type".into()),
            "{coding}"
        );
    }
    // A body that says gzip and is not.
    let response = post(
        &server,
        "/v1/validate",
        &[
            ("content-type", "application/json"),
            ("content-encoding", "gzip"),
        ],
        "{\"object\": \"migration\"}",
    )
    .await;
    assert_eq!(problem(response).await, (400, "unreadable_body".into()));
}

/// `bytes` compressed as a file is (`cards.json.xz`), to be sent as it is.
fn compressed(format: &str, bytes: &[u8]) -> Vec<u8> {
    match format {
        "gzip" => gzip(bytes),
        "zstd" => zstd::encode_all(bytes, 3).unwrap(),
        "xz" => {
            let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
            encoder.write_all(bytes).unwrap();
            encoder.finish().unwrap()
        }
        "bzip2" => {
            let level = bzip2::Compression::default();
            let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), level);
            encoder.write_all(bytes).unwrap();
            encoder.finish().unwrap()
        }
        other => panic!("no format {other}"),
    }
}

/// A problem's `detail`, with its status and `code`.
async fn problem_detail(response: reqwest::Response) -> (u16, String, String) {
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    let text = |key: &str| body[key].as_str().unwrap().to_owned();
    (status, text("code"), text("detail"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compressed_bodies_without_content_encoding_are_told_by_their_first_bytes() {
    let server = Server::default().await;
    let expected = library_report(INVALID.as_bytes(), "<body>", false);
    let json = ("content-type", "application/json");
    for format in ["gzip", "zstd", "xz", "bzip2"] {
        let body = compressed(format, INVALID.as_bytes());
        for headers in [&[json][..], &[json, ("content-encoding", "identity")]] {
            let response = post(&server, "/v1/validate", headers, body.clone()).await;
            assert_eq!(response.status(), 200, "{format} {headers:?}");
            let report: Value = response.json().await.unwrap();
            // The bytes validated: those decoded.
            assert_eq!(report["summary"]["bytes"], INVALID.len(), "{format}");
            assert_eq!(without_time(report), expected, "{format} {headers:?}");
        }
    }
    // JSON Lines, as its media type says.
    let lines = include_str!("../../../../../examples/valid/migrations.jsonl").to_owned() + "{}\n";
    let response = post(
        &server,
        "/v1/validate",
        &[("content-type", "application/x-ndjson")],
        compressed("xz", lines.as_bytes()),
    )
    .await;
    let report: Value = response.json().await.unwrap();
    let expected_lines = library_report(lines.as_bytes(), "<body>", true);
    assert_eq!(without_time(report), expected_lines);
    // A body decoded by its Content-Encoding is not told by its first bytes
    // again: gzip within gzip is validated as the inner gzip's bytes.
    let inner = gzip(INVALID.as_bytes());
    let response = post(
        &server,
        "/v1/validate",
        &[json, ("content-encoding", "gzip")],
        gzip(&inner),
    )
    .await;
    let report: Value = response.json().await.unwrap();
    assert_eq!(codes(&report), ["invalid_json"]);
    // A zip archive cannot be read as a stream.
    let (status, code, detail) = problem_detail(
        post(
            &server,
            "/v1/validate",
            &[json],
            &b"PK\x03\x04 and the rest"[..],
        )
        .await,
    )
    .await;
    assert_eq!((status, code.as_str()), (400, "unreadable_body"));
    assert!(detail.starts_with("zip: "), "{detail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_truncated_compressed_body_is_a_400_problem_as_a_truncated_coded_one() {
    let server = Server::default().await;
    let json = ("content-type", "application/json");
    let mut cut = gzip(INVALID.as_bytes());
    cut.truncate(cut.len() / 2);
    let coded = [json, ("content-encoding", "gzip")];
    let declared = problem_detail(post(&server, "/v1/validate", &coded, cut.clone()).await).await;
    let told = problem_detail(post(&server, "/v1/validate", &[json], cut).await).await;
    assert_eq!((declared.0, declared.1.as_str()), (400, "unreadable_body"));
    assert_eq!((told.0, told.1.as_str()), (400, "unreadable_body"));
    // The same words, naming the format.
    assert_eq!(declared.2, "gzip: unexpected end of file");
    assert_eq!(told.2, "gzip: unexpected end of file");
    for format in ["zstd", "xz", "bzip2"] {
        let mut cut = compressed(format, INVALID.as_bytes());
        cut.truncate(cut.len() / 2);
        let (status, code, detail) =
            problem_detail(post(&server, "/v1/validate", &[json], cut).await).await;
        assert_eq!(
            (status, code.as_str()),
            (400, "unreadable_body"),
            "{format}"
        );
        assert!(detail.starts_with(&format!("{format}: ")), "{detail}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_over_the_limit_get_413_declared_streamed_or_decoded() {
    let server = Server::start(Config {
        max_body: 1000,
        ..Config::default()
    })
    .await;
    let large = format!("[{}]", vec!["{}"; 600].join(","));
    // Declared by Content-Length.
    let (status, code) = problem(post_json(&server, "", large.clone()).await).await;
    assert_eq!((status, code.as_str()), (413, "body_too_large"));
    // Streamed with no length.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = large
        .as_bytes()
        .chunks(100)
        .map(|c| Ok(c.to_vec()))
        .collect();
    let body = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
    let (status, _) = problem(post_json(&server, "", body).await).await;
    assert_eq!(status, 413);
    // Gzipped without Content-Encoding, streamed, and larger as sent than
    // decoded (noise does not compress): the limit on the bytes received is
    // met first, under the decoder, and answered as itself.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let noise: Vec<u8> = (0..3000)
        .map(|_| {
            // xorshift64: bytes without a pattern to compress.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect();
    let noisy = gzip(&noise);
    assert!(noisy.len() > noise.len());
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        noisy.chunks(100).map(|c| Ok(c.to_vec())).collect();
    let body = reqwest::Body::wrap_stream(futures_util::stream::iter(chunks));
    let (status, _) = problem(post_json(&server, "", body).await).await;
    assert_eq!(status, 413);
    // Small when coded, large when decoded: a gzip bomb in miniature.
    let bomb = gzip(" ".repeat(100_000_000).as_bytes());
    assert!(bomb.len() < 1_000_000);
    let server = Server::start(Config {
        max_body: 1_000_000,
        ..Config::default()
    })
    .await;
    let response = post(
        &server,
        "/v1/validate",
        &[("content-encoding", "gzip")],
        bomb.clone(),
    )
    .await;
    assert_eq!(problem(response).await.0, 413);
    // The same sent without Content-Encoding: told by its first bytes, and
    // held to the same limit on the bytes decoded.
    let response = post(&server, "/v1/validate", &[], bomb).await;
    assert_eq!(problem(response).await.0, 413);
    let zstd_bomb = zstd::encode_all(" ".repeat(100_000_000).as_bytes(), 3).unwrap();
    let response = post(&server, "/v1/validate", &[], zstd_bomb).await;
    assert_eq!(problem(response).await.0, 413);
    // At the limit: validated.
    let at_limit = format!("{}{}", " ".repeat(999_998), "{}");
    assert_eq!(post_json(&server, "", at_limit).await.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_lines_reports_stream_while_the_body_still_arrives() {
    let server = Server::default().await;
    let (pieces, body) = piecewise();
    pieces
        .send(b"{\"object\": \"migration\"}\n".to_vec())
        .await
        .unwrap();
    let response = post(
        &server,
        "/v1/validate",
        &[
            ("content-type", "application/x-ndjson"),
            ("accept", "application/x-ndjson"),
        ],
        body,
    )
    .await;
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let mut response = response;
    // The first document's line comes before the rest of the body is sent
    // (the first line is reported once the second begins: its end is known).
    pieces
        .send(b"{\"object\": \"migration\"".to_vec())
        .await
        .unwrap();
    let first = tokio::time::timeout(Duration::from_secs(10), response.chunk())
        .await
        .expect("the first line comes while the body is still open")
        .unwrap()
        .unwrap();
    let line: Value = serde_json::from_slice(first.strip_suffix(b"\n").unwrap()).unwrap();
    assert_eq!(line["type"], "document");
    assert_eq!(line["line"], 1);
    assert_eq!(line["valid"], false);
    pieces.send(b"}\n".to_vec()).await.unwrap();
    drop(pieces);
    let mut rest = first.to_vec();
    while let Some(chunk) = response.chunk().await.unwrap() {
        rest.extend_from_slice(&chunk);
    }
    let lines: Vec<Value> = rest
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let types: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["document", "document", "file", "summary"]);
    assert_eq!(lines[3]["summary"]["documents"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_are_compressed_for_clients_that_ask() {
    let server = Server::default().await;
    let response = client()
        .get(server.url("/v1/schema/set"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-encoding"], "gzip");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_bodies_are_reported_not_fatal() {
    let server = Server::default().await;
    let deep = "[".repeat(1_000_000);
    let nul_in_string = "{\"object\": \"migr\u{0}ation\"}";
    let huge_key = format!("{{\"{}\": 1}}", "k".repeat(20_000_000));
    let many = "{}\n".repeat(50_000);
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("deep", deep.into_bytes(), "application/json"),
        (
            "invalid UTF-8",
            b"{\"object\": \"\xff\xfe\"}".to_vec(),
            "application/json",
        ),
        (
            "a control character",
            nul_in_string.as_bytes().to_vec(),
            "application/json",
        ),
        ("a 20 MB key", huge_key.into_bytes(), "application/json"),
        (
            "50,000 tiny documents",
            many.into_bytes(),
            "application/x-ndjson",
        ),
    ];
    for (what, body, media) in cases {
        let response = post(&server, "/v1/validate", &[("content-type", media)], body).await;
        assert_eq!(response.status(), 200, "{what}");
        let report: Value = response.json().await.unwrap();
        assert_eq!(report["files"][0]["valid"], false, "{what}");
        assert!(
            report["summary"]["invalid"].as_u64().unwrap() >= 1,
            "{what}"
        );
    }
    assert_eq!(
        client()
            .get(server.url("/healthz"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

/// A streamed report read through the compression layer is polled once more
/// after its end; it must end cleanly (it once panicked the connection).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compressed_report_ends_cleanly() {
    let server = Server::default().await;
    let client = reqwest::Client::new();
    for _ in 0..20 {
        let response = client
            .post(server.url("/v1/validate"))
            .header("content-type", "application/json")
            .header("accept-encoding", "gzip")
            .body(INVALID)
            .send()
            .await
            .unwrap();
        let report: Value = response.json().await.expect("a whole report");
        assert_eq!(report["files"][0]["valid"], false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_codings_are_read_in_any_case_and_in_the_order_applied() {
    let server = Server::default().await;
    let expected = library_report(INVALID.as_bytes(), "<body>", false);
    let once = gzip(INVALID.as_bytes());
    let twice = gzip(&once);
    let gzip_then_zstd = zstd::encode_all(&once[..], 3).unwrap();
    let json = ("content-type", "application/json");
    for (codings, body) in [
        (&["x-gzip"][..], &once),
        (&["GZIP"], &once),
        (&["identity, gzip"], &once),
        (&["Identity"], &INVALID.as_bytes().to_vec()),
        (&["gzip", "gzip"], &twice),
        (&["gzip, gzip"], &twice),
        (&["gzip, zstd"], &gzip_then_zstd),
        (&["gzip", "ZSTD"], &gzip_then_zstd),
    ] {
        let mut request = client()
            .post(server.url("/v1/validate"))
            .header(json.0, json.1);
        for coding in codings {
            request = request.header("content-encoding", *coding);
        }
        let response = request.body(body.clone()).send().await.unwrap();
        assert_eq!(response.status(), 200, "{codings:?}");
        let report: Value = response.json().await.unwrap();
        assert_eq!(without_time(report), expected, "{codings:?}");
    }
    // Codings not read: a problem naming the ones that are, never a bare
    // status.
    for coding in [
        "br",
        "gzip, br",
        "deflate",
        "x-compress",
        "gzip, gzip, gzip, gzip, gzip",
    ] {
        let response = post(
            &server,
            "/v1/validate",
            &[json, ("content-encoding", coding)],
            "{}",
        )
        .await;
        assert_eq!(
            response.headers()["content-type"],
            "application/problem+json"
        );
        let (status, code, detail) = problem_detail(response).await;
        assert_eq!(
            (status, code.as_str()),
            (415, "unsupported_media_type"),
            "{coding}"
        );
        assert!(
            detail.contains("gzip") && detail.contains("zstd"),
            "{detail}"
        );
    }
}
