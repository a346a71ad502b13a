//! AVX2 Keccak-f\[200\]: 32 states byte-sliced in 256-bit vectors, the round
//! function of `keccak/round.rs` on a vector [`Word`].
//!
//! Lane (x, y) of 32 independent states sits in the 32 bytes of one vector.
//! Blocks go in and out through a 32 × 32 byte transpose built from
//! in-register unpacks (no memory is indexed by the data). Every operation
//! is a fixed sequence independent of the data, so the time taken does not
//! depend on the states.
//!
//! Its `unsafe` (the AVX2 intrinsics) stays in this module: the entry
//! point [`permute`] takes the [`Avx2`] token, which only run-time
//! detection gives.

use super::super::super::cpu::Avx2;
use super::super::round::{Word, rounds};
use core::arch::x86_64::{
    __m256i, _mm_set_epi64x, _mm256_add_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_avg_epu8, _mm256_cmpgt_epi8, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set1_epi8, _mm256_setzero_si256, _mm256_sll_epi64,
    _mm256_slli_epi64, _mm256_srl_epi64, _mm256_storeu_si256, _mm256_sub_epi8,
    _mm256_unpackhi_epi8, _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi8, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    _mm256_xor_si256,
};
use zeroize::Zeroize;

/// How many states one AVX2 pass permutes: the bytes of a vector.
pub(super) const AVX2_STATES: usize = 32;

/// Bytes of a vector, the row length of the transpose.
const VECTOR_BYTES: usize = 32;

/// Block size of Keccak-f\[200\].
const BLOCK_BYTES: usize = 25;

/// Lane (x, y) of 32 states, one byte per state.
///
/// Invariant: values of this type exist only inside [`permute_chunk`], an
/// AVX2 function that runs only under an [`Avx2`] token, and inside the
/// AVX-512 backend's 32-state kernel, which enables AVX2 and runs only
/// under its own token; so AVX2 is available whenever a method of this type
/// runs.
#[derive(Clone, Copy)]
pub(super) struct Lanes32(pub(super) __m256i);

