//! NEON Keccak-f\[200\]: 16 states byte-sliced in 128-bit vectors, the
//! round of `keccak/round.rs` on a vector [`Word`], in an order of its own
//! that keeps the live vectors near the 32 registers ([`round`]).
//!
//! Lane (x, y) of 16 independent states sits in the 16 bytes of one vector
//! (25 of the 32 registers). A rotation is two instructions (`ushr`, then
//! `sli` inserting the shifted-left copy), χ's `¬b ∧ c` one (`bic`). Blocks
//! go in and out through 16 × 16 byte transposes of `zip1`/`zip2`: no memory
//! is indexed by the data and every operation is a fixed sequence, so the
//! time taken does not depend on the states.
//!
//! The vectors are [`NeonVector`]s (`permutation::simd::neon`, which holds
//! the intrinsics): NEON is part of every aarch64 target this module is
//! built for, so no run-time detection guards it.

use crate::permutation::keccak::ROUND_CONSTANTS;
use crate::permutation::keccak::round::Word;
use crate::permutation::simd::neon::NeonVector;
use zeroize::Zeroize;

/// How many states one NEON pass permutes: the bytes of a vector.
pub(super) const NEON_STATES: usize = 16;

/// Block size of Keccak-f\[200\].
const BLOCK_BYTES: usize = 25;

/// Lane (x, y) of 16 states, one byte per state.
impl Word for NeonVector {
    type Token = ();
    #[inline(always)]
    fn token(self) {}
    #[inline(always)]
    fn splat((): (), byte: u8) -> Self {
        NeonVector::splat_u8(byte)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    /// `bic`: `other ∧ ¬self`.
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        NeonVector::andnot(self, other)
    }
    /// Byte-wise shift (`ushl` by a splatted count; bits cannot cross into
    /// a neighbouring byte).
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        self.shl_u8_by(i8::try_from(bits).unwrap_or(8))
    }
    /// Byte-wise shift right (`ushl` by a negative count).
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        self.shl_u8_by(i8::try_from(bits).unwrap_or(8).wrapping_neg())
    }
    /// Two instructions: the wrapped-around bits by `ushr`, then `sli`
    /// shifts the byte left and inserts it above them. The count is a
    /// constant after inlining, so the `match` disappears.
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let x = self;
        match bits & 7 {
            1 => x.shr_u8::<7>().shift_left_insert::<1>(x),
            2 => x.shr_u8::<6>().shift_left_insert::<2>(x),
            3 => x.shr_u8::<5>().shift_left_insert::<3>(x),
            4 => x.shr_u8::<4>().shift_left_insert::<4>(x),
            5 => x.shr_u8::<3>().shift_left_insert::<5>(x),
            6 => x.shr_u8::<2>().shift_left_insert::<6>(x),
            7 => x.shr_u8::<1>().shift_left_insert::<7>(x),
            _ => x,
        }
    }
}

/// One round θ, ρ, π, χ on the 25 lanes (lane (x, y) at `x + 5y`), with
/// the previous round's ι first: the round of `keccak/round.rs` in an order
/// that keeps the live vectors near 32, so that few go through the stack.
///
/// θ's five parities, then each D\[x\] in turn applied to its column, in
/// the order x = 0, 2, 4, 1, 3 that frees a parity after each D but the
/// first (fewer spills than 0, 1, 2, 3, 4: DESIGN.md, "Lockstep packets on
/// aarch64"); then ρ and π row by row of the output, each row's χ as soon
/// as its five lanes are rotated. ι (the previous round's constant on
/// lane (0, 0)) comes first, where nothing else is live, not after χ,
/// where the constant's vector would be.
#[inline(always)]
fn round(state: [NeonVector; 25], previous_constant: NeonVector) -> [NeonVector; 25] {
    let [
        a00,
        a10,
        a20,
        a30,
        a40,
        a01,
        a11,
        a21,
        a31,
        a41,
        a02,
        a12,
        a22,
        a32,
        a42,
        a03,
        a13,
        a23,
        a33,
        a43,
        a04,
        a14,
        a24,
        a34,
        a44,
    ] = state;
    let a00 = a00.xor(previous_constant);
    // θ: C[x], then D[x] = C[x − 1] ⊕ rotl(C[x + 1], 1) onto column x,
    // for x = 0, 2, 4, 1, 3.
    let c0 = a00.xor3(a01, a02).xor3(a03, a04);
    let c1 = a10.xor3(a11, a12).xor3(a13, a14);
    let c2 = a20.xor3(a21, a22).xor3(a23, a24);
    let c3 = a30.xor3(a31, a32).xor3(a33, a34);
    let c4 = a40.xor3(a41, a42).xor3(a43, a44);
    let d = c4.xor(c1.rotl(1));
    let [a00, a01, a02, a03, a04] = [a00, a01, a02, a03, a04].map(|a| a.xor(d));
    let d = c1.xor(c3.rotl(1));
    let [a20, a21, a22, a23, a24] = [a20, a21, a22, a23, a24].map(|a| a.xor(d));
    let d = c3.xor(c0.rotl(1));
    let [a40, a41, a42, a43, a44] = [a40, a41, a42, a43, a44].map(|a| a.xor(d));
    let d = c0.xor(c2.rotl(1));
    let [a10, a11, a12, a13, a14] = [a10, a11, a12, a13, a14].map(|a| a.xor(d));
    let d = c2.xor(c4.rotl(1));
    let [a30, a31, a32, a33, a34] = [a30, a31, a32, a33, a34].map(|a| a.xor(d));
    // ρ and π: B[y, 2x + 3y] = rotl(A[x, y], r[x + 5y]), one output row at
    // a time, then χ on it: A[x, y] = B[x, y] ⊕ (¬B[x + 1, y] ∧ B[x + 2, y]).
    let [o00, o10, o20, o30, o40] = chi([a00, a11.rotl(4), a22.rotl(3), a33.rotl(5), a44.rotl(6)]);
    let [o01, o11, o21, o31, o41] = chi([
        a30.rotl(4),
        a41.rotl(4),
        a02.rotl(3),
        a13.rotl(5),
        a24.rotl(5),
    ]);
    let [o02, o12, o22, o32, o42] = chi([a10.rotl(1), a21.rotl(6), a32.rotl(1), a43, a04.rotl(2)]);
    let [o03, o13, o23, o33, o43] = chi([a40.rotl(3), a01.rotl(4), a12.rotl(2), a23.rotl(7), a34]);
    let [o04, o14, o24, o34, o44] = chi([
        a20.rotl(6),
        a31.rotl(7),
        a42.rotl(7),
        a03.rotl(1),
        a14.rotl(2),
    ]);
    [
        o00, o10, o20, o30, o40, o01, o11, o21, o31, o41, o02, o12, o22, o32, o42, o03, o13, o23,
        o33, o43, o04, o14, o24, o34, o44,
    ]
}

