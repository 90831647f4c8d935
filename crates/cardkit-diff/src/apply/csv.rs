//! References in a column of a CSV file (RFC 4180: fields separated by
//! commas, quoted with `"` when they hold commas, quotes or line breaks,
//! records ended by LF or CRLF), rewritten in place: only the bytes of the
//! ids that change are written anew (a quoted id stays quoted), every other
//! byte of the file is copied as it is. A dropped row takes its line
//! ending with it. The file is read a record at a time.

use std::io::{BufRead, Write};

use super::decide::{decide, Action, ApplyOptions, Report};
use super::notices::Plan;
use crate::Error;

/// The byte span of each field of `record` (its line ending left out), and
/// whether it is quoted. A quote inside a quoted field is doubled.
#[must_use]
pub fn fields(record: &[u8]) -> Vec<(usize, usize, bool)> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let start = pos;
        let quoted = record.get(pos) == Some(&b'"');
        if quoted {
            pos += 1;
            while pos < record.len() {
                if record[pos] == b'"' {
                    if record.get(pos + 1) == Some(&b'"') {
                        pos += 2;
                        continue;
                    }
                    pos += 1;
                    break;
                }
                pos += 1;
            }
        }
        let end = memchr_comma(record, pos);
        out.push((start, end, quoted));
        if end >= record.len() {
            return out;
        }
        pos = end + 1;
    }
}

fn memchr_comma(bytes: &[u8], from: usize) -> usize {
    bytes[from.min(bytes.len())..]
        .iter()
        .position(|&b| b == b',')
        .map_or(bytes.len(), |i| from + i)
}

/// The value of a field (quotes taken off, doubled quotes made single).
#[must_use]
pub fn value(raw: &[u8], quoted: bool) -> Vec<u8> {
    if !quoted {
        return raw.to_vec();
    }
    let inner = raw.strip_prefix(b"\"").unwrap_or(raw);
    let inner = inner.strip_suffix(b"\"").unwrap_or(inner);
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        out.push(inner[i]);
        i += if inner[i] == b'"' && inner.get(i + 1) == Some(&b'"') {
            2
        } else {
            1
        };
    }
    out
}

/// The record without its line ending.
fn content(record: &[u8]) -> &[u8] {
    let record = record.strip_suffix(b"\n").unwrap_or(record);
    record.strip_suffix(b"\r").unwrap_or(record)
}

/// Where a record's reader is, as [`fields`] reads it: a quote opens a
/// quoted field only at the start of a field (RFC 4180, as the `csv` crate
/// reads it); elsewhere it is a byte like another.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    FieldStart,
    Unquoted,
    Quoted,
    /// A quote in a quoted field: the field's end, or the first of two.
    QuoteInQuoted,
}

/// Reads one record (lines until a line break outside a quoted field) into
/// `record`; `false` at the end of the input.
fn next_record(reader: &mut impl BufRead, record: &mut Vec<u8>) -> std::io::Result<bool> {
    record.clear();
    let mut state = State::FieldStart;
    loop {
        let from = record.len();
        if reader.read_until(b'\n', record)? == 0 {
            if state == State::Quoted {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "a quoted field is not closed before the end of the file",
                ));
            }
            return Ok(!record.is_empty());
        }
        for &b in &record[from..] {
            state = match (state, b) {
                (State::Quoted, b'"') => State::QuoteInQuoted,
                (State::Quoted, _) | (State::QuoteInQuoted, b'"') => State::Quoted,
                (State::FieldStart, b'"') => State::Quoted,
                (_, b',') => State::FieldStart,
                _ => State::Unquoted,
            };
        }
        // The line ends the record unless it ends inside a quoted field.
        if state != State::Quoted {
            return Ok(true);
        }
    }
}

/// Rewrites the references in column `column` of the CSV read from
/// `reader` (named `name`) into `out` (nothing is written with `None`).
///
/// # Errors
/// The input cannot be read, has no such column, ends inside a quoted
/// field, or (with [`super::OnDelete::Fail`]) refers to a deleted id.
pub fn rewrite(
    mut reader: impl BufRead,
    name: &str,
    column: &str,
    plan: &Plan,
    options: ApplyOptions,
    mut out: Option<&mut dyn Write>,
    report: &mut Report,
) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::new(format!("{name}: cannot be read or written: {e}"));
    let mut record = Vec::new();
    if !next_record(&mut reader, &mut record).map_err(io)? {
        return Err(Error::new(format!(
            "{name}: the file is empty: a CSV file with a header row is expected"
        )));
    }
    let header = content(&record);
    let header_text = header.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(header);
    let names: Vec<Vec<u8>> = fields(header_text)
        .into_iter()
        .map(|(s, e, q)| value(&header_text[s..e], q))
        .collect();
    let Some(index) = names.iter().position(|n| n == column.as_bytes()) else {
        let listed: Vec<String> = names
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
        return Err(Error::new(format!(
            "{name}: no column named {column:?} in the header (columns: {})",
            listed.join(", ")
        )));
    };
    if let Some(out) = out.as_deref_mut() {
        out.write_all(&record).map_err(io)?;
    }
    let mut line = record.iter().filter(|&&b| b == b'\n').count();
    while next_record(&mut reader, &mut record).map_err(io)? {
        let at = line + 1;
        line += record.iter().filter(|&&b| b == b'\n').count();
        let body = content(&record);
        let spans = fields(body);
        let mut keep = true;
        let mut written = false;
        if let Some(&(start, end, quoted)) = spans.get(index) {
            let id = value(&body[start..end], quoted);
            if let Ok(id) = std::str::from_utf8(&id) {
                report.references += 1;
                let applied = decide(plan, options, (name, false), &|| at.to_string(), id)?;
                if let Some(applied) = applied {
                    keep = applied.action != Action::Dropped;
                    if let (Some(new), Some(out)) = (&applied.new, out.as_deref_mut()) {
                        let q: &[u8] = if quoted { b"\"" } else { b"" };
                        out.write_all(&record[..start]).map_err(io)?;
                        out.write_all(q).map_err(io)?;
                        out.write_all(new.as_bytes()).map_err(io)?;
                        out.write_all(q).map_err(io)?;
                        out.write_all(&record[end..]).map_err(io)?;
                        written = true;
                    }
                    report.push(applied);
                }
            }
        }
        if keep && !written {
            if let Some(out) = out.as_deref_mut() {
                out.write_all(&record).map_err(io)?;
            }
        }
    }
    Ok(())
}
