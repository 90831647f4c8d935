//! The native module of the `cardkit` Python package (`cardkit._native`):
//! each function maps its arguments onto the library's own settings and
//! calls what the command line calls, and gives back the report as the
//! command line's JSON, which `python/cardkit` turns into objects.

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_pyarrow::IntoPyArrow;
use cardkit::model::Layout;
use cardkit::report::{Reading, Summary};
use cardkit::schema::json_schema::{json_schema_with, SchemaOptions};
use cardkit::schema::minimal::dummy;
use cardkit::schema::Names;
use cardkit::schema::Version;
use cardkit::validate;
use cardkit::Code;
use cardkit::DocumentReport;
use cardkit::Kind;
use cardkit::Severity;
use cardkit_design::import::explain_code;
use cardkit_export::arrow::{ArrowTable, Tables};
use cardkit_export::{Exporter, InputError, OnInvalid};
use cardkit_run::explain::explain_named;
use cardkit_run::listing::{self, Listing};
use cardkit_run::render::words::plural;
use cardkit_run::render::{FileEnd, Json, Renderer};
use cardkit_run::{
    discover, open, open_reader, Failure, Opened, Run, Setting, Settings, Shown, Surface, Unopened,
    MAX_JOBS,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

/// The settings the keyword arguments ask for, over the defaults every door
/// starts from.
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
fn settings(
    kind: &str,
    as_of: Option<&str>,
    strict_version: bool,
    deny_unknown_fields: bool,
    warn_deprecated: bool,
    names: &str,
    warning_limit: Option<usize>,
    error_limit: Option<usize>,
) -> PyResult<Settings> {
    let kind = match kind {
        "auto" => None,
        name => Some(name.parse::<Kind>().map_err(|_| {
            PyValueError::new_err(format!(
                "kind is {name:?}: expected {}",
                expected(Setting::Kind)
            ))
        })?),
    };
    let (as_of, as_of_auto) = match as_of {
        None | Some("auto") => (None, true),
        Some("latest") => (None, false),
        Some(version) => (
            Some(
                validate::as_of_version(version)
                    .map_err(|why| PyValueError::new_err(format!("as_of: {why}")))?,
            ),
            false,
        ),
    };
    let names = names_named(names)?;
    let defaults = Settings::default();
    let settings = Settings {
        kind,
        as_of,
        as_of_auto,
        strict_version,
        deny_unknown_fields,
        warn_deprecated,
        warning_limit: warning_limit.unwrap_or(defaults.warning_limit),
        error_limit,
        names,
        ..defaults
    };
    // Named as Python names them: `strict_version needs as_of`.
    settings
        .check(Surface::Python)
        .map_err(PyValueError::new_err)?;
    Ok(settings)
}

/// The threads asked for, checked as the command line checks `--jobs`.
fn jobs(asked: Option<usize>) -> PyResult<usize> {
    match asked {
        Some(n) if n == 0 || n > MAX_JOBS => Err(PyValueError::new_err(format!(
            "jobs is {n}: expected 1 to {MAX_JOBS}, or None for one per core"
        ))),
        asked => Ok(cardkit_run::jobs(asked)),
    }
}

/// What is validated.
enum Source {
    /// Paths, as the command line takes them: files (compressed or not),
    /// directories searched for documents, or zip archives.
    Paths(Vec<PathBuf>),
    /// Bytes held by Python.
    Bytes(String, PyBackedBytes),
    /// A document's text.
    Text(String, PyBackedStr),
    /// A binary file object, read by its `read(n)`.
    File(String, PyReader),
}

impl Source {
    /// Where a file object's `read` leaves the exception it raised, for
    /// this call to raise again; `None` for other sources.
    fn raised(&self) -> Option<Arc<Mutex<Option<PyErr>>>> {
        match self {
            Source::File(_, reader) => Some(Arc::clone(&reader.raised)),
            _ => None,
        }
    }

    fn of(source: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<Source> {
        if source.is_instance_of::<PyString>() {
            let text: PyBackedStr = source.extract()?;
            return Ok(Source::Text(name.unwrap_or_else(|| "<str>".into()), text));
        }
        if source.is_instance_of::<PyBytes>() || source.is_instance_of::<PyByteArray>() {
            let bytes: PyBackedBytes = source.extract()?;
            return Ok(Source::Bytes(
                name.unwrap_or_else(|| "<bytes>".into()),
                bytes,
            ));
        }
        if source.hasattr("__fspath__")? {
            return Ok(Source::Paths(vec![openable(source)?]));
        }
        if source.hasattr("read")? {
            let name = name
                .or_else(|| {
                    source
                        .getattr("name")
                        .ok()
                        .and_then(|name| name.extract::<String>().ok())
                })
                .unwrap_or_else(|| "<stream>".into());
            return Ok(Source::File(name, PyReader::new(source.clone().unbind())));
        }
        Err(PyTypeError::new_err(format!(
            "source is a {}: expected bytes, a document's text (str), an os.PathLike or a binary file object",
            source.get_type().name()?
        )))
    }

    /// A list or tuple of paths, or any source [`Source::of`] takes.
    fn of_many(source: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<Source> {
        if source.is_instance_of::<PyList>() || source.is_instance_of::<PyTuple>() {
            let paths = source
                .try_iter()?
                .map(|path| {
                    let path = path?;
                    if path.hasattr("__fspath__")? {
                        openable(&path)
                    } else {
                        Err(PyTypeError::new_err(format!(
                            "source is a list holding a {}: a list holds paths (os.PathLike)",
                            path.get_type().name()?
                        )))
                    }
                })
                .collect::<PyResult<Vec<PathBuf>>>()?;
            if paths.is_empty() {
                return Err(PyValueError::new_err(
                    "source is an empty list: give a path",
                ));
            }
            return Ok(Source::Paths(paths));
        }
        Source::of(source, name)
    }
}

/// A path that can be opened: one that cannot is an error of the call, not
/// a line of the report; a directory is searched as the command line
/// searches it.
fn openable(path: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    let path: PathBuf = path.extract()?;
    if !path.is_dir() {
        std::fs::File::open(&path).map_err(|error| os_error(&error, &path))?;
    }
    Ok(path)
}

/// `OSError(errno, strerror, filename)`, so that Python makes it the
/// subclass its errno names (`FileNotFoundError`, `PermissionError`).
fn os_error(error: &io::Error, path: &std::path::Path) -> PyErr {
    let message = error.to_string();
    // Rust's " (os error N)" repeats the errno.
    let strerror = match message.rfind(" (os error ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    };
    pyo3::exceptions::PyOSError::new_err((
        error.raw_os_error().unwrap_or(0),
        strerror,
        path.display().to_string(),
    ))
}

/// A Python binary file object as a [`Read`]: each read takes the GIL and
/// calls `read(n)`. An exception it raises is kept, to be raised again when
/// the run ends.
struct PyReader {
    file: Py<PyAny>,
    raised: Arc<Mutex<Option<PyErr>>>,
}

impl PyReader {
    fn new(file: Py<PyAny>) -> Self {
        PyReader {
            file,
            raised: Arc::new(Mutex::new(None)),
        }
    }
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        Python::attach(|py| {
            let read = self
                .file
                .bind(py)
                .call_method1("read", (buf.len(),))
                .and_then(|chunk| {
                    if chunk.is_none() {
                        // A non-blocking stream with nothing yet.
                        return Err(PyValueError::new_err(
                            "the file object's read() gave None: it is non-blocking",
                        ));
                    }
                    let bytes = chunk.cast_into::<PyBytes>().map_err(|_| {
                        PyTypeError::new_err(
                            "the file object's read() gave no bytes: open it in binary mode ('rb')",
                        )
                    })?;
                    let bytes = bytes.as_bytes();
                    if bytes.len() > buf.len() {
                        return Err(PyValueError::new_err(
                            "the file object's read(n) gave more than n bytes",
                        ));
                    }
                    buf[..bytes.len()].copy_from_slice(bytes);
                    Ok(bytes.len())
                });
            read.map_err(|error| {
                let message = error.to_string();
                if let Ok(mut raised) = self.raised.lock() {
                    raised.get_or_insert(error);
                }
                io::Error::other(message)
            })
        })
    }
}

/// Validates `source` as `cardkit validate --format json` does, with the
/// GIL released: the report's JSON text and the exit status (0 valid, 1
/// invalid, 2 unreadable or nothing checked).
#[pyfunction]
#[pyo3(signature = (source, *, kind="auto", as_of=None, strict_version=false, deny_unknown_fields=false, warn_deprecated=false, names="auto", jobs=None, warning_limit=None, error_limit=None, name=None))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
fn validate_json(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    kind: &str,
    as_of: Option<&str>,
    strict_version: bool,
    deny_unknown_fields: bool,
    warn_deprecated: bool,
    names: &str,
    jobs: Option<usize>,
    warning_limit: Option<usize>,
    error_limit: Option<usize>,
    name: Option<String>,
) -> PyResult<(String, u8)> {
    let settings = settings(
        kind,
        as_of,
        strict_version,
        deny_unknown_fields,
        warn_deprecated,
        names,
        warning_limit,
        error_limit,
    )?;
    let jobs = self::jobs(jobs)?;
    let source = Source::of_many(source, name)?;
    let raised = source.raised();
    let (json, status) = detached(py, raised, |interrupt| {
        run(&settings, source, jobs, interrupt)
    })??;
    let json =
        String::from_utf8(json).map_err(|_| PyValueError::new_err("the report is not UTF-8"))?;
    Ok((json, status))
}

/// Runs `work` with the GIL released, so other threads run meanwhile. A
/// Ctrl-C seen while it ran, then an exception that the source's file
/// object raised, wins over what it gives.
fn detached<T: Send>(
    py: Python<'_>,
    raised: Option<Arc<Mutex<Option<PyErr>>>>,
    work: impl FnOnce(&Arc<Interrupt>) -> T + Send,
) -> PyResult<T> {
    let interrupt = Arc::new(Interrupt::default());
    let done = py.detach(|| work(&interrupt));
    if let Some(error) = interrupt.take() {
        return Err(error);
    }
    if let Some(error) = raised.and_then(|raised| raised.lock().ok()?.take()) {
        return Err(error);
    }
    Ok(done)
}

/// One run over one source, as the command line's: the report rendered
/// with the library's JSON renderer.
fn run(
    settings: &Settings,
    source: Source,
    jobs: usize,
    interrupt: &Arc<Interrupt>,
) -> io::Result<(Vec<u8>, u8)> {
    let mut out = Vec::new();
    let mut renderer = Json::new(settings.warning_filter());
    let status = run_with_into(&mut renderer, &mut out, settings, source, jobs, interrupt)?;
    Ok((out, status))
}

/// One run over one source with `renderer`, writing nowhere else: its exit
/// status.
fn run_with(
    renderer: &mut dyn Renderer,
    settings: &Settings,
    source: Source,
    jobs: usize,
) -> io::Result<u8> {
    // Nothing to interrupt: the thread of `iter_documents` runs no signal
    // handler, and the caller stops it by dropping the iterator.
    let interrupt = Arc::new(Interrupt::default());
    run_with_into(
        renderer,
        &mut io::sink(),
        settings,
        source,
        jobs,
        &interrupt,
    )
}

/// One run over one source, as the command line's: its inputs checked in
/// turn, until one is interrupted.
fn run_with_into(
    renderer: &mut dyn Renderer,
    out: &mut dyn Write,
    settings: &Settings,
    source: Source,
    jobs: usize,
    interrupt: &Arc<Interrupt>,
) -> io::Result<u8> {
    let mut run = Run::with_settings(renderer, out, settings).surface(Surface::Python);
    each_input(source, interrupt, |input| match input {
        Ok(opened) => run.validate_input(opened, jobs),
        Err(unopened) => run.unopened(&unopened),
    })?;
    let (_, status) = run.finish()?;
    Ok(status.code())
}

/// Opens each input of `source` as the command line does (a path
/// discovered, other sources opened as a stream) and hands it to `check`,
/// its reads watched for Ctrl-C; stops at the first input interrupted.
fn each_input(
    source: Source,
    interrupt: &Arc<Interrupt>,
    mut check: impl FnMut(Result<Opened, Unopened>) -> io::Result<()>,
) -> io::Result<()> {
    let watched = |opened: Result<Opened, Unopened>| {
        opened.map(|mut opened| {
            opened.reader = Box::new(Interruptible::new(opened.reader, Arc::clone(interrupt)));
            opened
        })
    };
    let (name, opened) = match source {
        Source::Paths(paths) => {
            for input in discover(&paths).inputs {
                if interrupt.stopped() {
                    break;
                }
                check(watched(open(input)))?;
            }
            return Ok(());
        }
        Source::Bytes(name, bytes) => {
            let opened = open_reader(&name, io::Cursor::new(bytes));
            (name, opened)
        }
        Source::Text(name, text) => {
            let opened = open_reader(&name, io::Cursor::new(Utf8(text)));
            (name, opened)
        }
        Source::File(name, reader) => {
            let opened = open_reader(&name, reader);
            (name, opened)
        }
    };
    check(watched(opened.map_err(|error| Unopened {
        name,
        reason: error.to_string(),
    })))
}

/// Whether a run was interrupted (Ctrl-C), and the exception Python's
/// signal handler raised for it.
#[derive(Default)]
struct Interrupt {
    raised: Mutex<Option<PyErr>>,
}

impl Interrupt {
    fn stopped(&self) -> bool {
        self.raised.lock().map_or(true, |raised| raised.is_some())
    }

    /// The exception raised, taken.
    fn take(&self) -> Option<PyErr> {
        self.raised.lock().ok()?.take()
    }
}

/// How often a run's reads look for a signal: Python's handlers run only
/// when asked, and a run holds no GIL.
const SIGNALS_EVERY: Duration = Duration::from_millis(50);

/// A reader that runs Python's signal handlers now and then: once one
/// raises (`KeyboardInterrupt` on Ctrl-C), every read fails, so that the
/// validation stops within a read of the input, and the exception is kept
/// for the call to raise.
struct Interruptible {
    inner: Box<dyn Read>,
    interrupt: Arc<Interrupt>,
    checked: Instant,
}

impl Interruptible {
    fn new(inner: Box<dyn Read>, interrupt: Arc<Interrupt>) -> Self {
        Interruptible {
            inner,
            interrupt,
            checked: Instant::now(),
        }
    }
}

impl Read for Interruptible {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.checked.elapsed() >= SIGNALS_EVERY {
            self.checked = Instant::now();
            // Handlers run only on the main thread: elsewhere this is Ok.
            if let Err(error) = Python::attach(|py| py.check_signals()) {
                if let Ok(mut raised) = self.interrupt.raised.lock() {
                    raised.get_or_insert(error);
                }
            }
        }
        if self.interrupt.stopped() {
            // Not ErrorKind::Interrupted, which readers retry.
            return Err(io::Error::other("interrupted"));
        }
        self.inner.read(buf)
    }
}

/// What the validation thread of [`DocumentStream`] hands over.
enum Event {
    /// A document's entry, as the JSON report has it, and its input's path.
    Document(String, String),
    /// An input that could not be read (to its end): its path and why.
    Failed(String, String),
    /// The run ended: its exit status, or why it stopped.
    Done(Result<u8, String>),
}

/// How many documents' entries wait for Python at most: the validation
/// thread waits while they do, so memory stays bounded.
const STREAM_BOUND: usize = 64;

/// A renderer that hands each document's entry over as it is known,
/// written by the JSON renderer (so with its limits on repeated
/// diagnostics) into a buffer of its own.
struct Streaming {
    json: Json,
    buffer: Vec<u8>,
    sender: SyncSender<Event>,
}

impl Streaming {
    fn send(&self, event: Event) -> io::Result<()> {
        self.sender
            .send(event)
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the iterator was dropped"))
    }
}

impl Renderer for Streaming {
    fn begin_file(&mut self, _out: &mut dyn Write, path: &str) -> io::Result<()> {
        self.buffer.clear();
        self.json.begin_file(&mut self.buffer, path)
    }

    fn document(
        &mut self,
        _out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        self.buffer.clear();
        self.json.document(&mut self.buffer, path, document)?;
        // The entry without the separator before it.
        let start = self
            .buffer
            .iter()
            .position(|&byte| byte == b'{')
            .unwrap_or(0);
        let entry = String::from_utf8_lossy(&self.buffer[start..]).into_owned();
        self.send(Event::Document(path.to_owned(), entry))
    }

    /// The stream is of documents' entries: how a file was read is in the
    /// file's report (`validate`).
    fn reading(&mut self, _out: &mut dyn Write, _path: &str, _reading: &Reading) -> io::Result<()> {
        Ok(())
    }

    fn end_file(&mut self, _out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        match end.error {
            Some(error) => self.send(Event::Failed(path.to_owned(), error.to_owned())),
            None => Ok(()),
        }
    }

    fn finish(&mut self, _out: &mut dyn Write, _summary: &Summary) -> io::Result<()> {
        Ok(())
    }
}

/// The documents' entries of a run, as they are validated on a thread of
/// its own (the iterator of `cardkit.iter_documents`).
#[pyclass(module = "cardkit._native")]
struct DocumentStream {
    receiver: Mutex<Receiver<Event>>,
    raised: Option<Arc<Mutex<Option<PyErr>>>>,
    done: bool,
}

#[pymethods]
impl DocumentStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next document: its input's path and its entry's JSON text.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<(String, String)>> {
        if self.done {
            return Ok(None);
        }
        let receiver = &self.receiver;
        let event = py.detach(|| receiver.lock().ok().and_then(|r| r.recv().ok()));
        let raised = || {
            self.raised
                .as_ref()
                .and_then(|raised| raised.lock().ok()?.take())
        };
        match event {
            Some(Event::Document(path, entry)) => Ok(Some((path, entry))),
            Some(Event::Failed(path, why)) => {
                self.done = true;
                Err(raised().unwrap_or_else(|| {
                    pyo3::exceptions::PyOSError::new_err(format!("{path}: {why}"))
                }))
            }
            Some(Event::Done(Ok(_))) | None => {
                self.done = true;
                raised().map_or(Ok(None), Err)
            }
            Some(Event::Done(Err(why))) => {
                self.done = true;
                Err(raised().unwrap_or_else(|| pyo3::exceptions::PyOSError::new_err(why)))
            }
        }
    }
}

/// Validates `source` as [`validate_json`] does, on a thread of its own,
/// handing over each document's entry as it is known.
#[pyfunction]
#[pyo3(signature = (source, *, kind="auto", as_of=None, strict_version=false, deny_unknown_fields=false, warn_deprecated=false, names="auto", jobs=None, warning_limit=None, error_limit=None, name=None))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
fn iter_documents_json(
    source: &Bound<'_, PyAny>,
    kind: &str,
    as_of: Option<&str>,
    strict_version: bool,
    deny_unknown_fields: bool,
    warn_deprecated: bool,
    names: &str,
    jobs: Option<usize>,
    warning_limit: Option<usize>,
    error_limit: Option<usize>,
    name: Option<String>,
) -> PyResult<DocumentStream> {
    let settings = settings(
        kind,
        as_of,
        strict_version,
        deny_unknown_fields,
        warn_deprecated,
        names,
        warning_limit,
        error_limit,
    )?;
    let jobs = self::jobs(jobs)?;
    let source = Source::of_many(source, name)?;
    let raised = source.raised();
    let (sender, receiver) = sync_channel(STREAM_BOUND);
    std::thread::Builder::new()
        .name("cardkit-documents".into())
        .spawn(move || {
            let mut renderer = Streaming {
                json: Json::new(settings.warning_filter()),
                buffer: Vec::new(),
                sender: sender.clone(),
            };
            let ran = run_with(&mut renderer, &settings, source, jobs);
            // Nobody listens when the iterator was dropped.
            let _ = sender.send(Event::Done(ran.map_err(|error| error.to_string())));
        })?;
    Ok(DocumentStream {
        receiver: Mutex::new(receiver),
        raised,
        done: false,
    })
}

/// How many of an export's notes (documents left out or kept with NULLs,
/// and why) a read keeps for its caller; the rest are counted.
const KEPT_NOTES: usize = 100;

/// What a read of the tables came to, for `python/cardkit` to return or
/// raise.
#[pyclass(module = "cardkit._native", frozen, get_all)]
struct TablesRead {
    /// `"ok"`; `"invalid"` (documents invalid or not exportable under
    /// `on_invalid="fail"`: nothing was read); `"unreadable"` (an input
    /// could not be read, under `"fail"`); `"nothing"` (no input found);
    /// `"aborted"` (the tables could not be made).
    outcome: &'static str,
    /// Each table's name and its `pyarrow.Table` (`"ok"` only), in the
    /// layout's order.
    tables: Vec<(String, Py<PyAny>)>,
    /// The report of the invalid documents and unreadable inputs, as
    /// `validate_json`'s JSON text (valid documents are not listed); empty
    /// unless `on_invalid` is `fail`.
    report: String,
    /// The exit status `validate` would give.
    status: u8,
    /// The export's notes, the first [`KEPT_NOTES`], and how many there were.
    notes: Vec<String>,
    note_count: usize,
    /// What was left out of the tables and why, as JSON text (see
    /// [`Skipped`]).
    skipped: String,
    /// Why the outcome is not `"ok"`, in words.
    message: String,
}

/// What [`read_tables`] collects on its run, without the GIL.
struct Collecting {
    outcome: &'static str,
    tables: Vec<ArrowTable>,
    report: Vec<u8>,
    status: u8,
    notes: Vec<String>,
    note_count: usize,
    skipped: Skipped,
    /// The documents read and the inputs that could not be, as the
    /// summary counts them.
    documents: usize,
    unreadable: usize,
    message: String,
}

/// What a read left out of its tables: each document left out (the first
/// [`KEPT_NOTES`] described, all counted) and each input's note or error.
#[derive(Default)]
struct Skipped {
    /// Each document left out: its input, place, kind, why in the export's
    /// words, and its first error when it is invalid.
    documents: Vec<serde_json::Value>,
    /// How many documents were left out, and how many of them are invalid.
    left_out: usize,
    invalid: usize,
    /// The inputs with a note (how they were checked, a hint) or an error
    /// (they could not be read to their end), the first [`KEPT_NOTES`].
    files: Vec<serde_json::Value>,
}

impl Skipped {
    fn to_json(&self, documents: usize, unreadable: usize) -> String {
        serde_json::json!({
            "documents": documents,
            "left_out": self.left_out,
            "invalid": self.invalid,
            "unreadable": unreadable,
            "skipped": self.documents,
            "files": self.files,
        })
        .to_string()
    }
}

/// The document whose report was the last handed over: the export's notes
/// on it come next.
struct Current {
    place: String,
    pointer: String,
    line: Option<usize>,
    kind: Option<Kind>,
    /// Its first error, as the JSON report has it (`None`: it is valid).
    first_error: Option<serde_json::Value>,
}

impl Current {
    fn of(name: &str, document: &DocumentReport) -> Self {
        Current {
            place: document.place(name),
            pointer: document.pointer.clone(),
            line: document.line,
            kind: document.kind,
            first_error: document
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
                .and_then(|d| serde_json::to_value(d).ok())
                .or_else(|| (!document.is_valid()).then_some(serde_json::Value::Null)),
        }
    }

    /// Why the export left the document out, when `note` says it did.
    fn left_out<'n>(&self, note: &'n str) -> Option<&'n str> {
        note.strip_prefix(self.place.as_str())?
            .strip_prefix(": ")?
            .strip_prefix(cardkit_export::LEFT_OUT)?
            .strip_prefix(": ")
    }
}

