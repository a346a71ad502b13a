//! Spongent-π on one state in NEON vectors: the single-state tier on
//! aarch64 (short messages and every tag). The state sits in natural byte
//! order in two vectors (bytes 0–15, then the 4 or 6 bytes past them, the
//! rest zero). A round
//!
//! 1. XORs in the round constant (one table row: the counter, its
//!    reversal, and the complement below);
//! 2. regroups each 32-bit word (nibbles `8k .. 8k + 8`) so that its byte
//!    `t` holds bit `t` of those eight nibbles: two delta swaps of a
//!    byte-index bit with an in-byte bit, in all 32-bit lanes at once;
//! 3. gathers plane `t` (bit `t` of every nibble) from byte `t` of every
//!    word with one `tbl`, and applies the S-box to the four planes as a
//!    circuit (`sbox_plain`, the one of fewest levels: a round is one
//!    chain of dependent operations);
//! 4. concatenates the planes back into natural order with `tbl`: the bit
//!    permutation sends bit `t` of nibble `n` to `n + t·b/4`, so the new
//!    state is plane 0 ‖ plane 1 ‖ plane 2 ‖ plane 3 (for b = 176 the odd
//!    planes start half-way into a byte and are shifted first).
//!
//! Step 2 leaves the three in-byte index bits rotated; rather than undo
//! that every round, the in-byte bit order rotates with the round number
//! (three layouts, `layout`), and the constants and the swaps of each round
//! are those of its layout. The S-box leaves output planes 1..3
//! complemented; the round-constant rows include that complement, and the
//! state is complemented so once before the first round and once after the
//! last.
//!
//! Constant time: every `tbl` index and shift is a constant, and nothing
//! branches on the state. NEON is baseline on every aarch64 target this
//! is built for (`target_feature = "neon"`): no run-time detection.

use super::super::sbox::sbox_plain;
use super::super::{COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter};
use super::neon::Slice;
use core::arch::aarch64::{
    uint8x16_t, uint8x16x2_t, uint8x16x4_t, vbslq_u8, vdupq_n_u32, veorq_u8, vld1q_u8, vorrq_u8,
    vqtbl2q_u8, vqtbl4q_u8, vreinterpretq_u8_u32, vreinterpretq_u8_u64, vreinterpretq_u32_u8,
    vreinterpretq_u64_u8, vshlq_n_u8, vshlq_n_u32, vshlq_n_u64, vshrq_n_u8, vshrq_n_u32, vst1q_u8,
    vzip1q_u64,
};

// SAFETY (every `unsafe` block of this module): the module is built only for
// aarch64 with `target_feature = "neon"`, so every NEON instruction is
// available; the register intrinsics have no other precondition, and the
// loads and stores below read and write whole local `[u8; 16]` arrays.

/// Where in-byte bit `q` of the natural order is kept in layout `layout`
/// (0, 1 or 2): bit `j` of `q` goes to in-byte index bit `(j − layout) mod 3`.
const fn position(layout: usize, q: usize) -> usize {
    let mut at = 0;
    let mut j = 0;
    while j < 3 {
        if (q >> j) & 1 == 1 {
            at |= 1 << ((j + 3 * 3 - layout) % 3);
        }
        j += 1;
    }
    at
}

/// Sets natural state bit `bit` in a pair of vectors' bytes, kept in
/// layout `layout`.
const fn set_bit(row: &mut [[u8; 16]; 2], layout: usize, bit: usize) {
    let byte = bit / 8;
    row[byte / 16][byte % 16] |= 1 << position(layout, bit % 8);
}

/// The state bits that the S-box circuit leaves complemented (output planes
/// 1..3: bits `b/4 ..` of a `BYTES`-byte state), in layout `layout`.
const fn flip<const BYTES: usize>(layout: usize) -> [[u8; 16]; 2] {
    let mut row = [[0; 16]; 2];
    let mut bit = BYTES * 2;
    while bit < BYTES * 8 {
        set_bit(&mut row, layout, bit);
        bit += 1;
    }
    row
}

