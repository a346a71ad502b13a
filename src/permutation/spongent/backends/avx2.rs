//! The AVX2 tier: the bitsliced kernel of [`soft64`](super::soft64) on 256-bit
//! words, 256 states at once (four independent groups of 64, one per 64-bit
//! lane, so the same 64×64 transposes work lane by lane).
//!
//! The words are [`Avx2Vector`]s, which only the [`Avx2`] token makes
//! (`permutation::simd::avx2` holds their intrinsics); the entry points
//! take that token, and `unsafe` here is only the calls into the
//! `#[target_feature(enable = "avx2")]` functions it allows.

use super::soft64::{Word, permute_sliced};
use crate::permutation::cpu::Avx2;
use crate::permutation::simd::avx2::Avx2Vector;
use crate::permutation::spongent::sbox::Bits;
use crate::permutation::spongent::{COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176};

// The 64-state tier for medium batches, on the same vectors.
pub(super) mod medium;

/// Blocks one AVX2 kernel call permutes.
pub(super) const WIDTH: usize = 256;

/// Spongent-π\[160\] on every block, 256 at a time.
pub(super) fn permute_160(avx2: Avx2, blocks: &mut [[u8; 20]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_160_x256(avx2, chunk) };
    }
}

/// Spongent-π\[176\] on every block, 256 at a time.
pub(super) fn permute_176(avx2: Avx2, blocks: &mut [[u8; 22]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_176_x256(avx2, chunk) };
    }
}

/// Spongent-π\[160\] on up to 256 blocks.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn permute_160_x256(avx2: Avx2, blocks: &mut [[u8; 20]]) {
    permute_sliced::<Avx2Vector, 20>(avx2, blocks, ROUNDS_160, COUNTER_160);
}

/// Spongent-π\[176\] on up to 256 blocks.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn permute_176_x256(avx2: Avx2, blocks: &mut [[u8; 22]]) {
    permute_sliced::<Avx2Vector, 22>(avx2, blocks, ROUNDS_176, COUNTER_176);
}

/// 256 bit slices: lane `l` holds states `64l .. 64l + 64`.
impl Bits for Avx2Vector {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        Avx2Vector::andnot(self, other)
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
    }
}

impl Word for Avx2Vector {
    type Token = Avx2;
    #[inline(always)]
    fn zero(avx2: Avx2) -> Self {
        Avx2Vector::zero(avx2)
    }
    #[inline(always)]
    fn splat(avx2: Avx2, bits: u64) -> Self {
        Avx2Vector::splat_u64(avx2, bits)
    }
    #[inline(always)]
    fn shl<const S: i32>(self) -> Self {
        self.shl_u64::<S>()
    }
    #[inline(always)]
    fn shr<const S: i32>(self) -> Self {
        self.shr_u64::<S>()
    }
    #[inline(always)]
    fn from_lanes(avx2: Avx2, mut lane: impl FnMut(usize) -> u64) -> Self {
        Avx2Vector::from_u64s(avx2, [lane(0), lane(1), lane(2), lane(3)])
    }
    #[inline(always)]
    fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
        for (l, value) in self.to_u64s().into_iter().enumerate() {
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
