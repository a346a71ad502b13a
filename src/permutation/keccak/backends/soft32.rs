//! Keccak-f\[200\] on one state with every 8-bit lane copied into all four
//! bytes of a `u32`: the backend of 32-bit targets (firmware).
//!
//! With the byte repeated, rotating the whole word rotates each copy of the
//! lane, so ρ is one 32-bit rotation (free as a shifted operand on Arm)
//! instead of two shifts and a mask. The other steps are plain word
//! operations, identical in every byte; the result is read from byte 0.
//!
//! This backend has its own round rather than the shared generic one in
//! `keccak/round.rs` (which serves the 64-bit targets' backends, and there
//! runs this same repeated-lane form about twice as fast as this one):
//! on a Cortex-M4 that one cost 5,026 counted instructions per permutation
//! and a 408-byte frame, as it passes the state by value (copies in the
//! frame), materialises every ρ rotation and lets LLVM hoist all 25 loads
//! and spill them. This one (4,082 instructions per permutation, 201 per
//! round, and a 264-byte frame with both states):
//! - reads one array and writes the other, the two swapping roles every
//!   round, one output row of χ at a time;
//! - keeps each lane rotated by a fixed per-lane amount ([`FRAMES`]) so that
//!   every rotation of θ, ρ and χ folds into an operand: a round has no
//!   rotate instruction;
//! - orders its loads and stores (relaxed atomics, plain `ldr`/`str`) and
//!   computes the column parities one column at a time (see [`round`]).
//!
//! Tried and measured worse on the Cortex-M4: plain `Cell` lanes ordered by
//! compiler fences or `black_box` (LLVM still loads the whole state first
//! and spills it, and merges no loads into `ldm`: 4,700–4,950), and two
//! rounds per loop step with both states at fixed places in the frame
//! (4,570: more spills, not fewer).

use core::sync::atomic::{AtomicU32, Ordering::Relaxed};

use super::super::super::keccak::ROUND_CONSTANTS;

/// One state, each lane repeated in the four bytes of a word, lane (x, y) at
/// `x + 5y`.
type Lanes = [AtomicU32; 25];

/// Loads a lane. The lanes are (relaxed) atomics only so that LLVM keeps
/// the loads and stores of a round in program order: left free, it schedules
/// all 25 loads of the round first and spills most of them (the Cortex-M4
/// has 13 usable registers), a store and a load each. On Arm a relaxed
/// atomic load or store is a plain `ldr` or `str`.
#[inline(always)]
fn get(lane: &AtomicU32) -> u32 {
    lane.load(Relaxed)
}

/// How far each lane (x, y), at `x + 5y`, is kept rotated right: the state
/// holds `rotr(A[x, y], FRAMES[x + 5y])`.
///
/// A rotation is free on Arm as the second operand of `eor` or `bic`, but
/// the first operand must be in place. Keeping every lane in its own frame
/// lets each step fold the rotations of ρ, θ and χ into second operands:
/// with B[π(x, y)] = rotl(A[x, y] ⊕ D[x], r[x, y]) kept in A[x, y]'s frame
/// and χ's result for lane p in the frame of its first input, lane p ends
/// in frame FRAMES[π⁻¹(p)] + r[π⁻¹(p)], which is FRAMES[p] by construction
/// (π is one cycle through the 24 lanes other than (0, 0), and the offsets
/// r around it sum to 0 mod 8, so the frames close up). No round then needs
/// a separate rotation: a round is 75 loads and stores and 101 logic
/// instructions.
const FRAMES: [u8; 25] = [
    0, 0, 4, 0, 4, 4, 4, 4, 5, 0, 1, 2, 1, 0, 4, 7, 0, 4, 3, 0, 2, 4, 3, 0, 6,
];

/// The round constants ι, each repeated in the four bytes of a word (lane
/// (0, 0) has frame 0).
const REPEATED_CONSTANTS: [u32; 18] = {
    let mut repeated = [0; 18];
    let mut round = 0;
    while round < 18 {
        // A `const` block cannot use iterators; `round` < 18 = both lengths.
        #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
        {
            repeated[round] = u32::from_ne_bytes([ROUND_CONSTANTS[round]; 4]);
            round += 1;
        }
    }
    repeated
};

