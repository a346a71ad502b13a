//! AVX-512 + GFNI Keccak-f\[200\]: 64 states byte-sliced in 512-bit vectors
//! (32 in 256-bit ones with AVX-512VL for shorter batches), the shared round
//! function on a vector [`Word`].
//!
//! Lane (x, y) of 64 (or 32) independent states sits in the bytes of one
//! vector. Against the AVX2 backend, three instructions do the work of many:
//! - every byte rotation of θ and ρ is one `vgf2p8affineqb` (GFNI), the
//!   rotation written as an 8 × 8 bit matrix, where AVX2 shifts, masks and
//!   merges;
//! - χ (`a ⊕ (¬b ∧ c)`) and the three-way XORs of θ are one `vpternlogd`
//!   each;
//! - a 512-bit vector holds twice the states (on a Zen 4, which splits
//!   512-bit operations in two, that gains little over two 256-bit passes;
//!   on Intel server cores it does).
//!
//! `unsafe` here is the intrinsics (and the AVX2 transposes): [`permute`]
//! takes the [`Avx512Vbmi`] token and [`permute_narrow`] the
//! [`Avx512Gfni`] token, which only run-time detection gives.
//!
//! Built only by Rust 1.89 or newer, which has these intrinsics (`build.rs`
//! sets `elephant_avx512`); older compilers down to the MSRV leave it out.
//!
//! More on the layout and the round, with what was measured: DESIGN.md,
//! "Kernel layouts in detail".

use super::avx2_rows::{STATES as AVX2_STATES, load_rows, store_rows, transpose_32x32};
use crate::permutation::cpu::{Avx512Gfni, Avx512Vbmi};
use crate::permutation::keccak::round::{Word, rounds};
use crate::permutation::simd::avx2::Avx2Vector;
use crate::permutation::simd::avx512::{load_tables, rotation, transpose_qwords};
use core::arch::x86_64::{
    __m256i, __m512i, _mm_set_epi64x, _mm256_gf2p8affine_epi64_epi8, _mm256_set1_epi64x,
    _mm256_ternarylogic_epi32, _mm512_add_epi8, _mm512_and_si512, _mm512_andnot_si512,
    _mm512_gf2p8affine_epi64_epi8, _mm512_loadu_si512, _mm512_mask_permutexvar_epi8,
    _mm512_mask_storeu_epi8, _mm512_maskz_loadu_epi8, _mm512_or_si512, _mm512_set1_epi8,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_sll_epi64, _mm512_srl_epi64,
    _mm512_storeu_si512, _mm512_ternarylogic_epi32, _mm512_xor_si512,
};
use zeroize::Zeroize;

/// How many states one AVX-512 pass permutes: the bytes of a vector.
pub(super) const AVX512_STATES: usize = 64;

/// Block size of Keccak-f\[200\].
const BLOCK_BYTES: usize = 25;

/// Lane (x, y) of 64 states, one byte per state.
///
/// Invariant: values of this type exist only inside [`permute_64`], a
/// function that runs only under an [`Avx512Vbmi`] token; so AVX-512F and
/// GFNI are available whenever a method of this type runs.
#[derive(Clone, Copy)]
struct Lanes64(__m512i);

impl Word for Lanes64 {
    type Token = ();
    #[inline(always)]
    fn token(self) {}
    #[inline(always)]
    fn splat((): (), byte: u8) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_set1_epi8(i8::from_ne_bytes([byte])) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_xor_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_and_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_or_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_andnot_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_sll_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) })
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        // SAFETY: as for `shl`.
        Self(unsafe { _mm512_srl_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) })
    }
    /// One `vgf2p8affineqb` whatever the amount (the matrix is a constant
    /// after inlining).
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let matrix = rotation(bits);
        // SAFETY: AVX-512F and GFNI are available (type invariant of
        // `Lanes64`).
        Self(unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(self.0, _mm512_set1_epi64(matrix)) })
    }
    /// `vpternlogd` with the truth table of `a ⊕ b ⊕ c` (bitwise, so the
    /// 32-bit element size does not matter).
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_ternarylogic_epi32::<0x96>(self.0, b.0, c.0) })
    }
    /// `vpternlogd` with the truth table of `a ⊕ (¬b ∧ c)`.
    #[inline(always)]
    fn chi(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F is available (type invariant of `Lanes64`).
        Self(unsafe { _mm512_ternarylogic_epi32::<0xd2>(self.0, b.0, c.0) })
    }
}

