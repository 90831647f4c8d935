//! `POST /v1/validate`: the body validated as it arrives, through the same
//! streaming validator as files, and the report rendered as it is known.
//!
//! The report is held back until its first MiB is written or validation
//! ends, so that a limit reached before then (size, time) is answered with
//! its own status. A limit reached later, when the report's status has been
//! sent, ends the report with the body's entry unreadable (`error`), as the
//! command line reports a file it cannot read to its end.

use std::cell::Cell;
use std::io::{self, Read, Write};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant as StdInstant;

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use cardkit::report::Summary;
use cardkit::validate::{self, Validator};
use cardkit::DocumentReport;
use cardkit::Kind;
use cardkit::Severity;
use cardkit_run::render::{Json, JsonLines, Renderer, Sarif};
use cardkit_run::{open_stream, Failure, Opened, Progress, Run, Settings, Surface};
use futures_util::StreamExt;
use serde::Deserialize;
use tokio::runtime::Handle;
use tokio::sync::mpsc;
use utoipa::IntoParams;

use crate::body::{self, BodyReader, Coding, Halt};
use crate::layers::Coded;
use crate::media::{Accepted, BodyMedia};
use crate::names;
use crate::problem::Problem;
use crate::state::{AppState, Slot};

/// The query of `POST /v1/validate`: the command line's options. Each
/// option's description in the OpenAPI document is its definition's in
/// [`cardkit_run::options::OPTIONS`], and `as_of`'s pattern is the library's
/// range of versions (see `openapi::finish`).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ValidateParams {
    #[param(inline, value_type = Option<KindOrAuto>)]
    kind: Option<String>,
    #[param(example = "v5.0.0")]
    as_of: Option<String>,
    strict: Option<bool>,
    strict_version: Option<bool>,
    #[param(inline, value_type = Option<cardkit::schema::Names>)]
    names: Option<String>,
    deny_unknown_fields: Option<bool>,
    #[param(inline, value_type = Option<Warn>)]
    warn: Option<String>,
    #[param(value_type = Option<u64>, minimum = 0, maximum = 4_294_967_295_u64)]
    warning_limit: Option<u32>,
    #[param(inline, value_type = Option<ReferencesLevel>)]
    references: Option<String>,
    /// The name the report gives the body (its `path`), such as the name
    /// of the file sent. Default `<body>`.
    #[param(example = "set.json")]
    name: Option<String>,
}

/// `kind`'s values, for the OpenAPI document.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
enum KindOrAuto {
    Auto,
    Template,
    Card,
    Set,
    Migration,
}

/// `references`' values, for the OpenAPI document.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
enum ReferencesLevel {
    True,
    False,
    Error,
}

/// `warn`'s values, for the OpenAPI document.
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
enum Warn {
    Deprecated,
}

/// What a request asks, checked before its body is read.
struct Asked {
    settings: Settings,
    json_lines: bool,
    name: String,
}

