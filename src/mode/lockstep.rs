//! Short messages in lockstep: the multi-message call's fast path for
//! packets of a block or two.
//!
//! A short message is a fixed, tiny schedule of permutations, the same for
//! every such packet: sealing is keystream (and the second associated data
//! block's term), then the ciphertext's tag terms, then the tag; opening is
//! the tag terms, then the tag with the keystream. The general scheduler
//! ([`super::batch`]) finds that out anew for every packet at every step
//! (about half of a 16-byte packet's instructions went there); here a wave
//! of packets goes through the stages one after the other, each stage one
//! loop over the packets that fills one shared [`Run`], evaluated as one
//! batch. Each packet keeps only its masks and its tag sum between stages.
//!
//! Which packets qualify ([`fits`]) depends on their lengths only, which
//! are public; everything else is the same work for every packet.

use super::batch::{Message, TagSlot};
use super::keystream::{self, write_nonce_block};
use super::masks::MaskWindow;
use super::run::Run;
use super::tag::{self, TagSum, padded_blocks};
use super::xor::{xor_masked, xor_words};
use super::{NONCE_SIZE, TagOf};
use crate::permutation::Permutation;

/// Blocks a packet may take for its message (and for its nonce and
/// associated data) to go in lockstep: up to two of each, so at most three
/// permutations per packet in any stage.
const MAX_BLOCKS: usize = 2;

/// Permutation inputs a packet puts into one stage, at most: sealing's
/// first stage (two keystream blocks and the second associated data
/// block), or opening's first (two tag terms and that block) or second
/// (the tag and two keystream blocks).
const MAX_PER_STAGE: usize = 3;

/// Mask window of a packet: `mask_0 … mask_3` (the last tag term's
/// `mask_{j+2}`), with room to spare ([`MaskWindow`] needs more than a
/// block, its lookahead and a step).
const WINDOW: usize = 32;

/// Whether a packet with these (public) lengths goes in lockstep: its
/// message and its `nonce ‖ associated data ‖ 01` take at most
/// [`MAX_BLOCKS`] blocks each.
pub(crate) fn fits<P: Permutation>(associated_data_len: usize, message_len: usize) -> bool {
    let limit = MAX_BLOCKS.saturating_mul(P::BLOCK_SIZE);
    message_len < limit && NONCE_SIZE.saturating_add(associated_data_len) < limit
}

/// A packet's blocks (public: from its lengths).
#[derive(Clone, Copy)]
struct Shape {
    /// Keystream blocks, `⌈|M| / block⌉`.
    keystream: usize,
    /// Ciphertext tag terms, `1 + ⌊|M| / block⌋` (the padding).
    terms: usize,
    /// Whether `nonce ‖ A ‖ 01` takes a second block, whose term is queued
    /// (the first starts the sum).
    second_associated_data_block: bool,
}

impl Shape {
    /// The blocks of `message`.
    fn of<P: Permutation>(message: &Message<'_, P>) -> Self {
        let len = message.buffer.len();
        let associated_data_blocks =
            padded_blocks::<P>(NONCE_SIZE.saturating_add(message.associated_data.len()));
        debug_assert!(fits::<P>(message.associated_data.len(), len));
        Self {
            keystream: len.div_ceil(P::BLOCK_SIZE),
            terms: padded_blocks::<P>(len),
            second_associated_data_block: associated_data_blocks > 1,
        }
    }
}

/// The packets of one wave, up to `WAVE`, and what each keeps between
/// stages; the run holds `STATES` (at least [`MAX_PER_STAGE`] per packet).
/// Masks, sums and run are wiped when it is dropped.
pub(crate) struct Lockstep<'p, P: Permutation, const WAVE: usize, const STATES: usize> {
    messages: [Option<Message<'p, P>>; WAVE],
    masks: [MaskWindow<P, WINDOW>; WAVE],
    sums: [TagSum<P>; WAVE],
    run: Run<P, STATES>,
}

