//! The Spongent S-box as boolean circuits on bit slices, shared by every
//! backend: a backend's word type only says how to XOR, AND, OR and NOT.
//! Evaluating the S-box as a circuit (never a table indexed by the state)
//! keeps every backend constant-time.

/// The bitwise operations the S-box circuits need from a word of slices.
pub(super) trait Bits: Copy {
    /// Bitwise exclusive or.
    fn xor(self, other: Self) -> Self;
    /// Bitwise and.
    fn and(self, other: Self) -> Self;
    /// Bitwise or.
    fn or(self, other: Self) -> Self;
    /// `!self & other`, one instruction on most targets.
    fn andnot(self, other: Self) -> Self;
    /// Bitwise complement.
    fn not(self) -> Self;
}

/// Scalar words: `u32` for the 32-bit backend, `u64` for the 64-bit one.
macro_rules! scalar_bits {
    ($($word:ty),*) => {$(
        impl Bits for $word {
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
                !self & other
            }
            #[inline(always)]
            fn not(self) -> Self {
                !self
            }
        }
    )*};
}
scalar_bits!(u32, u64);

/// The Spongent S-box `[E, D, B, 0, 2, 1, 4, F, 7, A, 8, 5, 9, C, 3, 6]` as a
/// 20-operation boolean circuit on bit slices (`x0` is the least significant
/// input bit). Derived from the algebraic normal form of the reference by
/// sharing `x1·x2`, `x0 ⊕ x1·x2` and `x1 ⊕ x2`, and writing the cubic part of
/// `y3` as `x3 · (x0 ? x2 : ¬x1)`.
#[cfg(any(test, elephant_bench_tiers, not(elephant_neon)))]
#[inline(always)]
pub(super) fn sbox<W: Bits>([x0, x1, x2, x3]: [W; 4]) -> [W; 4] {
    let u = x0.xor(x1.and(x2));
    let v = x1.xor(x2);
    let y0 = u.xor(x1).xor(x3);
    let y1 = u.xor(x3.and(u.xor(v))).not();
    let y2 = v.xor(x3.and(u)).not();
    // (x0 ∧ x2) ⊕ (x0 ∨ x1) is ¬(x0 ? x2 : ¬x1).
    let not_mux = x0.and(x2).xor(x0.or(x1));
    let y3 = x2.xor(x0.and(x1)).xor(not_mux.andnot(x3)).not();
    [y0, y1, y2, y3]
}

/// The S-box without its three output complements: `S(x) ⊕ 0b1110`, 17
/// operations. The bitsliced kernel stores quarters 1..3 of the state
/// complemented (see `sliced_round` in `backends/soft64.rs`) and so never
/// spends the NOTs.
#[cfg(elephant_batch)]
#[inline(always)]
pub(super) fn sbox_plain<W: Bits>([x0, x1, x2, x3]: [W; 4]) -> [W; 4] {
    let u = x0.xor(x1.and(x2));
    let v = x1.xor(x2);
    let y0 = u.xor(x1).xor(x3);
    let y1 = u.xor(x3.and(u.xor(v)));
    let y2 = v.xor(x3.and(u));
    let not_mux = x0.and(x2).xor(x0.or(x1));
    let y3 = x2.xor(x0.and(x1)).xor(not_mux.andnot(x3));
    [y0, y1, y2, y3]
}

/// [`sbox_plain`] of complemented inputs: `S(¬x) ⊕ 0b1110`, 18 operations
/// (the complements move into De Morgan forms: `¬x1 ∧ ¬x2 = ¬(x1 ∨ x2)`, …).
#[cfg(elephant_batch)]
#[inline(always)]
pub(super) fn sbox_complemented<W: Bits>([x0, x1, x2, x3]: [W; 4]) -> [W; 4] {
    let u = x0.xor(x1.or(x2));
    let v = x1.xor(x2);
    let y0 = u.xor(x1).xor(x3);
    let y1 = u.xor(x3.andnot(u.xor(v)));
    let y2 = v.xor(x3.andnot(u));
    let not_mux = x0.or(x2).xor(x0.and(x1));
    let y3 = x2.xor(x0.or(x1)).xor(not_mux.or(x3)).not();
    [y0, y1, y2, y3]
}

