//! The entries of an index, a key (text or NULL) and a rowid each, gathered
//! as rows are written and handed out in SQLite's order at the end. Past a
//! bound in memory they are sorted and written to a temporary file as a run;
//! the runs and what is still in memory are merged at the end.

use std::cmp::Ordering;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::fs::FileExt;

/// A key: NULL (`None`), or text, which SQLite's BINARY collation orders
/// byte by byte, a prefix first; NULL comes before any text.
pub type Key<'a> = Option<&'a [u8]>;

#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The key's first eight bytes, big-endian, zero after its end: most
    /// comparisons are decided by it without reading the key.
    prefix: u64,
    start: usize,
    /// `usize::MAX` for NULL.
    len: usize,
    rowid: i64,
}

const NULL: usize = usize::MAX;

/// An index's entries.
#[derive(Default)]
pub struct IndexKeys {
    text: Vec<u8>,
    entries: Vec<Entry>,
    /// The runs written, as (offset, length) in the spill file.
    runs: Vec<(u64, u64)>,
}

impl IndexKeys {
    /// Adds an entry; rowids come in increasing order.
    pub fn push(&mut self, key: Key<'_>, rowid: i64) {
        let (start, len) = match key {
            Some(text) => {
                let start = self.text.len();
                self.text.extend_from_slice(text);
                (start, text.len())
            }
            None => (0, NULL),
        };
        let mut first = [0u8; 8];
        let head = key.unwrap_or_default();
        let n = head.len().min(8);
        first[..n].copy_from_slice(&head[..n]);
        self.entries.push(Entry {
            prefix: u64::from_be_bytes(first),
            start,
            len,
            rowid,
        });
    }

    /// The memory the entries in memory take.
    pub fn memory(&self) -> usize {
        self.text.capacity() + self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    fn key(&self, entry: &Entry) -> Key<'_> {
        (entry.len != NULL).then(|| &self.text[entry.start..entry.start + entry.len])
    }

    fn sort(&mut self) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.sort_unstable_by(|a, b| {
            // NULL first.
            let has_text = |e: &Entry| e.len != NULL;
            has_text(a)
                .cmp(&has_text(b))
                .then(a.prefix.cmp(&b.prefix))
                .then_with(|| compare((self.key(a), a.rowid), (self.key(b), b.rowid)))
        });
        self.entries = entries;
    }

    /// Sorts the entries in memory and appends them to `spill` as a run
    /// at `*end`, which moves past it.
    pub fn spill(&mut self, spill: &File, end: &mut u64) -> io::Result<()> {
        if self.entries.is_empty() {
            return Ok(());
        }
        self.sort();
        let start = *end;
        let mut buffer = Vec::with_capacity(1 << 20);
        for entry in &self.entries {
            let key = self.key(entry);
            buffer.extend_from_slice(&(key.map_or(u64::MAX, |k| k.len() as u64)).to_le_bytes());
            buffer.extend_from_slice(key.unwrap_or_default());
            buffer.extend_from_slice(&entry.rowid.to_le_bytes());
            if buffer.len() >= 1 << 20 {
                spill.write_all_at(&buffer, *end)?;
                *end += buffer.len() as u64;
                buffer.clear();
            }
        }
        spill.write_all_at(&buffer, *end)?;
        *end += buffer.len() as u64;
        self.runs.push((start, *end - start));
        // Given back: the memory is bounded across all indexes.
        self.text = Vec::new();
        self.entries = Vec::new();
        Ok(())
    }

    /// Hands every entry to `each`, in order of key, then rowid.
    pub fn sorted(
        mut self,
        spill: Option<&File>,
        mut each: impl FnMut(Key<'_>, i64) -> io::Result<()>,
    ) -> io::Result<()> {
        self.sort();
        let mut runs = Vec::with_capacity(self.runs.len());
        if let Some(spill) = spill {
            for &(start, len) in &self.runs {
                let mut run = Run {
                    reader: BufReader::with_capacity(
                        1 << 16,
                        Region {
                            file: spill,
                            at: start,
                            end: start + len,
                        },
                    ),
                    key: Vec::new(),
                    null: false,
                    rowid: 0,
                    done: false,
                };
                run.next()?;
                runs.push(run);
            }
        }
        let mut memory = self.entries.iter().peekable();
        loop {
            let mut least: Option<(Key<'_>, i64, Option<usize>)> =
                memory.peek().map(|e| (self.key(e), e.rowid, None));
            for (i, run) in runs.iter().enumerate() {
                if run.done {
                    continue;
                }
                let head = (run.head(), run.rowid);
                if least.is_none_or(|(k, r, _)| compare(head, (k, r)) == Ordering::Less) {
                    least = Some((head.0, head.1, Some(i)));
                }
            }
            let Some((key, rowid, from)) = least else {
                return Ok(());
            };
            each(key, rowid)?;
            match from {
                None => {
                    memory.next();
                }
                Some(i) => runs[i].next()?,
            }
        }
    }
}

fn compare(a: (Key<'_>, i64), b: (Key<'_>, i64)) -> Ordering {
    a.0.cmp(&b.0).then(a.1.cmp(&b.1))
}

/// A part of a file, read from its own offset.
struct Region<'f> {
    file: &'f File,
    at: u64,
    end: u64,
}