/// A renderer that hands everything on to `inner`, and keeps each input's
/// note and error for [`Skipped`].
struct Noting<'a> {
    inner: &'a mut dyn Renderer,
    files: &'a mut Vec<serde_json::Value>,
}

impl Renderer for Noting<'_> {
    fn begin_file(&mut self, out: &mut dyn Write, path: &str) -> io::Result<()> {
        self.inner.begin_file(out, path)
    }

    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        self.inner.document(out, path, document)
    }

    fn reading(&mut self, out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()> {
        self.inner.reading(out, path, reading)
    }

    fn end_file(&mut self, out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if (end.note.is_some() || end.error.is_some()) && self.files.len() < KEPT_NOTES {
            self.files.push(serde_json::json!({
                "path": path,
                "note": end.note,
                "error": end.error,
            }));
        }
        self.inner.end_file(out, path, end)
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        self.inner.finish(out, summary)
    }
}

/// Validates and exports `source` as `cardkit export` does, into tables
/// held in Arrow memory, with the GIL released; each table is handed to
/// pyarrow through the Arrow C data interface.
#[pyfunction]
#[pyo3(signature = (source, *, on_invalid="fail", kind="auto", as_of=None, strict_version=false, deny_unknown_fields=false, warn_deprecated=false, names="auto", keep_unknown=false, jobs=None, warning_limit=None, error_limit=None, name=None))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
fn read_tables(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    on_invalid: &str,
    kind: &str,
    as_of: Option<&str>,
    strict_version: bool,
    deny_unknown_fields: bool,
    warn_deprecated: bool,
    names: &str,
    keep_unknown: bool,
    jobs: Option<usize>,
    warning_limit: Option<usize>,
    error_limit: Option<usize>,
    name: Option<String>,
) -> PyResult<TablesRead> {
    let on_invalid = match on_invalid {
        "fail" => OnInvalid::Fail,
        "skip" => OnInvalid::Skip,
        "keep" => OnInvalid::Keep,
        other => {
            return Err(PyValueError::new_err(format!(
                "on_invalid is {other:?}: expected 'fail', 'skip' or 'keep'"
            )))
        }
    };
    let settings = settings(
        kind,
        as_of,
        strict_version,
        deny_unknown_fields,
        warn_deprecated,
        names,
        warning_limit,
        error_limit,
    )?;
    let jobs = self::jobs(jobs)?;
    let source = Source::of_many(source, name)?;
    let raised = source.raised();
    let collected = detached(py, raised, |interrupt| {
        collect_tables(&settings, source, jobs, on_invalid, keep_unknown, interrupt)
    })?;
    let collected = collected?;
    let tables = collected
        .tables
        .into_iter()
        .map(|table| {
            let converted = arrow_pyarrow::Table::try_new(table.batches, table.schema)
                .map_err(|error| PyValueError::new_err(format!("{}: {error}", table.name)))?
                .into_pyarrow(py)?;
            Ok((table.name, converted.unbind()))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(TablesRead {
        outcome: collected.outcome,
        tables,
        report: String::from_utf8(collected.report)
            .map_err(|_| PyValueError::new_err("the report is not UTF-8"))?,
        status: collected.status,
        notes: collected.notes,
        note_count: collected.note_count,
        skipped: collected
            .skipped
            .to_json(collected.documents, collected.unreadable),
        message: collected.message,
    })
}

/// One export run over `source` into [`Tables`], as `cardkit export` runs
/// it: the invalid documents reported with the JSON renderer.
fn collect_tables(
    settings: &Settings,
    source: Source,
    jobs: usize,
    on_invalid: OnInvalid,
    keep_unknown: bool,
    interrupt: &Arc<Interrupt>,
) -> io::Result<Collecting> {
    let (store, collected) = Tables::new();
    let mut exporter = Exporter::with_store(Box::new(store), on_invalid, jobs);
    exporter.keep_unknown(keep_unknown);
    let mut json = Json::new(settings.warning_filter());
    let mut skipped = Skipped::default();
    let mut renderer = Noting {
        inner: &mut json,
        files: &mut skipped.files,
    };
    // The report is raised with under `fail` only: under the others, the
    // invalid documents' entries are not kept.
    let mut report = Vec::new();
    let mut sink = io::sink();
    let out: &mut dyn Write = if on_invalid == OnInvalid::Fail {
        &mut report
    } else {
        &mut sink
    };
    let mut notes = Vec::new();
    let mut note_count = 0;
    let (mut skipped_documents, mut left_out, mut invalid) = (Vec::new(), 0, 0);
    let mut run = Run::with_settings(&mut renderer, out, settings)
        .showing(Shown::Invalid)
        .surface(Surface::Python);
    let mut check = |name: &str,
                     reader: &mut dyn Read,
                     options: &cardkit::Options,
                     on_document: &mut dyn FnMut(&DocumentReport)| {
        // Shared by the two callbacks: the export's notes on a document
        // come right after its report.
        let current = RefCell::new(None);
        let watched = |document: &DocumentReport| {
            *current.borrow_mut() = Some(Current::of(name, document));
            on_document(document);
        };
        exporter
            .input(name, reader, options, watched, |text: &str| {
                note_count += 1;
                if notes.len() < KEPT_NOTES {
                    notes.push(text.to_owned());
                }
                let current = current.borrow();
                let Some(document) = current.as_ref() else {
                    return;
                };
                let Some(why) = document.left_out(text) else {
                    return;
                };
                left_out += 1;
                invalid += usize::from(document.first_error.is_some());
                if skipped_documents.len() < KEPT_NOTES {
                    skipped_documents.push(serde_json::json!({
                        "path": name,
                        "pointer": document.pointer,
                        "line": document.line,
                        "kind": document.kind,
                        "reason": why,
                        "error": document.first_error,
                    }));
                }
            })
            .map_err(|error| match error {
                InputError::Read(error) => Failure::Read(error),
                InputError::Store(error) => Failure::Abort(error.to_string()),
            })
    };
    each_input(source, interrupt, |input| match input {
        Ok(opened) => run.input(opened, &mut check),
        Err(unopened) => run.unopened(&unopened),
    })?;
    let (nothing, aborted) = (run.checked_nothing(), run.aborted().map(str::to_owned));
    let (summary, status) = run.finish()?;
    skipped.documents = skipped_documents;
    skipped.left_out = left_out;
    skipped.invalid = invalid;
    let mut collecting = Collecting {
        outcome: "ok",
        tables: Vec::new(),
        report,
        status: status.code(),
        notes,
        note_count,
        skipped,
        documents: summary.documents,
        unreadable: summary.unreadable,
        message: String::new(),
    };
    let mut stop = |outcome, message: String| {
        exporter.abort();
        collecting.outcome = outcome;
        collecting.message = message;
    };
    if interrupt.stopped() {
        stop("aborted", "interrupted".into());
        return Ok(collecting);
    }
    if let Some(why) = aborted {
        stop("aborted", why);
        return Ok(collecting);
    }
    if nothing {
        stop(
            "nothing",
            "no input was found in the paths given: nothing was read".into(),
        );
        return Ok(collecting);
    }
    if summary.unreadable > 0 && on_invalid == OnInvalid::Fail {
        stop(
            "unreadable",
            format!(
                "{} could not be read: nothing was read (on_invalid='skip' reads the others)",
                plural(summary.unreadable, "input")
            ),
        );
        return Ok(collecting);
    }
    let totals = match exporter.finish() {
        Ok(totals) => totals,
        Err(error) => {
            collecting.outcome = "aborted";
            collecting.message = error.to_string();
            return Ok(collecting);
        }
    };
    if totals.failed {
        collecting.outcome = "invalid";
        collecting.message = format!(
            "{} of {} invalid or cannot be exported: nothing was read (on_invalid='skip' leaves them out, 'keep' reads them with NULLs)",
            totals.left_out,
            plural(summary.documents, "document"),
        );
        return Ok(collecting);
    }
    collecting.tables = collected.take().unwrap_or_default();
    Ok(collecting)
}

/// A Python string's UTF-8 bytes.
struct Utf8(PyBackedStr);

impl AsRef<[u8]> for Utf8 {
    fn as_ref(&self) -> &[u8] {
        let text: &str = &self.0;
        text.as_bytes()
    }
}

/// A kind named by the caller: `kind` is the argument's name, for the
/// message.
fn kind_named(name: &str, argument: &str) -> PyResult<Kind> {
    name.parse::<Kind>().map_err(|_| {
        PyValueError::new_err(format!(
            "{argument} is {name:?}: expected 'template', 'card', 'set' or 'migration'"
        ))
    })
}

/// The wire names named by the caller.
fn names_named(names: &str) -> PyResult<Names> {
    Names::named(names).ok_or_else(|| {
        PyValueError::new_err(format!(
            "names is {names:?}: expected {}",
            expected(Setting::Names)
        ))
    })
}

/// The values a keyword argument takes, as its messages list them.
fn expected(setting: Setting) -> String {
    setting.def().choices_said('\'').unwrap_or_default()
}

/// A JSON value as the JSON text Python reads.
fn json_text(value: serde_json::Result<String>) -> PyResult<String> {
    value.map_err(|error| PyValueError::new_err(error.to_string()))
}

/// The JSON Schema of a kind, as `cardkit schema` prints it: its JSON text.
#[pyfunction]
#[pyo3(signature = (kind, *, names="spec", container=None, as_of=None, annotations=false))]
fn schema_json(
    kind: &str,
    names: &str,
    container: Option<&str>,
    as_of: Option<&str>,
    annotations: bool,
) -> PyResult<String> {
    let container = match container {
        None | Some("bare") => Layout::Bare,
        Some("wrapped") => Layout::Wrapped,
        Some("catalog") => Layout::Catalog,
        Some("code-map" | "code_map") => Layout::CodeMap,
        Some("list") => Layout::List,
        Some("array") => Layout::Array,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "container is {other:?}: expected None, 'wrapped', 'catalog', 'code-map', 'list' or 'array'"
            )))
        }
    };
    let options = SchemaOptions {
        names: names_named(names)?,
        container,
        as_of: as_of
            .map(|version| {
                validate::as_of_version(version)
                    .map_err(|why| PyValueError::new_err(format!("as_of: {why}")))
            })
            .transpose()?,
        annotations,
    };
    json_text(serde_json::to_string(&json_schema_with(
        kind_named(kind, "kind")?,
        &options,
    )))
}

