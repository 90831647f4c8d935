//! The request body as a blocking reader, for the streaming validator: bytes
//! are pulled from the connection as the validator asks for them, so a body
//! is validated as it arrives and never held whole. The body's limits (size,
//! time) are kept here, where the bytes pass: on the bytes received, and on
//! the bytes decoded from a body compressed without a `Content-Encoding`
//! ([`Limited`]).

use std::fmt;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::BodyDataStream;
use bytes::{Buf, Bytes};
use futures_util::StreamExt;
use tokio::runtime::Handle;
use tokio::time::Instant;

/// Why reading a body stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// The body (after decoding) went past the size limit.
    TooLarge { limit: u64 },
    /// The request went past its time limit.
    TimedOut { seconds: u64 },
    /// The body came slower than the minimum rate: fewer than `rate` bytes
    /// a second over `window` seconds of waiting for it.
    TooSlow { rate: u64, window: Duration },
    /// The body could not be read: cut short, or a content coding that does
    /// not decode.
    Unreadable(String),
    /// The client is gone, or does not read the report.
    Abandoned,
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::TooLarge { limit } => {
                write!(f, "the body is larger than the limit of {limit} bytes")
            }
            Halt::TimedOut { seconds } => {
                write!(f, "the request took longer than the limit of {seconds} s")
            }
            Halt::TooSlow { rate, window } => write!(
                f,
                "the body came slower than the minimum of {rate} bytes a second (over {} s)",
                window.as_secs_f64()
            ),
            Halt::Unreadable(why) => write!(f, "the body could not be read: {why}"),
            Halt::Abandoned => write!(f, "the client stopped reading the report"),
        }
    }
}

impl std::error::Error for Halt {}

impl Halt {
    /// The halt that stopped a read, if the error is one.
    pub fn of(error: &io::Error) -> Option<&Halt> {
        error
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<Halt>())
    }
}

/// A body read on a blocking thread.
pub struct BodyReader {
    stream: BodyDataStream,
    pub(crate) runtime: Handle,
    pub(crate) deadline: Instant,
    /// Set when the report has nowhere to go: reading stops.
    pub(crate) abandoned: Arc<AtomicBool>,
    timeout_seconds: u64,
    limit: u64,
    chunk: Bytes,
    /// Bytes read so far (after decoding by `Content-Encoding`).
    read: u64,
    /// Why reading stopped, once it has: kept where the validation can see
    /// it whatever a decoder between them made of the error.
    halted: Arc<OnceLock<Halt>>,
    /// The minimum rate the body must come at, if any.
    rate: Option<Rate>,
}

/// The minimum rate of a body, measured over windows of time spent waiting
/// for its bytes (time spent validating them is the service's, not the
/// client's): each window must bring `needed` bytes.
struct Rate {
    per_second: u64,
    window: Duration,
    needed: u64,
    /// Time waited, and bytes received, in the current window.
    waited: Duration,
    got: u64,
}

impl BodyReader {
    /// Reads `stream` until `deadline`, at most `limit` bytes. Must be used
    /// off the runtime's worker threads (in `spawn_blocking`).
    pub fn new(
        stream: BodyDataStream,
        runtime: Handle,
        deadline: Instant,
        timeout_seconds: u64,
        limit: u64,
    ) -> Self {
        BodyReader {
            stream,
            runtime,
            deadline,
            timeout_seconds,
            limit,
            abandoned: Arc::new(AtomicBool::new(false)),
            chunk: Bytes::new(),
            read: 0,
            halted: Arc::new(OnceLock::new()),
            rate: None,
        }
    }

    /// Halts (408) a body that brings fewer than `per_second × window`
    /// bytes in a `window` of waiting for them; 0 or a zero window takes
    /// any rate.
    #[must_use]
    pub fn min_rate(mut self, per_second: u64, window: Duration) -> Self {
        let needed = u128::from(per_second) * window.as_millis() / 1000;
        self.rate = (needed > 0).then(|| Rate {
            per_second,
            window,
            needed: u64::try_from(needed).unwrap_or(u64::MAX),
            waited: Duration::ZERO,
            got: 0,
        });
        self
    }

    /// Why reading stopped, once it has (shared: readable after the
    /// reader is given away).
    pub fn halted(&self) -> Arc<OnceLock<Halt>> {
        Arc::clone(&self.halted)
    }

    /// The same limits on the bytes decoded from this body: the size limit
    /// counts them, and the time limit and a client gone stop them too.
    pub fn limits(&self) -> Limits {
        Limits {
            deadline: self.deadline,
            timeout_seconds: self.timeout_seconds,
            limit: self.limit,
            abandoned: Arc::clone(&self.abandoned),
            halted: Arc::clone(&self.halted),
        }
    }

    /// Stops reading for `halt`, which every later read gives again.
    fn halt(&self, halt: Halt) -> io::Error {
        let _ = self.halted.set(halt);
        io::Error::other(self.halted.get().cloned().unwrap_or(Halt::Abandoned))
    }

