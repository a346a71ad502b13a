//! Keccak-f\[200\] as a `const fn`: the reference that every faster backend
//! is tested against, and the compile-time path.
//!
//! Lanes are bytes; every operation is a fixed sequence of XOR, AND, NOT and
//! rotations, so the time taken does not depend on the state.

// A `const fn` cannot use iterators, so these loops index. Every index is a
// loop counter or constant, bounded by the array lengths and independent of
// the data, and the compile-time test vectors in `permutation` evaluate every
// such path: an index out of bounds would fail the build, not panic later.
// The arithmetic is on those bounded counters and on 7-bit round constants.
#![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

pub(super) mod backends;
// The shared round of the 64-bit targets' backends; the 32-bit targets'
// backend has its own (see `backends/soft32.rs`).
#[cfg(elephant_batch)]
mod round;

/// Rotation offsets ρ for lane `x + 5y`, reduced mod 8.
pub(super) const RHO: [u32; 25] = [
    0, 1, 6, 4, 3, 4, 4, 6, 7, 4, 3, 2, 3, 1, 7, 1, 5, 7, 5, 0, 2, 2, 5, 0, 6,
];

/// Round constants ι of the 18 rounds.
pub(super) const ROUND_CONSTANTS: [u8; 18] = [
    0x01, 0x82, 0x8a, 0x00, 0x8b, 0x01, 0x81, 0x09, 0x8a, 0x88, 0x09, 0x0a, 0x8b, 0x8b, 0x89, 0x03,
    0x02, 0x80,
];

/// Keccak-f\[200\]: 18 rounds on 25 byte lanes, lane (x, y) at byte `x + 5y`
/// (the permutation of Delirium).
///
/// ```
/// use elephant_aead::permutation::keccak_f200;
/// const OUT: [u8; 25] = keccak_f200([0; 25]);
/// assert_eq!(OUT[..4], [0x3c, 0x28, 0x26, 0x84]);
/// ```
#[must_use]
pub const fn keccak_f200(mut state: [u8; 25]) -> [u8; 25] {
    let mut round = 0;
    while round < ROUND_CONSTANTS.len() {
        // θ
        let mut column = [0u8; 5];
        let mut x = 0;
        while x < 5 {
            column[x] = state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20];
            x += 1;
        }
        x = 0;
        while x < 5 {
            let d = column[(x + 4) % 5] ^ column[(x + 1) % 5].rotate_left(1);
            let mut y = 0;
            while y < 5 {
                state[x + 5 * y] ^= d;
                y += 1;
            }
            x += 1;
        }
        // ρ and π: B[y, 2x + 3y] = rotl(A[x, y], r[x + 5y])
        let mut moved = [0u8; 25];
        let mut lane = 0;
        while lane < 25 {
            let (x, y) = (lane % 5, lane / 5);
            moved[y + 5 * ((2 * x + 3 * y) % 5)] = state[lane].rotate_left(RHO[lane]);
            lane += 1;
        }
        // χ
        lane = 0;
        while lane < 25 {
            let (x, row) = (lane % 5, lane - lane % 5);
            state[lane] = moved[lane] ^ (!moved[row + (x + 1) % 5] & moved[row + (x + 2) % 5]);
            lane += 1;
        }
        // ι
        state[0] ^= ROUND_CONSTANTS[round];
        round += 1;
    }
    state
}
