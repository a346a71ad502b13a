//! Keccak-f\[200\] of one state in one 256-bit vector, for CPUs with
//! AVX-512 (F, VL, BW), VBMI and GFNI: the single-state form behind
//! Delirium's short messages and the last block of long ones, where one
//! permutation is a chain of 18 dependent rounds and latency is all that
//! counts.
//!
//! # Layout
//! The 25 lanes sit in the bytes of one vector grouped by their ρ amount:
//! dword `r` holds the lanes that ρ rotates by `r` (at most four each), in
//! lane order, so lane (0, 0) is byte 0. Qword `q` then holds the classes
//! `2q` and `2q + 1`, and every rotation the round needs is a
//! `vgf2p8affineqb` whose per-qword matrix is a rotation by `2q`, `2q + 1` or
//! `2q + 2`.
//!
//! The state is loaded and stored with masked byte moves of exactly 25
//! bytes, so no copy of it is left on the stack. Every index vector and
//! matrix is a constant: nothing is indexed by the state and nothing branches
//! on it.
//!
//! `unsafe` here is the masked load and store (and the constant tables'
//! loads); the entry point [`permute_one`] takes the [`Avx512Vbmi`] token,
//! which only run-time detection gives. Built only by Rust 1.89 or newer.
//!
//! More on the layout and the round, with what was measured: DESIGN.md,
//! "Kernel layouts in detail".

use crate::permutation::cpu::Avx512Vbmi;
use crate::permutation::keccak::{RHO, ROUND_CONSTANTS};
use crate::permutation::simd::avx512::ROTATE_LEFT;
use core::arch::x86_64::{
    __m256i, _mm256_gf2p8affine_epi64_epi8, _mm256_loadu_si256, _mm256_mask_storeu_epi8,
    _mm256_maskz_gf2p8affine_epi64_epi8, _mm256_maskz_loadu_epi8, _mm256_permutexvar_epi8,
    _mm256_setr_epi64x, _mm256_shuffle_epi8, _mm256_ternarylogic_epi32, _mm256_xor_si256,
};

/// Block size of Keccak-f\[200\].
const BLOCK_BYTES: usize = 25;

/// Bytes of a vector.
const VECTOR_BYTES: usize = 32;

/// The block's bytes in a 32-byte vector: what the masked load and store
/// touch.
const BLOCK_MASK: u32 = (1 << BLOCK_BYTES) - 1;

/// The bytes of the even dwords (rotation classes 0, 2, 4, 6).
const EVEN_DWORDS: u32 = 0x0f0f_0f0f;

/// The bytes of the odd dwords (rotation classes 1, 3, 5, 7).
const ODD_DWORDS: u32 = 0xf0f0_f0f0;

/// `vpshufb` index that writes a zero byte.
const ZERO: u8 = 0x80;

/// The byte of lane `x + 5y` in the vector: dword `RHO[lane]`, lanes of one
/// class in lane order.
const LANE_AT: [u8; BLOCK_BYTES] = lane_positions();

// `const fn`s cannot use iterators: these index with loop counters below 25
// or 32 and class numbers below 8, and every table is evaluated at compile
// time, so an out-of-bounds index would fail the build.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
const fn lane_positions() -> [u8; BLOCK_BYTES] {
    let mut at = [0u8; BLOCK_BYTES];
    let mut filled = [0u8; 8];
    let mut lane = 0;
    while lane < BLOCK_BYTES {
        let class = RHO[lane] as usize;
        at[lane] = (4 * class) as u8 + filled[class];
        filled[class] += 1;
        lane += 1;
    }
    at
}

/// The lane held at each byte of the vector, or `None` for the seven
/// spare bytes.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn lane_of_position() -> [Option<usize>; VECTOR_BYTES] {
    let mut lanes = [None; VECTOR_BYTES];
    let mut lane = 0;
    while lane < BLOCK_BYTES {
        lanes[LANE_AT[lane] as usize] = Some(lane);
        lane += 1;
    }
    lanes
}

/// [`lane_of_position`], evaluated once.
const LANE_OF: [Option<usize>; VECTOR_BYTES] = lane_of_position();

/// `vpermb` index from the block's byte order into the layout.
#[allow(clippy::indexing_slicing, clippy::cast_possible_truncation)]
const fn load_index() -> [u8; VECTOR_BYTES] {
    let mut index = [0u8; VECTOR_BYTES];
    let mut at = 0;
    while at < VECTOR_BYTES {
        if let Some(lane) = LANE_OF[at] {
            index[at] = lane as u8;
        }
        at += 1;
    }
    index
}

/// `vpermb` index from the layout back to the block's byte order.
#[allow(clippy::indexing_slicing)]
const fn store_index() -> [u8; VECTOR_BYTES] {
    let mut index = [0u8; VECTOR_BYTES];
    let mut lane = 0;
    while lane < BLOCK_BYTES {
        index[lane] = LANE_AT[lane];
        lane += 1;
    }
    index
}