/// One row per round: the round constant (counter bit `k` on state bits `k`
/// and `b − 1 − k`) and [`flip`], in the round's layout (round `r` in
/// layout `r mod 3`).
const fn round_rows<const BYTES: usize, const ROUNDS: usize>(
    counter: u8,
) -> [[[u8; 16]; 2]; ROUNDS] {
    let mut table = [[[0; 16]; 2]; ROUNDS];
    let mut counter = counter;
    let mut round = 0;
    while round < ROUNDS {
        let layout = round % 3;
        let mut row = flip::<BYTES>(layout);
        let mut k = 0;
        while k < 7 {
            if (counter >> k) & 1 == 1 {
                let bits = [k, BYTES * 8 - 1 - k];
                let mut i = 0;
                while i < 2 {
                    let byte = bits[i] / 8;
                    row[byte / 16][byte % 16] ^= 1 << position(layout, bits[i] % 8);
                    i += 1;
                }
            }
            k += 1;
        }
        table[round] = row;
        counter = next_counter(counter);
        round += 1;
    }
    table
}

/// [`round_rows`] of Spongent-π\[160\].
static ROWS_160: [[[u8; 16]; 2]; ROUNDS_160] = round_rows::<20, ROUNDS_160>(COUNTER_160);
/// [`round_rows`] of Spongent-π\[176\].
static ROWS_176: [[[u8; 16]; 2]; ROUNDS_176] = round_rows::<22, ROUNDS_176>(COUNTER_176);

/// The 32-bit mask of the bits whose index has bit `high` clear and bit
/// `low` set: the lower side of a swap of index bits `low` and `high`.
const fn swap_mask(low: usize, high: usize) -> u32 {
    let mut mask = 0;
    let mut x = 0;
    while x < 32 {
        if (x >> high) & 1 == 0 && (x >> low) & 1 == 1 {
            mask |= 1 << x;
        }
        x += 1;
    }
    mask
}

