//! Portable Spongent-π backends: the bitsliced kernel (generic over the
//! machine word, so the AVX2 backend runs the very same code) and the
//! single-state "four bit planes" form for one or a few blocks.
//!
//! Nothing here branches on or indexes by the state: the S-box is a boolean
//! circuit, the bit permutation moves words or bits by public positions, and
//! the only branches are on public round counters and block counts.

use zeroize::Zeroize;

/// One machine word of bitsliced state: bit `s` of word `i` is bit `i` of
/// state `s`. The kernel is written against this trait so that `u64` (64
/// states) and the AVX2 word (256 states, four independent `u64` lanes) share
/// one implementation.
pub(super) trait Word: Copy + Zeroize {
    /// The all-zero word.
    fn zero() -> Self;
    /// `bits` in every lane.
    fn splat(bits: u64) -> Self;
    /// Bitwise exclusive or.
    fn xor(self, other: Self) -> Self;
    /// Bitwise and.
    fn and(self, other: Self) -> Self;
    /// Bitwise or.
    fn or(self, other: Self) -> Self;
    /// `!self & other`, one instruction on most targets.
    fn andnot(self, other: Self) -> Self;
    /// Bitwise complement.
    fn not(self) -> Self;
    /// Shift every lane left by `S` bits.
    fn shl<const S: i32>(self) -> Self;
    /// Shift every lane right by `S` bits.
    fn shr<const S: i32>(self) -> Self;
    /// A word whose lane `l` is `lane(l)`.
    fn from_lanes(lane: impl FnMut(usize) -> u64) -> Self;
    /// Hands every lane to `sink(l, value)`.
    fn to_lanes(self, sink: impl FnMut(usize, u64));
}

impl Word for u64 {
    #[inline(always)]
    fn zero() -> Self {
        0
    }
    #[inline(always)]
    fn splat(bits: u64) -> Self {
        bits
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
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        !self & other
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
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
    fn from_lanes(mut lane: impl FnMut(usize) -> u64) -> Self {
        lane(0)
    }
    #[inline(always)]
    fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
        sink(0, self);
    }
}

/// The Spongent S-box `[E, D, B, 0, 2, 1, 4, F, 7, A, 8, 5, 9, C, 3, 6]` as a
/// 20-operation boolean circuit on bit slices (`x0` is the least significant
/// input bit). Derived from the algebraic normal form of the reference by
/// sharing `x1·x2`, `x0 ⊕ x1·x2` and `x1 ⊕ x2`, and writing the cubic part of
/// `y3` as `x3 · (x0 ? x2 : ¬x1)`.
#[inline(always)]
pub(super) fn sbox<W: Word>([x0, x1, x2, x3]: [W; 4]) -> [W; 4] {
    let u = x0.xor(x1.and(x2));
    let v = x1.xor(x2);
    let y0 = u.xor(x1).xor(x3);
    let y1 = u.xor(x3.and(u.xor(v))).not();
    let y2 = v.xor(x3.and(u)).not();
    // (x0 ∧ x2) ⊕ (x0 ∨ x1) is ¬(x0 ? x2 : ¬x1).
    let not_mux = x0.and(x2).xor(x0.or(x1));
    let y3 = x2.xor(x0.and(x1)).xor(not_mux.andnot(x3)).not();
    [y0, y1, y2, y3]
}

/// The S-box without its three output complements: `S(x) ⊕ 0b1110`, 17
/// operations. The bitsliced kernel stores quarters 1..3 of the state
/// complemented (see [`sliced_round`]) and so never spends the NOTs.
#[inline(always)]
fn sbox_plain<W: Word>([x0, x1, x2, x3]: [W; 4]) -> [W; 4] {
    let u = x0.xor(x1.and(x2));
    let v = x1.xor(x2);
    let y0 = u.xor(x1).xor(x3);
    let y1 = u.xor(x3.and(u.xor(v)));
    let y2 = v.xor(x3.and(u));
    let not_mux = x0.and(x2).xor(x0.or(x1));
    let y3 = x2.xor(x0.and(x1)).xor(not_mux.andnot(x3));
    [y0, y1, y2, y3]
}

