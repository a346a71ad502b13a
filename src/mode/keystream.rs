//! The keystream: block `j` is `P(N‖0 ⊕ δ_j) ⊕ δ_j` with
//! `δ_j = mask_j ⊕ mask_{j+1}`, XORed into the message.
//!
//! Block counts come from slice lengths and the block size: their
//! arithmetic cannot overflow, and is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "block counts of slices and the block size (see the module doc)"
)]

use super::NONCE_SIZE;
use super::masks::MaskWindow;
use super::run::Run;
use super::xor::{xor_blocks_from_stream, xor_keystream_into};
use crate::permutation::Permutation;
use aead::inout::InOutBuf;

/// Writes `N ‖ 0…0` into `block`: the nonce as a whole block, so that the
/// keystream reads whole words.
pub(super) fn write_nonce_block<P: Permutation>(block: &mut P::Block, nonce: &[u8; NONCE_SIZE]) {
    let (head, tail) = block.as_mut().split_at_mut(NONCE_SIZE.min(P::BLOCK_SIZE));
    head.copy_from_slice(nonce.get(..head.len()).unwrap_or_default());
    tail.fill(0);
}

/// Queues `P(N‖0 ⊕ mask_j ⊕ mask_{j+1})`, keystream block `index`.
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn queue<P: Permutation, const N: usize, const W: usize>(
    run: &mut Run<P, N>,
    nonce: &P::Block,
    masks: &MaskWindow<P, W>,
    index: usize,
) {
    let [mask, next] = masks.keystream_masks(index);
    run.push(nonce.as_ref(), mask, next);
}

/// Queues keystream blocks `index .. index + count` (as [`queue`] each),
/// in one loop over the mask stream: a long message's steady state.
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn queue_blocks<P: Permutation, const N: usize, const W: usize>(
    run: &mut Run<P, N>,
    nonce: &P::Block,
    masks: &MaskWindow<P, W>,
    index: usize,
    count: usize,
) {
    let stream = masks.stream(index, count);
    let states = run.push_slots(count);
    // Window `j` starts with `mask_{index+j}`, and `mask_{index+j+1}` starts
    // at its second byte.
    let windows = stream.windows(P::BLOCK_SIZE + 1);
    let items = states
        .iter_mut()
        .zip(windows)
        .map(|(state, window)| (state.as_mut(), nonce.as_ref(), window));
    xor_blocks_from_stream(items, P::BLOCK_SIZE, 1);
}

/// Keystream blocks `index ..` into `blocks` (whole blocks of the message,
/// as many as its length holds), from the next results on the run:
/// `blocks ⊕= (P(N‖0 ⊕ δ_j) ⊕ δ_j) & accept` (`accept` as in
/// `Call::apply_keystream`), in one loop.
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn apply_blocks<P: Permutation, const N: usize, const W: usize>(
    run: &mut Run<P, N>,
    masks: &MaskWindow<P, W>,
    index: usize,
    blocks: &mut [u8],
    accept: u8,
) {
    let count = blocks.len() / P::BLOCK_SIZE;
    let stream = masks.stream(index, count);
    let results = run.take_slots(count);
    let windows = stream.windows(P::BLOCK_SIZE + 1);
    let items = blocks
        .chunks_exact_mut(P::BLOCK_SIZE)
        .zip(results.iter())
        .zip(windows)
        .map(|((block, result), window)| (block, result.as_ref(), window));
    xor_keystream_into(items, P::BLOCK_SIZE, accept);
}

/// The output side of `buffer`, holding the bytes of its input side: what
/// `InOutBuf::into_out_with_copied_in` gives, without its `memmove`, which
/// firmware would link (1.5 KB) only for this. In place (one slice for both
/// sides, the usual case) nothing is copied.
pub(super) fn copied_in<'out>(mut buffer: InOutBuf<'_, 'out, u8>) -> &'out mut [u8] {
    /// XORing zeros from the input side into the output side copies it.
    const ZEROS: [u8; 64] = [0; 64];
    let input = buffer.get_in().as_ptr();
    let output = buffer.get_out().as_ptr();
    if input != output {
        let mut rest = buffer.reborrow();
        while !rest.is_empty() {
            let take = rest.len().min(ZEROS.len());
            let (mut part, tail) = rest.split_at(take);
            part.xor_in2out(ZEROS.get(..take).unwrap_or_default());
            rest = tail;
        }
    }
    buffer.into_out()
}
