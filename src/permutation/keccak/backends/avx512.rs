//! AVX-512 + GFNI Keccak-f\[200\]: 64 states byte-sliced in 512-bit vectors
//! (32 in 256-bit ones with AVX-512VL for shorter batches), the shared round
//! function on a vector [`Word`].
//!
//! Lane (x, y) of 64 (or 32) independent states sits in the bytes of one
//! vector. Against the AVX2 backend, three instructions do the work of many:
//! - every byte rotation of θ and ρ is one `vgf2p8affineqb` (GFNI), the
//!   rotation written as an 8 × 8 bit matrix, where AVX2 shifts, masks and
//!   merges;
//! - χ (`a ⊕ (¬b ∧ c)`) and the three-way XORs of θ are one `vpternlogd`
//!   each;
//! - a 512-bit vector holds twice the states (on a Zen 4, which splits
//!   512-bit operations in two, that gains little over two 256-bit passes;
//!   on Intel server cores it does).
//!
//! Blocks go in and out through the AVX2 backend's 32 × 32 byte transposes,
//! one per half, joined into 512-bit lanes. Every operation is a fixed
//! sequence independent of the data, and nothing is indexed by it.
//!
//! `unsafe` here is the intrinsics (and the AVX2 transposes): the entry points
//! [`permute`] and [`permute_narrow`] take the [`Avx512Gfni`] token, which
//! only run-time detection of AVX-512F, AVX-512VL, GFNI and AVX2 gives.
//!
//! Built only by Rust 1.89 or newer, which has these intrinsics (`build.rs`
//! sets `elephant_avx512`); older compilers down to the MSRV leave it out.

use super::super::super::cpu::Avx512Gfni;
use super::super::round::{Word, rounds};
use super::avx2::{AVX2_STATES, Lanes32, load_rows, store_rows, transpose_32x32};
use core::arch::x86_64::{
    __m256i, __m512i, _mm_set_epi64x, _mm256_gf2p8affine_epi64_epi8, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_ternarylogic_epi32, _mm512_and_si512, _mm512_andnot_si512,
    _mm512_castsi256_si512, _mm512_castsi512_si256, _mm512_extracti64x4_epi64,
    _mm512_gf2p8affine_epi64_epi8, _mm512_inserti64x4, _mm512_or_si512, _mm512_set1_epi8,
    _mm512_set1_epi64, _mm512_sll_epi64, _mm512_srl_epi64, _mm512_ternarylogic_epi32,
    _mm512_xor_si512,
};
use zeroize::Zeroize;

/// How many states one AVX-512 pass permutes: the bytes of a vector.
pub(super) const AVX512_STATES: usize = 64;

/// Block size of Keccak-f\[200\].
const BLOCK_BYTES: usize = 25;

/// The GFNI matrix that rotates each byte left by `bits`: output bit i is
/// input bit i − `bits` (mod 8), and `vgf2p8affineqb` takes the row of
/// output bit i from byte 7 − i of the matrix.
const fn rotate_left_matrix(bits: u32) -> i64 {
    let mut matrix = 0u64;
    let mut out = 0;
    while out < 8 {
        // A `const fn` cannot use iterators; `out` < 8 and `bits` < 8.
        #[allow(clippy::arithmetic_side_effects)]
        {
            let from = (out + 8 - bits) % 8;
            matrix |= (1u64 << from) << (8 * (7 - out));
            out += 1;
        }
    }
    i64::from_ne_bytes(matrix.to_ne_bytes())
}

/// [`rotate_left_matrix`] for every amount 0–7 (the single-state kernel,
/// `avx512_one`, uses them too).
pub(super) const ROTATE_LEFT: [i64; 8] = [
    rotate_left_matrix(0),
    rotate_left_matrix(1),
    rotate_left_matrix(2),
    rotate_left_matrix(3),
    rotate_left_matrix(4),
    rotate_left_matrix(5),
    rotate_left_matrix(6),
    rotate_left_matrix(7),
];

