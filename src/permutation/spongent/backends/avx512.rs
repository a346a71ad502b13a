//! The AVX-512 tier of Spongent-π: 256 states bitsliced in `ymm` words
//! (AVX-512VL) or 512 in `zmm` words, two rounds per pass over memory, the
//! S-boxes in three-input logic (`vpternlogd`).
//!
//! Bit `p` of every state sits in one word (`p` < b, b = 160 or 176), as in
//! the portable kernel of [`soft64`](super::soft64). What differs is the
//! round loop. The pLayer sends output bit `j` of S-box `k` to bit
//! `k + j·b/4`; with b/4 a multiple of four, the outputs of the four S-boxes
//! `4g .. 4g + 4` of one round are, bit `j` of each, exactly the inputs of
//! S-box `g + j·b/16` of the next. So one *group* (16 words: 4 S-boxes, then
//! the 4 S-boxes of the next round they feed) reads 16 words, keeps the 16
//! words between the rounds in registers, and writes 16: half the loads and
//! stores of a round-by-round kernel, which with the three-input S-boxes is
//! what bounded it (a load and a store per S-box bit against one
//! `vpternlogd`). A group needs 16 live words plus the S-box temporaries, so
//! it fits the 32 vector registers of AVX-512 (not the 16 of AVX2).
//!
//! Nothing branches on or indexes by the state: every branch and index is
//! on the round counter, a const parameter or a block count.
//!
//! `unsafe` here is the intrinsics and one reinterpretation of the words
//! as `u64` rows: the entry points take the [`Avx512Vbmi`] token, which
//! only run-time detection of AVX-512F, AVX-512VL, AVX-512BW, AVX-512 VBMI,
//! GFNI and AVX2 gives. Built by Rust 1.89 or newer (`elephant_avx512`).
//!
//! Why this form, what else was measured, and the round constants and
//! transposes in detail: DESIGN.md, "Spongent-π on AVX-512" and "Kernel
//! layouts in detail".

// Every index below is a const parameter or a loop counter combined with
// the constants b, b/4 and b/16 (b = 160 or 176), and stays below the
// lengths of the fixed-size arrays it indexes (192 slices, 16-word groups,
// 7 round-constant masks, 64-byte tables); the arithmetic is on those same
// small numbers. The tests run every group of both widths.
#![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

/// `[e(0), e(1), e(2)]` for `$k => e($k)`, written out: the arrays of
/// vectors on the way in and out are built this way, not zeroed and then
/// filled in a loop (LLVM kept the zeroing, `memset`s of 1.3–1.5 KiB a
/// chunk), nor through a closure (`core::array::from_fn`), whose body did
/// not inline the intrinsics (DESIGN.md, "Spongent-π on AVX-512").
macro_rules! each_of_three {
    ($k:ident => $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
        ]
    };
}

/// `[e(0), e(1), …, e(7)]` for `$k => e($k)`, as [`each_of_three`].
macro_rules! each_of_eight {
    ($k:ident => $e:expr) => {
        [
            {
                let $k = 0;
                $e
            },
            {
                let $k = 1;
                $e
            },
            {
                let $k = 2;
                $e
            },
            {
                let $k = 3;
                $e
            },
            {
                let $k = 4;
                $e
            },
            {
                let $k = 5;
                $e
            },
            {
                let $k = 6;
                $e
            },
            {
                let $k = 7;
                $e
            },
        ]
    };
}

// The 64-state tier for medium batches, in this module's words.
pub(super) mod medium;
// Blocks to bit-transposed byte columns and back, for both layouts.
mod columns;

use super::soft64::Word;
use crate::permutation::cpu::Avx512Vbmi;
use crate::permutation::simd::avx512::load_table;
use crate::permutation::spongent::sbox::{Bits, Ternary, sbox_ternary};
use crate::permutation::spongent::{
    COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176, next_counter,
};
use columns::{BLOCKS as CHUNK, Columns, GROUP, blocks_to_columns, columns_to_blocks};
use core::arch::x86_64::{
    __m256i, __m512i, _mm_set_epi64x, _mm256_and_si256, _mm256_andnot_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_sll_epi64, _mm256_srl_epi64,
    _mm256_storeu_si256, _mm256_ternarylogic_epi32, _mm256_xor_si256, _mm512_and_si512,
    _mm512_andnot_si512, _mm512_loadu_si512, _mm512_mask_blend_epi8, _mm512_or_si512,
    _mm512_permutex2var_epi8, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_sll_epi64,
    _mm512_slli_epi64, _mm512_srl_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
    _mm512_ternarylogic_epi32, _mm512_xor_si512,
};
use core::mem::MaybeUninit;
use zeroize::Zeroize;

