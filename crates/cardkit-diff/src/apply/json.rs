//! References at a pointer pattern (`/cards/*/catalogAId`) in JSON and JSON
//! Lines files: every string at a place the pattern matches. Only the
//! bytes of the strings that change are written anew; everything else of
//! the file is copied as it is (white space, member order, escapes, line
//! endings). A dropped reference drops the array item at the pattern's
//! last `*` (or, in JSON Lines with no `*`, its line), with the comma
//! that separated it.
//!
//! A JSON file is read whole (it is one value); JSON Lines a line at a
//! time. Nesting is followed as deep as documents may nest.

use std::io::{BufRead, Write};

use cardkit_json::Scanner;

use super::decide::{decide, Action, ApplyOptions, Report};
use super::notices::Plan;
use crate::pointer::Pattern;
use crate::Error;

/// A change of the bytes: `start..end` replaced.
type Edit = (usize, usize, Vec<u8>);

struct Walk<'a> {
    scan: Scanner<'a>,
    pattern: &'a Pattern,
    /// The token of the pattern whose items are dropped (its last `*`).
    drop_at: Option<usize>,
    plan: &'a Plan,
    options: ApplyOptions,
    name: &'a str,
    /// For JSON Lines, the line; for JSON, lines are counted in `bytes`.
    line: Option<usize>,
    /// For JSON, the last place a line was counted for, and its line:
    /// lines are counted on from there (places come in order), not from
    /// the start of the file each time.
    counted: std::cell::Cell<(usize, usize)>,
    edits: Vec<Edit>,
    /// A deleted reference was found to drop with no item to drop: the
    /// whole value goes (a line of JSON Lines).
    drop_all: bool,
    report: &'a mut Report,
}

fn malformed(name: &str, at: &dyn std::fmt::Display, e: &cardkit_json::SyntaxError) -> Error {
    Error::new(format!(
        "{name}:{at}: malformed JSON at byte {} ({:?}); nothing was written",
        e.at, e.syntax
    ))
}

