//! A compressed input decoded on a thread of its own, beside the thread that
//! validates its bytes: decoding (gzip, zstd, xz, bzip2) costs as much as
//! reading the JSON or more, and on two cores the two overlap.
//!
//! The decoded bytes come in a few chunks of fixed size that go round
//! between the two threads: the decoding thread fills an empty one and sends
//! it on, the reader sends it back once read. Memory stays bounded whatever
//! the decoded size ([`CHUNKS`] × [`CHUNK`]); a decompression bomb costs
//! time, not memory. The reader sees the bytes and the errors in the order
//! the decoder gave them, so that what it reports is what it would report
//! reading the decoder itself. A reader dropped early (an error, a limit of
//! findings) ends the decoding thread at its next chunk: it finds no one to
//! send to.

use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TryRecvError};

use super::decode::{decoder, told, Compression, Decoded, Stored};

/// The decoded bytes of one chunk.
const CHUNK: usize = 512 << 10;

/// How many chunks there are at most, between the two threads: 8 MiB,
/// more than a set of a catalog, so that decoding goes on while the reading
/// thread validates a batch of documents itself (with 2 MiB, gzip and zstd
/// on two cores took 10 % and 7 % longer).
const CHUNKS: usize = 16;

/// As [`decode`](super::decode::decode), but a compressed input is decoded on a thread of its own
/// ([`Beside`]), beside the thread that reads its decoded bytes;
/// `stored` counts its bytes as stored as they are handed on.
///
/// # Errors
/// The first bytes cannot be read, or the thread cannot start.
pub(super) fn decode_beside(
    input: impl Read + Send + 'static,
    stored: &Stored,
) -> io::Result<Decoded> {
    let counted = Stored::default();
    let (compression, input) = told(counted.counting(input))?;
    stored.set(counted.read());
    let reader: Box<dyn Read> = match compression {
        None | Some(Compression::Zip) => Box::new(input),
        Some(format) => Box::new(Beside::start(format, input, counted, stored.clone())?),
    };
    Ok(Decoded {
        reader,
        compression,
    })
}

/// What the decoding thread sends, with the count of the input's bytes as
/// stored read so far.
enum Message {
    /// A chunk of decoded bytes: `bytes[..len]`.
    Chunk {
        bytes: Vec<u8>,
        len: usize,
        stored: u64,
    },
    /// The decoded bytes have ended.
    End { stored: u64 },
    /// The decoder failed: nothing follows.
    Failed { error: io::Error, stored: u64 },
}

/// The reading side: the decoded bytes, as a [`Read`].
pub(super) struct Beside {
    format: Compression,
    full: Receiver<Message>,
    empty: Sender<Vec<u8>>,
    /// The chunk being read: its bytes, how many, and how many are read.
    current: Option<(Vec<u8>, usize, usize)>,
    /// Counted as chunks are handed on.
    stored: Stored,
    /// The stream has ended, or failed with this (given again to any read
    /// after it: a failed input never reads as ended).
    ended: Option<Option<(io::ErrorKind, String)>>,
}

impl Beside {
    /// Starts decoding `input` (whose bytes as stored `counted` counts) as
    /// `format` on a thread of its own; `stored` is told of them as the
    /// decoded bytes are read.
    ///
    /// # Errors
    /// The thread cannot start.
    pub(super) fn start(
        format: Compression,
        input: impl Read + Send + 'static,
        counted: Stored,
        stored: Stored,
    ) -> io::Result<Beside> {
        let (full_tx, full) = mpsc::sync_channel(CHUNKS);
        let (empty, empty_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("{format} decoder"))
            .spawn(move || decode(format, input, &counted, &full_tx, &empty_rx))?;
        Ok(Beside {
            format,
            full,
            empty,
            current: None,
            stored,
            ended: None,
        })
    }
}

impl Read for Beside {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some((bytes, len, at)) = &mut self.current {
                if *at < *len {
                    let n = buf.len().min(*len - *at);
                    buf[..n].copy_from_slice(&bytes[*at..*at + n]);
                    *at += n;
                    return Ok(n);
                }
                if let Some((bytes, _, _)) = self.current.take() {
                    // The decoding thread may have ended: the chunk is then
                    // not needed.
                    let _ = self.empty.send(bytes);
                }
            }
            match &self.ended {
                Some(None) => return Ok(0),
                Some(Some((kind, why))) => return Err(io::Error::new(*kind, why.clone())),
                None => {}
            }
            match self.full.recv() {
                Ok(Message::Chunk { bytes, len, stored }) => {
                    self.stored.set(stored);
                    self.current = Some((bytes, len, 0));
                }
                Ok(Message::End { stored }) => {
                    self.stored.set(stored);
                    self.ended = Some(None);
                }
                Ok(Message::Failed { error, stored }) => {
                    self.stored.set(stored);
                    self.ended = Some(Some((error.kind(), error.to_string())));
                    return Err(error);
                }
                // The thread ended without a word: it panicked.
                Err(mpsc::RecvError) => {
                    let why = format!("{}: the decoder stopped unexpectedly", self.format);
                    self.ended = Some(Some((io::ErrorKind::Other, why.clone())));
                    return Err(io::Error::other(why));
                }
            }
        }
    }
}

