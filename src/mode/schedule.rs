//! Many messages on one run: the scheduler behind [`crate::batch`] for
//! the packets that do not go in lockstep ([`super::lockstep`]).
//!
//! Up to `WAVE` calls are in flight at once, each one message's
//! [`Call`]. Each step queues the ready permutation inputs of every call
//! in flight on one shared [`Run`] (keystream, tag terms and tags of
//! different messages side by side), evaluates it as one batch, and hands
//! each call its results; a call that finishes makes room for the next
//! message. So short messages, whose own steps hold one or two blocks,
//! fill the SIMD width together.

#[cfg(doc)]
use super::window_for;
use super::{Call, NONCE_SIZE, Run, TagOf, tag};
use crate::permutation::Permutation;
use aead::Result;

/// One message of a multi-message call, as the caller hands it over.
pub(crate) struct Message<'p, P: Permutation> {
    pub(crate) expanded_key: &'p P::Block,
    pub(crate) nonce: &'p [u8; NONCE_SIZE],
    pub(crate) associated_data: &'p [u8],
    pub(crate) buffer: &'p mut [u8],
    pub(crate) tag: TagSlot<'p, P>,
    pub(crate) outcome: &'p mut Result<()>,
}

/// A message's tag: written when sealing, checked when opening.
pub(crate) enum TagSlot<'p, P: Permutation> {
    Seal(&'p mut TagOf<P>),
    Open(&'p TagOf<P>),
}

/// A slot for a message in flight: its call, and where its results go.
struct Slot<'p, P: Permutation, const W: usize> {
    call: Call<'p, P, W>,
    /// Sealing: where the tag goes.
    tag: Option<&'p mut TagOf<P>>,
    /// Where the outcome goes; `None` while the slot is free.
    outcome: Option<&'p mut Result<()>>,
}

impl<'p, P: Permutation, const W: usize> Slot<'p, P, W> {
    /// Starts `message`'s call in this slot, in place.
    #[inline(always)]
    fn start(&mut self, message: Message<'p, P>) {
        let Message {
            expanded_key,
            nonce,
            associated_data,
            buffer,
            tag,
            outcome,
        } = message;
        match tag {
            TagSlot::Seal(tag) => {
                self.call
                    .begin_seal(expanded_key, nonce, associated_data, buffer.into());
                self.tag = Some(tag);
            }
            TagSlot::Open(tag) => {
                self.call.begin_open(
                    expanded_key,
                    nonce,
                    associated_data,
                    buffer.into(),
                    tag,
                    false,
                );
                self.tag = None;
            }
        }
        self.outcome = Some(outcome);
    }

    /// Writes the results of a finished call and frees the slot; returns
    /// the call's accept mask (`0xff` for a sealed message).
    fn finish(&mut self) -> u8 {
        let accept = match self.tag.take() {
            Some(tag) => {
                *tag = self.call.tag();
                0xff
            }
            None => self.call.accept_mask(),
        };
        if let Some(outcome) = self.outcome.take() {
            *outcome = tag::verdict(accept);
        }
        accept
    }
}

/// Runs every message to its end, up to `WAVE` at once on a run of `RUN`
/// blocks, each with a mask window of `W` bytes (which bounds how many of
/// its blocks go into one step: see [`window_for`]); returns the AND of
/// their accept masks (`0xff` if every tag matched).
// A frame of its own: a multi-message call holds one configuration's
// slots at a time on its stack.
#[inline(never)]
pub(crate) fn interleave<
    'p,
    P: Permutation,
    const WAVE: usize,
    const RUN: usize,
    const W: usize,
>(
    mut messages: impl Iterator<Item = Message<'p, P>>,
) -> u8 {
    // Empty slots cost nothing to make; a slot gets its call when it is
    // first used, and keeps it for the messages after.
    let mut slots: [Option<Slot<'p, P, W>>; WAVE] = [const { None }; WAVE];
    let mut run = Run::<P, RUN>::new();
    let mut accept = 0xff;
    let mut more = true;
    loop {
        let mut in_flight = false;
        for entry in &mut slots {
            let free = entry.as_ref().is_none_or(|slot| slot.outcome.is_none());
            if free && more {
                match messages.next() {
                    Some(message) => {
                        let slot = entry.get_or_insert_with(|| Slot {
                            call: Call::idle(message.expanded_key),
                            tag: None,
                            outcome: None,
                        });
                        slot.start(message);
                    }
                    None => more = false,
                }
            }
            if let Some(slot) = entry.as_mut().filter(|slot| slot.outcome.is_some()) {
                slot.call.queue(&mut run);
                in_flight = true;
            }
        }
        if !in_flight {
            return accept;
        }
        run.evaluate();
        for slot in slots.iter_mut().flatten() {
            if slot.outcome.is_some() {
                slot.call.take(&mut run);
                if slot.call.is_done() {
                    accept &= slot.finish();
                }
            }
        }
        run.clear();
    }
}
