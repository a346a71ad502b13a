//! The AVX2 register of the x86-64 kernels: [`Avx2Vector`], 256 bits that
//! each kernel reads as it needs (four `u64` lanes of bit slices, 32 bytes
//! of byte-sliced lanes), with the operations those kernels use.
//!
//! Invariant: a value of [`Avx2Vector`] exists only on a CPU with AVX2.
//! Every constructor takes the [`Avx2`] token, which only run-time
//! detection gives (`permutation::cpu`), and every other value is made
//! from one that exists; each vector carries its token along (a
//! zero-sized field), so code holding a vector can make more. Hence every
//! intrinsic in this module runs where AVX2 is available: that is the
//! safety argument of each `unsafe` block below, and the reason the
//! methods can be safe.
//!
//! The methods are `#[inline(always)]`, so that they and their intrinsics
//! inline into the kernels' `#[target_feature(enable = "avx2")]`
//! functions; called anywhere else they would still be sound (the CPU has
//! AVX2), only slow.

use crate::permutation::cpu::Avx2;
use core::arch::x86_64::{
    __m256i, _mm_set_epi64x, _mm256_add_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_avg_epu8, _mm256_cmpgt_epi8, _mm256_extract_epi64, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_set_epi64x, _mm256_set1_epi8, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_sll_epi64, _mm256_slli_epi64, _mm256_srl_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_sub_epi8, _mm256_unpackhi_epi8, _mm256_unpackhi_epi16,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi8, _mm256_unpacklo_epi16,
    _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use core::ops::{BitAnd, BitOr, BitXor, Not};
use zeroize::Zeroize;

// SAFETY (every `unsafe` block of this module): AVX2 is available, by the
// invariant above (a token, or a vector that carries one, is at hand);
// the intrinsics have no other precondition, but for the loads and stores,
// whose arguments say why they stay within their arrays.

/// `$op(a, b)` on two vectors' registers, as a vector with `a`'s token.
macro_rules! binary {
    ($a:expr, $b:expr, $op:ident) => {
        // SAFETY: AVX2 (see the module's SAFETY note).
        Avx2Vector(unsafe { $op($a.0, $b.0) }, $a.1)
    };
}

/// A 256-bit AVX2 vector, made only with the [`Avx2`] token.
#[derive(Clone, Copy)]
pub(in crate::permutation) struct Avx2Vector(__m256i, Avx2);

#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // Lanes are bit patterns.
impl Avx2Vector {
    /// The all-zero vector.
    #[inline(always)]
    pub(in crate::permutation) fn zero(avx2: Avx2) -> Self {
        // SAFETY: AVX2 (see the module's SAFETY note).
        Self(unsafe { _mm256_setzero_si256() }, avx2)
    }

    /// `bits` in every 64-bit lane.
    #[inline(always)]
    pub(in crate::permutation) fn splat_u64(avx2: Avx2, bits: u64) -> Self {
        // SAFETY: AVX2.
        Self(unsafe { _mm256_set1_epi64x(bits as i64) }, avx2)
    }

    /// `byte` in every byte.
    #[inline(always)]
    pub(in crate::permutation) fn splat_u8(avx2: Avx2, byte: u8) -> Self {
        // SAFETY: AVX2.
        Self(unsafe { _mm256_set1_epi8(i8::from_ne_bytes([byte])) }, avx2)
    }

    /// The vector whose 64-bit lane `l` is `lanes[l]`.
    #[inline(always)]
    pub(in crate::permutation) fn from_u64s(avx2: Avx2, [l0, l1, l2, l3]: [u64; 4]) -> Self {
        // SAFETY: AVX2.
        Self(
            unsafe { _mm256_set_epi64x(l3 as i64, l2 as i64, l1 as i64, l0 as i64) },
            avx2,
        )
    }

    /// The 64-bit lanes, lane `l` at index `l`.
    #[inline(always)]
    pub(in crate::permutation) fn to_u64s(self) -> [u64; 4] {
        // SAFETY: AVX2.
        unsafe {
            [
                _mm256_extract_epi64::<0>(self.0) as u64,
                _mm256_extract_epi64::<1>(self.0) as u64,
                _mm256_extract_epi64::<2>(self.0) as u64,
                _mm256_extract_epi64::<3>(self.0) as u64,
            ]
        }
    }

    /// 32 bytes, loaded unaligned.
    #[inline(always)]
    pub(in crate::permutation) fn load(avx2: Avx2, bytes: &[u8; 32]) -> Self {
        // SAFETY: AVX2; the reference makes all 32 bytes readable, and the
        // load is unaligned.
        Self(unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }, avx2)
    }

    /// Stores the 32 bytes, unaligned.
    #[inline(always)]
    pub(in crate::permutation) fn store(self, bytes: &mut [u8; 32]) {
        // SAFETY: AVX2; the reference makes all 32 bytes writable, and the
        // store is unaligned.
        unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), self.0) }
    }

    /// The token this vector carries, to make more vectors with.
    #[inline(always)]
    pub(in crate::permutation) fn token(self) -> Avx2 {
        self.1
    }

    /// A vector from one that an instruction beyond AVX2 made: the token
    /// says that AVX2 is available too.
    #[cfg(elephant_avx512)]
    #[inline(always)]
    pub(in crate::permutation) fn from_raw(avx2: Avx2, vector: __m256i) -> Self {
        Self(vector, avx2)
    }

    /// The vector itself, for an instruction beyond AVX2.
    #[cfg(elephant_avx512)]
    #[inline(always)]
    pub(in crate::permutation) fn raw(self) -> __m256i {
        self.0
    }

    /// `¬self ∧ other` (`vpandn`).
    #[inline(always)]
    pub(in crate::permutation) fn andnot(self, other: Self) -> Self {
        // SAFETY: AVX2.
        Self(unsafe { _mm256_andnot_si256(self.0, other.0) }, self.1)
    }

    /// Every 64-bit lane shifted left by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shl_u64<const S: i32>(self) -> Self {
        // SAFETY: AVX2.
        Self(unsafe { _mm256_slli_epi64::<S>(self.0) }, self.1)
    }

    /// Every 64-bit lane shifted right by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shr_u64<const S: i32>(self) -> Self {
        // SAFETY: AVX2.
        Self(unsafe { _mm256_srli_epi64::<S>(self.0) }, self.1)
    }

    /// Every 64-bit lane shifted left by `bits` (a constant after
    /// inlining, where it becomes an immediate shift).
    #[inline(always)]
    pub(in crate::permutation) fn shl_u64_by(self, bits: u32) -> Self {
        // SAFETY: AVX2.
        Self(
            unsafe { _mm256_sll_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) },
            self.1,
        )
    }

    /// Every 64-bit lane shifted right by `bits`, as [`Self::shl_u64_by`].
    #[inline(always)]
    pub(in crate::permutation) fn shr_u64_by(self, bits: u32) -> Self {
        // SAFETY: AVX2.
        Self(
            unsafe { _mm256_srl_epi64(self.0, _mm_set_epi64x(0, i64::from(bits))) },
            self.1,
        )
    }

    /// Byte-wise wrapping sum.
    #[inline(always)]
    pub(in crate::permutation) fn add_u8(self, other: Self) -> Self {
        binary!(self, other, _mm256_add_epi8)
    }

    /// Byte-wise wrapping difference.
    #[inline(always)]
    pub(in crate::permutation) fn sub_u8(self, other: Self) -> Self {
        binary!(self, other, _mm256_sub_epi8)
    }

    /// All ones in each byte where `self`'s is greater than `other`'s, as
    /// signed bytes; zero elsewhere.
    #[inline(always)]
    pub(in crate::permutation) fn gt_i8(self, other: Self) -> Self {
        binary!(self, other, _mm256_cmpgt_epi8)
    }

    /// Byte-wise rounded average `(a + b + 1) >> 1`, without overflow.
    #[inline(always)]
    pub(in crate::permutation) fn avg_u8(self, other: Self) -> Self {
        binary!(self, other, _mm256_avg_epu8)
    }

    /// Interleaves the low `UNIT`-byte units (1, 2, 4 or 8) of each 128-bit
    /// half of `self` and `other`: `vpunpckl*`.
    #[inline(always)]
    pub(in crate::permutation) fn unpack_lo<const UNIT: usize>(self, other: Self) -> Self {
        match UNIT {
            1 => binary!(self, other, _mm256_unpacklo_epi8),
            2 => binary!(self, other, _mm256_unpacklo_epi16),
            4 => binary!(self, other, _mm256_unpacklo_epi32),
            _ => binary!(self, other, _mm256_unpacklo_epi64),
        }
    }

    /// The high units, as [`Self::unpack_lo`]: `vpunpckh*`.
    #[inline(always)]
    pub(in crate::permutation) fn unpack_hi<const UNIT: usize>(self, other: Self) -> Self {
        match UNIT {
            1 => binary!(self, other, _mm256_unpackhi_epi8),
            2 => binary!(self, other, _mm256_unpackhi_epi16),
            4 => binary!(self, other, _mm256_unpackhi_epi32),
            _ => binary!(self, other, _mm256_unpackhi_epi64),
        }
    }

    /// Two 128-bit halves picked from `self` and `other` by `SELECT`
    /// (`vperm2i128`: 0x20 the low halves, 0x31 the high ones).
    #[inline(always)]
    pub(in crate::permutation) fn halves<const SELECT: i32>(self, other: Self) -> Self {
        // SAFETY: AVX2.
        Self(
            unsafe { _mm256_permute2x128_si256::<SELECT>(self.0, other.0) },
            self.1,
        )
    }
}

impl BitXor for Avx2Vector {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, other: Self) -> Self {
        binary!(self, other, _mm256_xor_si256)
    }
}

impl BitAnd for Avx2Vector {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, other: Self) -> Self {
        binary!(self, other, _mm256_and_si256)
    }
}

impl BitOr for Avx2Vector {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, other: Self) -> Self {
        binary!(self, other, _mm256_or_si256)
    }
}

impl Not for Avx2Vector {
    type Output = Self;
    /// XOR with all ones (AVX2 has no NOT).
    #[inline(always)]
    fn not(self) -> Self {
        self ^ Self::splat_u64(self.1, u64::MAX)
    }
}

impl Zeroize for Avx2Vector {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}
