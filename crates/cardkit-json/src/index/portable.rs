//! The classes of bytes found without SIMD, eight bytes at a time: the path
//! of machines without AVX-512, AVX2 or NEON, and the one the SIMD paths are checked
//! against.

use super::classes::Classes;
use crate::lanes::{lanes_equal, ONES};

/// Finds the classes of `bytes`, block by block: `bytes` holds 64 bytes
/// for each of `out`.
pub(super) fn classify(bytes: &[u8], out: &mut [Classes]) {
    for (block, classes) in bytes.chunks_exact(64).zip(out) {
        *classes = Classes::default();
        for (i, word) in block.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let shift = 8 * i;
            classes.quote |= gather(lanes_equal(x, b'"')) << shift;
            classes.backslash |= gather(lanes_equal(x, b'\\')) << shift;
            // `[` and `]` are `{` and `}` without the 0x20 bit.
            let folded = x | (ONES * 0x20);
            classes.bracket |=
                gather(lanes_equal(folded, b'{') | lanes_equal(folded, b'}')) << shift;
            classes.separator |= gather(lanes_equal(x, b':') | lanes_equal(x, b',')) << shift;
        }
    }
}

/// Finds where plain string content stops in `bytes`, block by block: bit
/// `i` of each mask is set when byte `i` of its block is `"`, `\` or a
/// control character. `bytes` holds 64 bytes for each of `out`.
pub(super) fn string_stops(bytes: &[u8], out: &mut [u64]) {
    for (block, stops) in bytes.chunks_exact(64).zip(out) {
        *stops = 0;
        for (i, word) in block.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
            // Lanes below 0x20: those whose high three bits are all zero.
            let control = lanes_equal(x & (ONES * 0xE0), 0);
            let lanes = lanes_equal(x, b'"') | lanes_equal(x, b'\\') | control;
            *stops |= gather(lanes) << (8 * i);
        }
    }
}

/// The high bits of the eight lanes of `lanes` (and no other bit set) as
/// eight bits, lane `i` at bit `i`: one multiplication moves each lane's bit
/// to its place in the top byte, with no two products on the same bit.
#[inline]
fn gather(lanes: u64) -> u64 {
    ((lanes >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}
