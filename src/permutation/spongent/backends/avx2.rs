//! The AVX2 tier: the bitsliced kernel of [`soft64`](super::soft64) on 256-bit
//! words, 256 states at once (four independent groups of 64, one per 64-bit
//! lane, so the same 64×64 transposes work lane by lane).
//!
//! `unsafe` here is the AVX2 intrinsics (as in the other SIMD kernels,
//! each in its own module). Its entry points take the [`Avx2`] token, which only run-time detection
//! gives, so every path to the intrinsics goes through a detection.

use super::super::super::cpu::Avx2;
use super::super::sbox::Bits;
use super::super::{COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176};
use super::soft64::{Word, permute_sliced};
use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_extract_epi64, _mm256_or_si256,
    _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_slli_epi64,
    _mm256_srli_epi64, _mm256_xor_si256,
};
use zeroize::Zeroize;

// The 64-state tier for medium batches, on this module's words.
pub(super) mod medium;

/// Blocks one AVX2 kernel call permutes.
pub(super) const WIDTH: usize = 256;

/// Spongent-π\[160\] on every block, 256 at a time.
pub(super) fn permute_160(_: Avx2, blocks: &mut [[u8; 20]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_160_x256(chunk) };
    }
}

/// Spongent-π\[176\] on every block, 256 at a time.
pub(super) fn permute_176(_: Avx2, blocks: &mut [[u8; 22]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_176_x256(chunk) };
    }
}

/// Spongent-π\[160\] on up to 256 blocks.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn permute_160_x256(blocks: &mut [[u8; 20]]) {
    permute_sliced::<Avx2Word, 20>(blocks, ROUNDS_160, COUNTER_160);
}

/// Spongent-π\[176\] on up to 256 blocks.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn permute_176_x256(blocks: &mut [[u8; 22]]) {
    permute_sliced::<Avx2Word, 22>(blocks, ROUNDS_176, COUNTER_176);
}

/// 256 bit slices: lane `l` holds states `64l .. 64l + 64`.
///
/// Used only by the kernels above and by the AVX-512 backend's, which run
/// only inside `#[target_feature]` functions that enable AVX2, reached only
/// with a token from run-time detection: every intrinsic below therefore
/// runs on a CPU with AVX2 (this is the safety argument of each `unsafe`
/// block). The methods are `#[inline(always)]` so that they, and the
/// intrinsics in them, inline into those functions.
#[derive(Clone, Copy)]
pub(super) struct Avx2Word(pub(super) __m256i);

#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // Lanes are bit patterns.
impl Avx2Word {
    /// The word whose lane `l` is `lanes[l]`.
    #[inline(always)]
    pub(super) fn from_lane_array([l0, l1, l2, l3]: [u64; 4]) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_set_epi64x(l3 as i64, l2 as i64, l1 as i64, l0 as i64) })
    }

    /// The word's lanes, lane `l` at index `l`.
    #[inline(always)]
    pub(super) fn to_lane_array(self) -> [u64; 4] {
        // SAFETY: AVX2 is available (see the type's documentation).
        unsafe {
            [
                _mm256_extract_epi64::<0>(self.0) as u64,
                _mm256_extract_epi64::<1>(self.0) as u64,
                _mm256_extract_epi64::<2>(self.0) as u64,
                _mm256_extract_epi64::<3>(self.0) as u64,
            ]
        }
    }
}

impl Zeroize for Avx2Word {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Bits for Avx2Word {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_or_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_andnot_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn not(self) -> Self {
        self.xor(Self::splat(u64::MAX))
    }
}

#[allow(clippy::cast_possible_wrap)] // Lanes are bit patterns, not numbers.
impl Word for Avx2Word {
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_setzero_si256() })
    }
    #[inline(always)]
    fn splat(bits: u64) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_set1_epi64x(bits as i64) })
    }
    #[inline(always)]
    fn shl<const S: i32>(self) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_slli_epi64::<S>(self.0) })
    }
    #[inline(always)]
    fn shr<const S: i32>(self) -> Self {
        // SAFETY: AVX2 is available (see the type's documentation).
        Self(unsafe { _mm256_srli_epi64::<S>(self.0) })
    }
    #[inline(always)]
    fn from_lanes(mut lane: impl FnMut(usize) -> u64) -> Self {
        Self::from_lane_array([lane(0), lane(1), lane(2), lane(3)])
    }
    #[inline(always)]
    fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
        for (l, value) in self.to_lane_array().into_iter().enumerate() {
            sink(l, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx2_or_fail, check};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn avx2_matches_the_reference() {
        if let Some(avx2) = avx2_or_fail() {
            check("AVX2 Spongent-π[160]", WIDTH, spongent_pi_160, |blocks| {
                permute_160(avx2, blocks);
            });
            check("AVX2 Spongent-π[176]", WIDTH, spongent_pi_176, |blocks| {
                permute_176(avx2, blocks);
            });
        }
    }
}
