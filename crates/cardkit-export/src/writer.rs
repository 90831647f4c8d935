//! The store on a thread of its own ([`Writer`]), fed documents' rows
//! through a short queue while the next documents are validated, and the
//! rows written kept for the next documents ([`Spare`]).

use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::rows::Rows;
use crate::{Error, Store};

/// The store on a thread of its own, written to through a short queue of
/// documents' rows: the store writes while the next documents are
/// validated, and memory holds only the rows of the documents queued.
/// Small documents' rows are gathered and queued together, so that each
/// does not cost the two threads a handover (300,000 migrations took 14
/// times as long as their validation, most of it in the system).
pub(crate) struct Writer {
    rows: Option<SyncSender<Rows>>,
    /// Rows of small documents not queued yet.
    gathered: Option<Rows>,
    spare: Spare,
    thread: Option<JoinHandle<Result<Box<dyn Store>, Error>>>,
}

/// Rows written, kept emptied for the next documents: their memory is
/// used again instead of being given back and asked for anew (a page fault
/// every few kilobytes). As many are kept as there can be documents in
/// flight, up to a bound in bytes: the validating threads take rows for a
/// whole batch of small documents before any comes back.
#[derive(Clone, Default)]
pub(crate) struct Spare(Arc<Mutex<Kept>>);

#[derive(Default)]
struct Kept {
    rows: Vec<Rows>,
    /// Their capacity, in bytes.
    bytes: usize,
}

impl Spare {
    /// The rows kept take at most this many bytes.
    const KEPT_BYTES: usize = 24 << 20;

    pub(crate) fn take(&self) -> Rows {
        let kept = self.0.lock().map(|mut kept| {
            let rows = kept.rows.pop()?;
            kept.bytes -= rows.capacity();
            Some(rows)
        });
        kept.ok().flatten().unwrap_or_default()
    }

    pub(crate) fn keep(&self, rows: Rows) {
        let bytes = rows.capacity();
        if let Ok(mut kept) = self.0.lock() {
            if kept.bytes + bytes <= Self::KEPT_BYTES {
                kept.bytes += bytes;
                kept.rows.push(rows);
            }
        }
    }
}

/// Documents whose rows wait for the store.
const QUEUED_DOCUMENTS: usize = 4;

/// Rows are queued once they are this many, or hold this much text; a
/// document's rows that reach either are queued as they are.
const GATHERED_ROWS: usize = 1024;

const GATHERED_TEXT: usize = 1 << 20;

fn gathered_enough(rows: &Rows) -> bool {
    rows.len() >= GATHERED_ROWS || rows.text_len() >= GATHERED_TEXT
}

impl Writer {
    pub(crate) fn start(mut store: Box<dyn Store>, spare: Spare) -> Writer {
        let (sender, receiver) = sync_channel::<Rows>(QUEUED_DOCUMENTS);
        let kept = spare.clone();
        let thread = std::thread::spawn(move || {
            for rows in receiver {
                if let Err(error) = store.write_rows(&rows) {
                    store.abort();
                    return Err(error);
                }
                kept.keep(rows);
            }
            Ok(store)
        });
        Writer {
            rows: Some(sender),
            gathered: None,
            spare,
            thread: Some(thread),
        }
    }

    /// Queues a document's rows, or gathers them with the next documents'
    /// while they are few.
    ///
    /// # Errors
    /// The store refused earlier rows (it is then aborted).
    pub(crate) fn write(&mut self, rows: Rows) -> Result<(), Error> {
        if gathered_enough(&rows) {
            if let Some(gathered) = self.gathered.take() {
                self.send(gathered)?;
            }
            return self.send(rows);
        }
        let gathered = match self.gathered.take() {
            Some(mut gathered) => {
                gathered.append(&rows);
                self.spare.keep(rows);
                gathered
            }
            None => rows,
        };
        if gathered_enough(&gathered) {
            return self.send(gathered);
        }
        self.gathered = Some(gathered);
        Ok(())
    }

    /// Queues a document's rows on their own, after those gathered.
    ///
    /// # Errors
    /// The store refused earlier rows (it is then aborted).
    pub(crate) fn write_alone(&mut self, rows: Rows) -> Result<(), Error> {
        if let Some(gathered) = self.gathered.take() {
            self.send(gathered)?;
        }
        self.send(rows)
    }

    fn send(&mut self, rows: Rows) -> Result<(), Error> {
        let sent = self.rows.as_ref().map(|sender| sender.send(rows));
        match sent {
            Some(Ok(())) => Ok(()),
            // The thread has ended: the store failed.
            _ => match self.join() {
                Ok(store) => {
                    store.abort();
                    Err(Error::new("the store stopped taking rows".into()))
                }
                Err(error) => Err(error),
            },
        }
    }

    /// Waits for all the rows to be written; the store back.
    ///
    /// # Errors
    /// The store refused rows (it is then aborted).
    pub(crate) fn finish(mut self) -> Result<Box<dyn Store>, Error> {
        if let Some(gathered) = self.gathered.take() {
            self.send(gathered)?;
        }
        self.join()
    }

    /// Waits for the rows queued to be written, leaving out those gathered;
    /// the store back, to be aborted.
    pub(crate) fn stop(mut self) -> Result<Box<dyn Store>, Error> {
        self.gathered = None;
        self.join()
    }

    fn join(&mut self) -> Result<Box<dyn Store>, Error> {
        self.rows = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(outcome)) => outcome,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => Err(Error::new("the run was aborted".into())),
        }
    }
}
