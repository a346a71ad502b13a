//! Up to 64 blocks as their byte columns, bit-transposed: the first three
//! stages into (and the last three out of) both AVX-512 Spongent layouts,
//! the 64-state one of [`medium`](super::medium) and the 256/512-state
//! bitsliced one of the parent module, for blocks of 20 or 22 bytes.
//!
//! Column vector `c` holds byte `c` of 64 blocks: qword `g` is blocks
//! `8g .. 8g + 8`, one bit of each in every byte, byte `7 − p mod 8` of
//! the qword holding state bit `p = 8c + 7 − byte` ([`column_of`]). How the
//! eight blocks sit in a byte's bits needs no name: the way out undoes the
//! way in, and every state is treated alike in between.
//!
//! The stages: per group of eight blocks (read as windows of 64 bytes by
//! masked loads), masked `vpermb`s gather each byte column of the eight
//! into a qword; 8 × 8 qword transposes make byte column `c` of all 64
//! blocks one vector; one `vgf2p8affineqb` per column turns each qword
//! (byte `c` of eight blocks) into eight bytes of state bits (an 8 × 8 bit
//! transpose, [`BIT_TRANSPOSE`]). The way back is the same stages
//! reversed, and masked stores write only the blocks' bytes.
//!
//! Every `vpermb` index and byte mask is a compile-time constant or comes
//! from the public number of blocks.

use crate::permutation::simd::avx512::{load_table, transpose_qwords};
use core::arch::x86_64::{
    __m512i, _mm512_gf2p8affine_epi64_epi8, _mm512_mask_permutexvar_epi8, _mm512_mask_storeu_epi8,
    _mm512_maskz_loadu_epi8, _mm512_set1_epi64, _mm512_setzero_si512,
};

/// Blocks one call converts: eight groups of eight.
pub(super) const BLOCKS: usize = 64;

/// Blocks in a transposition group: eight, so that one byte of each is a
/// qword and one bit of each is a byte.
pub(super) const GROUP: usize = 8;

/// Bytes of a 512-bit vector, and of the windows a group is read in.
pub(super) const WINDOW: usize = 64;

/// Windows of a group: its 160 or 176 bytes in two whole windows and a
/// part of a third.
const WINDOWS: usize = 3;

/// Vectors per group after the first stage: byte columns 0–7, 8–15 and
/// 16 on, qword `r` of vector `m` holding column `8m + r` of each block.
const STAGE_VECTORS: usize = 3;

/// Bytes of a group of blocks of `bytes` bytes.
// `const fn`s cannot use iterators: the counters below stay under 256, so
// the arithmetic cannot overflow, and the tables are evaluated at compile
// time (an out-of-bounds index fails the build).
#[allow(clippy::arithmetic_side_effects)]
const fn group_bytes(bytes: usize) -> usize {
    GROUP * bytes
}

/// The group byte that byte `d` of stage vector `m` holds: byte `8m + r`
/// of block `k` (`d = 8r + k`); past the block its last byte, whose copy
/// is ignored.
#[allow(clippy::arithmetic_side_effects)]
const fn group_byte(bytes: usize, m: usize, d: usize) -> usize {
    let (r, k) = (d / GROUP, d % GROUP);
    let byte = GROUP * m + r;
    bytes * k + if byte < bytes { byte } else { bytes - 1 }
}

/// The byte mask of window `w` of a group of blocks of `bytes` bytes: the
/// window's bytes that belong to the group.
#[allow(clippy::arithmetic_side_effects)]
const fn group_window_mask(bytes: usize, w: usize) -> u64 {
    let start = w * WINDOW;
    let end = group_bytes(bytes);
    if end >= start + WINDOW {
        u64::MAX
    } else if end > start {
        (1u64 << (end - start)) - 1
    } else {
        0
    }
}