/// Lane (x, y) of 32 states in a 256-bit vector: an [`Avx2Vector`] with
/// the rotations, χ and three-way XORs of [`Lanes64`] (AVX-512VL), for
/// batches that one AVX2 pass would hold.
///
/// Invariant: a value carries the [`Avx512Gfni`] token it was made with
/// (the only constructor is [`Word::splat`], which takes it, and the other
/// values are made from existing ones); so AVX-512F, AVX-512VL, GFNI and
/// AVX2 are available whenever a method of this type runs.
#[derive(Clone, Copy)]
struct GfniLanes32(Avx2Vector, Avx512Gfni);

impl GfniLanes32 {
    /// `vector` with this value's token.
    #[inline(always)]
    fn with(self, vector: Avx2Vector) -> Self {
        Self(vector, self.1)
    }

    /// `vector` with the token, whose features include AVX2's.
    #[inline(always)]
    fn with_raw(self, vector: __m256i) -> Self {
        self.with(Avx2Vector::from_raw(self.1.avx2(), vector))
    }
}

impl Word for GfniLanes32 {
    type Token = Avx512Gfni;
    #[inline(always)]
    fn token(self) -> Avx512Gfni {
        self.1
    }
    #[inline(always)]
    fn splat(token: Avx512Gfni, byte: u8) -> Self {
        Self(Word::splat(token.avx2(), byte), token)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self.with(self.0.xor(other.0))
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self.with(self.0.and(other.0))
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self.with(self.0.or(other.0))
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        self.with(Word::andnot(self.0, other.0))
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        self.with(self.0.shl(bits))
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        self.with(self.0.shr(bits))
    }
    /// One `vgf2p8affineqb`, as for [`Lanes64`].
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let matrix = rotation(bits);
        // SAFETY: GFNI and AVX are available (type invariant of
        // `GfniLanes32`).
        self.with_raw(unsafe {
            _mm256_gf2p8affine_epi64_epi8::<0>(self.0.raw(), _mm256_set1_epi64x(matrix))
        })
    }
    /// `vpternlogd` on 256 bits (AVX-512VL), as for [`Lanes64`].
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F and AVX-512VL are available (type invariant of
        // `GfniLanes32`).
        self.with_raw(unsafe {
            _mm256_ternarylogic_epi32::<0x96>(self.0.raw(), b.0.raw(), c.0.raw())
        })
    }
    /// `vpternlogd` on 256 bits (AVX-512VL), as for [`Lanes64`].
    #[inline(always)]
    fn chi(self, b: Self, c: Self) -> Self {
        // SAFETY: as for `xor3`.
        self.with_raw(unsafe {
            _mm256_ternarylogic_epi32::<0xd2>(self.0.raw(), b.0.raw(), c.0.raw())
        })
    }
}

/// Keccak-f\[200\] of 32 blocks with [`GfniLanes32`]: the AVX2 backend's
/// transposes around the GFNI and ternary-logic round.
///
/// # Safety
/// AVX-512F, AVX-512VL, GFNI and AVX2 must be available.
#[target_feature(enable = "avx2,avx512f,avx512vl,gfni")]
unsafe fn permute_32(token: Avx512Gfni, blocks: &mut [[u8; BLOCK_BYTES]; AVX2_STATES]) {
    let avx2 = token.avx2();
    let columns = transpose_32x32(load_rows(avx2, blocks));
    // Built in place: a `map` from the vectors was an out-of-line copy.
    let mut lanes = [GfniLanes32(Avx2Vector::zero(avx2), token); 25];
    for (to, from) in lanes.iter_mut().zip(columns) {
        *to = GfniLanes32(from, token);
    }
    let lanes = rounds(token, lanes);
    let mut columns = [Avx2Vector::zero(avx2); 32];
    for (to, from) in columns.iter_mut().zip(lanes) {
        *to = from.0;
    }
    store_rows(blocks, &transpose_32x32(columns));
}

/// Keccak-f\[200\] of up to 32 blocks, [`GfniLanes32`] (the tier below 33
/// blocks on these CPUs); a short batch is filled up with zero states
/// whose results are dropped.
pub(super) fn permute_narrow(token: Avx512Gfni, blocks: &mut [[u8; BLOCK_BYTES]]) {
    for chunk in blocks.chunks_mut(AVX2_STATES) {
        match <&mut [[u8; BLOCK_BYTES]; AVX2_STATES]>::try_from(&mut *chunk) {
            // SAFETY: the token exists only if AVX-512F, AVX-512VL, GFNI and
            // AVX2 were detected at run time.
            Ok(whole) => unsafe { permute_32(token, whole) },
            Err(_) => {
                let mut padded = [[0u8; BLOCK_BYTES]; AVX2_STATES];
                for (to, from) in padded.iter_mut().zip(chunk.iter()) {
                    *to = *from;
                }
                // SAFETY: as above.
                unsafe { permute_32(token, &mut padded) };
                for (to, from) in chunk.iter_mut().zip(&padded) {
                    *to = *from;
                }
                padded.as_flattened_mut().zeroize();
            }
        }
    }
}

