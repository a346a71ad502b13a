//! The buffer a message is read from and written to.
//!
//! Offsets are those of blocks in the buffer, whose length is checked
//! against the limits at the entry: their arithmetic cannot overflow, and
//! is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "offsets in the buffer are bounded by the length limits (see the module doc)"
)]

use super::keystream::copied_in;
use super::xor::zip_u32s;
use aead::inout::InOutBuf;

/// The call's buffer: one slice when in place (sealing copies the input to
/// the output first); opening into a separate output keeps both sides, so
/// that a rejected message leaves the output as it was.
pub(super) enum Data<'a> {
    /// Separate sides, the output not written yet (opening).
    Unwritten(InOutBuf<'a, 'a, u8>),
    /// One slice: the message, rewritten in place.
    InPlace(&'a mut [u8]),
    /// A part that is only read (its tag terms, feature `rayon`).
    #[cfg(feature = "rayon")]
    ReadOnly(&'a [u8]),
}

impl<'a> Data<'a> {
    /// The buffer as one slice if its sides are one (the usual case).
    pub(super) fn in_place_or_not(mut buffer: InOutBuf<'a, 'a, u8>) -> Self {
        if buffer.get_in().as_ptr() == buffer.get_out().as_ptr() {
            Data::InPlace(copied_in(buffer))
        } else {
            Data::Unwritten(buffer)
        }
    }

    /// The message as it stands (plaintext, or ciphertext where written).
    pub(super) fn read(&self) -> &[u8] {
        match self {
            Data::Unwritten(buffer) => buffer.get_in(),
            Data::InPlace(data) => data,
            #[cfg(feature = "rayon")]
            Data::ReadOnly(data) => data,
        }
    }

    /// `output = input ⊕ keystream` over the block from `start` on where
    /// `accept` is `0xff` (sealing, or a tag that matched); the output as
    /// it was where it is 0, with no branch on it. The keystream is
    /// `permuted ⊕ masks…` (a permutation's result and its masks), taken
    /// in the same pass; `permuted` is scratch space afterwards (it may
    /// hold plaintext: its owner wipes it).
    #[inline(always)]
    pub(super) fn xor_block(
        &mut self,
        start: usize,
        permuted: &mut [u8],
        [a, b]: [&[u8]; 2],
        accept: u8,
    ) {
        let word_accept = u32::from_ne_bytes([accept; 4]);
        match self {
            Data::InPlace(data) => {
                let end = (start + permuted.len()).min(data.len());
                if let Some(block) = data.get_mut(start..end) {
                    zip_u32s(
                        block,
                        [permuted, a, b],
                        false,
                        |d, [k, a, b, _]| d ^ ((k ^ a ^ b) & word_accept),
                        |d, [k, a, b, _]| d ^ ((k ^ a ^ b) & accept),
                    );
                }
            }
            Data::Unwritten(buffer) => {
                // Separate input and output, which cannot be borrowed at
                // once: the plaintext goes into `permuted` first, then
                // over the output where the tag matched (the output
                // rewritten with its own bytes where it did not).
                let end = (start + permuted.len()).min(buffer.len());
                let range = start..end;
                let input = buffer.get_in().get(range.clone()).unwrap_or_default();
                zip_u32s(
                    permuted,
                    [input, a, b],
                    false,
                    |k, [i, a, b, _]| k ^ i ^ a ^ b,
                    |k, [i, a, b, _]| k ^ i ^ a ^ b,
                );
                if let Some(output) = buffer.get_out().get_mut(range) {
                    zip_u32s(
                        output,
                        [permuted],
                        false,
                        |out, [new, ..]| out ^ ((out ^ new) & word_accept),
                        |out, [new, ..]| out ^ ((out ^ new) & accept),
                    );
                }
            }
            #[cfg(feature = "rayon")]
            Data::ReadOnly(_) => debug_assert!(false, "a read-only part is not written"),
        }
    }
}