/// Blocks one call of the widest kernel permutes.
pub(super) const WIDTH: usize = 512;

/// A vector word of bit slices, in 64-bit lanes: what the kernel needs
/// beyond [`Word`] and [`Ternary`].
///
/// Invariant of the implementations: they are used only by the kernels
/// here and in [`medium`], which run only inside `#[target_feature]`
/// functions enabling (at least) AVX2, AVX-512F, AVX-512VL and GFNI,
/// reached only with an [`Avx512Vbmi`] token; so those features are
/// available whenever one of their methods runs (the safety argument of
/// every `unsafe` block in them). The methods are `#[inline(always)]` so
/// that they, and the intrinsics in them, inline into those functions.
trait Slice: Word<Token = Avx512Vbmi> + Ternary {
    /// States per word: 64 per 64-bit lane.
    const STATES: usize;
    /// The word whose lanes are `rows[..STATES / 64]`.
    fn load(rows: &[u64]) -> Self;
    /// Writes the lanes to `rows[..STATES / 64]`.
    fn store(self, rows: &mut [u64]);
    /// The 64-bit lanes of `words`, in order: how the way in and out
    /// addresses the words by the vector (the chunks' column vectors are
    /// parked in the scratch words, which are free then).
    fn as_rows(words: &mut [Self]) -> &mut [u64];
    /// [`Self::as_rows`] of words not yet written, for the way in to write
    /// whole before it reads them.
    fn uninit_rows<const N: usize>(words: &mut MaybeUninit<[Self; N]>) -> &mut [MaybeUninit<u64>];
}

