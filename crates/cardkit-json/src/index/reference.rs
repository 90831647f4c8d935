//! The structural index read one byte at a time: what the portable and the
//! SIMD paths are checked against, by the tests and by the fuzz target
//! `index` (through the `reference` feature).

use super::Block;

/// The index of `bytes` read one byte at a time: a backslash that is not
/// itself escaped escapes the next byte; a quote not escaped opens or
/// closes a string. The input is padded with spaces to whole blocks.
pub fn blocks(bytes: &[u8]) -> Vec<Block> {
    let mut padded = bytes.to_vec();
    padded.resize(bytes.len().div_ceil(64) * 64, b' ');
    let (mut inside, mut escaped) = (false, false);
    let mut blocks = vec![Block::default(); padded.len() / 64];
    for (i, &byte) in padded.iter().enumerate() {
        let block = &mut blocks[i / 64];
        let bit = 1u64 << (i % 64);
        let this_escaped = escaped;
        escaped = byte == b'\\' && !this_escaped;
        if byte == b'"' && !this_escaped {
            block.quotes |= bit;
            inside = !inside;
        }
        if inside {
            block.in_string |= bit;
            continue;
        }
        match byte {
            b'{' | b'}' | b'[' | b']' => block.brackets |= bit,
            b':' | b',' => block.separators |= bit,
            b'\\' => block.stray_backslashes |= bit,
            _ => {}
        }
    }
    blocks
}

/// The structural characters' offsets, read one byte at a time.
pub fn structurals(bytes: &[u8]) -> Vec<usize> {
    let blocks = blocks(bytes);
    (0..bytes.len())
        .filter(|&i| blocks[i / 64].structurals() & (1 << (i % 64)) != 0)
        .collect()
}

/// Where plain string content stops, read one byte at a time: the offsets
/// of `"`, `\\` and the control characters.
pub fn string_stops(bytes: &[u8]) -> Vec<usize> {
    (0..bytes.len())
        .filter(|&i| matches!(bytes[i], b'"' | b'\\' | 0..0x20))
        .collect()
}
