//! The Keccak-f\[200\] round function, written once over a [`Word`] of
//! byte lanes: the 64-bit targets' backends (one state repeated in a `u32`,
//! eight states in a `u64`, 32 in an AVX2 vector) run this same code. The
//! 32-bit targets' backend has its own round, scheduled for 32-bit Arm (see
//! `backends/soft32.rs`).

use super::ROUND_CONSTANTS;

/// A machine word holding the same lane of several independent states, one
/// byte per state: what the round function needs from it.
///
/// Implemented for a `u32` with the lane repeated in its bytes (one state),
/// `u64` (eight states) and a 256-bit AVX2 vector (32 states), so that one
/// round function serves them all.
pub(super) trait Word: Copy {
    /// What a word is made with: the CPU token of its instruction set
    /// (`()` where the target has it anyway).
    type Token: Copy;
    /// The token this word was made with, to make more.
    fn token(self) -> Self::Token;
    /// Every byte set to `byte`.
    fn splat(token: Self::Token, byte: u8) -> Self;
    /// Bitwise XOR.
    fn xor(self, other: Self) -> Self;
    /// Bitwise AND.
    fn and(self, other: Self) -> Self;
    /// Bitwise OR.
    fn or(self, other: Self) -> Self;
    /// `!self & other`, the χ step (one instruction where the target has it).
    fn andnot(self, other: Self) -> Self;
    /// `self ⊕ b ⊕ c` (one instruction where the target has three-input
    /// logic).
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        self.xor(b).xor(c)
    }
    /// `self ⊕ (¬b ∧ c)`, the χ step of one lane (one instruction where the
    /// target has three-input logic).
    #[inline(always)]
    fn chi(self, b: Self, c: Self) -> Self {
        self.xor(b.andnot(c))
    }
    /// Shift of the whole word (or of each wider element) left by
    /// `bits` < 8; bits that cross into a neighbouring byte are masked off by
    /// [`Word::rotl`].
    fn shl(self, bits: u32) -> Self;
    /// Shift right, the counterpart of [`Word::shl`].
    fn shr(self, bits: u32) -> Self;

    /// Rotates every byte left by `bits` (1 to 7): the high part of each
    /// shifted byte is kept, what leaked into the neighbouring byte is masked
    /// away, and the wrapped-around bits come from the opposite shift.
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let back = 8u32.wrapping_sub(bits);
        let token = self.token();
        let high = self
            .shl(bits)
            .and(Self::splat(token, u8::MAX.wrapping_shl(bits)));
        let low = self
            .shr(back)
            .and(Self::splat(token, u8::MAX.wrapping_shr(back)));
        high.or(low)
    }
}

/// One round θ, ρ, π, χ, ι on the 25 lanes (lane (x, y) at `x + 5y`), with
/// the round constant already splatted over the word.
///
/// Written out lane by lane so that every rotation amount and every lane
/// move is a constant: π costs nothing but names.
#[inline(always)]
fn round<W: Word>(state: [W; 25], round_constant: W) -> [W; 25] {
    let [
        a00,
        a10,
        a20,
        a30,
        a40,
        a01,
        a11,
        a21,
        a31,
        a41,
        a02,
        a12,
        a22,
        a32,
        a42,
        a03,
        a13,
        a23,
        a33,
        a43,
        a04,
        a14,
        a24,
        a34,
        a44,
    ] = state;
    // θ: column parities C[x], then D[x] = C[x − 1] ⊕ rotl(C[x + 1], 1).
    let c0 = a00.xor3(a01, a02).xor3(a03, a04);
    let c1 = a10.xor3(a11, a12).xor3(a13, a14);
    let c2 = a20.xor3(a21, a22).xor3(a23, a24);
    let c3 = a30.xor3(a31, a32).xor3(a33, a34);
    let c4 = a40.xor3(a41, a42).xor3(a43, a44);
    let d0 = c4.xor(c1.rotl(1));
    let d1 = c0.xor(c2.rotl(1));
    let d2 = c1.xor(c3.rotl(1));
    let d3 = c2.xor(c4.rotl(1));
    let d4 = c3.xor(c0.rotl(1));
    // θ applied, ρ and π: B[y, 2x + 3y] = rotl(A[x, y] ⊕ D[x], r[x + 5y]).
    let b00 = a00.xor(d0);
    let b10 = a11.xor(d1).rotl(4);
    let b20 = a22.xor(d2).rotl(3);
    let b30 = a33.xor(d3).rotl(5);
    let b40 = a44.xor(d4).rotl(6);
    let b01 = a30.xor(d3).rotl(4);
    let b11 = a41.xor(d4).rotl(4);
    let b21 = a02.xor(d0).rotl(3);
    let b31 = a13.xor(d1).rotl(5);
    let b41 = a24.xor(d2).rotl(5);
    let b02 = a10.xor(d1).rotl(1);
    let b12 = a21.xor(d2).rotl(6);
    let b22 = a32.xor(d3).rotl(1);
    let b32 = a43.xor(d4);
    let b42 = a04.xor(d0).rotl(2);
    let b03 = a40.xor(d4).rotl(3);
    let b13 = a01.xor(d0).rotl(4);
    let b23 = a12.xor(d1).rotl(2);
    let b33 = a23.xor(d2).rotl(7);
    let b43 = a34.xor(d3);
    let b04 = a20.xor(d2).rotl(6);
    let b14 = a31.xor(d3).rotl(7);
    let b24 = a42.xor(d4).rotl(7);
    let b34 = a03.xor(d0).rotl(1);
    let b44 = a14.xor(d1).rotl(2);
    // χ: A[x, y] = B[x, y] ⊕ (¬B[x + 1, y] ∧ B[x + 2, y]); ι on lane (0, 0).
    [
        b00.chi(b10, b20).xor(round_constant),
        b10.chi(b20, b30),
        b20.chi(b30, b40),
        b30.chi(b40, b00),
        b40.chi(b00, b10),
        b01.chi(b11, b21),
        b11.chi(b21, b31),
        b21.chi(b31, b41),
        b31.chi(b41, b01),
        b41.chi(b01, b11),
        b02.chi(b12, b22),
        b12.chi(b22, b32),
        b22.chi(b32, b42),
        b32.chi(b42, b02),
        b42.chi(b02, b12),
        b03.chi(b13, b23),
        b13.chi(b23, b33),
        b23.chi(b33, b43),
        b33.chi(b43, b03),
        b43.chi(b03, b13),
        b04.chi(b14, b24),
        b14.chi(b24, b34),
        b24.chi(b34, b44),
        b34.chi(b44, b04),
        b44.chi(b04, b14),
    ]
}

/// The 18 rounds of Keccak-f\[200\] on every state held in the words,
/// with the token the words were made with.
#[inline(always)]
pub(super) fn rounds<W: Word>(token: W::Token, mut state: [W; 25]) -> [W; 25] {
    for constant in ROUND_CONSTANTS {
        state = round(state, W::splat(token, constant));
    }
    state
}