/// `vpermb` index gathering row `y` (lanes (0..5, y)) into bytes 0–4 and
/// again 16–20, where `vpshufb` finds them from either half.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn row_index(y: usize) -> [u8; VECTOR_BYTES] {
    let mut index = [0u8; VECTOR_BYTES];
    let mut x = 0;
    while x < 5 {
        index[x] = LANE_AT[x + 5 * y];
        index[16 + x] = LANE_AT[x + 5 * y];
        x += 1;
    }
    index
}

/// `vpshufb` index placing, at each lane of an even (`odd == false`) or odd
/// class, the parity of column `x − 1` (`offset` 4) or `x + 1` (`offset`
/// 1); zero bytes elsewhere.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
const fn spread_index(
    (even_offset, odd_offset): (Option<usize>, Option<usize>),
) -> [u8; VECTOR_BYTES] {
    let mut index = [ZERO; VECTOR_BYTES];
    let mut at = 0;
    while at < VECTOR_BYTES {
        if let Some(lane) = LANE_OF[at] {
            let offset = if (at / 4) % 2 == 0 {
                even_offset
            } else {
                odd_offset
            };
            if let Some(offset) = offset {
                index[at] = ((lane % 5 + offset) % 5) as u8;
            }
        }
        at += 1;
    }
    index
}

/// Column `x − 1`, as an offset mod 5.
const LEFT: Option<usize> = Some(4);
/// Column `x + 1`, as an offset mod 5.
const RIGHT: Option<usize> = Some(1);

/// `vpermb` index for χ's operand `shift` (0, 1, 2): at each lane (x, y),
/// the byte of B\[x + shift, y\], found where π takes it from: B\[X, Y\] is
/// lane (x, y) = (3(Y − 3X) mod 5, X) before π.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
const fn chi_index(shift: usize) -> [u8; VECTOR_BYTES] {
    let mut index = [0u8; VECTOR_BYTES];
    let mut at = 0;
    while at < VECTOR_BYTES {
        if let Some(lane) = LANE_OF[at] {
            let (big_x, big_y) = ((lane % 5 + shift) % 5, lane / 5);
            let x = (3 * (big_y + 5 * 3 - 3 * big_x)) % 5;
            index[at] = LANE_AT[x + 5 * big_x];
        }
        at += 1;
    }
    index
}

/// Every constant index vector, as bytes.
const LOAD: [u8; VECTOR_BYTES] = load_index();
/// See [`store_index`].
const STORE: [u8; VECTOR_BYTES] = store_index();
/// See [`row_index`].
const ROWS: [[u8; VECTOR_BYTES]; 5] = [
    row_index(0),
    row_index(1),
    row_index(2),
    row_index(3),
    row_index(4),
];
/// See [`spread_index`]: C\[x − 1\] in even dwords (rotated by `2q`).
const SPREAD_EVEN_LEFT: [u8; VECTOR_BYTES] = spread_index((LEFT, None));
/// C\[x + 1\] in even and C\[x − 1\] in odd dwords (rotated by `2q + 1`).
const SPREAD_MIDDLE: [u8; VECTOR_BYTES] = spread_index((RIGHT, LEFT));
/// C\[x + 1\] in odd dwords (rotated by `2q + 2`).
const SPREAD_ODD_RIGHT: [u8; VECTOR_BYTES] = spread_index((None, RIGHT));
/// See [`chi_index`].
const CHI: [[u8; VECTOR_BYTES]; 3] = [chi_index(0), chi_index(1), chi_index(2)];

