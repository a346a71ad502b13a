//! The mode's per-block loops over many blocks with the mask stream, one
//! masked 256-bit load per block and source (AVX-512BW with VL), where the
//! portable loop takes a block (20 to 25 bytes) in pieces of 16, 8, 4, 2
//! and 1 bytes, every source separately: the run's inputs `input ⊕ mask ⊕
//! later` (the nonce block or a ciphertext block, and two masks from the
//! stream), and the keystream into the message in place.
//!
//! Every block is written by one masked store. A masked store's 32 bytes
//! of addresses span the next block's first bytes, and a load of them
//! that comes after it in program order waits until it is written. So the
//! keystream loop, which reads each block of the message before it writes
//! it, stores a block only after it has loaded the next one (rather than
//! store exactly the block's bytes in pieces: DESIGN.md, "The mode's block
//! work").
//!
//! Every access covers only the bytes of its slice (a load's mask is the
//! slice's length), so nothing outside the run's states, the blocks, the
//! nonce and the mask stream is read or written. Nothing branches on or is
//! indexed by the data: the masks and pieces come from the slices'
//! lengths, and the verdict's byte is ANDed in.
//!
//! `unsafe` here is the intrinsics: the entry points take the
//! [`Avx512Vbmi`] token, which only run-time detection of (among others)
//! AVX-512F, AVX-512VL, AVX-512BW and AVX2 gives.

use crate::permutation::cpu::Avx512Vbmi;
use core::arch::x86_64::{
    __m256i, _mm256_mask_storeu_epi8, _mm256_maskz_loadu_epi8, _mm256_set1_epi8,
    _mm256_ternarylogic_epi32,
};

/// Bytes of a 256-bit vector: the longest block one access covers.
const VECTOR: usize = 32;

/// The byte mask of an access to the first `len` bytes of a vector.
#[inline(always)]
fn byte_mask(len: usize) -> u32 {
    if len >= VECTOR {
        u32::MAX
    } else {
        // `len` < 32: the shift is in range.
        (1u32 << len).wrapping_sub(1)
    }
}

/// The first `limit` bytes of `bytes` (fewer if it is shorter; zeros past
/// them) as a vector.
///
/// # Safety
/// AVX-512BW and AVX-512VL must be available.
#[inline(always)]
unsafe fn load(bytes: &[u8], limit: usize) -> __m256i {
    // SAFETY: the mask enables only bytes inside `bytes`, and a masked
    // load touches no disabled byte; the features are available (the
    // caller's contract).
    unsafe { _mm256_maskz_loadu_epi8(byte_mask(bytes.len().min(limit)), bytes.as_ptr().cast()) }
}

/// Writes the first `dst.len()` (at most 32) bytes of `value` to `dst` by
/// one masked store.
///
/// # Safety
/// AVX-512BW and AVX-512VL must be available.
#[inline(always)]
unsafe fn store(dst: &mut [u8], value: __m256i) {
    // SAFETY: the mask enables only bytes of `dst`; the features are
    // available (the caller's contract).
    unsafe { _mm256_mask_storeu_epi8(dst.as_mut_ptr().cast(), byte_mask(dst.len()), value) };
}

/// `input ⊕ mask ⊕ later` over the first `len` bytes, `mask` the start of
/// `window` and `later` the bytes `ahead` into it, each read by one masked
/// load.
///
/// # Safety
/// AVX-512F, AVX-512BW and AVX-512VL must be available.
#[inline(always)]
unsafe fn stream_sum(input: &[u8], window: &[u8], ahead: usize, len: usize) -> __m256i {
    let later = window.get(ahead..).unwrap_or_default();
    // SAFETY: the features are available (the caller's contract); each
    // load reads only bytes of its slice.
    unsafe {
        _mm256_ternarylogic_epi32::<0x96>(load(input, len), load(window, len), load(later, len))
    }
}

