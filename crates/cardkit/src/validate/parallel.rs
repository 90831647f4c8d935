//! Validation on several threads. This thread reads the structure around the
//! documents, finds where each document ends (from the structural index,
//! much faster than validation, each byte indexed once however the reads
//! fall) and hands out batches of whole documents, gathered where they were
//! read: a batch takes the reading buffer itself when that copies less
//! than copying the batch out of it. Worker threads validate them; the
//! reports are put back in file order before they are handed on, so they
//! are exactly those of one thread.

use crate::diagnostic::quote::Quoted;
use std::collections::BTreeMap;
use std::io;

use crossbeam_channel::{bounded, unbounded, Receiver, Sender, TrySendError};

use crate::diagnostic::Diagnostic;

use super::check::{Checker, Malformed};
use super::container::container;
use super::documents::{Documents, KindRule, Stop};
use super::locate::{self, Position, CONTEXT_BYTES};
use super::options::Options;
use super::part::{extracted, Extract, Part, Sink};
use super::source::{Source, SplitOff};
use super::stops;
use super::stream::{for_each_line, validate_line, Sequential};
use crate::report::{DocumentReport, Layout};
use cardkit_json::IndexedSkip;

/// The most documents in one batch: a batch of tiny documents can hold
/// far more reports than bytes, and the reports of every batch in flight
/// are in memory until they are written.
const BATCH_DOCUMENTS: usize = 1024;

/// How many bytes apart the positions are that a batch carries: the reading
/// thread counts lines and characters through every byte anyway (for the
/// diagnostics it locates itself); a worker then counts at most this many
/// for each diagnostic, rather than its whole batch again.
const MARK_EVERY: usize = 64 * 1024;

/// Whole documents of consecutive places of a file, with some context
/// around them for excerpts.
struct Batch {
    seq: usize,
    /// The bytes from file offset `bytes.range.start` on.
    bytes: SplitOff,
    /// Positions the reading thread counted: the first document's start,
    /// then one every [`MARK_EVERY`] bytes, so that a diagnostic is
    /// located by counting from the nearest, not from the batch's start.
    marks: Vec<Position>,
    documents: Vec<Unit>,
    /// `bytes` up to here are known to be UTF-8 (the reader checked them).
    utf8_checked: usize,
}

/// The documents of the next batch, gathered where they are read: their
/// bytes are split off the source when the batch is sent.
struct Gathered {
    seq: usize,
    /// The file offset of the first byte the batch takes, for context.
    window_start: usize,
    marks: Vec<Position>,
    documents: Vec<Unit>,
    /// The file offset just after the last document.
    end: usize,
}

/// One document of a batch.
struct Unit {
    /// File offset of its first byte.
    at: usize,
    pointer: String,
    kind: KindRule,
}

/// What a worker found in a batch.
struct Done {
    seq: usize,
    parts: Vec<Part>,
    /// The file offset of the document that is malformed JSON, if one is:
    /// nothing after it counts.
    malformed: Option<usize>,
    /// The batch's buffer, to be filled again: large buffers freshly
    /// allocated would cost a page fault every few kilobytes.
    spare: Vec<u8>,
}

/// Validates the value at `start` of `src` on `jobs` threads.
pub(crate) fn validate(
    src: &mut Source<'_>,
    start: usize,
    options: &Options,
    jobs: usize,
    mut sink: Sink<'_>,
) -> io::Result<Layout> {
    let extract = sink.extract;
    std::thread::scope(|scope| {
        let (pool, done) = Pool::new(scope, jobs, |batch: Batch| {
            validate_batch(batch, options, extract)
        });
        let mut batcher = Batcher::new(pool, done, options, sink.reborrow());
        let (layout, outside, outcome) = container(src, start, options, &mut batcher);
        let sent = batcher.send(src);
        let stopped_at = batcher.finish();
        // What was found around documents after a malformed one would not
        // have been read by one thread.
        if let Some(report) = outside.before(stopped_at).into_report() {
            (batcher.order.sink.out)(Part::Document(report, None));
        }
        match outcome {
            Err(Stop::Io(error)) => Err(error),
            _ => sent.map(|()| layout),
        }
    })
}