impl ValidateParams {
    /// The settings asked: each parameter given over the service's
    /// defaults.
    fn asked(self, media: BodyMedia, defaults: Settings) -> Result<Asked, Problem> {
        let mut settings = defaults;
        match self.kind.as_deref() {
            None => {}
            Some("auto") => settings.kind = None,
            Some(name) => {
                settings.kind = Some(name.parse::<Kind>().map_err(|_| {
                    Problem::bad_parameter(format!(
                        "`kind` is `{name}`: expected `auto`, `template`, `card`, `set` or `migration`"
                    ))
                })?);
            }
        }
        match self.as_of.as_deref() {
            None => {}
            Some("auto") => {
                settings.as_of = None;
                settings.as_of_auto = true;
            }
            Some("latest") => {
                settings.as_of = None;
                settings.as_of_auto = false;
            }
            Some(as_of) => {
                settings.as_of = Some(
                    validate::as_of_version(as_of)
                        .map_err(|why| Problem::bad_parameter(format!("`as_of`: {why}")))?,
                );
                settings.as_of_auto = false;
            }
        }
        if let Some(names) = names::asked(self.names.as_deref())? {
            settings.names = names;
        }
        if self.strict == Some(true) {
            if self.names.is_some() || self.as_of.is_some() {
                return Err(Problem::bad_parameter(
                    "`strict` is the spec's names and the latest version: give it without `names` and `as_of`",
                ));
            }
            settings = settings.strict();
        }
        if let Some(strict_version) = self.strict_version {
            settings.strict_version = strict_version;
        }
        // Named as the query names them: `strict_version` needs `as_of`.
        settings
            .check(Surface::Query)
            .map_err(Problem::bad_parameter)?;
        if let Some(deny) = self.deny_unknown_fields {
            settings.deny_unknown_fields = deny;
        }
        match self.warn.as_deref() {
            None => {}
            Some("deprecated") => settings.warn_deprecated = true,
            Some(other) => {
                return Err(Problem::bad_parameter(format!(
                    "`warn` is `{other}`: the one extra warning is `deprecated`"
                )))
            }
        }
        if let Some(limit) = self.warning_limit {
            settings.warning_limit = limit as usize;
        }
        match self.references.as_deref() {
            None => {}
            Some("true") => settings.references = Some(Severity::Warning),
            Some("error") => settings.references = Some(Severity::Error),
            Some("false") => settings.references = None,
            Some(other) => {
                return Err(Problem::bad_parameter(format!(
                    "`references` is `{other}`: expected `true`, `error` or `false`"
                )))
            }
        }
        Ok(Asked {
            settings,
            json_lines: media == BodyMedia::JsonLines,
            name: self.name.unwrap_or_else(|| "<body>".to_owned()),
        })
    }
}

/// Validates the body: one document, or many (a catalog, JSON Lines).
///
/// Each query parameter given overrides, for this request, the option the
/// service was started with (its configuration file: `cardkit serve
/// --config FILE`, or the `cardkit.toml` found upward), which overrides the
/// default named here; the configuration's `ignore` and `extend-allowed`
/// apply to every request.
#[utoipa::path(
    post,
    path = "/v1/validate",
    tag = "validation",
    params(ValidateParams),
    request_body(
        description = "The document(s) as sent: one JSON value (a document, a wrapped document, a catalog, a code map) or JSON Lines. May be sent with `Content-Encoding: gzip` (or `x-gzip`) or `zstd`, in any case, or a list of them (decoded last first), or compressed without a `Content-Encoding`: gzip, zstd, xz and bzip2 are told by their first bytes.",
        content(
            (crate::openapi::AnyBytes = "application/json"),
            (crate::openapi::AnyBytes = "application/x-ndjson"),
        ),
    ),
    responses(
        (status = 200, description = "The report, valid or not: the structure of `cardkit validate --format json` with one file entry for the body; for `Accept: application/x-ndjson`, JSON Lines: the body is a stream of `ReportLine`s, one JSON object and a newline each (a `document` line per document as it is known, a `file` line when the body ends, a `summary` line last); SARIF 2.1.0 for `Accept: application/sarif+json`.",
            content(
                (crate::openapi::Report = "application/json"),
                (crate::openapi::ReportLine = "application/x-ndjson"),
                (crate::openapi::Sarif = "application/sarif+json"),
            )),
        (status = 400, description = "A bad parameter, or a body that could not be read (cut short, or a content coding or compression that does not decode).", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The request took longer than the time limit (`timed_out`), or its body came slower than the minimum rate (`body_too_slow`).", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the size limit.", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "A media type or content coding the service does not read.", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The service is at its concurrency limit; try again after `Retry-After` seconds.", body = Problem, content_type = "application/problem+json"),
    )
)]
pub async fn validate(
    State(state): State<Arc<AppState>>,
    query: Result<Query<ValidateParams>, QueryRejection>,
    slot: Option<axum::Extension<Slot>>,
    coded: Option<axum::Extension<Coded>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let started = StdInstant::now();
    let deadline = tokio::time::Instant::now() + state.config.timeout;
    let asked = (|| {
        let Query(params) =
            query.map_err(|rejection| Problem::bad_parameter(rejection.body_text()))?;
        let media = BodyMedia::of(&headers)?;
        if let Some(length) = content_length(&headers) {
            if length > state.config.max_body {
                return Err(Problem::body_too_large(format!(
                    "the body is {length} bytes; the limit is {} bytes",
                    state.config.max_body
                )));
            }
        }
        params.asked(media, state.config.defaults)
    })();
    let asked = match asked {
        Ok(asked) => asked,
        Err(problem) => return problem.into_response(),
    };
    let accepted = Accepted::of(&headers);
    let (sender, mut receiver) = mpsc::channel::<Out>(OUTPUT_CHUNKS);
    let reader = BodyReader::new(
        body.into_data_stream(),
        Handle::current(),
        deadline,
        state.config.timeout.as_secs(),
        state.config.max_body,
    )
    .min_rate(state.config.min_body_rate, state.config.body_window);
    let job = Job {
        state: Arc::clone(&state),
        asked,
        accepted,
        started,
        codings: coded.map(|axum::Extension(Coded(codings))| codings),
        _slot: slot.map(|axum::Extension(slot)| slot),
    };
    tokio::task::spawn_blocking(move || job.run(reader, sender));
    match receiver.recv().await {
        Some(Out::Chunk(first)) => {
            let rest = futures_util::stream::unfold(receiver, |mut receiver| async move {
                match receiver.recv().await? {
                    Out::Chunk(bytes) => Some((Ok(bytes), receiver)),
                    // Sent only before the report begins.
                    Out::Problem(_) => None,
                }
            });
            // Fused: a body may be polled again after its end (by the
            // compression layer), which a bare `unfold` does not allow.
            let stream = futures_util::stream::once(async move { Ok::<_, io::Error>(first) })
                .chain(rest)
                .fuse();
            let mut response = Body::from_stream(stream).into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(accepted.content_type()),
            );
            response
        }
        Some(Out::Problem(problem)) => problem.into_response(),
        None => Problem::internal("the validation stopped without a report").into_response(),
    }
}

