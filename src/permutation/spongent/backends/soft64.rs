//! Spongent-π on 64 states at once, bitsliced in `u64` words (64-bit
//! targets). The kernel is generic over the machine word, so the AVX2
//! backend runs the very same code on 256-bit words.
//!
//! Nothing here branches on or indexes by the state: the S-box is a boolean
//! circuit, the bit permutation moves words or bits by public positions, and
//! the only branches are on public round counters and block counts.

use crate::permutation::spongent::sbox::{Bits, sbox_complemented, sbox_plain};
use crate::permutation::spongent::{
    COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter,
};
use zeroize::Zeroize;

/// One machine word of bitsliced state: bit `s` of word `i` is bit `i` of
/// state `s`. The kernel is written against this trait so that `u64` (64
/// states) and the AVX2 word (256 states, four independent `u64` lanes) share
/// one implementation.
pub(super) trait Word: Bits + Zeroize {
    /// What a word is made with: the CPU token of its instruction set
    /// (`()` where the target has it anyway).
    type Token: Copy;
    /// The all-zero word.
    fn zero(token: Self::Token) -> Self;
    /// `bits` in every lane.
    fn splat(token: Self::Token, bits: u64) -> Self;
    /// Shift every lane left by `S` bits.
    fn shl<const S: i32>(self) -> Self;
    /// Shift every lane right by `S` bits.
    fn shr<const S: i32>(self) -> Self;
    /// A word whose lane `l` is `lane(l)`.
    fn from_lanes(token: Self::Token, lane: impl FnMut(usize) -> u64) -> Self;
    /// Hands every lane to `sink(l, value)`.
    fn to_lanes(self, sink: impl FnMut(usize, u64));
    /// [`sbox_plain`] on these words.
    #[inline(always)]
    fn plain_sbox(x: [Self; 4]) -> [Self; 4] {
        sbox_plain(x)
    }
    /// [`sbox_complemented`] on these words, as [`Word::plain_sbox`].
    #[inline(always)]
    fn complemented_sbox(x: [Self; 4]) -> [Self; 4] {
        sbox_complemented(x)
    }
}

impl Word for u64 {
    type Token = ();
    #[inline(always)]
    fn zero((): ()) -> Self {
        0
    }
    #[inline(always)]
    fn splat((): (), bits: u64) -> Self {
        bits
    }
    #[inline(always)]
    #[allow(clippy::cast_sign_loss)] // S is a small non-negative constant.
    fn shl<const S: i32>(self) -> Self {
        self.wrapping_shl(S as u32)
    }
    #[inline(always)]
    #[allow(clippy::cast_sign_loss)] // S is a small non-negative constant.
    fn shr<const S: i32>(self) -> Self {
        self.wrapping_shr(S as u32)
    }
    #[inline(always)]
    fn from_lanes((): (), mut lane: impl FnMut(usize) -> u64) -> Self {
        lane(0)
    }
    #[inline(always)]
    fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
        sink(0, self);
    }
}

/// Words of bitsliced state the kernel keeps: three 64-bit columns of every
/// block (a block of 20 or 22 bytes needs three).
const SLICES: usize = 192;

/// Swaps bit `S` of the row index with bit `S` of the column index in
/// every 64×64 bit matrix (one per lane), on rows `J` apart in `rows`
/// (rows `S` apart in the matrix): for rows `r` and `r + J` (bit `J` of
/// `r` clear), the columns with that bit set in row `r` trade places with
/// the columns with it clear in row `r + J`. `low` masks the columns with
/// the bit clear.
#[inline(always)]
fn transpose_stage<W: Word, const J: usize, const S: i32>(
    token: W::Token,
    rows: &mut [W],
    low: u64,
) {
    let low = W::splat(token, low);
    for pair in rows.chunks_exact_mut(J.wrapping_mul(2)) {
        let (top, bottom) = pair.split_at_mut(J);
        for (a, b) in top.iter_mut().zip(bottom) {
            let t = a.shr::<S>().xor(*b).and(low);
            *b = b.xor(t);
            *a = a.xor(t.shl::<S>());
        }
    }
}

