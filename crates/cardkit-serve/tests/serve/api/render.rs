//! `POST /v1/render`: designs drawn as SVG, PNG or JSON with their report;
//! bodies that are not designs, and hostile ones, answered with a problem or
//! a bounded render, never a 5xx.

use std::time::{Duration, Instant};

use cardkit_serve::Config;
use serde_json::{json, Value};

use super::{client, gzip, piecewise, post, problem, Server};

const TEMPLATE: &str = include_str!("../../../../../examples/valid/template.json");
const CARD: &str = include_str!("../../../../../examples/valid/card.json");
const INVALID_CARD: &str = include_str!("../../../../../examples/invalid/card-layer-problems.json");

/// `POST /v1/render{query}` of `body` as JSON, accepting `accept`.
async fn render(
    server: &Server,
    query: &str,
    accept: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    post(
        server,
        &format!("/v1/render{query}"),
        &[("content-type", "application/json"), ("accept", accept)],
        body,
    )
    .await
}

/// A card design of `width` × `height` whose layers are `children`.
fn card(width: u64, height: u64, children: &Value) -> String {
    json!({
        "name": "Test",
        "width": width,
        "height": height,
        "data": {"type": "group", "children": children}
    })
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_template_is_drawn_as_svg_png_or_json_with_its_report() {
    let server = Server::default().await;
    let response = render(&server, "?year=2024", "application/json", TEMPLATE).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let answer: Value = response.json().await.unwrap();
    assert!(answer["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(answer["kind"], "template");
    assert!(answer["converted"].is_null());
    assert!(answer["width"].as_f64().unwrap() > 0.0);
    // The service reads no asset files: each is a report line, and drawn
    // as a placeholder.
    let report = answer["report"].as_array().unwrap();
    assert!(!report.is_empty());
    assert!(report
        .iter()
        .all(|line| line["at"].is_string() && line["message"].is_string()));

    let response = render(&server, "", "image/svg+xml", TEMPLATE).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    assert!(response.text().await.unwrap().starts_with("<svg"));

    let response = render(&server, "", "image/svg+xml;q=0.5, image/png", TEMPLATE).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    assert!(response.bytes().await.unwrap().starts_with(b"\x89PNG\r\n"));
}

/// A card design without a template is drawn as `cardkit render` draws
/// one without `--template`; a body compressed is decoded first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_design_is_drawn_without_a_template_coded_or_not() {
    let server = Server::default().await;
    let answer: Value = render(&server, "", "application/json", CARD)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(answer["kind"], "card");
    assert_eq!(answer["width"], 750.0);
    let response = post(
        &server,
        "/v1/render",
        &[
            ("content-type", "application/json"),
            ("content-encoding", "gzip"),
        ],
        gzip(CARD.as_bytes()),
    )
    .await;
    assert_eq!(response.status(), 200);
    // Compressed without a Content-Encoding: told by its first bytes.
    let response = render(&server, "", "image/svg+xml", gzip(CARD.as_bytes())).await;
    assert_eq!(response.status(), 200);
}

/// The design tool's classic save file is converted, with a note; of its
/// several cards, `card` names the one drawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_design_tools_files_are_converted_and_one_card_chosen() {
    let server = Server::default().await;
    let classic = r#"[{"key": "One", "data": {"width": 750, "height": 1050}},
      {"key": "Two", "data": {"width": 750, "height": 1050}}]"#;
    let response = render(&server, "", "application/json", classic).await;
    assert_eq!(response.status(), 422);
    let detail: Value = response.json().await.unwrap();
    assert_eq!(detail["code"], "not_renderable");
    assert!(
        detail["detail"]
            .as_str()
            .unwrap()
            .contains("name the one to draw with `card`; its designs are named one, two"),
        "{detail}"
    );
    // Of thousands, a few are named, and the rest counted.
    let many: Vec<Value> = (0..3000)
        .map(|i| json!({"key": format!("Card {i}"), "data": {"width": 750, "height": 1050}}))
        .collect();
    let response = render(&server, "", "application/json", json!(many).to_string()).await;
    let detail: Value = response.json().await.unwrap();
    let text = detail["detail"].as_str().unwrap();
    assert!(text.contains("and 2990 more"), "{text}");
    assert!(text.len() < 1000, "{text}");
    let answer: Value = render(&server, "?card=two", "application/json", classic)
        .await
        .json()
        .await
        .unwrap();
    assert!(
        answer["converted"]
            .as_str()
            .unwrap()
            .contains("classic save file (2 cards)"),
        "{answer}"
    );
    let (status, code) =
        problem(render(&server, "?card=three", "application/json", classic).await).await;
    assert_eq!((status, code.as_str()), (400, "bad_parameter"));
}