/// How many rendered chunks wait for a slow client before rendering waits.
const OUTPUT_CHUNKS: usize = 8;
/// How much of the report is held back before its status is sent.
const HELD_BACK: usize = 1 << 20;
/// How much of the report is sent at a time once it has begun.
const CHUNK: usize = 64 << 10;

/// What the validation sends to the response.
enum Out {
    Chunk(Bytes),
    Problem(Problem),
}

pub(crate) fn content_length(headers: &HeaderMap) -> Option<u64> {
    // A coded body's length says nothing of its decoded size.
    if headers.contains_key(header::CONTENT_ENCODING) {
        return None;
    }
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// One validation, on a blocking thread.
struct Job {
    state: Arc<AppState>,
    asked: Asked,
    accepted: Accepted,
    started: StdInstant,
    /// The content codings the body came in, in the order applied: it is
    /// decoded by them. Without any, it is decoded when its first bytes
    /// name a compression format.
    codings: Option<Vec<Coding>>,
    /// The concurrency slot, held until the report is written.
    _slot: Option<Slot>,
}

impl Job {
    fn run(self, reader: BodyReader, sender: mpsc::Sender<Out>) {
        let halted = reader.halted();
        let limits = reader.limits();
        let settings = self.asked.settings;
        let filter = settings.warning_filter();
        let mut renderer: Box<dyn Renderer> = match self.accepted {
            Accepted::Json => Box::new(Json::new(filter)),
            Accepted::JsonLines => Box::new(JsonLines::new(filter)),
            Accepted::Sarif => Box::new(Sarif::new(filter, None)),
        };
        let mut out = ReportOut::new(
            sender.clone(),
            &reader,
            self.accepted == Accepted::JsonLines,
        );
        let began = out.began_handle();
        let metrics = Counting(&self.state.metrics);
        let mut run = Run::with_settings(&mut *renderer, &mut out, &settings)
            .hinting_version(false)
            .surface(Surface::Query)
            .timed_from(self.started)
            .with_progress(&metrics);
        let jobs = self.state.config.jobs;
        let references = run.references();
        // A client that takes the report line by line gets each document's
        // line as soon as the document has arrived.
        let arriving = self.accepted == Accepted::JsonLines;
        let mut halt = None;
        let mut check = |name: &str,
                         reader: &mut dyn Read,
                         options: &cardkit::Options,
                         on_document: &mut dyn FnMut(&DocumentReport)| {
            let validator = Validator::new(*options).jobs(jobs);
            let validator = if arriving {
                validator.arriving()
            } else {
                validator
            };
            let read = match &references {
                Some(references) => references.read(validator, name, reader, on_document),
                None => validator.reader(reader, |document| on_document(&document)),
            };
            read.map_err(|error| {
                halt = Some(halt_of(&halted, &error));
                Failure::Read(error)
            })
        };
        let opened = match &self.codings {
            // Only the magic bytes are read ahead: the rest is validated as
            // it arrives.
            None => match open_stream(&self.asked.name, reader, self.asked.json_lines) {
                Ok(mut opened) => {
                    if opened.compressed.is_some() {
                        opened.reader = Box::new(limits.on(opened.reader));
                    }
                    opened
                }
                Err(error) => {
                    if let Some(problem) = problem(halt_of(&halted, &error)) {
                        let _ = sender.blocking_send(Out::Problem(problem));
                    }
                    return;
                }
            },
            Some(codings) => match body::decoded(Box::new(reader), codings) {
                Ok(decoded) => Opened {
                    name: self.asked.name.clone(),
                    // The size limit counts the bytes decoded.
                    reader: Box::new(limits.on(decoded)),
                    size: None,
                    json_lines: self.asked.json_lines,
                    // Decoded by its Content-Encoding.
                    compressed: None,
                    again: None,
                    // A body sent is named: always checked.
                    found: false,
                },
                Err(error) => {
                    if let Some(problem) = problem(halt_of(&halted, &error)) {
                        let _ = sender.blocking_send(Out::Problem(problem));
                    }
                    return;
                }
            },
        };
        let _ = run.input(opened, &mut check);
        self.state.metrics.bytes(run.summary().bytes);
        // A limit reached before the report has begun is answered with its
        // own status, and the report held back is dropped.
        if let Some(halt) = halt.filter(|_| !began.get()) {
            if let Some(problem) = problem(halt) {
                let _ = sender.blocking_send(Out::Problem(problem));
            }
            return;
        }
        let _ = run.finish();
        out.end();
    }
}

/// Why reading the body stopped: the halt its reader met (whatever a
/// decoder between them made of it), else the halt the error is, else a
/// body that does not decode (a compression cut short or corrupt).
pub(crate) fn halt_of(halted: &std::sync::OnceLock<Halt>, error: &io::Error) -> Halt {
    halted
        .get()
        .or_else(|| Halt::of(error))
        .cloned()
        .unwrap_or_else(|| Halt::Unreadable(error.to_string()))
}

/// The problem that answers a halt before the report has begun; none when
/// the client is gone.
pub(crate) fn problem(halt: Halt) -> Option<Problem> {
    Some(match halt {
        Halt::TooLarge { limit } => Problem::body_too_large(format!(
            "the body is larger than the limit of {limit} bytes"
        )),
        Halt::TimedOut { seconds } => Problem::timed_out(seconds),
        halt @ Halt::TooSlow { .. } => Problem::body_too_slow(halt.to_string()),
        Halt::Unreadable(why) => Problem::unreadable_body(why),
        // Nobody to answer.
        Halt::Abandoned => return None,
    })
}

/// The service's metrics, counting each document as it is validated.
struct Counting<'m>(&'m crate::metrics::Metrics);

