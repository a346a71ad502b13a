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
//!    high part (the 8 or 12 nibbles past them: for b = 176, two planes'
//!    12 bits to a word, one in each half);
//! 3. applies the S-box to the planes as a boolean circuit;
//! 4. concatenates the planes back into words: the bit permutation sends bit
//!    `t` of nibble `n` to `n + t·b/4`, so the new state *is* plane 0 ‖ plane
//!    1 ‖ plane 2 ‖ plane 3.
//!
//! The regrouping of step 2 is a transpose of index bits. For the low words
//! it is five swaps of a word-index bit with a bit-index bit (two word pairs
//! each) and one renaming; the high parts are one word unzipped by four
//! (b = 160), or five such swaps on the pair of words (b = 176).
//! The words are named one by one, never looped over, so that they stay in
//! registers (at opt-level "s" LLVM keeps a looped-over array in memory).
//! Nothing branches on or indexes by the state.

use crate::permutation::spongent::sbox::sbox;
use crate::permutation::spongent::{
    COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter,
};

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
///
/// The state is not wiped here: what is left of it lives in this frame,
/// which the public call that got here clears when it is done
/// (`src/scrub.rs`, checked by the firmware benchmark's scan of the dead
/// stack).
pub(in crate::permutation) fn permute_160(block: &mut [u8; 20]) {
    let mut words = [
        get(block, 0),
        get(block, 4),
        get(block, 8),
        get(block, 12),
        get(block, 16),
    ];
    for &[counter, reversed] in &CONSTANTS_160 {
        round_160(&mut words, counter, reversed);
    }
    let [w0, w1, w2, w3, w4] = words;
    put(block, 0, w0);
    put(block, 4, w1);
    put(block, 8, w2);
    put(block, 12, w3);
    put(block, 16, w4);
}

