//! Values around the documents (a catalog's `meta`, unknown members of a
//! list object) are never validated, only read past. They are read a token
//! at a time, long strings a piece at a time, so that what is behind the
//! cursor can be let go: a value of any size takes bounded memory. What is
//! reported: malformed JSON, duplicate keys and nesting deeper than
//! [`MAX_DEPTH`] (past which the syntax is still checked).

use crate::diagnostic::Detail;
use crate::schema::MAX_DEPTH;
use cardkit_json::pointer::push_escaped;
use cardkit_json::{scalar_end, DuplicateKeys, Scanner, Syntax};

use super::container::Container;
use super::documents::{Documents, Stop};

impl<D: Documents> Container<'_, '_, D> {
    /// Reads past the value at the cursor, which is at `pointer`.
    pub(super) fn skip(&mut self, pointer: String) -> Result<(), Stop> {
        let mut levels = Levels::new(pointer);
        loop {
            // At a value.
            self.ws()?;
            match self.peek()? {
                Some(open @ (b'{' | b'[')) => {
                    if levels.shallow.len() == MAX_DEPTH && levels.deep.is_empty() {
                        let at = self.pos;
                        let too_deep = Detail::TooDeep { limit: MAX_DEPTH };
                        self.report(too_deep, at, levels.pointer.clone())?;
                    }
                    if self.open()? {
                        levels.open(open == b'{');
                        if open == b'{' {
                            self.member_name(&mut levels)?;
                        }
                        continue;
                    }
                }
                Some(b'"') => self.string_in_pieces(&levels.pointer)?,
                _ => {
                    self.token_at_hand()?;
                    self.step(&levels.pointer, |s| s.scalar())?;
                }
            }
            // After a value: the levels it ends, then the next member or item.
            loop {
                let Some(object) = levels.innermost_is_object() else {
                    return Ok(());
                };
                levels.leave();
                let more = if object {
                    self.step(&levels.pointer, |s| s.after_member())?
                } else {
                    self.step(&levels.pointer, |s| s.after_item())?
                };
                if !more {
                    levels.close();
                } else if object {
                    self.member_name(&mut levels)?;
                    break;
                } else {
                    levels.next_item();
                    break;
                }
            }
        }
    }

    /// Reads the name of the next member of the innermost object, checks it
    /// against the names before it and steps into the member.
    fn member_name(&mut self, levels: &mut Levels) -> Result<(), Stop> {
        let (key, key_at) = self.step(&levels.pointer, |s| {
            let (name, at) = s.member_name()?;
            Ok((s.decode(name).into_owned(), at))
        })?;
        let key_at = self.src.base + key_at;
        if !levels.enter_member(&key) {
            let pointer = levels.pointer.clone();
            self.duplicate_key(key_at, &key, pointer)?;
        }
        Ok(())
    }

    /// Makes sure that the number or literal at the cursor is all at hand:
    /// it ends at the first byte that cannot be part of one. (Reading more
    /// doubles what is at hand, so looking again from the start stays
    /// linear.)
    fn token_at_hand(&mut self) -> Result<(), Stop> {
        loop {
            let rest = &self.src.bytes()[self.pos - self.src.base..];
            if scalar_end(rest).is_some() || !self.src.fill()? {
                return Ok(());
            }
        }
    }

    /// At a string: reads it a piece at a time, letting go of each piece.
    fn string_in_pieces(&mut self, pointer: &str) -> Result<(), Stop> {
        let open = self.pos;
        self.pos += 1;
        loop {
            let base = self.src.base;
            let more = !self.src.eof;
            let mut scan = Scanner::new(self.src.bytes(), self.pos - base);
            scan.utf8_checked = self.src.utf8_to().saturating_sub(base);
            match scan.string_piece(more) {
                Ok(true) => {
                    self.pos = base + scan.pos;
                    return Ok(());
                }
                Ok(false) if more => {
                    self.pos = base + scan.pos;
                    self.release()?;
                    self.src.fill()?;
                }
                Ok(false) => {
                    let unterminated = Detail::Syntax(Syntax::UnterminatedString);
                    self.report(unterminated, open, pointer.to_owned())?;
                    return Err(Stop::Malformed);
                }
                Err(error) => {
                    let at = base + error.at;
                    self.report(Detail::Syntax(error.syntax), at, pointer.to_owned())?;
                    return Err(Stop::Malformed);
                }
            }
        }
    }
}

