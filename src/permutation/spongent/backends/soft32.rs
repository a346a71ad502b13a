//! Spongent-π on one state in 32-bit words: the firmware backend (and the
//! single-state tier everywhere).
//!
//! Between rounds the state is kept in its natural order as little-endian
//! `u32` words (five for b = 160; six for b = 176, the last one half used).
//! Each round then
//!
//! 1. adds the round constant to the first and the last byte;
//! 2. regroups the words into four bit planes (plane `t` holds bit `t` of
//!    every nibble), each plane split into a low word (nibbles 0..32) and a
//!    high word (the 8 or 12 nibbles past them);
//! 3. applies the S-box to the planes as a boolean circuit;
//! 4. concatenates the planes back into words: the bit permutation sends bit
//!    `t` of nibble `n` to `n + t·b/4`, so the new state *is* plane 0 ‖ plane
//!    1 ‖ plane 2 ‖ plane 3.
//!
//! The regrouping of step 2 is a transpose of index bits. For the low words
//! it is five swaps of a word-index bit with a bit-index bit (two word pairs
//! each) and one renaming; the high words are one word unzipped by four.
//! Nothing branches on or indexes by the state.

use super::super::sbox::sbox;
use super::super::{COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter};

/// The round constants, round by round: the counter (for byte 0) and its
/// bit reversal (for the last byte). A table because `reverse_bits` is
/// one instruction on Arm v7-M but 15–20 on RV32 and ARMv6-M; it is indexed
/// by the round number alone, public.
const fn round_constants<const ROUNDS: usize>(first: u8) -> [[u8; 2]; ROUNDS] {
    let mut table = [[0; 2]; ROUNDS];
    let mut counter = first;
    let mut round = 0;
    while round < ROUNDS {
        // A `const fn` cannot use iterators; `round` < ROUNDS.
        #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
        {
            table[round] = [counter, counter.reverse_bits()];
            round += 1;
        }
        counter = next_counter(counter);
    }
    table
}

/// [`round_constants`] of Spongent-π\[160\].
const CONSTANTS_160: [[u8; 2]; ROUNDS_160] = round_constants(COUNTER_160);
/// [`round_constants`] of Spongent-π\[176\].
const CONSTANTS_176: [[u8; 2]; ROUNDS_176] = round_constants(COUNTER_176);

/// Spongent-π\[160\] on one block.
pub(in crate::permutation) fn permute_160(block: &mut [u8; 20]) {
    let mut words = load::<20, 5>(block);
    for &[counter, reversed] in &CONSTANTS_160 {
        round_160(&mut words, counter, reversed);
    }
    store(&words, block);
    wipe(&mut words);
}

/// Spongent-π\[176\] on one block.
pub(in crate::permutation) fn permute_176(block: &mut [u8; 22]) {
    let mut words = load::<22, 6>(block);
    for &[counter, reversed] in &CONSTANTS_176 {
        round_176(&mut words, counter, reversed);
    }
    store(&words, block);
    wipe(&mut words);
}

/// One round of Spongent-π\[160\] on the five natural words.
#[inline(always)]
fn round_160(words: &mut [u32; 5], counter: u8, reversed: u8) {
    let [w0, w1, w2, w3, w4] = *words;
    // Byte 0 and byte 19 (the top byte of word 4) take the counter, the
    // latter bit-reversed.
    let w0 = w0 ^ u32::from(counter);
    let w4 = w4 ^ (u32::from(reversed) << 24);
    // Planes: nibbles 0..32 in the low words, 32..40 in byte t of `high`.
    let low = low_planes([w0, w1, w2, w3]);
    let high = unzip4(w4);
    let high = [high, high >> 8, high >> 16, high >> 24];
    let [l0, l1, l2, l3] = sbox(low);
    let [h0, h1, h2, h3] = sbox(high);
    // Plane t, 40 bits (low word, then the low byte of its high word), goes
    // to bits 40t .. 40t + 40.
    *words = [
        l0,
        (h0 & 0xff) | (l1 << 8),
        (l1 >> 24) | ((h1 & 0xff) << 8) | (l2 << 16),
        (l2 >> 16) | ((h2 & 0xff) << 16) | (l3 << 24),
        (l3 >> 8) | (h3 << 24),
    ];
}

