//! Keccak-f\[200\] for 32-bit cores without an operand barrel shifter
//! (RV32, ARMv6-M), one state.
//!
//! Each 8-bit lane is repeated in the four bytes of a `u32`, so a lane
//! rotation is one 32-bit rotation: `rori` with Zbb, else two shifts and an
//! OR (ARMv6-M: a `movs` and a `rors`). Without shifted operands the frames
//! of `soft32` (every rotation folded into an operand, 76 a round) save
//! nothing, so each round rotates only where Keccak does: five for θ, 22
//! for ρ. χ goes one row of B at a time, so only five lanes of B are live.
//! Where the state lives between rounds is the one difference per core
//! ([`Home`]): on RV32 the 25 lanes are passed by value through the rounds,
//! which its 31 registers mostly hold; ARMv6-M, with eight low registers,
//! would spill them all, so there the state stays in 25 bytes of the frame
//! (a lane repeated over a word as it is read) and each row of χ is written
//! over the lanes it has just read (the two alternating layouts of
//! `soft32`). Constant time: no branch or
//! index on the state. Why this form and what else was measured:
//! DESIGN.md, "Keccak on cores without a barrel shifter".

use core::cell::Cell;
use core::hint::black_box;

use crate::permutation::keccak::ROUND_CONSTANTS;

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

/// `a ⊕ (¬b ∧ c)`, χ on one lane (`andn` with Zbb, `bics` on ARMv6-M).
#[inline(always)]
fn chi(a: u32, b: u32, c: u32) -> u32 {
    a ^ (!b & c)
}

/// Where a round reads lane (x, y) and writes row y of χ's output.
trait Home {
    /// Lane (x, y) of the round's input.
    fn get(&self, x: usize, y: usize) -> u32;
    /// Lanes (0..5, y) of the round's output. A round puts row y once it
    /// has read every lane that row is made from.
    fn put_row(&mut self, y: usize, row: [u32; 5]);
    /// The parity of column x, C\[x\], repeated like a lane.
    #[inline(always)]
    fn parity(&self, x: usize) -> u32 {
        self.get(x, 0) ^ self.get(x, 1) ^ self.get(x, 2) ^ self.get(x, 3) ^ self.get(x, 4)
    }
}

