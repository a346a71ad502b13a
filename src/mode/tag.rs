//! The tag: padding, the running sum `T`, finalisation, and the verdict.
//!
//! Block counts, indices and byte offsets come from lengths checked against
//! the limits at the entry: their arithmetic cannot overflow, and is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "block counts and offsets are bounded by the length limits (see the module doc)"
)]

use super::masks::MaskWindow;
use super::run::Run;
#[cfg(any(test, not(elephant_batch), feature = "rayon"))]
use super::xor::xor_into;
use super::xor::{copy_by_u32s, window_masks, xor_blocks_from_stream, xor_each_into, xor_words};
use super::{NONCE_SIZE, TagOf};
use crate::permutation::Permutation;
use aead::array::typenum::Unsigned;
use aead::{Error, Result};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// How many blocks `len` bytes take once padded with `01 ‖ 00…`: the
/// padding always adds the `01` byte, so `1 + ⌊len / block⌋`.
pub(super) fn padded_blocks<P: Permutation>(len: usize) -> usize {
    len / P::BLOCK_SIZE + 1
}

/// The block of `data ‖ 01 ‖ 00…` that starts at byte `start`, as the
/// bytes of `data` in it and whether it is the padded last one (then its
/// `01` byte follows those bytes).
pub(super) fn padded_block_at<P: Permutation>(data: &[u8], start: usize) -> (&[u8], bool) {
    match data.get(start..start + P::BLOCK_SIZE) {
        Some(block) => (block, false),
        None => (data.get(start..).unwrap_or_default(), true),
    }
}

/// The running tag sum `T`, cleared on drop.
///
/// Word-aligned, as is what follows it in a firmware walk: cores without
/// unaligned loads (RV32IMC, ARMv6-M) then take its words whole
/// (DESIGN.md, "Stack clearing"), and a block is zeroed by
/// `__aeabi_memclr4`, not by the bytewise `__aeabi_memclr` at twice the
/// count.
#[repr(align(4))]
pub(super) struct TagSum<P: Permutation> {
    sum: P::Block,
}

impl<P: Permutation> TagSum<P> {
    /// `T = 0`.
    pub(super) fn new() -> Self {
        Self {
            sum: P::Block::default(),
        }
    }

    /// `T = A_0`, the first block of `nonce ‖ associated_data ‖ 01 ‖ 00…`,
    /// written in place.
    pub(super) fn start(&mut self, nonce: &[u8; NONCE_SIZE], associated_data: &[u8]) {
        self.sum = P::Block::default();
        self.start_from_zero(nonce, associated_data);
    }

    /// [`Self::start`] on a sum that is still 0 (just made by
    /// [`Self::new`]), without clearing it again.
    pub(super) fn start_from_zero(&mut self, nonce: &[u8; NONCE_SIZE], associated_data: &[u8]) {
        debug_assert!(self.sum.as_ref().iter().all(|&b| b == 0), "a new sum");
        let (head, rest) = self.sum.as_mut().split_at_mut(NONCE_SIZE);
        copy_by_u32s(head, nonce);
        let (part, padded) = padded_block_at::<P>(associated_data, 0);
        copy_by_u32s(rest, part);
        if padded {
            if let Some(pad) = rest.get_mut(part.len()) {
                *pad = 0x01;
            }
        }
    }

    /// `T = 0` (a part of a message, whose sum is merged later).
    pub(super) fn clear(&mut self) {
        self.sum = P::Block::default();
    }

    /// `T ^= block`: a permutation's result (one-block mode), or a part's
    /// sum (feature `rayon`).
    #[cfg(any(test, not(elephant_batch), feature = "rayon"))]
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn add(&mut self, block: &[u8]) {
        xor_into(self.sum.as_mut(), block);
    }