/// What is not a design is a 422 problem that says why; what the service
/// does not read, a 4xx of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_that_are_not_designs_are_422_problems() {
    let server = Server::start(Config {
        max_body: 4096,
        ..Config::default()
    })
    .await;
    for body in [
        INVALID_CARD,
        "not json",
        "",
        "[1, 2]",
        r#"{"object": "migration"}"#,
    ] {
        let response = render(&server, "", "image/png", body).await;
        let status = response.status();
        let detail: Value = response.json().await.unwrap();
        assert_eq!(status, 422, "{body:.40}: {detail}");
        assert_eq!(detail["code"], "not_renderable");
    }
    let response = post(
        &server,
        "/v1/render",
        &[("content-type", "application/x-ndjson")],
        CARD,
    )
    .await;
    assert_eq!(
        problem(response).await,
        (415, "unsupported_media_type".into())
    );
    let response = render(&server, "", "application/json", " ".repeat(5000)).await;
    assert_eq!(problem(response).await, (413, "body_too_large".into()));
    for query in ["?year=many", "?year=0", "?year=10000", "?colour=red"] {
        let response = render(&server, query, "application/json", CARD).await;
        assert_eq!(
            problem(response).await,
            (400, "bad_parameter".into()),
            "{query}"
        );
    }
}

/// Hostile designs: nesting past the library's depth, a card too large to
/// draw, many layers, a huge text, a PNG past the pixel limit. Each is a
/// 4xx problem or a render bounded in time, never a 5xx.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_designs_get_a_problem_or_a_bounded_render() {
    let server = Server::default().await;
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let nested = format!(
        r#"{{"name": "Deep", "width": 10, "height": 10, "data": {}{}}}"#,
        r#"{"type": "group", "children": ["#.repeat(2000),
        "]}".repeat(2000)
    );
    let huge = card(100_000_000, 100_000_000, &json!([]));
    for body in [deep, nested, huge] {
        let started = Instant::now();
        let response = render(&server, "", "application/json", body).await;
        let status = response.status().as_u16();
        let detail: Value = response.json().await.unwrap();
        assert_eq!(status, 422, "{detail}");
        assert!(started.elapsed() < Duration::from_secs(30));
    }
    // A card of many layers and a text far past the limit of a layer's:
    // drawn, what is past the limits said in the report.
    let layers: Vec<Value> = (0..2000)
        .map(|i| {
            json!({"type": "text", "text": "x", "size": 12, "x": i % 700, "y": i % 1000,
                   "width": 40, "height": 20})
        })
        .collect();
    let long_text = json!([{"type": "text", "text": "word ".repeat(30_000), "size": 12,
        "x": 20, "y": 20, "width": 700, "height": 900}]);
    for body in [card(750, 1050, &json!(layers)), card(750, 1050, &long_text)] {
        let started = Instant::now();
        let response = render(&server, "", "application/json", body).await;
        assert_eq!(response.status(), 200);
        let answer: Value = response.json().await.unwrap();
        assert!(answer["svg"].as_str().unwrap().starts_with("<svg"));
        assert!(started.elapsed() < Duration::from_secs(60));
    }
    let long = render(&server, "", "application/json", card(750, 1050, &long_text)).await;
    let answer: Value = long.json().await.unwrap();
    assert!(
        !answer["report"].as_array().unwrap().is_empty(),
        "the text past the limit is reported: {answer}"
    );
    // A card whose PNG is past the pixel limit: its SVG is drawn, its PNG
    // refused.
    let wide = card(20_000, 10_000, &json!([]));
    let response = render(&server, "", "image/png", wide).await;
    let status = response.status().as_u16();
    let detail: Value = response.json().await.unwrap();
    assert_eq!(status, 422, "{detail}");
    assert_eq!(detail["code"], "not_renderable");
}

