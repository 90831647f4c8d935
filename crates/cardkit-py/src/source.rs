//! What a call reads ([`Source`]): paths as the command line takes them,
//! bytes or text held by Python, or a binary file object read through its
//! `read(n)`.

use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};

/// What is validated.
pub(crate) enum Source {
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
    pub(crate) fn raised(&self) -> Option<Arc<Mutex<Option<PyErr>>>> {
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
    pub(crate) fn of_many(source: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<Source> {
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
/// searches it. Only a regular file is opened here, with the GIL held: a
/// FIFO's opening waits for a writer, so it is opened by the run, which
/// releases the GIL and watches for Ctrl-C.
fn openable(path: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    let path: PathBuf = path.extract()?;
    let metadata = std::fs::metadata(&path).map_err(|error| os_error(&error, &path))?;
    if metadata.is_file() {
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
pub(crate) struct PyReader {
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

/// A Python string's UTF-8 bytes.
pub(crate) struct Utf8(pub(crate) PyBackedStr);

impl AsRef<[u8]> for Utf8 {
    fn as_ref(&self) -> &[u8] {
        let text: &str = &self.0;
        text.as_bytes()
    }
}
