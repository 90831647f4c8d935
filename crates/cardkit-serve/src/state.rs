//! What every request shares: the configuration, the metrics, the slots of
//! the concurrency limit, and whether the service is draining.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use cardkit::run::Settings;
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
    /// Threads each validation may use (as `cardkit validate --jobs`).
    pub jobs: usize,
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_body: Config::DEFAULT_MAX_BODY,
            timeout: Config::DEFAULT_TIMEOUT,
            max_concurrent: Config::DEFAULT_MAX_CONCURRENT,
            jobs: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
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
    /// Set when shutdown has begun: `/readyz` answers 503.
    pub draining: AtomicBool,
}

impl AppState {
    pub fn new(config: Config) -> Self {
        AppState {
            slots: Arc::new(Semaphore::new(config.max_concurrent)),
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