/// [`sbox_plain`] of complemented inputs: `S(¬x) ⊕ 0b1110`, 18 operations
/// (the complements move into De Morgan forms: `¬x1 ∧ ¬x2 = ¬(x1 ∨ x2)`, …).
#[inline(always)]
fn sbox_complemented<W: Word>([x0, x1, x2, x3]: [W; 4]) -> [W; 4] {
    let u = x0.xor(x1.or(x2));
    let v = x1.xor(x2);
    let y0 = u.xor(x1).xor(x3);
    let y1 = u.xor(x3.andnot(u.xor(v)));
    let y2 = v.xor(x3.andnot(u));
    let not_mux = x0.or(x2).xor(x0.and(x1));
    let y3 = x2.xor(x0.or(x1)).xor(not_mux.or(x3)).not();
    [y0, y1, y2, y3]
}

/// The round counter's next value: `c = (c << 1 | c6 ⊕ c5) & 0x7f`.
#[inline(always)]
pub(super) const fn next_counter(counter: u8) -> u8 {
    ((counter << 1) | (((counter >> 6) ^ (counter >> 5)) & 1)) & 0x7f
}

// ---------------------------------------------------------------------------
// Bitsliced kernel: 64 · W::LANES states at once.
// ---------------------------------------------------------------------------

/// Words of bitsliced state the kernel keeps: three 64-bit columns of every
/// block (a block of 20 or 22 bytes needs three).
const SLICES: usize = 192;

/// Swaps bit `J` of the row index with bit `J` of the column index in every
/// 64×64 bit matrix (one per lane): for rows `r` and `r + J` (bit `J` of `r`
/// clear), the columns with bit `J` set in row `r` trade places with the
/// columns with bit `J` clear in row `r + J`. `low` masks the columns with
/// bit `J` clear.
#[inline(always)]
fn transpose_stage<W: Word, const J: i32>(rows: &mut [W], low: u64) {
    let low = W::splat(low);
    #[allow(clippy::cast_sign_loss)] // J is 1..=32.
    let half = J as usize;
    for pair in rows.chunks_exact_mut(half.wrapping_mul(2)) {
        let (top, bottom) = pair.split_at_mut(half);
        for (a, b) in top.iter_mut().zip(bottom) {
            let t = a.shr::<J>().xor(*b).and(low);
            *b = b.xor(t);
            *a = a.xor(t.shl::<J>());
        }
    }
}

/// Transposes the 64×64 bit matrix in each lane of 64 words, in place: bit
/// `c` of row `r` becomes bit `r` of row `c`. The transpose is its own
/// inverse, so it takes blocks to bit slices and back.
#[inline(always)]
pub(super) fn transpose64<W: Word>(rows: &mut [W]) {
    transpose_stage::<W, 32>(rows, 0x0000_0000_FFFF_FFFF);
    transpose_stage::<W, 16>(rows, 0x0000_FFFF_0000_FFFF);
    transpose_stage::<W, 8>(rows, 0x00FF_00FF_00FF_00FF);
    transpose_stage::<W, 4>(rows, 0x0F0F_0F0F_0F0F_0F0F);
    transpose_stage::<W, 2>(rows, 0x3333_3333_3333_3333);
    transpose_stage::<W, 1>(rows, 0x5555_5555_5555_5555);
}

/// Bytes `8·column .. 8·column + 8` of `block` as a little-endian `u64`
/// (zero-filled past the end of the block).
#[inline(always)]
fn read_row(block: &[u8], column: usize) -> u64 {
    block.chunks(8).nth(column).map_or(0, |bytes| {
        bytes
            .iter()
            .rev()
            .fold(0, |row, byte| row.wrapping_shl(8) | u64::from(*byte))
    })
}

/// Writes the bytes of `row` that exist back to `8·column ..` of `block`.
#[inline(always)]
fn write_row(block: &mut [u8], column: usize, row: u64) {
    if let Some(bytes) = block.chunks_mut(8).nth(column) {
        for (to, from) in bytes.iter_mut().zip(row.to_le_bytes()) {
            *to = from;
        }
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
/// read one complemented quarter each and use [`sbox_complemented`]; both
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
            [*y0, *y1, *y2, *y3] = sbox_plain([x0, x1, x2, x3]);
        }
    }
    for (nibble, (((y0, y1), y2), y3)) in nibbles {
        if let &[x0, x1, x2, x3] = nibble {
            [*y0, *y1, *y2, *y3] = sbox_complemented([x0, x1, x2, x3]);
        }
    }
}

