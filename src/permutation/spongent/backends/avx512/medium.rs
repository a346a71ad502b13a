//! Spongent-π\[160\] on up to 64 states with the state's eight 20-bit
//! ranges in the lanes of 20 `zmm` words: the AVX-512 tier for medium
//! batches (9 to 64 blocks), which the 256-state kernel of the parent
//! module would run mostly empty at the same cost as a full call.
//!
//! # Layout
//! Bit `p` of state `s` is bit `s` of lane `p / 20` of word `p mod 20`. So
//! the four bits of nibble `k` (bits `4k .. 4k + 4`) sit in lane `k / 5` of
//! the four words `4(k mod 5) ..`: a *slot* of four words holds one nibble
//! of every lane, and one S-box circuit on a slot's words computes eight
//! S-boxes of 64 states (the true S-box, [`sbox_ternary`]: no
//! complemented quarters, which would differ between lanes).
//!
//! # Getting in and out
//! The blocks' byte columns, bit-transposed ([`columns`](super::columns):
//! three stages, as the 64-state Keccak kernel does the first two), then
//! masked `vpermb`s gather each word's lanes from the columns they come
//! from. The way back is the same stages reversed, and masked stores write
//! only the blocks' bytes.
//!
//! Nothing is indexed by the state and nothing branches on it: the round
//! constants are masked XORs chosen by the public round counter.
//!
//! `unsafe` here is the intrinsics: [`permute_160`] takes the
//! [`Avx512Vbmi`] token, which only run-time detection of AVX-512F, VL,
//! BW, VBMI, GFNI and AVX2 gives (a superset of the parent module's
//! features, which the shared words need).
//!
//! More on the layout and the round, with what was measured: DESIGN.md,
//! "Kernel layouts in detail".

use super::Zmm;
use super::columns::{Columns, GROUP, WINDOW, blocks_to_columns, column_of, columns_to_blocks};
use crate::permutation::cpu::Avx512Vbmi;
use crate::permutation::simd::avx512::load_table;
use crate::permutation::spongent::backends::soft64::Word;
use crate::permutation::spongent::sbox::sbox_ternary;
use crate::permutation::spongent::{COUNTER_160, ROUNDS_160, next_counter};
use core::arch::x86_64::{
    _mm512_mask_permutexvar_epi8, _mm512_mask_xor_epi64, _mm512_permutex2var_epi64,
    _mm512_set_epi64, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_shuffle_i64x2,
};
use zeroize::Zeroize;

/// States one call permutes: the bits of a 64-bit lane.
const STATES: usize = 64;

/// Words of the layout: 160 bits in eight lanes of 20.
const WORDS: usize = 20;

/// Bytes of a block.
const BLOCK_BYTES: usize = 20;

/// `vpermb` indices and masks of the last stage, for every word `j`: lane
/// `l` of word `j` is state bit `p = 20l + j` (its eight bytes from the
/// eight qwords of byte column `p / 8`); `[j][c]` masks the lanes that come
/// from column `c`.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[allow(clippy::cast_possible_truncation)] // Below 64.
const fn word_tables() -> ([[u8; WINDOW]; WORDS], [[u64; BLOCK_BYTES]; WORDS]) {
    let mut indices = [[0u8; WINDOW]; WORDS];
    let mut masks = [[0u64; BLOCK_BYTES]; WORDS];
    let mut j = 0;
    while j < WORDS {
        let mut d = 0;
        while d < WINDOW {
            let (lane, g) = (d / GROUP, d % GROUP);
            let (column, byte) = column_of(WORDS * lane + j);
            indices[j][d] = (GROUP * g + byte) as u8;
            masks[j][column] |= 1 << d;
            d += 1;
        }
        j += 1;
    }
    (indices, masks)
}

/// The last stage reversed: byte `8g + byte` of column `c` (state bit
/// `p = 8c + 7 − byte`) comes from byte `8(p / 20) + g` of word `p mod 20`;
/// `[c][j]` masks the bytes that come from word `j`.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[allow(clippy::cast_possible_truncation)] // Below 64.
const fn column_tables() -> ([[u8; WINDOW]; BLOCK_BYTES], [[u64; WORDS]; BLOCK_BYTES]) {
    let mut indices = [[0u8; WINDOW]; BLOCK_BYTES];
    let mut masks = [[0u64; WORDS]; BLOCK_BYTES];
    let mut c = 0;
    while c < BLOCK_BYTES {
        let mut d = 0;
        while d < WINDOW {
            let (g, byte) = (d / GROUP, d % GROUP);
            let p = GROUP * c + GROUP - 1 - byte;
            indices[c][d] = (GROUP * (p / WORDS) + g) as u8;
            masks[c][p % WORDS] |= 1 << d;
            d += 1;
        }
        c += 1;
    }
    (indices, masks)
}