/// Implements [`Bits`], [`Ternary`], [`Word`], [`Slice`] and [`Zeroize`]
/// for a vector newtype from its intrinsics (the shifts take the count in
/// a vector: with a constant count they compile to the immediate forms).
macro_rules! slice_word {
    (
        $name:ident($vector:ty), lanes: $lanes:literal,
        xor: $xor:ident, and: $and:ident, or: $or:ident, andnot: $andnot:ident,
        ternary: $ternary:ident, splat: $splat:ident, zero: $zero:ident,
        load: $load:ident, store: $store:ident,
        shl: $shl:ident, shr: $shr:ident $(,)?
    ) => {
        /// Bit slices of
        #[doc = concat!(stringify!($lanes), " × 64")]
        /// states (see [`Slice`] for why its intrinsics are safe to call).
        #[derive(Clone, Copy)]
        #[repr(transparent)]
        struct $name($vector);

        impl Zeroize for $name {
            fn zeroize(&mut self) {
                self.0.zeroize();
            }
        }

        impl Bits for $name {
            #[inline(always)]
            fn xor(self, other: Self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $xor(self.0, other.0) })
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $and(self.0, other.0) })
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $or(self.0, other.0) })
            }
            #[inline(always)]
            fn andnot(self, other: Self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $andnot(self.0, other.0) })
            }
            #[inline(always)]
            fn not(self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                self.xor(Self(unsafe { $splat(-1) }))
            }
        }

        impl Ternary for $name {
            #[inline(always)]
            fn ternary<const TABLE: i32>(self, b: Self, c: Self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $ternary::<TABLE>(self.0, b.0, c.0) })
            }
        }

        #[allow(clippy::cast_possible_wrap)] // Lanes are bit patterns.
        impl Word for $name {
            type Token = Avx512Vbmi;
            #[inline(always)]
            fn zero(_: Avx512Vbmi) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $zero() })
            }
            #[inline(always)]
            fn splat(_: Avx512Vbmi, bits: u64) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $splat(bits as i64) })
            }
            #[inline(always)]
            fn shl<const S: i32>(self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $shl(self.0, S) })
            }
            #[inline(always)]
            fn shr<const S: i32>(self) -> Self {
                // SAFETY: the features are available (see `Slice`).
                Self(unsafe { $shr(self.0, S) })
            }
            #[inline(always)]
            fn from_lanes(_: Avx512Vbmi, mut lane: impl FnMut(usize) -> u64) -> Self {
                let mut lanes = [0u64; $lanes];
                for (l, to) in lanes.iter_mut().enumerate() {
                    *to = lane(l);
                }
                Self::load(&lanes)
            }
            #[inline(always)]
            fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
                let mut lanes = [0u64; $lanes];
                self.store(&mut lanes);
                for (l, value) in lanes.into_iter().enumerate() {
                    sink(l, value);
                }
            }
        }

        impl Slice for $name {
            const STATES: usize = 64 * $lanes;
            #[inline(always)]
            #[allow(clippy::panic)] // Unreachable: the kernel passes whole words.
            fn load(rows: &[u64]) -> Self {
                let Some(lanes) = rows.get(..$lanes) else {
                    panic!("a short row slice");
                };
                // SAFETY: the features are available (see `Slice`), and
                // `lanes` has the vector's size; the load is unaligned.
                Self(unsafe { $load(lanes.as_ptr().cast()) })
            }
            #[inline(always)]
            #[allow(clippy::panic)] // Unreachable: the kernel passes whole words.
            fn store(self, rows: &mut [u64]) {
                let Some(lanes) = rows.get_mut(..$lanes) else {
                    panic!("a short row slice");
                };
                // SAFETY: the features are available (see `Slice`), and
                // `lanes` has the vector's size; the store is unaligned.
                unsafe { $store(lanes.as_mut_ptr().cast(), self.0) }
            }
            #[inline(always)]
            fn as_rows(words: &mut [Self]) -> &mut [u64] {
                let len = words.len().saturating_mul($lanes);
                // SAFETY: `Self` is a `repr(transparent)` wrapper of a
                // vector of exactly `$lanes` 64-bit lanes, without padding,
                // aligned at least as `u64`; every bit pattern is valid for
                // both types. The slice covers the same bytes as `words`,
                // whose exclusive borrow it takes over for its lifetime.
                unsafe { core::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u64>(), len) }
            }
            #[inline(always)]
            fn uninit_rows<const N: usize>(
                words: &mut MaybeUninit<[Self; N]>,
            ) -> &mut [MaybeUninit<u64>] {
                let len = N.saturating_mul($lanes);
                // SAFETY: as in `as_rows`: `[Self; N]` is `N × $lanes`
                // 64-bit lanes without padding, so `MaybeUninit` of it has
                // the layout of as many `MaybeUninit<u64>`, which any
                // (even no) bit pattern is valid for.
                unsafe {
                    core::slice::from_raw_parts_mut(
                        words.as_mut_ptr().cast::<MaybeUninit<u64>>(),
                        len,
                    )
                }
            }
        }
    };
}

/// Each 64-bit lane of `x` shifted left by `count` (a constant at every
/// call, so this compiles to the immediate form).
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn ymm_sll(x: __m256i, count: i32) -> __m256i {
    // SAFETY: AVX2 is available (the caller's contract).
    unsafe { _mm256_sll_epi64(x, _mm_set_epi64x(0, i64::from(count))) }
}

/// Each 64-bit lane of `x` shifted right by `count`, as [`ymm_sll`].
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn ymm_srl(x: __m256i, count: i32) -> __m256i {
    // SAFETY: AVX2 is available (the caller's contract).
    unsafe { _mm256_srl_epi64(x, _mm_set_epi64x(0, i64::from(count))) }
}

/// Each 64-bit lane of `x` shifted left by `count` ([`Word`] asks for it;
/// the kernels here do not shift). The counts 1, 2, …, 32 take the
/// immediate forms, which Miri emulates (not the vector-count form, the
/// fallback for any other count).
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn zmm_sll(x: __m512i, count: i32) -> __m512i {
    // SAFETY: AVX-512F is available (the caller's contract).
    unsafe {
        match count {
            1 => _mm512_slli_epi64::<1>(x),
            2 => _mm512_slli_epi64::<2>(x),
            4 => _mm512_slli_epi64::<4>(x),
            8 => _mm512_slli_epi64::<8>(x),
            16 => _mm512_slli_epi64::<16>(x),
            32 => _mm512_slli_epi64::<32>(x),
            _ => _mm512_sll_epi64(x, _mm_set_epi64x(0, i64::from(count))),
        }
    }
}

