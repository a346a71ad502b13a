//! The NEON register of the aarch64 kernels: [`NeonVector`], 128 bits that
//! each kernel reads as it needs (16 bytes of byte-sliced lanes, two
//! `u64` lanes of bit slices, a state's bytes), with the operations those
//! kernels use.
//!
//! Invariant: this module, like every NEON kernel, is built only for
//! aarch64 with `target_feature = "neon"` at compile time (`build.rs`
//! sets `elephant_neon`): NEON is part of the target's baseline, so no
//! run-time detection or token guards it, and every NEON instruction is
//! available wherever a [`NeonVector`] exists. That is the safety argument
//! of each `unsafe` block below; the register intrinsics have no other
//! precondition, the loads and stores stay within the arrays their
//! references give, and the `asm!` blocks only read and write the
//! registers they name.

use core::arch::aarch64::{
    uint8x16_t, uint8x16x2_t, uint8x16x4_t, vandq_u8, vbicq_u8, vbslq_u8, vcombine_u64,
    vcreate_u64, vdupq_n_s8, vdupq_n_u8, vdupq_n_u32, vdupq_n_u64, veorq_u8, vgetq_lane_u64,
    vld1q_u8, vmvnq_u8, vorrq_u8, vqtbl2q_u8, vqtbl4q_u8, vreinterpretq_u8_u16,
    vreinterpretq_u8_u32, vreinterpretq_u8_u64, vreinterpretq_u16_u8, vreinterpretq_u32_u8,
    vreinterpretq_u64_u8, vshlq_n_u8, vshlq_n_u32, vshlq_n_u64, vshlq_u8, vshrq_n_u8, vshrq_n_u32,
    vshrq_n_u64, vsliq_n_u8, vsriq_n_u8, vst1q_u8, vtrn1q_u8, vtrn1q_u16, vtrn1q_u32, vtrn2q_u8,
    vtrn2q_u16, vtrn2q_u32, vzip1q_u8, vzip1q_u16, vzip1q_u32, vzip1q_u64, vzip2q_u8, vzip2q_u16,
    vzip2q_u32, vzip2q_u64,
};
use core::ops::{BitAnd, BitOr, BitXor, Not};
use zeroize::Zeroize;

/// A 128-bit NEON vector.
#[derive(Clone, Copy)]
pub(in crate::permutation) struct NeonVector(uint8x16_t);

/// `$op` on the registers of `NeonVector`s, reinterpreted as `$from` and
/// back (a renaming of the register's type, no instruction).
macro_rules! neon {
    ($op:expr; $($x:expr),+) => {
        // SAFETY: NEON (see the module's invariant).
        NeonVector(unsafe { $op($($x.0),+) })
    };
    ($op:expr; $($x:expr),+; as $to:ident, $back:ident) => {
        // SAFETY: NEON (see the module's invariant); the reinterpretations
        // only rename the register's type.
        NeonVector(unsafe { $back($op($($to($x.0)),+)) })
    };
}

impl NeonVector {
    /// The register, for an `asm!` operand.
    #[inline(always)]
    pub(in crate::permutation) fn raw(self) -> uint8x16_t {
        self.0
    }

    /// A register an `asm!` block wrote.
    #[inline(always)]
    pub(in crate::permutation) fn from_raw(vector: uint8x16_t) -> Self {
        Self(vector)
    }

    /// 16 bytes (`ld1`, no alignment asked).
    #[inline(always)]
    pub(in crate::permutation) fn load(bytes: &[u8; 16]) -> Self {
        // SAFETY: NEON; the reference makes all 16 bytes readable.
        Self(unsafe { vld1q_u8(bytes.as_ptr()) })
    }

    /// Stores the 16 bytes (`st1`, no alignment asked).
    #[inline(always)]
    pub(in crate::permutation) fn store(self, bytes: &mut [u8; 16]) {
        // SAFETY: NEON; the reference makes all 16 bytes writable.
        unsafe { vst1q_u8(bytes.as_mut_ptr(), self.0) }
    }

    /// `byte` in every byte.
    #[inline(always)]
    pub(in crate::permutation) fn splat_u8(byte: u8) -> Self {
        // SAFETY: NEON.
        Self(unsafe { vdupq_n_u8(byte) })
    }

    /// `word` in every 32-bit lane.
    #[inline(always)]
    pub(in crate::permutation) fn splat_u32(word: u32) -> Self {
        // SAFETY: NEON; the reinterpretation only renames the type.
        Self(unsafe { vreinterpretq_u8_u32(vdupq_n_u32(word)) })
    }

