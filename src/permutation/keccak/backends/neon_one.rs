//! NEON Keccak-f\[200\] of one state, in three vectors: the single-state
//! form on aarch64 (short messages, every tag).
//!
//! Row y of the state sits in bytes 8y … 8y + 4 of the 48 bytes of three
//! vectors (rows 0–1, 2–3, 4); the other bytes stay zero. θ folds the rows
//! with `eor`/`ext` and rotates the column parities along the row with
//! `tbl`; ρ rotates every byte by its own amount with two `ushl` (one
//! left, one right by a per-byte count) and an `orr`; π and the two row
//! shifts χ needs are `tbl` lookups over all three vectors at once; χ is
//! `bic` and `eor`. A `tbl` index is a constant, never the state, so the
//! time taken does not depend on the state.
//!
//! NEON is part of every aarch64 target this module is built for
//! (`target_feature = "neon"`); like `neon`, it needs no run-time
//! detection.

// The tables below are built by `const fn`s that index and count: every
// index is a loop counter or lane coordinate bounded by the array lengths,
// evaluated at compile time (an index out of bounds fails the build).
#![allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]

use crate::permutation::keccak::{RHO, ROUND_CONSTANTS};
use core::arch::aarch64::{
    int8x16_t, uint8x16_t, uint8x16x2_t, uint8x16x3_t, vbicq_u8, vdupq_n_u8, veorq_u8, vextq_u8,
    vld1q_s8, vld1q_u8, vorrq_u8, vqtbl1q_u8, vqtbl2q_u8, vqtbl3q_u8, vsetq_lane_u8, vshlq_u8,
    vshrq_n_u8, vsliq_n_u8, vst1q_u8,
};

// SAFETY (every `unsafe` block of this module that says "NEON"): the
// module is built only for aarch64 with `target_feature = "neon"`, so every
// NEON instruction is available; the register intrinsics have no other
// precondition.

/// A `tbl` index or shift count that selects nothing: a `tbl` gives 0 for
/// it, and as a shift count (−8) it shifts every bit out.
const NONE: u8 = 0xf8;

/// A constant per lane (lane (x, y) at `x + 5y`) laid out as the three
/// vectors: byte 8y + x of the 48, `NONE` in the unused bytes.
const fn layout(per_lane: [u8; 25]) -> [[u8; 16]; 3] {
    let mut out = [[NONE; 16]; 3];
    let mut lane = 0;
    while lane < 25 {
        let (x, y) = (lane % 5, lane / 5);
        out[y / 2][8 * (y % 2) + x] = per_lane[lane];
        lane += 1;
    }
    out
}

/// ρ's shift counts per lane: left by r, or (`right`) right by 8 − r,
/// written as the negative count −(8 − r) = r − 8 that `ushl` takes.
const fn rho(right: bool) -> [u8; 25] {
    let mut out = [0; 25];
    let mut lane = 0;
    while lane < 25 {
        let r = RHO[lane] as u8;
        out[lane] = if right { r.wrapping_sub(8) } else { r };
        lane += 1;
    }
    out
}

/// Left shift counts of ρ.
const RHO_LEFT: [[u8; 16]; 3] = layout(rho(false));

/// Right shift counts of ρ.
const RHO_RIGHT: [[u8; 16]; 3] = layout(rho(true));

/// Where each lane of π's output comes from, with χ's row shift `s`
/// applied (lane (x + s, y)): B\[X, Y\] = A\[(X + 3Y) mod 5, X\], at byte
/// 8X + (X + 3Y) mod 5 of the 48.
const fn pi(s: usize) -> [u8; 25] {
    let mut out = [0; 25];
    let mut lane = 0;
    while lane < 25 {
        let (x, y) = ((lane % 5 + s) % 5, lane / 5);
        out[lane] = (8 * x + (x + 3 * y) % 5) as u8;
        lane += 1;
    }
    out
}

/// `tbl` indices of π, then of π shifted by one and by two lanes along the
/// row (χ's B\[x + 1\] and B\[x + 2\]), per output vector.
const PI: [[[u8; 16]; 3]; 3] = [layout(pi(0)), layout(pi(1)), layout(pi(2))];

/// θ's column parities, with both halves of the vector holding C\[x\] at
/// byte x (and 8 + x): `tbl` indices of C\[x − 1\] and C\[x + 1\].
const THETA_BEFORE: [u8; 16] = [
    4, 0, 1, 2, 3, NONE, NONE, NONE, 4, 0, 1, 2, 3, NONE, NONE, NONE,
];
/// See [`THETA_BEFORE`].
const THETA_AFTER: [u8; 16] = [
    1, 2, 3, 4, 0, NONE, NONE, NONE, 1, 2, 3, 4, 0, NONE, NONE, NONE,
];

/// A block's bytes 0–15 (table bytes 0–15) and 9–24 (table bytes 16–31)
/// into the layout: block byte b is table byte b below 16, else b + 7.
const LOAD: [[u8; 16]; 3] = {
    let mut from = [0; 25];
    let mut byte = 0;
    while byte < 25 {
        from[byte] = (if byte < 16 { byte } else { byte + 7 }) as u8;
        byte += 1;
    }
    layout(from)
};