/// Each 64-bit lane of `x` shifted right by `count`, as [`zmm_sll`].
///
/// # Safety
/// The CPU must support AVX-512F.
#[inline(always)]
unsafe fn zmm_srl(x: __m512i, count: i32) -> __m512i {
    // SAFETY: AVX-512F is available (the caller's contract).
    unsafe {
        match count {
            1 => _mm512_srli_epi64::<1>(x),
            2 => _mm512_srli_epi64::<2>(x),
            4 => _mm512_srli_epi64::<4>(x),
            8 => _mm512_srli_epi64::<8>(x),
            16 => _mm512_srli_epi64::<16>(x),
            32 => _mm512_srli_epi64::<32>(x),
            _ => _mm512_srl_epi64(x, _mm_set_epi64x(0, i64::from(count))),
        }
    }
}

slice_word!(
    Ymm(__m256i), lanes: 4,
    xor: _mm256_xor_si256, and: _mm256_and_si256, or: _mm256_or_si256,
    andnot: _mm256_andnot_si256,
    ternary: _mm256_ternarylogic_epi32, splat: _mm256_set1_epi64x, zero: _mm256_setzero_si256,
    load: _mm256_loadu_si256, store: _mm256_storeu_si256,
    shl: ymm_sll, shr: ymm_srl,
);

slice_word!(
    Zmm(__m512i), lanes: 8,
    xor: _mm512_xor_si512, and: _mm512_and_si512, or: _mm512_or_si512,
    andnot: _mm512_andnot_si512,
    ternary: _mm512_ternarylogic_epi32, splat: _mm512_set1_epi64, zero: _mm512_setzero_si512,
    load: _mm512_loadu_si512, store: _mm512_storeu_si512,
    shl: zmm_sll, shr: zmm_srl,
);

/// The round constants of a whole permutation of `ROUNDS` rounds from
/// counter `counter`, as the lanes of the words the kernel XORs in: entry
/// `[round][k]` is all ones where counter bit `k` of that round is set (it
/// goes to state bits `k` and b − 1 − `k`), else zero. Computed at compile
/// time; in the kernel each is one XOR with a broadcast memory operand.
const fn round_masks<const ROUNDS: usize>(counter: u8) -> [[u64; 7]; ROUNDS] {
    let mut table = [[0u64; 7]; ROUNDS];
    let mut counter = counter;
    let mut round = 0;
    while round < ROUNDS {
        let mut k = 0;
        while k < 7 {
            table[round][k] = 0u64.wrapping_sub(((counter >> k) & 1) as u64);
            k += 1;
        }
        counter = next_counter(counter);
        round += 1;
    }
    table
}

/// [`round_masks`] of Spongent-π\[160\].
static MASKS_160: [[u64; 7]; ROUNDS_160] = round_masks(COUNTER_160);
/// [`round_masks`] of Spongent-π\[176\].
static MASKS_176: [[u64; 7]; ROUNDS_176] = round_masks(COUNTER_176);

/// `word` holding state bit `bit` of a `BITS`-bit state, with the round
/// constant `masks` added where it reaches that bit.
#[inline(always)]
fn with_constant<W: Slice, const BITS: usize>(
    token: Avx512Vbmi,
    word: W,
    bit: usize,
    masks: &[u64; 7],
) -> W {
    if bit < 7 {
        word.xor(W::splat(token, masks[bit]))
    } else if bit >= BITS - 7 {
        word.xor(W::splat(token, masks[BITS - 1 - bit]))
    } else {
        word
    }
}

