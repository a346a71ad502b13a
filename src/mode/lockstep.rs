//! Short messages in lockstep: the multi-message call's fast path for
//! packets of a block or two.
//!
//! A short message is a fixed, tiny schedule of permutations, the same for
//! every such packet: sealing is the keystream (with the term of the
//! second block of `nonce ‖ associated data`, if any), then the
//! ciphertext's tag terms, then the tag; opening is the tag terms, then the
//! tag with the keystream. The general scheduler ([`super::batch`]) works
//! that out anew for every packet at every step (about half of a 16-byte
//! packet's instructions went there); here a wave of packets goes through
//! the stages one after the other, each stage one loop over the packets
//! that fills one shared [`Run`], evaluated as one batch.
//!
//! Between stages a packet keeps its mask stream and its tag sum, each in a
//! [`Lane`] of 32 bytes: XORs of whole lanes compile to a few vector
//! instructions whatever the instance's block size.
//!
//! Which packets qualify ([`fits`]) depends on their lengths only, which
//! are public; everything else is the same work for every packet.

use super::NONCE_SIZE;
use super::batch::{Message, TagSlot};
use super::run::Run;
use super::tag::{self, padded_block_at, padded_blocks};
use super::xor::{xor_into, xor_masked};
use crate::permutation::Permutation;
use zeroize::Zeroize;

/// Blocks a packet may take for its message (and for its nonce and
/// associated data) to go in lockstep: up to two of each, so at most three
/// permutations per packet in any stage.
const MAX_BLOCKS: usize = 2;

/// Permutation inputs a packet puts into one stage, at most: sealing's
/// first stage (two keystream blocks and the second associated data
/// block), or opening's first (two tag terms and that block) or second
/// (the tag and two keystream blocks).
pub(crate) const MAX_PER_STAGE: usize = 3;

/// Bytes of a [`Lane`]: the widest block (25) with the mask stream's
/// lookahead, rounded up to a vector.
const LANE: usize = 32;

/// A block, zero past its end, or a packet's mask stream: the masks
/// `mask_i` for `i ≤ MAX_BLOCKS + 1` are its bytes `i .. i + BLOCK_SIZE`.
type Lane = [u8; LANE];

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
    #[inline(always)]
    fn of<P: Permutation>(message: &Message<'_, P>) -> Self {
        let len = message.buffer.len();
        let associated_data_len = message.associated_data.len();
        debug_assert!(fits::<P>(associated_data_len, len));
        Self {
            keystream: len.div_ceil(P::BLOCK_SIZE),
            terms: padded_blocks::<P>(len),
            second_associated_data_block: NONCE_SIZE.saturating_add(associated_data_len)
                >= P::BLOCK_SIZE,
        }
    }
}

/// `bytes` (up to a lane) in a lane, zero after them.
#[inline(always)]
fn lane_of(bytes: &[u8]) -> Lane {
    debug_assert!(bytes.len() <= LANE);
    let mut lane = [0; LANE];
    for (to, from) in lane.iter_mut().zip(bytes) {
        *to = *from;
    }
    lane
}

/// The first `count` of `items` (all of them if fewer).
#[inline(always)]
fn first<T>(items: &[T], count: usize) -> &[T] {
    items.get(..count).unwrap_or(items)
}

/// [`first`], mutable.
#[inline(always)]
fn first_mut<T>(items: &mut [T], count: usize) -> &mut [T] {
    let len = items.len();
    items.get_mut(..count.min(len)).unwrap_or_default()
}

/// `a ⊕ b`, a lane at once.
#[inline(always)]
fn xor(mut a: Lane, b: &Lane) -> Lane {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= *y;
    }
    a
}

/// The block of `data ‖ 01 ‖ 00…` that starts at byte `start`, in a lane.
#[inline(always)]
fn padded_lane<P: Permutation>(data: &[u8], start: usize) -> Lane {
    let (bytes, padded) = padded_block_at::<P>(data, start);
    let mut lane = lane_of(bytes);
    if padded {
        if let Some(pad) = lane.get_mut(bytes.len()) {
            *pad = 0x01;
        }
    }
    lane
}

