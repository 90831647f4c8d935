//! The SQLite database file format (<https://www.sqlite.org/fileformat2.html>),
//! as much of it as a new database written in one pass needs: records,
//! B-tree pages built bottom-up from rows in rowid order and index entries
//! in key order, overflow pages, and the file header.
//!
//! Every page but the roots is written once, as soon as it is full; the
//! root of each B-tree has a page number of its own, fixed before any row
//! (the schema names it), and is written last.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU32, Ordering};

/// The page size: the largest, so that fewer pages are balanced and
/// indexes are shallower.
pub const PAGE_SIZE: usize = 65536;

/// No bytes are reserved at the end of a page.
const USABLE: usize = PAGE_SIZE;

/// The most payload a table leaf cell holds on its page.
const TABLE_MAX_LOCAL: usize = USABLE - 35;
/// The most payload an index cell holds on its page.
const INDEX_MAX_LOCAL: usize = (USABLE - 12) * 64 / 255 - 23;
/// The payload kept on the page when the rest overflows.
const MIN_LOCAL: usize = (USABLE - 12) * 32 / 255 - 23;
/// The payload an overflow page holds (after the next page's number).
const OVERFLOW_CONTENT: usize = USABLE - 4;

/// The page that holds SQLite's lock bytes (from offset 2^30 on), which
/// no B-tree may use.
const LOCK_PAGE: u32 = (1 << 30) / PAGE_SIZE as u32 + 1;

const INDEX_INTERIOR: u8 = 0x02;
const TABLE_INTERIOR: u8 = 0x05;
const INDEX_LEAF: u8 = 0x0a;
const TABLE_LEAF: u8 = 0x0d;

/// Appends `value` as SQLite's variable-length integer (big-endian, seven
/// bits a byte, the ninth byte whole).
pub fn put_varint(out: &mut Vec<u8>, value: u64) {
    if value <= 0x7f {
        out.push(value as u8);
        return;
    }
    if value > 0x00ff_ffff_ffff_ffff {
        for shift in (1..=8).rev() {
            out.push(((value >> (shift * 7 + 1)) as u8 & 0x7f) | 0x80);
        }
        out.push(value as u8);
        return;
    }
    let mut bytes = [0u8; 8];
    let mut n = 0;
    let mut v = value;
    while v > 0 {
        bytes[n] = (v as u8 & 0x7f) | 0x80;
        v >>= 7;
        n += 1;
    }
    bytes[0] &= 0x7f;
    out.extend(bytes[..n].iter().rev());
}

/// The bytes [`put_varint`] takes for `value`.
pub fn varint_len(value: u64) -> usize {
    match value {
        0..=0x7f => 1,
        v if v > 0x00ff_ffff_ffff_ffff => 9,
        v => (64 - v.leading_zeros() as usize).div_ceil(7),
    }
}

/// One value of a record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Text(&'a [u8]),
}

impl Value<'_> {
    /// Its serial type, and how many bytes of the body it takes.
    fn serial(self) -> (u64, usize) {
        match self {
            Value::Null => (0, 0),
            Value::Integer(0) => (8, 0),
            Value::Integer(1) => (9, 0),
            Value::Integer(n) => match n {
                -0x80..=0x7f => (1, 1),
                -0x8000..=0x7fff => (2, 2),
                -0x80_0000..=0x7f_ffff => (3, 3),
                -0x8000_0000..=0x7fff_ffff => (4, 4),
                -0x8000_0000_0000..=0x7fff_ffff_ffff => (5, 6),
                _ => (6, 8),
            },
            // SQLite keeps no NaN: it stores NULL.
            Value::Real(x) if x.is_nan() => (0, 0),
            Value::Real(_) => (7, 8),
            Value::Text(text) => (text.len() as u64 * 2 + 13, text.len()),
        }
    }

    fn put_body(self, out: &mut Vec<u8>, len: usize) {
        match self {
            Value::Integer(n) => out.extend_from_slice(&n.to_be_bytes()[8 - len..]),
            Value::Real(x) if !x.is_nan() => out.extend_from_slice(&x.to_bits().to_be_bytes()),
            Value::Text(text) => out.extend_from_slice(text),
            _ => {}
        }
    }
}