    /// `T ^= mask_a ⊕ mask_b`: the masks of a term, added when it is queued.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn add_masks(&mut self, mask_a: &[u8], mask_b: &[u8]) {
        xor_words(self.sum.as_mut(), true, [mask_a, mask_b]);
    }

    /// Queues the term of block `index` of `data ‖ 01 ‖ 00…` (which starts
    /// at byte `start` of `data`) with mask `index` (the associated data)
    /// or masks `index` and `index + 2` (the ciphertext).
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn queue_term<const N: usize, const W: usize>(
        &mut self,
        run: &mut Run<P, N>,
        masks: &MaskWindow<P, W>,
        (data, start): (&[u8], usize),
        index: usize,
        ciphertext: bool,
    ) {
        let mask_a = masks.mask(index);
        let mask_b = if ciphertext {
            masks.mask(index + 2)
        } else {
            &[]
        };
        let (input, padded) = padded_block_at::<P>(data, start);
        run.push(input, mask_a, mask_b);
        if padded {
            run.pad_last(input.len());
        }
        self.add_masks(mask_a, mask_b);
    }

    /// Queues the tag terms of the whole ciphertext blocks `blocks` (a
    /// multiple of the block size long), the first of them block `index`
    /// (as [`Self::queue_term`] each), in one loop over the mask stream.
    /// Their masks telescope in the sum: `Σ_j (mask_j ⊕ mask_{j+2})` over
    /// `j = index .. index + count` is `mask_index ⊕ mask_{index+1} ⊕
    /// mask_{index+count} ⊕ mask_{index+count+1}`, added once.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn queue_whole_terms<const N: usize, const W: usize>(
        &mut self,
        run: &mut Run<P, N>,
        masks: &MaskWindow<P, W>,
        blocks: &[u8],
        index: usize,
    ) {
        let count = blocks.len() / P::BLOCK_SIZE;
        if count == 0 {
            return;
        }
        let stream = masks.stream(index, count);
        let states = run.push_slots(count);
        let windows = stream.windows(P::BLOCK_SIZE + 2);
        let items = states
            .iter_mut()
            .zip(blocks.chunks_exact(P::BLOCK_SIZE))
            .zip(windows)
            .map(|((state, block), window)| (state.as_mut(), block, window));
        xor_blocks_from_stream(items, P::BLOCK_SIZE, 2);
        #[expect(
            clippy::indexing_slicing,
            reason = "64-bit path only: the stream holds masks up to `count` with their lookahead"
        )]
        let mask_at = |j: usize| window_masks(&stream[j..], P::BLOCK_SIZE, 1);
        let ((first, second), (last, past)) = (mask_at(0), mask_at(count));
        xor_words(self.sum.as_mut(), true, [first, second, last, past]);
    }

    /// Adds the next `count` results on the run (tag terms) to the sum.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn add_results<const N: usize>(&mut self, run: &mut Run<P, N>, count: usize) {
        if count == 0 {
            return;
        }
        let results = run.take_slots(count);
        xor_each_into(self.sum.as_mut(), results.iter().map(AsRef::as_ref));
    }

    /// Queues `P(T ⊕ L)`, the permutation that finalises the tag.
    pub(super) fn queue_final<const N: usize>(&self, run: &mut Run<P, N>, expanded_key: &P::Block) {
        run.push(self.sum.as_ref(), expanded_key.as_ref(), &[]);
    }

    /// The sum, for merging a part's into the whole.
    #[cfg(feature = "rayon")]
    pub(super) fn as_bytes(&self) -> &[u8] {
        self.sum.as_ref()
    }

    /// The sum as a block to permute in place: the one-block walk's
    /// `P(T ⊕ L)`, after which the sum is not used.
    #[cfg(any(test, not(elephant_batch)))]
    pub(super) fn block_mut(&mut self) -> &mut P::Block {
        &mut self.sum
    }
}

impl<P: Permutation> Drop for TagSum<P> {
    fn drop(&mut self) {
        // As a slice: one fill (the array form writes byte by byte).
        self.sum.as_mut().zeroize();
    }
}

