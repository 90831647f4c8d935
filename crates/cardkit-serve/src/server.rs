//! Serving connections: HTTP/1 and HTTP/2, a bounded number of connections
//! (the one idle longest is closed for a new one when they are all taken), a
//! time limit on connections that have no request being served, and a
//! graceful shutdown that lets requests in flight finish.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use bytes::Bytes;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::{Notify, Semaphore};
use tokio::time::Instant;
use tower::ServiceExt as _;

use crate::state::{AppState, Config};

/// Connections held open at most, per request served at once: idle
/// keep-alive connections are cheap, but not free.
const CONNECTIONS_PER_SLOT: usize = 4;

/// How often, when every connection is taken and none is idle, the one idle
/// longest is looked for again.
const SHED_RETRY: Duration = Duration::from_millis(100);

/// What a connection is doing: how many of its requests are being served
/// (from their head to their response's last byte), and since when it has
/// served none. A connection that serves none is idle, whatever bytes it
/// sends (none, part of a head, an HTTP/2 preface, settings or pings).
struct Activity {
    /// Requests being served, and when the count last fell to 0 (or the
    /// connection was taken).
    serving: Mutex<(usize, Instant)>,
    /// Told when the connection is to be closed for a new one, if idle.
    shed: Notify,
}

impl Activity {
    fn new() -> Arc<Self> {
        Arc::new(Activity {
            serving: Mutex::new((0, Instant::now())),
            shed: Notify::new(),
        })
    }

    /// Since when the connection has been idle, if it is.
    fn idle_since(&self) -> Option<Instant> {
        let serving = self.serving.lock().unwrap_or_else(PoisonError::into_inner);
        (serving.0 == 0).then_some(serving.1)
    }

    /// A request begins; it is served until the guard is dropped.
    fn begin(self: &Arc<Self>) -> Serving {
        self.serving
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .0 += 1;
        Serving(Arc::clone(self))
    }

    /// Completes when the connection has been idle for `limit`.
    async fn idle_for(&self, limit: Duration) {
        loop {
            match self.idle_since() {
                Some(since) if since.elapsed() >= limit => return,
                Some(since) => tokio::time::sleep_until(since + limit).await,
                None => tokio::time::sleep(limit).await,
            }
        }
    }

    /// Completes when the connection is told to close for a new one while
    /// idle.
    async fn shed(&self) {
        loop {
            self.shed.notified().await;
            if self.idle_since().is_some() {
                return;
            }
        }
    }
}

/// A request being served: its connection is not idle.
struct Serving(Arc<Activity>);

impl Drop for Serving {
    fn drop(&mut self) {
        let mut serving = self
            .0
            .serving
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        serving.0 -= 1;
        if serving.0 == 0 {
            serving.1 = Instant::now();
        }
    }
}

/// A response's body, which keeps its request served until it is written.
struct Held {
    body: Body,
    _serving: Serving,
}

impl hyper::body::Body for Held {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The connections open, by number: the one idle longest is closed when a
/// new one finds them all taken.
#[derive(Default)]
struct Open(Mutex<HashMap<u64, Arc<Activity>>>);

impl Open {
    fn insert(&self, id: u64, activity: Arc<Activity>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, activity);
    }

    fn remove(&self, id: u64) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
    }

    /// Tells the connection idle longest to close, if one is idle.
    fn shed_oldest_idle(&self) {
        let open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let oldest = open
            .values()
            .filter_map(|activity| Some((activity.idle_since()?, activity)))
            .min_by_key(|&(since, _)| since);
        if let Some((_, activity)) = oldest {
            activity.shed.notify_one();
        }
    }
}

/// Serves on `listener` until `shutdown` completes, then stops taking
/// connections and waits for the requests in flight.
///
/// # Errors
/// None today: failures to accept a connection are waited out.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let state = Arc::new(AppState::new(config));
    let app = crate::router(Arc::clone(&state));
    let idle_timeout = state.config.idle_timeout;
    let connections = Arc::new(Semaphore::new(
        (state.config.max_concurrent * CONNECTIONS_PER_SLOT).max(64),
    ));
    let open = Arc::new(Open::default());
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(idle_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(idle_timeout));
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    let mut next_id = 0_u64;
    'serve: loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Out of file descriptors, or a connection reset before it
                // was taken: wait a little rather than spin.
                tracing::warn!("accepting a connection failed: {error}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Every connection is taken: the one idle longest is closed for
        // this one. When none is idle (each is being served), this one
        // waits for one to end.
        let permit = match Arc::clone(&connections).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => loop {
                open.shed_oldest_idle();
                tokio::select! {
                    permit = Arc::clone(&connections).acquire_owned() => match permit {
                        Ok(permit) => break permit,
                        Err(_) => break 'serve,
                    },
                    () = tokio::time::sleep(SHED_RETRY) => {}
                    () = &mut shutdown => break 'serve,
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let activity = Activity::new();
        let id = next_id;
        next_id += 1;
        open.insert(id, Arc::clone(&activity));
        let service = {
            let app = app.clone();
            let activity = Arc::clone(&activity);
            hyper::service::service_fn(move |request: Request<Incoming>| {
                let serving = activity.begin();
                let app = app.clone();
                async move {
                    let response = match app.oneshot(request).await {
                        Ok(response) => response,
                        Err(never) => match never {},
                    };
                    Ok::<_, Infallible>(response.map(|body| Held {
                        body,
                        _serving: serving,
                    }))
                }
            })
        };
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        let open = Arc::clone(&open);
        tokio::spawn(async move {
            tokio::select! {
                result = connection => {
                    if let Err(error) = result {
                        tracing::debug!("connection ended: {error}");
                    }
                }
                () = activity.idle_for(idle_timeout) => {
                    tracing::debug!("connection closed: idle for {idle_timeout:?}");
                }
                () = activity.shed() => {
                    tracing::debug!("connection closed: idle longest, for a new one");
                }
            }
            open.remove(id);
            drop(permit);
        });
    }
    state.draining.store(true, Ordering::Relaxed);
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Runs the service on `addr` until SIGTERM or Ctrl-C, on a runtime of its
/// own; `listening` is told the address taken (the port, when 0 was asked).
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(
    addr: SocketAddr,
    config: Config,
    listening: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    log_to_stderr();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr).await?;
        // Listened for before the address is told: a SIGTERM sent as soon
        // as the service answers stops it gracefully, not by default.
        let stop = stop_signal()?;
        listening(listener.local_addr()?);
        serve(listener, config, stop).await
    })
}

/// What is logged on standard error: warnings by default; `CARDKIT_LOG`
/// takes a filter such as `info` (a line per request) or `debug`.
fn log_to_stderr() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("CARDKIT_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// SIGTERM or Ctrl-C, each handled from the moment this returns (not from
/// the future's first poll, which comes only when the service is serving).
#[cfg(unix)]
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {},
            _ = terminate.recv() => {},
        }
    })
}

/// Ctrl-C.
#[cfg(not(unix))]
fn stop_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    let interrupt = tokio::signal::windows::ctrl_c()?;
    Ok(async move {
        let mut interrupt = interrupt;
        interrupt.recv().await;
    })
}
