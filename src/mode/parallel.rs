//! Long messages on all cores (feature `rayon`).
//!
//! Every keystream block and every term of the tag sum is independent of the
//! others, and the sum is a XOR: a long buffer is cut into parts of whole
//! blocks, each part is a [`Call::part`] on its own core from its own first
//! mask, and the parts' sums are XORed into the call that holds the
//! associated data and the tag. The output is bit for bit that of the
//! one-core path.
//!
//! Part counts and sizes come from the buffer's length, checked against the
//! limits at the entry: their arithmetic cannot overflow, and is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "part counts and sizes are bounded by the length limits (see the module doc)"
)]

extern crate alloc;

use super::call::Part;
use super::keystream::copied_in;
use super::{Call, NONCE_SIZE, RUN_BLOCKS, TagOf, run_to_end, tag, window_for};
use crate::permutation::Permutation;
use aead::Result;
use aead::inout::InOutBuf;
use alloc::vec::Vec;
use rayon::prelude::*;
use zeroize::Zeroize;

/// Blocks per part: 2048 blocks are 40–50 KiB, enough to amortise a task
/// and the walk to its first mask, small enough to balance two or more cores.
const PART_BLOCKS: usize = 2048;

/// Below this many bytes, starting tasks would cost more than they save.
const MIN_BYTES: usize = 64 * 1024;

/// The mask window of a part's call.
const WINDOW: usize = window_for(RUN_BLOCKS);

/// Whether a buffer of `len` bytes is split across cores.
pub(super) fn worth_it(len: usize) -> bool {
    len >= MIN_BYTES
}

/// The first mask of every part of `len` bytes: `mask_{k·PART_BLOCKS}`,
/// reached by stepping φ from `L` (one step per block, as the one-core path
/// does).
struct PartMasks<P: Permutation> {
    masks: Vec<P::Block>,
}

impl<P: Permutation> PartMasks<P> {
    fn new(expanded_key: &P::Block, len: usize) -> Self {
        let parts = len.div_ceil(part_bytes::<P>());
        let mut masks = Vec::with_capacity(parts);
        let mut mask = *expanded_key;
        for _ in 0..parts {
            masks.push(mask);
            // One bare φ per block: this walk runs on one core before the
            // tasks start, so it must cost far less than the blocks do.
            for _ in 0..PART_BLOCKS {
                mask = P::next_mask(&mask);
            }
        }
        mask.zeroize();
        Self { masks }
    }
}

impl<P: Permutation> Drop for PartMasks<P> {
    fn drop(&mut self) {
        for mask in &mut self.masks {
            mask.zeroize();
        }
    }
}

/// Bytes per part: whole blocks, so only the last part holds the padding.
fn part_bytes<P: Permutation>() -> usize {
    PART_BLOCKS * P::BLOCK_SIZE
}

/// Runs one part's call on this core (in a frame whose stack is cleared
/// afterwards) and returns its tag sum.
fn run_part<P: Permutation>(
    first_mask: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    part: Part<'_>,
    last: bool,
) -> P::Block {
    crate::scrub::in_worker(|| {
        let mut call = Call::<P, WINDOW>::part(first_mask, nonce, part, last);
        run_to_end::<P, RUN_BLOCKS, WINDOW>(&mut call);
        let mut sum = P::Block::default();
        sum.as_mut().copy_from_slice(call.sum());
        sum
    })
}

/// XORs the parts' sums together (and wipes them).
fn sum_of<P: Permutation>(sums: impl ParallelIterator<Item = P::Block>) -> P::Block {
    sums.reduce(P::Block::default, |mut sum, mut part| {
        for (s, p) in sum.as_mut().iter_mut().zip(part.as_ref()) {
            *s ^= p;
        }
        part.zeroize();
        sum
    })
}

/// [`super::encrypt`] on all cores.
pub(super) fn encrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> TagOf<P> {
    let data = copied_in(buffer);
    let starts = PartMasks::<P>::new(expanded_key, data.len());
    let parts = starts.masks.len();
    let mut sum = sum_of::<P>(
        data.par_chunks_mut(part_bytes::<P>())
            .zip(starts.masks.par_iter())
            .enumerate()
            .map(|(index, (part, first_mask))| {
                let last = index + 1 == parts;
                run_part::<P>(first_mask, nonce, Part::Seal(part), last)
            }),
    );
    let mut call =
        Call::<P, WINDOW>::associated_data_and_tag(expanded_key, nonce, associated_data, None);
    call.add_to_sum(sum.as_ref());
    sum.zeroize();
    run_to_end::<P, RUN_BLOCKS, WINDOW>(&mut call);
    call.tag()
}

/// [`super::decrypt`] on all cores: the tag terms, the verdict, then (only
/// if the tag matched) the keystream.
pub(super) fn decrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &TagOf<P>,
) -> Result<()> {
    let starts = PartMasks::<P>::new(expanded_key, buffer.len());
    let parts = starts.masks.len();
    let mut sum = sum_of::<P>(
        buffer
            .get_in()
            .par_chunks(part_bytes::<P>())
            .zip(starts.masks.par_iter())
            .enumerate()
            .map(|(index, (part, first_mask))| {
                let last = index + 1 == parts;
                run_part::<P>(first_mask, nonce, Part::Verify(part), last)
            }),
    );
    let mut call =
        Call::<P, WINDOW>::associated_data_and_tag(expanded_key, nonce, associated_data, Some(tag));
    call.add_to_sum(sum.as_ref());
    sum.zeroize();
    run_to_end::<P, RUN_BLOCKS, WINDOW>(&mut call);
    tag::verdict_then(call.accept_mask(), || {
        let data = copied_in(buffer);
        data.par_chunks_mut(part_bytes::<P>())
            .zip(starts.masks.par_iter())
            .enumerate()
            .for_each(|(index, (part, first_mask))| {
                let last = index + 1 == parts;
                run_part::<P>(first_mask, nonce, Part::Decrypt(part), last);
            });
    })
}