/// The decoding thread: fills chunks with `input` decoded and sends them on
/// `full`, taking them back from `empty`, until the decoded bytes end, the
/// decoder fails, or the reader is gone.
fn decode(
    format: Compression,
    input: impl Read + 'static,
    counted: &Stored,
    full: &SyncSender<Message>,
    empty: &Receiver<Vec<u8>>,
) {
    let mut decoder = match decoder(format, input) {
        Ok(decoder) => decoder,
        Err(error) => {
            let stored = counted.read();
            let _ = full.send(Message::Failed { error, stored });
            return;
        }
    };
    let mut made = 0;
    loop {
        let mut bytes = match empty.try_recv() {
            Ok(bytes) => bytes,
            Err(TryRecvError::Empty) if made < CHUNKS => {
                made += 1;
                vec![0; CHUNK]
            }
            Err(TryRecvError::Empty) => match empty.recv() {
                Ok(bytes) => bytes,
                Err(mpsc::RecvError) => return,
            },
            Err(TryRecvError::Disconnected) => return,
        };
        let mut len = 0;
        let mut failed = None;
        let mut ended = false;
        while len < CHUNK {
            match decoder.read(&mut bytes[len..]) {
                Ok(0) => {
                    ended = true;
                    break;
                }
                Ok(n) => len += n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    failed = Some(error);
                    break;
                }
            }
        }
        let stored = counted.read();
        if len > 0 && full.send(Message::Chunk { bytes, len, stored }).is_err() {
            return;
        }
        if let Some(error) = failed {
            let _ = full.send(Message::Failed { error, stored });
            return;
        }
        if ended {
            let _ = full.send(Message::End { stored });
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use super::*;

    /// gzip members of a mebibyte of zeros each, one after another without
    /// end; `dropped` is set once the reader is dropped.
    struct Endless {
        member: Vec<u8>,
        at: usize,
        dropped: Arc<AtomicBool>,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let rest = &self.member[self.at..];
            let n = buf.len().min(rest.len());
            buf[..n].copy_from_slice(&rest[..n]);
            self.at = (self.at + n) % self.member.len();
            Ok(n)
        }
    }

    impl Drop for Endless {
        fn drop(&mut self) {
            self.dropped.store(true, Ordering::SeqCst);
        }
    }

    fn endless() -> (Endless, Arc<AtomicBool>) {
        let level = flate2::Compression::fast();
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), level);
        io::Write::write_all(&mut encoder, &vec![0; 1 << 20]).expect("written");
        let member = encoder.finish().expect("finished");
        let dropped = Arc::new(AtomicBool::new(false));
        let input = Endless {
            member,
            at: 0,
            dropped: Arc::clone(&dropped),
        };
        (input, dropped)
    }

    #[test]
    fn the_decoding_thread_waits_for_the_reader_and_ends_once_it_stops_early() {
        let (input, dropped) = endless();
        let (counted, stored) = (Stored::default(), Stored::default());
        let input = counted.counting(input);
        let mut reader = Beside::start(Compression::Gzip, input, counted.clone(), stored.clone())
            .expect("started");
        let mut first = vec![1; 1000];
        reader.read_exact(&mut first).expect("read");
        assert!(first.iter().all(|&byte| byte == 0));
        // The thread fills the chunks there are, then waits: what it has
        // read of the input stays within their worth (zeros deflate about a
        // hundred to one; a thirty-second of the chunks' room is a bound
        // with slack).
        std::thread::sleep(Duration::from_millis(300));
        let read = counted.read();
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(counted.read(), read, "the decoding thread went on");
        let bound = u64::try_from(CHUNKS * CHUNK / 32).expect("a few KiB");
        assert!(
            read > 0 && read < bound,
            "{read} bytes of the input read ahead"
        );
        assert!(stored.read() <= read);
        // A reader that stops early (an error, an interrupt) ends the thread.
        drop(reader);
        let start = Instant::now();
        while !dropped.load(Ordering::SeqCst) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the thread did not end"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_decoding_error_comes_after_the_bytes_before_it_and_again_on_each_read() {
        let text: Vec<u8> = (0..800_000)
            .flat_map(|i| format!("{{\"id\": {i}}}\n").into_bytes())
            .collect();
        assert!(text.len() > CHUNKS * CHUNK);
        let level = flate2::Compression::fast();
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), level);
        io::Write::write_all(&mut encoder, &text).expect("written");
        let mut bytes = encoder.finish().expect("finished");
        bytes.truncate(bytes.len() - 100);
        let (counted, stored) = (Stored::default(), Stored::default());
        let input = counted.counting(io::Cursor::new(bytes.clone()));
        let mut reader =
            Beside::start(Compression::Gzip, input, counted, stored.clone()).expect("started");
        let mut read = Vec::new();
        let error = reader.read_to_end(&mut read).expect_err("cut short");
        assert_eq!(error.to_string(), "gzip: unexpected end of file");
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert_eq!(read[..], text[..read.len()]);
        assert!(read.len() > CHUNKS * CHUNK);
        assert_eq!(stored.read(), bytes.len() as u64);
        let again = reader.read(&mut [0; 10]).expect_err("still cut short");
        assert_eq!(again.to_string(), error.to_string());
    }
}