impl<'p, P: Permutation, const WAVE: usize, const STATES: usize> Lockstep<'p, P, WAVE, STATES> {
    /// Room for a wave.
    pub(crate) fn new() -> Self {
        const {
            assert!(
                STATES >= WAVE.saturating_mul(MAX_PER_STAGE),
                "a stage fits on the run"
            );
            assert!(
                WINDOW > P::BLOCK_SIZE.saturating_add(MAX_BLOCKS + 1),
                "the window holds mask_{{terms + 1}}"
            );
        }
        Self {
            messages: [const { None }; WAVE],
            masks: core::array::from_fn(|_| MaskWindow::new()),
            sums: core::array::from_fn(|_| TagSum::new()),
            run: Run::new(),
        }
    }

    /// Seals or opens every message (each must [`fit`](fits)), `WAVE` at
    /// a time; returns the AND of their accept masks (`0xff` if every tag
    /// matched).
    pub(crate) fn drive(&mut self, mut messages: impl Iterator<Item = Message<'p, P>>) -> u8 {
        let mut accept = 0xff;
        loop {
            let mut count = 0usize;
            for (slot, message) in self.messages.iter_mut().zip(&mut messages) {
                *slot = Some(message);
                count = count.saturating_add(1);
            }
            if count == 0 {
                return accept;
            }
            accept &= self.wave(count);
            if count < WAVE {
                return accept;
            }
        }
    }

    /// Runs the first `count` messages (all sealing or all opening).
    fn wave(&mut self, count: usize) -> u8 {
        let sealing = matches!(
            self.messages.first(),
            Some(Some(Message {
                tag: TagSlot::Seal(_),
                ..
            }))
        );
        self.start(count, sealing);
        self.run.evaluate();
        if sealing {
            self.encrypt(count);
            self.run.evaluate();
            self.take_terms_and_queue_tags(count);
            self.run.evaluate();
            self.write_tags(count);
            0xff
        } else {
            self.take_terms_and_queue_tags(count);
            self.run.evaluate();
            self.verify_and_decrypt(count)
        }
    }

    /// Every packet's start: its masks and the sum `T = A_0`, and the
    /// first stage: the keystream (sealing) or the ciphertext's tag terms
    /// (opening), and the second associated data block's term.
    fn start(&mut self, count: usize, sealing: bool) {
        let lanes = self
            .messages
            .iter()
            .zip(&mut self.masks)
            .zip(&mut self.sums)
            .take(count);
        for ((message, masks), sum) in lanes {
            let Some(message) = message else { continue };
            let shape = Shape::of(message);
            masks.restart(message.expanded_key);
            masks.prepare(0, shape.terms);
            sum.start(message.nonce, message.associated_data);
            if sealing {
                let mut nonce = P::Block::default();
                write_nonce_block::<P>(&mut nonce, message.nonce);
                for index in 0..shape.keystream {
                    keystream::queue(&mut self.run, &nonce, masks, index);
                }
            } else {
                for index in 0..shape.terms {
                    let start = index.saturating_mul(P::BLOCK_SIZE);
                    sum.queue_term(&mut self.run, masks, (message.buffer, start), index, true);
                }
            }
            if shape.second_associated_data_block {
                let start = P::BLOCK_SIZE.saturating_sub(NONCE_SIZE);
                let data = (message.associated_data, start);
                sum.queue_term(&mut self.run, masks, data, 1, false);
            }
        }
    }

    /// Sealing's second stage: takes the keystream and the associated data
    /// terms, writes the ciphertext, then queues its tag terms.
    fn encrypt(&mut self, count: usize) {
        let lanes = self
            .messages
            .iter_mut()
            .zip(&self.masks)
            .zip(&mut self.sums)
            .take(count);
        for ((message, masks), sum) in lanes {
            let Some(message) = message else { continue };
            let shape = Shape::of(message);
            for (index, block) in message
                .buffer
                .chunks_mut(P::BLOCK_SIZE)
                .enumerate()
                .take(shape.keystream)
            {
                if let Some(keystream) = self.run.take() {
                    let sources = [
                        keystream.as_ref(),
                        masks.mask(index),
                        masks.mask(index.saturating_add(1)),
                    ];
                    xor_words(block, true, sources);
                }
            }
            if shape.second_associated_data_block {
                if let Some(term) = self.run.take() {
                    sum.add(term.as_ref());
                }
            }
        }
        self.run.clear();
        let lanes = self
            .messages
            .iter()
            .zip(&self.masks)
            .zip(&mut self.sums)
            .take(count);
        for ((message, masks), sum) in lanes {
            let Some(message) = message else { continue };
            for index in 0..Shape::of(message).terms {
                let start = index.saturating_mul(P::BLOCK_SIZE);
                sum.queue_term(&mut self.run, masks, (message.buffer, start), index, true);
            }
        }
    }

