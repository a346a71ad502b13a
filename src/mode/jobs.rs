//! The Elephant walk, stated once: which permutations a message of given
//! (public) lengths needs, of what kind, and where each result goes.
//!
//! With blocks of `b` bytes, a message `M` (ciphertext `C`), associated
//! data `A` and the masks `mask_j`:
//! - keystream block `j < ⌈|M| / b⌉`: `P(N‖0 ⊕ δ_j) ⊕ δ_j` with `δ_j =
//!   mask_j ⊕ mask_{j+1}`, XORed into message block `j`;
//! - ciphertext term `j < 1 + ⌊|C| / b⌋` (`C ‖ 01 ‖ 00…`):
//!   `P(C_j ⊕ mask_j ⊕ mask_{j+2})` and its masks, added to the sum `T`;
//! - associated data term `1 ≤ j < 1 + ⌊(12 + |A|) / b⌋` (`N ‖ A ‖ 01 ‖
//!   00…`): `P(A_j ⊕ mask_j) ⊕ mask_j`, added to `T` (block 0 starts `T`);
//! - the tag `P(T ⊕ L) ⊕ L`, once every term is in.
//!
//! Two orders are fixed: sealing writes ciphertext block `j` before its
//! term is computed, and opening writes no keystream before the verdict.
//! Everything else is the driver's choice: [`super::Call`] (one message,
//! resumable, on a run it may share with others), [`super::lockstep`]
//! (packets of a block or two in fixed stages) and `super::sequential`
//! (one block at a time, firmware) are orderings of these jobs.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "counts of blocks of slices (at most isize::MAX bytes)"
)]

use super::NONCE_SIZE;
use super::tag::padded_blocks;
use crate::permutation::Permutation;

/// How many jobs of each kind a message (or a part of one) takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Jobs {
    /// Keystream blocks: `⌈|M| / b⌉`.
    pub(super) keystream: usize,
    /// Ciphertext terms: `1 + ⌊|C| / b⌋` for a message's end (the
    /// padding), `|C| / b` for a part of whole blocks.
    pub(super) terms: usize,
    /// Padded blocks of `N ‖ A` (0 for a part without associated data);
    /// the terms are those of blocks `1 ..`.
    pub(super) associated_data: usize,
    /// Whole blocks of the message, `⌊|M| / b⌋`: those the loops over many
    /// blocks take; a partial last block goes on its own.
    pub(super) whole: usize,
}

impl Jobs {
    /// A whole message of `message_len` bytes with `associated_data_len`
    /// bytes of associated data (lengths within the limits).
    pub(super) fn of<P: Permutation>(associated_data_len: usize, message_len: usize) -> Self {
        Self {
            keystream: message_len.div_ceil(P::BLOCK_SIZE),
            terms: padded_blocks::<P>(message_len),
            associated_data: padded_blocks::<P>(NONCE_SIZE + associated_data_len),
            whole: message_len / P::BLOCK_SIZE,
        }
    }

    /// [`Self::of`] for a message and an `N ‖ A` under two blocks each (the
    /// packets that go in lockstep), by comparisons: a few instructions
    /// where the divisions take a dozen, for jobs counted anew at each of
    /// the lockstep's stages.
    #[inline(always)]
    pub(super) fn of_short<P: Permutation>(associated_data_len: usize, message_len: usize) -> Self {
        let whole = usize::from(message_len >= P::BLOCK_SIZE);
        let jobs = Self {
            keystream: usize::from(message_len > 0) + usize::from(message_len > P::BLOCK_SIZE),
            terms: 1 + whole,
            associated_data: 1 + usize::from(NONCE_SIZE + associated_data_len >= P::BLOCK_SIZE),
            whole,
        };
        debug_assert!(
            message_len < 2 * P::BLOCK_SIZE && NONCE_SIZE + associated_data_len < 2 * P::BLOCK_SIZE
        );
        debug_assert_eq!(jobs, Self::of::<P>(associated_data_len, message_len));
        jobs
    }

    /// Nothing to do.
    pub(super) const NONE: Self = Self {
        keystream: 0,
        terms: 0,
        associated_data: 0,
        whole: 0,
    };
}

/// What one step of a driver queued: one segment per kind, in the order
/// they go on the run (the tag, the keystream, the ciphertext terms, the
/// associated data terms), so that the results are taken back by reading
/// it, not by redoing the step's decisions. A step of the walk queues no
/// tag; the tag's step no terms.
#[derive(Clone, Copy, Debug)]
pub(super) struct SegmentLog {
    /// Whether the tag was queued.
    pub(super) tag: bool,
    /// The first keystream block queued.
    pub(super) keystream_first: usize,
    /// Keystream blocks queued.
    pub(super) keystream: usize,
    /// Whether those stay on the run until the verdict (opening in one
    /// step).
    pub(super) held: bool,
    /// Ciphertext terms queued.
    pub(super) terms: usize,
    /// Associated data terms queued.
    pub(super) associated_data_terms: usize,
}

impl SegmentLog {
    /// Nothing queued.
    pub(super) const EMPTY: Self = Self {
        tag: false,
        keystream_first: 0,
        keystream: 0,
        held: false,
        terms: 0,
        associated_data_terms: 0,
    };
}
