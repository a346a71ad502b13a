//! Keccak-f\[200\] on one state with every 8-bit lane copied into all four
//! bytes of a `u32`: the firmware backend (and the one-state tier
//! everywhere).
//!
//! With the byte repeated, rotating the whole word rotates each copy of the
//! lane, so ρ is one 32-bit rotation (free as a shifted operand on Arm)
//! instead of two shifts and a mask. The other steps are plain word
//! operations, identical in every byte; the result is read from byte 0.

use super::super::round::{Word, rounds};

/// A byte lane repeated in the four bytes of a word.
#[derive(Clone, Copy)]
struct Repeated(u32);

impl Word for Repeated {
    #[inline(always)]
    fn splat(byte: u8) -> Self {
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
pub(in crate::permutation) fn permute(block: &mut [u8; 25]) {
    let mut lanes = block.map(Repeated::splat);
    lanes = rounds(lanes);
    for (byte, lane) in block.iter_mut().zip(&lanes) {
        // Byte 0 of the word is one copy of the lane.
        *byte = lane.0.to_le_bytes()[0];
    }
    // The last state must not stay in this frame.
    for lane in &mut lanes {
        // Volatile, so the wipe is not optimised away.
        zeroize::Zeroize::zeroize(&mut lane.0);
    }
}