    /// Takes the tag terms of the stage just evaluated (sealing: the
    /// ciphertext's; opening: the ciphertext's and the associated data's),
    /// then queues each tag `P(T ⊕ L)` and, opening, its keystream.
    fn take_terms_and_queue_tags(&mut self, count: usize) {
        let lanes = self.messages.iter().zip(&mut self.sums).take(count);
        for (message, sum) in lanes {
            let Some(message) = message else { continue };
            let shape = Shape::of(message);
            let terms = if message_is_sealed(message) {
                shape.terms
            } else {
                shape
                    .terms
                    .saturating_add(usize::from(shape.second_associated_data_block))
            };
            for _ in 0..terms {
                if let Some(term) = self.run.take() {
                    sum.add(term.as_ref());
                }
            }
        }
        self.run.clear();
        let lanes = self
            .messages
            .iter()
            .zip(&self.masks)
            .zip(&self.sums)
            .take(count);
        for ((message, masks), sum) in lanes {
            let Some(message) = message else { continue };
            sum.queue_final(&mut self.run, message.expanded_key);
            if !message_is_sealed(message) {
                let mut nonce = P::Block::default();
                write_nonce_block::<P>(&mut nonce, message.nonce);
                for index in 0..Shape::of(message).keystream {
                    keystream::queue(&mut self.run, &nonce, masks, index);
                }
            }
        }
    }

    /// Sealing's end: every tag `trunc(P(T ⊕ L) ⊕ L)`.
    fn write_tags(&mut self, count: usize) {
        for message in self.messages.iter_mut().take(count) {
            let Some(message) = message.take() else {
                continue;
            };
            if let (Some(permuted), TagSlot::Seal(tag)) = (self.run.take(), message.tag) {
                tag::tag_from::<P>(tag, permuted, message.expanded_key);
                *message.outcome = Ok(());
            }
        }
        self.run.clear();
    }

    /// Opening's end: each tag compared, and each keystream block written
    /// through the verdict's mask (plaintext if the tag matched, the
    /// ciphertext's own bytes if not, with no branch on it); returns the
    /// AND of the accept masks.
    fn verify_and_decrypt(&mut self, count: usize) -> u8 {
        let mut all = 0xff;
        let lanes = self.messages.iter_mut().zip(&self.masks).take(count);
        for (message, masks) in lanes {
            let Some(message) = message.take() else {
                continue;
            };
            let shape = Shape::of(&message);
            let mut accept = 0;
            if let (Some(permuted), TagSlot::Open(received)) = (self.run.take(), message.tag) {
                let mut expected = TagOf::<P>::default();
                tag::tag_from::<P>(&mut expected, permuted, message.expanded_key);
                accept = tag::accept_mask::<P>(&mut expected, received);
            }
            for (index, block) in message
                .buffer
                .chunks_mut(P::BLOCK_SIZE)
                .enumerate()
                .take(shape.keystream)
            {
                if let Some(keystream) = self.run.take() {
                    let sources = [
                        keystream.as_ref(),
                        masks.mask(index),
                        masks.mask(index.saturating_add(1)),
                    ];
                    xor_masked(block, sources, accept);
                }
            }
            *message.outcome = tag::verdict(accept);
            all &= accept;
        }
        self.run.clear();
        all
    }
}

/// Whether `message` is being sealed (else opened).
fn message_is_sealed<P: Permutation>(message: &Message<'_, P>) -> bool {
    matches!(message.tag, TagSlot::Seal(_))
}