/// The vector of a constant table.
#[inline(always)]
fn table(bytes: &[u8; VECTOR_BYTES]) -> __m256i {
    // SAFETY: reads the 32 bytes of `bytes` (unaligned load); AVX is
    // available wherever this is inlined (only into `permute_block`).
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Per-qword GFNI matrices: qword `q` rotates by `2q + extra`.
#[inline(always)]
fn rotations(extra: usize) -> __m256i {
    #[inline(always)]
    fn matrix(q: usize, extra: usize) -> i64 {
        let bits = q.wrapping_mul(2).wrapping_add(extra) % 8;
        ROTATE_LEFT.get(bits).copied().unwrap_or(ROTATE_LEFT[0])
    }
    // SAFETY: AVX is available wherever this is inlined (only into
    // `permute_block`).
    unsafe {
        _mm256_setr_epi64x(
            matrix(0, extra),
            matrix(1, extra),
            matrix(2, extra),
            matrix(3, extra),
        )
    }
}

/// Keccak-f\[200\] of one block (see the module's description).
///
/// # Safety
/// AVX-512F, AVX-512VL, AVX-512BW, AVX-512VBMI, GFNI and AVX2 must be
/// available.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512vbmi,gfni")]
unsafe fn permute_block(block: &mut [u8; BLOCK_BYTES]) {
    // Written out, no closures (`map`): one left out of line would take
    // its vectors through memory (and its intrinsics as calls).
    let [row0, row1, row2, row3, row4] = &ROWS;
    let rows = [
        table(row0),
        table(row1),
        table(row2),
        table(row3),
        table(row4),
    ];
    let [chi0, chi1, chi2] = &CHI;
    let chi = [table(chi0), table(chi1), table(chi2)];
    let spread = [
        table(&SPREAD_EVEN_LEFT),
        table(&SPREAD_MIDDLE),
        table(&SPREAD_ODD_RIGHT),
    ];
    let matrices = [rotations(0), rotations(1), rotations(2)];
    // SAFETY: the mask selects bytes 0–24, all inside `block`; AVX-512BW and
    // AVX-512VL are available (the caller's contract).
    let loaded = unsafe { _mm256_maskz_loadu_epi8(BLOCK_MASK, block.as_ptr().cast()) };
    let mut state = _mm256_permutexvar_epi8(table(&LOAD), loaded);
    for constant in ROUND_CONSTANTS {
        // θ: the column parities C[0..5], in bytes 0–4 of both halves.
        let [r0, r1, r2, r3, r4] = [
            _mm256_permutexvar_epi8(rows[0], state),
            _mm256_permutexvar_epi8(rows[1], state),
            _mm256_permutexvar_epi8(rows[2], state),
            _mm256_permutexvar_epi8(rows[3], state),
            _mm256_permutexvar_epi8(rows[4], state),
        ];
        let parity = _mm256_ternarylogic_epi32::<0x96>(
            _mm256_ternarylogic_epi32::<0x96>(r0, r1, r2),
            r3,
            r4,
        );
        // ρ of the lanes themselves, while the parities are gathered.
        let own = _mm256_xor_si256(
            _mm256_maskz_gf2p8affine_epi64_epi8::<0>(EVEN_DWORDS, state, matrices[0]),
            _mm256_maskz_gf2p8affine_epi64_epi8::<0>(ODD_DWORDS, state, matrices[1]),
        );
        // θ's D[x] = C[x − 1] ⊕ rot1(C[x + 1]), spread and rotated by ρ.
        let [left, middle, right] = [
            _mm256_gf2p8affine_epi64_epi8::<0>(_mm256_shuffle_epi8(parity, spread[0]), matrices[0]),
            _mm256_gf2p8affine_epi64_epi8::<0>(_mm256_shuffle_epi8(parity, spread[1]), matrices[1]),
            _mm256_gf2p8affine_epi64_epi8::<0>(_mm256_shuffle_epi8(parity, spread[2]), matrices[2]),
        ];
        let partial = _mm256_ternarylogic_epi32::<0x96>(own, left, middle);
        let rotated = _mm256_xor_si256(partial, right);
        // ι on lane (0, 0), byte 0, in the copy that supplies B[x] to χ.
        let iota = _mm256_setr_epi64x(i64::from(constant), 0, 0, 0);
        let rotated_iota = _mm256_ternarylogic_epi32::<0x96>(partial, right, iota);
        // π and χ: A[x] = B[x] ⊕ (¬B[x + 1] ∧ B[x + 2]).
        state = _mm256_ternarylogic_epi32::<0xd2>(
            _mm256_permutexvar_epi8(chi[0], rotated_iota),
            _mm256_permutexvar_epi8(chi[1], rotated),
            _mm256_permutexvar_epi8(chi[2], rotated),
        );
    }
    let out = _mm256_permutexvar_epi8(table(&STORE), state);
    // SAFETY: as for the load.
    unsafe { _mm256_mask_storeu_epi8(block.as_mut_ptr().cast(), BLOCK_MASK, out) };
}

/// Keccak-f\[200\] of one block on a CPU with AVX-512 (F, VL, BW), VBMI and
/// GFNI.
pub(super) fn permute_one(_: Avx512Vbmi, block: &mut [u8; BLOCK_BYTES]) {
    // SAFETY: the token exists only if AVX-512F, AVX-512VL, AVX-512BW,
    // AVX-512VBMI, GFNI and AVX2 were detected at run time.
    unsafe { permute_block(block) }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;
    use crate::permutation::backend_check::{KECCAK_200_VECTORS, avx512_vbmi_or_fail, check};
    use crate::permutation::keccak_f200;

    /// The layout holds every lane once, classes in their dwords, and lane
    /// (0, 0) at byte 0 (where ι's constant goes).
    #[test]
    fn layout_is_a_class_grouping() {
        let mut seen = [false; VECTOR_BYTES];
        for (lane, &at) in LANE_AT.iter().enumerate() {
            assert!(!seen[usize::from(at)], "byte {at} twice");
            seen[usize::from(at)] = true;
            assert_eq!(u32::from(at / 4), RHO[lane], "lane {lane}");
        }
        assert_eq!(LANE_AT[0], 0);
    }

    #[test]
    fn avx512_one_state_matches_the_reference() {
        if let Some(token) = avx512_vbmi_or_fail() {
            check("AVX-512 VBMI one state", 1, keccak_f200, |blocks| {
                for block in blocks {
                    permute_one(token, block);
                }
            });
            for (input, output) in KECCAK_200_VECTORS {
                let mut block = input;
                permute_one(token, &mut block);
                assert_eq!(block, output);
            }
        }
    }
}
