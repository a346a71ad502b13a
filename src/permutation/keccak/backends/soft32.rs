//! Keccak-f\[200\] on one state with every 8-bit lane copied into all four
//! bytes of a `u32`: the backend of 32-bit targets (firmware).
//!
//! With the byte repeated, rotating the whole word rotates each copy of the
//! lane, so ρ is one 32-bit rotation (free as a shifted operand on Arm)
//! instead of two shifts and a mask. The other steps are plain word
//! operations, identical in every byte; the result is read from byte 0.
//!
//! Each lane (x, y) is kept rotated right by an amount of its own, its
//! frame F (0, 0, 4, 0, 4, 4, 4, 4, 5, 0, 1, 2, 1, 0, 4, 7, 0, 4, 3, 0, 2, 4,
//! 3, 0, 6 for x + 5y), so that every rotation of θ, ρ and χ folds into a
//! second operand: with B\[π(x, y)\] = rotl(A\[x, y\] ⊕ D\[x\], r\[x, y\]) kept
//! in A\[x, y\]'s frame and χ's result for lane p in the frame of its first
//! input, lane p ends in frame F\[π⁻¹(p)\] + r\[π⁻¹(p)\], which is F\[p\] by
//! construction (π is one cycle through the 24 lanes other than (0, 0), and
//! the offsets r around it sum to 0 mod 8, so the frames close up). A round
//! has no rotate instruction: 101 logic instructions (20 for the column
//! parities, 5 for D, 25 for ⊕ D, 50 for χ, 1 for ι).
//!
//! This backend has its own round rather than the shared generic one in
//! `keccak/round.rs` (which serves the 64-bit targets' backends): on a
//! Cortex-M4 that one cost 5,026 counted instructions per permutation, as
//! it passes the state by value, materialises every ρ rotation and lets
//! LLVM hoist all 25 loads and spill them.
//!
//! Layout and schedule, for the instructions counted on a Cortex-M4
//! (Thumb-2, 13 usable registers, an `ldm` or `ldrd` is one instruction):
//! - both states sit in one 200-byte array in the frame at fixed places, so
//!   every access is `sp` plus a constant, and a loop step is two rounds
//!   (the first state into the second and back);
//! - a state is stored by π groups: the five lanes that make one output row
//!   g of χ (the lanes (x, y) with 2x + 3y = g mod 5) are consecutive, lane
//!   (x, y) at `5g + x`, so a row's inputs come in with one `ldm` (and the
//!   `add` of its address); its five outputs go to five groups (`str`s);
//! - plain loads and stores of `Cell`s, kept in order by compiler barriers
//!   between the rows ([`barrier`]: `black_box(())` once the states have
//!   been handed to `black_box`, which emits no instruction): left free,
//!   LLVM loads every lane of a round first, forwards the previous round's
//!   stores to those loads, and spills;
//! - the column parities are left to LLVM's scheduler, which computes them
//!   one column at a time, each lane with its own `ldr` (25 a round).
//!
//! 3,252 counted instructions per permutation (`permute_one` in
//! `firmware/bench/profile`), 171 a round (101 logic, 25 + about 10 loads,
//! 25 stores, a few spills, ι's load and the loop), no `memclr` call; a
//! 256-byte frame (both states and the saved registers); 1,566 bytes of
//! code.
//!
//! Tried and measured worse on the Cortex-M4 (counted instructions per
//! permutation, or per round of the loop):
//! - the previous form, lanes as relaxed atomics (plain `ldr`/`str` that
//!   LLVM keeps in order, but never merges into `ldrd`/`ldm`), parities one
//!   column at a time, each stored into a lane of the output state to keep
//!   LLVM from loading the whole state first: 4,082, 201 a round, plus two
//!   `memclr` calls;
//! - plain `Cell` lanes ordered by compiler fences or `black_box` on values
//!   (LLVM still loads the whole state first and spills it, and merges no
//!   loads into `ldm`): 4,700–4,950; two rounds per loop step with both
//!   states at fixed places and atomics: 4,570;
//! - the states at run-time places (the halves of one array, swapped every
//!   round), ordered by possible aliasing alone: an offset of 0 or 25 made
//!   LLVM select every address apart (6,549); two references it cannot
//!   tell apart (from one `black_box`) made it forward each round's stores
//!   to the next round's parity loads and spill (4,064), 3,853 with a dummy
//!   store before the parities to stop that;
//! - each group of the parity loads between barriers, to have them merged:
//!   they are, but the SelectionDAG scheduler (bottom-up; a barrier pins
//!   loads, not `eor`s) then puts every `eor` after all the loads and
//!   spills: 180–188 a round against 171; the same groups split by branches
//!   on the round constant (never taken but for round 3, with the parities
//!   handed to `black_box` there so that they cannot sink): the loads merge
//!   and the `eor`s stay in place, but the compare and branch cost what the
//!   merged loads save (3,264–3,390);
//! - the next round's parities accumulated from the rows' outputs (no
//!   parity loads): in registers LLVM sinks the accumulation to the end of
//!   the round and spills (198 a round); through five words of the frame,
//!   one `ldr`, `eor` and `str` per lane (3,653);
//! - a column's lanes at the seams of consecutive groups, for `ldrd`s among
//!   the parity loads: LLVM reassociates the parity chains and no pair
//!   forms (3,270); holding two outputs of a row until the next one so that
//!   pairs of stores are adjacent in memory: no `strd` forms (3,234, within
//!   allocation noise);
//! - the first state's lanes written straight into the array literal
//!   instead of after it: the same count, a 40-byte larger frame.
//! - the lanes' places and frames in one table, with [`permute`]'s
//!   hand-unrolled block-in and block-out code as loops over it: 3,626
//!   (the table reads and rotations by a register); the same as one
//!   function per π group, its five lanes' indices computed from the group
//!   in a loop: 4,033. So each lane's place and frame is written out twice
//!   there, on purpose, and checked by the shared backend tests.