/// Validates each line of JSON Lines on `jobs` threads; whether there was a
/// line that is not blank.
pub(crate) fn lines(
    src: &mut Source<'_>,
    start: usize,
    options: &Options,
    jobs: usize,
    sink: Sink<'_>,
) -> io::Result<bool> {
    type Lines = (usize, Vec<(Vec<u8>, Position, usize)>);
    let extract = sink.extract;
    std::thread::scope(|scope| {
        let (mut pool, done) = Pool::new(scope, jobs, |(seq, lines): Lines| {
            let mut parts = Vec::new();
            for (line, at, number) in lines {
                let out = &mut |part| parts.push(part);
                validate_line(line, at, number, options, Sink { extract, out });
            }
            Done {
                seq,
                parts,
                malformed: None,
                spare: Vec::new(),
            }
        });
        let mut order = InOrder::new(done, sink);
        let batch_bytes = src.buffering.batch;
        let (mut seq, mut batch, mut size, mut any) = (0, Vec::new(), 0, false);
        let result = for_each_line(src, start, &mut |line, at, number| {
            any = true;
            size += line.len();
            batch.push((line, at, number));
            if size >= batch_bytes || batch.len() >= BATCH_DOCUMENTS {
                pool.submit((seq, std::mem::take(&mut batch)), &mut order);
                seq += 1;
                size = 0;
                order.poll();
            }
        });
        if !batch.is_empty() {
            pool.submit((seq, batch), &mut order);
        }
        pool.finish(&mut order);
        result.map(|()| any)
    })
}

/// Work handed out to up to `jobs` threads and to the thread that hands it
/// out, which finds where documents end and, whenever the others are all
/// busy, validates a batch itself instead of waiting. A thread is started
/// with each piece of work until there are `jobs`: never more threads than
/// pieces.
struct Pool<'scope, 'env, T, F> {
    scope: &'scope std::thread::Scope<'scope, 'env>,
    jobs: usize,
    started: usize,
    work: Option<Sender<T>>,
    todo: Receiver<T>,
    finished: Option<Sender<Done>>,
    run: F,
}

impl<'scope, 'env, T: Send + 'scope, F: Fn(T) -> Done + Send + Sync + Copy + 'scope>
    Pool<'scope, 'env, T, F>
{
    fn new(
        scope: &'scope std::thread::Scope<'scope, 'env>,
        jobs: usize,
        run: F,
    ) -> (Self, Receiver<Done>) {
        // A bounded queue keeps memory bounded: reading waits for the workers.
        let (work, todo) = bounded::<T>(jobs);
        let (finished, done) = unbounded();
        let pool = Pool {
            scope,
            jobs,
            started: 0,
            work: Some(work),
            todo,
            finished: Some(finished),
            run,
        };
        (pool, done)
    }

    fn start_worker(&mut self) {
        let Some(finished) = self.finished.clone() else {
            return;
        };
        let (todo, run) = (self.todo.clone(), self.run);
        self.scope.spawn(move || {
            for item in todo {
                if finished.send(run(item)).is_err() {
                    return;
                }
            }
        });
        self.started += 1;
    }

    /// Queues `item`; while the queue is full, does the oldest piece here.
    fn submit(&mut self, mut item: T, order: &mut InOrder<'_>) {
        if self.started < self.jobs {
            self.start_worker();
        }
        let Some(work) = &self.work else {
            return;
        };
        loop {
            match work.try_send(item) {
                Ok(()) => return,
                Err(TrySendError::Full(back)) => {
                    item = back;
                    if let Ok(queued) = self.todo.try_recv() {
                        order.arrived((self.run)(queued));
                    }
                }
                Err(TrySendError::Disconnected(_)) => return,
            }
        }
    }

    /// Does what is left, with the other threads, and hands on every result.
    fn finish(&mut self, order: &mut InOrder<'_>) {
        self.work = None;
        self.finished = None;
        while let Ok(queued) = self.todo.try_recv() {
            order.arrived((self.run)(queued));
        }
        order.drain();
    }
}