/// [`word_tables`], evaluated once.
const TO_WORDS: ([[u8; WINDOW]; WORDS], [[u64; BLOCK_BYTES]; WORDS]) = word_tables();
/// [`column_tables`], evaluated once.
const TO_COLUMNS: ([[u8; WINDOW]; BLOCK_BYTES], [[u64; WORDS]; BLOCK_BYTES]) = column_tables();

/// Up to 64 blocks (missing ones read as zero) as the 20 words of the
/// layout: their column vectors ([`blocks_to_columns`]), then masked
/// `vpermb`s gather each word's lanes from the columns they come from.
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI must be available.
#[inline(always)]
unsafe fn blocks_to_words(blocks: &[[u8; BLOCK_BYTES]]) -> [Zmm; WORDS] {
    // SAFETY: the features are available (the caller's contract), for
    // every block in this function.
    let columns = unsafe { blocks_to_columns(blocks) };
    // Each word by its own call with `J` a constant, so that its masks
    // are constants too and its loop unrolls to the `vpermb`s of the
    // columns it takes lanes from. Not through a closure (`from_fn`): one
    // left out of line takes its intrinsics as calls (it lacks the
    // features); nor a loop over `j`, which LLVM kept rolled, with run-time
    // mask tests and the array zeroed first (Dumbo at 1500 B 3 % slower, on
    // an AMD EPYC with AVX-512).
    macro_rules! words {
        ($($j:literal)*) => {
            // SAFETY: as above.
            [$(unsafe { gather_word::<$j>(&columns) }),*]
        };
    }
    const { assert!(WORDS == 20) };
    words!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19)
}

/// Word `J` of the layout from the column vectors: masked `vpermb`s from
/// the columns that hold its lanes.
///
/// # Safety
/// AVX-512F, AVX-512BW and AVX-512 VBMI must be available.
#[inline(always)]
unsafe fn gather_word<const J: usize>(columns: &Columns) -> Zmm {
    let (word_indices, word_masks) = TO_WORDS;
    // SAFETY: the features are available (the caller's contract), for
    // every block in this function.
    let mut word = unsafe { _mm512_setzero_si512() };
    // SAFETY: as above.
    let index = unsafe { load_table(&word_indices[J]) };
    for (column, mask) in columns.as_flattened().iter().zip(&word_masks[J]) {
        if *mask != 0 {
            // SAFETY: as above.
            word = unsafe { _mm512_mask_permutexvar_epi8(word, *mask, index, *column) };
        }
    }
    Zmm(word)
}

/// [`blocks_to_words`] reversed: the 20 words back into the blocks (only
/// the bytes of `blocks` are written).
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI must be available.
#[inline(always)]
unsafe fn words_to_blocks(words: &[Zmm; WORDS], blocks: &mut [[u8; BLOCK_BYTES]]) {
    // SAFETY: the features are available (the caller's contract), for
    // every block in this function.
    let zero = unsafe { _mm512_setzero_si512() };
    let (column_indices, column_masks) = TO_COLUMNS;
    let columns: Columns = each_of_three!(m => each_of_eight!(r => {
        let c = GROUP * m + r;
        match (column_indices.get(c), column_masks.get(c)) {
            (Some(index), Some(masks)) => {
                // SAFETY: as above.
                let index = unsafe { load_table(index) };
                let mut column = zero;
                for (word, mask) in words.iter().zip(masks) {
                    if *mask != 0 {
                        // SAFETY: as above.
                        column =
                            unsafe { _mm512_mask_permutexvar_epi8(column, *mask, index, word.0) };
                    }
                }
                column
            }
            _ => zero,
        }
    }));
    // SAFETY: as above.
    unsafe { columns_to_blocks(&columns, blocks) };
}