/// Blocks in a transposition group: eight, so that one byte of each is a
/// qword (stage 2 then moves whole qwords).
const GROUP: usize = 8;

/// Bytes of a group of blocks: four windows of a 512-bit vector, the last
/// one only 8 bytes long.
const GROUP_BYTES: usize = GROUP * BLOCK_BYTES;

/// Bytes of a 512-bit vector, and the window into a group it loads.
const WINDOW: usize = 64;

/// Windows that cover a group: three whole ones and 8 bytes.
const WINDOWS: usize = 4;

/// The 8 bytes of a group's last window.
const LAST_WINDOW_MASK: u64 = 0xff;

/// Per group, the vectors of stage 1: lane bytes 0–7, 8–15, 16–23 of its
/// eight blocks (byte `8r + k` is byte `8m + r` of block `k`), and lane
/// byte 24 of the blocks.
const STAGE_VECTORS: usize = 4;

/// Where byte `d` of stage vector `m` of a group comes from: the group byte
/// `25k + 8m + r` (`d = 8r + k`), and for `m` = 3 (lane 24) `25k + 24`
/// (`k = d mod 8`, so that the same index serves every qword, group `g`'s
/// bytes going to qword `g` of the lane vector).
// `const fn`s cannot use iterators: the loop counters stay below 64 and the
// group bytes below 200, so the arithmetic cannot overflow, and the tables
// are evaluated at compile time (an out-of-bounds index fails the build).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn group_byte(m: usize, d: usize) -> usize {
    let (r, k) = (d / GROUP, d % GROUP);
    if m < 3 {
        BLOCK_BYTES * k + GROUP * m + r
    } else {
        BLOCK_BYTES * k + 24
    }
}

/// `vpermb` indices of stage 1, rows to lanes, for each stage vector: the
/// byte within its window of [`group_byte`].
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[allow(clippy::cast_possible_truncation)] // Below 64.
const fn gather_indices() -> [[u8; WINDOW]; STAGE_VECTORS] {
    let mut indices = [[0u8; WINDOW]; STAGE_VECTORS];
    let mut m = 0;
    while m < STAGE_VECTORS {
        let mut d = 0;
        while d < WINDOW {
            indices[m][d] = (group_byte(m, d) % WINDOW) as u8;
            d += 1;
        }
        m += 1;
    }
    indices
}

/// Byte masks of stage 1, rows to lanes: bit `d` of `[m][w]` is set where
/// byte `d` of stage vector `m` comes from window `w` (for `m` = 3, only
/// qword 0's: group `g` shifts it to qword `g`).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn gather_masks() -> [[u64; WINDOWS]; STAGE_VECTORS] {
    let mut masks = [[0u64; WINDOWS]; STAGE_VECTORS];
    let mut m = 0;
    while m < STAGE_VECTORS {
        let bytes = if m < 3 { WINDOW } else { GROUP };
        let mut d = 0;
        while d < bytes {
            masks[m][group_byte(m, d) / WINDOW] |= 1 << d;
            d += 1;
        }
        m += 1;
    }
    masks
}

/// [`gather_indices`], evaluated once.
const GATHER_INDICES: [[u8; WINDOW]; STAGE_VECTORS] = gather_indices();
/// [`gather_masks`], evaluated once.
const GATHER_MASKS: [[u64; WINDOWS]; STAGE_VECTORS] = gather_masks();

/// Where group byte `s` (of window `s / 64`) is in the stage vectors: the
/// vector, and the byte within it (for lane 24, within qword 0: group `g`
/// adds `8g`).
#[allow(clippy::arithmetic_side_effects)]
const fn stage_byte(s: usize) -> (usize, usize) {
    let (k, j) = (s / BLOCK_BYTES, s % BLOCK_BYTES);
    if j < 24 {
        (j / GROUP, GROUP * (j % GROUP) + k)
    } else {
        (3, k)
    }
}