/// The fields of a kind, as `cardkit fields --format json` lists them: its
/// JSON text.
#[pyfunction]
#[pyo3(signature = (kind, *, since=None, deprecated=false, names="spec"))]
fn fields_json(kind: &str, since: Option<&str>, deprecated: bool, names: &str) -> PyResult<String> {
    let filter = listing::Filter {
        since: since
            .map(|version| {
                version
                    .parse::<Version>()
                    .map_err(|why| PyValueError::new_err(format!("since: {why}")))
            })
            .transpose()?,
        deprecated,
        names: names_named(names)?,
    };
    json_text(serde_json::to_string(
        &Listing::new(kind_named(kind, "kind")?, &filter).rows(),
    ))
}

/// A field of a kind, or a diagnostic code, explained as `cardkit explain
/// --format json` does: its JSON text.
#[pyfunction]
#[pyo3(signature = (kind_or_code, pointer=None, *, names="auto"))]
fn explain_json(kind_or_code: &str, pointer: Option<&str>, names: &str) -> PyResult<String> {
    let names = names_named(names)?;
    let kind = kind_or_code.parse::<Kind>().ok();
    let code = kind_or_code.parse::<Code>().ok();
    match (kind, code, pointer) {
        (Some(kind), _, Some(pointer)) => json_text(serde_json::to_string(
            &explain_named(kind, pointer, names)
                .map_err(|error| PyValueError::new_err(error.to_string()))?,
        )),
        (_, Some(code), None) => json_text(serde_json::to_string(&explain_code(code))),
        (Some(kind), _, None) => Err(PyValueError::new_err(format!(
            "{kind:?} is a kind: name the field after it, e.g. explain({kind:?}, \"/{}\")",
            kind.model().fields[0].name
        ))),
        (_, Some(code), Some(_)) => Err(PyValueError::new_err(format!(
            "{code:?} is a code: it takes no pointer"
        ))),
        (None, None, _) => Err(PyValueError::new_err(format!(
            "{kind_or_code:?} is neither a kind ('template', 'card', 'set', 'migration') nor a diagnostic code"
        ))),
    }
}