/// Transposes the 64×64 bit matrix in each lane of 64 words, in place: bit
/// `c` of row `r` becomes bit `r` of row `c`. The transpose is its own
/// inverse, so it takes blocks to bit slices and back.
///
/// The six stages commute (each swaps one bit of the row index with the
/// same bit of the column index), so they run in two passes over memory
/// instead of six: the stages 32, 16 and 8 on the eight rows `r, r + 8, …`
/// at a time, then 4, 2 and 1 on eight consecutive rows, each group held
/// in registers.
#[inline(always)]
pub(super) fn transpose64<W: Word>(token: W::Token, rows: &mut [W]) {
    for first in 0..8 {
        // Plain loops, no closure (`from_fn`): whether one is inlined is
        // the inliner's choice, and an AVX2 word's operations in an
        // outlined closure are calls (it lacks the target feature).
        let mut group = [W::zero(token); 8];
        for (i, word) in group.iter_mut().enumerate() {
            if let Some(row) = rows.get(first + 8 * i) {
                *word = *row;
            }
        }
        transpose_stage::<W, 4, 32>(token, &mut group, 0x0000_0000_FFFF_FFFF);
        transpose_stage::<W, 2, 16>(token, &mut group, 0x0000_FFFF_0000_FFFF);
        transpose_stage::<W, 1, 8>(token, &mut group, 0x00FF_00FF_00FF_00FF);
        for (i, word) in group.into_iter().enumerate() {
            if let Some(row) = rows.get_mut(first + 8 * i) {
                *row = word;
            }
        }
    }
    for group in rows.chunks_exact_mut(8) {
        transpose_stage::<W, 4, 4>(token, group, 0x0F0F_0F0F_0F0F_0F0F);
        transpose_stage::<W, 2, 2>(token, group, 0x3333_3333_3333_3333);
        transpose_stage::<W, 1, 1>(token, group, 0x5555_5555_5555_5555);
    }
}

/// Bytes `8·COLUMN .. 8·COLUMN + 8` of `block` as a little-endian `u64`
/// (zero-filled past the end of the block; zero for a column wholly past
/// it). One 8-byte load: a last, short column is read as the block's last
/// eight bytes, shifted down. `COLUMN` and `BYTES` are constants, so the
/// branches fold away.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)] // The shift is under 64 bits.
pub(super) fn read_row<const COLUMN: usize, const BYTES: usize>(block: &[u8; BYTES]) -> u64 {
    let start = COLUMN.saturating_mul(8);
    if start >= BYTES {
        return 0;
    }
    let end = start.saturating_add(8).min(BYTES);
    // Under 8, as the column starts inside the block.
    let past_end = start.saturating_add(8).wrapping_sub(end);
    if let Some(bytes) = end.checked_sub(8).and_then(|first| block.get(first..end)) {
        let mut row = [0; 8];
        row.copy_from_slice(bytes);
        u64::from_le_bytes(row).wrapping_shr(past_end.wrapping_mul(8) as u32)
    } else {
        // A block shorter than a row: its bytes from `start`, one by one.
        let mut row = [0; 8];
        for (to, from) in row.iter_mut().zip(block.iter().skip(start)) {
            *to = *from;
        }
        u64::from_le_bytes(row)
    }
}

/// Writes the bytes of `row` that exist back to `8·COLUMN ..` of `block`.
#[inline(always)]
pub(super) fn write_row<const COLUMN: usize, const BYTES: usize>(
    block: &mut [u8; BYTES],
    row: u64,
) {
    if let Some(bytes) = block.get_mut(COLUMN.wrapping_mul(8)..) {
        for (to, from) in bytes.iter_mut().zip(row.to_le_bytes()) {
            *to = from;
        }
    }
}