/// Writes records, reusing its buffers.
#[derive(Default)]
pub struct RecordWriter {
    size: Vec<u8>,
    types: Vec<u8>,
    body: Vec<u8>,
}

impl RecordWriter {
    /// Adds a value to the record being made.
    pub fn push(&mut self, value: Value<'_>) {
        let (serial, len) = value.serial();
        put_varint(&mut self.types, serial);
        value.put_body(&mut self.body, len);
    }

    /// The record of the values added since it was last cleared, in three
    /// parts (not copied into one): the header's size, the serial types,
    /// then the values' bytes.
    pub fn parts(&mut self) -> [&[u8]; 3] {
        // The header's size counts the varint that gives it.
        let mut size_len = 1;
        while varint_len((self.types.len() + size_len) as u64) > size_len {
            size_len += 1;
        }
        self.size.clear();
        put_varint(&mut self.size, (self.types.len() + size_len) as u64);
        [&self.size, &self.types, &self.body]
    }

    /// Starts the next record.
    pub fn clear(&mut self) {
        self.types.clear();
        self.body.clear();
    }

    /// Appends to `out` the record of the values added since the last.
    pub fn finish(&mut self, out: &mut Vec<u8>) {
        for part in self.parts() {
            out.extend_from_slice(part);
        }
        self.clear();
    }

    /// Appends to `out` the record of `values`.
    pub fn record<'v>(&mut self, values: impl IntoIterator<Item = Value<'v>>, out: &mut Vec<u8>) {
        for value in values {
            self.push(value);
        }
        self.finish(out);
    }
}

/// The pages of a file being written, by number (the first is 1): each
/// is written where it belongs, from any thread, and numbers are handed out
/// once each.
pub struct Pages {
    file: File,
    next: AtomicU32,
}

impl Pages {
    /// Pages written to `file`, whose pages up to `reserved` (the header's
    /// page and the roots) are taken.
    pub fn new(file: File, reserved: u32) -> Pages {
        Pages {
            file,
            next: AtomicU32::new(reserved + 1),
        }
    }

    /// A new page's number. The page that holds the bytes SQLite locks,
    /// at 1 GiB, is never used (it stays zero).
    pub fn allocate(&self) -> io::Result<u32> {
        loop {
            let number = self.next.fetch_add(1, Ordering::Relaxed);
            if number == u32::MAX {
                return Err(io::Error::other(
                    "the database would exceed SQLite's 4,294,967,294 pages",
                ));
            }
            if number != LOCK_PAGE {
                return Ok(number);
            }
        }
    }

    /// How many pages the file has.
    pub fn count(&self) -> u32 {
        self.next.load(Ordering::Relaxed) - 1
    }

    /// Writes page `number`.
    pub fn write(&self, number: u32, page: &[u8]) -> io::Result<()> {
        debug_assert_eq!(page.len(), PAGE_SIZE);
        self.file
            .write_all_at(page, u64::from(number - 1) * PAGE_SIZE as u64)
    }

    /// The file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Appends to `cell` the part of `payload` kept on the page (at most
    /// `max_local` bytes), writing the rest to overflow pages and appending
    /// the first one's number.
    fn payload(&self, payload: &[u8], max_local: usize, cell: &mut Vec<u8>) -> io::Result<()> {
        let local = local_size(payload.len(), max_local);
        cell.extend_from_slice(&payload[..local]);
        let rest = &payload[local..];
        if rest.is_empty() {
            return Ok(());
        }
        // A chain of pages, each naming the next (0 after the last).
        let mut number = self.allocate()?;
        cell.extend_from_slice(&number.to_be_bytes());
        let mut page = vec![0u8; PAGE_SIZE];
        let mut chunks = rest.chunks(OVERFLOW_CONTENT).peekable();
        while let Some(chunk) = chunks.next() {
            let next = if chunks.peek().is_some() {
                self.allocate()?
            } else {
                0
            };
            page[..4].copy_from_slice(&next.to_be_bytes());
            page[4..4 + chunk.len()].copy_from_slice(chunk);
            page[4 + chunk.len()..].fill(0);
            self.write(number, &page)?;
            number = next;
        }
        Ok(())
    }
}

