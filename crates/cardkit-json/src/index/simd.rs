//! The classes of bytes found with SIMD: AVX-512 (its byte instructions,
//! AVX-512BW) or else AVX2 on x86-64, NEON on 64-bit ARM, each chosen only
//! when the processor has it, found once per process.
//!
//! The one module of the crates where `unsafe` is allowed (the workspace
//! denies it everywhere else but for one call into the C allocator, and
//! `tests/unsafe_confined.rs` checks that no other file allows it). What is
//! unsafe here is narrow: calling a function compiled for a processor
//! feature, which is sound once the feature was detected, and loading
//! vectors from a block, which is sound within its 64 bytes. Everything
//! after the masks (escapes, strings, structural characters) is the same
//! safe code for every path.
#![allow(unsafe_code)]

use std::sync::OnceLock;

use super::classes::Classes;

/// A SIMD path of this processor. Holding one is the proof that the
/// processor has the features it needs: [`Detected`] is made only by
/// [`detect`], after it asked the processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Simd {
    #[cfg(target_arch = "x86_64")]
    Avx512(Detected),
    #[cfg(target_arch = "x86_64")]
    Avx2(Detected),
    #[cfg(target_arch = "aarch64")]
    Neon(Detected),
}

/// A processor feature found at run time; made in this module only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Detected(());

/// The SIMD path of this processor, if it has one: asked once, then kept.
pub(super) fn detect() -> Option<Simd> {
    static FOUND: OnceLock<Option<Simd>> = OnceLock::new();
    *FOUND.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw") {
            return Some(Simd::Avx512(Detected(())));
        }
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Some(Simd::Avx2(Detected(())));
        }
        #[cfg(target_arch = "aarch64")]
        if std::arch::is_aarch64_feature_detected!("neon") {
            return Some(Simd::Neon(Detected(())));
        }
        None
    })
}

impl Simd {
    pub(super) fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512(_) => "avx512",
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2(_) => "avx2",
            #[cfg(target_arch = "aarch64")]
            Simd::Neon(_) => "neon",
        }
    }

    /// Finds the classes of `bytes`, block by block: `bytes` holds 64 bytes
    /// for each of `out` (a shorter tail is left alone).
    pub(super) fn classify(self, bytes: &[u8], out: &mut [Classes]) {
        match self {
            // SAFETY: `avx512::classify` needs AVX-512F and AVX-512BW, and
            // `Simd::Avx512` exists only once `is_x86_feature_detected!`
            // said the processor has both.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512(_) => unsafe { avx512::classify(bytes, out) },
            // SAFETY: `avx2::classify` needs AVX2, and `Simd::Avx2` exists
            // only once `is_x86_feature_detected!("avx2")` said the
            // processor has it.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2(_) => unsafe { avx2::classify(bytes, out) },
            // SAFETY: `neon::classify` needs NEON, and `Simd::Neon` exists
            // only once `is_aarch64_feature_detected!("neon")` said the
            // processor has it.
            #[cfg(target_arch = "aarch64")]
            Simd::Neon(_) => unsafe { neon::classify(bytes, out) },
        }
    }

    /// Finds where plain string content stops in `bytes`, block by block:
    /// bit `i` of each mask is set when byte `i` of its block is `"`, `\`
    /// or a control character. `bytes` holds 64 bytes for each of `out`.
    pub(super) fn string_stops(self, bytes: &[u8], out: &mut [u64]) {
        match self {
            // SAFETY: as for `classify`: `Simd::Avx512` proves AVX-512F
            // and AVX-512BW.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512(_) => unsafe { avx512::string_stops(bytes, out) },
            // SAFETY: as for `classify`: `Simd::Avx2` proves AVX2.
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2(_) => unsafe { avx2::string_stops(bytes, out) },
            // SAFETY: as for `classify`: `Simd::Neon` proves NEON.
            #[cfg(target_arch = "aarch64")]
            Simd::Neon(_) => unsafe { neon::string_stops(bytes, out) },
        }
    }
}