/// Hands on the workers' reports in file order, up to the first malformed
/// document.
struct InOrder<'s> {
    done: Receiver<Done>,
    waiting: BTreeMap<usize, Done>,
    next: usize,
    stopped_at: Option<usize>,
    sink: Sink<'s>,
    /// Buffers of finished batches, for the next ones.
    spares: Vec<Vec<u8>>,
}

impl<'s> InOrder<'s> {
    fn new(done: Receiver<Done>, sink: Sink<'s>) -> Self {
        InOrder {
            done,
            waiting: BTreeMap::new(),
            next: 0,
            stopped_at: None,
            sink,
            spares: Vec::new(),
        }
    }

    /// Hands on what has arrived, without waiting.
    fn poll(&mut self) {
        while let Ok(done) = self.done.try_recv() {
            self.arrived(done);
        }
    }

    /// Waits for every result, handing each on.
    fn drain(&mut self) {
        while let Ok(done) = self.done.recv() {
            self.arrived(done);
        }
    }

    fn arrived(&mut self, mut done: Done) {
        if done.spare.capacity() > 0 {
            self.spares.push(std::mem::take(&mut done.spare));
        }
        self.waiting.insert(done.seq, done);
        while let Some(done) = self.waiting.remove(&self.next) {
            self.next += 1;
            if self.stopped_at.is_some() {
                continue;
            }
            done.parts.into_iter().for_each(&mut *self.sink.out);
            self.stopped_at = done.malformed;
        }
    }
}

/// Gathers documents into batches for the workers.
struct Batcher<'scope, 'env, 's, F> {
    pool: Pool<'scope, 'env, Batch, F>,
    order: InOrder<'s>,
    options: &'s Options,
    /// The value is one document: there is nothing to do in parallel.
    single: bool,
    gathered: Option<Gathered>,
    seq: usize,
}

impl<'scope, 'env, 's, F: Fn(Batch) -> Done + Send + Sync + Copy + 'scope>
    Batcher<'scope, 'env, 's, F>
{
    fn new(
        pool: Pool<'scope, 'env, Batch, F>,
        done: Receiver<Done>,
        options: &'s Options,
        sink: Sink<'s>,
    ) -> Self {
        Batcher {
            pool,
            options,
            single: false,
            order: InOrder::new(done, sink),
            gathered: None,
            seq: 0,
        }
    }

    /// Sends off the batch gathered, with the context after it; the bytes
    /// from its end on stay at hand.
    fn send(&mut self, src: &mut Source<'_>) -> io::Result<()> {
        let Some(mut gathered) = self.gathered.take() else {
            return Ok(());
        };
        let end = gathered.end;
        src.marks(&mut gathered.marks, end, MARK_EVERY);
        while src.end() < end + CONTEXT_BYTES && src.fill()? {}
        let context = (end + CONTEXT_BYTES).min(src.end());
        let bytes = src.split_off(
            gathered.window_start..context,
            end.saturating_sub(CONTEXT_BYTES),
            &mut self.order.spares,
        );
        let utf8_checked = src.utf8_to().saturating_sub(bytes.range.start);
        let batch = Batch {
            seq: gathered.seq,
            bytes,
            marks: gathered.marks,
            documents: gathered.documents,
            utf8_checked,
        };
        self.pool.submit(batch, &mut self.order);
        self.order.poll();
        Ok(())
    }

    /// Waits for the workers to finish; the file offset of the first
    /// malformed document, if there is one.
    fn finish(&mut self) -> Option<usize> {
        self.pool.finish(&mut self.order);
        self.order.stopped_at
    }
}

