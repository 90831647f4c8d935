//! What the reading of a container hands its documents to ([`Documents`]:
//! validated at once on this thread, or sent off to other threads), how a
//! document's kind is found, and why reading stops early. Shared by the
//! container (`container.rs`) and the handlers (`stream.rs`,
//! `parallel.rs`), so that neither imports the other.

use std::io;

use super::layout;
use super::source::Source;
use crate::model::Kind;
use crate::report::Layout;

/// Why reading stopped early.
#[derive(Debug)]
pub(crate) enum Stop {
    /// Malformed JSON, reported; nothing after it can be read.
    Malformed,
    /// The input could not be read.
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(error: io::Error) -> Self {
        Stop::Io(error)
    }
}

/// How the kind of a document is found.
#[derive(Debug, Clone, Copy)]
pub(crate) enum KindRule {
    /// It is known (`None`: it cannot be told).
    Named(Option<Kind>),
    /// It is `forced`, or told from the document's members, or else
    /// `otherwise`.
    Told {
        forced: Option<Kind>,
        otherwise: Option<Kind>,
    },
}

impl KindRule {
    /// The kind of the document at `pos` of `bytes`.
    pub fn resolve(self, bytes: &[u8], pos: usize) -> Option<Kind> {
        match self {
            KindRule::Named(kind) => kind,
            KindRule::Told { forced, otherwise } => {
                forced.or_else(|| layout::kind_of(bytes, pos)).or(otherwise)
            }
        }
    }
}

/// What is done with each document found.
pub(crate) trait Documents {
    /// How the documents are laid out, told before the first document.
    fn layout(&mut self, _layout: Layout) {}

    /// Whether members of the root object beside the documents are wanted
    /// (with [`Documents::around`]).
    fn wants_around(&self) -> bool {
        false
    }

    /// A member of the root object beside the documents, read past: its
    /// pointer and its bytes (`None` when longer than the limit or no
    /// longer at hand).
    fn around(&mut self, _src: &mut Source<'_>, _pointer: String, _bytes: Option<Vec<u8>>) {}

    /// The document at file offset `at`: validates it (or sends it off to
    /// be) and returns the offset after it. `Stop::Malformed` when it is
    /// malformed JSON, found now.
    fn document(
        &mut self,
        src: &mut Source<'_>,
        at: usize,
        pointer: String,
        kind: KindRule,
    ) -> Result<usize, Stop>;

    /// The bytes at hand are about to be let go of (up to some context
    /// before the cursor), in the middle of what is around documents: a
    /// handler that still needs any of them takes them now.
    fn before_release(&mut self, _src: &mut Source<'_>) -> io::Result<()> {
        Ok(())
    }
}

/// The most bytes a character takes in UTF-8: a problem found this close
/// to the end of the bytes at hand may name a character cut short.
pub(crate) const MAX_CHAR_BYTES: usize = 4;