/// `tag = trunc(P(T ⊕ L) ⊕ L)` from the permutation's result.
///
/// A word at a time at fixed offsets, written out (tags are 8 or 16
/// bytes; a loop would not be unrolled at opt-level "s"): the tag is then
/// a few registers that go straight to where the caller keeps it, not a
/// buffer copied there by a `memcpy` call.
#[inline(always)]
pub(super) fn tag_from<P: Permutation>(permuted: &P::Block, expanded_key: &P::Block) -> TagOf<P> {
    const {
        assert!(
            <P::TagSize as Unsigned>::USIZE <= 4 * TAG_WORDS,
            "the words cover the tag"
        );
    };
    let mut tag = TagOf::<P>::default();
    let (permuted, expanded_key) = (permuted.as_ref(), expanded_key.as_ref());
    let word_at = |bytes: &[u8], offset: usize| {
        bytes
            .get(offset..offset + 4)
            .and_then(|word| <[u8; 4]>::try_from(word).ok())
            .map(u32::from_ne_bytes)
    };
    let mut word = |offset: usize| {
        if let (Some(slot), Some(a), Some(b)) = (
            tag.get_mut(offset..offset + 4),
            word_at(permuted, offset),
            word_at(expanded_key, offset),
        ) {
            slot.copy_from_slice(&(a ^ b).to_ne_bytes());
        }
    };
    word(0);
    word(4);
    word(8);
    word(12);
    tag
}

/// Words in the longest tag, which [`tag_from`] writes out.
const TAG_WORDS: usize = 4;

/// Compares the expected tag with the received one in constant time and
/// wipes the expected tag (it would be a valid forgery if it leaked):
/// `0xff` if they match, `0` if not.
///
/// A mask, not a `bool`: opening writes `plaintext & mask` over
/// `output & !mask`, so no branch and no other work depends on it, and a
/// rejected message takes exactly as long as an accepted one. Only
/// [`verdict`] turns it into the caller's answer.
pub(super) fn accept_mask<P: Permutation>(expected: &mut TagOf<P>, received: &TagOf<P>) -> u8 {
    let matches = expected.as_slice().ct_eq(received.as_slice());
    expected.as_mut_slice().zeroize();
    matches.unwrap_u8().wrapping_neg()
}

/// The verdict for the caller: `Ok` for the mask of a matching tag.
///
/// The one place where the outcome of a tag comparison becomes a value the
/// caller may branch on (and learns anyway). The compiler may make this a
/// branch, the only one on a secret-derived value:
/// `tools/ct-check/verdict.supp` names this function, so keep the conversion
/// here.
#[inline(never)]
pub(crate) fn verdict(accept: u8) -> Result<()> {
    if accept == 0xff { Ok(()) } else { Err(Error) }
}

/// [`verdict`], running `then` only if it is `Ok`: for a long message on
/// all cores (feature `rayon`), whose parts decrypt in place only after the
/// tag matched. A branch on the verdict, in a function that
/// `tools/ct-check/verdict.supp` names.
#[cfg(feature = "rayon")]
#[inline(never)]
pub(crate) fn verdict_then(accept: u8, then: impl FnOnce()) -> Result<()> {
    if accept == 0xff {
        then();
        Ok(())
    } else {
        Err(Error)
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
    use crate::Spongent160;

    /// The padding always appends `01`, so a block-sized input takes two blocks.
    #[test]
    fn padding_adds_a_block_at_block_boundaries() {
        assert_eq!(padded_blocks::<Spongent160>(0), 1);
        assert_eq!(padded_blocks::<Spongent160>(19), 1);
        assert_eq!(padded_blocks::<Spongent160>(20), 2);
        assert_eq!(padded_blocks::<Spongent160>(39), 2);
        assert_eq!(padded_blocks::<Spongent160>(40), 3);
    }

    /// Every block of `data ‖ 01 ‖ 00…`, its bytes and padding put back
    /// together, against the concatenation written out.
    #[test]
    fn padded_blocks_match_the_concatenation() {
        for len in [0, 1, 7, 19, 20, 21, 39, 40, 45] {
            let data: Vec<u8> = (0..len as u8).map(|i| 0x80 | i).collect();
            let mut whole = [data.as_slice(), &[1]].concat();
            whole.resize(whole.len().div_ceil(20) * 20, 0);
            let blocks = padded_blocks::<Spongent160>(len);
            assert_eq!(blocks * 20, whole.len());
            for index in 0..blocks {
                let (bytes, padded) = padded_block_at::<Spongent160>(&data, index * 20);
                let mut block = bytes.to_vec();
                if padded {
                    block.push(1);
                }
                block.resize(20, 0);
                assert_eq!(block, whole[index * 20..][..20], "len {len} block {index}");
                assert_eq!(padded, index + 1 == blocks, "len {len} block {index}");
            }
        }
    }
}