/// One round θ, ρ, π, χ, ι, from and to `h`, with the round constant
/// already repeated over the word.
#[inline(always)]
fn round(h: &mut impl Home, round_constant: u32) {
    // θ: column parities C[x], then D[x] = C[x − 1] ⊕ rotl(C[x + 1], 1).
    let c0 = h.parity(0);
    let c1 = h.parity(1);
    let c2 = h.parity(2);
    let c3 = h.parity(3);
    let c4 = h.parity(4);
    let d0 = c4 ^ c1.rotate_left(1);
    let d1 = c0 ^ c2.rotate_left(1);
    let d2 = c1 ^ c3.rotate_left(1);
    let d3 = c2 ^ c4.rotate_left(1);
    let d4 = c3 ^ c0.rotate_left(1);
    // θ applied, ρ and π, B[y, 2x + 3y] = rotl(A[x, y] ⊕ D[x], r[x + 5y]),
    // and χ, A[x, y] = B[x, y] ⊕ (¬B[x + 1, y] ∧ B[x + 2, y]), one row of B
    // at a time, so that only five lanes of B are live at once; ι on lane
    // (0, 0).
    let b0 = h.get(0, 0) ^ d0;
    let b1 = (h.get(1, 1) ^ d1).rotate_left(4);
    let b2 = (h.get(2, 2) ^ d2).rotate_left(3);
    let b3 = (h.get(3, 3) ^ d3).rotate_left(5);
    let b4 = (h.get(4, 4) ^ d4).rotate_left(6);
    let e00 = chi(b0, b1, b2) ^ round_constant;
    let e10 = chi(b1, b2, b3);
    let e20 = chi(b2, b3, b4);
    let e30 = chi(b3, b4, b0);
    let e40 = chi(b4, b0, b1);
    h.put_row(0, [e00, e10, e20, e30, e40]);
    let b0 = (h.get(3, 0) ^ d3).rotate_left(4);
    let b1 = (h.get(4, 1) ^ d4).rotate_left(4);
    let b2 = (h.get(0, 2) ^ d0).rotate_left(3);
    let b3 = (h.get(1, 3) ^ d1).rotate_left(5);
    let b4 = (h.get(2, 4) ^ d2).rotate_left(5);
    let e01 = chi(b0, b1, b2);
    let e11 = chi(b1, b2, b3);
    let e21 = chi(b2, b3, b4);
    let e31 = chi(b3, b4, b0);
    let e41 = chi(b4, b0, b1);
    h.put_row(1, [e01, e11, e21, e31, e41]);
    let b0 = (h.get(1, 0) ^ d1).rotate_left(1);
    let b1 = (h.get(2, 1) ^ d2).rotate_left(6);
    let b2 = (h.get(3, 2) ^ d3).rotate_left(1);
    let b3 = h.get(4, 3) ^ d4;
    let b4 = (h.get(0, 4) ^ d0).rotate_left(2);
    let e02 = chi(b0, b1, b2);
    let e12 = chi(b1, b2, b3);
    let e22 = chi(b2, b3, b4);
    let e32 = chi(b3, b4, b0);
    let e42 = chi(b4, b0, b1);
    h.put_row(2, [e02, e12, e22, e32, e42]);
    let b0 = (h.get(4, 0) ^ d4).rotate_left(3);
    let b1 = (h.get(0, 1) ^ d0).rotate_left(4);
    let b2 = (h.get(1, 2) ^ d1).rotate_left(2);
    let b3 = (h.get(2, 3) ^ d2).rotate_left(7);
    let b4 = h.get(3, 4) ^ d3;
    let e03 = chi(b0, b1, b2);
    let e13 = chi(b1, b2, b3);
    let e23 = chi(b2, b3, b4);
    let e33 = chi(b3, b4, b0);
    let e43 = chi(b4, b0, b1);
    h.put_row(3, [e03, e13, e23, e33, e43]);
    let b0 = (h.get(2, 0) ^ d2).rotate_left(6);
    let b1 = (h.get(3, 1) ^ d3).rotate_left(7);
    let b2 = (h.get(4, 2) ^ d4).rotate_left(7);
    let b3 = (h.get(0, 3) ^ d0).rotate_left(1);
    let b4 = (h.get(1, 4) ^ d1).rotate_left(2);
    let e04 = chi(b0, b1, b2);
    let e14 = chi(b1, b2, b3);
    let e24 = chi(b2, b3, b4);
    let e34 = chi(b3, b4, b0);
    let e44 = chi(b4, b0, b1);
    h.put_row(4, [e04, e14, e24, e34, e44]);
}

/// The state in registers (RV32): a round reads `old` and writes `new`,
/// both by value, so LLVM keeps them in registers where it can.
struct Registers {
    /// The round's input, lane (x, y) at `x + 5y`.
    old: [u32; 25],
    /// The round's output, lane (x, y) at `x + 5y`.
    new: [u32; 25],
}

impl Home for Registers {
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn get(&self, x: usize, y: usize) -> u32 {
        // Constant arguments after inlining: x, y < 5.
        self.old[x + 5 * y]
    }

    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn put_row(&mut self, y: usize, row: [u32; 5]) {
        // Constant arguments after inlining: y < 5. (Written out: a loop
        // is not unrolled at opt-level "s".)
        let [e0, e1, e2, e3, e4] = row;
        self.new[5 * y] = e0;
        self.new[1 + 5 * y] = e1;
        self.new[2 + 5 * y] = e2;
        self.new[3 + 5 * y] = e3;
        self.new[4 + 5 * y] = e4;
    }
}

/// Where lane (x, y) sits in the in-place state read by an even round
/// (`odd` false: by π groups, group g = 2x + 3y mod 5 at `5g`, the lane in
/// slot 2x + y mod 5) or by an odd round (`odd` true: row by row, lane
/// (x, y) at `5y + x`). A round writes the rows of χ over the five places
/// it has just read, which puts them in the other layout (the layouts of
/// `soft32`; see its `at`).
const fn at(odd: bool, x: usize, y: usize) -> usize {
    // Arguments below 5.
    #[allow(clippy::arithmetic_side_effects)]
    if odd {
        5 * y + x
    } else {
        5 * ((2 * x + 3 * y) % 5) + (2 * x + y) % 5
    }
}

/// Lane x + 5y's place in the even layout, for the way in and out.
const EVEN_PLACES: [usize; 25] = {
    let mut places = [0; 25];
    let mut lane = 0;
    while lane < 25 {
        // A `const` block cannot use iterators; `lane` < 25.
        #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
        {
            places[lane] = at(false, lane % 5, lane / 5);
            lane += 1;
        }
    }
    places
};