/// `vpermb` indices of stage 1, lanes to rows, for each window: the byte
/// of [`stage_byte`].
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[allow(clippy::cast_possible_truncation)] // Below 64.
const fn scatter_indices() -> [[u8; WINDOW]; WINDOWS] {
    let mut indices = [[0u8; WINDOW]; WINDOWS];
    let mut s = 0;
    while s < GROUP_BYTES {
        indices[s / WINDOW][s % WINDOW] = stage_byte(s).1 as u8;
        s += 1;
    }
    indices
}

/// Byte masks of stage 1, lanes to rows: bit `i` of `[w][m]` is set where
/// byte `i` of window `w` comes from stage vector `m`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn scatter_masks() -> [[u64; STAGE_VECTORS]; WINDOWS] {
    let mut masks = [[0u64; STAGE_VECTORS]; WINDOWS];
    let mut s = 0;
    while s < GROUP_BYTES {
        masks[s / WINDOW][stage_byte(s).0] |= 1 << (s % WINDOW);
        s += 1;
    }
    masks
}

/// [`scatter_indices`], evaluated once.
const SCATTER_INDICES: [[u8; WINDOW]; WINDOWS] = scatter_indices();
/// [`scatter_masks`], evaluated once.
const SCATTER_MASKS: [[u64; STAGE_VECTORS]; WINDOWS] = scatter_masks();

/// The 64 blocks (1,600 bytes) as the 25 lane vectors of [`Lanes64`].
///
/// Stage 1, per group of eight blocks (200 bytes, read as three whole
/// windows and one of 8 bytes): masked `vpermb`s gather the lane bytes
/// 0–23 of the group into three vectors, qword `r` of vector `m` holding
/// lane byte `8m + r` of the eight blocks, and lane byte 24 straight into
/// qword `g` of lane vector 24. Stage 2: for each `m`, the eight groups'
/// vectors are transposed as 8 × 8 qwords, so qword `g` of lane vector
/// `8m + r` is group `g`'s qword `r`.
///
/// # Safety
/// AVX-512F, AVX-512BW and AVX-512 VBMI must be available.
#[inline(always)]
unsafe fn rows_to_lanes(blocks: &[[u8; BLOCK_BYTES]; AVX512_STATES]) -> [Lanes64; 25] {
    // SAFETY: AVX-512F is available (the caller's contract).
    let zero = unsafe { _mm512_setzero_si512() };
    // SAFETY: AVX-512F is available (the caller's contract).
    let index = unsafe { load_tables(&GATHER_INDICES) };
    let mut stage = [[zero; GROUP]; 3];
    let mut lane_24 = zero;
    for (g, group) in blocks.as_flattened().chunks_exact(GROUP_BYTES).enumerate() {
        // A plain loop, no closure (`from_fn`), which could be left out of
        // line with its loads (it lacks the features).
        let mut windows = [zero; WINDOWS];
        for (w, window) in windows.iter_mut().enumerate() {
            let rest = group.get(w.wrapping_mul(WINDOW)..).unwrap_or_default();
            if let Some(whole) = rest.first_chunk::<WINDOW>() {
                // SAFETY: the 64 bytes are readable (a reference to them);
                // the load is unaligned; AVX-512F is available.
                *window = unsafe { _mm512_loadu_si512(whole.as_ptr().cast()) };
            } else if let Some(tail) = rest.first_chunk::<8>() {
                // The last window: its 8 bytes only, so nothing past the
                // blocks is read.
                // SAFETY: the masked load reads only the 8 bytes the
                // reference covers; AVX-512BW is available.
                *window =
                    unsafe { _mm512_maskz_loadu_epi8(LAST_WINDOW_MASK, tail.as_ptr().cast()) };
            }
        }
        for (m, (index, masks)) in index.iter().zip(&GATHER_MASKS).enumerate() {
            let shift = if m < 3 { 0 } else { g.wrapping_mul(GROUP) };
            let mut gathered = if m < 3 { zero } else { lane_24 };
            for (window, mask) in windows.iter().zip(masks) {
                // SAFETY: AVX-512F, BW and VBMI are available.
                gathered = unsafe {
                    _mm512_mask_permutexvar_epi8(gathered, mask << shift, *index, *window)
                };
            }
            match stage.get_mut(m).and_then(|vectors| vectors.get_mut(g)) {
                Some(vector) => *vector = gathered,
                None => lane_24 = gathered,
            }
        }
    }
    // Built as `Lanes64` in place: a `map` from vectors was an
    // out-of-line copy of 1,600 bytes in 16-byte moves.
    let mut lanes = [Lanes64(zero); 25];
    for (m, vectors) in stage.into_iter().enumerate() {
        // SAFETY: AVX-512F is available.
        let transposed = unsafe { transpose_qwords(vectors) };
        let start = m.wrapping_mul(GROUP);
        let to = lanes.iter_mut().skip(start).take(GROUP);
        for (to, from) in to.zip(transposed) {
            *to = Lanes64(from);
        }
    }
    if let Some(last) = lanes.last_mut() {
        *last = Lanes64(lane_24);
    }
    lanes
}