/// Column `COLUMN` (bytes `8·COLUMN ..`) of every block of a chunk into
/// `rows`, one row per word, before the transpose.
#[inline(always)]
fn load_column<W: Word, const COLUMN: usize, const BYTES: usize>(
    token: W::Token,
    blocks: &[[u8; BYTES]],
    rows: &mut [W],
) {
    for (row, word) in rows.iter_mut().enumerate() {
        *word = W::from_lanes(token, |lane| {
            blocks
                .get(state_index(lane, row))
                .map_or(0, read_row::<COLUMN, BYTES>)
        });
    }
}

/// The inverse of [`load_column`], after the transpose back.
#[inline(always)]
fn store_column<W: Word, const COLUMN: usize, const BYTES: usize>(
    blocks: &mut [[u8; BYTES]],
    rows: &[W],
) {
    for (row, word) in rows.iter().enumerate() {
        word.to_lanes(|lane, value| {
            if let Some(block) = blocks.get_mut(state_index(lane, row)) {
                write_row::<COLUMN, BYTES>(block, value);
            }
        });
    }
}

/// Block number `lane · 64 + row` of a chunk, the state that the kernel
/// keeps in bit `row` of lane `lane`.
#[inline(always)]
fn state_index(lane: usize, row: usize) -> usize {
    lane.wrapping_mul(64).wrapping_add(row)
}

/// One Spongent round in bitsliced form: the round constant into `from`,
/// then the S-boxes, whose outputs go straight to their places after the
/// bit permutation in `to` (nibble `k`'s output bit `j` is bit `k + j·b/4`).
///
/// Between rounds, quarters 1..3 of the state (the S-box output bits 1..3)
/// are kept complemented, which saves the S-box's NOTs: the first b/16
/// nibbles read quarter 0 (true values) and use [`sbox_plain`], the others
/// read one complemented quarter each and use [`sbox_complemented`] (each
/// through [`Word`]); both
/// leave output bits 1..3 complemented again. In the `first` round every
/// input is true. Complementing commutes with the round constant.
#[inline(always)]
fn sliced_round<W: Word>(from: &mut [W], to: &mut [W], counter: u8, first: bool) {
    // Bit k of the counter goes to state bit k and to state bit b − 1 − k.
    for (k, word) in from.iter_mut().take(7).enumerate() {
        if (counter >> k) & 1 == 1 {
            *word = word.not();
        }
    }
    for (k, word) in from.iter_mut().rev().take(7).enumerate() {
        if (counter >> k) & 1 == 1 {
            *word = word.not();
        }
    }
    let quarter = to.len() / 4;
    let (to0, rest) = to.split_at_mut(quarter);
    let (to1, rest) = rest.split_at_mut(quarter);
    let (to2, to3) = rest.split_at_mut(quarter);
    let outputs = to0.iter_mut().zip(to1).zip(to2).zip(to3);
    let mut nibbles = from.chunks_exact(4).zip(outputs);
    let true_inputs = if first { usize::MAX } else { quarter / 4 };
    for (nibble, (((y0, y1), y2), y3)) in nibbles.by_ref().take(true_inputs) {
        if let &[x0, x1, x2, x3] = nibble {
            [*y0, *y1, *y2, *y3] = W::plain_sbox([x0, x1, x2, x3]);
        }
    }
    for (nibble, (((y0, y1), y2), y3)) in nibbles {
        if let &[x0, x1, x2, x3] = nibble {
            [*y0, *y1, *y2, *y3] = W::complemented_sbox([x0, x1, x2, x3]);
        }
    }
}