impl Walk<'_> {
    fn line_of(&self, at: usize) -> String {
        match self.line {
            Some(line) => line.to_string(),
            None => {
                let (mut from, mut line) = self.counted.get();
                if at < from {
                    (from, line) = (0, 1);
                }
                line += self.scan.bytes[from..at]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                self.counted.set((at, line));
                line.to_string()
            }
        }
    }

    fn fail(&self, e: &cardkit_json::SyntaxError) -> Error {
        let at = self.line_of(e.at.min(self.scan.bytes.len()));
        malformed(self.name, &at, e)
    }

    fn skip(&mut self) -> Result<(), Error> {
        self.scan.skip_structure().map_err(|e| self.fail(&e))
    }

    /// Walks the value at the cursor, `depth` tokens of the pattern
    /// matched; `true` when an item within it must be dropped.
    fn value(&mut self, depth: usize) -> Result<bool, Error> {
        if depth > cardkit::validate::MAX_DEPTH {
            return Err(Error::new(format!(
                "{}:{}: nested deeper than {} levels",
                self.name,
                self.line_of(self.scan.pos),
                cardkit::validate::MAX_DEPTH
            )));
        }
        let tokens = &self.pattern.0;
        if depth == tokens.len() {
            if self.scan.peek() != Some(b'"') {
                self.skip()?;
                return Ok(false);
            }
            let start = self.scan.pos;
            let s = self.scan.string().map_err(|e| self.fail(&e))?;
            let id = self.scan.decode(s).into_owned();
            self.report.references += 1;
            let line = self.line_of(start);
            let applied = decide(
                self.plan,
                self.options,
                (self.name, false),
                &|| line.clone(),
                &id,
            )?;
            let Some(applied) = applied else {
                return Ok(false);
            };
            let dropped = applied.action == Action::Dropped;
            if let Some(new) = &applied.new {
                self.edits
                    .push((start, self.scan.pos, format!("\"{new}\"").into_bytes()));
            }
            self.report.push(applied);
            return Ok(dropped);
        }
        match self.scan.peek() {
            Some(b'{') => {
                let mut drop = false;
                if self.scan.open().map_err(|e| self.fail(&e))? {
                    loop {
                        let (key, _) = self.scan.member_name().map_err(|e| self.fail(&e))?;
                        let key = self.scan.decode(key);
                        if tokens[depth] == "*" || tokens[depth] == key {
                            drop |= self.value(depth + 1)?;
                        } else {
                            self.skip()?;
                        }
                        if !self.scan.after_member().map_err(|e| self.fail(&e))? {
                            break;
                        }
                    }
                }
                Ok(drop)
            }
            Some(b'[') => self.array(depth),
            _ => {
                self.skip()?;
                Ok(false)
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<bool, Error> {
        let token = &self.pattern.0[depth];
        let wanted = crate::pointer::array_index(token);
        let dropping = self.drop_at == Some(depth);
        // The edits of this array's items come after this mark.
        let mark = self.edits.len();
        // Each item's span, and whether it is dropped.
        let mut items: Vec<(usize, usize, bool)> = Vec::new();
        let mut drop = false;
        if self.scan.open().map_err(|e| self.fail(&e))? {
            let mut index = 0usize;
            loop {
                let start = self.scan.pos;
                let dropped = if token == "*" || wanted == Some(index) {
                    self.value(depth + 1)?
                } else {
                    self.skip()?;
                    false
                };
                items.push((start, self.scan.pos, dropped && dropping));
                drop |= dropped && !dropping;
                index += 1;
                if !self.scan.after_item().map_err(|e| self.fail(&e))? {
                    break;
                }
            }
        }
        if dropping {
            self.drop_items(&items, mark);
        }
        Ok(drop)
    }

    /// Removes the dropped items, each with the comma that separates it
    /// from the next item (from the previous one, for the last items); the
    /// edits inside them (all after `mark`) go with them.
    fn drop_items(&mut self, items: &[(usize, usize, bool)], mark: usize) {
        let last_kept = items.iter().rposition(|i| !i.2);
        let mut removed_all: Vec<(usize, usize)> = Vec::new();
        for (i, &(start, end, dropped)) in items.iter().enumerate() {
            if !dropped {
                continue;
            }
            let removed = match last_kept {
                Some(k) if i > k => (items[i - 1].1, end),
                _ if i + 1 < items.len() => (start, items[i + 1].0),
                _ => (start, end),
            };
            removed_all.push(removed);
        }
        if removed_all.is_empty() {
            return;
        }
        // Edits inside a removed span go with it; the spans are in order
        // and do not overlap, so each edit is looked up once.
        let inside = |e: &Edit| {
            let i = removed_all.partition_point(|r| r.1 < e.1);
            removed_all.get(i).is_some_and(|r| r.0 <= e.0 && e.1 <= r.1)
        };
        let mut kept: Vec<Edit> = self.edits.drain(mark..).filter(|e| !inside(e)).collect();
        self.edits.append(&mut kept);
        self.edits
            .extend(removed_all.into_iter().map(|(a, b)| (a, b, Vec::new())));
    }
}

/// The edits of one JSON value (`bytes`); with `drop_all` when the whole
/// value must go.
fn edits(
    bytes: &[u8],
    line: Option<usize>,
    name: &str,
    pattern: &Pattern,
    plan: &Plan,
    options: ApplyOptions,
    report: &mut Report,
) -> Result<(Vec<Edit>, bool), Error> {
    let drop_at = pattern.0.iter().rposition(|t| t == "*");
    let mut walk = Walk {
        scan: Scanner::new(bytes, 0),
        pattern,
        drop_at,
        plan,
        options,
        name,
        line,
        counted: std::cell::Cell::new((0, 1)),
        edits: Vec::new(),
        drop_all: false,
        report,
    };
    walk.scan.ws();
    let start = walk.scan.pos;
    let dropped = walk.value(0)?;
    walk.scan.ws();
    if !walk.scan.at_end() {
        let at = walk.line_of(walk.scan.pos);
        return Err(Error::new(format!(
            "{name}:{at}: more than one JSON value (JSON Lines files end in .jsonl or .ndjson)"
        )));
    }
    if dropped {
        if line.is_none() {
            return Err(Error::new(format!(
                "{name}: a deleted id is to be dropped, but the pattern {} has no `*` naming the item that holds it; nothing was written",
                pattern.text()
            )));
        }
        walk.drop_all = true;
    }
    let _ = start;
    let mut edits = walk.edits;
    edits.sort_by_key(|e| e.0);
    Ok((edits, walk.drop_all))
}

/// A UTF-8 byte order mark at the start of `bytes`, and the rest.
fn split_bom(bytes: &[u8]) -> (&[u8], &[u8]) {
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    bytes.split_at(bom)
}

/// Refuses `--on-delete drop` with a pattern whose tokens after its last
/// `*` include an array index: the item dropped would be the one at the
/// `*`, around the list the index is in, not the reference's own item.
///
/// # Errors
/// Such a pattern: a message saying what would be dropped.
pub fn check_drop(pattern: &Pattern) -> Result<(), Error> {
    let star = pattern.0.iter().rposition(|t| t == "*");
    let after = star.map_or(0, |s| s + 1);
    if let Some(i) = pattern.0[after..]
        .iter()
        .position(|t| crate::pointer::array_index(t).is_some())
    {
        let index = &pattern.0[after + i];
        let what = star.map_or_else(
            || "the whole line (JSON Lines) or nothing (JSON)".to_owned(),
            |s| {
                format!(
                    "the whole item at {}",
                    Pattern(pattern.0[..=s].to_vec()).text()
                )
            },
        );
        return Err(Error::new(format!(
            "--on-delete drop with --pointer {}: a deleted reference would drop {what}, not the item {index} that holds it; write `*` where the item to drop is, or use --on-delete keep",
            pattern.text()
        )));
    }
    Ok(())
}

fn write_edited(out: &mut dyn Write, bytes: &[u8], edits: &[Edit]) -> std::io::Result<()> {
    let mut at = 0;
    for (start, end, with) in edits {
        out.write_all(&bytes[at..*start])?;
        out.write_all(with)?;
        at = *end;
    }
    out.write_all(&bytes[at..])
}

/// Rewrites the references at `pattern` in the JSON (or, with
/// `json_lines`, JSON Lines) read from `reader` (named `name`) into `out`
/// (nothing is written with `None`).
///
/// # Errors
/// The input cannot be read or is malformed JSON, or (with
/// [`super::OnDelete::Fail`]) refers to a deleted id.
#[allow(clippy::too_many_arguments)]
pub fn rewrite(
    mut reader: impl BufRead,
    name: &str,
    json_lines: bool,
    pattern: &Pattern,
    plan: &Plan,
    options: ApplyOptions,
    mut out: Option<&mut dyn Write>,
    report: &mut Report,
) -> Result<(), Error> {
    let io = |e: std::io::Error| Error::new(format!("{name}: cannot be read or written: {e}"));
    if !json_lines {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(io)?;
        // A byte order mark is read past (as `validate` does) and kept.
        let (bom, body) = split_bom(&bytes);
        let (edits, _) = edits(body, None, name, pattern, plan, options, report)?;
        if let Some(out) = out {
            out.write_all(bom).map_err(io)?;
            write_edited(out, body, &edits).map_err(io)?;
        }
        return Ok(());
    }
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(io)? == 0 {
            return Ok(());
        }
        number += 1;
        let (bom, body) = if number == 1 {
            split_bom(&line)
        } else {
            (&[][..], &line[..])
        };
        let body = body.strip_suffix(b"\n").unwrap_or(body);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        if body.iter().all(u8::is_ascii_whitespace) {
            if let Some(out) = out.as_deref_mut() {
                out.write_all(&line).map_err(io)?;
            }
            continue;
        }
        let (edits, drop) = edits(body, Some(number), name, pattern, plan, options, report)?;
        if let Some(out) = out.as_deref_mut() {
            // The byte order mark is the file's: it stays when its line is
            // dropped.
            out.write_all(bom).map_err(io)?;
            if !drop {
                write_edited(out, &line[bom.len()..], &edits).map_err(io)?;
            }
        }
    }
}
