//! The masks `mask_i = φ^i(L)`, as a window on one byte stream.
//!
//! φ shifts a mask one byte towards the front and appends one byte, so
//! consecutive masks are overlapping windows of one stream: `mask_i` is the
//! stream's bytes `i .. i + BLOCK_SIZE`, and a step is one new byte. A call
//! keeps the part of the stream that its blocks in flight need, from the
//! oldest block whose tag term is not yet queued to a run ahead, and
//! slides it forward as it goes: each byte is produced once per call.
//!
//! Mask indices are blocks of lengths checked against the limits at the
//! entry, and offsets in the window are at most `W`: their arithmetic
//! cannot overflow, and is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "mask indices are bounded by the length limits, offsets by W (see the module doc)"
)]

use super::xor::copy_by_u32s;
use crate::permutation::Permutation;
use core::marker::PhantomData;
use zeroize::Zeroize;

/// How far past a mask's index a call reads: `mask_i`, `mask_{i+1}` and
/// `mask_{i+2}` (the keystream and the ciphertext's tag terms), so mask
/// index `i` needs the stream up to byte `i + BLOCK_SIZE + LOOKAHEAD`.
pub(super) const LOOKAHEAD: usize = 2;

/// What [`MaskWindow::mask`] gives for a mask it does not hold: at least
/// as long as any block.
const NO_MASK: [u8; 32] = [0; 32];

/// Part of the mask stream: bytes `base .. base + filled` of it, in a
/// window of `W` bytes.
pub(super) struct MaskWindow<P: Permutation, const W: usize> {
    bytes: [u8; W],
    /// Index of the stream byte at `bytes[0]`.
    base: usize,
    /// How many bytes from `base` on exist.
    filled: usize,
    /// How many bytes ever held masks, for [`Drop`].
    used: usize,
    permutation: PhantomData<P>,
}

impl<P: Permutation, const W: usize> MaskWindow<P, W> {
    /// An empty window: [`Self::restart`] starts it.
    pub(super) fn new() -> Self {
        const {
            assert!(
                W > P::BLOCK_SIZE + LOOKAHEAD + 1,
                "room for a mask, its lookahead and a step"
            );
        }
        Self {
            bytes: [0; W],
            base: 0,
            filled: 0,
            used: 0,
            permutation: PhantomData,
        }
    }

    /// Starts the stream over at `mask_0 = first_mask` (`L` for a whole
    /// message).
    pub(super) fn restart(&mut self, first_mask: &P::Block) {
        if let Some(head) = self.bytes.get_mut(..P::BLOCK_SIZE) {
            copy_by_u32s(head, first_mask.as_ref());
        }
        self.base = 0;
        self.filled = P::BLOCK_SIZE;
        self.used = self.used.max(P::BLOCK_SIZE);
    }

    /// The first index past the masks this window can hold (with their
    /// [`LOOKAHEAD`]) once it starts at `oldest`.
    pub(super) fn reach_from(oldest: usize) -> usize {
        oldest + (W - P::BLOCK_SIZE - LOOKAHEAD) + 1
    }

    /// Makes `mask_i` (and its [`LOOKAHEAD`]) readable for every `i` in
    /// `oldest .. end`: moves the window forward to `oldest` first if
    /// `end` lies beyond its reach (`oldest` must not be behind the
    /// window's start, and `end` at most [`Self::reach_from`]`(oldest)`).
    pub(super) fn prepare(&mut self, oldest: usize, end: usize) {
        debug_assert!(oldest >= self.base, "the window only moves forward");
        debug_assert!(end <= Self::reach_from(oldest), "beyond the window");
        if end > Self::reach_from(self.base) {
            self.slide_to(oldest);
        }
        // The stream up to mask `end − 1` and its lookahead.
        let wanted = (end - self.base + P::BLOCK_SIZE + LOOKAHEAD - 1).min(W);
        // Firmware keeps the byte loop, its smaller code (and no `u128`s).
        if cfg!(elephant_batch) {
            self.extend_by_words(wanted);
        } else {
            self.extend_by_bytes(wanted);
        }
        self.filled = self.filled.max(wanted);
        self.used = self.used.max(self.filled);
    }

