//! Helpers shared by the AVX-512 kernels of both permutations: constant
//! tables into vectors, the 8 × 8 qword transpose their byte transposes
//! end with (Keccak-f\[200\]'s lanes, Spongent-π\[160\]'s byte columns),
//! and the GFNI matrices that rotate every byte (the Keccak kernels).
//!
//! Built only by Rust 1.89 or newer, as the kernels (`build.rs` sets
//! `elephant_avx512`).

use core::arch::x86_64::{
    __m512i, _mm512_loadu_si512, _mm512_permutex2var_epi64, _mm512_set_epi64, _mm512_setzero_si512,
    _mm512_shuffle_i64x2, _mm512_unpackhi_epi64, _mm512_unpacklo_epi64,
};

/// Loads a table of 64 bytes.
///
/// # Safety
/// AVX-512F must be available.
#[inline(always)]
pub(in crate::permutation) unsafe fn load_table(table: &[u8; 64]) -> __m512i {
    // SAFETY: the reference makes all 64 bytes readable; the load is
    // unaligned; AVX-512F is available (the caller's contract).
    unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
}

/// Loads `N` tables of 64 bytes, in a plain loop: a closure (`map`) may
/// be left out of line, and its loads with it (it lacks the features).
///
/// # Safety
/// AVX-512F must be available.
#[inline(always)]
pub(in crate::permutation) unsafe fn load_tables<const N: usize>(
    tables: &[[u8; 64]; N],
) -> [__m512i; N] {
    // SAFETY: AVX-512F is available (the caller's contract).
    let mut vectors = [unsafe { _mm512_setzero_si512() }; N];
    for (vector, table) in vectors.iter_mut().zip(tables) {
        // SAFETY: as above.
        *vector = unsafe { load_table(table) };
    }
    vectors
}

/// Transposes eight vectors of eight qwords: qword `q` of output `p` is
/// qword `p` of input `q` (its own inverse). Three levels of eight
/// permutes: pairs of qwords, of 128-bit lanes, of halves.
///
/// # Safety
/// AVX-512F must be available.
#[inline(always)]
pub(in crate::permutation) unsafe fn transpose_qwords(x: [__m512i; 8]) -> [__m512i; 8] {
    // SAFETY: AVX-512F is available (the caller's contract) for this
    // block and the two below.
    let t = unsafe {
        [
            _mm512_unpacklo_epi64(x[0], x[1]),
            _mm512_unpackhi_epi64(x[0], x[1]),
            _mm512_unpacklo_epi64(x[2], x[3]),
            _mm512_unpackhi_epi64(x[2], x[3]),
            _mm512_unpacklo_epi64(x[4], x[5]),
            _mm512_unpackhi_epi64(x[4], x[5]),
            _mm512_unpacklo_epi64(x[6], x[7]),
            _mm512_unpackhi_epi64(x[6], x[7]),
        ]
    };
    // Qword pairs 0 and 2 of each lane pair up (and 1 and 3).
    // SAFETY: as above.
    let (even, odd) = unsafe {
        (
            _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0),
            _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2),
        )
    };
    // SAFETY: as above.
    let u = unsafe {
        [
            _mm512_permutex2var_epi64(t[0], even, t[2]),
            _mm512_permutex2var_epi64(t[1], even, t[3]),
            _mm512_permutex2var_epi64(t[0], odd, t[2]),
            _mm512_permutex2var_epi64(t[1], odd, t[3]),
            _mm512_permutex2var_epi64(t[4], even, t[6]),
            _mm512_permutex2var_epi64(t[5], even, t[7]),
            _mm512_permutex2var_epi64(t[4], odd, t[6]),
            _mm512_permutex2var_epi64(t[5], odd, t[7]),
        ]
    };
    // SAFETY: as above.
    unsafe {
        [
            _mm512_shuffle_i64x2::<0x44>(u[0], u[4]),
            _mm512_shuffle_i64x2::<0x44>(u[1], u[5]),
            _mm512_shuffle_i64x2::<0x44>(u[2], u[6]),
            _mm512_shuffle_i64x2::<0x44>(u[3], u[7]),
            _mm512_shuffle_i64x2::<0xee>(u[0], u[4]),
            _mm512_shuffle_i64x2::<0xee>(u[1], u[5]),
            _mm512_shuffle_i64x2::<0xee>(u[2], u[6]),
            _mm512_shuffle_i64x2::<0xee>(u[3], u[7]),
        ]
    }
}

/// The GFNI matrix that rotates each byte left by `bits`: output bit i is
/// input bit i − `bits` (mod 8), and `vgf2p8affineqb` takes the row of
/// output bit i from byte 7 − i of the matrix.
const fn rotate_left_matrix(bits: u32) -> i64 {
    let mut matrix = 0u64;
    let mut out = 0;
    while out < 8 {
        // A `const fn` cannot use iterators; `out` < 8 and `bits` < 8.
        #[allow(clippy::arithmetic_side_effects)]
        {
            let from = (out + 8 - bits) % 8;
            matrix |= (1u64 << from) << (8 * (7 - out));
            out += 1;
        }
    }
    i64::from_ne_bytes(matrix.to_ne_bytes())
}

/// [`rotate_left_matrix`] for every amount 0–7.
pub(in crate::permutation) const ROTATE_LEFT: [i64; 8] = [
    rotate_left_matrix(0),
    rotate_left_matrix(1),
    rotate_left_matrix(2),
    rotate_left_matrix(3),
    rotate_left_matrix(4),
    rotate_left_matrix(5),
    rotate_left_matrix(6),
    rotate_left_matrix(7),
];

/// The matrix of [`ROTATE_LEFT`] for `bits` (a constant after inlining).
#[inline(always)]
pub(in crate::permutation) fn rotation(bits: u32) -> i64 {
    let index = usize::try_from(bits).unwrap_or(0);
    ROTATE_LEFT.get(index).copied().unwrap_or(ROTATE_LEFT[0])
}