    /// `bits` in both 64-bit lanes.
    #[inline(always)]
    pub(in crate::permutation) fn splat_u64(bits: u64) -> Self {
        // SAFETY: NEON; the reinterpretation only renames the type.
        Self(unsafe { vreinterpretq_u8_u64(vdupq_n_u64(bits)) })
    }

    /// The vector of 64-bit lanes `low`, `high`.
    #[inline(always)]
    pub(in crate::permutation) fn from_u64s(low: u64, high: u64) -> Self {
        // SAFETY: NEON; the reinterpretation only renames the type.
        Self(unsafe { vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(low), vcreate_u64(high))) })
    }

    /// The two 64-bit lanes, low first.
    #[inline(always)]
    pub(in crate::permutation) fn to_u64s(self) -> [u64; 2] {
        // SAFETY: NEON; the reinterpretation only renames the type.
        unsafe {
            let lanes = vreinterpretq_u64_u8(self.0);
            [vgetq_lane_u64::<0>(lanes), vgetq_lane_u64::<1>(lanes)]
        }
    }

    /// `¬self ∧ other` (`bic`).
    #[inline(always)]
    pub(in crate::permutation) fn andnot(self, other: Self) -> Self {
        neon!(vbicq_u8; other, self)
    }

    /// The bits of `if_set` where `self` is set, of `if_clear` elsewhere
    /// (`bsl`).
    #[inline(always)]
    pub(in crate::permutation) fn select(self, if_set: Self, if_clear: Self) -> Self {
        neon!(vbslq_u8; self, if_set, if_clear)
    }

    /// The bits of `from` where `mask` is set, of `self` elsewhere: `bit`,
    /// written out because the optimiser splits a bit select with masks
    /// that it cannot build in a register into three instructions.
    #[inline(always)]
    pub(in crate::permutation) fn insert(self, from: Self, mask: Self) -> Self {
        let mut into = self.0;
        // SAFETY: NEON; the instruction only reads and writes these
        // registers.
        unsafe {
            core::arch::asm!(
                "bit {into:v}.16b, {from:v}.16b, {mask:v}.16b",
                into = inout(vreg) into,
                from = in(vreg) from.0,
                mask = in(vreg) mask.0,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        Self(into)
    }

    /// Every byte shifted left by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shl_u8<const S: i32>(self) -> Self {
        neon!(vshlq_n_u8::<S>; self)
    }

    /// Every byte shifted right by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shr_u8<const S: i32>(self) -> Self {
        neon!(vshrq_n_u8::<S>; self)
    }

    /// Every byte shifted left by `bits` (−8 to 8; negative shifts right):
    /// `ushl` by a splatted count, a constant after inlining.
    #[inline(always)]
    pub(in crate::permutation) fn shl_u8_by(self, bits: i8) -> Self {
        // SAFETY: NEON.
        Self(unsafe { vshlq_u8(self.0, vdupq_n_s8(bits)) })
    }

    /// `from` shifted left by `S` bits in every byte, above the low `S`
    /// bits of `self` (`sli`).
    #[inline(always)]
    pub(in crate::permutation) fn shift_left_insert<const S: i32>(self, from: Self) -> Self {
        neon!(vsliq_n_u8::<S>; self, from)
    }

    /// `from` shifted right by `S` bits in every byte, below the high `S`
    /// bits of `self` (`sri`).
    #[inline(always)]
    pub(in crate::permutation) fn shift_right_insert<const S: i32>(self, from: Self) -> Self {
        neon!(vsriq_n_u8::<S>; self, from)
    }

    /// Every 32-bit lane shifted left by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shl_u32<const S: i32>(self) -> Self {
        neon!(vshlq_n_u32::<S>; self; as vreinterpretq_u32_u8, vreinterpretq_u8_u32)
    }

    /// Every 32-bit lane shifted right by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shr_u32<const S: i32>(self) -> Self {
        neon!(vshrq_n_u32::<S>; self; as vreinterpretq_u32_u8, vreinterpretq_u8_u32)
    }

    /// Both 64-bit lanes shifted left by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shl_u64<const S: i32>(self) -> Self {
        neon!(vshlq_n_u64::<S>; self; as vreinterpretq_u64_u8, vreinterpretq_u8_u64)
    }

    /// Both 64-bit lanes shifted right by `S` bits.
    #[inline(always)]
    pub(in crate::permutation) fn shr_u64<const S: i32>(self) -> Self {
        neon!(vshrq_n_u64::<S>; self; as vreinterpretq_u64_u8, vreinterpretq_u8_u64)
    }

    /// The low 64-bit lanes of `self` and `other` (`zip1` of doublewords).
    #[inline(always)]
    pub(in crate::permutation) fn zip1_u64(self, other: Self) -> Self {
        neon!(vzip1q_u64; self, other; as vreinterpretq_u64_u8, vreinterpretq_u8_u64)
    }

    /// Interleaves the `UNIT`-byte units (1, 2, 4 or 8) of `self` and
    /// `other`: those of the low halves (`zip1`), then of the high ones
    /// (`zip2`). The `zip1` of 8-byte units is written out: LLVM emits it
    /// as a lane insert (`mov v.d[1]`), which overwrites its first operand
    /// and so copies that operand first (`zip2` still reads it).
    #[inline(always)]
    pub(in crate::permutation) fn zip<const UNIT: usize>(self, other: Self) -> [Self; 2] {
        match UNIT {
            1 => [neon!(vzip1q_u8; self, other), neon!(vzip2q_u8; self, other)],
            2 => [
                neon!(vzip1q_u16; self, other; as vreinterpretq_u16_u8, vreinterpretq_u8_u16),
                neon!(vzip2q_u16; self, other; as vreinterpretq_u16_u8, vreinterpretq_u8_u16),
            ],
            4 => [
                neon!(vzip1q_u32; self, other; as vreinterpretq_u32_u8, vreinterpretq_u8_u32),
                neon!(vzip2q_u32; self, other; as vreinterpretq_u32_u8, vreinterpretq_u8_u32),
            ],
            _ => {
                let low;
                // SAFETY: NEON; the instruction only reads and writes these
                // registers.
                unsafe {
                    core::arch::asm!(
                        "zip1 {low:v}.2d, {a:v}.2d, {b:v}.2d",
                        low = lateout(vreg) low,
                        a = in(vreg) self.0,
                        b = in(vreg) other.0,
                        options(pure, nomem, nostack, preserves_flags),
                    );
                }
                [
                    Self(low),
                    neon!(vzip2q_u64; self, other; as vreinterpretq_u64_u8, vreinterpretq_u8_u64),
                ]
            }
        }
    }

    /// Trades the `UNIT`-byte units (1, 2 or 4) of `self` and `other`:
    /// the even units of both, interleaved (`trn1`), then the odd ones
    /// (`trn2`).
    #[inline(always)]
    pub(in crate::permutation) fn trn<const UNIT: usize>(self, other: Self) -> [Self; 2] {
        match UNIT {
            1 => [neon!(vtrn1q_u8; self, other), neon!(vtrn2q_u8; self, other)],
            2 => [
                neon!(vtrn1q_u16; self, other; as vreinterpretq_u16_u8, vreinterpretq_u8_u16),
                neon!(vtrn2q_u16; self, other; as vreinterpretq_u16_u8, vreinterpretq_u8_u16),
            ],
            _ => [
                neon!(vtrn1q_u32; self, other; as vreinterpretq_u32_u8, vreinterpretq_u8_u32),
                neon!(vtrn2q_u32; self, other; as vreinterpretq_u32_u8, vreinterpretq_u8_u32),
            ],
        }
    }

    /// The bytes of the 32-byte `table` that `self` picks (0 for an index
    /// of 32 or more): `tbl` of two registers.
    #[inline(always)]
    pub(in crate::permutation) fn lookup_2(self, [t0, t1]: [Self; 2]) -> Self {
        // SAFETY: NEON.
        Self(unsafe { vqtbl2q_u8(uint8x16x2_t(t0.0, t1.0), self.0) })
    }

    /// As [`Self::lookup_2`], in a 64-byte table.
    #[inline(always)]
    pub(in crate::permutation) fn lookup_4(self, [t0, t1, t2, t3]: [Self; 4]) -> Self {
        // SAFETY: NEON.
        Self(unsafe { vqtbl4q_u8(uint8x16x4_t(t0.0, t1.0, t2.0, t3.0), self.0) })
    }
}

impl BitXor for NeonVector {
    type Output = Self;
    #[inline(always)]
    fn bitxor(self, other: Self) -> Self {
        neon!(veorq_u8; self, other)
    }
}

impl BitAnd for NeonVector {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, other: Self) -> Self {
        neon!(vandq_u8; self, other)
    }
}

impl BitOr for NeonVector {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, other: Self) -> Self {
        neon!(vorrq_u8; self, other)
    }
}

impl Not for NeonVector {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        neon!(vmvnq_u8; self)
    }
}

impl Zeroize for NeonVector {
    fn zeroize(&mut self) {
        // SAFETY: `self` is a valid, aligned place for a `NeonVector`.
        unsafe { core::ptr::write_volatile(self, Self::splat_u8(0)) };
    }
}
