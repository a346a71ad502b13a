//! The AVX-512 tier of Spongent-π: the AVX2 tier's bitsliced kernel on the
//! same 256-bit words (256 states), with every S-box in eight `vpternlogd`
//! (AVX-512VL) instead of 17 two-input operations.
//!
//! `unsafe` here is the ternary-logic intrinsic: the entry points take the
//! [`Avx512Gfni`] token, which only run-time detection of AVX-512F,
//! AVX-512VL, GFNI and AVX2 gives (GFNI is not used here; one token serves
//! every AVX-512 backend). Like the AVX2 tier, nothing branches on or
//! indexes by the state.
//!
//! Built only by Rust 1.89 or newer, which has these intrinsics (`build.rs`
//! sets `elephant_avx512`).

use super::super::super::cpu::Avx512Gfni;
use super::super::sbox::{Bits, Ternary, sbox_ternary};
use super::super::{COUNTER_160, COUNTER_176, ROUNDS_160, ROUNDS_176};
use super::avx2::{Avx2Word, WIDTH};
use super::soft64::{Word, permute_sliced};
use core::arch::x86_64::_mm256_ternarylogic_epi32;
use zeroize::Zeroize;

/// An [`Avx2Word`] whose S-boxes use three-input logic.
///
/// Invariant: used only by the kernels below, which run only inside
/// `#[target_feature]` functions enabling AVX2, AVX-512F and AVX-512VL,
/// reached only with an [`Avx512Gfni`] token; so those features are
/// available whenever a method of this type runs.
#[derive(Clone, Copy)]
struct TernaryWord(Avx2Word);

impl Zeroize for TernaryWord {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Bits for TernaryWord {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Self(self.0.xor(other.0))
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Self(self.0.and(other.0))
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Self(self.0.or(other.0))
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        Self(self.0.andnot(other.0))
    }
    #[inline(always)]
    fn not(self) -> Self {
        Self(self.0.not())
    }
}

impl Ternary for TernaryWord {
    #[inline(always)]
    fn ternary<const TABLE: i32>(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F and AVX-512VL are available (type invariant of
        // `TernaryWord`).
        Self(Avx2Word(unsafe {
            _mm256_ternarylogic_epi32::<TABLE>(self.0.0, b.0.0, c.0.0)
        }))
    }
}

impl Word for TernaryWord {
    #[inline(always)]
    fn zero() -> Self {
        Self(Avx2Word::zero())
    }
    #[inline(always)]
    fn splat(bits: u64) -> Self {
        Self(Avx2Word::splat(bits))
    }
    #[inline(always)]
    fn shl<const S: i32>(self) -> Self {
        Self(self.0.shl::<S>())
    }
    #[inline(always)]
    fn shr<const S: i32>(self) -> Self {
        Self(self.0.shr::<S>())
    }
    #[inline(always)]
    fn from_lanes(lane: impl FnMut(usize) -> u64) -> Self {
        Self(Avx2Word::from_lanes(lane))
    }
    #[inline(always)]
    fn to_lanes(self, sink: impl FnMut(usize, u64)) {
        self.0.to_lanes(sink);
    }
    #[inline(always)]
    fn plain_sbox(x: [Self; 4]) -> [Self; 4] {
        sbox_ternary::<Self, false>(x)
    }
    #[inline(always)]
    fn complemented_sbox(x: [Self; 4]) -> [Self; 4] {
        sbox_ternary::<Self, true>(x)
    }
}

/// Spongent-π\[160\] on every block, 256 at a time.
pub(super) fn permute_160(_: Avx512Gfni, blocks: &mut [[u8; 20]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        // SAFETY: the token exists only if AVX-512F, AVX-512VL, GFNI and AVX2
        // were detected at run time.
        unsafe { permute_160_x256(chunk) };
    }
}

/// Spongent-π\[176\] on every block, 256 at a time.
pub(super) fn permute_176(_: Avx512Gfni, blocks: &mut [[u8; 22]]) {
    for chunk in blocks.chunks_mut(WIDTH) {
        // SAFETY: as in `permute_160`.
        unsafe { permute_176_x256(chunk) };
    }
}

/// Spongent-π\[160\] on up to 256 blocks.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn permute_160_x256(blocks: &mut [[u8; 20]]) {
    permute_sliced::<TernaryWord, 20>(blocks, ROUNDS_160, COUNTER_160);
}

/// Spongent-π\[176\] on up to 256 blocks.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn permute_176_x256(blocks: &mut [[u8; 22]]) {
    permute_sliced::<TernaryWord, 22>(blocks, ROUNDS_176, COUNTER_176);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx512_gfni_or_fail, check};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn avx512_matches_the_reference() {
        if let Some(token) = avx512_gfni_or_fail() {
            check(
                "AVX-512 Spongent-pi[160]",
                WIDTH,
                spongent_pi_160,
                |blocks| {
                    permute_160(token, blocks);
                },
            );
            check(
                "AVX-512 Spongent-pi[176]",
                WIDTH,
                spongent_pi_176,
                |blocks| {
                    permute_176(token, blocks);
                },
            );
        }
    }
}
