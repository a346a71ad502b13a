//! The tag: padding, the running sum `T`, finalisation, and the verdict.

use super::TagOf;
use super::masks::MaskWindow;
use super::run::Run;
use super::xor::{xor_into, xor_words};
use crate::permutation::Permutation;
use aead::{Error, Result};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// How many blocks `len` bytes take once padded with `01 ‖ 00…`: the
/// padding always adds the `01` byte, so `1 + ⌊len / block⌋`.
pub(super) fn padded_blocks<P: Permutation>(len: usize) -> usize {
    len.checked_div(P::BLOCK_SIZE)
        .unwrap_or_default()
        .saturating_add(1)
}

/// Block `index` of `head ‖ tail ‖ 01 ‖ 00…`.
pub(super) fn padded_block<P: Permutation>(head: &[u8], tail: &[u8], index: usize) -> P::Block {
    let mut block = P::Block::default();
    write_padded_block::<P>(&mut block, head, tail, index);
    block
}

/// [`padded_block`], written into `block`.
fn write_padded_block<P: Permutation>(
    block: &mut P::Block,
    head: &[u8],
    tail: &[u8],
    index: usize,
) {
    block.as_mut().fill(0);
    let start = index.saturating_mul(P::BLOCK_SIZE);
    let end = start.saturating_add(P::BLOCK_SIZE);
    let mut part_start = 0usize;
    for part in [head, tail] {
        let part_end = part_start.saturating_add(part.len());
        let (from, to) = (start.max(part_start), end.min(part_end));
        if from < to {
            // Cannot wrap: `from` is at least `part_start` and `start`.
            let source = part.get(from.wrapping_sub(part_start)..to.wrapping_sub(part_start));
            let target = (block.as_mut()).get_mut(from.wrapping_sub(start)..to.wrapping_sub(start));
            if let (Some(target), Some(source)) = (target, source) {
                target.copy_from_slice(source);
            }
        }
        part_start = part_end;
    }
    if let Some(pad) = part_start
        .checked_sub(start)
        .and_then(|at| block.as_mut().get_mut(at))
    {
        *pad = 0x01;
    }
}

/// The running tag sum `T`, cleared on drop.
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
    pub(super) fn start(&mut self, nonce: &[u8], associated_data: &[u8]) {
        write_padded_block::<P>(&mut self.sum, nonce, associated_data, 0);
    }

    /// `T = 0` (a part of a message, whose sum is merged later).
    pub(super) fn clear(&mut self) {
        self.sum = P::Block::default();
    }

    /// `T ^= block`: a permutation's result, or a part's sum.
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    pub(super) fn add(&mut self, block: &[u8]) {
        xor_into(self.sum.as_mut(), block);
    }

    /// `T ^= mask_a ⊕ mask_b`: the masks of a term, added when it is queued.
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    pub(super) fn add_masks(&mut self, mask_a: &[u8], mask_b: &[u8]) {
        xor_words(self.sum.as_mut(), true, [mask_a, mask_b]);
    }

    /// Queues the term of `input` with mask `i` (`mask_b` unused, as for
    /// the associated data) or masks `i` and `i + 2` (the ciphertext).
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    pub(super) fn queue_term<const N: usize, const W: usize>(
        &mut self,
        run: &mut Run<P, N>,
        masks: &MaskWindow<P, W>,
        input: &[u8],
        index: usize,
        ciphertext: bool,
    ) {
        let mask_a = masks.mask(index);
        let mask_b = if ciphertext {
            masks.mask(index.saturating_add(2))
        } else {
            &[]
        };
        run.push(input, mask_a, mask_b);
        self.add_masks(mask_a, mask_b);
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
}

impl<P: Permutation> Drop for TagSum<P> {
    fn drop(&mut self) {
        self.sum.zeroize();
    }
}

/// `tag = trunc(P(T ⊕ L) ⊕ L)` from the permutation's result.
pub(super) fn tag_from<P: Permutation>(permuted: &P::Block, expanded_key: &P::Block) -> TagOf<P> {
    let mut tag = TagOf::<P>::default();
    for ((t, p), l) in tag
        .iter_mut()
        .zip(permuted.as_ref())
        .zip(expanded_key.as_ref())
    {
        *t = p ^ l;
    }
    tag
}

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
/// `ct-check/verdict.supp` names this function, so keep the conversion
/// here.
#[inline(never)]
pub(crate) fn verdict(accept: u8) -> Result<()> {
    if accept == 0xff { Ok(()) } else { Err(Error) }
}

/// [`verdict`], running `then` only if it is `Ok`: for a long message on
/// all cores (feature `rayon`), whose parts decrypt in place only after the
/// tag matched. A branch on the verdict, in a function that
/// `ct-check/verdict.supp` names.
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

    /// Every block of `head ‖ tail ‖ 01 ‖ 00…` against the concatenation
    /// written out, for heads and tails around the block size.
    #[test]
    fn padded_blocks_match_the_concatenation() {
        for head_len in [0, 1, 12, 19, 20, 21] {
            for tail_len in [0, 1, 7, 8, 19, 20, 27, 28, 45] {
                let head: Vec<u8> = (0..head_len as u8).map(|i| i + 1).collect();
                let tail: Vec<u8> = (0..tail_len as u8).map(|i| 0x80 | i).collect();
                let mut whole = [head.as_slice(), tail.as_slice(), &[1]].concat();
                whole.resize(whole.len().div_ceil(20) * 20, 0);
                let blocks = padded_blocks::<Spongent160>(head_len + tail_len);
                assert_eq!(blocks * 20, whole.len());
                for index in 0..blocks {
                    assert_eq!(
                        padded_block::<Spongent160>(&head, &tail, index),
                        whole[index * 20..][..20],
                        "head {head_len} tail {tail_len} block {index}"
                    );
                }
            }
        }
    }
}
