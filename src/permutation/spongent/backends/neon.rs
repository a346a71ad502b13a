//! Spongent-π on 128 states bitsliced in NEON vectors, two rounds per pass
//! over memory: the batch tier on aarch64.
//!
//! Bit `i` of 128 states sits in one vector (states `64l ..` in 64-bit lane
//! `l`, so the 64×64 transposes of [`soft64`](super::soft64) take blocks in
//! and out lane by lane). In bitsliced form the bit permutation is a
//! renaming of words, and the outputs of S-boxes `4m .. 4m + 4` of one
//! round are the whole inputs of S-boxes `m`, `m + G`, `m + 2G`, `m + 3G` of
//! the next (`G` = b/16 groups): a pass loads the 16 words of group `m`,
//! applies both rounds' S-boxes in registers and stores the 16 results at
//! their places two rounds on, which halves the loads and stores of a round
//! per pass (DESIGN.md, "Spongent-π on aarch64").
//!
//! As in `soft64`, quarters 1..3 of the state stay complemented between
//! rounds (the two variants of [`neon_sbox::sbox`] leave their outputs so).
//! Nothing branches on or indexes by the state: the branches are on the
//! public group, nibble and round numbers. The words are
//! [`NeonVector`]s (`permutation::simd::neon`: NEON is part of every
//! aarch64 target this module is built for).

use super::neon_sbox;
use super::soft64::{Word, read_row, write_row};
use crate::permutation::simd::neon::NeonVector;
use crate::permutation::spongent::sbox::Bits;
use crate::permutation::spongent::{
    COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter,
};

/// Blocks one kernel call permutes.
pub(super) const WIDTH: usize = 128;

/// 128 bit slices: lane `l` holds states `64l .. 64l + 64`.
impl Word for NeonVector {
    type Token = ();
    #[inline(always)]
    fn zero((): ()) -> Self {
        NeonVector::splat_u64(0)
    }
    #[inline(always)]
    fn splat((): (), bits: u64) -> Self {
        NeonVector::splat_u64(bits)
    }
    #[inline(always)]
    fn shl<const S: i32>(self) -> Self {
        self.shl_u64::<S>()
    }
    #[inline(always)]
    fn shr<const S: i32>(self) -> Self {
        self.shr_u64::<S>()
    }
    #[inline(always)]
    fn from_lanes((): (), mut lane: impl FnMut(usize) -> u64) -> Self {
        let [l0, l1] = [lane(0), lane(1)];
        NeonVector::from_u64s(l0, l1)
    }
    /// The `bsl` circuit of [`neon_sbox::sbox`] instead of the portable one.
    #[inline(always)]
    fn plain_sbox(x: [Self; 4]) -> [Self; 4] {
        neon_sbox::sbox::<false>(x)
    }
    /// As [`Word::plain_sbox`].
    #[inline(always)]
    fn complemented_sbox(x: [Self; 4]) -> [Self; 4] {
        neon_sbox::sbox::<true>(x)
    }
    #[inline(always)]
    fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
        for (l, value) in self.to_u64s().into_iter().enumerate() {
            sink(l, value);
        }
    }
}

/// One stage of [`transpose`]: `swap` on rows `r` and `r + J` for every
/// `r` with bit `J` clear.
#[inline(always)]
fn stage<const J: usize>(
    rows: &mut [NeonVector],
    swap: impl Fn(NeonVector, NeonVector) -> [NeonVector; 2],
) {
    for pair in rows.chunks_exact_mut(2 * J) {
        let (top, bottom) = pair.split_at_mut(J);
        for (a, b) in top.iter_mut().zip(bottom) {
            [*a, *b] = swap(*a, *b);
        }
    }
}