    /// Extends the stream to `wanted` bytes [`Self::STEP`] bytes at a time
    /// (a byte at a time while the window holds less stream than the
    /// farthest tap needs: Jumbo's first three bytes after a slide,
    /// Dumbo's first seven).
    ///
    /// On the 64-bit path only: it slices the window (`position` and
    /// `wanted` are at most `W`, to which [`Self::prepare`] caps them),
    /// panicking on a broken invariant.
    fn extend_by_words(&mut self, wanted: usize) {
        // Only Jumbo's and Dumbo's taps reach past a mask (a constant
        // test): Delirium keeps the loop it had.
        let mut position = self.filled;
        if Self::FARTHEST_TAP > P::BLOCK_SIZE {
            self.extend_by_bytes(wanted.min(Self::FARTHEST_TAP));
            position = position.max(Self::FARTHEST_TAP);
        }
        // The taps come from the stream's last bytes kept in registers: read
        // back from the window, words that span the bytes just stored would
        // wait for those stores.
        let mut recent = Recent::before(&self.bytes[..position]);
        while position < wanted {
            let new = P::feedback_word(|back| recent.word(back));
            let bytes = new.to_le_bytes();
            let step_end = position + Self::STEP;
            // A whole step is a copy of a fixed length; the last one of a
            // call may be shorter.
            let end = step_end.min(wanted);
            match (
                self.bytes.get_mut(position..step_end),
                bytes.get(..Self::STEP),
            ) {
                (Some(slots), Some(new)) if end == step_end => slots.copy_from_slice(new),
                _ => {
                    self.bytes[position..end]
                        .iter_mut()
                        .zip(bytes)
                        .for_each(|(to, from)| *to = from);
                }
            }
            recent.push(new, Self::STEP);
            position = end;
        }
    }

    /// Extends the stream to `wanted` bytes a byte at a time (firmware, and
    /// the bytes before the word form has its taps).
    #[inline(always)]
    fn extend_by_bytes(&mut self, wanted: usize) {
        for position in self.filled..wanted {
            let mask = self
                .bytes
                .get(position - P::BLOCK_SIZE..position)
                .unwrap_or_default();
            let byte = P::mask_feedback(mask);
            if let Some(slot) = self.bytes.get_mut(position) {
                *slot = byte;
            }
        }
    }

    /// How many stream bytes one step of [`Self::prepare`] appends: those
    /// whose taps all lie before the step (at most the eight bytes of a
    /// word). Byte `j` of a step reads the bytes `j −` each tap's distance,
    /// so `j` must stay below the nearest tap's. All three step eight bytes
    /// (against byte by byte: DESIGN.md, "The mode's block work").
    const STEP: usize = {
        let (nearest, _) = reach(P::FEEDBACK_BACK);
        assert!(nearest >= 1, "the taps lie before the byte");
        if nearest < 8 { nearest } else { 8 }
    };

    /// How much stream the word form needs behind a step: its farthest
    /// tap's distance (at most the 32 bytes [`Recent`] holds).
    const FARTHEST_TAP: usize = {
        let (_, farthest) = reach(P::FEEDBACK_BACK);
        assert!(farthest <= 32, "the taps lie in the recent bytes");
        farthest
    };

    /// Moves the bytes from stream index `oldest` on to the front.
    fn slide_to(&mut self, oldest: usize) {
        let shift = oldest - self.base;
        let kept = self.filled - shift;
        // On 64-bit targets a `memmove`: the window is hundreds of bytes
        // (against a loop of eight-byte words: DESIGN.md, "The mode's block
        // work"). Firmware, whose window is a few blocks, keeps
        // a byte loop, which links no panic; it runs ascending, so it is
        // right where the bytes kept overlap their new place.
        debug_assert!(shift + kept <= W, "the kept bytes lie in the window");
        #[cfg(elephant_batch)]
        self.bytes.copy_within(shift..shift + kept, 0);
        #[cfg(not(elephant_batch))]
        for to in 0..kept {
            let byte = self.bytes.get(to + shift).copied();
            if let (Some(slot), Some(byte)) = (self.bytes.get_mut(to), byte) {
                *slot = byte;
            }
        }
        self.filled = kept;
        self.base = oldest;
    }