impl<'scope, F: Fn(Batch) -> Done + Send + Sync + Copy + 'scope> Documents
    for Batcher<'scope, '_, '_, F>
{
    fn layout(&mut self, layout: Layout) {
        self.single = matches!(layout, Layout::Bare | Layout::Wrapped);
    }

    fn wants_around(&self) -> bool {
        self.order.sink.wants_around()
    }

    /// Handed on after the documents before it: the batch being gathered is
    /// sent, and the member follows it in order as a piece of its own.
    fn around(&mut self, src: &mut Source<'_>, pointer: String, bytes: Option<Vec<u8>>) {
        // An error reading the context after the batch is met again, and
        // reported, when the container reads on.
        let _ = self.send(src);
        self.seq += 1;
        self.order.arrived(Done {
            seq: self.seq - 1,
            parts: vec![Part::Around(pointer, bytes)],
            malformed: None,
            spare: Vec::new(),
        });
    }

    fn document(
        &mut self,
        src: &mut Source<'_>,
        at: usize,
        pointer: String,
        kind: KindRule,
    ) -> Result<usize, Stop> {
        if self.single {
            let mut here = Sequential {
                options: self.options,
                line: None,
                sink: self.order.sink.reborrow(),
            };
            return here.document(src, at, pointer, kind);
        }
        self.order.poll();
        if self.order.stopped_at.is_some() {
            return Err(Stop::Malformed);
        }
        // The input's first bytes are at hand before any document is sent:
        // an input that short (a request's body, cut off when its client
        // left) ends at once, not after what it holds was validated.
        while src.end() < src.buffering.read_ahead && src.fill()? {}
        // Where the document ends: a malformed one, up to where that shows.
        let mut skip = IndexedSkip::new(at);
        let end = loop {
            match skip.resume(src.bytes(), src.base, src.eof) {
                Ok(end) if end < src.end() || src.eof => break end,
                Err(end) if end < src.end() => break end + 1,
                _ if src.eof => break src.end(),
                _ => {
                    // The documents gathered go before more is read, so
                    // that what is left to copy is this document's start.
                    // Sending may read on, for the context after them; if
                    // not, more is read here (or the input's end is found,
                    // and the next turn indexes its short last block).
                    let read = src.end();
                    self.send(src)?;
                    src.fill_past(read)?;
                }
            }
        };
        let gathered = match &mut self.gathered {
            Some(gathered) => gathered,
            empty => {
                self.seq += 1;
                let window_start = at.saturating_sub(CONTEXT_BYTES).max(src.base);
                src.hold(window_start);
                empty.insert(Gathered {
                    seq: self.seq - 1,
                    window_start,
                    marks: vec![src.position(at)],
                    documents: Vec::new(),
                    end,
                })
            }
        };
        gathered.documents.push(Unit { at, pointer, kind });
        gathered.end = end;
        // Sent once it is a batch's size and splitting it off copies little
        // (what was read past it is at most half its size; when more must
        // be read, it goes above), or it is four times that, or it holds
        // as many documents as a batch may.
        let size = end - gathered.window_start;
        let read_past = src.end() - end;
        let batch = src.buffering.batch;
        if gathered.documents.len() >= BATCH_DOCUMENTS
            || size >= 4 * batch
            || (size >= batch && read_past * 2 <= size)
        {
            self.send(src)?;
        }
        Ok(end)
    }

    /// A batch takes the bytes after its last document (for excerpts) when
    /// it is sent: it goes before they are let go of, rather than hold
    /// what lies between documents (a long run of white space).
    fn before_release(&mut self, src: &mut Source<'_>) -> io::Result<()> {
        self.send(src)
    }
}

