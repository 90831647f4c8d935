//! The classes of the bytes of a block, as each path finds them.

/// The classes of the bytes of one block, before strings are known: bit `i`
/// of each mask is byte `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Classes {
    pub quote: u64,
    pub backslash: u64,
    /// `{ } [ ]`.
    pub bracket: u64,
    /// `:` and `,`.
    pub separator: u64,
}