use core::cell::Cell;
use core::hint::black_box;

use super::super::super::keccak::ROUND_CONSTANTS;

/// Both states, each lane repeated in the four bytes of a word and kept in
/// its frame: the state of the even rounds at 0..25, the other at 25..50,
/// each as five π groups of five lanes (lane (x, y) of a state at
/// `5 * ((2x + 3y) mod 5) + x`).
type State = [Cell<u32>; 50];

/// The round constants ι of rounds 2i and 2i + 1, each repeated in the four
/// bytes of a word (lane (0, 0) has frame 0).
const REPEATED_CONSTANTS: [[u32; 2]; 9] = {
    let mut repeated = [[0; 2]; 9];
    let mut round = 0;
    while round < 18 {
        // A `const` block cannot use iterators; `round` < 18 = 2 × 9.
        #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
        {
            repeated[round / 2][round % 2] = u32::from_ne_bytes([ROUND_CONSTANTS[round]; 4]);
            round += 1;
        }
    }
    repeated
};

/// A compiler barrier for the states (which [`permute`] hands to
/// [`black_box`] first, so LLVM must assume any barrier reads and writes
/// them): no load or store of a state moves across it, and no value stored
/// before it is forwarded to a load after it. It emits no instruction.
#[inline(always)]
fn barrier() {
    black_box(());
}

/// Loads π group `g` (five consecutive words) of the state at `FROM`.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn group<const FROM: usize>(s: &State, g: usize) -> [u32; 5] {
    // Constant indices after inlining, below 50 (`FROM` is 0 or 25, g < 5).
    let at = FROM + 5 * g;
    [
        s[at].get(),
        s[at + 1].get(),
        s[at + 2].get(),
        s[at + 3].get(),
        s[at + 4].get(),
    ]
}

/// Stores a row of five lanes into the state at `TO`, at the given places.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn put<const TO: usize>(s: &State, at: [usize; 5], v: [u32; 5]) {
    // Constant indices after inlining, below 50 (`TO` is 0 or 25, at < 25).
    s[TO + at[0]].set(v[0]);
    s[TO + at[1]].set(v[1]);
    s[TO + at[2]].set(v[2]);
    s[TO + at[3]].set(v[3]);
    s[TO + at[4]].set(v[4]);
}

