//! Spongent-π on one state in four bit planes, the bit permutation by BMI2
//! `pext`: the single-state tier where the CPU has a fast `pext`.
//!
//! Plane `t` is a `u64` holding bit `t` of every nibble (bit `n` of plane
//! `t` is state bit `4n + t`; N = b/4 = 40 or 44 bits). The S-box is then
//! a circuit on the four planes ([`sbox_plain`]), and the bit permutation,
//! which sends bit `t` of nibble `n` to `n + t·N`, is an unzip by four:
//! segment `t` of the new plane `u` (bits `t·N/4 ..`) is bits `u, u + 4,
//! …` of the S-box's output plane `t`, one `pext` each. A round is 16
//! `pext`, 12 shifts, 12 ORs, 17 S-box operations and 4 XORs, with the
//! state in four registers throughout.
//!
//! [`sbox_plain`] leaves output planes 1..3 complemented, so after the bit
//! permutation every plane is complemented in its segments 1..3 (mask
//! `FLIP`); the round-constant XOR that every plane takes anyway removes it
//! (the constant words below include `FLIP`), and the planes are
//! complemented so once before the first round and once after the last.
//!
//! It beats [`soft32`](super::soft32), and up to `ONE_STATE_MAX_PEXT_160`
//! blocks the batch kernels (figures: DESIGN.md, "Tier thresholds"); a
//! round is one dependency chain through the S-box and `pext`. `pext` is
//! microcoded and slow on AMD cores before Zen 3, so the token is had only
//! where it is fast ([`FastPext`]: Intel, AMD from Zen 3).
//!
//! Nothing branches on or indexes by the state. `unsafe` here is the
//! `pext`/`pdep` intrinsics, reached only through the [`FastPext`] token.

// Every index below is a loop counter over the four planes or the three
// words of a block, within the fixed-size arrays it indexes.
#![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::permutation::cpu::FastPext;
use crate::permutation::spongent::sbox::sbox_plain;
use crate::permutation::spongent::{
    COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter,
};
use core::arch::x86_64::{_pdep_u64, _pext_u64};

/// Bit `t` of every nibble of a 64-bit word.
const NIBBLE_BIT: u64 = 0x1111_1111_1111_1111;

/// The planes' segments 1..3 (nibbles `N/4 .. N`) of an `N`-nibble state.
const fn flip(nibbles: usize) -> u64 {
    ((1u64 << nibbles) - 1) & !((1u64 << (nibbles / 4)) - 1)
}

/// The words XORed into the four planes at each of `ROUNDS` rounds from
/// `counter`, for an `N`-nibble state: the round constant (counter bits
/// `k` on state bits `k` and `4N − 1 − k`) and [`flip`].
const fn round_words<const ROUNDS: usize>(counter: u8, nibbles: usize) -> [[u64; 4]; ROUNDS] {
    let mut table = [[0u64; 4]; ROUNDS];
    let mut counter = counter;
    let mut round = 0;
    while round < ROUNDS {
        let mut plane = 0;
        while plane < 4 {
            table[round][plane] = flip(nibbles);
            plane += 1;
        }
        let mut k = 0;
        while k < 7 {
            if (counter >> k) & 1 == 1 {
                // State bit k, then state bit 4N − 1 − k.
                table[round][k % 4] ^= 1 << (k / 4);
                let high = 4 * nibbles - 1 - k;
                table[round][high % 4] ^= 1 << (high / 4);
            }
            k += 1;
        }
        counter = next_counter(counter);
        round += 1;
    }
    table
}

/// [`round_words`] of Spongent-π\[160\].
static WORDS_160: [[u64; 4]; ROUNDS_160] = round_words(COUNTER_160, 40);
/// [`round_words`] of Spongent-π\[176\].
static WORDS_176: [[u64; 4]; ROUNDS_176] = round_words(COUNTER_176, 44);

/// The four planes of a block (`BYTES` = 20 or 22), complemented by
/// [`flip`].
///
/// # Safety
/// The CPU must support BMI2.
#[inline(always)]
unsafe fn load<const BYTES: usize>(block: &[u8; BYTES]) -> [u64; 4] {
    let mut words = [0u64; 3];
    for (word, bytes) in words.iter_mut().zip(block.chunks(8)) {
        let mut le = [0u8; 8];
        le[..bytes.len()].copy_from_slice(bytes);
        *word = u64::from_le_bytes(le);
    }
    let mut planes = [flip(BYTES * 2); 4];
    for (t, plane) in planes.iter_mut().enumerate() {
        let mask = NIBBLE_BIT << t;
        for (w, word) in words.iter().enumerate() {
            // SAFETY: BMI2 is available (the caller's contract).
            *plane ^= unsafe { _pext_u64(*word, mask) } << (16 * w);
        }
    }
    words.fill(0);
    core::hint::black_box(&words);
    planes
}

