//! What the checker read where: the objects of the field tables' models,
//! the values of their known fields and the items of lists of objects, in
//! document order, as offsets into the document's bytes. An extractor that
//! follows it finds each value without reading the document again, and
//! knows which values hold an error.

/// One step of a [`Tape`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// An object read against a model starts.
    Open,
    /// A known field of the object being read.
    Field {
        /// Its index in the model's fields (fewer than 128: a model's
        /// required fields are a 128-bit mask). Narrow, so that a step
        /// takes 16 bytes.
        index: u32,
        /// Where its value starts.
        start: usize,
    },
    /// The value of the field ends.
    End {
        /// Where it ends.
        end: usize,
        /// An error was found in it.
        invalid: bool,
    },
    /// An item of a list whose items are objects: its index.
    Item(usize),
    /// The object ends.
    Close,
}

/// Which fields a tape holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TapeScope {
    /// Every known field's value.
    Fields,
    /// Only the values of fields with a [`Link`](crate::schema::Link) and
    /// of fields holding objects that have such fields, or hold some
    /// ([`ModelDef::link_fields`](crate::schema::ModelDef::link_fields)):
    /// what the references need, at a fraction of the steps. Objects no
    /// link is in (a card's rulings, legalities, prices) leave no step.
    Links,
}

/// The steps of one document, recorded when an extractor asks for them
/// ([`super::Extracting::with_tape`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tape {
    /// In document order.
    pub steps: Vec<Step>,
}

thread_local! {
    /// The steps of a tape recorded before on this thread, emptied: a
    /// document's tape grows to some MB, and memory asked anew for each
    /// document costs a page fault every 4 KiB.
    static SPARE_STEPS: std::cell::Cell<Vec<Step>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A spare tape is kept up to this many steps (16 MiB).
const SPARE_STEPS_KEPT: usize = 1 << 20;

impl Tape {
    /// An empty tape, with the room of one used before on this thread.
    pub(crate) fn reused() -> Tape {
        Tape {
            steps: SPARE_STEPS.take(),
        }
    }

    /// Keeps this tape's room for the next document validated on this
    /// thread, unless a larger one is kept already.
    pub(crate) fn recycle(mut self) {
        if self.steps.capacity() > SPARE_STEPS_KEPT {
            return;
        }
        self.steps.clear();
        SPARE_STEPS.with(|spare| {
            let kept = spare.take();
            spare.set(if kept.capacity() > self.steps.capacity() {
                kept
            } else {
                self.steps
            });
        });
    }
}
