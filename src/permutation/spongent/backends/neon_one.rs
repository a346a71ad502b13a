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
//! branches on the state. The vectors are [`NeonVector`]s
//! (`permutation::simd::neon`): NEON is baseline on every aarch64 target
//! this is built for, so no run-time detection guards them.

use crate::permutation::simd::neon::NeonVector;
use crate::permutation::spongent::sbox::sbox_plain;
use crate::permutation::spongent::{
    COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter,
};

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

/// Swaps, in every 32-bit lane, the bits of `low` with those `S` places
/// higher (`high`, the same bits shifted): two shifts and two `bit`s.
#[inline(always)]
fn delta_swap_32<const S: i32>(x: NeonVector, [low, high]: [NeonVector; 2]) -> NeonVector {
    let (down, up) = (x.shr_u32::<S>(), x.shl_u32::<S>());
    x.insert(down, low).insert(up, high)
}

/// Swaps, in every byte, the bits of `mask` with those `S` places higher.
#[inline(always)]
fn delta_swap_8<const S: i32>(x: NeonVector, mask: u8) -> NeonVector {
    let down = x.shr_u8::<S>();
    let up = x.shl_u8::<S>();
    let low = NeonVector::splat_u8(mask);
    #[allow(clippy::cast_sign_loss)] // S is 1 or 2.
    let high = NeonVector::splat_u8(mask << (S as u32));
    high.select(up, low.select(down, x))
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
/// (the lanes of one vector, [`zip1`](NeonVector::zip1_u64)) and planes 1 and 3
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
    gather: [NeonVector; 4],
    /// The `tbl` rows of the concatenation, for the two state vectors.
    concat: [NeonVector; 2],
    /// The masks of the two swaps of each layout ([`SWAPS`]), each with
    /// its copy shifted up.
    swaps: [[NeonVector; 2]; 6],
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
        Self {
            gather: gather.map(|row| NeonVector::load(&row)),
            concat: concat.map(|row| NeonVector::load(&row)),
            swaps: (SWAPS.map(|(low, high, distance)| {
                let mask = swap_mask(low, high);
                [mask, mask << distance].map(NeonVector::splat_u32)
            })),
        }
    }
}

/// One round on the natural-order state `[low, high]` kept in layout
/// `L`, leaving it in layout `L + 1` (mod 3); `row` is the round's
/// [`round_rows`] entry. `BYTES` picks the width (20 or 22).
#[inline(always)]
fn round<const BYTES: usize, const L: usize>(
    state: [NeonVector; 2],
    row: &[[u8; 16]; 2],
    tables: &Tables,
) -> [NeonVector; 2] {
    let [low, high] = state;
    let [row_low, row_high] = row;
    let low = low ^ NeonVector::load(row_low);
    let high = high ^ NeonVector::load(row_high);
    let [first, second] = [tables.swaps[2 * L], tables.swaps[2 * L + 1]];
    let regroup = |x: NeonVector| match L {
        0 => delta_swap_32::<7>(delta_swap_32::<14>(x, first), second),
        1 => delta_swap_32::<4>(delta_swap_32::<15>(x, first), second),
        _ => delta_swap_32::<6>(delta_swap_32::<12>(x, first), second),
    };
    let words = [regroup(low), regroup(high)];
    let planes = tables.gather.map(|index| index.lookup_2(words));
    // The 17-operation circuit rather than the 10-operation bit-select one
    // (`neon_sbox::sbox`): a round is one chain of dependent operations,
    // and llvm-mca estimates this loop faster with the circuit of fewer
    // levels (DESIGN.md, "Spongent-π on aarch64").
    let [y0, y1, y2, y3] = sbox_plain(planes);
    let [concat_low, concat_high] = tables.concat;
    if BYTES == 20 {
        let planes = [y0, y1, y2, y3];
        [concat_low.lookup_4(planes), concat_high.lookup_4(planes)]
    } else {
        // Planes 1 and 3 start half-way into a byte: the nibbles of
        // each byte whose top index bit (in-byte index bit
        // `position(L + 1, 4)`) is clear move up within the byte, the
        // others down into the next byte.
        let even = y0.zip1_u64(y2);
        let odd = y1.zip1_u64(y3);
        let odd = match L {
            // Layout 1: in-byte index bit 1 holds natural bit 2.
            0 => NeonVector::splat_u32(0xcccc_cccc).select(odd.shl_u64::<2>(), odd.shl_u64::<6>()),
            // Layout 2: in-byte index bit 0.
            1 => NeonVector::splat_u32(0xaaaa_aaaa).select(odd.shl_u64::<1>(), odd.shl_u64::<7>()),
            // Layout 0: in-byte index bit 2.
            _ => NeonVector::splat_u32(0xf0f0_f0f0).select(odd.shl_u64::<4>(), odd.shl_u64::<4>()),
        };
        // The byte that planes 2u and 2u + 1 share (byte 5 of the
        // first) takes both halves.
        let even = even | odd.shl_u64::<40>();
        let planes = [even, odd];
        [concat_low.lookup_2(planes), concat_high.lookup_2(planes)]
    }
}

/// One state vector after the last round: `flip` (the complement the
/// S-box left) removed, and where the rounds end in `layout_2`, its
/// in-byte bits put back in natural order. Straight-line code for each
/// vector: a loop over the two was left a loop.
#[inline(always)]
fn finish(vector: NeonVector, flip: &[u8; 16], layout_2: bool) -> NeonVector {
    let vector = vector ^ NeonVector::load(flip);
    if layout_2 {
        // Layout 2 keeps natural bits 0, 1, 2 at index bits 1, 2, 0: swap
        // index bits 0 and 1, then 1 and 2.
        delta_swap_8::<2>(delta_swap_8::<1>(vector, 0x22), 0x0c)
    } else {
        vector
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
    let [flip_low, flip_high] = const { flip::<BYTES>(0) };
    let [bytes_low, bytes_high] = &bytes;
    let mut state = [
        NeonVector::load(bytes_low) ^ NeonVector::load(&flip_low),
        NeonVector::load(bytes_high) ^ NeonVector::load(&flip_high),
    ];
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
    let [low, high] = state;
    let [flip_low, flip_high] = &flip_out;
    let [bytes_low, bytes_high] = &mut bytes;
    finish(low, flip_low, rest.len() == 2).store(bytes_low);
    finish(high, flip_high, rest.len() == 2).store(bytes_high);
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
    fn layouts_return_to_natural_order_after_three_rounds() {
        for q in 0..8 {
            assert_eq!(position(0, q), q);
            assert_eq!(position(1, position(1, position(1, q))), q);
        }
    }
}