/// A word with a three-input logic instruction: `ternary::<TABLE>(a, b, c)`
/// computes, bit by bit, the function whose truth table is `TABLE` (bit
/// `4a + 2b + c`), as `vpternlogd` does.
#[cfg(any(all(test, elephant_batch), elephant_avx512))]
pub(super) trait Ternary: Copy {
    /// Bit by bit, bit `4a + 2b + c` of `TABLE`.
    fn ternary<const TABLE: i32>(self, b: Self, c: Self) -> Self;
}

/// [`sbox`] in eight three-input gates instead of 20 two-input ones: the
/// circuit's intermediate values (`u`, `v`, and the two halves of `y3`)
/// each become one gate of three inputs, and every NOT folds into a truth
/// table, so no kernel with these gates keeps complemented words.
#[cfg(any(all(test, elephant_batch), elephant_avx512))]
#[inline(always)]
pub(super) fn sbox_ternary<W: Ternary>([x0, x1, x2, x3]: [W; 4]) -> [W; 4] {
    let u = x0.ternary::<0x78>(x1, x2);
    let v = x0.ternary::<0x66>(x1, x2);
    let w = x0.ternary::<0x6a>(x1, x2);
    let m = x0.ternary::<0x5c>(x1, x2);
    [
        u.ternary::<0x96>(x1, x3),
        u.ternary::<0x27>(v, x3),
        v.ternary::<0x87>(u, x3),
        w.ternary::<0x2d>(m, x3),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The S-box of the spec, as a table (for this test only).
    const S: [u8; 16] = [0xE, 0xD, 0xB, 0, 2, 1, 4, 0xF, 7, 0xA, 8, 5, 9, 0xC, 3, 6];

    /// The input nibble `x` as four one-bit slices.
    fn slices(x: u8) -> [u32; 4] {
        [0, 1, 2, 3].map(|i| u32::from((x >> i) & 1))
    }

    /// Four one-bit slices back to a nibble.
    fn nibble(y: [u32; 4]) -> u32 {
        (0..4)
            .zip(y)
            .fold(0, |acc, (j, bit)| acc | ((bit & 1) << j))
    }

    #[test]
    fn sbox_circuit_is_the_sbox() {
        for x in 0..16u8 {
            assert_eq!(
                nibble(sbox(slices(x))),
                u32::from(S[usize::from(x)]),
                "S[{x:x}]"
            );
        }
    }

    /// `vpternlogd`'s definition, bit by bit, for the tests.
    #[cfg(elephant_batch)]
    impl Ternary for u32 {
        fn ternary<const TABLE: i32>(self, b: Self, c: Self) -> Self {
            (0..32).fold(0, |out, bit| {
                let index = ((self >> bit) & 1) << 2 | ((b >> bit) & 1) << 1 | ((c >> bit) & 1);
                out | (((TABLE as u32) >> index) & 1) << bit
            })
        }
    }

    #[test]
    #[cfg(elephant_batch)]
    fn true_ternary_sbox_is_the_sbox() {
        for x in 0..16u8 {
            assert_eq!(sbox_ternary::<u32>(slices(x)), sbox(slices(x)), "{x:x}");
        }
    }

    #[test]
    #[cfg(elephant_batch)]
    fn sbox_variants_are_the_sbox_up_to_complements() {
        for x in 0..16u8 {
            let s = u32::from(S[usize::from(x)]);
            assert_eq!(nibble(sbox_plain(slices(x))), s ^ 0xE);
            assert_eq!(nibble(sbox_complemented(slices(x ^ 0xF))), s ^ 0xE);
        }
    }
}
