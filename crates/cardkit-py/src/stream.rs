//! `iter_documents_json`: a run on a thread of its own, each document's
//! entry handed over to Python's iterator as it is known, through a short
//! queue.

use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use cardkit::report::{Reading, Summary};
use cardkit::DocumentReport;
use cardkit_run::render::{FileEnd, Json, Renderer};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::keywords::Keywords;
use crate::runs::run_with;
use crate::source::Source;

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
pub(crate) struct DocumentStream {
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

/// Validates `source` as [`validate_json`](crate::runs::validate_json) does, on a thread of its own,
/// handing over each document's entry as it is known.
#[pyfunction]
#[pyo3(signature = (source, *, name=None, **keywords))]
pub(crate) fn iter_documents_json(
    source: &Bound<'_, PyAny>,
    name: Option<String>,
    keywords: Option<&Bound<'_, PyDict>>,
) -> PyResult<DocumentStream> {
    let (settings, jobs) = Keywords::read("iter_documents", keywords)?
        .without_references("iter_documents")?
        .run()?;
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