impl Word for Lanes32 {
    #[inline(always)]
    fn splat(byte: u8) -> Self {
        // SAFETY: AVX2 is available (type invariant of `Lanes32`).
        Self(unsafe { _mm256_set1_epi8(i8::from_ne_bytes([byte])) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (type invariant of `Lanes32`).
        Self(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (type invariant of `Lanes32`).
        Self(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (type invariant of `Lanes32`).
        Self(unsafe { _mm256_or_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (type invariant of `Lanes32`).
        Self(unsafe { _mm256_andnot_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        // SAFETY: AVX2 is available (type invariant of `Lanes32`). The count
        // is a constant after inlining, so this becomes an immediate shift.
        Self(unsafe { _mm256_sll_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) })
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        // SAFETY: as for `shl`.
        Self(unsafe { _mm256_srl_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) })
    }
    /// Rotation by one (θ, and three lanes of ρ): `x + x` is the byte-wise
    /// shift, and subtracting the "top bit set" mask (−1 where the signed
    /// byte is negative) adds the wrapped bit. Rotation by seven (three
    /// lanes of ρ) by a byte average; other amounts by shifts and masks.
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        if bits == 1 {
            // SAFETY: AVX2 is available (type invariant of `Lanes32`).
            Self(unsafe {
                let negative = _mm256_cmpgt_epi8(_mm256_setzero_si256(), self.0);
                _mm256_sub_epi8(_mm256_add_epi8(self.0, self.0), negative)
            })
        } else if bits == 7 {
            // A rotation right by one: the byte average `(x + m + 1) >> 1`
            // with m = 0xff where x is odd (its low bit moved to the sign by
            // a shift, then compared) is `x >> 1` with that bit on top.
            // SAFETY: AVX2 is available (type invariant of `Lanes32`).
            Self(unsafe {
                let odd = _mm256_cmpgt_epi8(_mm256_setzero_si256(), _mm256_slli_epi64::<7>(self.0));
                _mm256_avg_epu8(self.0, odd)
            })
        } else {
            let back = 8u32.wrapping_sub(bits);
            let high = self.shl(bits).and(Self::splat(u8::MAX.wrapping_shl(bits)));
            let low = self.shr(back).and(Self::splat(u8::MAX.wrapping_shr(back)));
            high.or(low)
        }
    }
}

/// Interleaves the `BYTES`-byte units of `a` and `b` within each 128-bit
/// half: the low units into the first result, the high into the second.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
unsafe fn interleave<const BYTES: usize>(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // SAFETY: AVX2 is available (the caller's contract).
    unsafe {
        match BYTES {
            1 => (_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b)),
            2 => (_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)),
            4 => (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b)),
            _ => (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)),
        }
    }
}

/// The first three stages of the transpose on a group of eight rows
/// (units of 1, 2 and 4 bytes, within each 128-bit half): afterwards each
/// 128-bit half of row r holds byte 2c of that half of the eight rows, then
/// byte 2c + 1 of them, with c = [`GROUP_PAIRS`]\[r\].
///
/// A group needs eight vectors and a temporary, so it runs in registers.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
unsafe fn transpose_group(x: [__m256i; 8]) -> [__m256i; 8] {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = x;
    // SAFETY: AVX2 is available (the caller's contract).
    unsafe {
        let (t0, t1) = interleave::<1>(x0, x1);
        let (t2, t3) = interleave::<1>(x2, x3);
        let (t4, t5) = interleave::<1>(x4, x5);
        let (t6, t7) = interleave::<1>(x6, x7);
        let (u0, u2) = interleave::<2>(t0, t2);
        let (u1, u3) = interleave::<2>(t1, t3);
        let (u4, u6) = interleave::<2>(t4, t6);
        let (u5, u7) = interleave::<2>(t5, t7);
        let (v0, v4) = interleave::<4>(u0, u4);
        let (v1, v5) = interleave::<4>(u1, u5);
        let (v2, v6) = interleave::<4>(u2, u6);
        let (v3, v7) = interleave::<4>(u3, u7);
        [v0, v1, v2, v3, v4, v5, v6, v7]
    }
}

/// Which pair of byte positions (2c, 2c + 1) of each 128-bit half row r of
/// [`transpose_group`]'s result gathers: c for r = 0..7.
const GROUP_PAIRS: [usize; 8] = [0, 4, 2, 6, 1, 5, 3, 7];

/// Transposes a 32 × 32 byte matrix held as 32 vectors: byte j of row i
/// becomes byte i of row j. Its own inverse, so it takes blocks to lanes
/// and lanes back to blocks.
///
/// Three interleave stages on each group of eight rows (in registers), a
/// fourth (eight-byte units) joining the two groups of each 16-row half,
/// and 128-bit permutes joining the halves: the standard network, ordered
/// so that little but the eight-row groups' results goes through memory.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
pub(super) unsafe fn transpose_32x32(rows: [__m256i; 32]) -> [__m256i; 32] {
    // SAFETY: AVX2 is available (the caller's contract).
    let zero = unsafe { _mm256_setzero_si256() };
    let mut groups = [[zero; 8]; 4];
    for (group, from) in groups.iter_mut().zip(rows.chunks_exact(8)) {
        if let Ok(from) = from.try_into() {
            // SAFETY: AVX2 is available (the caller's contract).
            *group = unsafe { transpose_group(from) };
        }
    }
    let [g0, g1, g2, g3] = groups;
    let mut columns = [zero; 32];
    for (r, &pair) in GROUP_PAIRS.iter().enumerate() {
        let (Some(&a), Some(&b), Some(&c), Some(&d)) = (g0.get(r), g1.get(r), g2.get(r), g3.get(r))
        else {
            continue;
        };
        // SAFETY: AVX2 is available (the caller's contract).
        let (top_even, top_odd, bottom_even, bottom_odd) = unsafe {
            let (top_even, top_odd) = interleave::<8>(a, b);
            let (bottom_even, bottom_odd) = interleave::<8>(c, d);
            (top_even, top_odd, bottom_even, bottom_odd)
        };
        // Columns 2c and 2c + 1 of rows 0–15 (top) and 16–31 (bottom) in
        // the low halves, columns 2c + 16 and 2c + 17 in the high halves.
        let column = pair.wrapping_mul(2);
        for (column, top, bottom) in [
            (column, top_even, bottom_even),
            (column.wrapping_add(1), top_odd, bottom_odd),
        ] {
            // SAFETY: AVX2 is available (the caller's contract).
            let (low, high) = unsafe {
                (
                    _mm256_permute2x128_si256::<0x20>(top, bottom),
                    _mm256_permute2x128_si256::<0x31>(top, bottom),
                )
            };
            if let Some(to) = columns.get_mut(column) {
                *to = low;
            }
            if let Some(to) = columns.get_mut(column.wrapping_add(16)) {
                *to = high;
            }
        }
    }
    columns
}

/// An all-zero vector.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
unsafe fn zero() -> __m256i {
    // SAFETY: AVX2 is available (the caller's contract).
    unsafe { _mm256_setzero_si256() }
}

/// Loads 32 bytes.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
unsafe fn load(bytes: &[u8; VECTOR_BYTES]) -> __m256i {
    // SAFETY: the reference makes all 32 bytes readable; the load is
    // unaligned; AVX2 is available (the caller's contract).
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Stores 32 bytes.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
unsafe fn store(bytes: &mut [u8; VECTOR_BYTES], value: __m256i) {
    // SAFETY: the reference makes all 32 bytes writable; the store is
    // unaligned; AVX2 is available (the caller's contract).
    unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), value) }
}