/// χ on one row.
#[inline(always)]
fn chi([b0, b1, b2, b3, b4]: [NeonVector; 5]) -> [NeonVector; 5] {
    [
        b0.chi(b1, b2),
        b1.chi(b2, b3),
        b2.chi(b3, b4),
        b3.chi(b4, b0),
        b4.chi(b0, b1),
    ]
}

/// The 18 rounds of Keccak-f\[200\], three a loop step (fewer moves where
/// the loop carries the lanes back than one, two or six a step: DESIGN.md,
/// "Lockstep packets on aarch64"); each round's ι is applied at the start
/// of the next one, the last after the loop.
#[inline(always)]
fn rounds(mut state: [NeonVector; 25]) -> [NeonVector; 25] {
    let mut previous = 0;
    for triple in ROUND_CONSTANTS.chunks_exact(3) {
        if let [first, second, third] = *triple {
            state = round(state, NeonVector::splat_u8(previous));
            state = round(state, NeonVector::splat_u8(first));
            state = round(state, NeonVector::splat_u8(second));
            previous = third;
        }
    }
    let [a00, rest @ ..] = state;
    let mut out = [a00.xor(NeonVector::splat_u8(previous)); 25];
    if let Some(to) = out.get_mut(1..) {
        to.copy_from_slice(&rest);
    }
    out
}

/// One stage of the transpose network: rows 2i and 2i + 1 interleave
/// their `BYTES`-byte units into rows i (low units) and i + 8 (high
/// units).
#[inline(always)]
fn interleave_stage<const BYTES: usize>(rows: [NeonVector; 16]) -> [NeonVector; 16] {
    let mut out = rows;
    let (low, high) = out.split_at_mut(8);
    for ((low, high), pair) in low.iter_mut().zip(high).zip(rows.chunks_exact(2)) {
        if let [a, b] = *pair {
            [*low, *high] = a.zip::<BYTES>(b);
        }
    }
    out
}

/// Transposes a 16 × 16 byte matrix held as 16 vectors: byte j of row i
/// becomes byte i of row j. Its own inverse.
///
/// Four interleave stages (units of 1, 2, 4, 8 bytes) move the bits of the
/// row number into the byte position; the rows come out in bit-reversed
/// order, which the final renaming undoes.
#[inline(always)]
fn transpose_16x16(rows: [NeonVector; 16]) -> [NeonVector; 16] {
    let rows = interleave_stage::<1>(rows);
    let rows = interleave_stage::<2>(rows);
    let rows = interleave_stage::<4>(rows);
    let [
        y0,
        y1,
        y2,
        y3,
        y4,
        y5,
        y6,
        y7,
        y8,
        y9,
        y10,
        y11,
        y12,
        y13,
        y14,
        y15,
    ] = interleave_stage::<8>(rows);
    [
        y0, y8, y4, y12, y2, y10, y6, y14, y1, y9, y5, y13, y3, y11, y7, y15,
    ]
}

/// Loads a block's first row, bytes 0–15.
#[inline(always)]
fn load_low(block: &[u8; BLOCK_BYTES]) -> NeonVector {
    let [row @ .., _, _, _, _, _, _, _, _, _] = block;
    NeonVector::load(row)
}