/// A whole block at a time: each comparison gives its 64 bits directly, as
/// a mask register.
///
/// The intrinsics other than the load have one precondition, that the
/// processor has AVX-512F and AVX-512BW, which `#[target_feature]` on each
/// function here states and [`Simd::classify`]'s caller ensures.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi8_mask, _mm512_cmplt_epu8_mask, _mm512_loadu_si512,
        _mm512_or_si512, _mm512_set1_epi8,
    };

    use super::Classes;

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn classify(bytes: &[u8], out: &mut [Classes]) {
        for (block, classes) in bytes.as_chunks::<64>().0.iter().zip(out) {
            let block = load(block);
            // `[` and `]` are `{` and `}` without the 0x20 bit.
            let folded = _mm512_or_si512(block, _mm512_set1_epi8(0x20));
            *classes = Classes {
                quote: lanes(block, b'"'),
                backslash: lanes(block, b'\\'),
                bracket: lanes(folded, b'{') | lanes(folded, b'}'),
                separator: lanes(block, b':') | lanes(block, b','),
            };
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn string_stops(bytes: &[u8], out: &mut [u64]) {
        for (block, stops) in bytes.as_chunks::<64>().0.iter().zip(out) {
            let block = load(block);
            let control = _mm512_cmplt_epu8_mask(block, _mm512_set1_epi8(0x20));
            *stops = lanes(block, b'"') | lanes(block, b'\\') | control;
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn load(block: &[u8; 64]) -> __m512i {
        // SAFETY: `block` is 64 bytes long, all of which the load reads;
        // `_mm512_loadu_si512` reads unaligned memory, so no alignment is
        // needed.
        unsafe { _mm512_loadu_si512(block.as_ptr().cast::<__m512i>()) }
    }

    /// Bit `i` set where byte `i` of `block` is `byte`.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn lanes(block: __m512i, byte: u8) -> u64 {
        _mm512_cmpeq_epi8_mask(block, _mm512_set1_epi8(i8::from_ne_bytes([byte])))
    }
}

/// 32 bytes at a time: a comparison per class gives a byte of all ones in
/// each lane that matches, and `movemask` takes one bit from each lane.
///
/// The intrinsics other than the loads have one precondition, that the
/// processor has AVX2, which `#[target_feature(enable = "avx2")]` on each
/// function here states and [`Simd::classify`]'s caller ensures.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_set1_epi8,
    };

    use super::Classes;

    #[target_feature(enable = "avx2")]
    pub(super) fn classify(bytes: &[u8], out: &mut [Classes]) {
        for (block, classes) in bytes.as_chunks::<64>().0.iter().zip(out) {
            let halves = load(block);
            // `[` and `]` are `{` and `}` without the 0x20 bit.
            let space = _mm256_set1_epi8(0x20);
            let folded = halves.map(|half| _mm256_or_si256(half, space));
            *classes = Classes {
                quote: lanes(halves, b'"'),
                backslash: lanes(halves, b'\\'),
                bracket: lanes(folded, b'{') | lanes(folded, b'}'),
                separator: lanes(halves, b':') | lanes(halves, b','),
            };
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn string_stops(bytes: &[u8], out: &mut [u64]) {
        for (block, stops) in bytes.as_chunks::<64>().0.iter().zip(out) {
            let halves = load(block);
            // A byte below 0x20 is one that the unsigned maximum with 0x1F
            // leaves at 0x1F.
            let below_space = _mm256_set1_epi8(0x1F);
            let capped = halves.map(|half| _mm256_max_epu8(half, below_space));
            *stops = lanes(halves, b'"') | lanes(halves, b'\\') | lanes(capped, 0x1F);
        }
    }

    /// The two halves of a block.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load(block: &[u8; 64]) -> [__m256i; 2] {
        let at = block.as_ptr();
        // SAFETY: `block` is 64 bytes long, so the 32 bytes read from its
        // start and the 32 read from its middle are all within it;
        // `_mm256_loadu_si256` reads unaligned memory, so no alignment is
        // needed.
        unsafe {
            [
                _mm256_loadu_si256(at.cast::<__m256i>()),
                _mm256_loadu_si256(at.add(32).cast::<__m256i>()),
            ]
        }
    }

    /// Bit `i` set where byte `i` of the 64 in `halves` is `byte`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn lanes(halves: [__m256i; 2], byte: u8) -> u64 {
        let wanted = _mm256_set1_epi8(i8::from_ne_bytes([byte]));
        let [low, high] = halves.map(|half| {
            let mask = _mm256_movemask_epi8(_mm256_cmpeq_epi8(half, wanted));
            u64::from(u32::from_ne_bytes(mask.to_ne_bytes()))
        });
        low | (high << 32)
    }
}