/// The matrix of [`ROTATE_LEFT`] for `bits` (a constant after inlining).
#[inline(always)]
fn rotation(bits: u32) -> i64 {
    let index = usize::try_from(bits).unwrap_or(0);
    ROTATE_LEFT.get(index).copied().unwrap_or(ROTATE_LEFT[0])
}

/// Lane (x, y) of 64 states, one byte per state.
///
/// Invariant: values of this type exist only inside [`permute_halves`], a
/// function that runs only under an [`Avx512Gfni`] token; so AVX-512F and
/// GFNI are available whenever a method of this type runs.
#[derive(Clone, Copy)]
struct Lanes64(__m512i);

impl Word for Lanes64 {
    #[inline(always)]
    fn splat(byte: u8) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_set1_epi8(i8::from_ne_bytes([byte])) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_xor_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_and_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_or_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_andnot_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_sll_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) })
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        // SAFETY: as for `shl`.
        Self(unsafe { _mm512_srl_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) })
    }
    /// One `vgf2p8affineqb` whatever the amount (the matrix is a constant
    /// after inlining).
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let matrix = rotation(bits);
        // SAFETY: AVX-512F and GFNI are available (type invariant of
        // `Lanes64`).
        Self(unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(self.0, _mm512_set1_epi64(matrix)) })
    }
    /// `vpternlogd` with the truth table of `a ⊕ b ⊕ c` (bitwise, so the
    /// 32-bit element size does not matter).
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_ternarylogic_epi32::<0x96>(self.0, b.0, c.0) })
    }
    /// `vpternlogd` with the truth table of `a ⊕ (¬b ∧ c)`.
    #[inline(always)]
    fn chi(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_ternarylogic_epi32::<0xd2>(self.0, b.0, c.0) })
    }
}

/// Lane (x, y) of 32 states in a 256-bit vector: the AVX2 backend's
/// [`Lanes32`] with the rotations, χ and three-way XORs of [`Lanes64`]
/// (AVX-512VL), for batches that one AVX2 pass would hold.
///
/// Invariant: values of this type exist only inside [`permute_32`], a
/// function that runs only under an [`Avx512Gfni`] token; so AVX-512F,
/// AVX-512VL, GFNI and AVX2 are available whenever a method of this type
/// runs.
#[derive(Clone, Copy)]
struct GfniLanes32(Lanes32);

impl Word for GfniLanes32 {
    #[inline(always)]
    fn splat(byte: u8) -> Self {
        Self(Lanes32::splat(byte))
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Self(self.0.xor(other.0))
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Self(self.0.and(other.0))
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Self(self.0.or(other.0))
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        Self(self.0.andnot(other.0))
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        Self(self.0.shl(bits))
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        Self(self.0.shr(bits))
    }
    /// One `vgf2p8affineqb`, as for [`Lanes64`].
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let matrix = rotation(bits);
        // SAFETY: GFNI and AVX are available (type invariant of
        // `GfniLanes32`).
        Self(Lanes32(unsafe {
            _mm256_gf2p8affine_epi64_epi8::<0>(self.0.0, _mm256_set1_epi64x(matrix))
        }))
    }
    /// `vpternlogd` on 256 bits (AVX-512VL), as for [`Lanes64`].
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F and AVX-512VL are available (type invariant of
        // `GfniLanes32`).
        Self(Lanes32(unsafe {
            _mm256_ternarylogic_epi32::<0x96>(self.0.0, b.0.0, c.0.0)
        }))
    }
    /// `vpternlogd` on 256 bits (AVX-512VL), as for [`Lanes64`].
    #[inline(always)]
    fn chi(self, b: Self, c: Self) -> Self {
        // SAFETY: as for `xor3`.
        Self(Lanes32(unsafe {
            _mm256_ternarylogic_epi32::<0xd2>(self.0.0, b.0.0, c.0.0)
        }))
    }
}

