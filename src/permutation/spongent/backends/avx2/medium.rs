//! Spongent-π on up to 64 states with the state's four quarters in the
//! lanes of AVX2 words: the AVX2 tier for medium batches, which the
//! 256-state kernel of the parent module would run mostly empty at the
//! cost of a full call.
//!
//! # Layout
//! With `Q = b/4` (40 or 44), bit `p` of state `s` is bit `s` of lane
//! `p / Q` of word `p mod Q`. The four bits of nibble `k` sit in lane
//! `k / (Q/4)` of the four words `4(k mod Q/4) ..`: a *slot* of four words
//! holds one nibble of every lane, and one S-box circuit on a slot's words
//! computes four S-boxes of 64 states.
//!
//! # Complements
//! Every word is kept complemented between rounds: the S-box of
//! complemented inputs ([`sbox_complemented`]) leaves outputs 1..3
//! complemented, and one NOT of output 0 makes all four so, 19 operations
//! against 20 for the true S-box. The round constants commute with it.
//!
//! # Getting in and out
//! Row `s` of a 64×64 bit matrix per lane holds quarter `l` of block `s`
//! in lane `l` (bits `Ql .. Ql + Q`); the parent's per-lane transpose
//! ([`transpose64`]) turns the rows into the words `0 .. Q` and back.
//!
//! Nothing is indexed by the state and nothing branches on it: the round
//! constants are words from a table indexed by the public round number.
//! The words are [`Avx2Vector`]s, made only with the [`Avx2`] token
//! (run-time detection); `unsafe` here is only the calls into the
//! `#[target_feature]` functions.
//!
//! More on the layout and the round, with what was measured: DESIGN.md,
//! "Kernel layouts in detail".

// Every index below is a constant (a slot, a lane, a word of the slot)
// within the fixed-size arrays it indexes, or a loop counter over them.
#![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::permutation::cpu::Avx2;
use crate::permutation::simd::avx2::Avx2Vector;
use crate::permutation::spongent::backends::soft64::transpose64;
use crate::permutation::spongent::sbox::{Bits, sbox_complemented};
use crate::permutation::spongent::{
    COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter,
};
use zeroize::Zeroize;

/// States one call permutes: the bits of a 64-bit lane.
pub(in crate::permutation::spongent::backends) const STATES: usize = 64;

/// Round `r`'s constant as lane words: entry `j` is all ones where bit `j`
/// of the round counter is set (it goes to state bits `j` and `b − 1 − j`).
#[allow(clippy::cast_possible_truncation)] // `r` counts rounds (below 128).
const fn round_lanes<const ROUNDS: usize>(counter: u8) -> [[u64; 8]; ROUNDS] {
    let mut table = [[0; 8]; ROUNDS];
    let mut counter = counter;
    let mut r = 0;
    while r < ROUNDS {
        let mut j = 0;
        while j < 7 {
            if (counter >> j) & 1 == 1 {
                table[r][j] = u64::MAX;
            }
            j += 1;
        }
        counter = next_counter(counter);
        r += 1;
    }
    table
}

/// [`round_lanes`] of Spongent-π\[160\].
static LANES_160: [[u64; 8]; ROUNDS_160] = round_lanes(COUNTER_160);
/// [`round_lanes`] of Spongent-π\[176\].
static LANES_176: [[u64; 8]; ROUNDS_176] = round_lanes(COUNTER_176);

/// Lane `l` of the row of `block`: its bits `Ql .. Ql + Q`.
#[inline(always)]
fn quarters<const BYTES: usize, const Q: usize>(avx2: Avx2, block: &[u8; BYTES]) -> Avx2Vector {
    let mut padded = [0u8; 32];
    padded[..BYTES].copy_from_slice(block);
    let mut lanes = [0u64; 4];
    for (l, lane) in lanes.iter_mut().enumerate() {
        let bit = l * Q;
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&padded[bit / 8..bit / 8 + 8]);
        *lane = (u64::from_le_bytes(bytes) >> (bit % 8)) & ((1 << Q) - 1);
    }
    Avx2Vector::from_u64s(avx2, lanes)
}

/// [`quarters`] reversed: the row's lanes back into `block`.
#[inline(always)]
fn write_quarters<const BYTES: usize, const Q: usize>(row: Avx2Vector, block: &mut [u8; BYTES]) {
    let mut words = [0u64; 4];
    for (l, quarter) in row.to_u64s().into_iter().enumerate() {
        let bit = l * Q;
        let (w, shift) = (bit / 64, bit % 64);
        words[w] |= quarter << shift;
        if shift + Q > 64 {
            words[w + 1] |= quarter >> (64 - shift);
        }
    }
    let mut bytes = [0u8; 32];
    for (to, word) in bytes.chunks_exact_mut(8).zip(words) {
        to.copy_from_slice(&word.to_le_bytes());
    }
    block.copy_from_slice(&bytes[..BYTES]);
}

