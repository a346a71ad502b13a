//! Spongent-π\[160\] and Spongent-π\[176\] as `const fn`s: the reference that
//! every faster backend is tested against, and the compile-time path.
//!
//! The S-box is evaluated as a boolean circuit on the nibbles of each byte
//! (never a table indexed by the state), and the bit permutation moves bits
//! by public positions only, so the time taken does not depend on the state.

// A `const fn` cannot use iterators, so these loops index. Every index is a
// loop counter or constant, bounded by the array lengths and independent of
// the data, and the compile-time test vectors in `permutation` evaluate every
// such path: an index out of bounds would fail the build, not panic later.
// The arithmetic is on those bounded counters and on 7-bit round constants.
#![allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

pub(super) mod backends;
mod sbox;

/// Rounds of Spongent-π\[160\].
pub(super) const ROUNDS_160: usize = 80;
/// Initial value of the 7-bit round counter of Spongent-π\[160\].
pub(super) const COUNTER_160: u8 = 0x75;
/// Rounds of Spongent-π\[176\].
pub(super) const ROUNDS_176: usize = 90;
/// Initial value of the 7-bit round counter of Spongent-π\[176\].
pub(super) const COUNTER_176: u8 = 0x45;

/// The round counter's next value: `c = (c << 1 | c6 ⊕ c5) & 0x7f`.
#[inline(always)]
pub(super) const fn next_counter(counter: u8) -> u8 {
    ((counter << 1) | (((counter >> 6) ^ (counter >> 5)) & 1)) & 0x7f
}

/// Spongent-π\[160\]: 80 rounds on a 20-byte state (the permutation of Dumbo).
///
/// ```
/// use elephant_aead::permutation::spongent_pi_160;
/// const OUT: [u8; 20] = spongent_pi_160([0; 20]);
/// assert_eq!(OUT[..4], [0xe8, 0x0c, 0x00, 0x86]);
/// ```
#[must_use]
pub const fn spongent_pi_160(state: [u8; 20]) -> [u8; 20] {
    spongent::<20>(state, ROUNDS_160, COUNTER_160)
}

/// Spongent-π\[176\]: 90 rounds on a 22-byte state (the permutation of Jumbo).
///
/// ```
/// use elephant_aead::permutation::spongent_pi_176;
/// const OUT: [u8; 22] = spongent_pi_176([0; 22]);
/// assert_eq!(OUT[..4], [0x7c, 0xc4, 0xce, 0x71]);
/// ```
#[must_use]
pub const fn spongent_pi_176(state: [u8; 22]) -> [u8; 22] {
    spongent::<22>(state, ROUNDS_176, COUNTER_176)
}

/// One Spongent-π core for both widths: `BYTES` bytes of state, `rounds`
/// rounds, and the 7-bit round counter starting at `counter`.
const fn spongent<const BYTES: usize>(
    mut state: [u8; BYTES],
    rounds: usize,
    counter: u8,
) -> [u8; BYTES] {
    let mut counter = counter;
    let mut round = 0;
    while round < rounds {
        state[0] ^= counter;
        state[BYTES - 1] ^= counter.reverse_bits();
        counter = next_counter(counter);
        let mut i = 0;
        while i < BYTES {
            state[i] = sbox_both_nibbles(state[i]);
            i += 1;
        }
        state = bit_permutation(&state);
        round += 1;
    }
    state
}

/// The Spongent S-box `[E, D, B, 0, 2, 1, 4, F, 7, A, 8, 5, 9, C, 3, 6]` on
/// both nibbles of a byte at once, as its algebraic normal form.
const fn sbox_both_nibbles(byte: u8) -> u8 {
    const LOW_BITS: u8 = 0x11;
    let x0 = byte & LOW_BITS;
    let x1 = (byte >> 1) & LOW_BITS;
    let x2 = (byte >> 2) & LOW_BITS;
    let x3 = (byte >> 3) & LOW_BITS;
    let x1x2 = x1 & x2;
    let x0x3 = x0 & x3;
    let x1x3 = x1 & x3;
    let x1x2x3 = x1x2 & x3;
    let y0 = x0 ^ x1 ^ x1x2 ^ x3;
    let y1 = LOW_BITS ^ x0 ^ x1x2 ^ x0x3 ^ x1x3 ^ (x2 & x3) ^ x1x2x3;
    let y2 = LOW_BITS ^ x1 ^ x2 ^ x0x3 ^ x1x2x3;
    let y3 = LOW_BITS ^ (x0 & x1) ^ x2 ^ x3 ^ x0x3 ^ x1x3 ^ (x0 & x1 & x3) ^ (x0 & x2 & x3);
    y0 | (y1 << 1) | (y2 << 2) | (y3 << 3)
}

/// The pLayer: bit `4k + j` moves to `k + j·b/4` (b = 8·`BYTES` bits), which
/// is the spec's `i·b/4 mod (b−1)` with bit b−1 fixed.
const fn bit_permutation<const BYTES: usize>(state: &[u8; BYTES]) -> [u8; BYTES] {
    let quarter = BYTES * 2;
    let mut out = [0u8; BYTES];
    let mut i = 0;
    while i < BYTES * 8 {
        let bit = (state[i / 8] >> (i % 8)) & 1;
        let to = i / 4 + (i % 4) * quarter;
        out[to / 8] |= bit << (to % 8);
        i += 1;
    }
    out
}