/// `vpermb` indices (the byte within its window of [`group_byte`]) and
/// per-window byte masks of the first stage.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[allow(clippy::cast_possible_truncation)] // Below 64.
const fn gather_tables<const BYTES: usize>() -> (
    [[u8; WINDOW]; STAGE_VECTORS],
    [[u64; WINDOWS]; STAGE_VECTORS],
) {
    let mut indices = [[0u8; WINDOW]; STAGE_VECTORS];
    let mut masks = [[0u64; WINDOWS]; STAGE_VECTORS];
    let mut m = 0;
    while m < STAGE_VECTORS {
        let mut d = 0;
        while d < WINDOW {
            let byte = group_byte(BYTES, m, d);
            indices[m][d] = (byte % WINDOW) as u8;
            masks[m][byte / WINDOW] |= 1 << d;
            d += 1;
        }
        m += 1;
    }
    (indices, masks)
}

/// `vpermb` indices and byte masks of the first stage reversed: byte `i`
/// of window `w` of a group, byte `j` of block `k`, comes from byte
/// `8(j mod 8) + k` of stage vector `j / 8`.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[allow(clippy::cast_possible_truncation)] // Below 64.
const fn scatter_tables<const BYTES: usize>()
-> ([[u8; WINDOW]; WINDOWS], [[u64; STAGE_VECTORS]; WINDOWS]) {
    let mut indices = [[0u8; WINDOW]; WINDOWS];
    let mut masks = [[0u64; STAGE_VECTORS]; WINDOWS];
    let mut s = 0;
    while s < group_bytes(BYTES) {
        let (k, j) = (s / BYTES, s % BYTES);
        indices[s / WINDOW][s % WINDOW] = (GROUP * (j % GROUP) + k) as u8;
        masks[s / WINDOW][j / GROUP] |= 1 << (s % WINDOW);
        s += 1;
    }
    (indices, masks)
}

/// The `vgf2p8affineqb` operand that, with a qword of data as the matrix,
/// transposes it as an 8 × 8 bit matrix up to reversals: output byte `i`,
/// bit `j` is bit `7 − i` of input byte `7 − j`. Its own inverse.
const BIT_TRANSPOSE: i64 = i64::from_le_bytes([0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01]);

/// Where state bit `p` is in the column vectors: column `p / 8`, and in
/// each qword (eight states) byte `7 − p mod 8`.
#[allow(clippy::arithmetic_side_effects)]
pub(super) const fn column_of(p: usize) -> (usize, usize) {
    (p / GROUP, GROUP - 1 - p % GROUP)
}

/// The byte mask of window `w` of the group starting `start` bytes into a
/// batch of `len` bytes: the window's own bytes, none past the batch.
#[inline(always)]
fn window_mask<const BYTES: usize>(w: usize, start: usize, len: usize) -> u64 {
    let at = start.wrapping_add(w.wrapping_mul(WINDOW));
    let available = len.saturating_sub(at);
    let wanted = group_window_mask(BYTES, w);
    if available >= WINDOW {
        wanted
    } else {
        wanted & ((1u64 << available) - 1)
    }
}

/// A chunk's column vectors in three groups of eight, as the qword
/// transposes make them: column `c` is `[c / 8][c % 8]` (read
/// [`as_flattened`](slice::as_flattened)); those past the block's bytes are
/// not used.
pub(super) type Columns = [[__m512i; GROUP]; STAGE_VECTORS];

/// The windows of group `g` of `flat`: masked loads of its bytes, zero past
/// the batch.
///
/// # Safety
/// AVX-512F and AVX-512BW must be available.
#[inline(always)]
unsafe fn group_windows<const BYTES: usize>(flat: &[u8], g: usize) -> [__m512i; WINDOWS] {
    let start = g.wrapping_mul(group_bytes(BYTES));
    each_of_three!(w => {
        let mask = window_mask::<BYTES>(w, start, flat.len());
        let at = start.wrapping_add(w.wrapping_mul(WINDOW));
        match flat.get(at..) {
            // SAFETY: the features are available (the caller's contract);
            // the masked load reads only bytes of `flat`.
            Some(rest) if mask != 0 => unsafe { _mm512_maskz_loadu_epi8(mask, rest.as_ptr().cast()) },
            // SAFETY: as above.
            _ => unsafe { _mm512_setzero_si512() },
        }
    })
}

