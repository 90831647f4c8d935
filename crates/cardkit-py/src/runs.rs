//! One run over one source, as the command line's: each input opened as it
//! opens them and validated in turn; `validate_json`, the report as the
//! command line's JSON.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cardkit_run::render::{Json, Renderer};
use cardkit_run::{discover, open, open_reader, Input, Opened, Run, Settings, Surface, Unopened};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::interrupt::{detached, Interrupt, Interruptible};
use crate::keywords::Keywords;
use crate::source::{Source, Utf8};

/// Validates `source` as `cardkit validate --format json` does, with the
/// GIL released: the report's JSON text and the exit status (0 valid, 1
/// invalid, 2 unreadable or nothing checked).
#[pyfunction]
#[pyo3(signature = (source, *, name=None, **keywords))]
pub(crate) fn validate_json(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<String>,
    keywords: Option<&Bound<'_, PyDict>>,
) -> PyResult<(String, u8)> {
    let (settings, jobs) = Keywords::read("validate", keywords)?.run()?;
    let source = Source::of_many(source, name)?;
    let raised = source.raised();
    let (json, status) = detached(py, raised, |interrupt| {
        run(&settings, source, jobs, interrupt)
    })??;
    let json =
        String::from_utf8(json).map_err(|_| PyValueError::new_err("the report is not UTF-8"))?;
    Ok((json, status))
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
pub(crate) fn run_with(
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
pub(crate) fn each_input(
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
                let opened = match input {
                    Input::File(path) if is_stream(&path) => {
                        match open_stream_path(path, interrupt) {
                            Some(opened) => opened,
                            None => break,
                        }
                    }
                    input => open(input),
                };
                check(watched(opened))?;
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

/// Whether the file at `path` is read as a stream: it exists and is no
/// regular file (a FIFO, a device).
fn is_stream(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir())
}

/// Opens the FIFO or device at `path` as a stream, as the command line
/// reads `-`: on a thread of its own, since opening a FIFO waits for a
/// writer, while Ctrl-C is watched for (`None` once it came).
fn open_stream_path(path: PathBuf, interrupt: &Interrupt) -> Option<Result<Opened, Unopened>> {
    let name = path.display().to_string();
    let file = interrupt.watch(move || std::fs::File::open(path))?;
    let opened = file.and_then(|file| open_reader(&name, file));
    Some(opened.map_err(|error| Unopened {
        name,
        reason: error.to_string(),
    }))
}
