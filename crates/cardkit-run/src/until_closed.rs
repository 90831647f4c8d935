//! Output that goes quiet when its reader is gone.

use std::io::{self, Write};

/// Output that goes quiet when its reader is gone: a closed pipe
/// (`cardkit validate … | head`) stops the output, not the run, so that every
/// input is still validated and the exit status still tells the verdict.
/// Other write errors are errors.
#[derive(Debug)]
pub struct UntilClosed<W> {
    inner: W,
    closed: bool,
}

impl<W> UntilClosed<W> {
    /// `inner`, until its reader is gone.
    pub fn new(inner: W) -> Self {
        UntilClosed {
            inner,
            closed: false,
        }
    }

    /// Whether the reader is gone.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Swallows a closed pipe's error, and everything written after it.
    fn unless_closed<T>(&mut self, result: io::Result<T>, swallowed: T) -> io::Result<T> {
        match result {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(swallowed)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for UntilClosed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let written = self.inner.write(buf);
        self.unless_closed(written, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let flushed = self.inner.flush();
        self.unless_closed(flushed, ())
    }
}