/// The 32 blocks of `chunk` as the rows of a 32 × 32 byte matrix (block i
/// in bytes 0–24 of row i).
///
/// Rows 0–30 are read as 32-byte windows straight from the blocks (a window
/// runs 7 bytes into the next block: those bytes land in columns that no
/// lane uses); block 31 goes through a zeroed buffer so that nothing beyond
/// the chunk is read.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
pub(super) unsafe fn load_rows(chunk: &[[u8; BLOCK_BYTES]; AVX2_STATES]) -> [__m256i; 32] {
    // SAFETY: AVX2 is available (the caller's contract); the same holds for
    // every `unsafe` block below that says "see above".
    let mut rows = [unsafe { zero() }; 32];
    // Windows start at 0, 25, …, 750: the 31 that end within the chunk.
    let windows = chunk
        .as_flattened()
        .windows(VECTOR_BYTES)
        .step_by(BLOCK_BYTES);
    for (row, window) in rows.iter_mut().zip(windows) {
        if let Ok(window) = window.try_into() {
            // SAFETY: see above.
            *row = unsafe { load(window) };
        }
    }
    if let (Some(block), Some(row)) = (chunk.last(), rows.last_mut()) {
        let mut last = [0u8; VECTOR_BYTES];
        for (to, from) in last.iter_mut().zip(block) {
            *to = *from;
        }
        // SAFETY: see above.
        *row = unsafe { load(&last) };
        last.as_mut_slice().zeroize();
    }
    rows
}

/// Stores bytes 0–24 of each row into its block of `chunk`, the inverse of
/// [`load_rows`].
///
/// Rows 0–30 are written as 32-byte windows in ascending order (a window's
/// last 7 bytes fall into the next block, whose own store comes after and
/// overwrites them); block 31 goes through a buffer so that nothing beyond
/// the chunk is written.
///
/// # Safety
/// AVX2 must be available.
#[inline(always)]
pub(super) unsafe fn store_rows(
    chunk: &mut [[u8; BLOCK_BYTES]; AVX2_STATES],
    rows: &[__m256i; 32],
) {
    let flat = chunk.as_flattened_mut();
    let starts = (0..).step_by(BLOCK_BYTES).take(AVX2_STATES.wrapping_sub(1));
    for (start, row) in starts.zip(rows) {
        let window = flat
            .get_mut(start..)
            .and_then(|rest| rest.first_chunk_mut());
        if let Some(window) = window {
            // SAFETY: AVX2 is available (the caller's contract).
            unsafe { store(window, *row) };
        }
    }
    if let (Some(block), Some(row)) = (chunk.last_mut(), rows.last()) {
        let mut last = [0u8; VECTOR_BYTES];
        // SAFETY: AVX2 is available (the caller's contract).
        unsafe { store(&mut last, *row) };
        for (to, from) in block.iter_mut().zip(&last) {
            *to = *from;
        }
        last.as_mut_slice().zeroize();
    }
}

