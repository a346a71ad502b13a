//! Keccak-f\[200\] for 32-bit cores without a barrel shifter (RV32), one
//! state in registers.
//!
//! Each 8-bit lane is repeated in the four bytes of a `u32`, so a lane
//! rotation is one 32-bit rotation: `rori` with Zbb, else two shifts and an
//! OR. Without shifted operands the frame trick of `soft32` (every rotation
//! folded into an operand) saves nothing, so each round rotates only where
//! Keccak does: five for θ, 22 for ρ. The 25 lanes are passed by value
//! through the rounds, which RV32's 31 registers mostly hold; χ's and-not
//! is one `andn` with Zbb. Constant time: no branch or index on the state.
//! Why this form and what else was measured: DESIGN.md, "Keccak on cores
//! without a barrel shifter".

use super::super::super::keccak::ROUND_CONSTANTS;

/// The round constants, each repeated in the four bytes of a word.
const REPEATED_CONSTANTS: [u32; 18] = {
    let mut repeated = [0; 18];
    let mut round = 0;
    while round < 18 {
        // A `const` block cannot use iterators; `round` < 18.
        #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
        {
            repeated[round] = u32::from_ne_bytes([ROUND_CONSTANTS[round]; 4]);
            round += 1;
        }
    }
    repeated
};

/// `a ⊕ (¬b ∧ c)`, χ on one lane (`andn` with Zbb).
#[inline(always)]
fn chi(a: u32, b: u32, c: u32) -> u32 {
    a ^ (!b & c)
}

/// One round θ, ρ, π, χ, ι on the 25 lanes (lane (x, y) at `x + 5y`),
/// with the round constant already repeated over the word.
#[inline(always)]
fn round(s: [u32; 25], round_constant: u32) -> [u32; 25] {
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
    ] = s;
    // θ: column parities C[x], then D[x] = C[x − 1] ⊕ rotl(C[x + 1], 1).
    let c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
    let c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
    let c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
    let c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
    let c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
    let d0 = c4 ^ c1.rotate_left(1);
    let d1 = c0 ^ c2.rotate_left(1);
    let d2 = c1 ^ c3.rotate_left(1);
    let d3 = c2 ^ c4.rotate_left(1);
    let d4 = c3 ^ c0.rotate_left(1);
    // θ applied, ρ and π, B[y, 2x + 3y] = rotl(A[x, y] ⊕ D[x], r[x + 5y]),
    // and χ, A[x, y] = B[x, y] ⊕ (¬B[x + 1, y] ∧ B[x + 2, y]), one row of B
    // at a time, so that only five lanes of B are live at once; ι on lane
    // (0, 0).
    let b0 = a00 ^ d0;
    let b1 = (a11 ^ d1).rotate_left(4);
    let b2 = (a22 ^ d2).rotate_left(3);
    let b3 = (a33 ^ d3).rotate_left(5);
    let b4 = (a44 ^ d4).rotate_left(6);
    let e00 = chi(b0, b1, b2) ^ round_constant;
    let e10 = chi(b1, b2, b3);
    let e20 = chi(b2, b3, b4);
    let e30 = chi(b3, b4, b0);
    let e40 = chi(b4, b0, b1);
    let b0 = (a30 ^ d3).rotate_left(4);
    let b1 = (a41 ^ d4).rotate_left(4);
    let b2 = (a02 ^ d0).rotate_left(3);
    let b3 = (a13 ^ d1).rotate_left(5);
    let b4 = (a24 ^ d2).rotate_left(5);
    let e01 = chi(b0, b1, b2);
    let e11 = chi(b1, b2, b3);
    let e21 = chi(b2, b3, b4);
    let e31 = chi(b3, b4, b0);
    let e41 = chi(b4, b0, b1);
    let b0 = (a10 ^ d1).rotate_left(1);
    let b1 = (a21 ^ d2).rotate_left(6);
    let b2 = (a32 ^ d3).rotate_left(1);
    let b3 = a43 ^ d4;
    let b4 = (a04 ^ d0).rotate_left(2);
    let e02 = chi(b0, b1, b2);
    let e12 = chi(b1, b2, b3);
    let e22 = chi(b2, b3, b4);
    let e32 = chi(b3, b4, b0);
    let e42 = chi(b4, b0, b1);
    let b0 = (a40 ^ d4).rotate_left(3);
    let b1 = (a01 ^ d0).rotate_left(4);
    let b2 = (a12 ^ d1).rotate_left(2);
    let b3 = (a23 ^ d2).rotate_left(7);
    let b4 = a34 ^ d3;
    let e03 = chi(b0, b1, b2);
    let e13 = chi(b1, b2, b3);
    let e23 = chi(b2, b3, b4);
    let e33 = chi(b3, b4, b0);
    let e43 = chi(b4, b0, b1);
    let b0 = (a20 ^ d2).rotate_left(6);
    let b1 = (a31 ^ d3).rotate_left(7);
    let b2 = (a42 ^ d4).rotate_left(7);
    let b3 = (a03 ^ d0).rotate_left(1);
    let b4 = (a14 ^ d1).rotate_left(2);
    let e04 = chi(b0, b1, b2);
    let e14 = chi(b1, b2, b3);
    let e24 = chi(b2, b3, b4);
    let e34 = chi(b3, b4, b0);
    let e44 = chi(b4, b0, b1);
    [
        e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42, e03, e13, e23,
        e33, e43, e04, e14, e24, e34, e44,
    ]
}

/// Keccak-f\[200\] of one block.
///
/// The state is not wiped here: what the registers spill lives in this
/// frame, which the public call that got here clears when it is done
/// (`src/scrub.rs`, checked by the firmware benchmark's scan of the dead
/// stack).
pub(in crate::permutation) fn permute(block: &mut [u8; 25]) {
    // Element by element, not by `map` or a loop: either puts a copy of the
    // state in the frame (100 B more of it).
    #[rustfmt::skip]
    let [
        l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19,
        l20, l21, l22, l23, l24,
    ] = *block;
    #[rustfmt::skip]
    let mut state = [
        splat(l0), splat(l1), splat(l2), splat(l3), splat(l4), splat(l5), splat(l6), splat(l7),
        splat(l8), splat(l9), splat(l10), splat(l11), splat(l12), splat(l13), splat(l14),
        splat(l15), splat(l16), splat(l17), splat(l18), splat(l19), splat(l20), splat(l21),
        splat(l22), splat(l23), splat(l24),
    ];
    for &constant in &REPEATED_CONSTANTS {
        state = round(state, constant);
    }
    #[rustfmt::skip]
    let [
        l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19,
        l20, l21, l22, l23, l24,
    ] = state;
    #[rustfmt::skip]
    let out = [
        byte0(l0), byte0(l1), byte0(l2), byte0(l3), byte0(l4), byte0(l5), byte0(l6), byte0(l7),
        byte0(l8), byte0(l9), byte0(l10), byte0(l11), byte0(l12), byte0(l13), byte0(l14),
        byte0(l15), byte0(l16), byte0(l17), byte0(l18), byte0(l19), byte0(l20), byte0(l21),
        byte0(l22), byte0(l23), byte0(l24),
    ];
    *block = out;
}

/// Repeats a byte in the four bytes of a word.
#[inline(always)]
fn splat(byte: u8) -> u32 {
    u32::from_ne_bytes([byte; 4])
}

/// Byte 0 of a word: one copy of the lane.
#[inline(always)]
fn byte0(lane: u32) -> u8 {
    lane.to_le_bytes()[0]
}
