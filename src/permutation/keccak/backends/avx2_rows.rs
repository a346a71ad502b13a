//! The way into and out of the 32-state Keccak-f\[200\] kernels on
//! 256-bit vectors, shared by the AVX2 kernel (`avx2`) and the AVX-512
//! one's narrow form (`avx512`, `permute_narrow`): 32 blocks as the rows
//! of a 32 × 32 byte matrix, and the transpose that turns those rows into
//! the 25 lane vectors and back.
//!
//! No memory is indexed by the data and every operation is a fixed
//! sequence, so the time taken does not depend on the states. The
//! vectors are [`Avx2Vector`]s, made only with the [`Avx2`] token.

use crate::permutation::cpu::Avx2;
use crate::permutation::simd::avx2::Avx2Vector;
use zeroize::Zeroize;

/// How many states one pass permutes: the bytes of a vector.
pub(super) const STATES: usize = 32;

/// Bytes of a vector, the row length of the transpose.
const VECTOR_BYTES: usize = 32;

/// Block size of Keccak-f\[200\].
const BLOCK_BYTES: usize = 25;

/// Interleaves the `BYTES`-byte units of `a` and `b` within each 128-bit
/// half: the low units into the first result, the high into the second.
#[inline(always)]
fn interleave<const BYTES: usize>(a: Avx2Vector, b: Avx2Vector) -> (Avx2Vector, Avx2Vector) {
    (a.unpack_lo::<BYTES>(b), a.unpack_hi::<BYTES>(b))
}