impl Read for Region<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = buf
            .len()
            .min(usize::try_from(self.end - self.at).unwrap_or(usize::MAX));
        let n = self.file.read_at(&mut buf[..want], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// A sorted run, read an entry at a time.
struct Run<'f> {
    reader: BufReader<Region<'f>>,
    key: Vec<u8>,
    null: bool,
    rowid: i64,
    done: bool,
}

impl Run<'_> {
    fn head(&self) -> Key<'_> {
        (!self.null).then_some(&self.key[..])
    }

    fn next(&mut self) -> io::Result<()> {
        if self.reader.fill_buf()?.is_empty() {
            self.done = true;
            return Ok(());
        }
        let mut word = [0u8; 8];
        self.reader.read_exact(&mut word)?;
        let len = u64::from_le_bytes(word);
        self.null = len == u64::MAX;
        self.key.clear();
        if !self.null {
            let len = usize::try_from(len).map_err(io::Error::other)?;
            self.key.resize(len, 0);
            self.reader.read_exact(&mut self.key)?;
        }
        self.reader.read_exact(&mut word)?;
        self.rowid = i64::from_le_bytes(word);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(keys: IndexKeys, spill: Option<&File>) -> Vec<(Option<Vec<u8>>, i64)> {
        let mut out = Vec::new();
        keys.sorted(spill, |key, rowid| {
            out.push((key.map(<[u8]>::to_vec), rowid));
            Ok(())
        })
        .unwrap();
        out
    }

    #[test]
    fn entries_come_in_sqlites_order_from_memory_and_runs() {
        let words: Vec<Option<&[u8]>> = vec![
            Some(b"b"),
            None,
            Some(b"a"),
            Some(b"ab"),
            Some(b""),
            Some(b"a"),
            None,
            Some(b"\xff"),
            Some(b"B"),
        ];
        let mut expected: Vec<(Option<Vec<u8>>, i64)> = Vec::new();
        let spill = tempfile::tempfile().unwrap();
        let mut end = 0;
        let mut keys = IndexKeys::default();
        for round in 0..4 {
            for (i, word) in words.iter().enumerate() {
                let rowid = (round * words.len() + i) as i64 + 1;
                keys.push(*word, rowid);
                expected.push((word.map(<[u8]>::to_vec), rowid));
            }
            if round < 3 {
                keys.spill(&spill, &mut end).unwrap();
            }
        }
        expected.sort();
        assert_eq!(collect(keys, Some(&spill)), expected);
    }
}