/// Lane `m + 4h` of output `t` of a slot's S-boxes to lane `2t + h` of
/// output word `m` (see the module documentation).
///
/// # Safety
/// AVX-512F must be available.
#[inline(always)]
unsafe fn bit_permutation([y0, y1, y2, y3]: [Zmm; 4]) -> [Zmm; 4] {
    // SAFETY: AVX-512F is available (the caller's contract), here and in
    // the block below.
    let (low, high) = unsafe {
        (
            _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0),
            _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2),
        )
    };
    // SAFETY: as above.
    unsafe {
        // Lanes m and m + 4 of two outputs side by side, for m = 0, 1
        // (`low`) and 2, 3 (`high`).
        let a_low = _mm512_permutex2var_epi64(y0.0, low, y1.0);
        let b_low = _mm512_permutex2var_epi64(y2.0, low, y3.0);
        let a_high = _mm512_permutex2var_epi64(y0.0, high, y1.0);
        let b_high = _mm512_permutex2var_epi64(y2.0, high, y3.0);
        [
            Zmm(_mm512_shuffle_i64x2::<0x44>(a_low, b_low)),
            Zmm(_mm512_shuffle_i64x2::<0xee>(a_low, b_low)),
            Zmm(_mm512_shuffle_i64x2::<0x44>(a_high, b_high)),
            Zmm(_mm512_shuffle_i64x2::<0xee>(a_high, b_high)),
        ]
    }
}

/// One round: the round constant (counter bit `k` into bit `k`, lane 0 of
/// word `k`, and into bit 159 − `k`, lane 7 of word 19 − `k`), then the
/// S-boxes of every slot and the bit permutation.
///
/// # Safety
/// AVX-512F must be available.
#[inline(always)]
unsafe fn round(token: Avx512Vbmi, words: [Zmm; WORDS], counter: u8) -> [Zmm; WORDS] {
    let mut x = words;
    // SAFETY: AVX-512F is available (the caller's contract).
    let ones = unsafe { _mm512_set1_epi64(-1) };
    for k in 0..7 {
        let bit = (counter >> k) & 1;
        let (low, high) = (k, WORDS.wrapping_sub(1).wrapping_sub(k));
        if let Some(word) = x.get_mut(low) {
            // SAFETY: as above.
            *word = Zmm(unsafe { _mm512_mask_xor_epi64(word.0, bit, word.0, ones) });
        }
        if let Some(word) = x.get_mut(high) {
            // SAFETY: as above.
            *word = Zmm(unsafe { _mm512_mask_xor_epi64(word.0, bit << 7, word.0, ones) });
        }
    }
    let mut out = [Zmm::zero(token); WORDS];
    for (slot, nibble) in x.chunks_exact(4).enumerate() {
        if let &[x0, x1, x2, x3] = nibble {
            // SAFETY: as above.
            let moved = unsafe { bit_permutation(sbox_ternary([x0, x1, x2, x3])) };
            for (m, word) in moved.into_iter().enumerate() {
                if let Some(to) = out.get_mut(m.wrapping_mul(5).wrapping_add(slot)) {
                    *to = word;
                }
            }
        }
    }
    out
}

/// Spongent-π\[160\] on up to 64 blocks (missing states are zero, and
/// nothing is written for them).
///
/// # Safety
/// AVX2, AVX-512F, AVX-512VL, AVX-512BW, AVX-512 VBMI and GFNI must be
/// available.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512vbmi,gfni")]
unsafe fn permute_x64(token: Avx512Vbmi, blocks: &mut [[u8; BLOCK_BYTES]]) {
    // SAFETY: the features are available (the caller's contract), all the
    // helpers need.
    let mut words = unsafe { blocks_to_words(blocks) };
    let mut counter = COUNTER_160;
    for _ in 0..ROUNDS_160 {
        // SAFETY: as above.
        words = unsafe { round(token, words, counter) };
        counter = next_counter(counter);
    }
    // SAFETY: as above.
    unsafe { words_to_blocks(&words, blocks) };
    words.zeroize();
}

/// Spongent-π\[160\] on every block, 64 at a time.
pub(in crate::permutation::spongent::backends) fn permute_160(
    token: Avx512Vbmi,
    blocks: &mut [[u8; BLOCK_BYTES]],
) {
    for chunk in blocks.chunks_mut(STATES) {
        // SAFETY: the token exists only if all those features were
        // detected at run time.
        unsafe { permute_x64(token, chunk) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx512_vbmi_or_fail, check};
    use crate::permutation::spongent_pi_160;

    /// Named `vbmi` so that CI runs it with the Miri that emulates `vpermb`.
    #[test]
    fn avx512_vbmi_medium_matches_the_reference() {
        if let Some(token) = avx512_vbmi_or_fail() {
            check(
                "AVX-512 lanes Spongent-π[160]",
                STATES,
                spongent_pi_160,
                |blocks| {
                    permute_160(token, blocks);
                },
            );
        }
    }
}