/// The first three stages of the transpose on a group of eight rows
/// (units of 1, 2 and 4 bytes, within each 128-bit half): afterwards each
/// 128-bit half of row r holds byte 2c of that half of the eight rows, then
/// byte 2c + 1 of them, with c the 3-bit reversal of r (see [`join_groups`]).
///
/// A group needs eight vectors and a temporary, so it runs in registers.
#[inline(always)]
fn transpose_group(x: [Avx2Vector; 8]) -> [Avx2Vector; 8] {
    let [x0, x1, x2, x3, x4, x5, x6, x7] = x;
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

/// Rows `r` of the four groups' results (`a`, `b`, `c`, `d`: the groups of
/// rows 0–7, 8–15, 16–23, 24–31), joined: columns 2c, 2c + 1, 2c + 16 and
/// 2c + 17 of the matrix, where row `r` of [`transpose_group`]'s result
/// gathers byte positions 2c and 2c + 1 of each 128-bit half, with c the
/// 3-bit reversal of r (0, 4, 2, 6, 1, 5, 3, 7 for r = 0..7).
#[inline(always)]
fn join_groups(a: Avx2Vector, b: Avx2Vector, c: Avx2Vector, d: Avx2Vector) -> [Avx2Vector; 4] {
    // The eight-byte stage: rows 0–15 (top) and 16–31 (bottom) of columns
    // 2c and 2c + 1 in the low halves, of 2c + 16 and 2c + 17 in the high.
    let (top_even, top_odd) = interleave::<8>(a, b);
    let (bottom_even, bottom_odd) = interleave::<8>(c, d);
    [
        top_even.halves::<0x20>(bottom_even),
        top_odd.halves::<0x20>(bottom_odd),
        top_even.halves::<0x31>(bottom_even),
        top_odd.halves::<0x31>(bottom_odd),
    ]
}

/// Transposes a 32 × 32 byte matrix held as 32 vectors: byte j of row i
/// becomes byte i of row j. Its own inverse, so it takes blocks to lanes
/// and lanes back to blocks.
///
/// Three interleave stages on each group of eight rows (in registers), a
/// fourth (eight-byte units) joining the two groups of each 16-row half,
/// and 128-bit permutes joining the halves: the standard network, ordered
/// so that little but the eight-row groups' results goes through memory.
/// Written out, every vector named: arrays built first and filled after
/// were zeroed first, with two `memset` calls per 32-state pass under
/// fat LTO.
#[inline(always)]
pub(super) fn transpose_32x32(rows: [Avx2Vector; 32]) -> [Avx2Vector; 32] {
    let [
        r0,
        r1,
        r2,
        r3,
        r4,
        r5,
        r6,
        r7,
        r8,
        r9,
        r10,
        r11,
        r12,
        r13,
        r14,
        r15,
        r16,
        r17,
        r18,
        r19,
        r20,
        r21,
        r22,
        r23,
        r24,
        r25,
        r26,
        r27,
        r28,
        r29,
        r30,
        r31,
    ] = rows;
    let [a0, a1, a2, a3, a4, a5, a6, a7] = transpose_group([r0, r1, r2, r3, r4, r5, r6, r7]);
    let [b0, b1, b2, b3, b4, b5, b6, b7] = transpose_group([r8, r9, r10, r11, r12, r13, r14, r15]);
    let [c0, c1, c2, c3, c4, c5, c6, c7] =
        transpose_group([r16, r17, r18, r19, r20, r21, r22, r23]);
    let [d0, d1, d2, d3, d4, d5, d6, d7] =
        transpose_group([r24, r25, r26, r27, r28, r29, r30, r31]);
    let [k0, k1, k16, k17] = join_groups(a0, b0, c0, d0);
    let [k8, k9, k24, k25] = join_groups(a1, b1, c1, d1);
    let [k4, k5, k20, k21] = join_groups(a2, b2, c2, d2);
    let [k12, k13, k28, k29] = join_groups(a3, b3, c3, d3);
    let [k2, k3, k18, k19] = join_groups(a4, b4, c4, d4);
    let [k10, k11, k26, k27] = join_groups(a5, b5, c5, d5);
    let [k6, k7, k22, k23] = join_groups(a6, b6, c6, d6);
    let [k14, k15, k30, k31] = join_groups(a7, b7, c7, d7);
    [
        k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18, k19,
        k20, k21, k22, k23, k24, k25, k26, k27, k28, k29, k30, k31,
    ]
}

/// The 32 blocks of `chunk` as the rows of a 32 × 32 byte matrix (block i
/// in bytes 0–24 of row i).
///
/// Rows 0–30 are read as 32-byte windows straight from the blocks (a window
/// runs 7 bytes into the next block: those bytes land in columns that no
/// lane uses); block 31 goes through a zeroed buffer so that nothing beyond
/// the chunk is read.
#[inline(always)]
pub(super) fn load_rows(avx2: Avx2, chunk: &[[u8; BLOCK_BYTES]; STATES]) -> [Avx2Vector; 32] {
    let mut rows = [Avx2Vector::zero(avx2); 32];
    // Windows start at 0, 25, …, 750: the 31 that end within the chunk.
    let windows = chunk
        .as_flattened()
        .windows(VECTOR_BYTES)
        .step_by(BLOCK_BYTES);
    for (row, window) in rows.iter_mut().zip(windows) {
        if let Ok(window) = window.try_into() {
            *row = Avx2Vector::load(avx2, window);
        }
    }
    if let (Some(block), Some(row)) = (chunk.last(), rows.last_mut()) {
        let mut last = [0u8; VECTOR_BYTES];
        for (to, from) in last.iter_mut().zip(block) {
            *to = *from;
        }
        *row = Avx2Vector::load(avx2, &last);
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
#[inline(always)]
pub(super) fn store_rows(chunk: &mut [[u8; BLOCK_BYTES]; STATES], rows: &[Avx2Vector; 32]) {
    let flat = chunk.as_flattened_mut();
    let starts = (0..).step_by(BLOCK_BYTES).take(STATES.wrapping_sub(1));
    for (start, row) in starts.zip(rows) {
        let window = flat
            .get_mut(start..)
            .and_then(|rest| rest.first_chunk_mut());
        if let Some(window) = window {
            row.store(window);
        }
    }
    if let (Some(block), Some(row)) = (chunk.last_mut(), rows.last()) {
        let mut last = [0u8; VECTOR_BYTES];
        row.store(&mut last);
        for (to, from) in block.iter_mut().zip(&last) {
            *to = *from;
        }
        last.as_mut_slice().zeroize();
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;
    use crate::permutation::backend_check::avx2_or_fail;

    #[test]
    #[allow(clippy::cast_possible_truncation)] // Filler bytes truncate on purpose.
    fn transpose_is_a_transpose() {
        let Some(avx2) = avx2_or_fail() else {
            return;
        };
        let mut rows = [[0u8; 32]; 32];
        for (i, row) in rows.iter_mut().enumerate() {
            for (j, byte) in row.iter_mut().enumerate() {
                *byte = (i * 32 + j).wrapping_mul(0x9e37_79b9) as u8 ^ (j as u8);
            }
        }
        let vectors = rows.map(|r| Avx2Vector::load(avx2, &r));
        let out = transpose_32x32(vectors).map(|v| {
            let mut bytes = [0u8; 32];
            v.store(&mut bytes);
            bytes
        });
        for i in 0..32 {
            for j in 0..32 {
                assert_eq!(out[j][i], rows[i][j], "row {i} col {j}");
            }
        }
    }
}