/// Validates the documents of a batch, up to one that is malformed JSON.
/// Each is located and handed to the extractor as soon as it is validated,
/// while its bytes and its tape are still in the cache.
fn validate_batch(batch: Batch, options: &Options, extract: Option<Extract<'_>>) -> Done {
    let mut parts = Vec::with_capacity(batch.documents.len());
    // The last position counted: each document's start and diagnostics are
    // counted on from it (or from a nearer mark), each byte once.
    let mut counted = batch.marks[0];
    let mut malformed = None;
    let utf8_checked = batch.utf8_checked;
    let unfolded = Options {
        warnings_shown: None,
        ..*options
    };
    let window_start = batch.bytes.range.start;
    let bytes = batch.bytes.bytes();
    let mut stops = stops::take();
    let mut units = batch.documents.into_iter().peekable();
    while let Some(unit) = units.next() {
        let start = unit.at - window_start;
        // A document ends where the next starts, if not before.
        let bound = units
            .peek()
            .map_or(bytes.len(), |next| next.at - window_start);
        stops::index(&mut stops, bytes, start..bound);
        let kind = unit.kind.resolve(bytes, start);
        let walk = |options| {
            let mut checker = Checker::new(
                bytes,
                window_start,
                start,
                &unit.pointer,
                utf8_checked,
                options,
            )
            .with_string_stops(&stops);
            if let Some(scope) = extract.and_then(|e| e.tape) {
                checker.record_tape(scope);
            }
            let outcome = checker.document(kind);
            (outcome, checker)
        };
        let (mut outcome, mut checker) = walk(options);
        // Rare (a duplicate key after warnings were folded): walked again
        // as it would be without folding.
        if checker.fold_broken() {
            (outcome, checker) = walk(&unfolded);
        }
        let span = outcome.is_ok().then_some(start..checker.pos());
        let tape = checker.take_tape().unwrap_or_default();
        let found = checker.into_found();
        let pointer = Quoted::from(unit.pointer);
        let mut report = DocumentReport {
            pointer: pointer.text,
            pointer_bytes: pointer.whole,
            line: None,
            kind,
            diagnostics: found.diagnostics,
            omitted: found.omitted,
            folded: found.folded,
            ignored: found.ignored,
            names: found.names,
        };
        // Where the document starts, for an extractor: before its
        // diagnostics are located, as positions are counted in file order.
        let document = span.filter(|_| extract.is_some()).map(|span| {
            counted = locate::position_at(bytes, window_start, &batch.marks, counted, unit.at);
            (&bytes[span], counted)
        });
        let mut diagnostics: Vec<&mut Diagnostic> = report.diagnostics.iter_mut().collect();
        counted = locate::locate_from(bytes, window_start, &batch.marks, counted, &mut diagnostics);
        let extracted = extracted(extract, &report, document, &tape);
        tape.recycle();
        parts.push(Part::Document(report, extracted));
        if let Err(Malformed) = outcome {
            malformed = Some(unit.at);
            break;
        }
    }
    stops::keep(stops, 0);
    Done {
        seq: batch.seq,
        parts,
        malformed,
        spare: batch.bytes.bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(seq: usize) -> Done {
        Done {
            seq,
            parts: Vec::new(),
            malformed: None,
            spare: Vec::new(),
        }
    }

    #[test]
    fn no_more_threads_start_than_there_are_pieces_of_work() {
        for (jobs, pieces, threads) in [(256, 2, 2), (2, 5, 2), (8, 0, 0)] {
            let mut out = |_: Part| {};
            let started = std::thread::scope(|scope| {
                let (mut pool, done_rx) = Pool::new(scope, jobs, done);
                let sink = Sink {
                    extract: None,
                    out: &mut out,
                };
                let mut order = InOrder::new(done_rx, sink);
                for seq in 0..pieces {
                    pool.submit(seq, &mut order);
                }
                pool.finish(&mut order);
                assert_eq!(order.next, pieces, "every piece is handed on");
                pool.started
            });
            assert_eq!(started, threads, "{jobs} jobs, {pieces} pieces");
        }
    }
}