/// Group `g` of a two-round pass: S-boxes `4g .. 4g + 4` of the first
/// round (`from`, words `16g .. 16g + 16` of the state), then S-boxes
/// `g + j·b/16` (`j` = 0..3) of the second, which take exactly their
/// outputs; output bit `k` of second-round S-box `n` goes to state bit
/// `n + k·b/4 = g + (j + 4k)·b/16`, which is `to[j + 4k][g]` (`to` is the
/// next state as 16 rows of `GROUPS = b/16` words). With `CONSTANTS`, the
/// rounds' constant words `first` and `second` are added where they reach
/// (groups 0, 1, b/16 − 2 and b/16 − 1, whose `g` is a constant at the
/// call); without, `g` must be one of the others, which they do not reach.
#[inline(always)]
fn group<W: Slice, const BITS: usize, const GROUPS: usize, const CONSTANTS: bool>(
    token: Avx512Vbmi,
    from: &[W; 16],
    to: &mut [[W; GROUPS]; 16],
    g: usize,
    first: &[u64; 7],
    second: &[u64; 7],
) {
    let mut x = *from;
    if CONSTANTS {
        for (t, word) in x.iter_mut().enumerate() {
            *word = with_constant::<W, BITS>(token, *word, 16 * g + t, first);
        }
    }
    // y[i][j]: output bit j of first-round S-box 4g + i.
    let mut y = [[W::zero(token); 4]; 4];
    for (i, out) in y.iter_mut().enumerate() {
        *out = sbox_ternary([x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]]);
    }
    // `j` picks bit j of every S-box output, not one array's elements.
    #[allow(clippy::needless_range_loop)]
    for j in 0..4 {
        // Output bit j of S-box 4g + i lands on bit 4n + i, n = g + j·b/16.
        let n = g + j * GROUPS;
        let mut nibble = [y[0][j], y[1][j], y[2][j], y[3][j]];
        if CONSTANTS {
            for (i, word) in nibble.iter_mut().enumerate() {
                *word = with_constant::<W, BITS>(token, *word, 4 * n + i, second);
            }
        }
        for (k, word) in sbox_ternary(nibble).into_iter().enumerate() {
            to[j + 4 * k][g] = word;
        }
    }
}

/// Two rounds, with the round-constant lanes `first` and `second` (see
/// [`round_masks`]), from `from` into `to`: the four groups the constants
/// reach written out, the others (six of Spongent-π\[160\]'s ten, seven
/// of Spongent-π\[176\]'s eleven) as one loop, so that the pass is about
/// half as much code.
#[inline(always)]
#[allow(clippy::panic)] // Unreachable: the sizes are checked at compile time.
fn two_rounds<W: Slice, const BITS: usize, const GROUPS: usize>(
    token: Avx512Vbmi,
    from: &[W; BITS],
    to: &mut [W; BITS],
    first: &[u64; 7],
    second: &[u64; 7],
) {
    const { assert!(BITS == 16 * GROUPS && GROUPS >= 5) };
    let (groups, []) = from.as_chunks::<16>() else {
        panic!("a state of whole groups");
    };
    let (rows, []) = to.as_chunks_mut::<GROUPS>() else {
        panic!("a state of whole rows");
    };
    let Ok(rows) = <&mut [[W; GROUPS]; 16]>::try_from(rows) else {
        panic!("a state of 16 rows");
    };
    for (g, from) in groups.iter().enumerate().take(GROUPS - 2).skip(2) {
        group::<W, BITS, GROUPS, false>(token, from, rows, g, first, second);
    }
    group::<W, BITS, GROUPS, true>(token, &groups[0], rows, 0, first, second);
    group::<W, BITS, GROUPS, true>(token, &groups[1], rows, 1, first, second);
    let last_but_one = GROUPS - 2;
    group::<W, BITS, GROUPS, true>(
        token,
        &groups[last_but_one],
        rows,
        last_but_one,
        first,
        second,
    );
    group::<W, BITS, GROUPS, true>(token, &groups[GROUPS - 1], rows, GROUPS - 1, first, second);
}

/// The tables of the last stage in (column vectors to words) for words of
/// `word_bytes` bytes (32: `ymm`, 64: `zmm`): output vector `u` of a
/// column (its bytes `64u ..` of the column's eight words) takes byte `i`
/// from byte `8g + 7 − q` of chunk `l`'s column vector, where word `q` of
/// the column and position `8l + g` in it hold byte `64u + i`; `vpermt2b`
/// indices per output (the chunk's parity picks the table), and the byte
/// mask of each pair of chunks (the same for every output).
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[allow(clippy::cast_possible_truncation)] // Below 128.
const fn word_tables(word_bytes: usize) -> ([[u8; 64]; 8], [u64; 4]) {
    let mut indices = [[0u8; 64]; 8];
    let mut masks = [0u64; 4];
    let mut u = 0;
    while u < 8 * word_bytes / 64 {
        let mut i = 0;
        while i < 64 {
            let at = 64 * u + i;
            let (q, k) = (at / word_bytes, at % word_bytes);
            let (l, g) = (k / 8, k % 8);
            indices[u][i] = (64 * (l % 2) + 8 * g + 7 - q) as u8;
            masks[l / 2] |= 1 << i;
            i += 1;
        }
        u += 1;
    }
    (indices, masks)
}