/// Permutes up to `64 · W::LANES` blocks with the bitsliced kernel: `rounds`
/// (even) rounds from round counter `counter`. Missing states of a short
/// chunk are zero and their results are dropped.
#[inline(always)]
pub(super) fn permute_sliced<W: Word, const BYTES: usize>(
    blocks: &mut [[u8; BYTES]],
    rounds: usize,
    counter: u8,
) {
    let mut slices = [W::zero(); SLICES];
    let mut scratch = [W::zero(); SLICES];
    for (column, rows) in slices.chunks_exact_mut(64).enumerate() {
        for (row, word) in rows.iter_mut().enumerate() {
            *word = W::from_lanes(|lane| {
                blocks
                    .get(state_index(lane, row))
                    .map_or(0, |block| read_row(block, column))
            });
        }
        transpose64(rows);
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

    for (column, rows) in slices.chunks_exact_mut(64).enumerate() {
        transpose64(rows);
        for (row, word) in rows.iter().enumerate() {
            word.to_lanes(|lane, value| {
                if let Some(block) = blocks.get_mut(state_index(lane, row)) {
                    write_row(block, column, value);
                }
            });
        }
    }
    slices.zeroize();
    scratch.zeroize();
}

/// Spongent-π\[160\] on up to 64 blocks, bitsliced in `u64`.
pub(super) fn permute_160_x64(blocks: &mut [[u8; 20]]) {
    permute_sliced::<u64, 20>(blocks, 80, 0x75);
}

/// Spongent-π\[176\] on up to 64 blocks, bitsliced in `u64`.
pub(super) fn permute_176_x64(blocks: &mut [[u8; 22]]) {
    permute_sliced::<u64, 22>(blocks, 90, 0x45);
}

// ---------------------------------------------------------------------------
// Single state in four bit planes.
// ---------------------------------------------------------------------------

/// One delta swap: the bits of `x` selected by `mask` trade places with the
/// bits `delta` positions higher.
#[inline(always)]
fn delta_swap<const DELTA: i32>(x: u64, mask: u64) -> u64 {
    let t = x.shr::<DELTA>().xor(x).and(mask);
    x ^ t ^ t.shl::<DELTA>()
}

/// "Unzip by 4": bit `4m + j` of `x` moves to bit `16j + m` (index bits
/// `b5..b0` become `b1 b0 b5 b4 b3 b2`), by four index-bit swaps.
#[inline(always)]
pub(super) fn unzip4(x: u64) -> u64 {
    let x = delta_swap::<3>(x, 0x0A0A_0A0A_0A0A_0A0A); // b0 ↔ b2
    let x = delta_swap::<6>(x, 0x00CC_00CC_00CC_00CC); // b1 ↔ b3
    let x = delta_swap::<12>(x, 0x0000_F0F0_0000_F0F0); // b2 ↔ b4
    delta_swap::<24>(x, 0x0000_0000_FF00_FF00) // b3 ↔ b5
}

/// The inverse of [`unzip4`]: the same swaps in reverse order.
#[inline(always)]
pub(super) fn zip4(x: u64) -> u64 {
    let x = delta_swap::<24>(x, 0x0000_0000_FF00_FF00);
    let x = delta_swap::<12>(x, 0x0000_F0F0_0000_F0F0);
    let x = delta_swap::<6>(x, 0x00CC_00CC_00CC_00CC);
    delta_swap::<3>(x, 0x0A0A_0A0A_0A0A_0A0A)
}

/// The round constant in plane form: state bit `k` is plane `k mod 4`, bit
/// `k / 4`; bit `k` of the counter goes to state bits `k` and `b − 1 − k`.
/// `quarter` is b/4, the width of a plane.
#[inline(always)]
fn plane_constants(counter: u8, quarter: u32) -> [u64; 4] {
    let mut planes = [0u64; 4];
    for (j, plane) in (0u32..).zip(planes.iter_mut()) {
        for k in 0..7u32 {
            let bit = u64::from((counter >> k) & 1);
            // State bit k is plane k mod 4, bit k / 4.
            if k % 4 == j {
                *plane |= bit << (k / 4);
            }
            // State bit b − 1 − k is plane 3 − k mod 4 (= 3 ⊕ k mod 4), bit b/4 − 1 − k / 4.
            if (3 ^ (k % 4)) == j {
                *plane |= bit.wrapping_shl(quarter.wrapping_sub(1).wrapping_sub(k / 4));
            }
        }
    }
    planes
}

/// The four planes of a state whose bytes are `block`: plane `j` bit `k` is
/// state bit `4k + j` (bit `j` of nibble `k`).
#[inline(always)]
fn to_planes(block: &[u8]) -> [u64; 4] {
    let mut planes = [0u64; 4];
    for (column, bytes) in (0u32..).zip(block.chunks(8)) {
        let row = unzip4(read_row(bytes, 0));
        let offset = column.wrapping_mul(16);
        for (j, plane) in (0u32..).zip(planes.iter_mut()) {
            let group = row.wrapping_shr(j.wrapping_mul(16)) & 0xFFFF;
            *plane |= group.wrapping_shl(offset);
        }
    }
    planes
}

/// Writes the state held in `planes` back to `block` (the inverse of
/// [`to_planes`]).
#[inline(always)]
fn from_planes(planes: &[u64; 4], block: &mut [u8]) {
    for (column, bytes) in (0u32..).zip(block.chunks_mut(8)) {
        let offset = column.wrapping_mul(16);
        let mut row = 0u64;
        for (j, plane) in (0u32..).zip(planes.iter()) {
            let group = plane.wrapping_shr(offset) & 0xFFFF;
            row |= group.wrapping_shl(j.wrapping_mul(16));
        }
        write_row(bytes, 0, zip4(row));
    }
}

/// The bit permutation on planes: output plane `j` of the S-boxes holds
/// nibble `k`'s bit `j`, which moves to state bit `k + j·b/4`, so the new
/// plane `i` is bit `i` of every nibble of `y0 ‖ y1 ‖ y2 ‖ y3`: group `i`
/// of `unzip4(y_j)`, placed at `j·b/16`. `NIBBLES` is b/16, the bits each
/// output plane gives each new plane.
#[inline(always)]
fn regroup<const NIBBLES: u32>(y: [u64; 4]) -> [u64; 4] {
    let keep = (1u64 << NIBBLES).wrapping_sub(1);
    let mut planes = [0u64; 4];
    for (j, plane) in (0u32..).zip(y) {
        let groups = unzip4(plane);
        let at = j.wrapping_mul(NIBBLES);
        for (i, new) in (0u32..).zip(planes.iter_mut()) {
            let group = groups.wrapping_shr(i.wrapping_mul(16)) & keep;
            *new |= group.wrapping_shl(at);
        }
    }
    planes
}

/// Spongent-π on one state in four bit planes (`BYTES` = b/8; `NIBBLES` =
/// b/16, written out because stable Rust cannot derive it).
#[inline(always)]
fn permute_planes<const BYTES: usize, const NIBBLES: u32>(
    block: &mut [u8; BYTES],
    rounds: usize,
    counter: u8,
) {
    let quarter = NIBBLES.wrapping_mul(4);
    let mut planes = to_planes(block);
    let mut counter = counter;
    for _ in 0..rounds {
        let constants = plane_constants(counter, quarter);
        counter = next_counter(counter);
        for (plane, constant) in planes.iter_mut().zip(constants) {
            *plane ^= constant;
        }
        planes = regroup::<NIBBLES>(sbox(planes));
    }
    from_planes(&planes, block);
    planes.zeroize();
}

/// Spongent-π\[160\] on one block in four bit planes.
pub(super) fn permute_160_planes(block: &mut [u8; 20]) {
    permute_planes::<20, 10>(block, 80, 0x75);
}

/// Spongent-π\[176\] on one block in four bit planes.
pub(super) fn permute_176_planes(block: &mut [u8; 22]) {
    permute_planes::<22, 11>(block, 90, 0x45);
}

#[cfg(test)]
// Tests may panic; test data truncates on purpose.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::needless_range_loop
)]
pub(super) mod tests {
    use super::*;
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    /// `count` pseudo-random blocks from a xorshift generator seeded by `seed`.
    pub(crate) fn random_blocks<const N: usize>(count: usize, seed: u64) -> Vec<[u8; N]> {
        let mut x = seed | 1;
        (0..count)
            .map(|_| {
                let mut block = [0u8; N];
                for byte in &mut block {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    *byte = (x >> 32) as u8;
                }
                block
            })
            .collect()
    }

