//! Serving connections: HTTP/1 and HTTP/2, a bounded number of connections,
//! a time limit on request heads, and a graceful shutdown that lets requests
//! in flight finish.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::state::{AppState, Config};

/// How long a client may take to send a request's head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// Connections held open at most, per request served at once: idle
/// keep-alive connections are cheap, but not free.
const CONNECTIONS_PER_SLOT: usize = 4;

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
    let connections = Arc::new(Semaphore::new(
        (state.config.max_concurrent * CONNECTIONS_PER_SLOT).max(64),
    ));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(HEAD_TIMEOUT));
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&connections).acquire_owned() => permit,
            () = &mut shutdown => break,
        };
        let Ok(permit) = permit else { break };
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
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!("connection ended: {error}");
            }
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
        listening(listener.local_addr()?);
        serve(listener, config, stop_signal()).await
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

/// SIGTERM or Ctrl-C.
async fn stop_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