/// The tables of the first stage out (words to column vectors), for words
/// of `word_bytes` bytes: chunk `l`'s column vector takes byte `8g + b`
/// from word `q = 7 − b` of its column, position `8l + g`, which is byte
/// `o = q·word_bytes + 8l + g` of the column's words, in their vector
/// `o / 64`; `vpermt2b` indices per chunk (the vector's parity picks the
/// table), and per chunk the byte mask of each pair of vectors.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[allow(clippy::cast_possible_truncation)] // Below 128.
const fn column_tables(word_bytes: usize) -> ([[u8; 64]; 8], [[u64; 4]; 8]) {
    let mut indices = [[0u8; 64]; 8];
    let mut masks = [[0u64; 4]; 8];
    let mut l = 0;
    while l < word_bytes / 8 {
        let mut j = 0;
        while j < 64 {
            let (g, b) = (j / 8, j % 8);
            let o = (7 - b) * word_bytes + 8 * l + g;
            let vector = o / 64;
            indices[l][j] = (64 * (vector % 2) + o % 64) as u8;
            masks[l][vector / 2] |= 1 << j;
            j += 1;
        }
        l += 1;
    }
    (indices, masks)
}

/// Loads the vector at qword `at` of `rows` (zeros if it is not there).
///
/// # Safety
/// AVX-512F must be available.
#[inline(always)]
unsafe fn load_vector(rows: &[u64], at: usize) -> __m512i {
    match rows.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        // SAFETY: the chunk is 64 readable bytes; the load is unaligned;
        // AVX-512F is available (the caller's contract).
        Some(qwords) => unsafe { _mm512_loadu_si512(qwords.as_ptr().cast()) },
        // SAFETY: as above.
        None => unsafe { _mm512_setzero_si512() },
    }
}

/// Writes `vector` to the eight qwords `to`.
///
/// # Safety
/// AVX-512F must be available.
#[inline(always)]
unsafe fn store_to(to: &mut [MaybeUninit<u64>; 8], vector: __m512i) {
    // SAFETY: `to` is 64 writable bytes; the store is unaligned; AVX-512F
    // is available (the caller's contract).
    unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast(), vector) };
}

/// The blocks (up to `W::STATES`, missing ones zero) into `words`: each
/// chunk of 64 blocks as its column vectors ([`blocks_to_columns`]),
/// parked in `scratch`; then for each column, `vpermt2b`s from pairs of
/// chunks build its eight words (state `64l + s` of a chunk at position
/// `8l + g` of a word, `g = s / 8`). Both arrays come in unwritten (no
/// `memset` first: DESIGN.md) and leave written whole: the parked columns
/// of the `W::STATES / 64` chunks are exactly `BITS` words, as are the
/// eight words of each of the `BYTES` columns, and each loop below walks
/// its destination, not its source.
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI must be available.
#[inline(always)]
unsafe fn blocks_to_words<'a, W: Slice, const BYTES: usize, const BITS: usize>(
    blocks: &[[u8; BYTES]],
    words: &'a mut MaybeUninit<[W; BITS]>,
    scratch: &'a mut MaybeUninit<[W; BITS]>,
) -> (&'a mut [W; BITS], &'a mut [W; BITS]) {
    let word_vectors = W::STATES / 64;
    // Whole vectors, whole chunks and whole columns, with no remainder.
    const { assert!(BITS == 8 * BYTES && W::STATES % CHUNK == 0 && W::STATES <= 512) };
    let (parked, _) = W::uninit_rows(scratch).as_chunks_mut::<8>();
    for (l, parked) in parked.chunks_exact_mut(BYTES).enumerate() {
        let from = l.wrapping_mul(CHUNK);
        let chunk = blocks.get(from..).unwrap_or_default();
        let chunk = chunk.get(..CHUNK).unwrap_or(chunk);
        // SAFETY: the features are available (the caller's contract), for
        // every block in this function.
        let columns = unsafe { blocks_to_columns::<BYTES>(chunk) };
        for (to, column) in parked.iter_mut().zip(columns.as_flattened()) {
            // SAFETY: as above.
            unsafe { store_to(to, *column) };
        }
    }
    // SAFETY: the loop wrote every qword of `scratch`: `BITS × W::STATES
    // / 64` qwords are `BYTES` vectors for each of the `W::STATES / 64`
    // chunks, and it wrote all `BYTES` columns of each (the assertion
    // above).
    let scratch = unsafe { scratch.assume_init_mut() };
    let parked = W::as_rows(scratch);
    let (indices, masks) = const { word_tables(W::STATES / 8) };
    let (rows, _) = W::uninit_rows(words).as_chunks_mut::<8>();
    for (c, column) in rows.chunks_exact_mut(word_vectors).enumerate() {
        for (to, index) in column.iter_mut().zip(&indices) {
            // SAFETY: as above.
            let index = unsafe { load_table(index) };
            // SAFETY: as above.
            let mut out = unsafe { _mm512_setzero_si512() };
            for (m, mask) in masks.iter().take(word_vectors / 2).enumerate() {
                let even = 8 * ((2 * m) * BYTES + c);
                let odd = 8 * ((2 * m + 1) * BYTES + c);
                // SAFETY: as above.
                out = unsafe {
                    let pair = _mm512_permutex2var_epi8(
                        load_vector(parked, even),
                        index,
                        load_vector(parked, odd),
                    );
                    _mm512_mask_blend_epi8(*mask, out, pair)
                };
            }
            // SAFETY: as above.
            unsafe { store_to(to, out) };
        }
    }
    // SAFETY: the loop wrote every qword of `words`: its `BYTES` columns
    // of `W::STATES / 64` vectors each (`indices` has eight, at least as
    // many).
    (unsafe { words.assume_init_mut() }, scratch)
}

