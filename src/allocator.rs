//! The C allocator's policy for large blocks.
//!
//! glibc serves a block of at least its mmap threshold with a mapping of
//! its own, returned to the system when freed, but raises that threshold to
//! the size of each such block freed (up to 32 MiB). A long run that keeps
//! making and freeing buffers of a few MB (an export's pages, batches and
//! rows) then takes them from its arenas instead, where freed memory stays
//! the process's: its memory grows with the input by fragmentation alone.
//! An export to Parquet went from 195 MB at its peak on 500 MB to 260 MB on
//! 2 GB, while the heap in use stayed under 200 MB throughout. A fixed
//! threshold keeps each large buffer a mapping of its own, so that memory
//! follows what is in use.

/// The threshold: blocks of 1 MiB or more get mappings of their own (the
/// Parquet export of 2 GB: 216 MB at its peak, for 6% more CPU). Each such
/// block costs fresh pages from the system: at 256 KiB, which takes in the
/// batches of an export's text columns, 182 MB for 10% more CPU; at 4 MiB,
/// 228 MB for 3%.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 1 << 20;

/// Fixes glibc's mmap threshold; elsewhere, nothing to do. Called first in
/// `main`, before any other thread starts.
#[allow(unsafe_code)]
pub fn keep_large_blocks_apart() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets one parameter of glibc's allocator and takes
    // plain integers; no other thread is allocating yet.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}