/// Writes the planes (complemented by [`flip`]) back to `block`.
///
/// # Safety
/// The CPU must support BMI2.
#[inline(always)]
unsafe fn store<const BYTES: usize>(planes: [u64; 4], block: &mut [u8; BYTES]) {
    let mut words = [0u64; 3];
    for (t, plane) in planes.into_iter().enumerate() {
        let plane = plane ^ flip(BYTES * 2);
        let mask = NIBBLE_BIT << t;
        for (w, word) in words.iter_mut().enumerate() {
            // SAFETY: BMI2 is available (the caller's contract).
            *word |= unsafe { _pdep_u64(plane >> (16 * w), mask) };
        }
    }
    for (word, bytes) in words.iter().zip(block.chunks_mut(8)) {
        let le = word.to_le_bytes();
        bytes.copy_from_slice(&le[..bytes.len()]);
    }
    words.fill(0);
    core::hint::black_box(&words);
}

/// Spongent-π on the planes of an `NIBBLES`-nibble state, one round per
/// entry of `round_words`.
///
/// # Safety
/// The CPU must support BMI2.
#[inline(always)]
unsafe fn rounds<const NIBBLES: u32>(planes: &mut [u64; 4], round_words: &[[u64; 4]]) {
    let segment = NIBBLES / 4;
    let [mut p0, mut p1, mut p2, mut p3] = *planes;
    for [c0, c1, c2, c3] in round_words {
        let q = sbox_plain([p0 ^ c0, p1 ^ c1, p2 ^ c2, p3 ^ c3]);
        let mut next = [0u64; 4];
        for (u, plane) in next.iter_mut().enumerate() {
            let mask = (NIBBLE_BIT << u) & ((1u64 << NIBBLES) - 1);
            // SAFETY: BMI2 is available (the caller's contract).
            *plane = unsafe {
                _pext_u64(q[0], mask)
                    | _pext_u64(q[1], mask) << segment
                    | _pext_u64(q[2], mask) << (2 * segment)
                    | _pext_u64(q[3], mask) << (3 * segment)
            };
        }
        [p0, p1, p2, p3] = next;
    }
    *planes = [p0, p1, p2, p3];
}

/// Spongent-π on one block of `BYTES` bytes (`NIBBLES` = 2 × `BYTES`),
/// one round per entry of `round_words`.
///
/// # Safety
/// The CPU must support BMI2.
#[target_feature(enable = "bmi2")]
unsafe fn permute_bmi2<const BYTES: usize, const NIBBLES: u32, const ROUNDS: usize>(
    block: &mut [u8; BYTES],
    round_words: &[[u64; 4]; ROUNDS],
) {
    // SAFETY: BMI2 is available (this function's contract).
    unsafe {
        let mut planes = load(block);
        rounds::<NIBBLES>(&mut planes, round_words);
        store(planes, block);
        planes.fill(0);
        core::hint::black_box(&planes);
    }
}

/// Spongent-π\[160\] on one block.
pub(super) fn permute_160(_: FastPext, block: &mut [u8; 20]) {
    // SAFETY: the token exists only if BMI2 was detected at run time.
    unsafe { permute_bmi2::<20, 40, ROUNDS_160>(block, &WORDS_160) }
}

/// Spongent-π\[176\] on one block.
pub(super) fn permute_176(_: FastPext, block: &mut [u8; 22]) {
    // SAFETY: as in `permute_160`.
    unsafe { permute_bmi2::<22, 44, ROUNDS_176>(block, &WORDS_176) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{check, fast_pext_or_fail};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn pext_matches_the_reference() {
        if let Some(token) = fast_pext_or_fail() {
            check("pext Spongent-pi[160]", 1, spongent_pi_160, |b| {
                b.iter_mut().for_each(|block| permute_160(token, block));
            });
            check("pext Spongent-pi[176]", 1, spongent_pi_176, |b| {
                b.iter_mut().for_each(|block| permute_176(token, block));
            });
        }
    }

    #[test]
    fn round_words_hold_the_constants_and_the_flip() {
        // Round 0 of Spongent-π[160]: counter 0x75 = 0b111_0101 sets state
        // bits 0, 2, 4, 5, 6 and 159, 157, 155, 154, 153.
        let mut want = [flip(40); 4];
        for bit in [0usize, 2, 4, 5, 6, 159, 157, 155, 154, 153] {
            want[bit % 4] ^= 1 << (bit / 4);
        }
        assert_eq!(WORDS_160[0], want);
        assert_eq!(flip(40), 0xFF_FFFF_FC00);
        assert_eq!(flip(44), 0xFFF_FFFF_F800);
    }
}
