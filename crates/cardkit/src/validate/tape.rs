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
        /// Its index in the model's fields.
        index: usize,
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

/// The steps of one document, recorded when an extractor asks for them
/// ([`super::validate_with_tape`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tape {
    /// In document order.
    pub steps: Vec<Step>,
}