/// `mask_index` from a packet's mask stream, in a lane.
#[inline(always)]
fn mask<P: Permutation>(stream: &Lane, index: usize) -> Lane {
    let mask = stream.get(index..index.saturating_add(P::BLOCK_SIZE));
    debug_assert!(mask.is_some(), "mask {index} lies in the stream");
    lane_of(mask.unwrap_or_default())
}

/// `δ_index = mask_index ⊕ mask_{index+1}`, which masks keystream block
/// `index`, from a packet's mask stream.
#[inline(always)]
fn delta<P: Permutation>(stream: &Lane, index: usize) -> Lane {
    xor(
        mask::<P>(stream, index),
        &mask::<P>(stream, index.saturating_add(1)),
    )
}

/// Keystream block `index`, `P(N‖0 ⊕ δ_index) ⊕ δ_index`, from its
/// permuted state and the packet's mask stream.
#[inline(always)]
fn keystream<P: Permutation>(permuted: &P::Block, stream: &Lane, index: usize) -> Lane {
    xor(lane_of(permuted.as_ref()), &delta::<P>(stream, index))
}

/// Queues the inputs `N‖0 ⊕ δ_j` of a packet's first `blocks` keystream
/// blocks.
#[inline(always)]
fn queue_keystream<P: Permutation, const N: usize>(
    run: &mut Run<P, N>,
    nonce: &[u8; NONCE_SIZE],
    stream: &Lane,
    blocks: usize,
) {
    let nonce = lane_of(nonce);
    for index in 0..blocks {
        queue(run, &xor(nonce, &delta::<P>(stream, index)));
    }
}

/// Queues `lane` (its first block's bytes) on `run`.
#[inline(always)]
fn queue<P: Permutation, const N: usize>(run: &mut Run<P, N>, lane: &Lane) {
    if let Some(state) = run.push_slot() {
        for (to, from) in state.as_mut().iter_mut().zip(lane) {
            *to = *from;
        }
    }
}