/// The state in 25 bytes of the frame, one copy of each lane, in layout
/// `ODD` (ARMv6-M): a lane is repeated over a word when it is read (a
/// `ldrb` and a `muls`), and its byte 0 stored (every byte of a lane's word
/// is the lane: its frame is 0). Words would take 100 B, which with the
/// spills of eight low registers took Delirium past 512 B of stack.
/// [`permute_in_place`] hands the array to [`black_box`] first, so that
/// `black_box(())` between the rows is a compiler barrier for it: LLVM
/// neither loads the whole state ahead nor forwards stores across rows.
struct InPlace<'a, const ODD: bool>(&'a [Cell<u8>; 25]);

impl<const ODD: bool> InPlace<'_, ODD> {
    /// Lane (x, y)'s byte.
    #[inline(always)]
    #[allow(clippy::indexing_slicing)]
    fn byte(&self, x: usize, y: usize) -> u8 {
        // Constant indices after inlining, below 25.
        self.0[at(ODD, x, y)].get()
    }
}

impl<const ODD: bool> Home for InPlace<'_, ODD> {
    #[inline(always)]
    fn get(&self, x: usize, y: usize) -> u32 {
        splat(self.byte(x, y))
    }

    #[inline(always)]
    #[allow(clippy::indexing_slicing)]
    fn put_row(&mut self, y: usize, row: [u32; 5]) {
        // Constant indices after inlining, below 25. (Written out: a loop
        // is not unrolled at opt-level "s".)
        let [e0, e1, e2, e3, e4] = row;
        self.0[at(!ODD, 0, y)].set(byte0(e0));
        self.0[at(!ODD, 1, y)].set(byte0(e1));
        self.0[at(!ODD, 2, y)].set(byte0(e2));
        self.0[at(!ODD, 3, y)].set(byte0(e3));
        self.0[at(!ODD, 4, y)].set(byte0(e4));
        black_box(());
    }

    /// The parity of the column's bytes, repeated once.
    #[inline(always)]
    fn parity(&self, x: usize) -> u32 {
        splat(
            self.byte(x, 0) ^ self.byte(x, 1) ^ self.byte(x, 2) ^ self.byte(x, 3) ^ self.byte(x, 4),
        )
    }
}

/// Keccak-f\[200\] of one block: the state in registers on RV32, in
/// place in the frame on ARMv6-M (see [`Home`]).
///
/// The state is not wiped here: what is left of it lives in this frame,
/// which the public call that got here clears when it is done
/// (`src/scrub.rs`, checked by the firmware benchmark's scan of the dead
/// stack).
pub(in crate::permutation) fn permute(block: &mut [u8; 25]) {
    if cfg!(target_arch = "arm") {
        permute_in_place(block);
    } else {
        permute_in_registers(block);
    }
}

/// [`permute`] with the state passed by value through the rounds.
pub(in crate::permutation) fn permute_in_registers(block: &mut [u8; 25]) {
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
        let mut home = Registers {
            old: state,
            new: [0; 25],
        };
        round(&mut home, constant);
        state = home.new;
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

/// [`permute`] with the state in 25 bytes of the frame, two rounds (one
/// in each layout) a loop step.
#[allow(clippy::indexing_slicing)]
pub(in crate::permutation) fn permute_in_place(block: &mut [u8; 25]) {
    // Any value will do before the lanes go in; one that is not a
    // constant keeps LLVM from calling `memset` for it. (An array literal:
    // `from_fn` builds the array elsewhere and copies it.)
    let fill = block[0];
    let c = || Cell::new(fill);
    #[rustfmt::skip]
    let s: [Cell<u8>; 25] = [
        c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(),
        c(), c(), c(), c(), c(), c(), c(), c(),
    ];
    black_box(&s);
    // EVEN_PLACES holds indices below 25.
    for (lane, &place) in block.iter().zip(&EVEN_PLACES) {
        s[place].set(*lane);
    }
    for pair in REPEATED_CONSTANTS.chunks_exact(2) {
        if let [even, odd] = *pair {
            round(&mut InPlace::<false>(&s), even);
            round(&mut InPlace::<true>(&s), odd);
        }
    }
    for (lane, &place) in block.iter_mut().zip(&EVEN_PLACES) {
        *lane = s[place].get();
    }
}