/// A document to start from, as `cardkit dummy` prints it: its JSON text.
#[pyfunction]
#[pyo3(signature = (kind="template"))]
fn dummy_json(kind: &str) -> PyResult<String> {
    json_text(serde_json::to_string(&dummy(kind_named(kind, "kind")?)))
}

/// The native part of the `cardkit` package.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(validate_json, module)?)?;
    module.add_function(wrap_pyfunction!(schema_json, module)?)?;
    module.add_function(wrap_pyfunction!(fields_json, module)?)?;
    module.add_function(wrap_pyfunction!(explain_json, module)?)?;
    module.add_function(wrap_pyfunction!(dummy_json, module)?)?;
    module.add_function(wrap_pyfunction!(iter_documents_json, module)?)?;
    module.add_class::<DocumentStream>()?;
    module.add_function(wrap_pyfunction!(read_tables, module)?)?;
    module.add_class::<TablesRead>()?;
    module.add("MAX_JOBS", MAX_JOBS)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_every_doors_defaults() {
        let asked = settings("auto", None, false, false, false, "auto", None, None).unwrap();
        assert_eq!(asked, Settings::default());
    }

    #[test]
    fn each_argument_sets_its_setting() {
        let asked = settings(
            "set",
            Some("v5.0.0"),
            true,
            true,
            true,
            "upstream",
            Some(0),
            Some(2),
        )
        .unwrap();
        assert_eq!(asked.kind, Some(Kind::Set));
        assert_eq!(asked.as_of, Some("v5.0.0".parse().unwrap()));
        assert!(asked.strict_version && asked.deny_unknown_fields && asked.warn_deprecated);
        assert_eq!(asked.names, Names::Upstream);
        assert_eq!((asked.warning_limit, asked.error_limit), (0, Some(2)));
        let auto = settings("auto", Some("auto"), true, false, false, "spec", None, None).unwrap();
        assert!(auto.as_of_auto && auto.as_of.is_none());
    }

    #[test]
    fn jobs_default_to_the_cores_within_the_limit() {
        assert_eq!(jobs(Some(3)).unwrap(), 3);
        assert!((1..=MAX_JOBS).contains(&jobs(None).unwrap()));
    }
}
