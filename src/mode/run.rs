//! A run of masked permutation inputs `x ⊕ masks`, collected so that the
//! permutation sees them all in one batched call.
//!
//! Counts on a run are at most `N`, so their arithmetic is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "counts on a run are at most N (see the module doc)"
)]

use super::xor::xor_words;
use crate::permutation::{Permutation, Tiers};
use zeroize::Zeroize;

/// Up to `N` permutation states: queued, evaluated in one batch, then
/// taken back in queue order.
///
/// Elephant removes each mask again after the call (`P(x ⊕ mask) ⊕ mask`);
/// the callers do that themselves, with the mask at hand, so that the run
/// keeps no copy of it. One run may be shared by many calls (the
/// multi-message API): each takes back exactly what it queued, in order.
pub(crate) struct Run<P: Permutation, const N: usize> {
    /// `x ⊕ masks` until [`Self::evaluate`], then `P(x ⊕ masks)`.
    states: [P::Block; N],
    /// How many states are queued.
    queued: usize,
    /// How many results were taken back since the last evaluation.
    taken: usize,
    /// Results kept at the front across steps ([`Self::hold_front`]).
    held: usize,
    /// How many slots ever held secrets, for [`Drop`].
    used: usize,
    /// The CPU's tiers, detected when the run (and so its call) started.
    tiers: Tiers,
}

impl<P: Permutation, const N: usize> Run<P, N> {
    /// An empty run, as a constant: a run built with `[P::Block::default();
    /// N]` was a loop of stores into a temporary and a copy into place in
    /// some builds, where a constant of zeros is one fill.
    const EMPTY: Self = Self {
        states: [P::ZERO_BLOCK; N],
        queued: 0,
        taken: 0,
        held: 0,
        used: 0,
        tiers: Tiers::PORTABLE,
    };

    /// An empty run, on the tiers this CPU has.
    pub(crate) fn new() -> Self {
        Self {
            tiers: Tiers::detect(),
            ..Self::EMPTY
        }
    }

    /// How many more states fit before the run must be evaluated.
    pub(super) fn room(&self) -> usize {
        N - self.queued
    }

    /// Queues `P(input ⊕ mask_a ⊕ mask_b)`; a shorter input or mask is
    /// zero-padded (pass an empty `mask_b` for a single mask). Only called
    /// with [`Self::room`] left.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn push(&mut self, input: &[u8], mask_a: &[u8], mask_b: &[u8]) {
        let slot = self.states.get_mut(self.queued);
        debug_assert!(slot.is_some(), "queued only with room left");
        if let Some(state) = slot {
            xor_words(state.as_mut(), false, [input, mask_a, mask_b]);
            self.queued += 1;
            self.used = self.used.max(self.queued);
        }
    }

    /// Queues a state that the caller writes whole: the next slot, to be
    /// overwritten (`None` only without [`Self::room`], which the callers
    /// never do).
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn push_slot(&mut self) -> Option<&mut P::Block> {
        debug_assert!(self.queued < N, "queued only with room left");
        let slot = self.states.get_mut(self.queued);
        if slot.is_some() {
            self.queued += 1;
            self.used = self.used.max(self.queued);
        }
        slot
    }

    /// Queues `count` states that the caller writes whole: the next
    /// `count` slots, to be overwritten (only called with that much
    /// [`Self::room`]).
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn push_slots(&mut self, count: usize) -> &mut [P::Block] {
        debug_assert!(count <= self.room(), "queued only with room left");
        let start = self.queued;
        let end = (start + count).min(N);
        self.queued = end;
        self.used = self.used.max(end);
        self.states.get_mut(start..end).unwrap_or_default()
    }

    /// Adds the padding's `01` byte at `at` to the state just queued.
    pub(super) fn pad_last(&mut self, at: usize) {
        let last = self.queued.checked_sub(1);
        let byte = last
            .and_then(|last| self.states.get_mut(last))
            .and_then(|state| state.as_mut().get_mut(at));
        debug_assert!(byte.is_some(), "the padding lies in the block");
        if let Some(byte) = byte {
            *byte ^= 0x01;
        }
    }

    /// Permutes every queued state in one batch; [`Self::take`] then gives
    /// the results in queue order.
    pub(crate) fn evaluate(&mut self) {
        // held <= queued <= N: states are held only once queued, and queued
        // only with room. A broken invariant panics here, never permutes
        // nothing in silence.
        P::permute_batch_on(self.tiers, &mut self.states[self.held..self.queued]);
        self.taken = self.held;
    }

    /// The next result of the last evaluation (`None` only if more is
    /// taken than was queued, which the callers never do).
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn take(&mut self) -> Option<&P::Block> {
        debug_assert!(self.taken < self.queued, "only what was queued is taken");
        let result = self.states.get(self.taken);
        self.taken += 1;
        result
    }

    /// [`Self::take`], for a caller that uses the state as its scratch
    /// space (it is wiped with the run).
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn take_mut(&mut self) -> Option<&mut P::Block> {
        debug_assert!(self.taken < self.queued, "only what was queued is taken");
        let result = self.states.get_mut(self.taken);
        self.taken += 1;
        result
    }

    /// The next `count` results of the last evaluation, as [`Self::take_mut`]
    /// one by one (only what was queued is taken).
    #[cfg_attr(elephant_batch, inline(always))]
    pub(super) fn take_slots(&mut self, count: usize) -> &mut [P::Block] {
        let start = self.taken;
        let end = (start + count).min(self.queued);
        debug_assert!(
            end.wrapping_sub(start) == count,
            "only what was queued is taken"
        );
        self.taken = end;
        self.states.get_mut(start..end).unwrap_or_default()
    }

    /// Keeps the next `count` results, at the front of the run (after
    /// those held before), for a later step: taken, and out of the
    /// evaluations until [`Self::release_held`]. (One call on a run of its
    /// own only, which queues them first in each step.)
    pub(super) fn hold_front(&mut self, count: usize) {
        debug_assert!(self.taken == self.held && count <= self.queued - self.held);
        self.held += count;
        self.taken += count;
    }

    /// Held result `index` (in the order they were held).
    pub(super) fn held_mut(&mut self, index: usize) -> Option<&mut P::Block> {
        debug_assert!(index < self.held);
        self.states.get_mut(index)
    }

    /// Ends holding: the held results go with the next [`Self::clear`].
    pub(super) fn release_held(&mut self) {
        self.held = 0;
    }

    /// Empties the run (but for held results) once every result was taken.
    pub(crate) fn clear(&mut self) {
        debug_assert_eq!(self.taken, self.queued, "every result was taken");
        self.queued = self.held;
        self.taken = self.held;
    }
}

impl<P: Permutation, const N: usize> Drop for Run<P, N> {
    fn drop(&mut self) {
        // Only the used prefix held secrets; clearing it keeps short calls
        // cheap.
        for state in self.states.iter_mut().take(self.used) {
            // As a slice: one fill (the array form writes byte by byte).
            state.as_mut().zeroize();
        }
    }
}