/// Transposes the 64×64 bit matrix in each lane of 64 words, in place, as
/// [`transpose64`](super::soft64::transpose64) does with masks and shifts:
/// the stages that trade whole 32-, 16- and 8-bit units are `trn1`/`trn2`,
/// the 4-bit one `sli`/`sri`, the last two shifts and `bit` inserts.
#[inline(always)]
fn transpose(rows: &mut [NeonVector]) {
    stage::<32>(rows, |a, b| a.trn::<4>(b));
    stage::<16>(rows, |a, b| a.trn::<2>(b));
    stage::<8>(rows, |a, b| a.trn::<1>(b));
    stage::<4>(rows, |a, b| {
        [a.shift_left_insert::<4>(b), b.shift_right_insert::<4>(a)]
    });
    stage::<2>(rows, |a, b| {
        [
            a.insert(b.shl_u8::<2>(), NeonVector::splat_u8(0xcc)),
            b.insert(a.shr_u8::<2>(), NeonVector::splat_u8(0x33)),
        ]
    });
    stage::<1>(rows, |a, b| {
        [
            a.insert(b.shl_u8::<1>(), NeonVector::splat_u8(0xaa)),
            b.insert(a.shr_u8::<1>(), NeonVector::splat_u8(0x55)),
        ]
    });
}

/// Words of bitsliced state: three 64-bit columns of every block.
const SLICES: usize = 192;

/// The three 8-byte rows of a block as little-endian words (the last one
/// zero-filled past the end of the block): the 64-bit kernel's
/// [`read_row`] of each column.
#[inline(always)]
fn rows_of<const BYTES: usize>(block: &[u8; BYTES]) -> [u64; 3] {
    [
        read_row::<0, BYTES>(block),
        read_row::<1, BYTES>(block),
        read_row::<2, BYTES>(block),
    ]
}

/// Writes three 8-byte rows back to a block (the inverse of [`rows_of`]).
#[inline(always)]
fn write_rows<const BYTES: usize>(block: &mut [u8; BYTES], [row0, row1, row2]: [u64; 3]) {
    write_row::<0, BYTES>(block, row0);
    write_row::<1, BYTES>(block, row1);
    write_row::<2, BYTES>(block, row2);
}

/// The round constant on bit slices: word `k` of `masks` is all ones where
/// counter bit `k` is set.
#[inline(always)]
fn counter_masks(counter: u8) -> [NeonVector; 7] {
    #[allow(clippy::cast_possible_truncation)] // k < 7.
    core::array::from_fn(|k| {
        // Bit k of the counter, spread over the whole word (`sbfx`).
        let bit = (i64::from(counter) << (63 - k as u32)) >> 63;
        #[allow(clippy::cast_sign_loss)] // A bit pattern.
        NeonVector::splat_u64(bit as u64)
    })
}

/// XORs `masks[first + k]` into word `k` of `words`, or into word
/// `len − 1 − k` where `reversed`.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
// first + k < 7 at every call below.
fn add_counter(words: &mut [NeonVector], masks: &[NeonVector; 7], first: usize, reversed: bool) {
    let count = words.len();
    for (k, word) in words.iter_mut().enumerate() {
        let k = if reversed { count - 1 - k } else { k };
        *word = word.xor(masks[first + k]);
    }
}

/// The S-box of one nibble, `plain` or of complemented inputs (`plain` is
/// a constant wherever this is inlined).
#[inline(always)]
fn sbox(x: [NeonVector; 4], plain: bool) -> [NeonVector; 4] {
    if plain {
        NeonVector::plain_sbox(x)
    } else {
        NeonVector::complemented_sbox(x)
    }
}

/// Where a group takes round constants: in the first round on group 0's
/// first seven words (`first_low`) or the last group's last seven
/// (`first_high`); in the second round on nibble 0 (`SECOND_0`), 1, 4G − 2
/// or 4G − 1.
#[derive(Clone, Copy)]
struct Constants {
    first_low: bool,
    first_high: bool,
    second: u8,
}

/// [`Constants::second`]: none, or which nibble.
const SECOND_NONE: u8 = 0;
const SECOND_0: u8 = 1;
const SECOND_1: u8 = 2;
const SECOND_LAST_BUT_ONE: u8 = 3;
const SECOND_LAST: u8 = 4;

/// A group that takes no round constant.
const NO_CONSTANTS: Constants = Constants {
    first_low: false,
    first_high: false,
    second: SECOND_NONE,
};