/// `bit`: the bits of `from` where `mask` is set, the bits of `into`
/// elsewhere. Written out because the optimiser splits a bit select with
/// masks that it cannot build in a register into three instructions.
#[inline(always)]
pub(super) fn insert(into: uint8x16_t, from: uint8x16_t, mask: uint8x16_t) -> uint8x16_t {
    let mut into = into;
    // SAFETY: NEON (see the module's SAFETY note); the instruction only
    // reads and writes these registers.
    unsafe {
        core::arch::asm!(
            "bit {into:v}.16b, {from:v}.16b, {mask:v}.16b",
            into = inout(vreg) into,
            from = in(vreg) from,
            mask = in(vreg) mask,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    into
}

/// The S-box on four planes (`x0` the least significant input bit), for
/// the 128-state kernel (`neon`), in the form the bitsliced kernels keep:
/// `S(x) ⊕ 0b1110`, of true inputs, or `S(¬x) ⊕ 0b1110` where
/// `COMPLEMENTED`. Ten operations, four of them bit selects (`bsl`,
/// `bif`), against 17 for `sbox_plain`: with
/// `a = x0 ⊕ (x1 ∧ ¬x2)`, `y0 = x3 ⊕ a`, `y1 = x1 ⊕ (x3 ? x2 : a)`,
/// `y2 = x2 ⊕ (x3 ? a : x1)` and `y3 = x3 ⊕ ((x3 ? x2 : x1) ? y1 : y2)`.
/// Complemented inputs pass through it (`a` comes out complemented, each
/// select swaps its inputs or takes two complemented ones) but for one NOT
/// on `y3`. Written out because a select overwrites one of its operands
/// and the optimiser, ordering freely, copied one before most of them;
/// in this order only the first needs a copy (`mov`).
#[inline(always)]
pub(super) fn sbox<const COMPLEMENTED: bool>([x0, x1, x2, x3]: [uint8x16_t; 4]) -> [uint8x16_t; 4] {
    let [mut x0, mut x3] = [x0, x3];
    let (y0, y1);
    // SAFETY: NEON (see the module's SAFETY note); the instructions only
    // read and write these registers.
    unsafe {
        if COMPLEMENTED {
            core::arch::asm!(
                "bic {t:v}.16b, {x2:v}.16b, {x1:v}.16b",
                "eor {x0:v}.16b, {x0:v}.16b, {t:v}.16b",
                "eor {u:v}.16b, {x3:v}.16b, {x0:v}.16b",
                "mov {t:v}.16b, {x3:v}.16b",
                "bsl {t:v}.16b, {x0:v}.16b, {x2:v}.16b",
                "bit {x0:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "eor {t:v}.16b, {x1:v}.16b, {t:v}.16b",
                "eor {x0:v}.16b, {x2:v}.16b, {x0:v}.16b",
                "bit {x2:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "bsl {x2:v}.16b, {x0:v}.16b, {t:v}.16b",
                "eor {x3:v}.16b, {x3:v}.16b, {x2:v}.16b",
                "mvn {x3:v}.16b, {x3:v}.16b",
                x0 = inout(vreg) x0, x1 = in(vreg) x1, x2 = inout(vreg) x2 => _,
                x3 = inout(vreg) x3, t = out(vreg) y1, u = out(vreg) y0,
                options(pure, nomem, nostack, preserves_flags),
            );
        } else {
            core::arch::asm!(
                "bic {t:v}.16b, {x1:v}.16b, {x2:v}.16b",
                "eor {x0:v}.16b, {x0:v}.16b, {t:v}.16b",
                "eor {u:v}.16b, {x3:v}.16b, {x0:v}.16b",
                "mov {t:v}.16b, {x3:v}.16b",
                "bsl {t:v}.16b, {x2:v}.16b, {x0:v}.16b",
                "bif {x0:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "eor {t:v}.16b, {x1:v}.16b, {t:v}.16b",
                "eor {x0:v}.16b, {x2:v}.16b, {x0:v}.16b",
                "bif {x2:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "bsl {x2:v}.16b, {t:v}.16b, {x0:v}.16b",
                "eor {x3:v}.16b, {x3:v}.16b, {x2:v}.16b",
                x0 = inout(vreg) x0, x1 = in(vreg) x1, x2 = inout(vreg) x2 => _,
                x3 = inout(vreg) x3, t = out(vreg) y1, u = out(vreg) y0,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    }
    [y0, y1, x0, x3]
}

/// Swaps, in every 32-bit lane, the bits of `low` with those `S` places
/// higher (`high`, the same bits shifted): two shifts and two `bit`s.
#[inline(always)]
fn delta_swap_32<const S: i32>(x: uint8x16_t, [low, high]: [uint8x16_t; 2]) -> uint8x16_t {
    // SAFETY: NEON (see the module's SAFETY note).
    let (down, up) = unsafe {
        let words = vreinterpretq_u32_u8(x);
        (
            vreinterpretq_u8_u32(vshrq_n_u32::<S>(words)),
            vreinterpretq_u8_u32(vshlq_n_u32::<S>(words)),
        )
    };
    insert(insert(x, down, low), up, high)
}

/// Swaps, in every byte, the bits of `mask` with those `S` places higher.
#[inline(always)]
fn delta_swap_8<const S: i32>(x: uint8x16_t, mask: u8) -> uint8x16_t {
    // SAFETY: NEON (see the module's SAFETY note).
    unsafe {
        let down = vshrq_n_u8::<S>(x);
        let up = vshlq_n_u8::<S>(x);
        let low = core::arch::aarch64::vdupq_n_u8(mask);
        #[allow(clippy::cast_sign_loss)] // S is 1 or 2.
        let high = core::arch::aarch64::vdupq_n_u8(mask << (S as u32));
        vbslq_u8(high, up, vbslq_u8(low, down, x))
    }
}

/// `tbl` index rows gathering plane `t` of a `BYTES`-byte state from the
/// regrouped words: byte `k` of plane `t` is byte `t` of word `k`.
#[allow(clippy::cast_possible_truncation)] // Indices below 64.
const fn gather_index<const BYTES: usize>(t: usize) -> [u8; 16] {
    let mut index = [0xff; 16];
    let mut k = 0;
    while 4 * k < BYTES {
        index[k] = (4 * k + t) as u8;
        k += 1;
    }
    index
}

/// The state in natural order from the four planes of Spongent-π\[160\]
/// (each five bytes): byte `5t + k` is byte `k` of plane `t`.
#[allow(clippy::cast_possible_truncation)] // Indices below 64.
const fn concat_index_160() -> [[u8; 16]; 2] {
    let mut index = [[0xff; 16]; 2];
    let mut byte = 0;
    while byte < 20 {
        index[byte / 16][byte % 16] = (16 * (byte / 5) + byte % 5) as u8;
        byte += 1;
    }
    index
}

/// The state of Spongent-π\[176\] in natural order from planes 0 and 2
/// (the lanes of one vector, [`zip1`](vzip1q_u64)) and planes 1 and 3
/// shifted to their place in a byte (the lanes of the other, 16 bytes on):
/// byte `11u + k` is byte `k` of the first for `k` ≤ 5 (byte 5 holds both
/// planes' halves), then byte `k − 5` of the second.
#[allow(clippy::cast_possible_truncation)] // Indices below 64.
const fn concat_index_176() -> [[u8; 16]; 2] {
    let mut index = [[0xff; 16]; 2];
    let mut byte = 0;
    while byte < 22 {
        let (half, k) = (byte / 11, byte % 11);
        index[byte / 16][byte % 16] = if k <= 5 {
            (8 * half + k) as u8
        } else {
            (16 + 8 * half + k - 5) as u8
        };
        byte += 1;
    }
    index
}

/// The constant vectors of a kernel, loaded once per permutation.
struct Tables {
    /// [`gather_index`] of the four planes.
    gather: [uint8x16_t; 4],
    /// The `tbl` rows of the concatenation, for the two state vectors.
    concat: [uint8x16_t; 2],
    /// The masks of the two swaps of each layout ([`SWAPS`]), each with
    /// its copy shifted up.
    swaps: [[uint8x16_t; 2]; 6],
}

/// The swaps of step 2, as (in-byte index bit, byte-index bit, distance),
/// two per layout: index bit 4 with the in-byte bit that holds natural
/// bit 1, then index bit 3 with the one that holds natural bit 0.
const SWAPS: [(usize, usize, u32); 6] = [
    (1, 4, 14),
    (0, 3, 7),
    (0, 4, 15),
    (2, 3, 4),
    (2, 4, 12),
    (1, 3, 6),
];

impl Tables {
    #[inline(always)]
    fn new<const BYTES: usize>() -> Self {
        let concat = if BYTES == 20 {
            const { concat_index_160() }
        } else {
            const { concat_index_176() }
        };
        let gather = const {
            [
                gather_index::<BYTES>(0),
                gather_index::<BYTES>(1),
                gather_index::<BYTES>(2),
                gather_index::<BYTES>(3),
            ]
        };
        // SAFETY: NEON; each load reads a whole 16-byte array.
        unsafe {
            Self {
                gather: gather.map(|row| vld1q_u8(row.as_ptr())),
                concat: concat.map(|row| vld1q_u8(row.as_ptr())),
                swaps: (SWAPS.map(|(low, high, distance)| {
                    let mask = swap_mask(low, high);
                    [mask, mask << distance].map(|m| vreinterpretq_u8_u32(vdupq_n_u32(m)))
                })),
            }
        }
    }
}

/// One round on the natural-order state `[low, high]` kept in layout
/// `L`, leaving it in layout `L + 1` (mod 3); `row` is the round's
/// [`round_rows`] entry. `BYTES` picks the width (20 or 22).
#[inline(always)]
fn round<const BYTES: usize, const L: usize>(
    state: [uint8x16_t; 2],
    row: &[[u8; 16]; 2],
    tables: &Tables,
) -> [uint8x16_t; 2] {
    // SAFETY: NEON; the row loads read whole 16-byte arrays.
    unsafe {
        let [low, high] = state;
        let low = veorq_u8(low, vld1q_u8(row[0].as_ptr()));
        let high = veorq_u8(high, vld1q_u8(row[1].as_ptr()));
        let [first, second] = [tables.swaps[2 * L], tables.swaps[2 * L + 1]];
        let regroup = |x: uint8x16_t| match L {
            0 => delta_swap_32::<7>(delta_swap_32::<14>(x, first), second),
            1 => delta_swap_32::<4>(delta_swap_32::<15>(x, first), second),
            _ => delta_swap_32::<6>(delta_swap_32::<12>(x, first), second),
        };
        let words = uint8x16x2_t(regroup(low), regroup(high));
        let planes = tables.gather.map(|index| vqtbl2q_u8(words, index));
        // The 17-operation circuit rather than the 10-operation [`sbox`]:
        // a round is one chain of dependent operations, and llvm-mca
        // estimates this loop faster with the circuit of fewer levels
        // (DESIGN.md, "Spongent-π on aarch64").
        let [y0, y1, y2, y3] = sbox_plain(planes.map(Slice::from_bytes)).map(Slice::bytes);
        if BYTES == 20 {
            let planes = uint8x16x4_t(y0, y1, y2, y3);
            [
                vqtbl4q_u8(planes, tables.concat[0]),
                vqtbl4q_u8(planes, tables.concat[1]),
            ]
        } else {
            // Planes 1 and 3 start half-way into a byte: the nibbles of
            // each byte whose top index bit (in-byte index bit
            // `position(L + 1, 4)`) is clear move up within the byte, the
            // others down into the next byte.
            let even = vzip1q_u64(vreinterpretq_u64_u8(y0), vreinterpretq_u64_u8(y2));
            let odd = vzip1q_u64(vreinterpretq_u64_u8(y1), vreinterpretq_u64_u8(y3));
            let odd = match L {
                // Layout 1: in-byte index bit 1 holds natural bit 2.
                0 => vbslq_u8(
                    vreinterpretq_u8_u32(vdupq_n_u32(0xcccc_cccc)),
                    vreinterpretq_u8_u64(vshlq_n_u64::<2>(odd)),
                    vreinterpretq_u8_u64(vshlq_n_u64::<6>(odd)),
                ),
                // Layout 2: in-byte index bit 0.
                1 => vbslq_u8(
                    vreinterpretq_u8_u32(vdupq_n_u32(0xaaaa_aaaa)),
                    vreinterpretq_u8_u64(vshlq_n_u64::<1>(odd)),
                    vreinterpretq_u8_u64(vshlq_n_u64::<7>(odd)),
                ),
                // Layout 0: in-byte index bit 2.
                _ => vbslq_u8(
                    vreinterpretq_u8_u32(vdupq_n_u32(0xf0f0_f0f0)),
                    vreinterpretq_u8_u64(vshlq_n_u64::<4>(odd)),
                    vreinterpretq_u8_u64(vshlq_n_u64::<4>(odd)),
                ),
            };
            // The byte that planes 2u and 2u + 1 share (byte 5 of the
            // first) takes both halves.
            let even = vorrq_u8(
                vreinterpretq_u8_u64(even),
                vreinterpretq_u8_u64(vshlq_n_u64::<40>(vreinterpretq_u64_u8(odd))),
            );
            let planes = uint8x16x2_t(even, odd);
            [
                vqtbl2q_u8(planes, tables.concat[0]),
                vqtbl2q_u8(planes, tables.concat[1]),
            ]
        }
    }
}

/// Spongent-π of one `BYTES`-byte block: `ROUNDS` rounds by the rows of
/// `rows`.
#[inline(always)]
fn permute<const BYTES: usize, const ROUNDS: usize>(
    block: &mut [u8; BYTES],
    rows: &[[[u8; 16]; 2]; ROUNDS],
) {
    let tables = Tables::new::<BYTES>();
    let mut bytes = [[0u8; 16]; 2];
    for (to, from) in bytes.iter_mut().flatten().zip(block.iter()) {
        *to = *from;
    }
    let flip_in = const { flip::<BYTES>(0) };
    // SAFETY: NEON; the loads and stores read and write whole 16-byte
    // arrays.
    let mut state = unsafe {
        [0, 1].map(|i| veorq_u8(vld1q_u8(bytes[i].as_ptr()), vld1q_u8(flip_in[i].as_ptr())))
    };
    let mut triples = rows.chunks_exact(3);
    for triple in triples.by_ref() {
        if let [r0, r1, r2] = triple {
            state = round::<BYTES, 0>(state, r0, &tables);
            state = round::<BYTES, 1>(state, r1, &tables);
            state = round::<BYTES, 2>(state, r2, &tables);
        }
    }
    // Spongent-π[160]'s 80 rounds end with two more (layouts 0 and 1),
    // leaving layout 2: its in-byte index bits back to natural order.
    let rest = triples.remainder();
    if let [r0, r1] = rest {
        state = round::<BYTES, 0>(state, r0, &tables);
        state = round::<BYTES, 1>(state, r1, &tables);
    }
    let flip_out = if rest.is_empty() {
        const { flip::<BYTES>(0) }
    } else {
        const { flip::<BYTES>(2) }
    };
    // SAFETY: as above.
    unsafe {
        for (i, vector) in state.iter_mut().enumerate() {
            *vector = veorq_u8(*vector, vld1q_u8(flip_out[i].as_ptr()));
            if rest.len() == 2 {
                // Layout 2 keeps natural bits 0, 1, 2 at index bits 1,
                // 2, 0: swap index bits 0 and 1, then 1 and 2.
                *vector = delta_swap_8::<1>(*vector, 0x22);
                *vector = delta_swap_8::<2>(*vector, 0x0c);
            }
            vst1q_u8(bytes[i].as_mut_ptr(), *vector);
        }
    }
    for (to, from) in block.iter_mut().zip(bytes.iter().flatten()) {
        *to = *from;
    }
    zeroize::Zeroize::zeroize(&mut bytes);
}

/// Spongent-π\[160\] on one block.
pub(super) fn permute_160(block: &mut [u8; 20]) {
    permute(block, &ROWS_160);
}

/// Spongent-π\[176\] on one block.
pub(super) fn permute_176(block: &mut [u8; 22]) {
    permute(block, &ROWS_176);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::check;
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn neon_one_matches_the_reference() {
        check("NEON one Spongent-π[160]", 1, spongent_pi_160, |b| {
            b.iter_mut().for_each(permute_160);
        });
        check("NEON one Spongent-π[176]", 1, spongent_pi_176, |b| {
            b.iter_mut().for_each(permute_176);
        });
    }

    #[test]
    #[allow(clippy::cast_possible_truncation)] // Nibbles.
    fn sbox_is_the_sbox_up_to_complements() {
        const S: [u8; 16] = [0xE, 0xD, 0xB, 0, 2, 1, 4, 0xF, 7, 0xA, 8, 5, 9, 0xC, 3, 6];
        // Byte x of plane i is bit i of x (0 or 0xff).
        let planes = |complement: u8| {
            [0, 1, 2, 3].map(|i| {
                let bytes: [u8; 16] =
                    core::array::from_fn(|x| (((x as u8 ^ complement) >> i) & 1).wrapping_neg());
                // SAFETY: NEON; the load reads a whole 16-byte array.
                unsafe { vld1q_u8(bytes.as_ptr()) }
            })
        };
        for (complemented, y) in [
            (false, sbox::<false>(planes(0))),
            (true, sbox::<true>(planes(0xf))),
        ] {
            let mut out = [0u8; 16];
            for (i, plane) in y.into_iter().enumerate() {
                let mut bytes = [0u8; 16];
                // SAFETY: NEON; the store writes a whole 16-byte array.
                unsafe { vst1q_u8(bytes.as_mut_ptr(), plane) };
                for (nibble, byte) in out.iter_mut().zip(bytes) {
                    assert!(byte == 0 || byte == 0xff, "plane {i}: {byte:x}");
                    *nibble |= (byte & 1) << i;
                }
            }
            let expected: [u8; 16] = core::array::from_fn(|x| S[x] ^ 0xe);
            assert_eq!(out, expected, "complemented: {complemented}");
        }
    }

    #[test]
    fn layouts_return_to_natural_order_after_three_rounds() {
        for q in 0..8 {
            assert_eq!(position(0, q), q);
            assert_eq!(position(1, position(1, position(1, q))), q);
        }
    }
}