impl Progress for Counting<'_> {
    fn document(&self, document: &DocumentReport, _: &Summary) {
        self.0.document(document);
    }
}

/// The report's bytes on their way to the response: held back until
/// [`HELD_BACK`] (or each document's line, for JSON Lines), then sent in
/// chunks. A client gone makes every later write fail, and the validation
/// stop reading the body.
struct ReportOut {
    sender: mpsc::Sender<Out>,
    runtime: Handle,
    deadline: tokio::time::Instant,
    /// Set when the client is gone, or reads too slowly: the body's reader
    /// stops too.
    abandoned: Arc<AtomicBool>,
    buffer: Vec<u8>,
    /// Some of the report has been sent: its status is given.
    began: Rc<Cell<bool>>,
    per_document: bool,
    open: bool,
}

impl ReportOut {
    fn new(sender: mpsc::Sender<Out>, reader: &BodyReader, per_document: bool) -> Self {
        ReportOut {
            sender,
            runtime: reader.runtime.clone(),
            deadline: reader.deadline,
            abandoned: Arc::clone(&reader.abandoned),
            buffer: Vec::new(),
            began: Rc::new(Cell::new(false)),
            per_document,
            open: true,
        }
    }

    /// Tells, after the report's writer is lent out, whether it has begun.
    fn began_handle(&self) -> Rc<Cell<bool>> {
        Rc::clone(&self.began)
    }