/// Stage vector `m` (see [`STAGE_VECTORS`]) of a group from its windows:
/// `vpermb`s with that vector's `index` and window masks.
///
/// # Safety
/// AVX-512F, AVX-512BW and AVX-512 VBMI must be available.
#[inline(always)]
unsafe fn gather(windows: &[__m512i; WINDOWS], index: __m512i, masks: &[u64; WINDOWS]) -> __m512i {
    // SAFETY: the features are available (the caller's contract), for each
    // block in this function.
    let mut gathered = unsafe { _mm512_setzero_si512() };
    for (window, mask) in windows.iter().zip(masks) {
        if *mask != 0 {
            // SAFETY: as above.
            gathered = unsafe { _mm512_mask_permutexvar_epi8(gathered, *mask, index, *window) };
        }
    }
    gathered
}

/// Up to 64 blocks (missing ones read as zero) as their `BYTES` column
/// vectors (see the module documentation), the first of [`Columns`].
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI must be available.
#[inline(always)]
pub(super) unsafe fn blocks_to_columns<const BYTES: usize>(blocks: &[[u8; BYTES]]) -> Columns {
    let (gather_indices, gather_masks) = const { gather_tables::<BYTES>() };
    let flat = blocks.as_flattened();
    // SAFETY: the features are available (the caller's contract), for
    // every block in this function.
    let windows = each_of_eight!(g => unsafe { group_windows::<BYTES>(flat, g) });
    // SAFETY: as above.
    let bits = unsafe { _mm512_set1_epi64(BIT_TRANSPOSE) };
    each_of_three!(m => {
        // SAFETY: as above.
        let index = unsafe { load_table(&gather_indices[m]) };
        let masks = &gather_masks[m];
        // SAFETY: as above.
        let vectors = each_of_eight!(g => unsafe { gather(&windows[g], index, masks) });
        // SAFETY: as above.
        let columns = unsafe { transpose_qwords(vectors) };
        // SAFETY: as above.
        each_of_eight!(r => unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(bits, columns[r]) })
    })
}

/// [`blocks_to_columns`] reversed: the first `BYTES` column vectors back
/// into the blocks (only the bytes of `blocks` are written).
///
/// # Safety
/// AVX-512F, AVX-512BW, AVX-512 VBMI and GFNI must be available.
#[inline(always)]
pub(super) unsafe fn columns_to_blocks<const BYTES: usize>(
    columns: &Columns,
    blocks: &mut [[u8; BYTES]],
) {
    // SAFETY: the features are available (the caller's contract); each
    // masked store writes only bytes of `blocks` (so for every block in
    // this function).
    let zero = unsafe { _mm512_setzero_si512() };
    // SAFETY: as at the top of this function.
    let bits = unsafe { _mm512_set1_epi64(BIT_TRANSPOSE) };
    let stage: [[__m512i; GROUP]; STAGE_VECTORS] = each_of_three!(m => {
        // SAFETY: as at the top of this function.
        let from = each_of_eight!(r => unsafe {
            _mm512_gf2p8affine_epi64_epi8::<0>(bits, columns[m][r])
        });
        // SAFETY: as at the top of this function.
        unsafe { transpose_qwords(from) }
    });
    let (scatter_indices, scatter_masks) = const { scatter_tables::<BYTES>() };
    // SAFETY: as at the top of this function.
    let index: [__m512i; WINDOWS] = each_of_three!(w => unsafe { load_table(&scatter_indices[w]) });
    let flat = blocks.as_flattened_mut();
    for g in 0..GROUP {
        let start = g.wrapping_mul(group_bytes(BYTES));
        for (w, (index, masks)) in index.iter().zip(&scatter_masks).enumerate() {
            let mask = window_mask::<BYTES>(w, start, flat.len());
            if mask == 0 {
                continue;
            }
            let mut window = zero;
            for (vectors, part) in stage.iter().zip(masks) {
                if *part != 0 {
                    let source = vectors.get(g).copied().unwrap_or(zero);
                    // SAFETY: as at the top of this function.
                    window = unsafe { _mm512_mask_permutexvar_epi8(window, *part, *index, source) };
                }
            }
            let at = start.wrapping_add(w.wrapping_mul(WINDOW));
            if let Some(rest) = flat.get_mut(at..) {
                // SAFETY: as at the top of this function.
                unsafe { _mm512_mask_storeu_epi8(rest.as_mut_ptr().cast(), mask, window) };
            }
        }
    }
}
