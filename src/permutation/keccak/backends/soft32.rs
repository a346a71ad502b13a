//! Keccak-f\[200\] on one state with every 8-bit lane copied into all four
//! bytes of a `u32`: the backend of 32-bit targets (firmware).
//!
//! With the byte repeated, rotating the whole word rotates each copy of the
//! lane, so ρ is one 32-bit rotation (free as a shifted operand on Arm)
//! instead of two shifts and a mask. The other steps are plain word
//! operations, identical in every byte; the result is read from byte 0.
//!
//! Each lane (x, y) is kept rotated right by an amount of its own, its
//! frame ([`FRAMES`], derived from ρ), so that every rotation of θ, ρ and
//! χ folds into a second operand, and every amount is a constant derived
//! from the frames ([`into`]). A round has no rotate instruction: 101
//! logic instructions (20 for the column parities, 5 for D, 25 for ⊕ D, 50
//! for χ, 1 for ι).
//!
//! Layout, for a Cortex-M4 (Thumb-2, 13 usable registers, an `ldm` or
//! `ldrd` is one instruction): one state in the frame, every access `sp`
//! plus a constant. Each row of χ writes its five outputs over the five
//! words it has just read, so the lanes alternate between two layouts
//! ([`at`]) and a loop step is two rounds. In the even layout the five
//! lanes of one output row of χ are consecutive (one `ldm`); the odd
//! layout is row by row. Barriers between the rows ([`barrier`]) keep
//! LLVM from loading a whole round first; each lane's place and frame is
//! written out twice in [`permute`], checked by the backend tests.
//!
//! Why this form and not another (the shared round, two states, atomics,
//! tables; each measured): DESIGN.md, "Keccak-f\[200\] on 32-bit Arm".

use core::cell::Cell;
use core::hint::black_box;

use crate::permutation::keccak::{RHO, ROUND_CONSTANTS};

/// The state, each lane repeated in the four bytes of a word and kept in
/// its frame, in one of two layouts ([`at`]).
type State = [Cell<u32>; 25];

/// Where lane (x, y) sits in the state read by an even round (`odd`
/// false: by π groups, group g = 2x + 3y mod 5 at `5g`, the lane in slot
/// 2x + y mod 5) or by an odd round (`odd` true: row by row, lane (x, y)
/// at `5y + x`).
///
/// Each round writes the rows of χ it computes over the five words it has
/// just read, so one state is enough: an even round reads π group g from
/// `5g .. 5g + 5` and writes row g there in order, which is the odd
/// layout; an odd round reads π group h, one lane from each row, and
/// writes row h there, which is where the even layout has it (the slots
/// are chosen for that). So the layouts alternate, and after every second
/// round the state is back in the even one.
const fn at(odd: bool, x: usize, y: usize) -> usize {
    if odd {
        5 * y + x
    } else {
        5 * ((2 * x + 3 * y) % 5) + (2 * x + y) % 5
    }
}

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

/// The frames: lane (x, y) is kept rotated right by `FRAMES[x + 5y]` bits.
///
/// Derived from ρ along π's cycle. A round keeps B\[π(p)\] =
/// rotl(A\[p\] ⊕ D, r\[p\]) in the frame of A\[p\], and χ writes lane π(p)
/// in the frame of that B: so frame(π(p)) = frame(p) + r(p) mod 8. π is one
/// cycle through the 24 lanes other than (0, 0); starting it at (1, 0)
/// with frame 0 (and (0, 0) at frame 0), it closes up because the offsets
/// around it sum to 0 mod 8 (tested below).
const FRAMES: [u32; 25] = {
    let mut frames = [0; 25];
    let (mut x, mut y) = (1, 0);
    let mut step = 0;
    while step < 23 {
        // A `const` block cannot use iterators; indices below 25.
        #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
        {
            let (next_x, next_y) = (y, (2 * x + 3 * y) % 5);
            frames[next_x + 5 * next_y] = (frames[x + 5 * y] + RHO[x + 5 * y]) % 8;
            (x, y) = (next_x, next_y);
            step += 1;
        }
    }
    frames
};

/// The frame of lane (x, y).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // x, y < 5.
const fn frame(x: usize, y: usize) -> u32 {
    FRAMES[x + 5 * y]
}