/// One round of Spongent-π\[176\] on the six natural words (the last holds
/// bytes 20 and 21 in its low half).
#[inline(always)]
fn round_176(words: &mut [u32; 6], counter: u8, reversed: u8) {
    let [w0, w1, w2, w3, w4, w5] = *words;
    // Byte 0 and byte 21 (bits 8..16 of word 5) take the counter, the
    // latter bit-reversed.
    let w0 = w0 ^ u32::from(counter);
    let w5 = w5 ^ (u32::from(reversed) << 8);
    // Planes: nibbles 0..32 in the low words; 32..40 in byte t of unzip4(w4),
    // 40..44 in nibble t of unzip4_16(w5).
    let low = low_planes([w0, w1, w2, w3]);
    let (h4, h5) = (unzip4(w4), unzip4_16(w5));
    let high = [
        (h4 & 0xff) | ((h5 & 0xf) << 8),
        ((h4 >> 8) & 0xff) | (((h5 >> 4) & 0xf) << 8),
        ((h4 >> 16) & 0xff) | (((h5 >> 8) & 0xf) << 8),
        (h4 >> 24) | (((h5 >> 12) & 0xf) << 8),
    ];
    let [l0, l1, l2, l3] = sbox(low);
    let [h0, h1, h2, h3] = sbox(high);
    // Plane t, 44 bits (low word, then 12 bits of its high word), goes to
    // bits 44t .. 44t + 44.
    *words = [
        l0,
        (h0 & 0xfff) | (l1 << 12),
        (l1 >> 20) | ((h1 & 0xfff) << 12) | (l2 << 24),
        (l2 >> 8) | (h2 << 24),
        ((h2 >> 8) & 0xf) | (l3 << 4),
        (l3 >> 28) | ((h3 & 0xfff) << 4),
    ];
}

/// Swaps the bits of `low` whose index has bit `log2(SHIFT)` set with the
/// bits of `high` whose index has it clear (`mask` selects the latter): one
/// swap of a word-index bit with a bit-index bit, for one pair of words.
#[inline(always)]
fn cross_swap<const SHIFT: u32>(low: &mut u32, high: &mut u32, mask: u32) {
    let t = ((*low >> SHIFT) ^ *high) & mask;
    *high ^= t;
    *low ^= t << SHIFT;
}

/// Four natural words (nibbles 0..32) to the low words of the four planes:
/// bit `4m + t` of word `j` goes to bit `8j + m` of plane `t`. As index bits,
/// (word `j1 j0`, bit `m2 m1 m0 t1 t0`) become (word `t1 t0`, bit
/// `j1 j0 m2 m1 m0`): a 7-cycle of index bits, done as six transpositions
/// through the word bit `j1` (one of them a renaming of words).
#[inline(always)]
fn low_planes([mut a, mut b, mut c, mut d]: [u32; 4]) -> [u32; 4] {
    // Word pairs differing in word-index bit 1: (a, c) and (b, d).
    cross_swap::<16>(&mut a, &mut c, 0x0000_ffff);
    cross_swap::<16>(&mut b, &mut d, 0x0000_ffff);
    cross_swap::<4>(&mut a, &mut c, 0x0f0f_0f0f);
    cross_swap::<4>(&mut b, &mut d, 0x0f0f_0f0f);
    cross_swap::<1>(&mut a, &mut c, 0x5555_5555);
    cross_swap::<1>(&mut b, &mut d, 0x5555_5555);
    // Swap word-index bits 1 and 0: words b and c trade names.
    let (b, c) = (c, b);
    let (mut a, mut b, mut c, mut d) = (a, b, c, d);
    cross_swap::<8>(&mut a, &mut c, 0x00ff_00ff);
    cross_swap::<8>(&mut b, &mut d, 0x00ff_00ff);
    cross_swap::<2>(&mut a, &mut c, 0x3333_3333);
    cross_swap::<2>(&mut b, &mut d, 0x3333_3333);
    [a, b, c, d]
}

/// Swaps the bits of `x` selected by `mask` with the bits `SHIFT` places
/// higher.
#[inline(always)]
fn delta_swap<const SHIFT: u32>(x: u32, mask: u32) -> u32 {
    let t = ((x >> SHIFT) ^ x) & mask;
    x ^ t ^ (t << SHIFT)
}

