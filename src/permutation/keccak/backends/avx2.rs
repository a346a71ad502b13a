//! AVX2 Keccak-f\[200\]: 32 states byte-sliced in 256-bit vectors, the round
//! function of `keccak/round.rs` on a vector [`Word`].
//!
//! Lane (x, y) of 32 independent states sits in the 32 bytes of one vector.
//! Blocks go in and out through a 32 × 32 byte transpose built from
//! in-register unpacks (`avx2_rows`; no memory is indexed by the data). Every operation
//! is a fixed sequence independent of the data, so the time taken does not
//! depend on the states.
//!
//! The lanes are [`Avx2Vector`]s, made only with the [`Avx2`] token, which
//! only run-time detection gives and the entry point [`permute`] takes;
//! `unsafe` here is only the calls into the `#[target_feature]` function.

use super::avx2_rows::{STATES, load_rows, store_rows, transpose_32x32};
use crate::permutation::cpu::Avx2;
use crate::permutation::keccak::round::{Word, rounds};
use crate::permutation::simd::avx2::Avx2Vector;
use zeroize::Zeroize;

/// How many states one AVX2 pass permutes: the bytes of a vector.
pub(super) const AVX2_STATES: usize = STATES;

/// Block size of Keccak-f\[200\].
const BLOCK_BYTES: usize = 25;

/// Lane (x, y) of 32 states, one byte per state.
impl Word for Avx2Vector {
    type Token = Avx2;
    #[inline(always)]
    fn token(self) -> Avx2 {
        Avx2Vector::token(self)
    }
    #[inline(always)]
    fn splat(avx2: Avx2, byte: u8) -> Self {
        Avx2Vector::splat_u8(avx2, byte)
    }
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
    /// The count is a constant after inlining, so this becomes an
    /// immediate shift.
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        self.shl_u64_by(bits)
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        self.shr_u64_by(bits)
    }
    /// Rotation by one (θ, and three lanes of ρ): `x + x` is the byte-wise
    /// shift, and subtracting the "top bit set" mask (−1 where the signed
    /// byte is negative) adds the wrapped bit. Rotation by seven (three
    /// lanes of ρ) by a byte average; other amounts by shifts and masks.
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let zero = Avx2Vector::zero(Avx2Vector::token(self));
        if bits == 1 {
            let negative = zero.gt_i8(self);
            self.add_u8(self).sub_u8(negative)
        } else if bits == 7 {
            // A rotation right by one: the byte average `(x + m + 1) >> 1`
            // with m = 0xff where x is odd (its low bit moved to the sign by
            // a shift, then compared) is `x >> 1` with that bit on top.
            let odd = zero.gt_i8(self.shl_u64::<7>());
            self.avg_u8(odd)
        } else {
            let back = 8u32.wrapping_sub(bits);
            let avx2 = Avx2Vector::token(self);
            let high = self
                .shl(bits)
                .and(Self::splat(avx2, u8::MAX.wrapping_shl(bits)));
            let low = self
                .shr(back)
                .and(Self::splat(avx2, u8::MAX.wrapping_shr(back)));
            high.or(low)
        }
    }
}

/// Keccak-f\[200\] of 32 blocks: load them as rows, transpose to lanes, run
/// the rounds, transpose back, store.
///
/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn permute_chunk(avx2: Avx2, chunk: &mut [[u8; BLOCK_BYTES]; AVX2_STATES]) {
    let columns = transpose_32x32(load_rows(avx2, chunk));
    // Built in place: a `map` from the vectors was an out-of-line copy.
    let mut lanes = [Avx2Vector::zero(avx2); 25];
    for (to, from) in lanes.iter_mut().zip(columns) {
        *to = from;
    }
    let lanes = rounds(avx2, lanes);
    let mut columns = [Avx2Vector::zero(avx2); 32];
    for (to, from) in columns.iter_mut().zip(lanes) {
        *to = from;
    }
    store_rows(chunk, &transpose_32x32(columns));
}

/// Keccak-f\[200\] of every block, 32 states at a time; the last chunk is
/// filled up with zero states whose results are dropped.
pub(super) fn permute(avx2: Avx2, blocks: &mut [[u8; BLOCK_BYTES]]) {
    let mut chunks = blocks.chunks_exact_mut(AVX2_STATES);
    for chunk in chunks.by_ref() {
        if let Ok(chunk) = chunk.try_into() {
            // SAFETY: the token exists only if AVX2 was detected at run time.
            unsafe { permute_chunk(avx2, chunk) };
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut padded = [[0u8; BLOCK_BYTES]; AVX2_STATES];
        for (to, from) in padded.iter_mut().zip(rest.iter()) {
            *to = *from;
        }
        // SAFETY: the token exists only if AVX2 was detected at run time.
        unsafe { permute_chunk(avx2, &mut padded) };
        for (to, from) in rest.iter_mut().zip(&padded) {
            *to = *from;
        }
        padded.as_flattened_mut().zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{avx2_or_fail, check};
    use crate::permutation::keccak_f200;

    #[test]
    fn avx2_matches_the_reference() {
        if let Some(token) = avx2_or_fail() {
            check("AVX2 Keccak-f[200]", AVX2_STATES, keccak_f200, |blocks| {
                permute(token, blocks);
            });
        }
    }
}