/// The frame of column x's parity: that of the lane its sum starts with,
/// (x, x + 2 mod 5).
#[allow(clippy::arithmetic_side_effects)] // x < 5.
const fn column(x: usize) -> u32 {
    frame(x, (x + 2) % 5)
}

/// The rotation (left) that moves a value kept in frame `from` into frame
/// `to`; `from` may be a frame plus a rotation the step itself needs.
#[allow(clippy::arithmetic_side_effects)] // Frames are below 8.
const fn into(from: u32, to: u32) -> u32 {
    (from + 8 - to) % 8
}

/// A compiler barrier for the state (which [`permute`] hands to
/// [`black_box`] once its lanes are in, so LLVM must assume any later
/// barrier reads and writes it): no load or store of the state moves across it, and no value stored
/// before it is forwarded to a load after it. It emits no instruction.
#[inline(always)]
fn barrier() {
    black_box(());
}

/// Lane (x, y) of the state, read in layout `ODD` ([`at`]).
#[inline(always)]
#[allow(clippy::indexing_slicing)]
fn lane<const ODD: bool>(s: &State, x: usize, y: usize) -> u32 {
    // Constant indices after inlining, below 25.
    s[at(ODD, x, y)].get()
}

/// Loads π group `g` of the state in layout `ODD`: lanes (x, (2g + x) mod
/// 5) for x = 0..5, which χ takes as its row g.
#[inline(always)]
#[allow(clippy::arithmetic_side_effects)]
fn group<const ODD: bool>(s: &State, g: usize) -> [u32; 5] {
    // Constant arguments after inlining: g < 5.
    [
        lane::<ODD>(s, 0, 2 * g % 5),
        lane::<ODD>(s, 1, (2 * g + 1) % 5),
        lane::<ODD>(s, 2, (2 * g + 2) % 5),
        lane::<ODD>(s, 3, (2 * g + 3) % 5),
        lane::<ODD>(s, 4, (2 * g + 4) % 5),
    ]
}

/// Stores row `y` of the state, lanes (x, y) for x = 0..5, where a round
/// that read layout `READ` writes them: in the other layout.
#[inline(always)]
#[allow(clippy::indexing_slicing)]
fn put<const READ: bool>(s: &State, y: usize, v: [u32; 5]) {
    // Constant indices after inlining, below 25.
    s[at(!READ, 0, y)].set(v[0]);
    s[at(!READ, 1, y)].set(v[1]);
    s[at(!READ, 2, y)].set(v[2]);
    s[at(!READ, 3, y)].set(v[3]);
    s[at(!READ, 4, y)].set(v[4]);
}