/// Loads a block's second row, bytes 9–24.
#[inline(always)]
fn load_high(block: &[u8; BLOCK_BYTES]) -> NeonVector {
    let [_, _, _, _, _, _, _, _, _, row @ ..] = block;
    NeonVector::load(row)
}

/// Stores a block's first row, bytes 0–15.
#[inline(always)]
fn store_low(block: &mut [u8; BLOCK_BYTES], value: NeonVector) {
    let [row @ .., _, _, _, _, _, _, _, _, _] = block;
    value.store(row);
}

/// Stores a block's second row, bytes 9–24.
#[inline(always)]
fn store_high(block: &mut [u8; BLOCK_BYTES], value: NeonVector) {
    let [_, _, _, _, _, _, _, _, _, row @ ..] = block;
    value.store(row);
}

/// Keccak-f\[200\] of 16 blocks.
///
/// Each block is read as two overlapping rows, bytes 0–15 and bytes 9–24
/// (nothing outside the block is touched); their transposes give lanes 0–15
/// and, in vectors 7–15, lanes 16–24. The way out is the mirror image: the
/// second row's vectors 0–6 are lanes 9–15 again, so the overlapping stores
/// write those bytes twice with the same values. Every lane is a named
/// value from the loads to the stores, so none goes through memory.
#[inline(never)]
fn permute_chunk(chunk: &mut [[u8; BLOCK_BYTES]; NEON_STATES]) {
    let [
        l0,
        l1,
        l2,
        l3,
        l4,
        l5,
        l6,
        l7,
        l8,
        l9,
        l10,
        l11,
        l12,
        l13,
        l14,
        l15,
    ] = transpose_16x16(chunk.each_ref().map(load_low));
    let [
        _,
        _,
        _,
        _,
        _,
        _,
        _,
        l16,
        l17,
        l18,
        l19,
        l20,
        l21,
        l22,
        l23,
        l24,
    ] = transpose_16x16(chunk.each_ref().map(load_high));
    let lanes = rounds([
        l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19,
        l20, l21, l22, l23, l24,
    ]);
    let [
        l0,
        l1,
        l2,
        l3,
        l4,
        l5,
        l6,
        l7,
        l8,
        l9,
        l10,
        l11,
        l12,
        l13,
        l14,
        l15,
        l16,
        l17,
        l18,
        l19,
        l20,
        l21,
        l22,
        l23,
        l24,
    ] = lanes;
    let low = transpose_16x16([
        l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15,
    ]);
    let high = transpose_16x16([
        l9, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24,
    ]);
    for ((block, low), high) in chunk.iter_mut().zip(low).zip(high) {
        store_low(block, low);
        store_high(block, high);
    }
}

/// Keccak-f\[200\] of every block, 16 states at a time; the last chunk is
/// filled up with zero states whose results are dropped.
pub(super) fn permute(blocks: &mut [[u8; BLOCK_BYTES]]) {
    let mut chunks = blocks.chunks_exact_mut(NEON_STATES);
    for chunk in chunks.by_ref() {
        if let Ok(chunk) = chunk.try_into() {
            permute_chunk(chunk);
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut padded = [[0u8; BLOCK_BYTES]; NEON_STATES];
        for (to, from) in padded.iter_mut().zip(rest.iter()) {
            *to = *from;
        }
        permute_chunk(&mut padded);
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
    use crate::permutation::backend_check::check;
    use crate::permutation::keccak_f200;

    fn load(bytes: &[u8; 16]) -> NeonVector {
        NeonVector::load(bytes)
    }

    fn store(bytes: &mut [u8; 16], value: NeonVector) {
        value.store(bytes);
    }

    #[test]
    #[allow(clippy::cast_possible_truncation)] // Filler bytes truncate on purpose.
    fn transpose_is_a_transpose() {
        let mut rows = [[0u8; 16]; 16];
        for (i, row) in rows.iter_mut().enumerate() {
            for (j, byte) in row.iter_mut().enumerate() {
                *byte = (i * 16 + j).wrapping_mul(0x9e37_79b9) as u8 ^ (j as u8);
            }
        }
        let out = transpose_16x16(rows.map(|r| load(&r))).map(|v| {
            let mut bytes = [0u8; 16];
            store(&mut bytes, v);
            bytes
        });
        for i in 0..16 {
            for j in 0..16 {
                assert_eq!(out[j][i], rows[i][j], "row {i} col {j}");
            }
        }
    }

    #[test]
    #[allow(clippy::cast_possible_truncation)] // Filler bytes truncate on purpose.
    fn rotations_match_the_integer_ones() {
        let bytes: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0xa5);
        for bits in 1..8 {
            let mut out = [0u8; 16];
            store(&mut out, load(&bytes).rotl(bits));
            assert_eq!(out, bytes.map(|b| b.rotate_left(bits)), "{bits}");
        }
    }

    #[test]
    fn neon_matches_the_reference() {
        check("NEON Keccak-f[200]", NEON_STATES, keccak_f200, permute);
    }
}
