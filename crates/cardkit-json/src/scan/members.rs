//! The members of one object, found by structure: each name decoded, each
//! value read past without being parsed.

use std::borrow::Cow;

use super::{Scan, Scanner};
use crate::syntax::SyntaxError;

impl<'a> Scanner<'a> {
    /// The members of the object at the cursor, read by structure: each
    /// member's name and where its value starts. The values are skipped,
    /// not checked; the iteration ends at the object's end or at the first
    /// thing that is not JSON (then [`Members::error`] says what).
    #[must_use]
    pub fn members(&self) -> Members<'a> {
        Members {
            scan: self.clone(),
            state: MembersState::Start,
            error: None,
            indexed: false,
        }
    }
}

/// The members of one object, by structure: see [`Scanner::members`].
#[derive(Debug)]
pub struct Members<'a> {
    scan: Scanner<'a>,
    state: MembersState,
    error: Option<SyntaxError>,
    /// Values are read past over the structural index.
    indexed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MembersState {
    Start,
    /// The cursor is at a member's value.
    AtValue,
    Done,
}

/// A member found by [`Members`].
#[derive(Debug, Clone)]
pub struct Member<'a> {
    /// The member's name, decoded.
    pub name: Cow<'a, str>,
    /// Where the name starts.
    pub name_at: usize,
    /// Where the value starts.
    pub value_at: usize,
}

impl<'a> Members<'a> {
    /// The same members, each value read past over the structural index
    /// ([`Scanner::skip_structure_indexed`]): for an object whose values
    /// may be long, such as a file's root (a set's `data`, a catalog's).
    #[must_use]
    pub fn over_index(mut self) -> Self {
        self.indexed = true;
        self
    }

    /// Why the iteration ended early, if it did: malformed JSON, or bytes
    /// that end inside the object (then the error is at the end of the
    /// bytes).
    #[must_use]
    pub fn error(&self) -> Option<&SyntaxError> {
        self.error.as_ref()
    }

    /// The object was read to its closing brace.
    #[must_use]
    pub fn complete(&self) -> bool {
        self.state == MembersState::Done && self.error.is_none()
    }

    /// The iteration stopped because the bytes end inside the object.
    #[must_use]
    pub fn cut_short(&self) -> bool {
        self.error.is_some() && self.scan.at_end()
    }

    fn step(&mut self) -> Scan<Option<Member<'a>>> {
        match self.state {
            MembersState::Done => return Ok(None),
            MembersState::Start => {
                if !self.scan.open()? {
                    self.state = MembersState::Done;
                    return Ok(None);
                }
            }
            MembersState::AtValue => {
                if self.indexed {
                    self.scan.skip_structure_indexed()?;
                } else {
                    self.scan.skip_structure()?;
                }
                if !self.scan.after_member()? {
                    self.state = MembersState::Done;
                    return Ok(None);
                }
            }
        }
        let (name, name_at) = self.scan.member_name()?;
        self.state = MembersState::AtValue;
        Ok(Some(Member {
            name: self.scan.decode(name),
            name_at,
            value_at: self.scan.pos,
        }))
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = Member<'a>;

    fn next(&mut self) -> Option<Member<'a>> {
        match self.step() {
            Ok(found) => found,
            Err(error) => {
                self.state = MembersState::Done;
                self.error = Some(error);
                None
            }
        }
    }
}