    /// The next chunk of the body; an empty one at its end.
    fn next_chunk(&mut self) -> Result<Bytes, Halt> {
        loop {
            if self.abandoned.load(Ordering::Relaxed) {
                return Err(Halt::Abandoned);
            }
            let waiting = Instant::now();
            let until = match &self.rate {
                Some(rate) => self
                    .deadline
                    .min(waiting + rate.window.saturating_sub(rate.waited)),
                None => self.deadline,
            };
            let next = self
                .runtime
                .block_on(tokio::time::timeout_at(until, self.stream.next()));
            let got = match &next {
                Ok(Some(Ok(chunk))) => chunk.len() as u64,
                _ => 0,
            };
            if let Some(rate) = &mut self.rate {
                rate.waited += waiting.elapsed();
                rate.got += got;
                if rate.got >= rate.needed {
                    rate.waited = Duration::ZERO;
                    rate.got = 0;
                } else if rate.waited >= rate.window
                    && Instant::now() < self.deadline
                    && !matches!(next, Ok(None))
                {
                    return Err(Halt::TooSlow {
                        rate: rate.per_second,
                        window: rate.window,
                    });
                }
            }
            match next {
                Err(_) => {
                    return Err(Halt::TimedOut {
                        seconds: self.timeout_seconds,
                    })
                }
                Ok(None) => return Ok(Bytes::new()),
                Ok(Some(Err(error))) => return Err(Halt::Unreadable(describe(&error))),
                Ok(Some(Ok(chunk))) if chunk.is_empty() => {}
                Ok(Some(Ok(chunk))) => {
                    self.read += chunk.len() as u64;
                    if self.read > self.limit {
                        return Err(Halt::TooLarge { limit: self.limit });
                    }
                    return Ok(chunk);
                }
            }
        }
    }
}

impl Read for BodyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(halt) = self.halted.get() {
            return Err(io::Error::other(halt.clone()));
        }
        if self.chunk.is_empty() {
            match self.next_chunk() {
                Ok(chunk) => self.chunk = chunk,
                Err(halt) => return Err(self.halt(halt)),
            }
        }
        let n = buf.len().min(self.chunk.len());
        buf[..n].copy_from_slice(&self.chunk[..n]);
        self.chunk.advance(n);
        Ok(n)
    }
}

/// A body's limits, for the bytes decoded from it.
pub struct Limits {
    deadline: Instant,
    timeout_seconds: u64,
    limit: u64,
    abandoned: Arc<AtomicBool>,
    halted: Arc<OnceLock<Halt>>,
}

impl Limits {
    /// `decoded`, held to these limits.
    pub fn on<R: Read>(self, decoded: R) -> Limited<R> {
        Limited {
            inner: decoded,
            limits: self,
            read: 0,
        }
    }
}

/// The bytes decoded from a body by its magic bytes (gzip, zstd, xz, bzip2
/// sent without `Content-Encoding`), held to the limits of a body decoded by
/// its `Content-Encoding`: at most the size limit of decoded bytes, within
/// the time limit, while the client is there. A decompression bomb costs
/// time, up to those limits, not memory.
pub struct Limited<R> {
    inner: R,
    limits: Limits,
    /// Bytes decoded so far.
    read: u64,
}

impl<R> Limited<R> {
    fn halt(&self, halt: Halt) -> io::Error {
        let _ = self.limits.halted.set(halt);
        io::Error::other(self.limits.halted.get().cloned().unwrap_or(Halt::Abandoned))
    }
}

impl<R: Read> Read for Limited<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(halt) = self.limits.halted.get() {
            return Err(io::Error::other(halt.clone()));
        }
        if self.limits.abandoned.load(Ordering::Relaxed) {
            return Err(self.halt(Halt::Abandoned));
        }
        // Decoding takes time of its own, past the waits for the body.
        if Instant::now() >= self.limits.deadline {
            return Err(self.halt(Halt::TimedOut {
                seconds: self.limits.timeout_seconds,
            }));
        }
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.read > self.limits.limit {
            return Err(self.halt(Halt::TooLarge {
                limit: self.limits.limit,
            }));
        }
        Ok(n)
    }
}

/// An error of the body stream in words, with its causes (hyper's and the
/// decoders' errors say the most in their sources).
fn describe(error: &axum::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// A content coding a body may be sent in (besides `identity`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    /// `gzip`, or `x-gzip`; concatenated members are read as one stream.
    Gzip,
    /// `zstd`; concatenated frames too.
    Zstd,
}

impl Coding {
    /// The coding a `Content-Encoding` token names, whatever its case;
    /// `None` for `identity`; `Err` for one that is not read.
    pub fn of(token: &str) -> Result<Option<Coding>, ()> {
        if token.eq_ignore_ascii_case("gzip") || token.eq_ignore_ascii_case("x-gzip") {
            Ok(Some(Coding::Gzip))
        } else if token.eq_ignore_ascii_case("zstd") {
            Ok(Some(Coding::Zstd))
        } else if token.eq_ignore_ascii_case("identity") {
            Ok(None)
        } else {
            Err(())
        }
    }

    fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Zstd => "zstd",
        }
    }
}

/// `body` decoded by the codings it was sent in, listed in the order they
/// were applied: the last applied is decoded first.
///
/// # Errors
/// A decoder cannot start.
pub fn decoded(body: Box<dyn Read>, codings: &[Coding]) -> io::Result<Box<dyn Read>> {
    let mut reader = body;
    for &coding in codings.iter().rev() {
        reader = match coding {
            Coding::Gzip => Box::new(Named {
                coding,
                inner: flate2::read::MultiGzDecoder::new(reader),
            }),
            Coding::Zstd => Box::new(Named {
                coding,
                inner: zstd::stream::read::Decoder::new(reader)
                    .map_err(|error| Named::<()>::error(coding, error))?,
            }),
        };
    }
    Ok(reader)
}

/// A decoder whose errors name its coding (`gzip: unexpected end of file`);
/// a halt of the body's reader passes through as it is.
struct Named<R> {
    coding: Coding,
    inner: R,
}

impl<R> Named<R> {
    fn error(coding: Coding, error: io::Error) -> io::Error {
        if Halt::of(&error).is_some() {
            return error;
        }
        let why = match error.kind() {
            io::ErrorKind::UnexpectedEof => "unexpected end of file".to_owned(),
            _ => error.to_string(),
        };
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {why}", coding.name()),
        )
    }
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|error| Named::<R>::error(self.coding, error))
    }
}