/// Slot `S` of one round: the round constant on its words (lane 0 of words
/// `0..7`, lane 3 of words `Q − 7 .. Q`), the S-boxes, and the transpose
/// into the words `S + (Q/4)l` of `to`.
#[inline(always)]
fn slot<const Q: usize, const S: usize>(
    from: &[Avx2Vector; Q],
    to: &mut [Avx2Vector; Q],
    constants: &[u64; 8],
    [lane_0, lane_3]: [Avx2Vector; 2],
) {
    let avx2 = lane_0.token();
    // A plain loop, no closure (`from_fn`): left out of line, a closure
    // takes the AVX2 operations as calls (it lacks the target feature).
    let mut x = [
        from[4 * S],
        from[4 * S + 1],
        from[4 * S + 2],
        from[4 * S + 3],
    ];
    for (i, word) in x.iter_mut().enumerate() {
        let w = 4 * S + i;
        if w < 7 {
            *word = word.xor(Avx2Vector::splat_u64(avx2, constants[w]).and(lane_0));
        }
        if w + 7 >= Q {
            *word = word.xor(Avx2Vector::splat_u64(avx2, constants[Q - 1 - w]).and(lane_3));
        }
    }
    let [y0, y1, y2, y3] = sbox_complemented(x);
    let y0 = y0.not();
    let t0 = y0.unpack_lo::<8>(y1);
    let t1 = y0.unpack_hi::<8>(y1);
    let t2 = y2.unpack_lo::<8>(y3);
    let t3 = y2.unpack_hi::<8>(y3);
    let moved = [
        t0.halves::<0x20>(t2),
        t1.halves::<0x20>(t3),
        t0.halves::<0x31>(t2),
        t1.halves::<0x31>(t3),
    ];
    for (l, word) in moved.into_iter().enumerate() {
        to[S + Q / 4 * l] = word;
    }
}

/// One round, from `from` into `to`: every slot (`Q/4` of them, at most 11).
#[inline(always)]
fn round<const Q: usize>(
    from: &[Avx2Vector; Q],
    to: &mut [Avx2Vector; Q],
    constants: &[u64; 8],
    lanes: [Avx2Vector; 2],
) {
    macro_rules! slots {
        ($($s:literal)*) => {$(
            if $s < Q / 4 {
                slot::<Q, $s>(from, to, constants, lanes);
            }
        )*};
    }
    slots!(0 1 2 3 4 5 6 7 8 9 10);
}

/// Spongent-π on up to 64 blocks of `BYTES` bytes (`Q = 2 · BYTES`), one
/// round per entry of `rounds` (an even number).
#[inline(always)]
fn permute_x64<const BYTES: usize, const Q: usize>(
    avx2: Avx2,
    blocks: &mut [[u8; BYTES]],
    rounds: &[[u64; 8]],
) {
    let mut rows = [Avx2Vector::zero(avx2); STATES];
    for (row, block) in rows.iter_mut().zip(blocks.iter()) {
        *row = quarters::<BYTES, Q>(avx2, block);
    }
    transpose64(avx2, &mut rows);
    let mut other = [Avx2Vector::zero(avx2); Q];
    if let Some(state) = rows.first_chunk_mut::<Q>() {
        for word in state.iter_mut() {
            *word = word.not();
        }
        // Lanes 0 and 3 of a word, hidden from the compiler: with constant
        // masks it built the lane-3 round constants from two shuffles each,
        // and took lane 0 from the broadcast by a register `vmovq` that
        // valgrind (ct-check) cannot run.
        let lanes = core::hint::black_box([
            Avx2Vector::from_u64s(avx2, [u64::MAX, 0, 0, 0]),
            Avx2Vector::from_u64s(avx2, [0, 0, 0, u64::MAX]),
        ]);
        for pair in rounds.chunks_exact(2) {
            round(state, &mut other, &pair[0], lanes);
            round(&other, state, &pair[1], lanes);
        }
        for word in state.iter_mut() {
            *word = word.not();
        }
    }
    transpose64(avx2, &mut rows);
    for (row, block) in rows.iter().zip(blocks.iter_mut()) {
        write_quarters::<BYTES, Q>(*row, block);
    }
    rows.zeroize();
    other.zeroize();
}

/// Spongent-π\[160\] on up to 64 blocks.
///
/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn permute_160_x64(avx2: Avx2, blocks: &mut [[u8; 20]]) {
    permute_x64::<20, 40>(avx2, blocks, &LANES_160);
}

/// Spongent-π\[176\] on up to 64 blocks.
///
/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn permute_176_x64(avx2: Avx2, blocks: &mut [[u8; 22]]) {
    permute_x64::<22, 44>(avx2, blocks, &LANES_176);
}

/// Spongent-π\[160\] on every block, 64 at a time.
pub(in crate::permutation::spongent::backends) fn permute_160(avx2: Avx2, blocks: &mut [[u8; 20]]) {
    for chunk in blocks.chunks_mut(STATES) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_160_x64(avx2, chunk) };
    }
}

/// Spongent-π\[176\] on every block, 64 at a time.
pub(in crate::permutation::spongent::backends) fn permute_176(avx2: Avx2, blocks: &mut [[u8; 22]]) {
    for chunk in blocks.chunks_mut(STATES) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_176_x64(avx2, chunk) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx2_or_fail, check};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn avx2_lanes_matches_the_reference() {
        if let Some(avx2) = avx2_or_fail() {
            check(
                "AVX2 lanes Spongent-π[160]",
                STATES,
                spongent_pi_160,
                |blocks| {
                    permute_160(avx2, blocks);
                },
            );
            check(
                "AVX2 lanes Spongent-π[176]",
                STATES,
                spongent_pi_176,
                |blocks| {
                    permute_176(avx2, blocks);
                },
            );
        }
    }
}