/// One round θ, ρ, π, χ, ι on the state, read in layout `READ` and written
/// back over itself in the other one (see [`at`]), with the round constant
/// already repeated over the word.
///
/// Every rotation amount below is the one that step needs, corrected by the
/// frames of its operands and result ([`into`], from [`FRAMES`]): each is a
/// constant on a second operand, so it costs no instruction on Arm. Column
/// x's parity is kept in [`column`]`(x)`, θ's D\[x\] in the frame of
/// C\[x − 1\], and χ's ¬b ∧ c in the frame of c.
#[inline(always)]
fn round<const READ: bool>(s: &State, round_constant: u32) {
    let mut c0 = lane::<READ>(s, 0, 2);
    let mut c1 = lane::<READ>(s, 1, 3);
    c0 ^= lane::<READ>(s, 0, 4).rotate_left(const { into(frame(0, 4), column(0)) });
    c1 ^= lane::<READ>(s, 1, 0).rotate_left(const { into(frame(1, 0), column(1)) });
    c0 ^= lane::<READ>(s, 0, 1).rotate_left(const { into(frame(0, 1), column(0)) });
    c1 ^= lane::<READ>(s, 1, 2).rotate_left(const { into(frame(1, 2), column(1)) });
    c0 ^= lane::<READ>(s, 0, 3).rotate_left(const { into(frame(0, 3), column(0)) });
    c1 ^= lane::<READ>(s, 1, 4).rotate_left(const { into(frame(1, 4), column(1)) });
    c0 ^= lane::<READ>(s, 0, 0).rotate_left(const { into(frame(0, 0), column(0)) });
    c1 ^= lane::<READ>(s, 1, 1).rotate_left(const { into(frame(1, 1), column(1)) });
    let mut c2 = lane::<READ>(s, 2, 4);
    let mut c3 = lane::<READ>(s, 3, 0);
    c2 ^= lane::<READ>(s, 2, 1).rotate_left(const { into(frame(2, 1), column(2)) });
    c3 ^= lane::<READ>(s, 3, 2).rotate_left(const { into(frame(3, 2), column(3)) });
    c2 ^= lane::<READ>(s, 2, 3).rotate_left(const { into(frame(2, 3), column(2)) });
    c3 ^= lane::<READ>(s, 3, 4).rotate_left(const { into(frame(3, 4), column(3)) });
    c2 ^= lane::<READ>(s, 2, 0).rotate_left(const { into(frame(2, 0), column(2)) });
    c3 ^= lane::<READ>(s, 3, 1).rotate_left(const { into(frame(3, 1), column(3)) });
    c2 ^= lane::<READ>(s, 2, 2).rotate_left(const { into(frame(2, 2), column(2)) });
    c3 ^= lane::<READ>(s, 3, 3).rotate_left(const { into(frame(3, 3), column(3)) });
    let mut c4 = lane::<READ>(s, 4, 1);
    c4 ^= lane::<READ>(s, 4, 3).rotate_left(const { into(frame(4, 3), column(4)) });
    c4 ^= lane::<READ>(s, 4, 0).rotate_left(const { into(frame(4, 0), column(4)) });
    c4 ^= lane::<READ>(s, 4, 2).rotate_left(const { into(frame(4, 2), column(4)) });
    c4 ^= lane::<READ>(s, 4, 4).rotate_left(const { into(frame(4, 4), column(4)) });
    let d0 = c4 ^ c1.rotate_left(const { into(column(1) + 1, column(4)) });
    let d1 = c0 ^ c2.rotate_left(const { into(column(2) + 1, column(0)) });
    let d2 = c1 ^ c3.rotate_left(const { into(column(3) + 1, column(1)) });
    let d3 = c2 ^ c4.rotate_left(const { into(column(4) + 1, column(2)) });
    let d4 = c3 ^ c0.rotate_left(const { into(column(0) + 1, column(3)) });
    let [a0, a1, a2, a3, a4] = group::<READ>(s, 0);
    let t0 = a0 ^ d0.rotate_left(const { into(column(4), frame(0, 0)) });
    let t1 = a1 ^ d1.rotate_left(const { into(column(0), frame(1, 1)) });
    let t2 = a2 ^ d2.rotate_left(const { into(column(1), frame(2, 2)) });
    let t3 = a3 ^ d3.rotate_left(const { into(column(2), frame(3, 3)) });
    let t4 = a4 ^ d4.rotate_left(const { into(column(3), frame(4, 4)) });
    put::<READ>(
        s,
        0,
        [
            t0 ^ (!t1.rotate_left(const { into(frame(1, 0), frame(2, 0)) }) & t2)
                .rotate_left(const { into(frame(2, 0), frame(0, 0)) })
                ^ round_constant,
            t1 ^ (!t2.rotate_left(const { into(frame(2, 0), frame(3, 0)) }) & t3)
                .rotate_left(const { into(frame(3, 0), frame(1, 0)) }),
            t2 ^ (!t3.rotate_left(const { into(frame(3, 0), frame(4, 0)) }) & t4)
                .rotate_left(const { into(frame(4, 0), frame(2, 0)) }),
            t3 ^ (!t4.rotate_left(const { into(frame(4, 0), frame(0, 0)) }) & t0)
                .rotate_left(const { into(frame(0, 0), frame(3, 0)) }),
            t4 ^ (!t0.rotate_left(const { into(frame(0, 0), frame(1, 0)) }) & t1)
                .rotate_left(const { into(frame(1, 0), frame(4, 0)) }),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<READ>(s, 1);
    let t0 = a3 ^ d3.rotate_left(const { into(column(2), frame(3, 0)) });
    let t1 = a4 ^ d4.rotate_left(const { into(column(3), frame(4, 1)) });
    let t2 = a0 ^ d0.rotate_left(const { into(column(4), frame(0, 2)) });
    let t3 = a1 ^ d1.rotate_left(const { into(column(0), frame(1, 3)) });
    let t4 = a2 ^ d2.rotate_left(const { into(column(1), frame(2, 4)) });
    put::<READ>(
        s,
        1,
        [
            t0 ^ (!t1.rotate_left(const { into(frame(1, 1), frame(2, 1)) }) & t2)
                .rotate_left(const { into(frame(2, 1), frame(0, 1)) }),
            t1 ^ (!t2.rotate_left(const { into(frame(2, 1), frame(3, 1)) }) & t3)
                .rotate_left(const { into(frame(3, 1), frame(1, 1)) }),
            t2 ^ (!t3.rotate_left(const { into(frame(3, 1), frame(4, 1)) }) & t4)
                .rotate_left(const { into(frame(4, 1), frame(2, 1)) }),
            t3 ^ (!t4.rotate_left(const { into(frame(4, 1), frame(0, 1)) }) & t0)
                .rotate_left(const { into(frame(0, 1), frame(3, 1)) }),
            t4 ^ (!t0.rotate_left(const { into(frame(0, 1), frame(1, 1)) }) & t1)
                .rotate_left(const { into(frame(1, 1), frame(4, 1)) }),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<READ>(s, 2);
    let t0 = a1 ^ d1.rotate_left(const { into(column(0), frame(1, 0)) });
    let t1 = a2 ^ d2.rotate_left(const { into(column(1), frame(2, 1)) });
    let t2 = a3 ^ d3.rotate_left(const { into(column(2), frame(3, 2)) });
    let t3 = a4 ^ d4.rotate_left(const { into(column(3), frame(4, 3)) });
    let t4 = a0 ^ d0.rotate_left(const { into(column(4), frame(0, 4)) });
    put::<READ>(
        s,
        2,
        [
            t0 ^ (!t1.rotate_left(const { into(frame(1, 2), frame(2, 2)) }) & t2)
                .rotate_left(const { into(frame(2, 2), frame(0, 2)) }),
            t1 ^ (!t2.rotate_left(const { into(frame(2, 2), frame(3, 2)) }) & t3)
                .rotate_left(const { into(frame(3, 2), frame(1, 2)) }),
            t2 ^ (!t3.rotate_left(const { into(frame(3, 2), frame(4, 2)) }) & t4)
                .rotate_left(const { into(frame(4, 2), frame(2, 2)) }),
            t3 ^ (!t4.rotate_left(const { into(frame(4, 2), frame(0, 2)) }) & t0)
                .rotate_left(const { into(frame(0, 2), frame(3, 2)) }),
            t4 ^ (!t0.rotate_left(const { into(frame(0, 2), frame(1, 2)) }) & t1)
                .rotate_left(const { into(frame(1, 2), frame(4, 2)) }),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<READ>(s, 3);
    let t0 = a4 ^ d4.rotate_left(const { into(column(3), frame(4, 0)) });
    let t1 = a0 ^ d0.rotate_left(const { into(column(4), frame(0, 1)) });
    let t2 = a1 ^ d1.rotate_left(const { into(column(0), frame(1, 2)) });
    let t3 = a2 ^ d2.rotate_left(const { into(column(1), frame(2, 3)) });
    let t4 = a3 ^ d3.rotate_left(const { into(column(2), frame(3, 4)) });
    put::<READ>(
        s,
        3,
        [
            t0 ^ (!t1.rotate_left(const { into(frame(1, 3), frame(2, 3)) }) & t2)
                .rotate_left(const { into(frame(2, 3), frame(0, 3)) }),
            t1 ^ (!t2.rotate_left(const { into(frame(2, 3), frame(3, 3)) }) & t3)
                .rotate_left(const { into(frame(3, 3), frame(1, 3)) }),
            t2 ^ (!t3.rotate_left(const { into(frame(3, 3), frame(4, 3)) }) & t4)
                .rotate_left(const { into(frame(4, 3), frame(2, 3)) }),
            t3 ^ (!t4.rotate_left(const { into(frame(4, 3), frame(0, 3)) }) & t0)
                .rotate_left(const { into(frame(0, 3), frame(3, 3)) }),
            t4 ^ (!t0.rotate_left(const { into(frame(0, 3), frame(1, 3)) }) & t1)
                .rotate_left(const { into(frame(1, 3), frame(4, 3)) }),
        ],
    );
    barrier();
    let [a0, a1, a2, a3, a4] = group::<READ>(s, 4);
    let t0 = a2 ^ d2.rotate_left(const { into(column(1), frame(2, 0)) });
    let t1 = a3 ^ d3.rotate_left(const { into(column(2), frame(3, 1)) });
    let t2 = a4 ^ d4.rotate_left(const { into(column(3), frame(4, 2)) });
    let t3 = a0 ^ d0.rotate_left(const { into(column(4), frame(0, 3)) });
    let t4 = a1 ^ d1.rotate_left(const { into(column(0), frame(1, 4)) });
    put::<READ>(
        s,
        4,
        [
            t0 ^ (!t1.rotate_left(const { into(frame(1, 4), frame(2, 4)) }) & t2)
                .rotate_left(const { into(frame(2, 4), frame(0, 4)) }),
            t1 ^ (!t2.rotate_left(const { into(frame(2, 4), frame(3, 4)) }) & t3)
                .rotate_left(const { into(frame(3, 4), frame(1, 4)) }),
            t2 ^ (!t3.rotate_left(const { into(frame(3, 4), frame(4, 4)) }) & t4)
                .rotate_left(const { into(frame(4, 4), frame(2, 4)) }),
            t3 ^ (!t4.rotate_left(const { into(frame(4, 4), frame(0, 4)) }) & t0)
                .rotate_left(const { into(frame(0, 4), frame(3, 4)) }),
            t4 ^ (!t0.rotate_left(const { into(frame(0, 4), frame(1, 4)) }) & t1)
                .rotate_left(const { into(frame(1, 4), frame(4, 4)) }),
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
/// The state is not wiped here: it lives in this frame, which the public
/// call that got here clears when it is done (`src/scrub.rs`, checked by
/// the firmware benchmark's scan of the dead stack).
pub(in crate::permutation) fn permute(block: &mut [u8; 25]) {
    // Any value will do before the real lanes go in; one that is not a
    // constant keeps LLVM from calling `memset` for it. The state goes to
    // `black_box` only once they are in, so these stores are dead and
    // dropped (handed over first, it kept them: DESIGN.md, "Keccak-f\[200\]
    // on 32-bit Arm").
    let fill = u32::from(block[0]);
    let c = || Cell::new(fill);
    #[rustfmt::skip]
    let s: State = [
        c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(), c(),
        c(), c(), c(), c(), c(), c(), c(), c(),
    ];
    // Lane (x, y) of the block, byte x + 5y, into its place and frame, one
    // π group at a time.
    s[at(false, 0, 0)].set(splat(block[0]).rotate_right(const { frame(0, 0) }));
    s[at(false, 1, 1)].set(splat(block[6]).rotate_right(const { frame(1, 1) }));
    s[at(false, 2, 2)].set(splat(block[12]).rotate_right(const { frame(2, 2) }));
    s[at(false, 3, 3)].set(splat(block[18]).rotate_right(const { frame(3, 3) }));
    s[at(false, 4, 4)].set(splat(block[24]).rotate_right(const { frame(4, 4) }));
    barrier();
    s[at(false, 0, 2)].set(splat(block[10]).rotate_right(const { frame(0, 2) }));
    s[at(false, 1, 3)].set(splat(block[16]).rotate_right(const { frame(1, 3) }));
    s[at(false, 2, 4)].set(splat(block[22]).rotate_right(const { frame(2, 4) }));
    s[at(false, 3, 0)].set(splat(block[3]).rotate_right(const { frame(3, 0) }));
    s[at(false, 4, 1)].set(splat(block[9]).rotate_right(const { frame(4, 1) }));
    barrier();
    s[at(false, 0, 4)].set(splat(block[20]).rotate_right(const { frame(0, 4) }));
    s[at(false, 1, 0)].set(splat(block[1]).rotate_right(const { frame(1, 0) }));
    s[at(false, 2, 1)].set(splat(block[7]).rotate_right(const { frame(2, 1) }));
    s[at(false, 3, 2)].set(splat(block[13]).rotate_right(const { frame(3, 2) }));
    s[at(false, 4, 3)].set(splat(block[19]).rotate_right(const { frame(4, 3) }));
    barrier();
    s[at(false, 0, 1)].set(splat(block[5]).rotate_right(const { frame(0, 1) }));
    s[at(false, 1, 2)].set(splat(block[11]).rotate_right(const { frame(1, 2) }));
    s[at(false, 2, 3)].set(splat(block[17]).rotate_right(const { frame(2, 3) }));
    s[at(false, 3, 4)].set(splat(block[23]).rotate_right(const { frame(3, 4) }));
    s[at(false, 4, 0)].set(splat(block[4]).rotate_right(const { frame(4, 0) }));
    barrier();
    s[at(false, 0, 3)].set(splat(block[15]).rotate_right(const { frame(0, 3) }));
    s[at(false, 1, 4)].set(splat(block[21]).rotate_right(const { frame(1, 4) }));
    s[at(false, 2, 0)].set(splat(block[2]).rotate_right(const { frame(2, 0) }));
    s[at(false, 3, 1)].set(splat(block[8]).rotate_right(const { frame(3, 1) }));
    s[at(false, 4, 2)].set(splat(block[14]).rotate_right(const { frame(4, 2) }));
    black_box(&s);
    for &[even, odd] in &REPEATED_CONSTANTS {
        round::<false>(&s, even);
        round::<true>(&s, odd);
    }
    block[0] = byte0(lane::<false>(&s, 0, 0).rotate_left(const { frame(0, 0) }));
    block[6] = byte0(lane::<false>(&s, 1, 1).rotate_left(const { frame(1, 1) }));
    block[12] = byte0(lane::<false>(&s, 2, 2).rotate_left(const { frame(2, 2) }));
    block[18] = byte0(lane::<false>(&s, 3, 3).rotate_left(const { frame(3, 3) }));
    block[24] = byte0(lane::<false>(&s, 4, 4).rotate_left(const { frame(4, 4) }));
    barrier();
    block[10] = byte0(lane::<false>(&s, 0, 2).rotate_left(const { frame(0, 2) }));
    block[16] = byte0(lane::<false>(&s, 1, 3).rotate_left(const { frame(1, 3) }));
    block[22] = byte0(lane::<false>(&s, 2, 4).rotate_left(const { frame(2, 4) }));
    block[3] = byte0(lane::<false>(&s, 3, 0).rotate_left(const { frame(3, 0) }));
    block[9] = byte0(lane::<false>(&s, 4, 1).rotate_left(const { frame(4, 1) }));
    barrier();
    block[20] = byte0(lane::<false>(&s, 0, 4).rotate_left(const { frame(0, 4) }));
    block[1] = byte0(lane::<false>(&s, 1, 0).rotate_left(const { frame(1, 0) }));
    block[7] = byte0(lane::<false>(&s, 2, 1).rotate_left(const { frame(2, 1) }));
    block[13] = byte0(lane::<false>(&s, 3, 2).rotate_left(const { frame(3, 2) }));
    block[19] = byte0(lane::<false>(&s, 4, 3).rotate_left(const { frame(4, 3) }));
    barrier();
    block[5] = byte0(lane::<false>(&s, 0, 1).rotate_left(const { frame(0, 1) }));
    block[11] = byte0(lane::<false>(&s, 1, 2).rotate_left(const { frame(1, 2) }));
    block[17] = byte0(lane::<false>(&s, 2, 3).rotate_left(const { frame(2, 3) }));
    block[23] = byte0(lane::<false>(&s, 3, 4).rotate_left(const { frame(3, 4) }));
    block[4] = byte0(lane::<false>(&s, 4, 0).rotate_left(const { frame(4, 0) }));
    barrier();
    block[15] = byte0(lane::<false>(&s, 0, 3).rotate_left(const { frame(0, 3) }));
    block[21] = byte0(lane::<false>(&s, 1, 4).rotate_left(const { frame(1, 4) }));
    block[2] = byte0(lane::<false>(&s, 2, 0).rotate_left(const { frame(2, 0) }));
    block[8] = byte0(lane::<false>(&s, 3, 1).rotate_left(const { frame(3, 1) }));
    block[14] = byte0(lane::<false>(&s, 4, 2).rotate_left(const { frame(4, 2) }));
}

#[cfg(test)]
mod tests {
    use super::{FRAMES, RHO};

    /// Every lane's frame is its π-predecessor's plus that lane's ρ offset
    /// (mod 8), also where the cycle closes; lane (0, 0) has frame 0.
    #[test]
    fn frames_close_up_around_pi() {
        assert_eq!(FRAMES[0], 0);
        for x in 0..5 {
            for y in 0..5 {
                if (x, y) != (0, 0) {
                    let next = y + 5 * ((2 * x + 3 * y) % 5);
                    assert_eq!(FRAMES[next], (FRAMES[x + 5 * y] + RHO[x + 5 * y]) % 8);
                }
            }
        }
    }
}