/// How much of a payload of `len` bytes stays on its page.
fn local_size(len: usize, max_local: usize) -> usize {
    if len <= max_local {
        return len;
    }
    let kept = MIN_LOCAL + (len - MIN_LOCAL) % OVERFLOW_CONTENT;
    if kept <= max_local {
        kept
    } else {
        MIN_LOCAL
    }
}

/// A B-tree page being filled: the header, the cell pointers after it, and
/// the cells from the end of the page down.
struct Page {
    bytes: Vec<u8>,
    /// Where the page's header starts: 100 on the first page, after the
    /// file's header.
    at: usize,
    kind: u8,
    cells: usize,
    content: usize,
    /// Where the last cell added starts, and its length.
    last: (usize, usize),
}

impl Page {
    fn new(kind: u8, at: usize) -> Page {
        Page {
            bytes: vec![0; PAGE_SIZE],
            at,
            kind,
            cells: 0,
            content: PAGE_SIZE,
            last: (PAGE_SIZE, 0),
        }
    }

    fn header_len(&self) -> usize {
        if matches!(self.kind, INDEX_INTERIOR | TABLE_INTERIOR) {
            12
        } else {
            8
        }
    }

    fn fits(&self, cell_len: usize) -> bool {
        self.at + self.header_len() + 2 * (self.cells + 1) + cell_len <= self.content
    }

