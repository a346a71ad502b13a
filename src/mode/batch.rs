//! Many messages on one run: the scheduler behind [`crate::batch`].
//!
//! Up to `WAVE` calls are in flight at once, each one message's
//! [`Call`]. Each step queues the ready permutation inputs of every call
//! in flight on one shared [`Run`] (keystream, tag terms and tags of
//! different messages side by side), evaluates it as one batch, and hands
//! each call its results; a call that finishes makes room for the next
//! message. So short messages, whose own steps hold one or two blocks,
//! fill the SIMD width together.

use super::{Call, Run, TagOf, tag, window_for};
use crate::permutation::Permutation;
use aead::Result;

/// Blocks a message may queue per step: its mask window holds two such
/// runs (see [`window_for`]). Short messages queue fewer; a long one takes
/// more steps, which other messages fill.
const MESSAGE_RUN: usize = if cfg!(target_pointer_width = "64") {
    16
} else {
    1
};

/// The mask window of each message in flight.
pub(crate) const WINDOW: usize = window_for(MESSAGE_RUN);

/// One message of a batch call: its call, and where its results go.
pub(crate) struct Job<'p, P: Permutation> {
    call: Call<'p, P, WINDOW>,
    /// Sealing: where the tag goes (`None` when opening).
    tag: Option<&'p mut TagOf<P>>,
    outcome: &'p mut Result<()>,
}

impl<'p, P: Permutation> Job<'p, P> {
    /// A message to seal: its tag goes to `tag`, `Ok` to `outcome`.
    pub(crate) fn seal(
        call: Call<'p, P, WINDOW>,
        tag: &'p mut TagOf<P>,
        outcome: &'p mut Result<()>,
    ) -> Self {
        Self {
            call,
            tag: Some(tag),
            outcome,
        }
    }

    /// A message to open: its verdict goes to `outcome`.
    pub(crate) fn open(call: Call<'p, P, WINDOW>, outcome: &'p mut Result<()>) -> Self {
        Self {
            call,
            tag: None,
            outcome,
        }
    }

    /// Writes the results of a finished call; returns its accept mask
    /// (`0xff` for a sealed message).
    fn finish(self) -> u8 {
        match self.tag {
            Some(tag) => {
                *tag = self.call.tag();
                *self.outcome = Ok(());
                0xff
            }
            None => {
                let accept = self.call.accept_mask();
                *self.outcome = tag::verdict(accept);
                accept
            }
        }
    }
}

/// Runs every job to its end, up to `WAVE` at once on a run of `RUN`
/// blocks; returns the AND of their accept masks (`0xff` if every tag
/// matched).
pub(crate) fn drive_all<'p, P: Permutation, const WAVE: usize, const RUN: usize>(
    mut jobs: impl Iterator<Item = Job<'p, P>>,
) -> u8 {
    let mut flights: [Option<Job<'p, P>>; WAVE] = core::array::from_fn(|_| None);
    let mut run = Run::<P, RUN>::new();
    let mut accept = 0xff;
    let mut more = true;
    loop {
        let mut in_flight = false;
        for slot in &mut flights {
            if slot.is_none() && more {
                *slot = jobs.next();
                more = slot.is_some();
            }
            if let Some(job) = slot {
                job.call.queue(&mut run);
                in_flight = true;
            }
        }
        if !in_flight {
            return accept;
        }
        run.evaluate();
        for slot in &mut flights {
            if let Some(job) = slot {
                job.call.take(&mut run);
                if job.call.is_done() {
                    if let Some(job) = slot.take() {
                        accept &= job.finish();
                    }
                }
            }
        }
        run.clear();
    }
}