/// Writes the 25 lane vectors back as 64 blocks: [`rows_to_lanes`]
/// reversed (stage 2, the same transposes, then per group masked `vpermb`s
/// from the three stage vectors and lane vector 24 into each window, stored
/// whole, the last one as its 8 bytes).
///
/// # Safety
/// AVX-512F, AVX-512BW and AVX-512 VBMI must be available.
#[inline(always)]
unsafe fn lanes_to_rows(lanes: &[Lanes64; 25], blocks: &mut [[u8; BLOCK_BYTES]; AVX512_STATES]) {
    // SAFETY: AVX-512F is available (the caller's contract).
    let zero = unsafe { _mm512_setzero_si512() };
    let mut stage = [[zero; GROUP]; 3];
    for (m, vectors) in stage.iter_mut().enumerate() {
        let start = m.wrapping_mul(GROUP);
        let mut from = [zero; GROUP];
        for (to, lane) in from.iter_mut().zip(lanes.iter().skip(start)) {
            *to = lane.0;
        }
        // SAFETY: AVX-512F is available.
        *vectors = unsafe { transpose_qwords(from) };
    }
    let lane_24 = lanes.last().map_or(zero, |lane| lane.0);
    // SAFETY: AVX-512F is available (the caller's contract).
    let index = unsafe { load_tables(&SCATTER_INDICES) };
    let groups = blocks.as_flattened_mut().chunks_exact_mut(GROUP_BYTES);
    for (g, group) in groups.enumerate() {
        // Lane 24's bytes of group `g` are in its qword `g`.
        let qword = i8::try_from(g.wrapping_mul(GROUP)).unwrap_or(0);
        // SAFETY: AVX-512F is available.
        let lane_24_offset = unsafe { _mm512_set1_epi8(qword) };
        for (w, (index, masks)) in index.iter().zip(&SCATTER_MASKS).enumerate() {
            let sources = [
                stage[0].get(g).copied().unwrap_or(zero),
                stage[1].get(g).copied().unwrap_or(zero),
                stage[2].get(g).copied().unwrap_or(zero),
                lane_24,
            ];
            let mut window = zero;
            for (m, (source, mask)) in sources.iter().zip(masks).enumerate() {
                let index = if m < 3 {
                    *index
                } else {
                    // SAFETY: AVX-512BW is available.
                    unsafe { _mm512_add_epi8(*index, lane_24_offset) }
                };
                // SAFETY: AVX-512F, BW and VBMI are available.
                window = unsafe { _mm512_mask_permutexvar_epi8(window, *mask, index, *source) };
            }
            let start = w.wrapping_mul(WINDOW);
            let rest = group.get_mut(start..).unwrap_or_default();
            match rest.first_chunk_mut::<WINDOW>() {
                // SAFETY: the 64 bytes are writable (a reference to them);
                // the store is unaligned; AVX-512F is available.
                Some(whole) => unsafe { _mm512_storeu_si512(whole.as_mut_ptr().cast(), window) },
                None => {
                    if let Some(tail) = rest.first_chunk_mut::<8>() {
                        // SAFETY: the masked store writes only the 8 bytes
                        // the reference covers; AVX-512BW is available.
                        unsafe {
                            _mm512_mask_storeu_epi8(
                                tail.as_mut_ptr().cast(),
                                LAST_WINDOW_MASK,
                                window,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Keccak-f\[200\] of 64 blocks: [`rows_to_lanes`], the rounds on
/// [`Lanes64`], [`lanes_to_rows`].
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI must be available.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
unsafe fn permute_64(blocks: &mut [[u8; BLOCK_BYTES]; AVX512_STATES]) {
    // SAFETY: the features are available (the caller's contract).
    let lanes = rounds((), unsafe { rows_to_lanes(blocks) });
    // SAFETY: as above.
    unsafe { lanes_to_rows(&lanes, blocks) };
}

/// Keccak-f\[200\] of every block, 64 states at a time. A last pass with
/// fewer than 64 blocks fills up what it lacks with zero states (whose
/// results are dropped) in a copy that is wiped after: the dispatcher sends
/// such a pass only with 33–63 blocks.
pub(super) fn permute(_: Avx512Vbmi, blocks: &mut [[u8; BLOCK_BYTES]]) {
    let mut chunks = blocks.chunks_exact_mut(AVX512_STATES);
    for chunk in chunks.by_ref() {
        if let Ok(chunk) = chunk.try_into() {
            // SAFETY: the token exists only if AVX-512F, BW, VBMI and GFNI
            // were detected at run time.
            unsafe { permute_64(chunk) };
        }
    }
    let rest = chunks.into_remainder();
    if rest.is_empty() {
        return;
    }
    let mut padded = [[0u8; BLOCK_BYTES]; AVX512_STATES];
    for (to, from) in padded.iter_mut().zip(rest.iter()) {
        *to = *from;
    }
    // SAFETY: as above.
    unsafe { permute_64(&mut padded) };
    for (to, from) in rest.iter_mut().zip(&padded) {
        *to = *from;
    }
    padded.as_flattened_mut().zeroize();
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx512_gfni_or_fail, avx512_vbmi_or_fail, check};
    use crate::permutation::keccak_f200;
    use crate::permutation::simd::avx512::ROTATE_LEFT;

    /// The matrices rotate: checked on every byte value against
    /// `u8::rotate_left`, by evaluating the affine map by hand as
    /// `vgf2p8affineqb` defines it.
    #[test]
    fn rotation_matrices_rotate() {
        for (bits, &matrix) in (0u32..).zip(&ROTATE_LEFT) {
            let rows = matrix.to_le_bytes();
            for x in 0..=255u8 {
                let mut y = 0u8;
                for out in 0..8 {
                    let parity = (rows[7 - out] & x).count_ones() & 1;
                    y |= u8::from(parity == 1) << out;
                }
                assert_eq!(y, x.rotate_left(bits), "bits {bits} x {x:#04x}");
            }
        }
    }

    #[test]
    fn avx512_narrow_matches_the_reference() {
        if let Some(token) = avx512_gfni_or_fail() {
            check(
                "AVX-512VL Keccak-f[200]",
                AVX2_STATES,
                keccak_f200,
                |blocks| {
                    permute_narrow(token, blocks);
                },
            );
        }
    }

    /// The VBMI transposes alone: lane vector `j` holds byte `j` of every
    /// block, in block order, and the way back restores the blocks.
    #[test]
    fn avx512_vbmi_transposes_are_transposes() {
        /// Both transposes, under the features they need.
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
        unsafe fn there_and_back(
            blocks: &mut [[u8; BLOCK_BYTES]; AVX512_STATES],
        ) -> [[u8; 64]; 25] {
            // SAFETY: the features are enabled here.
            let lanes = unsafe { rows_to_lanes(blocks) };
            blocks.iter_mut().for_each(|block| block.fill(0));
            // SAFETY: as above.
            unsafe { lanes_to_rows(&lanes, blocks) };
            // SAFETY: a vector is 64 plain bytes.
            lanes.map(|lane| unsafe { core::mem::transmute::<__m512i, [u8; 64]>(lane.0) })
        }
        if avx512_vbmi_or_fail().is_some() {
            let original: [[u8; BLOCK_BYTES]; AVX512_STATES] = core::array::from_fn(|i| {
                core::array::from_fn(|j| (i * 25 + j).to_le_bytes()[0] ^ 0xa5)
            });
            let mut blocks = original;
            // SAFETY: the token proves the features.
            let lanes = unsafe { there_and_back(&mut blocks) };
            for (j, lane) in lanes.iter().enumerate() {
                for (i, byte) in lane.iter().enumerate() {
                    assert_eq!(*byte, original[i][j], "lane {j}, block {i}");
                }
            }
            assert_eq!(blocks, original);
        }
    }

    /// The 64-state kernel (VBMI transposes); its name says `vbmi` so that
    /// CI runs it with the Miri that emulates `vpermb`.
    #[test]
    fn avx512_vbmi_matches_the_reference() {
        if let Some(token) = avx512_vbmi_or_fail() {
            check(
                "AVX-512 Keccak-f[200]",
                AVX512_STATES,
                keccak_f200,
                |blocks| {
                    permute(token, blocks);
                },
            );
        }
    }
}
