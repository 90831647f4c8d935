//! The service in process, on 127.0.0.1:0: every route, every status it
//! documents, coded bodies, streamed reports, bodies cut short, clients that
//! leave, the limits, and shutdown.

use std::io::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use cardkit_serve::Config;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot};

const INVALID: &str = include_str!("../../../../examples/invalid/card-layer-problems.json");

/// A service running on a free port until dropped (or shut down).
struct Server {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    done: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    async fn start(config: Config) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let done = tokio::spawn(cardkit_serve::serve(listener, config, async {
            let _ = stopped.await;
        }));
        Server {
            addr,
            stop: Some(stop),
            done: Some(done),
        }
    }

    async fn default() -> Server {
        Server::start(Config::default()).await
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Asks the service to stop, and waits until it has.
    async fn shut_down(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let done = self.done.take().unwrap();
        tokio::time::timeout(Duration::from_secs(30), done)
            .await
            .expect("the service stops")
            .unwrap()
            .unwrap();
    }

    async fn metric(&self, name: &str) -> f64 {
        let text = client()
            .get(self.url("/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no metric {name} in\n{text}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_gzip()
        .no_zstd()
        .build()
        .unwrap()
}

async fn post_json(
    server: &Server,
    query: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    let path = format!("/v1/validate{query}");
    post(server, &path, &[("content-type", "application/json")], body).await
}

/// `POST path` with the given headers and body.
async fn post(
    server: &Server,
    path: &str,
    headers: &[(&str, &str)],
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    let mut request = client().post(server.url(path));
    for &(name, value) in headers {
        request = request.header(name, value);
    }
    request.body(body).send().await.unwrap()
}

/// A problem's status, content type and `code`.
async fn problem(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(content_type, "application/problem+json", "status {status}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], status);
    assert_eq!(body["type"], "about:blank");
    assert!(!body["detail"].as_str().unwrap().is_empty());
    (status, body["code"].as_str().unwrap().to_owned())
}

fn codes(report: &Value) -> Vec<String> {
    report["files"][0]["documents"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["diagnostics"].as_array().unwrap())
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

/// The library's own JSON report of `input`, as `cardkit validate --format
/// json` writes it, without its time.
fn library_report(input: &[u8], name: &str, json_lines: bool) -> Value {
    use cardkit::report::{Summary, WarningFilter};
    use cardkit_run::render::{Json, Renderer};
    let options = cardkit::Options {
        json_lines,
        ..cardkit::Options::default()
    };
    let report = cardkit::validate(input, &options);
    let mut summary = Summary::default();
    summary.add(&report, input.len() as u64);
    let mut renderer = Json::new(WarningFilter::default());
    let mut out = Vec::new();
    renderer.file(&mut out, name, &report).unwrap();
    renderer.finish(&mut out, &summary).unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// The report without its time, nor how each file was read: the library's
/// one-shot report of bytes (`library_report`) reads no file's `meta`
/// ahead, and says nothing of it.
fn without_time(mut report: Value) -> Value {
    let summary = report["summary"].as_object_mut().unwrap();
    for key in ["seconds", "read_under", "checked_as_of", "ways_out"] {
        summary.remove(key);
    }
    for file in report["files"].as_array_mut().into_iter().flatten() {
        if let Some(file) = file.as_object_mut() {
            file.remove("reading");
        }
    }
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_is_the_librarys_with_one_file_entry_for_the_body() {
    let server = Server::default().await;
    let response = post_json(&server, "?name=card.json", INVALID).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let report: Value = response.json().await.unwrap();
    assert!(report["summary"]["seconds"].is_f64());
    assert_eq!(
        without_time(report),
        library_report(INVALID.as_bytes(), "card.json", false)
    );
    // Valid or not, 200; the body's name defaults to `<body>`.
    let report: Value = post_json(&server, "", r#"{"object": "migration"}"#)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(report["files"][0]["path"], "<body>");
    assert_eq!(codes(&report), ["missing_field"; 3]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_query_takes_the_command_lines_options() {
    let server = Server::default().await;
    let template = include_str!("../../../../examples/valid/template.json");
    let as_migration: Value = post_json(&server, "?kind=migration", template)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        as_migration["files"][0]["documents"][0]["kind"],
        "migration"
    );
    assert_eq!(as_migration["files"][0]["valid"], false);
    let unknown = r#"{"object": "migration", "id": "3f1b0c4e-2d5a-4c8e-9b7f-1a2b3c4d5e6f", "uri": "https://example.org/m/1", "created_at": "2024-01-01T00:00:00Z", "migration_strategy": "delete", "old_catalogA_id": "3f1b0c4e-2d5a-4c8e-9b7f-1a2b3c4d5e6f", "extra": 1}"#;
    let lenient: Value = post_json(&server, "", unknown).await.json().await.unwrap();
    let strict: Value = post_json(&server, "?deny_unknown_fields=true", unknown)
        .await
        .json()
        .await
        .unwrap();
    let severity = |report: &Value| {
        report["files"][0]["documents"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "unknown_field")
            .map(|d| d["severity"].clone())
    };
    assert_eq!(severity(&lenient), Some("warning".into()));
    assert_eq!(severity(&strict), Some("error".into()));
    for bad in [
        "?kind=deck",
        "?kidn=set",
        "?as_of=five",
        "?as_of=latest&strict_version=true",
        "?strict=true&names=spec",
        "?warn=everything",
        "?warning_limit=-1",
        "?deny_unknown_fields=maybe",
        "?names=mtgjson",
    ] {
        let (status, code) = problem(post_json(&server, bad, "{}").await).await;
        assert_eq!((status, code.as_str()), (400, "bad_parameter"), "{bad}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_upstream_reads_the_publishers_names_in_bodies_and_references() {
    let server = Server::default().await;
    let notice = r#"{"object": "migration", "id": "3f1b0c4e-2d5a-4c8e-9b7f-1a2b3c4d5e6f", "uri": "https://example.org/m/1", "performed_at": "2024-01-01", "migration_strategy": "delete", "old_scryfall_id": "3f1b0c4e-2d5a-4c8e-9b7f-1a2b3c4d5e6f"}"#;
    let spec: Value = post_json(&server, "?kind=migration&names=spec", notice)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(spec["files"][0]["valid"], false);
    assert!(codes(&spec).contains(&"missing_field".to_owned()));
    assert!(
        spec["files"][0]["note"]
            .as_str()
            .is_some_and(|note| note.contains("?names=auto")),
        "{spec}"
    );
    // By default, read under the names the notice uses.
    let auto: Value = post_json(&server, "?kind=migration", notice)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(auto["files"][0]["valid"], true, "{auto}");
    assert_eq!(auto["files"][0]["reading"]["names"], "upstream", "{auto}");
    let upstream: Value = post_json(&server, "?kind=migration&names=upstream", notice)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(upstream["files"][0]["valid"], true, "{upstream}");
    assert!(codes(&upstream).is_empty(), "{upstream}");

    let get = |path: &str| client().get(server.url(path)).send();
    let schema: Value = get("/v1/schema/migration?names=upstream")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(schema["properties"]["performed_at"].is_object(), "{schema}");
    assert!(schema["properties"].get("created_at").is_none());
    let fields: Value = get("/v1/fields/set?names=upstream")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let icon = fields
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["pointer"] == "/keyruneCode")
        .expect("the set's icon code under its upstream name");
    assert_eq!(icon["spec_name"], "iconCode");
    let (status, _) = problem(get("/v1/schema/set?names=x").await.unwrap()).await;
    assert_eq!(status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_lines_bodies_and_media_types() {
    let server = Server::default().await;
    let lines = "{\"object\": \"migration\"}\n{}\n";
    let report: Value = post(
        &server,
        "/v1/validate",
        &[("content-type", "application/x-ndjson")],
        lines,
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(
        without_time(report),
        library_report(lines.as_bytes(), "<body>", true)
    );
    for media in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/xml",
    ] {
        let response = post(&server, "/v1/validate", &[("content-type", media)], "{}").await;
        assert_eq!(
            problem(response).await,
            (415, "unsupported_media_type".into()),
            "{media}"
        );
    }
    // No Content-Type: taken as JSON.
    let response = post(&server, "/v1/validate", &[], "{}").await;
    assert_eq!(response.status(), 200);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

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
            let options = lzma_rust2::XzOptions::with_preset(6);
            let mut encoder = lzma_rust2::XzWriter::new(Vec::new(), options).unwrap();
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
    let lines = include_str!("../../../../examples/valid/migrations.jsonl").to_owned() + "{}\n";
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

/// A body sent a piece at a time, each when the test says.
fn piecewise() -> (mpsc::Sender<Vec<u8>>, reqwest::Body) {
    let (sender, receiver) = mpsc::channel::<Vec<u8>>(4);
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        let piece = receiver.recv().await?;
        Some((Ok::<_, std::io::Error>(piece), receiver))
    });
    (sender, reqwest::Body::wrap_stream(stream))
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
async fn sarif_is_given_when_accepted() {
    let server = Server::default().await;
    let response = post(
        &server,
        "/v1/validate?name=card.json",
        &[
            ("content-type", "application/json"),
            ("accept", "application/sarif+json"),
        ],
        INVALID,
    )
    .await;
    assert_eq!(response.headers()["content-type"], "application/sarif+json");
    let sarif: Value = response.json().await.unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let expected = codes(&library_report(INVALID.as_bytes(), "card.json", false));
    assert_eq!(results.len(), expected.len());
}

/// Writes a raw request and returns the stream.
async fn raw(server: &Server, head: &str, body: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    stream
}

async fn response_text(stream: &mut TcpStream) -> String {
    let mut text = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut text)).await;
    String::from_utf8_lossy(&text).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_cut_short_is_a_400_problem() {
    let server = Server::default().await;
    let head = "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n";
    let mut stream = raw(&server, head, b"{\"object\": \"migr").await;
    stream.shutdown().await.unwrap();
    let text = response_text(&mut stream).await;
    assert!(text.starts_with("HTTP/1.1 400"), "{text}");
    assert!(text.contains("application/problem+json"), "{text}");
    assert!(text.contains("unreadable_body"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_mid_upload_frees_its_slot() {
    let server = Server::start(Config {
        max_concurrent: 1,
        ..Config::default()
    })
    .await;
    let head = "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    // Plain, and gzipped without Content-Encoding (told by its first bytes).
    let large = format!("[{}]", vec![INVALID; 200].join(","));
    let gzipped = gzip(large.as_bytes());
    for start in [&b"[{\"object\": \"mig"[..], &gzipped[..gzipped.len() / 2]] {
        let mut chunk = format!("{:x}\r\n", start.len()).into_bytes();
        chunk.extend_from_slice(start);
        chunk.extend_from_slice(b"\r\n");
        let stream = raw(&server, head, &chunk).await;
        // While it uploads, it holds the one slot.
        wait_for(|| async { server.metric("cardkit_http_requests_in_flight").await >= 2.0 }).await;
        let (status, code) = problem(post_json(&server, "", "{}").await).await;
        assert_eq!((status, code.as_str()), (503, "overloaded"));
        drop(stream);
        // Gone: its slot is free again.
        wait_for(|| async { post_json(&server, "", "{}").await.status() == 200 }).await;
    }
    assert!(server.metric("cardkit_http_requests_shed_total").await >= 2.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shed_requests_say_when_to_come_back() {
    let server = Server::start(Config {
        max_concurrent: 1,
        ..Config::default()
    })
    .await;
    let (pieces, body) = piecewise();
    pieces.send(b"[".to_vec()).await.unwrap();
    let slow = tokio::spawn(post_json_owned(server.url("/v1/validate"), body));
    wait_for(|| async { server.metric("cardkit_http_requests_in_flight").await >= 2.0 }).await;
    let response = post_json(&server, "", "{}").await;
    assert_eq!(response.headers()["retry-after"], "1");
    assert_eq!(problem(response).await.0, 503);
    // Operations are never shed.
    let health = client().get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    pieces.send(b"]".to_vec()).await.unwrap();
    drop(pieces);
    assert_eq!(slow.await.unwrap(), 200);
}

async fn post_json_owned(url: String, body: reqwest::Body) -> u16 {
    client()
        .post(url)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_slower_than_the_time_limit_gets_408() {
    let server = Server::start(Config {
        timeout: Duration::from_secs(1),
        ..Config::default()
    })
    .await;
    // Plain, and gzipped without Content-Encoding (told by its first bytes).
    let gzipped = gzip(format!("[{}]", vec!["{}"; 100_000].join(",")).as_bytes());
    for start in [&b"[{}"[..], &gzipped[..gzipped.len() / 2]] {
        let (pieces, body) = piecewise();
        pieces.send(start.to_vec()).await.unwrap();
        let response = post_json(&server, "", body).await;
        assert_eq!(problem(response).await, (408, "timed_out".into()));
        drop(pieces);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_lets_requests_in_flight_finish() {
    let server = Server::default().await;
    let (pieces, body) = piecewise();
    pieces.send(b"{\"object\": ".to_vec()).await.unwrap();
    let url = server.url("/v1/validate");
    let slow = tokio::spawn(post_json_owned(url, body));
    wait_for(|| async { server.metric("cardkit_http_requests_in_flight").await >= 2.0 }).await;
    let addr = server.addr;
    let stopping = tokio::spawn(server.shut_down());
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !stopping.is_finished(),
        "it waits for the request in flight"
    );
    // New connections are no longer taken.
    assert!(TcpStream::connect(addr).await.is_err());
    pieces.send(b"\"migration\"}".to_vec()).await.unwrap();
    drop(pieces);
    assert_eq!(slow.await.unwrap(), 200);
    tokio::time::timeout(Duration::from_secs(10), stopping)
        .await
        .expect("it stops once the request is answered")
        .unwrap();
}

async fn wait_for<F, Fut>(condition: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..200 {
        if condition().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the condition did not come true within 5 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reference_routes_give_the_librarys_outputs() {
    let server = Server::default().await;
    let get = |path: &str| client().get(server.url(path)).send();
    let schema: Value = get("/v1/schema/set").await.unwrap().json().await.unwrap();
    assert_eq!(
        schema,
        serde_json::to_value(cardkit::schema::json_schema::json_schema(
            cardkit::Kind::Set
        ))
        .unwrap()
    );
    let wrapped: Value = get("/v1/schema/set?container=code-map&as_of=v5.0.0&annotations=true")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let options = cardkit::schema::json_schema::SchemaOptions {
        container: cardkit::model::Layout::CodeMap,
        as_of: Some("v5.0.0".parse().unwrap()),
        annotations: true,
        ..cardkit::schema::json_schema::SchemaOptions::default()
    };
    assert_eq!(
        wrapped,
        cardkit::schema::json_schema::json_schema_with(cardkit::Kind::Set, &options)
    );
    let fields: Value = get("/v1/fields/set?since=v5.2.0&deprecated=false")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let filter = cardkit_run::listing::Filter {
        since: Some("v5.2.0".parse().unwrap()),
        ..cardkit_run::listing::Filter::default()
    };
    let listing = cardkit_run::listing::Listing::new(cardkit::Kind::Set, &filter);
    assert_eq!(fields, serde_json::to_value(listing.rows()).unwrap());
    let explained: Value = get("/v1/explain/set?pointer=/cards/3/uuid")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        explained,
        serde_json::to_value(
            cardkit_run::explain::explain(cardkit::Kind::Set, "/cards/3/uuid").unwrap()
        )
        .unwrap()
    );
    // What reports give: a pointer from the file's root, a `Model.field`.
    for (query, input) in [
        ("pointer=/data/NEO/cards/3/uuid", "/data/NEO/cards/3/uuid"),
        ("pointer=CardSet.uuid", "CardSet.uuid"),
    ] {
        let explained: Value = get(&format!("/v1/explain/set?{query}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let library = cardkit_run::explain::explain(cardkit::Kind::Set, input).unwrap();
        assert_eq!(explained, serde_json::to_value(library).unwrap(), "{input}");
    }
    let code: Value = get("/v1/explain/code/missing_field")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let library = cardkit_run::codes::explain_code(cardkit::Code::MissingField);
    assert_eq!(code, serde_json::to_value(library).unwrap());
    assert_eq!(code["diagnostics"][0]["code"], "missing_field");
    // The import's codes are explained with the diagnostic the import gives.
    let dropped: Value = get("/v1/explain/code/dropped_member")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(dropped["diagnostics"][0]["code"], "dropped_member");
    for (path, status) in [
        ("/v1/explain/code/missing_feild", 404),
        ("/v1/explain/set?pointer=cards/0/uuid", 404),
        ("/v1/schema/deck", 404),
        ("/v1/schema/set?container=code_map", 400),
        ("/v1/schema/set?as_of=v3.0.0", 400),
        ("/v1/schema/set?as_of=auto", 400),
        ("/v1/schema/set?annotations=maybe", 400),
        ("/v1/fields/deck", 404),
        ("/v1/fields/set?since=soon", 400),
        ("/v1/fields/set?since=v9.9.9", 400),
        ("/v1/fields/set?since=v3.0.0", 400),
        ("/v1/explain/set", 400),
        ("/v1/explain/set?pointer=/cardz", 404),
        ("/v2/validate", 404),
    ] {
        let response = get(path).await.unwrap();
        assert_eq!(problem(response).await.0, status, "{path}");
    }
    let response = client()
        .delete(server.url("/v1/validate"))
        .send()
        .await
        .unwrap();
    assert_eq!(problem(response).await, (405, "method_not_allowed".into()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operations_routes() {
    let server = Server::default().await;
    let get = |path: &str| client().get(server.url(path)).send();
    assert_eq!(get("/healthz").await.unwrap().text().await.unwrap(), "ok\n");
    assert_eq!(get("/readyz").await.unwrap().status(), 200);
    let openapi: Value = get("/openapi.json").await.unwrap().json().await.unwrap();
    assert!(openapi["openapi"].as_str().unwrap().starts_with("3."));
    for path in [
        "/v1/validate",
        "/v1/schema/{kind}",
        "/v1/fields/{kind}",
        "/v1/explain/{kind}",
        "/v1/explain/code/{code}",
        "/healthz",
        "/readyz",
        "/metrics",
    ] {
        assert!(openapi["paths"][path].is_object(), "{path} is documented");
    }
    post_json(&server, "", INVALID).await.bytes().await.unwrap();
    let metrics = get("/metrics").await.unwrap().text().await.unwrap();
    for expected in [
        "cardkit_http_requests_total{route=\"/v1/validate\",method=\"POST\",status=\"200\"} 1",
        "cardkit_validated_documents_total{valid=\"false\"} 1",
        &format!("cardkit_validated_bytes_total {}", INVALID.len()),
        "cardkit_diagnostics_total{code=\"wrong_type\",severity=\"error\"}",
        "cardkit_http_request_duration_seconds_bucket",
        "cardkit_http_requests_in_flight 1",
        "cardkit_http_requests_shed_total 0",
    ] {
        assert!(metrics.contains(expected), "{expected} in\n{metrics}");
    }
    let page = get("/").await.unwrap();
    assert!(page.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(page.headers().contains_key("content-security-policy"));
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

/// The OpenAPI document's pattern for `as_of` starts at the first version
/// tag of the format: what it lets through, the service takes.
#[test]
fn the_as_of_pattern_starts_at_the_first_version_tag() {
    use cardkit::validate::as_of_version;
    assert!(as_of_version("v4.0.0").is_ok());
    assert!(as_of_version("v3.99.99").is_err());
}

/// An HTTP/2 connection's preface and an empty SETTINGS frame: what a
/// client sends before its first request.
const H2C_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";

/// Whether the service closes `stream` within `within` (reading and
/// dropping what it sends, such as HTTP/2's SETTINGS).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut sink = Vec::new();
    tokio::time::timeout(within, stream.read_to_end(&mut sink))
        .await
        .is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed_after_the_idle_timeout() {
    let server = Server::start(Config {
        idle_timeout: Duration::from_secs(1),
        ..Config::default()
    })
    .await;
    // Nothing at all, part of a head, an HTTP/2 preface and SETTINGS, and a
    // keep-alive connection after its response.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let mut partial = raw(&server, "GET /healthz HTTP/1.1\r\nHo", b"").await;
    let mut h2c = raw(&server, "", H2C_PREFACE).await;
    let mut kept = raw(&server, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", b"").await;
    let started = std::time::Instant::now();
    for (what, stream) in [
        ("no bytes", &mut silent),
        ("part of a head", &mut partial),
        ("an h2c preface", &mut h2c),
        ("a kept-alive connection", &mut kept),
    ] {
        assert!(
            closed_within(stream, Duration::from_secs(5)).await,
            "{what}: not closed"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(4));
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_idle_connections_does_not_lock_out_new_ones() {
    // At most 64 connections (the floor) with one slot; the idle timeout is
    // the default 30 s, longer than the test: the ones idle longest are
    // closed for new ones.
    let server = Server::start(Config {
        max_concurrent: 1,
        ..Config::default()
    })
    .await;
    let mut idle = Vec::new();
    for i in 0..200 {
        let stream = if i % 4 == 0 {
            raw(&server, "", H2C_PREFACE).await
        } else {
            TcpStream::connect(server.addr).await.unwrap()
        };
        idle.push(stream);
    }
    let started = std::time::Instant::now();
    let quick = reqwest::Client::builder()
        .timeout(Duration::from_secs(3))
        .build()
        .unwrap();
    for path in ["/healthz", "/", "/healthz"] {
        let response = quick.get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
    }
    assert_eq!(post_json(&server, "", "{}").await.status(), 200);
    assert!(started.elapsed() < Duration::from_secs(5));
    // The ones idle longest were closed; the newest are still open.
    let mut first = idle.remove(0);
    assert!(closed_within(&mut first, Duration::from_secs(1)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_slower_than_the_minimum_rate_gets_408_and_frees_its_slot() {
    // 100 bytes a second over half-second windows: a byte every 200 ms is
    // too slow.
    let server = Server::start(Config {
        max_concurrent: 1,
        min_body_rate: 100,
        body_window: Duration::from_millis(500),
        ..Config::default()
    })
    .await;
    let head = "POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n";
    let stream = raw(&server, head, b"[").await;
    let started = std::time::Instant::now();
    let (mut reading, mut writing) = stream.into_split();
    let trickle = tokio::spawn(async move {
        for _ in 0..50 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if writing.write_all(b" ").await.is_err() {
                break;
            }
        }
    });
    let mut answer = [0_u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(5), reading.read(&mut answer))
        .await
        .expect("answered while the body trickles")
        .unwrap();
    trickle.abort();
    let text = String::from_utf8_lossy(&answer[..n]);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("body_too_slow"), "{text}");
    assert!(started.elapsed() < Duration::from_secs(3));
    // Its slot is free again; a body sent at once is taken.
    wait_for(|| async { post_json(&server, "", "{}").await.status() == 200 }).await;
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