/// [`blocks_to_words`] reversed: each chunk's column vectors from the
/// words (`vpermt2b`s from pairs of a column's word vectors), then back
/// into the blocks ([`columns_to_blocks`]; only the bytes of `blocks` are
/// written).
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI must be available.
#[inline(always)]
unsafe fn words_to_blocks<W: Slice, const BYTES: usize, const BITS: usize>(
    words: &mut [W; BITS],
    blocks: &mut [[u8; BYTES]],
) {
    let chunks = W::STATES / CHUNK;
    let word_qwords = W::STATES / 64;
    let (indices, masks) = const { column_tables(W::STATES / 8) };
    let rows = W::as_rows(words);
    for (l, chunk) in blocks.chunks_mut(CHUNK).enumerate().take(chunks) {
        let (Some(index), Some(masks)) = (indices.get(l), masks.get(l)) else {
            continue;
        };
        // SAFETY: the features are available (the caller's contract), for
        // every block in this function.
        let index = unsafe { load_table(index) };
        let columns: Columns = each_of_three!(m => each_of_eight!(r => {
            let c = GROUP * m + r;
            // SAFETY: as above.
            let mut column = unsafe { _mm512_setzero_si512() };
            if c < BYTES {
                for (n, mask) in masks.iter().take(word_qwords / 2).enumerate() {
                    let even = 8 * (c * word_qwords + 2 * n);
                    // SAFETY: as above.
                    column = unsafe {
                        let pair = _mm512_permutex2var_epi8(
                            load_vector(rows, even),
                            index,
                            load_vector(rows, even + 8),
                        );
                        _mm512_mask_blend_epi8(*mask, column, pair)
                    };
                }
            }
            column
        }));
        // SAFETY: as above.
        unsafe { columns_to_blocks::<BYTES>(&columns, chunk) };
    }
}

/// Spongent-π on up to `STATES` blocks of `BYTES` bytes (20: 80 rounds of
/// Spongent-π\[160\]; 22: 90 of Spongent-π\[176\]). `STATES` is
/// `W::STATES`; missing states are zero and their results are dropped.
///
/// # Safety
/// AVX2, AVX-512F, AVX-512VL, AVX-512BW, AVX-512 VBMI and GFNI must be
/// available.
#[inline(always)]
unsafe fn permute_sliced<W: Slice, const BYTES: usize, const BITS: usize, const GROUPS: usize>(
    token: Avx512Vbmi,
    blocks: &mut [[u8; BYTES]],
) {
    let mut slices = MaybeUninit::uninit();
    let mut scratch = MaybeUninit::uninit();
    // SAFETY: the features are available (the caller's contract).
    let (slices, scratch) =
        unsafe { blocks_to_words::<W, BYTES, BITS>(blocks, &mut slices, &mut scratch) };

    let (mut state, mut other) = (slices, scratch);
    let masks: &[[u64; 7]] = if BITS == 160 { &MASKS_160 } else { &MASKS_176 };
    for pair in masks.chunks_exact(2) {
        if let [first, second] = pair {
            two_rounds::<W, BITS, GROUPS>(token, state, other, first, second);
        }
        core::mem::swap(&mut state, &mut other);
    }
    // SAFETY: as above.
    unsafe { words_to_blocks(state, blocks) };
    // The words are left to the stack clearing after the call that holds
    // secrets (`crate::scrub`): wiping them here too would clear the same
    // bytes twice (DESIGN.md, "Spongent-π on AVX-512").
}