/// 16 bytes at a time: a comparison per class gives a byte of all ones in
/// each lane that matches; NEON has no `movemask`, so each lane keeps one
/// bit of its own (1, 2, 4, … 128 within each eight lanes) and pairwise
/// additions fold the 64 lanes into 64 bits (simdjson's way).
///
/// The intrinsics other than the loads have one precondition, that the
/// processor has NEON, which `#[target_feature(enable = "neon")]` on each
/// function here states and [`Simd::classify`]'s caller ensures.
#[cfg(target_arch = "aarch64")]
mod neon {
    use std::arch::aarch64::{
        uint8x16_t, vandq_u8, vceqq_u8, vcltq_u8, vcombine_u8, vcreate_u8, vdupq_n_u8,
        vgetq_lane_u64, vld1q_u8, vorrq_u8, vpaddq_u8, vreinterpretq_u64_u8,
    };

    use super::Classes;

    #[target_feature(enable = "neon")]
    pub(super) fn classify(bytes: &[u8], out: &mut [Classes]) {
        for (block, classes) in bytes.as_chunks::<64>().0.iter().zip(out) {
            let quarters = load(block);
            // `[` and `]` are `{` and `}` without the 0x20 bit.
            let space = vdupq_n_u8(0x20);
            let folded = quarters.map(|quarter| vorrq_u8(quarter, space));
            *classes = Classes {
                quote: bits(equal(quarters, b'"')),
                backslash: bits(equal(quarters, b'\\')),
                bracket: bits(or(equal(folded, b'{'), equal(folded, b'}'))),
                separator: bits(or(equal(quarters, b':'), equal(quarters, b','))),
            };
        }
    }

    #[target_feature(enable = "neon")]
    pub(super) fn string_stops(bytes: &[u8], out: &mut [u64]) {
        for (block, stops) in bytes.as_chunks::<64>().0.iter().zip(out) {
            let quarters = load(block);
            let space = vdupq_n_u8(0x20);
            let control = quarters.map(|quarter| vcltq_u8(quarter, space));
            *stops = bits(or(
                or(equal(quarters, b'"'), equal(quarters, b'\\')),
                control,
            ));
        }
    }

    /// The four quarters of a block.
    #[target_feature(enable = "neon")]
    #[inline]
    fn load(block: &[u8; 64]) -> [uint8x16_t; 4] {
        let at = block.as_ptr();
        // SAFETY: `block` is 64 bytes long, so the four reads of 16 bytes,
        // at 0, 16, 32 and 48, are all within it; `vld1q_u8` needs no
        // alignment beyond a byte's.
        unsafe {
            [
                vld1q_u8(at),
                vld1q_u8(at.add(16)),
                vld1q_u8(at.add(32)),
                vld1q_u8(at.add(48)),
            ]
        }
    }

    /// All ones in each lane that is `byte`, zero in the others.
    #[target_feature(enable = "neon")]
    #[inline]
    fn equal(quarters: [uint8x16_t; 4], byte: u8) -> [uint8x16_t; 4] {
        let wanted = vdupq_n_u8(byte);
        quarters.map(|quarter| vceqq_u8(quarter, wanted))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn or(a: [uint8x16_t; 4], b: [uint8x16_t; 4]) -> [uint8x16_t; 4] {
        [
            vorrq_u8(a[0], b[0]),
            vorrq_u8(a[1], b[1]),
            vorrq_u8(a[2], b[2]),
            vorrq_u8(a[3], b[3]),
        ]
    }

    /// The 64 lanes of `masks` (each all ones or zero) as 64 bits, lane `i`
    /// at bit `i`.
    #[target_feature(enable = "neon")]
    #[inline]
    fn bits(masks: [uint8x16_t; 4]) -> u64 {
        let weight = vcreate_u8(0x8040_2010_0804_0201);
        let weights = vcombine_u8(weight, weight);
        let [a, b, c, d] = masks.map(|mask| vandq_u8(mask, weights));
        // Each addition of neighbours halves the lanes: pairs, then groups
        // of four, then of eight, each a byte of bits.
        let pairs = [vpaddq_u8(a, b), vpaddq_u8(c, d)];
        let fours = vpaddq_u8(pairs[0], pairs[1]);
        let eights = vpaddq_u8(fours, fours);
        vgetq_lane_u64::<0>(vreinterpretq_u64_u8(eights))
    }
}