/// Keccak-f\[200\] of 32 blocks with [`GfniLanes32`]: the AVX2 backend's
/// transposes around the GFNI and ternary-logic round.
///
/// # Safety
/// AVX-512F, AVX-512VL, GFNI and AVX2 must be available.
#[target_feature(enable = "avx2,avx512f,avx512vl,gfni")]
unsafe fn permute_32(blocks: &mut [[u8; BLOCK_BYTES]; AVX2_STATES]) {
    // SAFETY: AVX2 is available (the caller's contract), all the AVX2
    // backend's helpers need; the same holds for the `unsafe` block below.
    let columns = unsafe { transpose_32x32(load_rows(blocks)) };
    let [lanes @ .., _, _, _, _, _, _, _] = columns;
    let lanes = rounds(lanes.map(|lane| GfniLanes32(Lanes32(lane))));
    let mut columns = [_mm256_setzero_si256(); 32];
    for (to, from) in columns.iter_mut().zip(lanes) {
        *to = from.0.0;
    }
    // SAFETY: as above.
    unsafe { store_rows(blocks, &transpose_32x32(columns)) };
}

/// Keccak-f\[200\] of up to 32 blocks, [`GfniLanes32`] (the tier below 33
/// blocks on these CPUs); a short batch is filled up with zero states
/// whose results are dropped.
pub(super) fn permute_narrow(_: Avx512Gfni, blocks: &mut [[u8; BLOCK_BYTES]]) {
    for chunk in blocks.chunks_mut(AVX2_STATES) {
        match <&mut [[u8; BLOCK_BYTES]; AVX2_STATES]>::try_from(&mut *chunk) {
            // SAFETY: the token exists only if AVX-512F, AVX-512VL, GFNI and
            // AVX2 were detected at run time.
            Ok(whole) => unsafe { permute_32(whole) },
            Err(_) => {
                let mut padded = [[0u8; BLOCK_BYTES]; AVX2_STATES];
                for (to, from) in padded.iter_mut().zip(chunk.iter()) {
                    *to = *from;
                }
                // SAFETY: as above.
                unsafe { permute_32(&mut padded) };
                for (to, from) in chunk.iter_mut().zip(&padded) {
                    *to = *from;
                }
                padded.as_flattened_mut().zeroize();
            }
        }
    }
}

/// Keccak-f\[200\] of 64 blocks given as two halves of 32: each half
/// transposed to 32-byte lanes as in the AVX2 backend, the halves joined
/// into 512-bit lanes, the rounds, and back the same way.
///
/// # Safety
/// AVX-512F, GFNI and AVX2 must be available.
#[target_feature(enable = "avx2,avx512f,gfni")]
unsafe fn permute_halves(
    low_blocks: &mut [[u8; BLOCK_BYTES]; AVX2_STATES],
    high_blocks: &mut [[u8; BLOCK_BYTES]; AVX2_STATES],
) {
    // Intrinsics are safe to call here (this function enables their
    // features; the module is built by Rust 1.89 or newer only); the AVX2
    // backend's helpers are `unsafe fn`s.
    //
    // SAFETY: AVX2 is available (the caller's contract), all those helpers
    // need; the same holds for the `unsafe` block below.
    let (low, high) = unsafe {
        (
            transpose_32x32(load_rows(low_blocks)),
            transpose_32x32(load_rows(high_blocks)),
        )
    };
    let lanes: [Lanes64; 25] = core::array::from_fn(|lane| {
        let (low, high) = (low.get(lane), high.get(lane));
        let (Some(&low), Some(&high)) = (low, high) else {
            debug_assert!(false, "25 lanes of 32");
            return Lanes64::splat(0);
        };
        Lanes64(_mm512_inserti64x4::<1>(_mm512_castsi256_si512(low), high))
    });
    let lanes = rounds(lanes);
    let zero: __m256i = _mm256_setzero_si256();
    let (mut low, mut high) = ([zero; 32], [zero; 32]);
    for ((low, high), lane) in low.iter_mut().zip(high.iter_mut()).zip(lanes) {
        (*low, *high) = (
            _mm512_castsi512_si256(lane.0),
            _mm512_extracti64x4_epi64::<1>(lane.0),
        );
    }
    // SAFETY: as above.
    unsafe {
        store_rows(low_blocks, &transpose_32x32(low));
        store_rows(high_blocks, &transpose_32x32(high));
    }
}

