//! What every request shares: the configuration, the metrics, the slots of
//! the concurrency limit, and whether the service is draining.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use cardkit_run::Settings;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::metrics::Metrics;

/// The service's limits and resources.
#[derive(Debug, Clone)]
pub struct Config {
    /// The largest body taken, in bytes after decoding (`Content-Encoding`).
    pub max_body: u64,
    /// How long one request may take, body and report included.
    pub timeout: Duration,
    /// How many requests are served at once; more are shed (503).
    pub max_concurrent: usize,
    /// How long a connection may stay open with no request being served:
    /// sending nothing, part of a request's head, or (HTTP/2) only its
    /// preface, settings and pings. Counted from the connection's start or
    /// its last response's end; the connection is then closed.
    pub idle_timeout: Duration,
    /// The slowest a body may arrive, in bytes a second: a request whose
    /// body brings fewer than `min_body_rate × body_window` bytes in a
    /// `body_window` of waiting for it gets 408 and frees its slot. 0 takes
    /// any rate (up to `timeout`).
    pub min_body_rate: u64,
    /// The window over which `min_body_rate` is measured: the time spent
    /// waiting for the body's bytes, not the time spent validating them.
    pub body_window: Duration,
    /// Threads each validation may use (as `cardkit validate --jobs`).
    pub jobs: usize,
    /// How many renders (`POST /v1/render`) run at once, each within
    /// `max_concurrent`; more are shed (503). A render holds its body and
    /// its drawing whole, so fewer run at once than validations.
    pub max_renders: usize,
    /// The folder a render reads its assets from (`cardkit serve --assets`),
    /// as `cardkit render --assets`: the root of relative sources and the
    /// mirror of a URL root, never read out of. Without one, every asset
    /// but a `data:` URI is drawn as a placeholder with a report line.
    pub assets: Option<std::path::PathBuf>,
    /// The validation settings a request's parameters start from (a
    /// configuration file's, given to `cardkit serve`); each parameter given
    /// overrides its setting.
    pub defaults: Settings,
}

impl Config {
    /// 4 GiB: more than the largest catalogs, which are streamed, not held.
    pub const DEFAULT_MAX_BODY: u64 = 4 << 30;
    /// Five minutes: a 500 MB catalog sent at 2 MB/s.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
    /// Requests served at once by default.
    pub const DEFAULT_MAX_CONCURRENT: usize = 64;
    /// 30 s for a connection to begin a request (its whole head).
    pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);
    /// 1 KiB a second, far below any real client's upload.
    pub const DEFAULT_MIN_BODY_RATE: u64 = 1024;
    /// Measured over 10 s of waiting.
    pub const DEFAULT_BODY_WINDOW: Duration = Duration::from_secs(10);
    /// Renders at once by default.
    pub const DEFAULT_MAX_RENDERS: usize = 4;
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_body: Config::DEFAULT_MAX_BODY,
            timeout: Config::DEFAULT_TIMEOUT,
            max_concurrent: Config::DEFAULT_MAX_CONCURRENT,
            idle_timeout: Config::DEFAULT_IDLE_TIMEOUT,
            min_body_rate: Config::DEFAULT_MIN_BODY_RATE,
            body_window: Config::DEFAULT_BODY_WINDOW,
            jobs: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            max_renders: Config::DEFAULT_MAX_RENDERS,
            assets: None,
            defaults: Settings::default(),
        }
    }
}

/// The state shared by every request.
#[derive(Debug)]
pub struct AppState {
    pub config: Config,
    pub metrics: Metrics,
    pub slots: Arc<Semaphore>,
    /// The slots of `max_renders`.
    pub renders: Arc<Semaphore>,
    /// Set when shutdown has begun: `/readyz` answers 503.
    pub draining: AtomicBool,
}

impl AppState {
    pub fn new(config: Config) -> Self {
        AppState {
            slots: Arc::new(Semaphore::new(config.max_concurrent)),
            renders: Arc::new(Semaphore::new(config.max_renders.max(1))),
            config,
            metrics: Metrics::new(),
            draining: AtomicBool::new(false),
        }
    }
}

/// One of the `max_concurrent` slots, held by a request until its response
/// is written (for a validation, until its report is).
#[derive(Debug, Clone)]
pub struct Slot(#[allow(dead_code)] pub Arc<OwnedSemaphorePermit>);