/// Stores a row of five lanes.
#[inline(always)]
fn put([e0, e1, e2, e3, e4]: [&AtomicU32; 5], [v0, v1, v2, v3, v4]: [u32; 5]) {
    e0.store(v0, Relaxed);
    e1.store(v1, Relaxed);
    e2.store(v2, Relaxed);
    e3.store(v3, Relaxed);
    e4.store(v4, Relaxed);
}

/// One round θ, ρ, π, χ, ι from `a` into `e`, lanes in their [`FRAMES`],
/// with the round constant already repeated over the word.
///
/// Every rotation amount below is the one that step needs, corrected by the
/// frames of its operands and result (generated, and checked bit-exact by
/// the shared backend tests); each is on a second operand, so it costs no
/// instruction on Arm.
#[inline(always)]
fn round(a: &Lanes, e: &Lanes, round_constant: u32) {
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
    ] = a;
    let [
        e00,
        e10,
        e20,
        e30,
        e40,
        e01,
        e11,
        e21,
        e31,
        e41,
        e02,
        e12,
        e22,
        e32,
        e42,
        e03,
        e13,
        e23,
        e33,
        e43,
        e04,
        e14,
        e24,
        e34,
        e44,
    ] = e;
    // θ: the column parities, one column at a time. Each is also stored,
    // into a lane of `e` that this round overwrites later, only so that LLVM
    // computes it before loading the next column: left free, it loads all
    // 25 lanes first and spills them (a store and a load for most lanes).
    let c0 = get(a00)
        ^ get(a01).rotate_left(4)
        ^ get(a02).rotate_left(1)
        ^ get(a03).rotate_left(7)
        ^ get(a04).rotate_left(2);
    e14.store(c0, Relaxed);
    let c1 = get(a10)
        ^ get(a11).rotate_left(4)
        ^ get(a12).rotate_left(2)
        ^ get(a13)
        ^ get(a14).rotate_left(4);
    e24.store(c1, Relaxed);
    let c2 = get(a20) ^ get(a21) ^ get(a22).rotate_left(5) ^ get(a23) ^ get(a24).rotate_left(7);
    e34.store(c2, Relaxed);
    let c3 = get(a30) ^ get(a31).rotate_left(5) ^ get(a32) ^ get(a33).rotate_left(3) ^ get(a34);
    e44.store(c3, Relaxed);
    let c4 = get(a40)
        ^ get(a41).rotate_left(4)
        ^ get(a42)
        ^ get(a43).rotate_left(4)
        ^ get(a44).rotate_left(2);
    e04.store(c4, Relaxed);
    // D[x] = C[x − 1] ⊕ rotl(C[x + 1], 1), in the frame of C[x − 1].
    let d0 = c4 ^ c1.rotate_left(5);
    let d1 = c0 ^ c2.rotate_left(5);
    let d2 = c1 ^ c3.rotate_left(1);
    let d3 = c2 ^ c4.rotate_left(1);
    let d4 = c3 ^ c0.rotate_left(1);
    // Row by row: T = A ⊕ D in the frame of A, which is B = ρ(T) at π's
    // place in the frame of A plus ρ's offset; then χ, E[x] = B[x] ⊕
    // (¬B[x + 1] ∧ B[x + 2]), which lands in E's frame; ι on lane (0, 0).
    let t0 = get(a00) ^ d0.rotate_left(4);
    let t1 = get(a11) ^ d1.rotate_left(4);
    let t2 = get(a22) ^ d2.rotate_left(7);
    let t3 = get(a33) ^ d3.rotate_left(1);
    let t4 = get(a44) ^ d4.rotate_left(2);
    put(
        [e00, e10, e20, e30, e40],
        [
            t0 ^ (!t1.rotate_left(4) & t2).rotate_left(4) ^ round_constant,
            t1 ^ (!t2.rotate_left(4) & t3),
            t2 ^ (!t3.rotate_left(4) & t4),
            t3 ^ (!t4.rotate_left(4) & t0),
            t4 ^ (!t0 & t1).rotate_left(4),
        ],
    );
    let t0 = get(a30) ^ d3.rotate_left(4);
    let t1 = get(a41) ^ d4;
    let t2 = get(a02) ^ d0.rotate_left(3);
    let t3 = get(a13) ^ d1;
    let t4 = get(a24) ^ d2.rotate_left(5);
    put(
        [e01, e11, e21, e31, e41],
        [
            t0 ^ (!t1 & t2),
            t1 ^ (!t2.rotate_left(7) & t3).rotate_left(1),
            t2 ^ (!t3.rotate_left(5) & t4).rotate_left(4),
            t3 ^ (!t4.rotate_left(4) & t0).rotate_left(7),
            t4 ^ (!t0 & t1).rotate_left(4),
        ],
    );
    let t0 = get(a10) ^ d1;
    let t1 = get(a21) ^ d2.rotate_left(4);
    let t2 = get(a32) ^ d3.rotate_left(4);
    let t3 = get(a43) ^ d4;
    let t4 = get(a04) ^ d0.rotate_left(2);
    put(
        [e02, e12, e22, e32, e42],
        [
            t0 ^ (!t1.rotate_left(1) & t2),
            t1 ^ (!t2.rotate_left(1) & t3).rotate_left(6),
            t2 ^ (!t3.rotate_left(4) & t4).rotate_left(3),
            t3 ^ (!t4.rotate_left(3) & t0).rotate_left(1),
            t4 ^ (!t0.rotate_left(7) & t1).rotate_left(6),
        ],
    );
    let t0 = get(a40) ^ d4.rotate_left(4);
    let t1 = get(a01) ^ d0;
    let t2 = get(a12) ^ d1.rotate_left(6);
    let t3 = get(a23) ^ d2.rotate_left(4);
    let t4 = get(a34) ^ d3.rotate_left(4);
    put(
        [e03, e13, e23, e33, e43],
        [
            t0 ^ (!t1.rotate_left(4) & t2).rotate_left(5),
            t1 ^ (!t2.rotate_left(1) & t3).rotate_left(3),
            t2 ^ (!t3.rotate_left(3) & t4).rotate_left(4),
            t3 ^ (!t4.rotate_left(1) & t0).rotate_left(4),
            t4 ^ (!t0.rotate_left(7) & t1),
        ],
    );
    let t0 = get(a20) ^ d2.rotate_left(4);
    let t1 = get(a31) ^ d3.rotate_left(7);
    let t2 = get(a42) ^ d4.rotate_left(4);
    let t3 = get(a03) ^ d0.rotate_left(5);
    let t4 = get(a14) ^ d1.rotate_left(4);
    put(
        [e04, e14, e24, e34, e44],
        [
            t0 ^ (!t1.rotate_left(1) & t2).rotate_left(1),
            t1 ^ (!t2.rotate_left(3) & t3).rotate_left(4),
            t2 ^ (!t3.rotate_left(2) & t4).rotate_left(3),
            t3 ^ (!t4.rotate_left(4) & t0).rotate_left(2),
            t4 ^ (!t0.rotate_left(6) & t1).rotate_left(6),
        ],
    );
}

/// Repeats a byte in the four bytes of a word.
#[inline(always)]
fn splat(byte: u8) -> u32 {
    u32::from_ne_bytes([byte; 4])
}

/// Keccak-f\[200\] of one block.
///
/// The states are not wiped here: they live in this frame, which the public
/// call that got here clears when it is done (`src/scrub.rs`, checked by
/// the firmware benchmark's scan of the dead stack).
pub(in crate::permutation) fn permute(block: &mut [u8; 25]) {
    let a: Lanes = Default::default();
    for ((lane, &byte), &frame) in a.iter().zip(block.iter()).zip(&FRAMES) {
        lane.store(splat(byte).rotate_right(u32::from(frame)), Relaxed);
    }
    let e: Lanes = Default::default();
    // An even number of rounds, two at a time: `a` to `e` and back.
    let (mut from, mut to) = (&a, &e);
    for &constant in &REPEATED_CONSTANTS {
        round(from, to, constant);
        (from, to) = (to, from);
    }
    for ((byte, lane), &frame) in block.iter_mut().zip(&a).zip(&FRAMES) {
        // Byte 0 of the word is one copy of the lane.
        *byte = get(lane).rotate_left(u32::from(frame)).to_le_bytes()[0];
    }
}
