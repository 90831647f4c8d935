//! Ctrl-C during a run: the GIL released while it works, Python's signal
//! handlers run now and then from its reads, and the exception raised
//! (by a handler, or by the source's file object) raised again by the call.

use std::io::{self, Read};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

/// Runs `work` with the GIL released, so other threads run meanwhile. A
/// Ctrl-C seen while it ran, then an exception that the source's file
/// object raised, wins over what it gives.
pub(crate) fn detached<T: Send>(
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

/// Whether a run was interrupted (Ctrl-C), and the exception Python's
/// signal handler raised for it.
#[derive(Default)]
pub(crate) struct Interrupt {
    raised: Mutex<Option<PyErr>>,
}

impl Interrupt {
    pub(crate) fn stopped(&self) -> bool {
        self.raised.lock().map_or(true, |raised| raised.is_some())
    }

    /// The exception raised, taken.
    pub(crate) fn take(&self) -> Option<PyErr> {
        self.raised.lock().ok()?.take()
    }
}

impl Interrupt {
    /// Runs `work` on a thread of its own while this one runs Python's
    /// signal handlers now and then, for work that may block for good (a
    /// FIFO's opening waits for a writer): its result, or `None` once a
    /// handler raised (the thread is then left to finish on its own).
    pub(crate) fn watch<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // The receiver is gone once the run was interrupted.
            let _ = sender.send(work());
        });
        loop {
            match receiver.recv_timeout(SIGNALS_EVERY) {
                Ok(done) => return Some(done),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Err(error) = Python::attach(|py| py.check_signals()) {
                if let Ok(mut raised) = self.raised.lock() {
                    raised.get_or_insert(error);
                }
            }
            if self.stopped() {
                return None;
            }
        }
    }
}

/// How often a run's reads look for a signal: Python's handlers run only
/// when asked, and a run holds no GIL.
const SIGNALS_EVERY: Duration = Duration::from_millis(50);

/// A reader that runs Python's signal handlers now and then: once one
/// raises (`KeyboardInterrupt` on Ctrl-C), every read fails, so that the
/// validation stops within a read of the input, and the exception is kept
/// for the call to raise.
pub(crate) struct Interruptible {
    inner: Box<dyn Read>,
    interrupt: Arc<Interrupt>,
    checked: Instant,
}

impl Interruptible {
    pub(crate) fn new(inner: Box<dyn Read>, interrupt: Arc<Interrupt>) -> Self {
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