    /// `mask_index`, which [`Self::prepare`] made readable.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn mask(&self, index: usize) -> &[u8] {
        let start = index.wrapping_sub(self.base);
        let mask = self.bytes.get(start..start.wrapping_add(P::BLOCK_SIZE));
        debug_assert!(
            mask.is_some() && start.wrapping_add(P::BLOCK_SIZE) <= self.filled,
            "mask {index} was prepared"
        );
        // Past the window (a broken invariant, caught by the assertion in
        // tests) zeros of the mask's length: so every mask is known to
        // have that length, and block loops over masks need no bounds
        // checks.
        mask.unwrap_or(NO_MASK.get(..P::BLOCK_SIZE).unwrap_or_default())
    }

    /// The stream bytes of masks `index .. index + count` with their
    /// [`LOOKAHEAD`], which [`Self::prepare`] made readable: `mask_{index+j}`
    /// is bytes `j .. j + BLOCK_SIZE` of it (so it is `count + BLOCK_SIZE +
    /// LOOKAHEAD − 1` bytes long, or empty for no masks), for the loops
    /// over many blocks (on the 64-bit path only: it slices the window,
    /// panicking on a broken invariant).
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn stream(&self, index: usize, count: usize) -> &[u8] {
        if count == 0 {
            return &[];
        }
        let start = index - self.base;
        let end = start + count + P::BLOCK_SIZE + LOOKAHEAD - 1;
        debug_assert!(
            end <= self.filled,
            "masks {index}.. ({count}) were prepared"
        );
        &self.bytes[start..end]
    }

    /// `mask_index` and `mask_{index+1}`, whose XOR `δ_index` masks
    /// keystream block `index`.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn keystream_masks(&self, index: usize) -> [&[u8]; 2] {
        [self.mask(index), self.mask(index + 1)]
    }

    /// Clears every byte that ever held a mask.
    pub(super) fn wipe(&mut self) {
        if let Some(used) = self.bytes.get_mut(..self.used) {
            used.zeroize();
        }
    }
}

/// The last 32 bytes of the mask stream before the next byte to produce,
/// as one 256-bit little-endian number in two halves (the newest byte on
/// top of `high`): where [`MaskWindow::prepare`] reads its taps, every one
/// of which lies at most 25 bytes back. (Held in registers: what a call
/// spills of it goes with the stack clearing after the call, see
/// `crate::scrub`.)
struct Recent {
    low: u128,
    high: u128,
}

impl Recent {
    /// The last 32 bytes of `stream` (zeros before its start).
    #[cfg_attr(elephant_batch, inline(always))]
    #[expect(
        clippy::indexing_slicing,
        reason = "64-bit path only: the tail is at most 32 bytes of `stream`"
    )]
    fn before(stream: &[u8]) -> Self {
        let mut bytes = [0u8; 32];
        // The last 32 bytes, or all of a shorter stream.
        let tail = &stream[stream.len() - stream.len().min(32)..];
        bytes[32 - tail.len()..].copy_from_slice(tail);
        let (low, high) = bytes.split_at(16);
        let half = |half: &[u8]| u128::from_le_bytes(half.try_into().unwrap_or_default());
        let recent = Self {
            low: half(low),
            high: half(high),
        };
        bytes.zeroize();
        recent
    }

    /// The eight stream bytes from `back` (1 to 32) bytes before the next
    /// one; lanes that would reach past the newest byte are zero.
    #[cfg_attr(elephant_batch, inline(always))]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "back is 1 to 32 (checked in debug builds): the shift is at most 248 bits"
    )]
    fn word(&self, back: usize) -> u64 {
        debug_assert!((1..=32).contains(&back), "1 to 32 bytes back");
        // Bit offset of that byte in the 256-bit number (a constant after
        // inlining, so one of the branches below).
        let shift = 8 * (32 - back) as u32;
        let bits = if shift >= 128 {
            self.high.wrapping_shr(shift.wrapping_sub(128))
        } else if shift == 0 {
            self.low
        } else {
            self.low.wrapping_shr(shift) | self.high.wrapping_shl(128u32.wrapping_sub(shift))
        };
        low_word(bits)
    }

    /// Appends the low `count` (1 to 8) bytes of `new`.
    #[cfg_attr(elephant_batch, inline(always))]
    #[expect(
        clippy::cast_possible_truncation,
        reason = "count is 1 to 8 (checked in debug builds): 8 times it is at most 64"
    )]
    fn push(&mut self, new: u64, count: usize) {
        debug_assert!((1..=8).contains(&count), "1 to 8 bytes");
        let bits = 8 * count as u32;
        let kept = u128::from(new) & (u128::MAX >> 128u32.wrapping_sub(bits));
        let rest = 128u32.wrapping_sub(bits);
        self.low = self.low.wrapping_shr(bits) | self.high.wrapping_shl(rest);
        self.high = self.high.wrapping_shr(bits) | kept.wrapping_shl(rest);
    }
}