    /// Batch lengths to try for a tier of `width` blocks: all of 0..=2·width
    /// (fewer under Miri, which is slow).
    pub(crate) fn lengths(width: usize) -> Vec<usize> {
        if cfg!(miri) {
            // Every kernel call is a full 80–90 rounds: a few lengths only.
            vec![0, 1, width.min(5)]
        } else {
            (0..=2 * width).collect()
        }
    }

    /// Runs `tier` in chunks of `width` over every test length and compares
    /// with the reference.
    pub(crate) fn check_160(width: usize, tier: impl Fn(&mut [[u8; 20]])) {
        for len in lengths(width) {
            let mut blocks = random_blocks::<20>(len, len as u64 + 1);
            let expected: Vec<_> = blocks.iter().map(|b| spongent_pi_160(*b)).collect();
            for chunk in blocks.chunks_mut(width) {
                tier(chunk);
            }
            assert_eq!(blocks, expected, "Spongent-π[160], {len} blocks");
        }
    }

    /// [`check_160`] for Spongent-π\[176\].
    pub(crate) fn check_176(width: usize, tier: impl Fn(&mut [[u8; 22]])) {
        for len in lengths(width) {
            let mut blocks = random_blocks::<22>(len, len as u64 + 7);
            let expected: Vec<_> = blocks.iter().map(|b| spongent_pi_176(*b)).collect();
            for chunk in blocks.chunks_mut(width) {
                tier(chunk);
            }
            assert_eq!(blocks, expected, "Spongent-π[176], {len} blocks");
        }
    }