/// Two rounds of group `m` (its 16 words of `from`) into their 16 places of
/// `to`: the first round's nibble `4m + i` is plain where bit `i` of
/// `plain` is set; `constants` says where the counters `counter` and
/// `next` go. Every argument but `m` and the counters is a constant where
/// this is inlined.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
// Every index is below 16·GROUPS = b, the length of `from` and `to`: the
// group number m < GROUPS, nibble and bit numbers < 4.
fn group<const GROUPS: usize>(
    from: &[NeonVector],
    to: &mut [NeonVector],
    m: usize,
    plain: u8,
    constants: Constants,
    [counter, next]: &[[NeonVector; 7]; 2],
) {
    // An empty `asm!` that may touch memory: a scheduling boundary, which
    // keeps the optimiser from interleaving the straight-line groups of a
    // pass (their 16 words each, live together, spill).
    // SAFETY: it executes no instruction.
    unsafe { core::arch::asm!("", options(nostack, preserves_flags)) };
    let mut words = [NeonVector::zero(()); 16];
    words.copy_from_slice(&from[16 * m..16 * m + 16]);
    // Round constant of the first round: counter bit k on slices k and
    // b − 1 − k.
    if constants.first_low {
        add_counter(&mut words[..4], counter, 0, false);
        add_counter(&mut words[4..7], counter, 4, false);
    }
    if constants.first_high {
        add_counter(&mut words[12..], counter, 0, true);
        add_counter(&mut words[9..12], counter, 4, true);
    }
    // First round: nibbles 4m + i; output bit j of nibble 4m + i is input
    // bit i of nibble G·j + m of the second round.
    let mut second = [[NeonVector::zero(()); 4]; 4];
    for i in 0..4 {
        let x = [
            words[4 * i],
            words[4 * i + 1],
            words[4 * i + 2],
            words[4 * i + 3],
        ];
        let y = sbox(x, (plain >> i) & 1 == 1);
        for j in 0..4 {
            second[j][i] = y[j];
        }
    }
    match constants.second {
        SECOND_0 => add_counter(&mut second[0], next, 0, false),
        SECOND_1 => add_counter(&mut second[0][..3], next, 4, false),
        SECOND_LAST_BUT_ONE => add_counter(&mut second[3][1..], next, 4, true),
        SECOND_LAST => add_counter(&mut second[3], next, 0, true),
        _ => {}
    }
    // Second round: nibble G·j + m, plain for j = 0 only; its output bit
    // l goes to slice G·j + m + (b/4)·l.
    for (j, x) in second.into_iter().enumerate() {
        let z = sbox(x, j == 0);
        for (l, word) in z.into_iter().enumerate() {
            to[GROUPS * j + m + 4 * GROUPS * l] = word;
        }
    }
}

/// Two rounds from `from` into `to` (both `b` = 16·`GROUPS` words), with
/// counters `counter` and `next`; in the `FIRST` pass every input is a
/// true value, after it quarters 1..3 are complemented.
#[inline(never)]
fn two_rounds<const GROUPS: usize, const FIRST: bool>(
    from: &[NeonVector],
    to: &mut [NeonVector],
    counters: [u8; 2],
) {
    let counters = &counters.map(counter_masks);
    let all = if FIRST { 0xf } else { 0 };
    let first_low = Constants {
        first_low: true,
        second: SECOND_0,
        ..NO_CONSTANTS
    };
    group::<GROUPS>(from, to, 0, 0xf, first_low, counters);
    let one = Constants {
        second: SECOND_1,
        ..NO_CONSTANTS
    };
    group::<GROUPS>(from, to, 1, 0xf, one, counters);
    // Group 2 holds nibbles 8..12: those below G (quarter 0) are plain.
    let plain_2 = all | ((1u8 << GROUPS.wrapping_sub(8)).wrapping_sub(1) & 0xf);
    group::<GROUPS>(from, to, 2, plain_2, NO_CONSTANTS, counters);
    for m in 3..GROUPS.wrapping_sub(2) {
        group::<GROUPS>(from, to, m, all, NO_CONSTANTS, counters);
    }
    let last_but_one = Constants {
        second: SECOND_LAST_BUT_ONE,
        ..NO_CONSTANTS
    };
    group::<GROUPS>(
        from,
        to,
        GROUPS.wrapping_sub(2),
        all,
        last_but_one,
        counters,
    );
    let last = Constants {
        first_high: true,
        second: SECOND_LAST,
        ..NO_CONSTANTS
    };
    group::<GROUPS>(from, to, GROUPS.wrapping_sub(1), all, last, counters);
}