/// Defines an unsafe kernel entry for one permutation and word width.
macro_rules! kernel {
    ($name:ident, $word:ty, $states:literal, $bytes:literal) => {
        #[doc = concat!("Spongent-π on up to ", stringify!($states), " blocks.")]
        ///
        /// # Safety
        /// The CPU must support AVX2, AVX-512F, AVX-512VL, AVX-512BW,
        /// AVX-512 VBMI and GFNI.
        #[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512vbmi,gfni")]
        unsafe fn $name(token: Avx512Vbmi, blocks: &mut [[u8; $bytes]]) {
            // SAFETY: the features are enabled here (this function's
            // contract).
            unsafe {
                permute_sliced::<$word, $bytes, { 8 * $bytes }, { $bytes / 2 }>(token, blocks)
            };
        }
    };
}

kernel!(permute_160_x256, Ymm, 256, 20);
kernel!(permute_160_x512, Zmm, 512, 20);
kernel!(permute_176_x256, Ymm, 256, 22);
kernel!(permute_176_x512, Zmm, 512, 22);

/// Blocks one call of the narrower (`ymm`) kernel permutes.
pub(super) const NARROW: usize = 256;

/// The kernel width for a chunk of at most [`WIDTH`] blocks: the `ymm` one
/// when it holds the chunk, which costs about half (on a Zen 4, which
/// splits 512-bit operations in two, as much per state as the `zmm` one).
fn width_for(blocks: usize) -> usize {
    if blocks <= NARROW { NARROW } else { WIDTH }
}

/// Spongent-π\[160\] on every block: [`WIDTH`] at a time, and the last
/// chunk (or a short batch) with the narrower kernel when it holds it.
pub(super) fn permute_160(token: Avx512Vbmi, blocks: &mut [[u8; 20]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        let width = width_for(chunk.len());
        permute_160_width(token, chunk, width);
    }
}

/// Spongent-π\[176\] on every block, as [`permute_160`].
pub(super) fn permute_176(token: Avx512Vbmi, blocks: &mut [[u8; 22]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        let width = width_for(chunk.len());
        permute_176_width(token, chunk, width);
    }
}

/// Spongent-π\[160\] on up to `width` (256 or 512) blocks with the
/// kernel of that width.
pub(super) fn permute_160_width(token: Avx512Vbmi, blocks: &mut [[u8; 20]], width: usize) {
    // SAFETY: the token exists only if AVX-512F, AVX-512VL, AVX-512BW,
    // AVX-512 VBMI, GFNI and AVX2 were detected at run time.
    unsafe {
        match width {
            256 => permute_160_x256(token, blocks),
            _ => permute_160_x512(token, blocks),
        }
    }
}

/// Spongent-π\[176\] on up to `width` (256 or 512) blocks with the
/// kernel of that width.
pub(super) fn permute_176_width(token: Avx512Vbmi, blocks: &mut [[u8; 22]], width: usize) {
    // SAFETY: as in `permute_160_width`.
    unsafe {
        match width {
            256 => permute_176_x256(token, blocks),
            _ => permute_176_x512(token, blocks),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx512_vbmi_or_fail, check};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    /// Named `vbmi` so that CI runs it with the Miri that emulates `vpermb`.
    #[test]
    fn avx512_vbmi_wide_matches_the_reference() {
        if let Some(token) = avx512_vbmi_or_fail() {
            for width in [NARROW, WIDTH] {
                check("AVX-512 Spongent-pi[160]", width, spongent_pi_160, |b| {
                    permute_160_width(token, b, width);
                });
                check("AVX-512 Spongent-pi[176]", width, spongent_pi_176, |b| {
                    permute_176_width(token, b, width);
                });
            }
            check(
                "AVX-512 Spongent-pi[160] any",
                WIDTH,
                spongent_pi_160,
                |b| {
                    permute_160(token, b);
                },
            );
            check(
                "AVX-512 Spongent-pi[176] any",
                WIDTH,
                spongent_pi_176,
                |b| {
                    permute_176(token, b);
                },
            );
        }
    }
}