/// The packets of one wave, up to `WAVE`, and what each keeps between
/// stages; the run holds `STATES` (at least [`MAX_PER_STAGE`] per packet).
/// Mask streams, sums and run are wiped when it is dropped.
pub(crate) struct Lockstep<'p, P: Permutation, const WAVE: usize, const STATES: usize> {
    /// The wave's messages, from the front; each is taken out when its
    /// results are written.
    messages: [Option<Message<'p, P>>; WAVE],
    /// Each packet's mask stream, from `L` on.
    streams: [Lane; WAVE],
    /// Each packet's tag sum `T`.
    sums: [Lane; WAVE],
    /// How many packets the largest wave had, for [`Drop`].
    used: usize,
    /// The permutation inputs of the current stage, of every packet.
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
                LANE >= P::BLOCK_SIZE.saturating_add(MAX_BLOCKS + 1),
                "the stream holds mask_{{MAX_BLOCKS + 1}}"
            );
        }
        Self {
            messages: [const { None }; WAVE],
            streams: [[0; LANE]; WAVE],
            sums: [[0; LANE]; WAVE],
            used: 0,
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
            self.used = self.used.max(count);
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
            self.take_terms_and_queue_tags(count, true);
            self.run.evaluate();
            self.write_tags(count);
            0xff
        } else {
            self.take_terms_and_queue_tags(count, false);
            self.run.evaluate();
            self.verify_and_decrypt(count)
        }
    }

    /// Every packet's start: its mask stream and the sum `T = A_0`, and
    /// the first stage: the keystream (sealing) or the ciphertext's tag
    /// terms (opening), and the second associated data block's term.
    fn start(&mut self, count: usize, sealing: bool) {
        let lanes = first(&self.messages, count)
            .iter()
            .zip(first_mut(&mut self.streams, count))
            .zip(first_mut(&mut self.sums, count));
        for ((message, stream), sum) in lanes {
            let Some(message) = message else { continue };
            let shape = Shape::of(message);
            // The stream: L, then a byte per mask up to mask_{MAX_BLOCKS + 1}.
            *stream = lane_of(message.expanded_key.as_ref());
            for end in P::BLOCK_SIZE..P::BLOCK_SIZE.saturating_add(MAX_BLOCKS + 1) {
                let previous = stream.get(end.saturating_sub(P::BLOCK_SIZE)..end);
                let byte = P::mask_feedback(previous.unwrap_or_default());
                if let Some(slot) = stream.get_mut(end) {
                    *slot = byte;
                }
            }
            // T = A_0: the nonce, then the block's share of `A ‖ 01 ‖ 00…`.
            *sum = lane_of(message.nonce);
            let share = P::BLOCK_SIZE.saturating_sub(NONCE_SIZE);
            let first = padded_lane::<P>(message.associated_data, 0);
            let to = sum.get_mut(NONCE_SIZE..P::BLOCK_SIZE).unwrap_or_default();
            for (to, from) in to.iter_mut().zip(first.get(..share).unwrap_or_default()) {
                *to = *from;
            }
            if sealing {
                queue_keystream::<P, STATES>(&mut self.run, message.nonce, stream, shape.keystream);
            } else {
                for index in 0..shape.terms {
                    queue_ciphertext_term(&mut self.run, sum, stream, message.buffer, index);
                }
            }
            if shape.second_associated_data_block {
                // Block 1 of `N ‖ A ‖ 01 ‖ 00…`, past the nonce.
                let start = P::BLOCK_SIZE.saturating_sub(NONCE_SIZE);
                let block = padded_lane::<P>(message.associated_data, start);
                let mask_1 = mask::<P>(stream, 1);
                queue(&mut self.run, &xor(block, &mask_1));
                *sum = xor(*sum, &mask_1);
            }
        }
    }

    /// Sealing's second stage: takes the keystream and the associated data
    /// terms, writes the ciphertext, then queues its tag terms.
    fn encrypt(&mut self, count: usize) {
        let lanes = first_mut(&mut self.messages, count)
            .iter_mut()
            .zip(first(&self.streams, count))
            .zip(first_mut(&mut self.sums, count));
        for ((message, stream), sum) in lanes {
            let Some(message) = message else { continue };
            let shape = Shape::of(message);
            for (index, block) in message
                .buffer
                .chunks_mut(P::BLOCK_SIZE)
                .enumerate()
                .take(shape.keystream)
            {
                if let Some(permuted) = self.run.take() {
                    xor_into(block, &keystream::<P>(permuted, stream, index));
                }
            }
            if shape.second_associated_data_block {
                if let Some(term) = self.run.take() {
                    *sum = xor(*sum, &lane_of(term.as_ref()));
                }
            }
        }
        self.run.clear();
        let lanes = first(&self.messages, count)
            .iter()
            .zip(first(&self.streams, count))
            .zip(first_mut(&mut self.sums, count));
        for ((message, stream), sum) in lanes {
            let Some(message) = message else { continue };
            for index in 0..Shape::of(message).terms {
                queue_ciphertext_term(&mut self.run, sum, stream, message.buffer, index);
            }
        }
    }

    /// Takes the tag terms of the stage just evaluated (sealing: the
    /// ciphertext's; opening: the ciphertext's and the associated data's),
    /// then queues each tag `P(T ⊕ L)` and, opening, its keystream.
    fn take_terms_and_queue_tags(&mut self, count: usize, sealing: bool) {
        let lanes = first(&self.messages, count)
            .iter()
            .zip(first_mut(&mut self.sums, count));
        for (message, sum) in lanes {
            let Some(message) = message else { continue };
            let shape = Shape::of(message);
            let terms = if sealing {
                shape.terms
            } else {
                shape
                    .terms
                    .saturating_add(usize::from(shape.second_associated_data_block))
            };
            for _ in 0..terms {
                if let Some(term) = self.run.take() {
                    *sum = xor(*sum, &lane_of(term.as_ref()));
                }
            }
        }
        self.run.clear();
        let lanes = first(&self.messages, count)
            .iter()
            .zip(first(&self.streams, count))
            .zip(first(&self.sums, count));
        for ((message, stream), sum) in lanes {
            let Some(message) = message else { continue };
            // L is the stream's first block.
            queue(&mut self.run, &xor(*sum, &mask::<P>(stream, 0)));
            if !sealing {
                let blocks = Shape::of(message).keystream;
                queue_keystream::<P, STATES>(&mut self.run, message.nonce, stream, blocks);
            }
        }
    }

    /// Sealing's end: every tag `trunc(P(T ⊕ L) ⊕ L)`.
    fn write_tags(&mut self, count: usize) {
        for message in first_mut(&mut self.messages, count) {
            let Some(message) = message.take() else {
                continue;
            };
            if let (Some(permuted), TagSlot::Seal(tag)) = (self.run.take(), message.tag) {
                *tag = tag::tag_from::<P>(permuted, message.expanded_key);
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
        let lanes = first_mut(&mut self.messages, count)
            .iter_mut()
            .zip(first(&self.streams, count));
        for (message, stream) in lanes {
            let Some(message) = message.take() else {
                continue;
            };
            let shape = Shape::of(&message);
            let mut accept = 0;
            if let (Some(permuted), TagSlot::Open(received)) = (self.run.take(), message.tag) {
                let mut expected = tag::tag_from::<P>(permuted, message.expanded_key);
                accept = tag::accept_mask::<P>(&mut expected, received);
            }
            for (index, block) in message
                .buffer
                .chunks_mut(P::BLOCK_SIZE)
                .enumerate()
                .take(shape.keystream)
            {
                if let Some(permuted) = self.run.take() {
                    let keystream = keystream::<P>(permuted, stream, index);
                    xor_masked(block, [keystream.as_slice()], accept);
                }
            }
            *message.outcome = tag::verdict(accept);
            all &= accept;
        }
        self.run.clear();
        all
    }
}

/// Queues ciphertext block `index`'s tag term `C_j ⊕ mask_j ⊕ mask_{j+2}`
/// (padded if it is the last) and adds its masks to the sum.
#[inline(always)]
fn queue_ciphertext_term<P: Permutation, const N: usize>(
    run: &mut Run<P, N>,
    sum: &mut Lane,
    stream: &Lane,
    ciphertext: &[u8],
    index: usize,
) {
    let masks = xor(
        mask::<P>(stream, index),
        &mask::<P>(stream, index.saturating_add(2)),
    );
    let block = padded_lane::<P>(ciphertext, index.saturating_mul(P::BLOCK_SIZE));
    queue(run, &xor(block, &masks));
    *sum = xor(*sum, &masks);
}

impl<P: Permutation, const WAVE: usize, const STATES: usize> Drop
    for Lockstep<'_, P, WAVE, STATES>
{
    fn drop(&mut self) {
        // One fill each over the lanes that held secrets.
        for lanes in [&mut self.streams, &mut self.sums] {
            if let Some(used) = lanes.get_mut(..self.used) {
                used.as_flattened_mut().zeroize();
            }
        }
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
    use crate::mode::{TagOf, check_lengths, decrypt, encrypt};
    use crate::{Keccak200, Spongent160, Spongent176};
    use aead::Result;

    /// The lengths at the bound: the largest that fit, and one more.
    #[test]
    fn fits_two_blocks_each() {
        fn check<P: Permutation>() {
            let message = 2 * P::BLOCK_SIZE - 1;
            let associated_data = 2 * P::BLOCK_SIZE - NONCE_SIZE - 1;
            assert!(fits::<P>(associated_data, message));
            assert!(!fits::<P>(associated_data + 1, message));
            assert!(!fits::<P>(associated_data, message + 1));
            // Well within the limits: a packet in lockstep is never one
            // that the general path would reject.
            assert!(check_lengths(associated_data, message).is_ok());
        }
        check::<Spongent160>();
        check::<Spongent176>();
        check::<Keccak200>();
    }

    /// Every pair of lengths that fits (a few under Miri), sealed in
    /// waves of three (so one partial wave at the end), against the
    /// single-message calls; then opened with every third tag forged:
    /// those are rejected with their buffers untouched, the others
    /// decrypted.
    #[test]
    fn waves_match_the_single_message_calls() {
        fn check<P: Permutation>() {
            let mut expanded_key = P::Block::default();
            for (i, byte) in expanded_key.as_mut().iter_mut().enumerate() {
                *byte = (i as u8).wrapping_mul(37) ^ 0xa7;
            }
            let (message_lens, ad_lens): (Vec<usize>, Vec<usize>) = if cfg!(miri) {
                (
                    vec![0, 16, 2 * P::BLOCK_SIZE - 1],
                    vec![2 * P::BLOCK_SIZE - 13],
                )
            } else {
                (
                    (0..2 * P::BLOCK_SIZE).collect(),
                    (0..2 * P::BLOCK_SIZE - NONCE_SIZE).collect(),
                )
            };
            let mut cases = Vec::new();
            for &len in &message_lens {
                for &ad_len in &ad_lens {
                    let n = cases.len() as u8;
                    let nonce = [n ^ 0x3c; NONCE_SIZE];
                    let ad: Vec<u8> = (0..ad_len as u8).map(|b| b ^ n).collect();
                    let message: Vec<u8> = (0..len as u8).map(|b| b.wrapping_mul(3) ^ n).collect();
                    cases.push((nonce, ad, message));
                }
            }
            // Sealing in lockstep.
            let mut buffers: Vec<Vec<u8>> = cases.iter().map(|case| case.2.clone()).collect();
            let mut tags = vec![TagOf::<P>::default(); cases.len()];
            let mut outcomes: Vec<Result<()>> = vec![Err(aead::Error); cases.len()];
            let messages = cases
                .iter()
                .zip(&mut buffers)
                .zip(&mut tags)
                .zip(&mut outcomes)
                .map(|((((nonce, ad, _), buffer), tag), outcome)| Message::<P> {
                    expanded_key: &expanded_key,
                    nonce,
                    associated_data: ad,
                    buffer,
                    tag: TagSlot::Seal(tag),
                    outcome,
                });
            assert_eq!(Lockstep::<P, 3, 9>::new().drive(messages), 0xff);
            for (i, (nonce, ad, message)) in cases.iter().enumerate() {
                let mut single = message.clone();
                let tag = encrypt::<P>(&expanded_key, nonce, ad, single.as_mut_slice().into());
                assert_eq!(buffers[i], single, "{} case {i}", P::INSTANCE);
                assert_eq!(Ok(&tags[i]), tag.as_ref(), "{} case {i}", P::INSTANCE);
                assert!(outcomes[i].is_ok());
            }

            // Opening in lockstep, every third tag forged.
            for (i, tag) in tags.iter_mut().enumerate() {
                if i % 3 == 1 {
                    let at = i % tag.len();
                    tag[at] ^= 0x40;
                }
            }
            let sent = buffers.clone();
            let messages = cases
                .iter()
                .zip(&mut buffers)
                .zip(&tags)
                .zip(&mut outcomes)
                .map(|((((nonce, ad, _), buffer), tag), outcome)| Message::<P> {
                    expanded_key: &expanded_key,
                    nonce,
                    associated_data: ad,
                    buffer,
                    tag: TagSlot::Open(tag),
                    outcome,
                });
            let forged = cases.len() > 1;
            let accept = Lockstep::<P, 3, 9>::new().drive(messages);
            assert_eq!(accept, if forged { 0 } else { 0xff });
            for (i, (nonce, ad, message)) in cases.iter().enumerate() {
                let mut single = sent[i].clone();
                let verdict = decrypt::<P>(
                    &expanded_key,
                    nonce,
                    ad,
                    single.as_mut_slice().into(),
                    &tags[i],
                );
                assert_eq!(outcomes[i], verdict, "{} case {i}", P::INSTANCE);
                if i % 3 == 1 {
                    assert!(outcomes[i].is_err());
                    assert_eq!(buffers[i], sent[i], "{} case {i}: rejected", P::INSTANCE);
                } else {
                    assert!(outcomes[i].is_ok());
                    assert_eq!(&buffers[i], message, "{} case {i}: plaintext", P::INSTANCE);
                }
            }
        }
        check::<Spongent160>();
        check::<Spongent176>();
        check::<Keccak200>();
    }
}
