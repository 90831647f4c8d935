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

mod bodies;
mod connections;
mod render;

const INVALID: &str = include_str!("../../../../../examples/invalid/card-layer-problems.json");

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
    let template = include_str!("../../../../../examples/valid/template.json");
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

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
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