/// "Unzip by 4" of a word: bit `4m + t` moves to bit `8t + m` (index bits
/// `m2 m1 m0 t1 t0` become `t1 t0 m2 m1 m0`).
#[inline(always)]
fn unzip4(x: u32) -> u32 {
    let x = delta_swap::<3>(x, 0x0a0a_0a0a); // index bits 0 ↔ 2
    let x = delta_swap::<6>(x, 0x00cc_00cc); // 1 ↔ 3
    let x = delta_swap::<12>(x, 0x0000_f0f0); // 2 ↔ 4
    delta_swap::<8>(x, 0x0000_ff00) // 3 ↔ 4
}

/// "Unzip by 4" of a 16-bit value: bit `4m + t` moves to bit `4t + m`
/// (index bits `m1 m0 t1 t0` become `t1 t0 m1 m0`).
#[inline(always)]
fn unzip4_16(x: u32) -> u32 {
    let x = delta_swap::<3>(x, 0x0a0a); // index bits 0 ↔ 2
    delta_swap::<6>(x, 0x00cc) // 1 ↔ 3
}

/// The block as `N` little-endian words (the last one zero-filled).
#[inline(always)]
fn load<const BYTES: usize, const N: usize>(block: &[u8; BYTES]) -> [u32; N] {
    let mut words = [0u32; N];
    for (word, bytes) in words.iter_mut().zip(block.chunks(4)) {
        *word = bytes
            .iter()
            .rev()
            .fold(0, |word, byte| (word << 8) | u32::from(*byte));
    }
    words
}

/// Writes the words back to the block (the inverse of [`load`]): whole
/// words, then the bytes of a last, partial one one by one (a copy of it
/// would call `memcpy`, whose frame firmware pays in stack).
#[inline(always)]
fn store<const BYTES: usize, const N: usize>(words: &[u32; N], block: &mut [u8; BYTES]) {
    let mut chunks = block.chunks_exact_mut(4);
    for (bytes, word) in chunks.by_ref().zip(words) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    let rest = chunks.into_remainder();
    if let Some(last) = words.get(BYTES / 4) {
        let mut last = *last;
        for byte in rest {
            *byte = last.to_le_bytes()[0];
            last >>= 8;
        }
    }
}

/// Clears the state words so the permutation's last state does not stay in
/// this frame.
#[inline(always)]
fn wipe<const N: usize>(words: &mut [u32; N]) {
    zeroize::Zeroize::zeroize(words);
}

#[cfg(test)]
// Tests may panic; test data truncates on purpose.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::needless_range_loop
)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{check, random_blocks};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn matches_the_reference() {
        check("soft32 Spongent-π[160]", 1, spongent_pi_160, |b| {
            b.iter_mut().for_each(permute_160);
        });
        check("soft32 Spongent-π[176]", 1, spongent_pi_176, |b| {
            b.iter_mut().for_each(permute_176);
        });
    }

    #[test]
    fn low_planes_gather_bit_t_of_every_nibble() {
        for block in random_blocks::<16>(20, 5) {
            let words: [u32; 4] = load(&block);
            let planes = low_planes(words);
            for j in 0..4 {
                for m in 0..8 {
                    for t in 0..4 {
                        let bit = (words[j] >> (4 * m + t)) & 1;
                        assert_eq!((planes[t] >> (8 * j + m)) & 1, bit, "word {j} bit {m}.{t}");
                    }
                }
            }
        }
    }

    #[test]
    fn unzips_gather_bit_t_of_every_nibble() {
        for word in random_blocks::<4>(50, 9)
            .into_iter()
            .map(u32::from_le_bytes)
        {
            let (wide, narrow) = (unzip4(word), unzip4_16(word & 0xffff));
            for m in 0..8 {
                for t in 0..4 {
                    let bit = (word >> (4 * m + t)) & 1;
                    assert_eq!((wide >> (8 * t + m)) & 1, bit);
                    if m < 4 {
                        assert_eq!((narrow >> (4 * t + m)) & 1, bit);
                    }
                }
            }
        }
    }
}