/// The objects and arrays that the cursor is inside, and the pointer of the
/// value at the cursor.
struct Levels {
    pointer: String,
    /// The levels up to `MAX_DEPTH`, outermost first.
    shallow: Vec<Level>,
    /// The levels past `MAX_DEPTH`, told apart only as objects or arrays,
    /// so that any depth costs a bit a level.
    deep: Bits,
}

struct Level {
    /// The keys seen so far, for an object; `None` for an array.
    keys: Option<DuplicateKeys<'static>>,
    /// The index of the current item, for an array.
    index: usize,
    /// The length of the level's own pointer within `pointer`.
    pointer_len: usize,
}

impl Levels {
    fn new(pointer: String) -> Self {
        Levels {
            pointer,
            shallow: Vec::new(),
            deep: Bits::default(),
        }
    }

    /// Steps inside an object or array (not yet into a member or item).
    fn open(&mut self, object: bool) {
        if self.shallow.len() < MAX_DEPTH {
            self.shallow.push(Level {
                keys: object.then(DuplicateKeys::default),
                index: 0,
                pointer_len: self.pointer.len(),
            });
            if !object {
                self.enter_item();
            }
        } else {
            self.deep.push(object);
        }
    }

    /// Whether the innermost level is an object; `None` at the top.
    fn innermost_is_object(&self) -> Option<bool> {
        match self.deep.last() {
            Some(object) => Some(object),
            None => self.shallow.last().map(|level| level.keys.is_some()),
        }
    }

    /// Steps out of the current member or item of the innermost level.
    fn leave(&mut self) {
        if self.deep.is_empty() {
            if let Some(level) = self.shallow.last() {
                self.pointer.truncate(level.pointer_len);
            }
        }
    }

    /// Steps out of the innermost level, which has ended.
    fn close(&mut self) {
        if self.deep.pop().is_none() {
            self.shallow.pop();
        }
    }

    /// Steps into the member `key` of the innermost object; `false` if the
    /// object had a member of that name before.
    fn enter_member(&mut self, key: &str) -> bool {
        if !self.deep.is_empty() {
            return true;
        }
        let Some(level) = self.shallow.last_mut() else {
            return true;
        };
        self.pointer.push('/');
        push_escaped(&mut self.pointer, key);
        level
            .keys
            .as_mut()
            .is_none_or(|keys| keys.insert(key.to_owned().into()))
    }

    /// Steps into the next item of the innermost array.
    fn next_item(&mut self) {
        if let Some(level) = self.shallow.last_mut().filter(|_| self.deep.is_empty()) {
            level.index += 1;
        }
        self.enter_item();
    }

    fn enter_item(&mut self) {
        if let Some(level) = self.shallow.last().filter(|_| self.deep.is_empty()) {
            self.pointer.push('/');
            self.pointer.push_str(&level.index.to_string());
        }
    }
}

/// A stack of bits.
#[derive(Default)]
struct Bits {
    words: Vec<u64>,
    len: usize,
}

impl Bits {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(64) {
            self.words.push(0);
        }
        if bit {
            self.words[self.len / 64] |= 1 << (self.len % 64);
        }
        self.len += 1;
    }

    fn last(&self) -> Option<bool> {
        let i = self.len.checked_sub(1)?;
        Some(self.words[i / 64] >> (i % 64) & 1 == 1)
    }

    fn pop(&mut self) -> Option<bool> {
        let bit = self.last()?;
        self.len -= 1;
        if self.len.is_multiple_of(64) {
            self.words.pop();
        }
        Some(bit)
    }
}