/// The nearest and the farthest of `taps` (distances back in the stream;
/// `usize::MAX` and 0 for none).
const fn reach(taps: &[usize]) -> (usize, usize) {
    let (mut nearest, mut farthest) = (usize::MAX, 0);
    let mut rest = taps;
    while let [tap, later @ ..] = rest {
        if *tap < nearest {
            nearest = *tap;
        }
        if *tap > farthest {
            farthest = *tap;
        }
        rest = later;
    }
    (nearest, farthest)
}

/// The low 64 bits of `x`.
#[cfg_attr(elephant_batch, inline(always))]
fn low_word(x: u128) -> u64 {
    let [a, b, c, d, e, f, g, h, ..] = x.to_le_bytes();
    u64::from_le_bytes([a, b, c, d, e, f, g, h])
}

impl<P: Permutation, const W: usize> Drop for MaskWindow<P, W> {
    fn drop(&mut self) {
        self.wipe();
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
mod tests {
    use super::*;

    /// The window gives the masks of stepping φ, for oldest indices that
    /// trail by varying amounts, also across the points where it slides.
    #[test]
    fn masks_step_like_phi() {
        fn check<P: Permutation, const W: usize>() {
            let mut first = P::Block::default();
            for (i, byte) in first.as_mut().iter_mut().enumerate() {
                *byte = (i as u8).wrapping_mul(29) ^ 0x5a;
            }
            let mut expected = vec![first];
            for _ in 0..4 * W {
                let next = P::next_mask(&expected[expected.len() - 1]);
                expected.push(next);
            }
            let mut window = MaskWindow::<P, W>::new();
            window.restart(&first);
            let (mut oldest, mut end) = (0, 0);
            let mut step = 0usize;
            while end + 3 * W / 2 < 4 * W {
                // Trail by 0..7 indices, and ask for 1..the whole reach.
                step += 1;
                oldest = (end - (step % 8).min(end)).max(oldest);
                let reach = MaskWindow::<P, W>::reach_from(oldest);
                end = (end + 1 + step * 7 % (reach - end)).min(reach);
                window.prepare(oldest, end);
                let stream = window.stream(oldest, end - oldest);
                assert_eq!(stream.len(), end - oldest + P::BLOCK_SIZE + LOOKAHEAD - 1);
                for i in oldest..end {
                    let from_stream = &stream[i - oldest..][..P::BLOCK_SIZE];
                    assert_eq!(from_stream, expected[i].as_ref(), "stream mask {i}");
                    for ahead in 0..=LOOKAHEAD {
                        assert_eq!(
                            window.mask(i + ahead),
                            expected[i + ahead].as_ref(),
                            "{} mask {i}+{ahead}",
                            P::INSTANCE
                        );
                    }
                }
            }
        }
        check::<crate::Spongent160, 56>();
        check::<crate::Spongent176, 64>();
        check::<crate::Keccak200, 56>();
        check::<crate::Keccak200, 539>();
    }

    /// Wiping clears the whole window, also bytes left behind by a slide.
    #[test]
    fn wipe_clears_every_mask_byte() {
        let mut window = MaskWindow::<crate::Spongent160, 64>::new();
        window.restart(&[0xa5; 20]);
        window.prepare(0, 40);
        window.prepare(30, 70);
        assert!(window.bytes.iter().any(|&b| b != 0));
        window.wipe();
        assert!(window.bytes.iter().all(|&b| b == 0));
    }
}
