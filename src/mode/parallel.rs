//! Long messages on all cores (feature `rayon`).
//!
//! Every keystream block and every term of the tag sum is independent of the
//! others, and the sum is a XOR: a long buffer is cut into chunks of whole
//! blocks, each chunk is processed by its own task from its own first mask,
//! and the partial sums are XORed together. The output is bit for bit that
//! of the one-core path.

extern crate alloc;

use super::{MaskedRun, NONCE_SIZE, RUN_BLOCKS, TagAccumulator, absorb_ciphertext};
use crate::permutation::Permutation;
use alloc::vec::Vec;
use rayon::prelude::*;
use zeroize::Zeroize;

/// Blocks per task: 2048 blocks are 40–50 KiB, enough to amortise a task
/// and the walk to its first mask, small enough to balance two or more cores.
const CHUNK_BLOCKS: usize = 2048;

/// Below this many bytes, starting tasks would cost more than they save.
const MIN_BYTES: usize = 64 * 1024;

/// Whether a buffer of `len` bytes is split across cores.
pub(super) fn worth_it(len: usize) -> bool {
    len >= MIN_BYTES
}

/// The first mask of every chunk of `len` bytes: `mask_{k·CHUNK_BLOCKS}`,
/// reached by stepping φ from `L` (one step per block, as the one-core path
/// does).
struct ChunkMasks<P: Permutation> {
    masks: Vec<P::Block>,
}

impl<P: Permutation> ChunkMasks<P> {
    fn new(expanded_key: &P::Block, len: usize) -> Self {
        let chunks = len.div_ceil(chunk_bytes::<P>());
        let mut masks = Vec::with_capacity(chunks);
        let mut mask = *expanded_key;
        for _ in 0..chunks {
            masks.push(mask);
            // One bare φ per block: this walk runs on one core before the
            // tasks start, so it must cost far less than the blocks do.
            for _ in 0..CHUNK_BLOCKS {
                mask = P::next_mask(&mask);
            }
        }
        mask.zeroize();
        Self { masks }
    }
}

impl<P: Permutation> Drop for ChunkMasks<P> {
    fn drop(&mut self) {
        for mask in &mut self.masks {
            mask.zeroize();
        }
    }
}

/// Bytes per chunk: whole blocks, so only the last chunk holds the padding.
fn chunk_bytes<P: Permutation>() -> usize {
    CHUNK_BLOCKS.saturating_mul(P::BLOCK_SIZE)
}

/// The keystream over the whole of `data`, chunk by chunk on all cores.
pub(super) fn apply_keystream<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    data: &mut [u8],
) {
    let starts = ChunkMasks::<P>::new(expanded_key, data.len());
    data.par_chunks_mut(chunk_bytes::<P>())
        .zip(starts.masks.par_iter())
        .for_each(|(chunk, first_mask)| {
            crate::scrub::in_worker(|| {
                let mut run = MaskedRun::<P, RUN_BLOCKS>::new();
                super::apply_keystream(first_mask, nonce, &mut run, chunk);
            });
        });
}

/// Adds the ciphertext's blocks to the tag sum, chunk by chunk on all cores.
pub(super) fn absorb_ciphertext_on_all_cores<P: Permutation>(
    tag: &mut TagAccumulator<P>,
    expanded_key: &P::Block,
    ciphertext: &[u8],
) {
    let starts = ChunkMasks::<P>::new(expanded_key, ciphertext.len());
    let chunks = starts.masks.len();
    let sum = ciphertext
        .par_chunks(chunk_bytes::<P>())
        .zip(starts.masks.par_iter())
        .enumerate()
        .map(|(index, (chunk, first_mask))| {
            crate::scrub::in_worker(|| {
                let mut part = TagAccumulator::<P>::new();
                let mut run = MaskedRun::<P, RUN_BLOCKS>::new();
                let last = index.saturating_add(1) == chunks;
                absorb_ciphertext(&mut part, &mut run, first_mask, chunk, last);
                part.absorb(&mut run);
                part
            })
        })
        .reduce(TagAccumulator::new, |mut sum, part| {
            sum.merge(&part);
            sum
        });
    tag.merge(&sum);
}
