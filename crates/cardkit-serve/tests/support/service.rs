//! The service on a free port of its own, on a runtime of its own, for tests
//! that ask it from their own thread (while a browser, a compiler or a
//! Python tool runs there too). Stopped when dropped.

#![allow(dead_code)] // each test uses part of it

use cardkit_serve::Config;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

pub struct Service {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    runtime: tokio::runtime::Runtime,
    stop: oneshot::Sender<()>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Service {
    pub fn start() -> Service {
        Service::start_with(Config::default())
    }

    /// The service with `config`.
    pub fn start_with(config: Config) -> Service {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = runtime
            .block_on(TcpListener::bind("127.0.0.1:0"))
            .expect("a port");
        let base = format!("http://{}", listener.local_addr().expect("its address"));
        let (stop, stopped) = oneshot::channel::<()>();
        let server = runtime.spawn(cardkit_serve::serve(listener, config, async move {
            let _ = stopped.await;
        }));
        Service {
            base,
            runtime,
            stop,
            server,
        }
    }

    /// Status, media type (without parameters) and body of a request;
    /// `body` is the body and its media type.
    pub fn ask(
        &self,
        method: &str,
        request: &str,
        body: Option<(&str, &str)>,
        accept: &str,
    ) -> (u16, String, String) {
        let client = reqwest::Client::new();
        let url = format!("{}{request}", self.base);
        self.runtime.block_on(async {
            let mut builder = match method {
                "post" => client.post(url),
                _ => client.get(url),
            }
            .header("Accept", accept);
            if let Some((body, media)) = body {
                builder = builder.header("Content-Type", media).body(body.to_owned());
            }
            let response = builder.send().await.expect("the service answers");
            let status = response.status().as_u16();
            let media = response
                .headers()
                .get("content-type")
                .and_then(|value| value.to_str().ok())
                .unwrap_or_default()
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_owned();
            (status, media, response.text().await.expect("a body"))
        })
    }

    /// Stops it, and asserts that it ended cleanly.
    pub fn stop(self) {
        let _ = self.stop.send(());
        self.runtime
            .block_on(self.server)
            .expect("the service's task ends")
            .expect("the service ends cleanly");
    }

    /// The OpenAPI document it serves.
    pub fn document(&self) -> serde_json::Value {
        let (status, _, text) = self.ask("get", "/openapi.json", None, "*/*");
        assert_eq!(status, 200);
        serde_json::from_str(&text).expect("the document is JSON")
    }
}