/// Keccak-f\[200\] of every block, 64 states at a time. A last pass with
/// fewer than 64 blocks fills up what it lacks with zero states (whose
/// results are dropped), copying only the half that is short: the
/// dispatcher sends such a pass only with 33–63 blocks.
pub(super) fn permute(_: Avx512Gfni, blocks: &mut [[u8; BLOCK_BYTES]]) {
    let mut chunks = blocks.chunks_exact_mut(AVX512_STATES);
    for chunk in chunks.by_ref() {
        let (low, high) = chunk.split_at_mut(AVX2_STATES);
        if let (Ok(low), Ok(high)) = (low.try_into(), high.try_into()) {
            // SAFETY: the token exists only if AVX-512F, GFNI and AVX2 were
            // detected at run time.
            unsafe { permute_halves(low, high) };
        }
    }
    let rest = chunks.into_remainder();
    if rest.is_empty() {
        return;
    }
    let mut padded = [[0u8; BLOCK_BYTES]; AVX2_STATES];
    let short = match rest.split_first_chunk_mut::<AVX2_STATES>() {
        Some((low, short)) => {
            for (to, from) in padded.iter_mut().zip(short.iter()) {
                *to = *from;
            }
            // SAFETY: as above.
            unsafe { permute_halves(low, &mut padded) };
            short
        }
        None => {
            for (to, from) in padded.iter_mut().zip(rest.iter()) {
                *to = *from;
            }
            let mut zeros = [[0u8; BLOCK_BYTES]; AVX2_STATES];
            // SAFETY: as above.
            unsafe { permute_halves(&mut padded, &mut zeros) };
            zeros.as_flattened_mut().zeroize();
            rest
        }
    };
    for (to, from) in short.iter_mut().zip(&padded) {
        *to = *from;
    }
    padded.as_flattened_mut().zeroize();
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx512_gfni_or_fail, check};
    use crate::permutation::keccak_f200;

    /// The matrices rotate: checked on every byte value against
    /// `u8::rotate_left`, by evaluating the affine map by hand as
    /// `vgf2p8affineqb` defines it.
    #[test]
    fn rotation_matrices_rotate() {
        for (bits, &matrix) in (0u32..).zip(&ROTATE_LEFT) {
            let rows = matrix.to_le_bytes();
            for x in 0..=255u8 {
                let mut y = 0u8;
                for out in 0..8 {
                    let parity = (rows[7 - out] & x).count_ones() & 1;
                    y |= u8::from(parity == 1) << out;
                }
                assert_eq!(y, x.rotate_left(bits), "bits {bits} x {x:#04x}");
            }
        }
    }

    #[test]
    fn avx512_narrow_matches_the_reference() {
        if let Some(token) = avx512_gfni_or_fail() {
            check(
                "AVX-512VL Keccak-f[200]",
                AVX2_STATES,
                keccak_f200,
                |blocks| {
                    permute_narrow(token, blocks);
                },
            );
        }
    }

    #[test]
    fn avx512_matches_the_reference() {
        if let Some(token) = avx512_gfni_or_fail() {
            check(
                "AVX-512 Keccak-f[200]",
                AVX512_STATES,
                keccak_f200,
                |blocks| {
                    permute(token, blocks);
                },
            );
        }
    }
}
