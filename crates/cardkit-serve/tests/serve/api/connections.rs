//! The service's connections: bodies cut short, clients that leave, shed
//! requests, slow and idle clients, floods of idle connections, and
//! shutdown.

use super::*;

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