    /// Adds a cell made of `parts`, which must fit.
    fn push(&mut self, parts: &[&[u8]]) {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        debug_assert!(self.fits(len));
        self.content -= len;
        let mut at = self.content;
        for part in parts {
            self.bytes[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        let pointer = self.at + self.header_len() + 2 * self.cells;
        self.bytes[pointer..pointer + 2].copy_from_slice(&(self.content as u16).to_be_bytes());
        self.cells += 1;
        self.last = (self.content, len);
    }

    /// Removes the last cell added: its bytes.
    fn pop(&mut self) -> Vec<u8> {
        let (start, len) = self.last;
        let cell = self.bytes[start..start + len].to_vec();
        self.cells -= 1;
        self.content += len;
        self.last = (PAGE_SIZE, 0);
        cell
    }

    /// The page's bytes, its header filled in (`right`: the right-most
    /// child of an interior page).
    fn finish(&mut self, right: u32) -> &[u8] {
        let h = self.at;
        self.bytes[h] = self.kind;
        self.bytes[h + 1..h + 3].fill(0);
        self.bytes[h + 3..h + 5].copy_from_slice(&(self.cells as u16).to_be_bytes());
        // 65536 is written as 0.
        self.bytes[h + 5..h + 7].copy_from_slice(&(self.content as u16).to_be_bytes());
        self.bytes[h + 7] = 0;
        if self.header_len() == 12 {
            self.bytes[h + 8..h + 12].copy_from_slice(&right.to_be_bytes());
        }
        // The space between the pointers and the cells is zero, as SQLite
        // leaves it (the buffer is used again).
        let free = h + self.header_len() + 2 * self.cells;
        self.bytes[free..self.content].fill(0);
        &self.bytes
    }

    fn clear(&mut self) {
        self.cells = 0;
        self.content = PAGE_SIZE;
        self.last = (PAGE_SIZE, 0);
    }
}

/// A table's B-tree, built from its rows in rowid order.
pub struct TableTree {
    root: u32,
    leaf: Page,
    /// The last rowid on the leaf being filled.
    leaf_last: i64,
    /// The leaves written, with the last rowid of each.
    leaves: Vec<(u32, i64)>,
    cell: Vec<u8>,
}

impl TableTree {
    /// An empty tree whose root will be page `root`.
    pub fn new(root: u32) -> TableTree {
        TableTree {
            root,
            leaf: Page::new(TABLE_LEAF, 0),
            leaf_last: 0,
            leaves: Vec::new(),
            cell: Vec::new(),
        }
    }

    /// Adds the row `rowid` (greater than any before) whose record is
    /// `record`, given in the parts of [`RecordWriter::parts`].
    pub fn push(&mut self, pages: &Pages, rowid: i64, record: [&[u8]; 3]) -> io::Result<()> {
        let len: usize = record.iter().map(|part| part.len()).sum();
        self.cell.clear();
        put_varint(&mut self.cell, len as u64);
        put_varint(&mut self.cell, rowid as u64);
        let whole = len <= TABLE_MAX_LOCAL;
        if !whole {
            pages.payload(&record.concat(), TABLE_MAX_LOCAL, &mut self.cell)?;
        }
        let cell_len = self.cell.len() + if whole { len } else { 0 };
        if !self.leaf.fits(cell_len) {
            let number = pages.allocate()?;
            pages.write(number, self.leaf.finish(0))?;
            self.leaves.push((number, self.leaf_last));
            self.leaf.clear();
        }
        if whole {
            // The record is copied once, from its parts to the page.
            let [size, types, body] = record;
            self.leaf.push(&[&self.cell, size, types, body]);
        } else {
            self.leaf.push(&[&self.cell]);
        }
        self.leaf_last = rowid;
        Ok(())
    }

    /// Writes the pages above the leaves, and the root.
    pub fn finish(mut self, pages: &Pages) -> io::Result<()> {
        if self.leaves.is_empty() {
            return pages.write(self.root, self.leaf.finish(0));
        }
        let number = pages.allocate()?;
        pages.write(number, self.leaf.finish(0))?;
        self.leaves.push((number, self.leaf_last));
        // An interior cell: a child's number and its last rowid (at most
        // 4 + 9 bytes), and its pointer.
        const CHILDREN: usize = (PAGE_SIZE - 12) / (4 + 9 + 2) + 1;
        let mut children = self.leaves;
        let mut page = Page::new(TABLE_INTERIOR, 0);
        let mut cell = Vec::with_capacity(13);
        loop {
            // The children spread evenly over the fewest pages: each has
            // at least two, so that no interior page is without a cell.
            let count = children.len().div_ceil(CHILDREN);
            let mut above = Vec::with_capacity(count);
            let mut rest = &children[..];
            for i in 0..count {
                let take = rest.len().div_ceil(count - i);
                let (these, after) = rest.split_at(take);
                rest = after;
                page.clear();
                let (last, cells) = these.split_last().expect("a page has children");
                for &(child, key) in cells {
                    cell.clear();
                    cell.extend_from_slice(&child.to_be_bytes());
                    put_varint(&mut cell, key as u64);
                    page.push(&[&cell]);
                }
                let number = if count == 1 {
                    self.root
                } else {
                    pages.allocate()?
                };
                pages.write(number, page.finish(last.0))?;
                above.push((number, last.1));
            }
            if count == 1 {
                return Ok(());
            }
            children = above;
        }
    }
}

/// An index's B-tree, built from its entries in key order. Unlike a
/// table's, every entry is stored once: the entries that divide the
/// children of an interior page are on that page, not on a leaf.
pub struct IndexTree {
    root: u32,
    leaf: Page,
    /// A leaf that is full, not written yet, with the entry that did not
    /// fit: whether that entry divides it from the next leaf, or (if it is
    /// the last entry) goes on a leaf of its own while the full leaf's last
    /// entry divides them, is known only when the next entry comes.
    full: Option<(Page, Vec<u8>)>,
    /// The leaves written, and the cells (without a child's number) of the
    /// entries between them: `dividers[i]` is between `children[i]` and
    /// `children[i + 1]`.
    children: Vec<u32>,
    dividers: Vec<Vec<u8>>,
    cell: Vec<u8>,
}

impl IndexTree {
    /// An empty index whose root will be page `root`.
    pub fn new(root: u32) -> IndexTree {
        IndexTree {
            root,
            leaf: Page::new(INDEX_LEAF, 0),
            full: None,
            children: Vec::new(),
            dividers: Vec::new(),
            cell: Vec::new(),
        }
    }

    /// Adds the entry whose record is `record` (not before any added).
    pub fn push(&mut self, pages: &Pages, record: &[u8]) -> io::Result<()> {
        self.cell.clear();
        put_varint(&mut self.cell, record.len() as u64);
        pages.payload(record, INDEX_MAX_LOCAL, &mut self.cell)?;
        if let Some((mut full, divider)) = self.full.take() {
            let number = pages.allocate()?;
            pages.write(number, full.finish(0))?;
            self.children.push(number);
            self.dividers.push(divider);
        }
        if self.leaf.fits(self.cell.len()) {
            self.leaf.push(&[&self.cell]);
        } else {
            let full = std::mem::replace(&mut self.leaf, Page::new(INDEX_LEAF, 0));
            self.full = Some((full, self.cell.clone()));
        }
        Ok(())
    }

    /// Writes the pages above the leaves, and the root.
    pub fn finish(mut self, pages: &Pages) -> io::Result<()> {
        if let Some((mut full, last)) = self.full.take() {
            // A full leaf holds at least three entries (an entry's cell
            // takes at most a quarter of a page): it keeps two.
            let divider = full.pop();
            let number = pages.allocate()?;
            pages.write(number, full.finish(0))?;
            self.children.push(number);
            self.dividers.push(divider);
            self.leaf.push(&[&last]);
        }
        if self.children.is_empty() {
            return pages.write(self.root, self.leaf.finish(0));
        }
        let number = pages.allocate()?;
        pages.write(number, self.leaf.finish(0))?;
        self.children.push(number);
        let (mut children, mut dividers) = (self.children, self.dividers);
        loop {
            let level = plan_index_level(&dividers);
            let count = level.pages.len();
            let mut above = Vec::with_capacity(count);
            let mut page = Page::new(INDEX_INTERIOR, 0);
            for range in &level.pages {
                page.clear();
                for i in range.clone() {
                    page.push(&[&children[i].to_be_bytes(), &dividers[i]]);
                }
                let number = if count == 1 {
                    self.root
                } else {
                    pages.allocate()?
                };
                pages.write(number, page.finish(children[range.end]))?;
                above.push(number);
            }
            if count == 1 {
                return Ok(());
            }
            dividers = level
                .lifted
                .into_iter()
                .map(|i| std::mem::take(&mut dividers[i]))
                .collect();
            children = above;
        }
    }
}

/// How a level of interior index pages is made from the children below
/// and the dividers between them.
struct IndexLevel {
    /// Per page, the dividers on it (`i` in a range: the cell of
    /// `children[i]` and `dividers[i]`); the page's right-most child is
    /// `children[range.end]`.
    pages: Vec<std::ops::Range<usize>>,
    /// The dividers between the pages, lifted to the level above.
    lifted: Vec<usize>,
}

fn plan_index_level(dividers: &[Vec<u8>]) -> IndexLevel {
    let mut pages = Vec::new();
    let mut lifted = Vec::new();
    let mut page = Page::new(INDEX_INTERIOR, 0);
    let mut start = 0;
    for (i, divider) in dividers.iter().enumerate() {
        if page.fits(4 + divider.len()) {
            page.cells += 1;
            page.content -= 4 + divider.len();
        } else {
            pages.push(start..i);
            lifted.push(i);
            start = i + 1;
            page.clear();
        }
    }
    pages.push(start..dividers.len());
    // The last page has only its right-most child: the page before gives
    // it its last cell, and lifts the divider before that instead. (A full
    // page holds at least three cells.)
    if pages.len() > 1 && pages.last().is_some_and(|r| r.is_empty()) {
        let n = pages.len();
        let before = pages[n - 2].clone();
        let moved = before.end - 1;
        pages[n - 2] = before.start..moved;
        let last = lifted.len() - 1;
        pages[n - 1] = lifted[last]..lifted[last] + 1;
        lifted[last] = moved;
    }
    IndexLevel { pages, lifted }
}

/// The root page of the schema table (`sqlite_schema`), on page 1 after the
/// file's header, with a row per table and index: type, name, table name,
/// root page and the SQL that makes it.
///
/// # Errors
/// The schema does not fit on one page.
pub fn schema_page(entries: &[(&str, &str, &str, u32, &str)]) -> io::Result<Vec<u8>> {
    let mut page = Page::new(TABLE_LEAF, 100);
    let mut records = RecordWriter::default();
    let mut record = Vec::new();
    let mut cell = Vec::new();
    for (rowid, &(kind, name, table, root, sql)) in (1u64..).zip(entries) {
        record.clear();
        records.record(
            [
                Value::Text(kind.as_bytes()),
                Value::Text(name.as_bytes()),
                Value::Text(table.as_bytes()),
                Value::Integer(i64::from(root)),
                Value::Text(sql.as_bytes()),
            ],
            &mut record,
        );
        cell.clear();
        put_varint(&mut cell, record.len() as u64);
        put_varint(&mut cell, rowid);
        cell.extend_from_slice(&record);
        if !page.fits(cell.len()) {
            return Err(io::Error::other(
                "the schema does not fit on the first page",
            ));
        }
        page.push(&[&cell]);
    }
    page.finish(0);
    Ok(page.bytes)
}

/// Writes the file's header onto `first` (the first page): `pages` pages,
/// in WAL mode, UTF-8, schema format 4.
pub fn file_header(first: &mut [u8], pages: u32, sqlite_version: i32) {
    let h = &mut first[..100];
    h[..16].copy_from_slice(b"SQLite format 3\0");
    // 65536 is written as 1.
    h[16..18].copy_from_slice(&1u16.to_be_bytes());
    // Write and read versions 2: WAL.
    h[18] = 2;
    h[19] = 2;
    h[20] = 0;
    h[21] = 64;
    h[22] = 32;
    h[23] = 32;
    let mut put = |at: usize, value: u32| h[at..at + 4].copy_from_slice(&value.to_be_bytes());
    put(24, 1); // change counter
    put(28, pages);
    put(32, 0); // no free pages
    put(36, 0);
    put(40, 1); // schema cookie
    put(44, 4); // schema format
    put(48, 0);
    put(52, 0); // no auto-vacuum
    put(56, 1); // UTF-8
    put(60, 0);
    put(64, 0);
    put(68, 0);
    put(92, 1); // the change counter the size is valid for
    put(96, sqlite_version as u32);
    h[72..92].fill(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_sqlites() {
        let cases: [(u64, &[u8]); 6] = [
            (0, &[0]),
            (127, &[0x7f]),
            (128, &[0x81, 0x00]),
            (16383, &[0xff, 0x7f]),
            (16384, &[0x81, 0x80, 0x00]),
            (u64::MAX, &[0xff; 9]),
        ];
        for (value, bytes) in cases {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            assert_eq!(out, bytes, "{value}");
            assert_eq!(varint_len(value), bytes.len(), "{value}");
        }
        for shift in 0..64 {
            let value = 1u64 << shift;
            let mut out = Vec::new();
            put_varint(&mut out, value);
            assert_eq!(out.len(), varint_len(value), "{value}");
        }
    }

    #[test]
    fn overflow_keeps_what_sqlite_keeps_on_the_page() {
        assert_eq!(local_size(100, TABLE_MAX_LOCAL), 100);
        assert_eq!(
            local_size(TABLE_MAX_LOCAL, TABLE_MAX_LOCAL),
            TABLE_MAX_LOCAL
        );
        // The constants of a 64 KiB page, and SQLite's rule: the part past
        // the minimum that fills whole overflow pages stays on the page if
        // it can.
        assert_eq!(
            (TABLE_MAX_LOCAL, INDEX_MAX_LOCAL, MIN_LOCAL),
            (65501, 16422, 8199)
        );
        assert_eq!(local_size(65502, TABLE_MAX_LOCAL), 8199);
        assert_eq!(local_size(8199 + 65532 + 100, TABLE_MAX_LOCAL), 8299);
        assert_eq!(local_size(8199 + 65532 + 100, INDEX_MAX_LOCAL), 8299);
        assert_eq!(local_size(8199 + 2 * 65532 + 20000, INDEX_MAX_LOCAL), 8199);
    }

    /// More leaves than one interior page points to (4,369): the table has
    /// two interior levels. SQLite reads it whole and finds it well formed.
    #[test]
    fn a_table_of_three_levels_reads_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep.db");
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        let pages = Pages::new(file, 2);
        let mut tree = TableTree::new(2);
        let mut records = RecordWriter::default();
        // One row to a leaf.
        let text = vec![b'x'; 40_000];
        let rows = 4400i64;
        for rowid in 1..=rows {
            records.push(Value::Integer(rowid * 3));
            records.push(Value::Text(&text));
            tree.push(&pages, rowid, records.parts()).unwrap();
            records.clear();
        }
        tree.finish(&pages).unwrap();
        let mut first =
            schema_page(&[("table", "t", "t", 2, "CREATE TABLE t (n INTEGER, s TEXT)")]).unwrap();
        file_header(&mut first, pages.count(), rusqlite::version_number());
        pages.write(1, &first).unwrap();
        assert!(pages.count() > 4400);
        drop(pages);
        let db = rusqlite::Connection::open(&path).unwrap();
        let check: String = db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok");
        let (count, sum, long, last): (i64, i64, i64, i64) = db
            .query_row(
                "SELECT COUNT(*), SUM(n), SUM(length(s) = 40000), (SELECT n FROM t WHERE rowid = 4321) FROM t",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .unwrap();
        assert_eq!(
            (count, sum, long, last),
            (rows, 3 * rows * (rows + 1) / 2, rows, 3 * 4321)
        );
    }

    #[test]
    fn the_page_of_the_lock_bytes_is_never_handed_out() {
        assert_eq!(LOCK_PAGE, 16385);
        let pages = Pages::new(tempfile::tempfile().unwrap(), LOCK_PAGE - 3);
        let numbers: Vec<u32> = (0..4).map(|_| pages.allocate().unwrap()).collect();
        assert_eq!(
            numbers,
            [LOCK_PAGE - 2, LOCK_PAGE - 1, LOCK_PAGE + 1, LOCK_PAGE + 2]
        );
        // The file counts it: it stays zero, as SQLite leaves it.
        assert_eq!(pages.count(), LOCK_PAGE + 2);
    }

    #[test]
    fn the_last_interior_page_is_never_without_a_cell() {
        let big = vec![0u8; INDEX_MAX_LOCAL + 9];
        for count in 1..40 {
            let dividers = vec![big.clone(); count];
            let level = plan_index_level(&dividers);
            let placed: usize = level.pages.iter().map(|r| r.len()).sum();
            assert_eq!(placed + level.lifted.len(), count);
            assert_eq!(level.pages.len(), level.lifted.len() + 1);
            assert!(
                level.pages.iter().all(|r| !r.is_empty()),
                "{count}: {:?}",
                level.pages
            );
        }
    }
}