/// One round θ, ρ, π, χ, ι from the state at `FROM` into the state at `TO`,
/// with the round constant already repeated over the word.
///
/// Every rotation amount below is the one that step needs, corrected by the
/// frames of its operands and result (generated, and checked bit-exact by
/// the shared backend tests); each is on a second operand, so it costs no
/// instruction on Arm.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn round<const FROM: usize, const TO: usize>(s: &State, round_constant: u32) {
    // Constant indices, below 50 (`FROM` and `TO` are 0 or 25).
    let mut c0 = s[FROM + 5].get();
    let mut c1 = s[FROM + 6].get();
    c0 ^= s[FROM + 10].get().rotate_left(1);
    c1 ^= s[FROM + 11].get();
    c0 ^= s[FROM + 15].get().rotate_left(3);
    c1 ^= s[FROM + 16].get().rotate_left(2);
    c0 ^= s[FROM + 20].get().rotate_left(6);
    c1 ^= s[FROM + 21].get().rotate_left(4);
    c0 ^= s[FROM].get().rotate_left(7);
    c1 ^= s[FROM + 1].get().rotate_left(4);
    let mut c2 = s[FROM + 7].get();
    let mut c3 = s[FROM + 8].get();
    c2 ^= s[FROM + 12].get().rotate_left(1);
    c3 ^= s[FROM + 13].get();
    c2 ^= s[FROM + 17].get().rotate_left(1);
    c3 ^= s[FROM + 18].get();
    c2 ^= s[FROM + 22].get().rotate_left(1);
    c3 ^= s[FROM + 23].get().rotate_left(5);
    c2 ^= s[FROM + 2].get().rotate_left(6);
    c3 ^= s[FROM + 3].get().rotate_left(3);
    let mut c4 = s[FROM + 9].get();
    c4 ^= s[FROM + 14].get();
    c4 ^= s[FROM + 19].get().rotate_left(4);
    c4 ^= s[FROM + 24].get().rotate_left(4);
    c4 ^= s[FROM + 4].get().rotate_left(6);
    let d0 = c4 ^ c1.rotate_left(1);
    let d1 = c0 ^ c2.rotate_left(3);
    let d2 = c1 ^ c3.rotate_left(1);
    let d3 = c2 ^ c4.rotate_left(6);
    let d4 = c3 ^ c0.rotate_left(2);
    let [a0, a1, a2, a3, a4] = group::<FROM>(s, 0);
    let t0 = a0 ^ d0;
    let t1 = a1 ^ d1.rotate_left(5);
    let t2 = a2 ^ d2.rotate_left(7);
    let t3 = a3 ^ d3;
    let t4 = a4 ^ d4.rotate_left(2);
    put::<TO>(
        s,
        [0, 11, 22, 8, 19],
        [
            t0 ^ (!t1.rotate_left(4) & t2).rotate_left(4) ^ round_constant,
            t1 ^ (!t2.rotate_left(4) & t3),
            t2 ^ (!t3.rotate_left(4) & t4),
            t3 ^ (!t4.rotate_left(4) & t0),
            t4 ^ (!t0 & t1).rotate_left(4),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<FROM>(s, 1);
    let t0 = a3 ^ d3.rotate_left(3);
    let t1 = a4 ^ d4;
    let t2 = a0 ^ d0.rotate_left(7);
    let t3 = a1 ^ d1.rotate_left(1);
    let t4 = a2 ^ d2.rotate_left(5);
    put::<TO>(
        s,
        [15, 1, 12, 23, 9],
        [
            t0 ^ (!t1 & t2),
            t1 ^ (!t2.rotate_left(7) & t3).rotate_left(1),
            t2 ^ (!t3.rotate_left(5) & t4).rotate_left(4),
            t3 ^ (!t4.rotate_left(4) & t0).rotate_left(7),
            t4 ^ (!t0 & t1).rotate_left(4),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<FROM>(s, 2);
    let t0 = a1 ^ d1.rotate_left(1);
    let t1 = a2 ^ d2.rotate_left(4);
    let t2 = a3 ^ d3.rotate_left(3);
    let t3 = a4 ^ d4;
    let t4 = a0 ^ d0.rotate_left(6);
    put::<TO>(
        s,
        [5, 16, 2, 13, 24],
        [
            t0 ^ (!t1.rotate_left(1) & t2),
            t1 ^ (!t2.rotate_left(1) & t3).rotate_left(6),
            t2 ^ (!t3.rotate_left(4) & t4).rotate_left(3),
            t3 ^ (!t4.rotate_left(3) & t0).rotate_left(1),
            t4 ^ (!t0.rotate_left(7) & t1).rotate_left(6),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<FROM>(s, 3);
    let t0 = a4 ^ d4.rotate_left(4);
    let t1 = a0 ^ d0.rotate_left(4);
    let t2 = a1 ^ d1.rotate_left(7);
    let t3 = a2 ^ d2.rotate_left(4);
    let t4 = a3 ^ d3.rotate_left(3);
    put::<TO>(
        s,
        [20, 6, 17, 3, 14],
        [
            t0 ^ (!t1.rotate_left(4) & t2).rotate_left(5),
            t1 ^ (!t2.rotate_left(1) & t3).rotate_left(3),
            t2 ^ (!t3.rotate_left(3) & t4).rotate_left(4),
            t3 ^ (!t4.rotate_left(1) & t0).rotate_left(4),
            t4 ^ (!t0.rotate_left(7) & t1),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<FROM>(s, 4);
    let t0 = a2 ^ d2.rotate_left(4);
    let t1 = a3 ^ d3.rotate_left(6);
    let t2 = a4 ^ d4.rotate_left(4);
    let t3 = a0 ^ d0.rotate_left(1);
    let t4 = a1 ^ d1.rotate_left(5);
    put::<TO>(
        s,
        [10, 21, 7, 18, 4],
        [
            t0 ^ (!t1.rotate_left(1) & t2).rotate_left(1),
            t1 ^ (!t2.rotate_left(3) & t3).rotate_left(4),
            t2 ^ (!t3.rotate_left(2) & t4).rotate_left(3),
            t3 ^ (!t4.rotate_left(4) & t0).rotate_left(2),
            t4 ^ (!t0.rotate_left(6) & t1).rotate_left(6),
        ],
    );
    barrier();
}

/// Repeats a byte in the four bytes of a word.
#[inline(always)]
fn splat(byte: u8) -> u32 {
    u32::from_ne_bytes([byte; 4])
}

/// Byte 0 of a word: one copy of the lane, once the word is in frame 0.
#[inline(always)]
fn byte0(lane: u32) -> u8 {
    lane.to_le_bytes()[0]
}

/// Keccak-f\[200\] of one block.
///
/// The states are not wiped here: they live in this frame, which the public
/// call that got here clears when it is done (`src/scrub.rs`, checked by
/// the firmware benchmark's scan of the dead stack).
pub(in crate::permutation) fn permute(block: &mut [u8; 25]) {
    // Any value will do before the real lanes go in; one that is not a
    // constant keeps LLVM from calling `memset` for it.
    let fill = u32::from(block[0]);
    let c = || Cell::new(fill);
    #[rustfmt::skip]
    let s: State = [
        c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(),
        c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(),
        c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(),
    ];
    black_box(&s);
    // Lane (x, y) of the block, byte x + 5y, into its place and frame, one
    // π group at a time.
    s[0].set(splat(block[0]));
    s[1].set(splat(block[6]).rotate_right(4));
    s[2].set(splat(block[12]).rotate_right(1));
    s[3].set(splat(block[18]).rotate_right(3));
    s[4].set(splat(block[24]).rotate_right(6));
    barrier();
    s[5].set(splat(block[10]).rotate_right(1));
    s[6].set(splat(block[16]));
    s[7].set(splat(block[22]).rotate_right(3));
    s[8].set(splat(block[3]));
    s[9].set(splat(block[9]));
    barrier();
    s[10].set(splat(block[20]).rotate_right(2));
    s[11].set(splat(block[1]));
    s[12].set(splat(block[7]).rotate_right(4));
    s[13].set(splat(block[13]));
    s[14].set(splat(block[19]));
    barrier();
    s[15].set(splat(block[5]).rotate_right(4));
    s[16].set(splat(block[11]).rotate_right(2));
    s[17].set(splat(block[17]).rotate_right(4));
    s[18].set(splat(block[23]));
    s[19].set(splat(block[4]).rotate_right(4));
    barrier();
    s[20].set(splat(block[15]).rotate_right(7));
    s[21].set(splat(block[21]).rotate_right(4));
    s[22].set(splat(block[2]).rotate_right(4));
    s[23].set(splat(block[8]).rotate_right(5));
    s[24].set(splat(block[14]).rotate_right(4));
    for &[even, odd] in &REPEATED_CONSTANTS {
        round::<0, 25>(&s, even);
        round::<25, 0>(&s, odd);
    }
    let [l0, l1, l2, l3, l4] = group::<0>(&s, 0);
    block[0] = byte0(l0);
    block[6] = byte0(l1.rotate_left(4));
    block[12] = byte0(l2.rotate_left(1));
    block[18] = byte0(l3.rotate_left(3));
    block[24] = byte0(l4.rotate_left(6));
    barrier();
    let [l0, l1, l2, l3, l4] = group::<0>(&s, 1);
    block[10] = byte0(l0.rotate_left(1));
    block[16] = byte0(l1);
    block[22] = byte0(l2.rotate_left(3));
    block[3] = byte0(l3);
    block[9] = byte0(l4);
    barrier();
    let [l0, l1, l2, l3, l4] = group::<0>(&s, 2);
    block[20] = byte0(l0.rotate_left(2));
    block[1] = byte0(l1);
    block[7] = byte0(l2.rotate_left(4));
    block[13] = byte0(l3);
    block[19] = byte0(l4);
    barrier();
    let [l0, l1, l2, l3, l4] = group::<0>(&s, 3);
    block[5] = byte0(l0.rotate_left(4));
    block[11] = byte0(l1.rotate_left(2));
    block[17] = byte0(l2.rotate_left(4));
    block[23] = byte0(l3);
    block[4] = byte0(l4.rotate_left(4));
    barrier();
    let [l0, l1, l2, l3, l4] = group::<0>(&s, 4);
    block[15] = byte0(l0.rotate_left(7));
    block[21] = byte0(l1.rotate_left(4));
    block[2] = byte0(l2.rotate_left(4));
    block[8] = byte0(l3.rotate_left(5));
    block[14] = byte0(l4.rotate_left(4));
}