/// Permutes up to 128 blocks: `rounds` (even) rounds from `counter`,
/// `GROUPS` = b/16. Missing states of a short chunk are zero and their
/// results are dropped.
#[inline(always)]
fn permute_sliced<const BYTES: usize, const GROUPS: usize>(
    blocks: &mut [[u8; BYTES]],
    rounds: usize,
    counter: u8,
) {
    let mut slices = [NeonVector::zero(()); SLICES];
    let mut scratch = [NeonVector::zero(()); SLICES];
    // Row r of column c (slice 64c + r) holds row c of blocks r and 64 + r.
    let (low, high) = blocks.split_at_mut(blocks.len().min(64));
    for row in 0..64 {
        let [a, b] = [low.get(row), high.get(row)].map(|block| block.map_or([0; 3], rows_of));
        for (column, (a, b)) in a.into_iter().zip(b).enumerate() {
            if let Some(word) = slices.get_mut(column.wrapping_mul(64).wrapping_add(row)) {
                *word = NeonVector::from_u64s(a, b);
            }
        }
    }
    for rows in slices.chunks_exact_mut(64) {
        transpose(rows);
    }

    let bits = BYTES.wrapping_mul(8);
    if let (Some(state), Some(other)) = (slices.get_mut(..bits), scratch.get_mut(..bits)) {
        // Passes alternate between the two arrays; an odd count
        // (Spongent-π[176]: 45) copies the last result back.
        let mut counters = [counter, next_counter(counter)];
        let advance = |[_, next]: [u8; 2]| {
            let counter = next_counter(next);
            [counter, next_counter(counter)]
        };
        two_rounds::<GROUPS, true>(state, other, counters);
        let passes = rounds / 2;
        for pass in 1..passes {
            counters = advance(counters);
            if pass % 2 == 1 {
                two_rounds::<GROUPS, false>(other, state, counters);
            } else {
                two_rounds::<GROUPS, false>(state, other, counters);
            }
        }
        if passes % 2 == 1 {
            state.copy_from_slice(other);
        }
        // Undo the complement of quarters 1..3.
        for word in state.iter_mut().skip(bits / 4) {
            *word = word.not();
        }
    }

    for rows in slices.chunks_exact_mut(64) {
        transpose(rows);
    }
    for row in 0..64 {
        let mut rows = [[0u64; 3]; 2];
        for (column, words) in slices.chunks_exact(64).enumerate() {
            if let Some(word) = words.get(row) {
                word.to_lanes(|lane, value| {
                    if let Some(to) = rows.get_mut(lane).and_then(|r| r.get_mut(column)) {
                        *to = value;
                    }
                });
            }
        }
        let [a, b] = rows;
        if let Some(block) = low.get_mut(row) {
            write_rows(block, a);
        }
        if let Some(block) = high.get_mut(row) {
            write_rows(block, b);
        }
    }
    // Wiped by stores the optimiser must keep (`black_box`), as a
    // `memset` rather than one volatile store per word.
    slices.fill(NeonVector::zero(()));
    scratch.fill(NeonVector::zero(()));
    core::hint::black_box((&slices, &scratch));
}

/// Spongent-π\[160\] on every block, 128 at a time.
pub(super) fn permute_160(blocks: &mut [[u8; 20]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        permute_sliced::<20, 10>(chunk, ROUNDS_160, COUNTER_160);
    }
}

/// Spongent-π\[176\] on every block, 128 at a time.
pub(super) fn permute_176(blocks: &mut [[u8; 22]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        permute_sliced::<22, 11>(chunk, ROUNDS_176, COUNTER_176);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::check;
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn neon_matches_the_reference() {
        check("NEON Spongent-π[160]", WIDTH, spongent_pi_160, permute_160);
        check("NEON Spongent-π[176]", WIDTH, spongent_pi_176, permute_176);
    }
}
