//! Keccak-f\[200\] for 64-bit targets: one state with each lane repeated
//! in a `u32`, and eight states at once, byte-sliced in `u64` words (SWAR),
//! both on the shared round function.
//!
//! With a lane repeated in the four bytes of a `u32`, rotating the word
//! rotates each copy, so ρ is one rotation instead of two shifts and a mask
//! (on x86-64, about twice as fast as the firmware's `soft32` form, whose
//! scheduling for Arm costs more here).
//!
//! Byte-slicing puts lane (x, y) of eight independent states into the eight
//! bytes of one `u64`: θ, π, χ and ι become word-wise XOR/AND/NOT and a
//! renaming of words, and the per-lane rotations of ρ become masked shifts
//! that cannot carry bits from one state into its neighbour. Every operation
//! is a fixed sequence independent of the data, so the time taken does not
//! depend on the states.

use crate::permutation::keccak::round::{Word, rounds};
use zeroize::Zeroize;

/// A byte lane repeated in the four bytes of a word: one state.
#[derive(Clone, Copy)]
struct Repeated(u32);

impl Word for Repeated {
    type Token = ();
    #[inline(always)]
    fn token(self) {}
    #[inline(always)]
    fn splat((): (), byte: u8) -> Self {
        Self(u32::from_ne_bytes([byte; 4]))
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Self(self.0 ^ other.0)
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        Self(!self.0 & other.0)
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        Self(self.0.wrapping_shl(bits))
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        Self(self.0.wrapping_shr(bits))
    }
    /// Every copy of the lane rotates with the word.
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        Self(self.0.rotate_left(bits))
    }
}

/// Keccak-f\[200\] of one block.
pub(super) fn permute_one(block: &mut [u8; 25]) {
    // A plain loop, not `block.map(..)`: that one was left an out-of-line
    // call even in cargo's default release profile (.ci/inline-check).
    let mut lanes = [Repeated(0); 25];
    for (lane, &byte) in lanes.iter_mut().zip(block.iter()) {
        *lane = Repeated::splat((), byte);
    }
    let mut lanes = rounds((), lanes);
    for (byte, lane) in block.iter_mut().zip(&lanes) {
        // Byte 0 of the word is one copy of the lane.
        *byte = lane.0.to_le_bytes()[0];
    }
    // The last state must not stay in this frame.
    for lane in &mut lanes {
        lane.0.zeroize();
    }
}

/// How many states the SWAR form permutes at once: the bytes of a `u64`.
pub(super) const SWAR_STATES: usize = 8;

/// Eight states byte-sliced in a general-purpose register.
impl Word for u64 {
    type Token = ();
    #[inline(always)]
    fn token(self) {}
    #[inline(always)]
    fn splat((): (), byte: u8) -> Self {
        Self::from_ne_bytes([byte; 8])
    }
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
    fn shl(self, bits: u32) -> Self {
        self.wrapping_shl(bits)
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        self.wrapping_shr(bits)
    }
}

/// Transposes an 8 × 8 byte matrix held as eight little-endian `u64` rows:
/// byte j of row i becomes byte i of row j. Its own inverse.
///
/// Three rounds of block swaps (4 × 4, then 2 × 2, then single bytes), each
/// exchanging the upper block of one row with the lower block of another.
#[inline(always)]
fn transpose_8x8(rows: [u64; 8]) -> [u64; 8] {
    /// Swaps the bits of `a` selected by `mask << shift` with the bits of
    /// `b` selected by `mask`.
    #[inline(always)]
    fn swap(a: &mut u64, b: &mut u64, shift: u32, mask: u64) {
        let t = ((*a >> shift) ^ *b) & mask;
        *a ^= t << shift;
        *b ^= t;
    }
    let [
        mut r0,
        mut r1,
        mut r2,
        mut r3,
        mut r4,
        mut r5,
        mut r6,
        mut r7,
    ] = rows;
    for (a, b) in [
        (&mut r0, &mut r4),
        (&mut r1, &mut r5),
        (&mut r2, &mut r6),
        (&mut r3, &mut r7),
    ] {
        swap(a, b, 32, 0x0000_0000_ffff_ffff);
    }
    for (a, b) in [
        (&mut r0, &mut r2),
        (&mut r1, &mut r3),
        (&mut r4, &mut r6),
        (&mut r5, &mut r7),
    ] {
        swap(a, b, 16, 0x0000_ffff_0000_ffff);
    }
    for (a, b) in [
        (&mut r0, &mut r1),
        (&mut r2, &mut r3),
        (&mut r4, &mut r5),
        (&mut r6, &mut r7),
    ] {
        swap(a, b, 8, 0x00ff_00ff_00ff_00ff);
    }
    [r0, r1, r2, r3, r4, r5, r6, r7]
}

/// Byte-slices up to eight blocks: word `l` holds lane `l` of block `s` in
/// byte `s`. Missing blocks are zero states.
#[inline(always)]
fn load_x8(blocks: &[[u8; 25]]) -> [u64; 25] {
    // Rows: bytes 0–7, 8–15 and 16–23 of each block, then byte 24.
    let mut rows = [[0u64; SWAR_STATES]; 3];
    let mut last = [0u8; SWAR_STATES];
    for (s, block) in blocks.iter().take(SWAR_STATES).enumerate() {
        let parts = block.chunks_exact(8);
        if let (Some(to), [from]) = (last.get_mut(s), parts.remainder()) {
            *to = *from;
        }
        for (row, part) in rows.iter_mut().zip(parts) {
            if let (Some(word), Ok(bytes)) = (row.get_mut(s), part.try_into()) {
                *word = u64::from_le_bytes(bytes);
            }
        }
    }
    let mut lanes = [0u64; 25];
    let mut groups = lanes.chunks_exact_mut(8);
    for (group, row) in groups.by_ref().zip(&rows) {
        group.copy_from_slice(&transpose_8x8(*row));
    }
    if let [word] = groups.into_remainder() {
        *word = u64::from_le_bytes(last);
    }
    rows.zeroize();
    last.zeroize();
    lanes
}

/// Writes byte-sliced lanes back into up to eight blocks, the inverse of
/// [`load_x8`]; lanes of missing blocks are dropped.
#[inline(always)]
fn store_x8(lanes: &[u64; 25], blocks: &mut [[u8; 25]]) {
    let groups = lanes.chunks_exact(8);
    let mut last = match groups.remainder() {
        [word] => word.to_le_bytes(),
        _ => [0; 8],
    };
    let mut rows = [[0u64; SWAR_STATES]; 3];
    for (row, group) in rows.iter_mut().zip(groups) {
        if let Ok(group) = group.try_into() {
            *row = transpose_8x8(group);
        }
    }
    for (s, block) in blocks.iter_mut().take(SWAR_STATES).enumerate() {
        let mut parts = block.chunks_exact_mut(8);
        for (part, row) in parts.by_ref().zip(&rows) {
            if let Some(word) = row.get(s) {
                part.copy_from_slice(&word.to_le_bytes());
            }
        }
        if let (Some(from), [to]) = (last.get(s), parts.into_remainder()) {
            *to = *from;
        }
    }
    rows.zeroize();
    last.zeroize();
}

/// Keccak-f\[200\] of every block, eight states at a time in `u64` words;
/// the last chunk is filled up with zero states whose results are dropped.
pub(super) fn permute_x8(blocks: &mut [[u8; 25]]) {
    for chunk in blocks.chunks_mut(SWAR_STATES) {
        let mut lanes = rounds((), load_x8(chunk));
        store_x8(&lanes, chunk);
        lanes.zeroize();
    }
}