/// Keccak-f\[200\] of 32 blocks: load them as rows, transpose to lanes, run
/// the rounds, transpose back, store.
///
/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn permute_chunk(chunk: &mut [[u8; BLOCK_BYTES]; AVX2_STATES]) {
    // Intrinsics are called through the helpers above only: inside this
    // `target_feature` function newer compilers treat them as safe and
    // older ones (MSRV) as unsafe, and the helpers need `unsafe` on both.
    //
    // SAFETY: AVX2 is available (the caller's contract); the same holds for
    // every `unsafe` block below that says "see above".
    let columns = unsafe { transpose_32x32(load_rows(chunk)) };
    // Built in place: a `map` from the vectors was an out-of-line copy.
    // SAFETY: see above.
    let mut lanes = [Lanes32(unsafe { zero() }); 25];
    for (to, from) in lanes.iter_mut().zip(columns) {
        *to = Lanes32(from);
    }
    let lanes = rounds(lanes);
    // SAFETY: see above.
    let mut columns = [unsafe { zero() }; 32];
    for (to, from) in columns.iter_mut().zip(lanes) {
        *to = from.0;
    }
    // SAFETY: see above.
    unsafe { store_rows(chunk, &transpose_32x32(columns)) };
}

/// Keccak-f\[200\] of every block, 32 states at a time; the last chunk is
/// filled up with zero states whose results are dropped.
pub(super) fn permute(_: Avx2, blocks: &mut [[u8; BLOCK_BYTES]]) {
    let mut chunks = blocks.chunks_exact_mut(AVX2_STATES);
    for chunk in chunks.by_ref() {
        if let Ok(chunk) = chunk.try_into() {
            // SAFETY: the token exists only if AVX2 was detected at run time.
            unsafe { permute_chunk(chunk) };
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut padded = [[0u8; BLOCK_BYTES]; AVX2_STATES];
        for (to, from) in padded.iter_mut().zip(rest.iter()) {
            *to = *from;
        }
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_chunk(&mut padded) };
        for (to, from) in rest.iter_mut().zip(&padded) {
            *to = *from;
        }
        padded.as_flattened_mut().zeroize();
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx2_or_fail, check};
    use crate::permutation::keccak_f200;

    #[test]
    #[allow(clippy::cast_possible_truncation)] // Filler bytes truncate on purpose.
    fn transpose_is_a_transpose() {
        if avx2_or_fail().is_none() {
            return;
        }
        let mut rows = [[0u8; 32]; 32];
        for (i, row) in rows.iter_mut().enumerate() {
            for (j, byte) in row.iter_mut().enumerate() {
                *byte = (i * 32 + j).wrapping_mul(0x9e37_79b9) as u8 ^ (j as u8);
            }
        }
        // SAFETY: AVX2 was detected above.
        let out = unsafe {
            let vectors = rows.map(|r| load(&r));
            let t = transpose_32x32(vectors);
            t.map(|v| {
                let mut bytes = [0u8; 32];
                store(&mut bytes, v);
                bytes
            })
        };
        for i in 0..32 {
            for j in 0..32 {
                assert_eq!(out[j][i], rows[i][j], "row {i} col {j}");
            }
        }
    }

    #[test]
    fn avx2_matches_the_reference() {
        if let Some(token) = avx2_or_fail() {
            check("AVX2 Keccak-f[200]", AVX2_STATES, keccak_f200, |blocks| {
                permute(token, blocks);
            });
        }
    }
}
