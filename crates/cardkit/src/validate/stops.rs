//! The string stops (see [`StringStops`]) of the documents a thread walks:
//! their room kept from one document to the next, as a document's index
//! grows to some hundred KB and room asked anew costs page faults.

use std::cell::Cell;
use std::ops::Range;

use cardkit_json::StringStops;

thread_local! {
    static SPARE: Cell<StringStops> = Cell::new(StringStops::default());
    /// The length of the last document walked on this thread: a stream's
    /// documents are indexed that far ahead, and a little more, before
    /// their end is known (beyond, strings are read byte by byte).
    static LAST_LENGTH: Cell<usize> = const { Cell::new(0) };
}

/// The most bytes of one document indexed (their index takes an eighth of
/// that): the strings of a huge document past them are read byte by byte.
const MOST: usize = 8 << 20;

/// Indexes the string stops of the document at `range.start` of `bytes`,
/// which ends by `range.end`, up to [`MOST`] bytes of it.
pub(crate) fn index(stops: &mut StringStops, bytes: &[u8], range: Range<usize>) {
    let end = range
        .end
        .min(range.start.saturating_add(MOST))
        .min(bytes.len());
    stops.index(bytes, range.start..end);
}

/// How far past its start a document of a stream is indexed before its
/// end is known: a little more than the last document's length, so that a
/// catalog's documents of like sizes are indexed whole and a stream of
/// tiny documents costs a little per document. The first document a thread
/// walks (a lone set file, most often) has all of what is at hand indexed,
/// up to [`MOST`]: once, it costs a stream of tiny documents a few
/// milliseconds.
pub(crate) fn ahead() -> usize {
    match LAST_LENGTH.get() {
        0 => MOST,
        last => last + last / 4 + 1024,
    }
}

/// This thread's string stops, to index with.
pub(crate) fn take() -> StringStops {
    SPARE.take()
}

/// Gives the string stops back to the thread, for the next document,
/// with the length of the document walked (0 when it is not known).
pub(crate) fn keep(stops: StringStops, walked: usize) {
    SPARE.set(stops);
    if walked > 0 {
        LAST_LENGTH.set(walked);
    }
}

#[cfg(test)]
mod tests {
    use super::{ahead, keep, take, MOST};

    #[test]
    fn a_thread_indexes_its_first_document_as_far_as_it_can_then_by_the_last_length() {
        std::thread::spawn(|| {
            assert_eq!(ahead(), MOST);
            keep(take(), 4000);
            assert_eq!(ahead(), 4000 + 1000 + 1024);
            // A document whose length is not known leaves the last one's.
            keep(take(), 0);
            assert_eq!(ahead(), 4000 + 1000 + 1024);
        })
        .join()
        .expect("the thread ends");
    }
}