    fn send(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() || !self.open {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buffer));
        self.began.set(true);
        let sent = self.runtime.block_on(tokio::time::timeout_at(
            self.deadline,
            self.sender.send(Out::Chunk(chunk)),
        ));
        if !matches!(sent, Ok(Ok(()))) {
            self.open = false;
            self.abandoned.store(true, Ordering::Relaxed);
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        Ok(())
    }

    fn end(mut self) {
        let _ = self.send();
    }
}

impl Write for ReportOut {
    /// Takes at most what fills the buffer to its threshold: a write of any
    /// size (a member name of 400 MB quoted whole) is sent in chunks as it
    /// is written, never held whole.
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if !self.open {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let threshold = if self.began.get() { CHUNK } else { HELD_BACK };
        let room = threshold.saturating_sub(self.buffer.len()).max(1);
        let taken = &bytes[..bytes.len().min(room)];
        self.buffer.extend_from_slice(taken);
        if self.buffer.len() >= threshold {
            self.send()?;
        } else if self.per_document
            && taken.ends_with(b"\n")
            && self.sender.capacity() == self.sender.max_capacity()
        {
            // A line of JSON Lines is whole, and the client has taken
            // everything sent: it goes at once. Otherwise lines gather into
            // chunks while the client catches up, rather than each be sent
            // on its own.
            self.send()?;
        }
        Ok(taken.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One write of 8 MiB (a member name quoted whole) is held back to
    /// [`HELD_BACK`] and then sent in chunks of [`CHUNK`]: the service never
    /// holds more of a report than that, whatever a write holds.
    #[test]
    fn one_large_write_is_sent_in_bounded_chunks() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let reader = BodyReader::new(
            Body::empty().into_data_stream(),
            runtime.handle().clone(),
            tokio::time::Instant::now() + std::time::Duration::from_secs(60),
            60,
            1,
        );
        let (sender, mut receiver) = mpsc::channel::<Out>(OUTPUT_CHUNKS);
        let total = 8 << 20;
        let handle = runtime.handle().clone();
        // As on the blocking thread a validation runs on.
        let writer = std::thread::spawn(move || {
            let _runtime = handle.enter();
            let mut out = ReportOut::new(sender, &reader, false);
            out.write_all(&vec![b'k'; total]).unwrap();
            out.end();
        });
        let sizes = runtime.block_on(async {
            let mut sizes = Vec::new();
            while let Some(Out::Chunk(chunk)) = receiver.recv().await {
                sizes.push(chunk.len());
            }
            sizes
        });
        writer.join().unwrap();
        assert_eq!(sizes.iter().sum::<usize>(), total);
        assert_eq!(sizes[0], HELD_BACK);
        assert!(sizes[1..].iter().all(|&size| size <= CHUNK), "{sizes:?}");
    }
}
