//! What the two NEON Spongent-π kernels (`neon`, 128 states; `neon_one`,
//! one state) share: [`NeonVector`] as a word of bit slices ([`Bits`]), so
//! that the portable S-box circuits run on it, and the S-box as a circuit
//! of bit selects ([`sbox`]).
//!
//! Nothing branches on or indexes by the data. NEON is baseline on every
//! target this is built for (`elephant_neon`); the `asm!` below only reads
//! and writes the registers it names.

use crate::permutation::simd::neon::NeonVector;
use crate::permutation::spongent::sbox::Bits;

impl Bits for NeonVector {
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
    /// `bic`: `other ∧ ¬self`.
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        NeonVector::andnot(self, other)
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
    }
}

/// The S-box on four planes (`x0` the least significant input bit), for
/// the 128-state kernel (`neon`), in the form the bitsliced kernels keep:
/// `S(x) ⊕ 0b1110`, of true inputs, or `S(¬x) ⊕ 0b1110` where
/// `COMPLEMENTED`. Ten operations, four of them bit selects (`bsl`,
/// `bif`), against 17 for `sbox_plain`: with
/// `a = x0 ⊕ (x1 ∧ ¬x2)`, `y0 = x3 ⊕ a`, `y1 = x1 ⊕ (x3 ? x2 : a)`,
/// `y2 = x2 ⊕ (x3 ? a : x1)` and `y3 = x3 ⊕ ((x3 ? x2 : x1) ? y1 : y2)`.
/// Complemented inputs pass through it (`a` comes out complemented, each
/// select swaps its inputs or takes two complemented ones) but for one NOT
/// on `y3`. Written out because a select overwrites one of its operands
/// and the optimiser, ordering freely, copied one before most of them;
/// in this order only the first needs a copy (`mov`).
#[inline(always)]
pub(super) fn sbox<const COMPLEMENTED: bool>(x: [NeonVector; 4]) -> [NeonVector; 4] {
    let [x0, x1, x2, x3] = x;
    let [mut x0, x1, x2, mut x3] = [x0.raw(), x1.raw(), x2.raw(), x3.raw()];
    let (y0, y1);
    // SAFETY: NEON (baseline here); the instructions only read and write
    // these registers.
    unsafe {
        if COMPLEMENTED {
            core::arch::asm!(
                "bic {t:v}.16b, {x2:v}.16b, {x1:v}.16b",
                "eor {x0:v}.16b, {x0:v}.16b, {t:v}.16b",
                "eor {u:v}.16b, {x3:v}.16b, {x0:v}.16b",
                "mov {t:v}.16b, {x3:v}.16b",
                "bsl {t:v}.16b, {x0:v}.16b, {x2:v}.16b",
                "bit {x0:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "eor {t:v}.16b, {x1:v}.16b, {t:v}.16b",
                "eor {x0:v}.16b, {x2:v}.16b, {x0:v}.16b",
                "bit {x2:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "bsl {x2:v}.16b, {x0:v}.16b, {t:v}.16b",
                "eor {x3:v}.16b, {x3:v}.16b, {x2:v}.16b",
                "mvn {x3:v}.16b, {x3:v}.16b",
                x0 = inout(vreg) x0, x1 = in(vreg) x1, x2 = inout(vreg) x2 => _,
                x3 = inout(vreg) x3, t = out(vreg) y1, u = out(vreg) y0,
                options(pure, nomem, nostack, preserves_flags),
            );
        } else {
            core::arch::asm!(
                "bic {t:v}.16b, {x1:v}.16b, {x2:v}.16b",
                "eor {x0:v}.16b, {x0:v}.16b, {t:v}.16b",
                "eor {u:v}.16b, {x3:v}.16b, {x0:v}.16b",
                "mov {t:v}.16b, {x3:v}.16b",
                "bsl {t:v}.16b, {x2:v}.16b, {x0:v}.16b",
                "bif {x0:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "eor {t:v}.16b, {x1:v}.16b, {t:v}.16b",
                "eor {x0:v}.16b, {x2:v}.16b, {x0:v}.16b",
                "bif {x2:v}.16b, {x1:v}.16b, {x3:v}.16b",
                "bsl {x2:v}.16b, {t:v}.16b, {x0:v}.16b",
                "eor {x3:v}.16b, {x3:v}.16b, {x2:v}.16b",
                x0 = inout(vreg) x0, x1 = in(vreg) x1, x2 = inout(vreg) x2 => _,
                x3 = inout(vreg) x3, t = out(vreg) y1, u = out(vreg) y0,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    }
    [
        NeonVector::from_raw(y0),
        NeonVector::from_raw(y1),
        NeonVector::from_raw(x0),
        NeonVector::from_raw(x3),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::cast_possible_truncation)] // Nibbles.
    fn sbox_is_the_sbox_up_to_complements() {
        const S: [u8; 16] = [0xE, 0xD, 0xB, 0, 2, 1, 4, 0xF, 7, 0xA, 8, 5, 9, 0xC, 3, 6];
        // Byte x of plane i is bit i of x (0 or 0xff).
        let planes = |complement: u8| {
            [0, 1, 2, 3].map(|i| {
                let bytes: [u8; 16] =
                    core::array::from_fn(|x| (((x as u8 ^ complement) >> i) & 1).wrapping_neg());
                NeonVector::load(&bytes)
            })
        };
        for (complemented, y) in [
            (false, sbox::<false>(planes(0))),
            (true, sbox::<true>(planes(0xf))),
        ] {
            let mut out = [0u8; 16];
            for (i, plane) in y.into_iter().enumerate() {
                let mut bytes = [0u8; 16];
                plane.store(&mut bytes);
                for (nibble, byte) in out.iter_mut().zip(bytes) {
                    assert!(byte == 0 || byte == 0xff, "plane {i}: {byte:x}");
                    *nibble |= (byte & 1) << i;
                }
            }
            let expected: [u8; 16] = core::array::from_fn(|x| S[x] ^ 0xe);
            assert_eq!(out, expected, "complemented: {complemented}");
        }
    }
}