    #[test]
    fn sbox_circuit_is_the_sbox() {
        const S: [u8; 16] = [0xE, 0xD, 0xB, 0, 2, 1, 4, 0xF, 7, 0xA, 8, 5, 9, 0xC, 3, 6];
        for x in 0..16u8 {
            let bits = [0, 1, 2, 3].map(|i| u64::from((x >> i) & 1));
            let y = sbox(bits);
            let out = y
                .iter()
                .enumerate()
                .fold(0u8, |acc, (j, bit)| acc | (((*bit & 1) as u8) << j));
            assert_eq!(out, S[usize::from(x)], "S[{x:x}]");
        }
    }

    #[test]
    fn sbox_variants_are_the_sbox_up_to_complements() {
        for x in 0..16u64 {
            let bits = [0, 1, 2, 3].map(|i| (x >> i) & 1);
            let pack = |y: [u64; 4]| y.iter().enumerate().fold(0, |a, (j, b)| a | ((b & 1) << j));
            assert_eq!(pack(sbox_plain(bits)), pack(sbox(bits)) ^ 0xE);
            let not_bits = bits.map(|b| b ^ 1);
            assert_eq!(pack(sbox_complemented(bits)), pack(sbox(not_bits)) ^ 0xE);
        }
    }

    #[test]
    fn transpose_moves_bit_c_of_row_r_to_bit_r_of_row_c() {
        let rows = random_blocks::<8>(64, 99);
        let mut words: Vec<u64> = rows.iter().map(|r| u64::from_le_bytes(*r)).collect();
        let original = words.clone();
        transpose64(&mut words);
        for r in 0..64 {
            for c in 0..64 {
                assert_eq!((words[c] >> r) & 1, (original[r] >> c) & 1);
            }
        }
        transpose64(&mut words);
        assert_eq!(words, original);
    }

    #[test]
    fn unzip4_gathers_bit_j_of_every_nibble() {
        for x in random_blocks::<8>(50, 3)
            .into_iter()
            .map(u64::from_le_bytes)
        {
            let y = unzip4(x);
            for m in 0..16 {
                for j in 0..4 {
                    assert_eq!((y >> (16 * j + m)) & 1, (x >> (4 * m + j)) & 1);
                }
            }
            assert_eq!(zip4(y), x);
        }
    }

    #[test]
    fn bitsliced_u64_matches_the_reference() {
        check_160(64, permute_160_x64);
        check_176(64, permute_176_x64);
    }

    #[test]
    fn planes_match_the_reference() {
        check_160(16, |blocks| blocks.iter_mut().for_each(permute_160_planes));
        check_176(16, |blocks| blocks.iter_mut().for_each(permute_176_planes));
    }
}