/// The layout back into bytes 0–15 and bytes 9–24 of a block: `tbl`
/// indices into the three vectors.
const STORE: [[u8; 16]; 2] = {
    let mut out = [[0; 16]; 2];
    let mut i = 0;
    while i < 16 {
        let (low, high) = (i, i + 9);
        out[0][i] = (8 * (low / 5) + low % 5) as u8;
        out[1][i] = (8 * (high / 5) + high % 5) as u8;
        i += 1;
    }
    out
};

/// Loads 16 constant bytes.
#[inline(always)]
fn constant(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: NEON; the reference makes all 16 bytes readable.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// Loads 16 constant bytes as shift counts.
#[inline(always)]
fn counts(bytes: &[u8; 16]) -> int8x16_t {
    // SAFETY: NEON; the reference makes all 16 bytes readable, and `i8`
    // has the layout of `u8`.
    unsafe { vld1q_s8(bytes.as_ptr().cast()) }
}

/// `a ⊕ b`.
#[inline(always)]
fn xor(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON.
    unsafe { veorq_u8(a, b) }
}

/// Bytes of the 48-byte table `t` picked by `index` (0 where ≥ 48).
#[inline(always)]
fn pick(t: [uint8x16_t; 3], index: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON.
    unsafe { vqtbl3q_u8(uint8x16x3_t(t[0], t[1], t[2]), index) }
}

/// Keccak-f\[200\] of one block.
#[inline(never)]
pub(super) fn permute_one(block: &mut [u8; 25]) {
    let (Some(first), Some(last)) = (block.first_chunk::<16>(), block.last_chunk::<16>()) else {
        return;
    };
    let rho_left = RHO_LEFT.each_ref().map(counts);
    let rho_right = RHO_RIGHT.each_ref().map(counts);
    let pi = PI
        .each_ref()
        .map(|indices| indices.each_ref().map(constant));
    let (before, after) = (constant(&THETA_BEFORE), constant(&THETA_AFTER));
    // SAFETY: NEON.
    let zero = unsafe { vdupq_n_u8(0) };
    let bytes = uint8x16x2_t(constant(first), constant(last));
    // SAFETY: NEON.
    let mut a = LOAD
        .each_ref()
        .map(|index| unsafe { vqtbl2q_u8(bytes, constant(index)) });
    for round_constant in ROUND_CONSTANTS {
        // θ: C in both halves of `c`, then D[x] = C[x − 1] ⊕ rotl(C[x + 1], 1).
        let c = xor(xor(a[0], a[1]), a[2]);
        // SAFETY: NEON.
        let d = unsafe {
            let c = veorq_u8(c, vextq_u8::<8>(c, c));
            let after = vqtbl1q_u8(c, after);
            veorq_u8(
                vqtbl1q_u8(c, before),
                vsliq_n_u8::<1>(vshrq_n_u8::<7>(after), after),
            )
        };
        // θ applied, then ρ: every byte by its own amount.
        let mut moved = [zero; 3];
        for (k, (to, from)) in moved.iter_mut().zip(a).enumerate() {
            let (Some(left), Some(right)) = (rho_left.get(k), rho_right.get(k)) else {
                continue;
            };
            let lane = xor(from, d);
            // SAFETY: NEON.
            *to = unsafe { vorrq_u8(vshlq_u8(lane, *left), vshlq_u8(lane, *right)) };
        }
        // π, and χ on its output: A = B ⊕ (¬B[x + 1] ∧ B[x + 2]).
        let [pi0, pi1, pi2] = pi;
        for (((to, b), b1), b2) in a.iter_mut().zip(pi0).zip(pi1).zip(pi2) {
            // SAFETY: NEON.
            *to = unsafe { veorq_u8(pick(moved, b), vbicq_u8(pick(moved, b2), pick(moved, b1))) };
        }
        // ι on lane (0, 0).
        // SAFETY: NEON.
        a[0] = xor(a[0], unsafe { vsetq_lane_u8::<0>(round_constant, zero) });
    }
    let [to_first, to_last] = STORE.each_ref().map(|index| pick(a, constant(index)));
    if let Some(first) = block.first_chunk_mut::<16>() {
        // SAFETY: NEON; the reference makes all 16 bytes writable.
        unsafe { vst1q_u8(first.as_mut_ptr(), to_first) };
    }
    if let Some(last) = block.last_chunk_mut::<16>() {
        // SAFETY: NEON; the reference makes all 16 bytes writable.
        unsafe { vst1q_u8(last.as_mut_ptr(), to_last) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::check;
    use crate::permutation::keccak_f200;

    #[test]
    fn one_state_matches_the_reference() {
        check("NEON one-state Keccak-f[200]", 1, keccak_f200, |blocks| {
            blocks.iter_mut().for_each(permute_one);
        });
    }
}