/// A body slower than the time limit is a 408, and the slot it held is
/// freed for the next request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_render_keeps_to_the_time_limit() {
    let server = Server::start(Config {
        timeout: Duration::from_secs(1),
        min_body_rate: 0,
        max_concurrent: 1,
        ..Config::default()
    })
    .await;
    let (sender, body) = piecewise();
    sender.send(b"{\"name\": ".to_vec()).await.unwrap();
    let response = client()
        .post(server.url("/v1/render"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(problem(response).await, (408, "timed_out".into()));
    drop(sender);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let response = render(&server, "", "image/svg+xml", CARD).await;
    assert_eq!(response.status(), 200);
}

/// Renders past `max_renders` are shed at once with 503 and `Retry-After`,
/// while other requests are served; the slot is free again once the render
/// holding it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renders_past_their_limit_are_shed() {
    let server = Server::start(Config {
        max_renders: 1,
        min_body_rate: 0,
        ..Config::default()
    })
    .await;
    // A render whose body is still arriving holds the one slot.
    let (sender, body) = piecewise();
    sender.send(b"{\"width\": 750, ".to_vec()).await.unwrap();
    let slow = tokio::spawn(
        client()
            .post(server.url("/v1/render"))
            .header("content-type", "application/json")
            .header("accept", "image/svg+xml")
            .body(body)
            .send(),
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let response = render(&server, "", "image/svg+xml", CARD).await;
    assert_eq!(response.headers()["retry-after"], "1");
    assert_eq!(problem(response).await, (503, "overloaded".into()));
    // Validation is not a render: served.
    let response = post(
        &server,
        "/v1/validate",
        &[("content-type", "application/json")],
        CARD,
    )
    .await;
    assert_eq!(response.status(), 200);
    let rest = r#""name": "Slow", "height": 1050, "data": {"type": "group", "children": []}}"#;
    sender.send(rest.as_bytes().to_vec()).await.unwrap();
    drop(sender);
    let slow = slow.await.unwrap().unwrap();
    assert_eq!(slow.status(), 200, "{:?}", slow.text().await);
    let response = render(&server, "", "image/svg+xml", CARD).await;
    assert_eq!(response.status(), 200);
}

/// With an asset folder (`cardkit serve --assets`), a render reads the
/// design's assets from it as `cardkit render --assets` does (the folder
/// mirrors the template's URL root); what it lacks is still a report line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assets_are_read_from_the_services_asset_folder() {
    let assets = tempfile::tempdir().unwrap();
    std::fs::create_dir(assets.path().join("frames")).unwrap();
    let png = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cardkit-render/tests/assets/custom/11-20-22/white.png");
    std::fs::copy(png, assets.path().join("frames/red.png")).unwrap();
    let lines = |answer: &Value| -> String {
        answer["report"]
            .as_array()
            .unwrap()
            .iter()
            .map(|line| format!("{}: {}\n", line["at"], line["message"]))
            .collect()
    };
    let without: Value = render(&Server::default().await, "", "application/json", TEMPLATE)
        .await
        .json()
        .await
        .unwrap();
    assert!(
        lines(&without).contains("image `frames/red.png`"),
        "{}",
        lines(&without)
    );
    let server = Server::start(Config {
        assets: Some(assets.path().to_path_buf()),
        ..Config::default()
    })
    .await;
    let with: Value = render(&server, "", "application/json", TEMPLATE)
        .await
        .json()
        .await
        .unwrap();
    let report = lines(&with);
    assert!(!report.contains("image `frames/red.png`"), "{report}");
    assert!(
        report.contains("`masks/pinline.png` is not in the asset directory"),
        "{report}"
    );
}