/// Permutes up to `64 · W::LANES` blocks with the bitsliced kernel: `rounds`
/// (even) rounds from round counter `counter`. Missing states of a short
/// chunk are zero and their results are dropped.
#[inline(always)]
pub(super) fn permute_sliced<W: Word, const BYTES: usize>(
    token: W::Token,
    blocks: &mut [[u8; BYTES]],
    rounds: usize,
    counter: u8,
) {
    let mut slices = [W::zero(token); SLICES];
    let mut scratch = [W::zero(token); SLICES];
    // Each column on its own, so that its byte offsets are constants.
    let (column0, rest) = slices.split_at_mut(64);
    let (column1, column2) = rest.split_at_mut(64);
    load_column::<W, 0, BYTES>(token, blocks, column0);
    load_column::<W, 1, BYTES>(token, blocks, column1);
    load_column::<W, 2, BYTES>(token, blocks, column2);
    for rows in slices.chunks_exact_mut(64) {
        transpose64(token, rows);
    }

    let bits = BYTES.wrapping_mul(8);
    if let (Some(state), Some(other)) = (slices.get_mut(..bits), scratch.get_mut(..bits)) {
        let mut counter = counter;
        for pair in 0..rounds / 2 {
            sliced_round(state, other, counter, pair == 0);
            counter = next_counter(counter);
            sliced_round(other, state, counter, false);
            counter = next_counter(counter);
        }
        // Undo the complement of quarters 1..3 (see `sliced_round`).
        for word in state.iter_mut().skip(bits / 4) {
            *word = word.not();
        }
    }

    for rows in slices.chunks_exact_mut(64) {
        transpose64(token, rows);
    }
    let (column0, rest) = slices.split_at(64);
    let (column1, column2) = rest.split_at(64);
    store_column::<W, 0, BYTES>(blocks, column0);
    store_column::<W, 1, BYTES>(blocks, column1);
    store_column::<W, 2, BYTES>(blocks, column2);
    slices.zeroize();
    scratch.zeroize();
}

/// Spongent-π\[160\] on up to 64 blocks, bitsliced in `u64`.
pub(super) fn permute_160_x64(blocks: &mut [[u8; 20]]) {
    permute_sliced::<u64, 20>((), blocks, ROUNDS_160, COUNTER_160);
}

/// Spongent-π\[176\] on up to 64 blocks, bitsliced in `u64`.
pub(super) fn permute_176_x64(blocks: &mut [[u8; 22]]) {
    permute_sliced::<u64, 22>((), blocks, ROUNDS_176, COUNTER_176);
}

#[cfg(test)]
// Tests may panic.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::needless_range_loop
)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{check, random_blocks};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    /// The reader of one column against the block's bytes, for every
    /// column of both block sizes, the columns past the end, and a block
    /// shorter than a row.
    #[test]
    fn read_row_reads_every_column_and_zeros_past_the_end() {
        fn expected<const BYTES: usize>(block: &[u8; BYTES], column: usize) -> u64 {
            let mut row = [0; 8];
            for (i, byte) in row.iter_mut().enumerate() {
                *byte = block.get(column * 8 + i).copied().unwrap_or(0);
            }
            u64::from_le_bytes(row)
        }
        fn all<const BYTES: usize>() {
            let mut block = [0u8; BYTES];
            let mut value = 0xa0u8;
            for byte in &mut block {
                *byte = value;
                value = value.wrapping_add(1);
            }
            let rows = [
                read_row::<0, BYTES>(&block),
                read_row::<1, BYTES>(&block),
                read_row::<2, BYTES>(&block),
                read_row::<3, BYTES>(&block),
                read_row::<4, BYTES>(&block),
            ];
            for (column, row) in rows.into_iter().enumerate() {
                assert_eq!(row, expected(&block, column), "{BYTES} B, column {column}");
            }
        }
        all::<20>();
        all::<22>();
        all::<24>();
        all::<5>();
    }

    #[test]
    fn transpose_moves_bit_c_of_row_r_to_bit_r_of_row_c() {
        let rows = random_blocks::<8>(64, 99);
        let mut words: Vec<u64> = rows.iter().map(|r| u64::from_le_bytes(*r)).collect();
        let original = words.clone();
        transpose64((), &mut words);
        for r in 0..64 {
            for c in 0..64 {
                assert_eq!((words[c] >> r) & 1, (original[r] >> c) & 1);
            }
        }
        transpose64((), &mut words);
        assert_eq!(words, original);
    }

    #[test]
    fn bitsliced_u64_matches_the_reference() {
        check(
            "soft64 Spongent-π[160]",
            64,
            spongent_pi_160,
            permute_160_x64,
        );
        check(
            "soft64 Spongent-π[176]",
            64,
            spongent_pi_176,
            permute_176_x64,
        );
    }
}