/// Spongent-π\[176\] on one block (not wiped here either: see
/// [`permute_160`]).
pub(in crate::permutation) fn permute_176(block: &mut [u8; 22]) {
    let mut words = [
        get(block, 0),
        get(block, 4),
        get(block, 8),
        get(block, 12),
        get(block, 16),
        get(block, 20),
    ];
    for &[counter, reversed] in &CONSTANTS_176 {
        round_176(&mut words, counter, reversed);
    }
    let [w0, w1, w2, w3, w4, w5] = words;
    put(block, 0, w0);
    put(block, 4, w1);
    put(block, 8, w2);
    put(block, 12, w3);
    put(block, 16, w4);
    put(block, 20, w5);
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
/// bytes 20 and 21 in its low half, its high half clear).
#[inline(always)]
fn round_176(words: &mut [u32; 6], counter: u8, reversed: u8) {
    let [w0, w1, w2, w3, w4, w5] = *words;
    // Byte 0 and byte 21 (bits 8..16 of word 5) take the counter, the
    // latter bit-reversed.
    let w0 = w0 ^ u32::from(counter);
    let w5 = w5 ^ (u32::from(reversed) << 8);
    // Planes: nibbles 0..32 in the low words; 32..44 in two words, planes
    // 0 and 1 in their low halves, 2 and 3 in their high halves.
    let [a, b] = high_planes_176(w4, w5);
    let [h0, h1, h2, h3] = sbox([a, b, a >> 16, b >> 16]);
    let [l0, l1, l2, l3] = sbox(low_planes([w0, w1, w2, w3]));
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

/// Nibbles 32..44 of Spongent-π\[176\] (word 4, and word 5's low half) to
/// the high parts of the four planes: bit `4m + t` of nibble `32 + m` goes
/// to bit `16·t1 + m` of word `t0`. As index bits, (word `w`, bit
/// `m2 m1 m0 t1 t0`) become (word `t0`, bit `t1 w m2 m1 m0`): five swaps of
/// the word bit with a bit-index bit, which treat both words at once and
/// beat any sequence with swaps inside the words (those treat one word
/// each, and the one that moves bit 4 needs a mask Thumb-2 cannot take as
/// an immediate; DESIGN.md, "Spongent-π\[176\] on 32-bit cores").
#[inline(always)]
fn high_planes_176(mut w4: u32, mut w5: u32) -> [u32; 2] {
    // The word bit holds, in turn: w, m1, t1, m2, m0, t0.
    cross_swap::<8>(&mut w4, &mut w5, 0x00ff_00ff);
    cross_swap::<2>(&mut w4, &mut w5, 0x3333_3333);
    let (mut w4, mut w5) = swap_halves(w4, w5);
    cross_swap::<4>(&mut w4, &mut w5, 0x0f0f_0f0f);
    cross_swap::<1>(&mut w4, &mut w5, 0x5555_5555);
    [w4, w5]
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

/// [`cross_swap`] by 16: the high half of `low` and the low half of `high`
/// trade places. Arm v7E-M merges halves in one `pkhbt` or `pkhtb`, two
/// instructions where the XORs take four; elsewhere the merge costs more.
#[inline(always)]
fn swap_halves(mut low: u32, mut high: u32) -> (u32, u32) {
    if cfg!(elephant_pkh) {
        merge_halves(low, high)
    } else {
        cross_swap::<16>(&mut low, &mut high, 0x0000_ffff);
        (low, high)
    }
}

/// [`swap_halves`] as merges of half-words (its form on Arm v7E-M).
#[inline(always)]
fn merge_halves(low: u32, high: u32) -> (u32, u32) {
    (
        (low & 0xffff) | (high << 16),
        (high & 0xffff_0000) | (low >> 16),
    )
}

/// Four natural words (nibbles 0..32) to the low words of the four planes:
/// bit `4m + t` of word `j` goes to bit `8j + m` of plane `t`. As index bits,
/// (word `j1 j0`, bit `m2 m1 m0 t1 t0`) become (word `t1 t0`, bit
/// `j1 j0 m2 m1 m0`): a 7-cycle of index bits, done as six transpositions
/// through the word bit `j1` (one of them a renaming of words).
#[inline(always)]
fn low_planes([mut a, mut b, mut c, mut d]: [u32; 4]) -> [u32; 4] {
    // Word pairs differing in word-index bit 1: (a, c) and (b, d).
    (a, c) = swap_halves(a, c);
    (b, d) = swap_halves(b, d);
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

/// The little-endian word at byte `at` of a block: four bytes, or the two
/// that end a Spongent-π\[176\] block. Whole words go in one load where
/// the core reads unaligned words; the words are named one by one, not
/// looped over, so that they stay in registers.
#[inline(always)]
fn get(block: &[u8], at: usize) -> u32 {
    let bytes = block.get(at..).unwrap_or_default();
    match (bytes.first_chunk::<4>(), bytes.first_chunk::<2>()) {
        (Some(word), _) => u32::from_le_bytes(*word),
        (None, Some(half)) => u32::from(u16::from_le_bytes(*half)),
        (None, None) => 0,
    }
}

/// Writes `word` at byte `at` of a block (the inverse of [`get`]).
#[inline(always)]
fn put(block: &mut [u8], at: usize, word: u32) {
    let bytes = block.get_mut(at..).unwrap_or_default();
    if let Some(whole) = bytes.first_chunk_mut::<4>() {
        *whole = word.to_le_bytes();
    } else if let Some(half) = bytes.first_chunk_mut::<2>() {
        *half = [word.to_le_bytes()[0], word.to_le_bytes()[1]];
    }
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
            let words = [0, 4, 8, 12].map(|at| get(&block, at));
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
    fn unzip_gathers_bit_t_of_every_nibble() {
        for word in random_blocks::<4>(50, 9)
            .into_iter()
            .map(u32::from_le_bytes)
        {
            let wide = unzip4(word);
            for m in 0..8 {
                for t in 0..4 {
                    let bit = (word >> (4 * m + t)) & 1;
                    assert_eq!((wide >> (8 * t + m)) & 1, bit);
                }
            }
        }
    }

    #[test]
    fn high_planes_176_gather_bit_t_of_nibbles_32_to_44() {
        for block in random_blocks::<6>(50, 11) {
            let (w4, w5) = (get(&block, 0), get(&block, 4));
            let [a, b] = high_planes_176(w4, w5);
            let planes = [a & 0xffff, b & 0xffff, a >> 16, b >> 16];
            for m in 0..12 {
                for t in 0..4 {
                    let bit = if m < 8 {
                        w4 >> (4 * m + t)
                    } else {
                        w5 >> (4 * (m - 8) + t)
                    } & 1;
                    assert_eq!((planes[t] >> m) & 1, bit, "nibble {} bit {t}", 32 + m);
                }
            }
            // Nothing else: bits 12..16 of every plane stay clear.
            assert!(planes.iter().all(|plane| plane >> 12 == 0));
        }
    }

    #[test]
    fn half_swaps_agree() {
        for words in random_blocks::<8>(50, 13) {
            let (low, high) = (get(&words, 0), get(&words, 4));
            let (mut x, mut y) = (low, high);
            cross_swap::<16>(&mut x, &mut y, 0x0000_ffff);
            assert_eq!(
                (x, y),
                (
                    (low & 0xffff) | (high << 16),
                    (high >> 16 << 16) | (low >> 16)
                )
            );
            assert_eq!(merge_halves(low, high), (x, y));
            assert_eq!(swap_halves(low, high), (x, y));
        }
    }

    #[test]
    fn words_go_in_and_out_little_endian() {
        for block in random_blocks::<22>(20, 17) {
            let words = [0, 4, 8, 12, 16, 20].map(|at| get(&block, at));
            for (at, word) in words.iter().enumerate() {
                let bytes = word.to_le_bytes();
                let n = if at < 5 { 4 } else { 2 };
                assert_eq!(bytes[..n], block[4 * at..4 * at + n]);
                assert!(bytes[n..].iter().all(|&byte| byte == 0));
            }
            let mut out = [0u8; 22];
            for (at, word) in words.iter().enumerate() {
                put(&mut out, 4 * at, *word);
            }
            assert_eq!(out, block);
        }
    }
}