/// For each `(dst, input, window)` of `blocks`: `dst = input ⊕ mask ⊕
/// later` over the length of `dst` (at most 32 bytes), where `mask` is the
/// start of `window` and `later` starts `ahead` bytes into it. A source
/// shorter than `dst` reads as zeros past its end.
pub(in crate::mode) fn xor_blocks_from_stream<'a, 'b>(
    _: Avx512Vbmi,
    blocks: impl Iterator<Item = (&'a mut [u8], &'b [u8], &'b [u8])>,
    ahead: usize,
) {
    // SAFETY: the token exists only if AVX-512F, AVX-512VL, AVX-512BW and
    // AVX2 were detected at run time.
    unsafe { blocks_from_stream(blocks, ahead) }
}

/// [`xor_blocks_from_stream`] itself.
///
/// # Safety
/// AVX-512F, AVX-512VL, AVX-512BW and AVX2 must be available.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw")]
unsafe fn blocks_from_stream<'a, 'b>(
    blocks: impl Iterator<Item = (&'a mut [u8], &'b [u8], &'b [u8])>,
    ahead: usize,
) {
    for (dst, input, window) in blocks {
        let len = dst.len();
        debug_assert!(len <= VECTOR, "a block fits one vector");
        // SAFETY: the features are available (this function's contract);
        // each load reads only bytes of its slice, the store writes only
        // bytes of `dst`.
        unsafe { store(dst, stream_sum(input, window, ahead, len)) };
    }
}

/// For each `(dst, result, window)` of `blocks`: `dst ^= (result ⊕ mask ⊕
/// later) & accept` over the length of `dst` (at most 32 bytes), `mask`
/// and `later` as in [`xor_blocks_from_stream`] with `ahead` 1: the
/// keystream into the message in place. Masked loads and stores, each
/// block's store after the next block's load (see the module doc).
pub(in crate::mode) fn xor_keystream_into<'a, 'b>(
    _: Avx512Vbmi,
    blocks: impl Iterator<Item = (&'a mut [u8], &'b [u8], &'b [u8])>,
    accept: u8,
) {
    // SAFETY: as in `xor_blocks_from_stream`.
    unsafe { keystream_into(blocks, accept) }
}

/// [`xor_keystream_into`] itself.
///
/// # Safety
/// AVX-512F, AVX-512VL, AVX-512BW and AVX2 must be available.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw")]
unsafe fn keystream_into<'a, 'b>(
    blocks: impl Iterator<Item = (&'a mut [u8], &'b [u8], &'b [u8])>,
    accept: u8,
) {
    let accept = _mm256_set1_epi8(i8::from_ne_bytes([accept]));
    // Each block's store waits until the next block is loaded.
    let mut pending: Option<(&mut [u8], __m256i)> = None;
    for (dst, result, window) in blocks {
        let len = dst.len();
        debug_assert!(len <= VECTOR, "a block fits one vector");
        // SAFETY: the features are available (this function's contract);
        // each load reads only bytes of its slice.
        let out = unsafe {
            let keystream = stream_sum(result, window, 1, len);
            // 0x78: `a ⊕ (b & c)`.
            _mm256_ternarylogic_epi32::<0x78>(load(dst, len), keystream, accept)
        };
        if let Some((before, value)) = pending.replace((dst, out)) {
            // SAFETY: as above; the store's mask enables only bytes of
            // `before` (a masked store writes no disabled byte).
            unsafe { store(before, value) };
        }
    }
    if let Some((last, value)) = pending {
        // SAFETY: as above.
        unsafe { store(last, value) };
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;
    use crate::permutation::avx512_vbmi_or_fail;

    /// The block sizes of the three permutations and the extremes, one and
    /// two masks ahead, short inputs and windows, against the plain XOR a
    /// byte at a time; the bytes past the blocks are left as they were.
    #[test]
    fn xor_blocks_from_stream_avx512_vbmi_matches_the_bytes() {
        let Some(token) = avx512_vbmi_or_fail() else {
            return;
        };
        let stream: Vec<u8> = (0..96u8).map(|i| i.wrapping_mul(29) ^ 0x5a).collect();
        let input: Vec<u8> = (0..96u8).map(|i| i.wrapping_mul(53) ^ 0xc3).collect();
        for len in [1, 20, 22, 25, 32] {
            for ahead in [1, 2] {
                for (input_len, window_len) in [(len, len + ahead), (len - 1, len + ahead - 1)] {
                    let count = 3;
                    let mut got: Vec<u8> = (0..=u8::MAX).cycle().take(count * len + 7).collect();
                    let mut want = got.clone();
                    let source = |bytes: &[u8], at: usize| bytes.get(at).copied().unwrap_or(0);
                    for (j, dst) in want.chunks_exact_mut(len).enumerate() {
                        let input = &input[j * len..][..input_len];
                        let window = &stream[j..j + window_len];
                        for (i, byte) in dst.iter_mut().enumerate() {
                            *byte =
                                source(input, i) ^ source(window, i) ^ source(window, i + ahead);
                        }
                    }
                    let items = got.chunks_exact_mut(len).enumerate().map(|(j, dst)| {
                        let window = &stream[j..j + window_len];
                        (dst, &input[j * len..][..input_len], window)
                    });
                    xor_blocks_from_stream(token, items, ahead);
                    assert_eq!(got, want, "len {len}, ahead {ahead}, input {input_len}");
                }
            }
        }
    }

    /// The keystream into the message, as the test above: both verdicts,
    /// the message's bytes past the blocks left as they were.
    #[test]
    fn xor_keystream_into_avx512_vbmi_matches_the_bytes() {
        let Some(token) = avx512_vbmi_or_fail() else {
            return;
        };
        let stream: Vec<u8> = (0..96u8).map(|i| i.wrapping_mul(29) ^ 0x5a).collect();
        let results: Vec<u8> = (0..96u8).map(|i| i.wrapping_mul(53) ^ 0xc3).collect();
        for len in [1, 2, 4, 8, 16, 20, 22, 25, 31, 32] {
            for accept in [u8::MAX, 0] {
                let count = 3;
                let mut got: Vec<u8> = (0..=u8::MAX).cycle().take(count * len + 7).collect();
                let mut want = got.clone();
                for (j, dst) in want.chunks_exact_mut(len).enumerate() {
                    let (result, window) = (&results[j * len..][..len], &stream[j..]);
                    for (i, byte) in dst.iter_mut().enumerate() {
                        *byte ^= (result[i] ^ window[i] ^ window[i + 1]) & accept;
                    }
                }
                let items = got
                    .chunks_exact_mut(len)
                    .enumerate()
                    .map(|(j, dst)| (dst, &results[j * len..][..len], &stream[j..j + len + 1]));
                xor_keystream_into(token, items, accept);
                assert_eq!(got, want, "len {len}, accept {accept}");
            }
        }
    }
}
