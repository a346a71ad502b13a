//! Short messages in lockstep: the multi-message call's fast path for
//! packets of a block or two.
//!
//! A short message's walk ([`super::jobs`]) is a fixed, tiny schedule, the
//! same for every such packet: sealing is the keystream (with the term of the
//! second block of `nonce ‖ associated data`, if any), then the
//! ciphertext's tag terms, then the tag; opening is the tag terms, then the
//! tag with the keystream. The general scheduler ([`super::schedule`])
//! works that out anew for every packet at every step (DESIGN.md, "The
//! mode's block work"); here a wave of packets goes through the stages one
//! after the other, each stage one loop over the packets that fills one
//! shared [`Run`], evaluated as one batch.
//!
//! Between stages a packet keeps its mask stream and its tag sum, each in a
//! [`Packed`] of four 64-bit words: XORs of whole packed blocks compile to a few
//! instructions whatever the instance's block size, and a packed block is built
//! from word loads of where its bytes lie and stays in registers (see
//! [`Packed`] for why).
//!
//! Which packets qualify ([`fits`]) depends on their lengths only, which
//! are public; everything else is the same work for every packet. Counts
//! and offsets are within a wave and a packet's two blocks: plain arithmetic.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "offsets within packets of two blocks at most, counts up to a wave"
)]

use super::NONCE_SIZE;
use super::jobs::Jobs;
use super::run::Run;
use super::schedule::{Message, TagSlot};
use super::tag::{self, padded_block_at};
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

/// Bytes of a [`Packed`]: the widest block (25) with the mask stream's
/// lookahead, rounded up to a vector.
const PACKED: usize = 32;

/// Bytes of one of a [`Packed`]'s words.
const WORD: usize = 8;

/// A block, zero past its end, or a packet's mask stream (the masks
/// `mask_i` for `i ≤ MAX_BLOCKS + 1` are its bytes `i .. i + BLOCK_SIZE`),
/// as four little-endian words: byte `i` is in word `i / 8`.
///
/// Words rather than bytes, so that a packed block is built from word loads of
/// data written long before (the key, the nonce, the packet's bytes, a
/// permuted state), shifted and combined in registers, and written with
/// word stores. As 32 bytes staged with narrower stores and read back at
/// once, every packed block stalled the loads that read it (store-to-load
/// forwarding fails when a load spans several stores), which took much of
/// the time spent outside the permutations (DESIGN.md, "The mode's block
/// work").
/// The words are never indexed by a variable, which would put the packed block
/// back in memory.
#[derive(Clone, Copy, Default)]
struct Packed(Words);

/// Words of a [`Packed`].
const WORDS: usize = PACKED / WORD;

/// A [`Packed`]'s words, as kept between stages.
type Words = [u64; WORDS];

/// `8 × (bytes mod 8)`: the shift amount for a byte's place in a word
/// (under 64, so no shift below needs a check for 64 or more).
#[inline(always)]
#[expect(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    reason = "bytes % 8 is under 8: it converts exactly, and 8 times it is under 64"
)]
fn bits(bytes: usize) -> u32 {
    8 * (bytes % WORD) as u32
}

/// `word` moved `bytes` (under 8) bytes up.
#[inline(always)]
fn up(word: u64, bytes: usize) -> u64 {
    debug_assert!(bytes < WORD);
    word.wrapping_shl(bits(bytes))
}

/// `word` moved `bytes` (under 8) bytes down.
#[inline(always)]
fn down(word: u64, bytes: usize) -> u64 {
    debug_assert!(bytes < WORD);
    word.wrapping_shr(bits(bytes))
}

/// Runs `$body` with `$index` bound to each block index `0..$count` (at
/// most [`MAX_BLOCKS`]), written out so that each index is a constant, and
/// so are the packed blocks' shifts by it. A macro: with a loop, LLVM kept the
/// loop and shifted by a register; with a closure, it did not always
/// inline the closure.
macro_rules! for_blocks {
    ($count:expr, |$index:ident| $body:block) => {{
        const { assert!(MAX_BLOCKS == 2, "one body per block") };
        let count: usize = $count;
        debug_assert!(count <= MAX_BLOCKS);
        if count > 0 {
            let $index: usize = 0;
            $body
        }
        if count > 1 {
            let $index: usize = 1;
            $body
        }
    }};
}

/// `bytes` (up to a word) as a little-endian word, zero after them, in at
/// most two loads (which may overlap) whatever their length.
#[inline(always)]
fn word_of(bytes: &[u8]) -> u64 {
    debug_assert!(bytes.len() <= WORD);
    let len = bytes.len();
    let quarter = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|four| <[u8; 4]>::try_from(four).ok())
            .map_or(0, |four| u64::from(u32::from_le_bytes(four)))
    };
    let byte = |at: usize| bytes.get(at).copied().map_or(0, u64::from);
    if let Ok(word) = <[u8; WORD]>::try_from(bytes) {
        u64::from_le_bytes(word)
    } else if len == 0 {
        0
    } else if len >= 4 {
        // Two overlapping halves: the bytes they share are equal.
        let last = len - 4;
        quarter(0) | up(quarter(last), last)
    } else {
        let (middle, last) = (len / 2, len - 1);
        byte(0) | up(byte(middle), middle) | up(byte(last), last)
    }
}

/// Word `index` of `bytes`: its bytes `8 × index ..` (up to 8, fewer or
/// none at the end).
#[inline(always)]
fn word_at(bytes: &[u8], index: usize) -> u64 {
    let from = index * WORD;
    let rest = bytes.get(from..).unwrap_or_default();
    word_of(rest.get(..WORD).unwrap_or(rest))
}

impl Packed {
    /// `bytes` (up to a packed block), zero after them.
    #[inline(always)]
    fn load(bytes: &[u8]) -> Self {
        debug_assert!(bytes.len() <= PACKED);
        let word = |index| word_at(bytes, index);
        Self([word(0), word(1), word(2), word(3)])
    }

    /// `value` at byte `index` (nothing if past the packed block), zero elsewhere.
    #[inline(always)]
    fn byte(index: usize, value: u8) -> Self {
        let moved = up(u64::from(value), index % WORD);
        let at = index / WORD;
        let word = |word: usize| moved & u64::from(at == word).wrapping_neg();
        Self([word(0), word(1), word(2), word(3)])
    }

    /// The first `len` bytes all ones, the others zero.
    #[inline(always)]
    fn ones(len: usize) -> Self {
        let word = |word: usize| match len.saturating_sub(word.wrapping_mul(WORD)) {
            0 => 0,
            bytes @ 1..WORD => up(1, bytes).wrapping_sub(1),
            _ => u64::MAX,
        };
        Self([word(0), word(1), word(2), word(3)])
    }

    /// `self ⊕ other`.
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        let [a, b, c, d] = self.0;
        let [e, f, g, h] = other.0;
        Self([a ^ e, b ^ f, c ^ g, d ^ h])
    }

    /// `self ∧ other`.
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        let [a, b, c, d] = self.0;
        let [e, f, g, h] = other.0;
        Self([a & e, b & f, c & g, d & h])
    }

    /// The packed block without its first `offset` (under 8) bytes, zero after its
    /// end: its bytes `offset ..`.
    #[inline(always)]
    fn skip(self, offset: usize) -> Self {
        debug_assert!(offset < WORD);
        // Shifts by less than 64 each (the high word goes up by 1, then by
        // 63 - 8 × offset): no check for 64 or more.
        let shift = bits(offset);
        let back = 63 - shift;
        let join =
            |low: u64, high: u64| low.wrapping_shr(shift) | high.wrapping_shl(1).wrapping_shl(back);
        let [a, b, c, d] = self.0;
        Self([join(a, b), join(b, c), join(c, d), join(d, 0)])
    }

    /// The packed block moved `NONCE_SIZE` bytes up (its last 12 bytes dropped):
    /// the associated data's place in `N ‖ A ‖ 01 ‖ 00…`.
    #[inline(always)]
    fn after_nonce(self) -> Self {
        const { assert!(NONCE_SIZE > WORD && NONCE_SIZE < 2 * WORD) };
        let bytes = NONCE_SIZE - WORD;
        let [a, b, c, _] = self.0;
        let join = |low: u64, high: u64| down(low, WORD - bytes) | up(high, bytes);
        Self([0, join(0, a), join(a, b), join(b, c)])
    }

    /// Writes the packed block's first `to.len()` bytes (up to a packed block) to `to`, a
    /// word at a time.
    #[inline(always)]
    fn store(self, to: &mut [u8]) {
        debug_assert!(to.len() <= PACKED);
        let mut put = |index: usize, word: u64| {
            let from = index * WORD;
            let rest = to.get_mut(from..).unwrap_or_default();
            let len = rest.len().min(WORD);
            let bytes = word.to_le_bytes();
            // Equal lengths: `len` of each.
            first_mut(rest, len).copy_from_slice(first(&bytes, len));
        };
        let [a, b, c, d] = self.0;
        put(0, a);
        put(1, b);
        put(2, c);
        put(3, d);
    }

    /// `block ⊕= self ∧ keep` over the length of `block` (up to a packed block),
    /// a word at a time: `keep` is all ones, or an opening's accept mask
    /// in every byte.
    #[inline(always)]
    fn xor_onto(self, block: &mut [u8], keep: u64) {
        debug_assert!(block.len() <= PACKED);
        let mut apply = |index: usize, word: u64| {
            let word = word & keep;
            let from = index * WORD;
            let rest = block.get_mut(from..).unwrap_or_default();
            let len = rest.len().min(WORD);
            let bytes = first_mut(rest, len);
            if let Ok(bytes) = <&mut [u8; WORD]>::try_from(&mut *bytes) {
                *bytes = (u64::from_le_bytes(*bytes) ^ word).to_le_bytes();
            } else if !bytes.is_empty() {
                for (to, from) in bytes.iter_mut().zip(word.to_le_bytes()) {
                    *to ^= from;
                }
            }
        };
        let [a, b, c, d] = self.0;
        apply(0, a);
        apply(1, b);
        apply(2, c);
        apply(3, d);
    }
}

/// Whether a packet with these (public) lengths goes in lockstep: its
/// message and its `nonce ‖ associated data ‖ 01` take at most
/// [`MAX_BLOCKS`] blocks each.
pub(crate) fn fits<P: Permutation>(associated_data_len: usize, message_len: usize) -> bool {
    let limit = MAX_BLOCKS * P::BLOCK_SIZE;
    message_len < limit && NONCE_SIZE + associated_data_len < limit
}

/// A packet's jobs ([`Jobs::of_short`]: public, from its lengths).
#[inline(always)]
fn jobs_of<P: Permutation>(message: &Message<'_, P>) -> Jobs {
    Jobs::of_short::<P>(message.associated_data.len(), message.buffer.len())
}

/// Whether a packet has a second block of `N ‖ A ‖ 01 ‖ 00…`, whose term
/// is queued (the first starts the sum).
#[inline(always)]
fn second_associated_data_block(jobs: Jobs) -> bool {
    jobs.associated_data > 1
}

/// How many masks past `mask_0` a packet uses: `mask_j` up to the last
/// keystream block's `δ` (`mask_keystream`), the last tag term's
/// (`mask_{terms + 1}`), and the second associated data block's
/// (`mask_1`).
#[inline(always)]
fn masks_used(jobs: Jobs) -> usize {
    jobs.keystream
        .max(jobs.terms + 1)
        .max(usize::from(second_associated_data_block(jobs)))
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

/// Block `index` of `buffer` (shorter at its end).
#[inline(always)]
fn block_mut<P: Permutation>(buffer: &mut [u8], index: usize) -> &mut [u8] {
    let rest = buffer.get_mut(index * P::BLOCK_SIZE..).unwrap_or_default();
    first_mut(rest, P::BLOCK_SIZE)
}

/// A block, all ones: where a block's bytes lie in a packed block.
#[inline(always)]
fn block<P: Permutation>() -> Packed {
    Packed::ones(P::BLOCK_SIZE)
}

/// The block of `data ‖ 01 ‖ 00…` that starts at byte `start`, in a packed block
/// (the `01` added in registers, not stored into a staged packed block).
#[inline(always)]
fn padded_packed<P: Permutation>(data: &[u8], start: usize) -> Packed {
    let (bytes, padded) = padded_block_at::<P>(data, start);
    let packed = Packed::load(bytes);
    if padded {
        packed.xor(Packed::byte(bytes.len(), 0x01))
    } else {
        packed
    }
}

/// A packet's mask stream: `L`, then a byte per mask up to `mask_masks`
/// (at most `mask_{MAX_BLOCKS + 1}`; the bytes past it are left zero, and
/// the LFSR step for a message of a block or less, whose last mask is
/// `mask_2`, is skipped).
#[inline(always)]
fn stream_of<P: Permutation>(expanded_key: &P::Block, masks: usize) -> Packed {
    debug_assert!(masks <= MAX_BLOCKS + 1);
    let key = expanded_key.as_ref();
    let mut stream = Packed::load(key);
    // The LFSR reads bytes: it gets them from a copy that is only ever
    // read a byte at a time (its bytes go into the packed block in registers).
    let mut bytes = [0; PACKED];
    for (to, from) in bytes.iter_mut().zip(key) {
        *to = *from;
    }
    let last = P::BLOCK_SIZE + masks;
    for end in P::BLOCK_SIZE..P::BLOCK_SIZE + MAX_BLOCKS + 1 {
        if end >= last {
            break;
        }
        let previous = bytes.get(end - P::BLOCK_SIZE..end);
        let byte = P::mask_feedback(previous.unwrap_or_default());
        if let Some(slot) = bytes.get_mut(end) {
            *slot = byte;
        }
        stream = stream.xor(Packed::byte(end, byte));
    }
    stream
}

/// `T = A_0`, the first block of `N ‖ A ‖ 01 ‖ 00…`.
#[inline(always)]
fn first_associated_data_block<P: Permutation>(
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
) -> Packed {
    let share = P::BLOCK_SIZE - NONCE_SIZE;
    let bytes = first(associated_data, share);
    let mut data = Packed::load(bytes);
    if bytes.len() < share {
        data = data.xor(Packed::byte(bytes.len(), 0x01));
    }
    Packed::load(nonce).xor(data.after_nonce())
}

/// `mask_index` from a packet's mask stream, in a packed block.
#[inline(always)]
fn mask<P: Permutation>(stream: Packed, index: usize) -> Packed {
    debug_assert!(index <= MAX_BLOCKS + 1, "mask {index} lies in the stream");
    stream.skip(index).and(block::<P>())
}

/// `δ_index = mask_index ⊕ mask_{index+1}`, which masks keystream block
/// `index`, from a packet's mask stream.
#[inline(always)]
fn delta<P: Permutation>(stream: Packed, index: usize) -> Packed {
    mask::<P>(stream, index).xor(mask::<P>(stream, index + 1))
}

/// Keystream block `index`, `P(N‖0 ⊕ δ_index) ⊕ δ_index`, from its
/// permuted state and the packet's mask stream.
#[inline(always)]
fn keystream<P: Permutation>(permuted: &P::Block, stream: Packed, index: usize) -> Packed {
    Packed::load(permuted.as_ref()).xor(delta::<P>(stream, index))
}

/// Queues the inputs `N‖0 ⊕ δ_j` of a packet's first `blocks` keystream
/// blocks.
#[inline(always)]
fn queue_keystream<P: Permutation, const N: usize>(
    run: &mut Run<P, N>,
    nonce: &[u8; NONCE_SIZE],
    stream: Packed,
    blocks: usize,
) {
    let nonce = Packed::load(nonce);
    for_blocks!(blocks, |index| {
        queue(run, nonce.xor(delta::<P>(stream, index)));
    });
}

/// Queues `packed` (its first block's bytes) on `run`.
#[inline(always)]
fn queue<P: Permutation, const N: usize>(run: &mut Run<P, N>, packed: Packed) {
    if let Some(state) = run.push_slot() {
        packed.store(state.as_mut());
    }
}

/// The packets of one wave, up to `WAVE`, and what each keeps between
/// stages; the run holds `STATES` (at least [`MAX_PER_STAGE`] per packet).
/// Mask streams, sums and run are wiped when it is dropped.
pub(crate) struct Lockstep<'p, P: Permutation, const WAVE: usize, const STATES: usize> {
    /// The wave's messages, from the front; each is taken out when its
    /// results are written.
    messages: [Option<Message<'p, P>>; WAVE],
    /// Each packet's mask stream, from `L` on (a [`Packed`]'s words: in
    /// words, they are wiped in one fill).
    streams: [Words; WAVE],
    /// Each packet's tag sum `T` (a [`Packed`]'s words).
    sums: [Words; WAVE],
    /// How many packets the largest wave had, for [`Drop`].
    used: usize,
    /// The permutation inputs of the current stage, of every packet.
    run: Run<P, STATES>,
}

impl<'p, P: Permutation, const WAVE: usize, const STATES: usize> Lockstep<'p, P, WAVE, STATES> {
    /// Room for a wave.
    pub(crate) fn new() -> Self {
        const {
            assert!(STATES >= WAVE * MAX_PER_STAGE, "a stage fits on the run");
            assert!(
                PACKED > P::BLOCK_SIZE + MAX_BLOCKS,
                "the stream holds mask_{{MAX_BLOCKS + 1}}"
            );
        }
        Self {
            messages: [const { None }; WAVE],
            streams: [[0; WORDS]; WAVE],
            sums: [[0; WORDS]; WAVE],
            used: 0,
            run: Run::new(),
        }
    }

    /// Seals or opens every message (each must [`fit`](fits)), `WAVE` at
    /// a time; returns the AND of their accept masks (`0xff` if every tag
    /// matched).
    pub(crate) fn process(&mut self, mut messages: impl Iterator<Item = Message<'p, P>>) -> u8 {
        let mut accept = 0xff;
        loop {
            let mut count = 0usize;
            for (slot, message) in self.messages.iter_mut().zip(&mut messages) {
                *slot = Some(message);
                count += 1;
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
    /// Built in registers; the stream and the sum are only stored, for the
    /// next stages.
    fn start(&mut self, count: usize, sealing: bool) {
        let entries = first(&self.messages, count)
            .iter()
            .zip(first_mut(&mut self.streams, count))
            .zip(first_mut(&mut self.sums, count));
        for ((message, stream_slot), sum_slot) in entries {
            let Some(message) = message else { continue };
            let jobs = jobs_of(message);
            let stream = stream_of::<P>(message.expanded_key, masks_used(jobs));
            let mut sum = first_associated_data_block::<P>(message.nonce, message.associated_data);
            if sealing {
                queue_keystream::<P, STATES>(&mut self.run, message.nonce, stream, jobs.keystream);
            } else {
                for_blocks!(jobs.terms, |index| {
                    queue_ciphertext_term(&mut self.run, &mut sum, stream, message.buffer, index);
                });
            }
            if second_associated_data_block(jobs) {
                // Block 1 of `N ‖ A ‖ 01 ‖ 00…`, past the nonce.
                let start = P::BLOCK_SIZE - NONCE_SIZE;
                let block = padded_packed::<P>(message.associated_data, start);
                let mask_1 = mask::<P>(stream, 1);
                queue(&mut self.run, block.xor(mask_1));
                sum = sum.xor(mask_1);
            }
            *stream_slot = stream.0;
            *sum_slot = sum.0;
        }
    }

    /// Sealing's second stage: takes the keystream and the associated data
    /// terms, writes the ciphertext, then queues its tag terms.
    fn encrypt(&mut self, count: usize) {
        let entries = first_mut(&mut self.messages, count)
            .iter_mut()
            .zip(first(&self.streams, count))
            .zip(first_mut(&mut self.sums, count));
        for ((message, stream), sum) in entries {
            let Some(message) = message else { continue };
            let jobs = jobs_of(message);
            let stream = Packed(*stream);
            for_blocks!(jobs.keystream, |index| {
                if let Some(permuted) = self.run.take() {
                    let block = block_mut::<P>(message.buffer, index);
                    keystream::<P>(permuted, stream, index).xor_onto(block, u64::MAX);
                }
            });
            if second_associated_data_block(jobs) {
                if let Some(term) = self.run.take() {
                    *sum = Packed(*sum).xor(Packed::load(term.as_ref())).0;
                }
            }
        }
        self.run.clear();
        let entries = first(&self.messages, count)
            .iter()
            .zip(first(&self.streams, count))
            .zip(first_mut(&mut self.sums, count));
        for ((message, stream), sum_slot) in entries {
            let Some(message) = message else { continue };
            let (stream, mut sum) = (Packed(*stream), Packed(*sum_slot));
            for_blocks!(jobs_of(message).terms, |index| {
                queue_ciphertext_term(&mut self.run, &mut sum, stream, message.buffer, index);
            });
            *sum_slot = sum.0;
        }
    }

    /// Takes the tag terms of the stage just evaluated (sealing: the
    /// ciphertext's; opening: the ciphertext's and the associated data's),
    /// then queues each tag `P(T ⊕ L)` and, opening, its keystream.
    fn take_terms_and_queue_tags(&mut self, count: usize, sealing: bool) {
        let entries = first(&self.messages, count)
            .iter()
            .zip(first_mut(&mut self.sums, count));
        for (message, sum_slot) in entries {
            let Some(message) = message else { continue };
            let jobs = jobs_of(message);
            let terms = if sealing {
                jobs.terms
            } else {
                jobs.terms + usize::from(second_associated_data_block(jobs))
            };
            let mut sum = Packed(*sum_slot);
            for _ in 0..terms {
                if let Some(term) = self.run.take() {
                    sum = sum.xor(Packed::load(term.as_ref()));
                }
            }
            *sum_slot = sum.0;
        }
        self.run.clear();
        let entries = first(&self.messages, count)
            .iter()
            .zip(first(&self.streams, count))
            .zip(first(&self.sums, count));
        for ((message, stream), sum) in entries {
            let Some(message) = message else { continue };
            let stream = Packed(*stream);
            // L is the stream's first block.
            queue(&mut self.run, Packed(*sum).xor(mask::<P>(stream, 0)));
            if !sealing {
                let blocks = jobs_of(message).keystream;
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
        let entries = first_mut(&mut self.messages, count)
            .iter_mut()
            .zip(first(&self.streams, count));
        for (message, stream) in entries {
            let Some(message) = message.take() else {
                continue;
            };
            let jobs = jobs_of(&message);
            let stream = Packed(*stream);
            let mut accept = 0;
            if let (Some(permuted), TagSlot::Open(received)) = (self.run.take(), message.tag) {
                let mut expected = tag::tag_from::<P>(permuted, message.expanded_key);
                accept = tag::accept_mask::<P>(&mut expected, received);
            }
            let keep = u64::from_ne_bytes([accept; WORD]);
            for_blocks!(jobs.keystream, |index| {
                if let Some(permuted) = self.run.take() {
                    let block = block_mut::<P>(message.buffer, index);
                    keystream::<P>(permuted, stream, index).xor_onto(block, keep);
                }
            });
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
    sum: &mut Packed,
    stream: Packed,
    ciphertext: &[u8],
    index: usize,
) {
    let masks = mask::<P>(stream, index).xor(mask::<P>(stream, index + 2));
    let block = padded_packed::<P>(ciphertext, index * P::BLOCK_SIZE);
    queue(run, block.xor(masks));
    *sum = sum.xor(masks);
}

impl<P: Permutation, const WAVE: usize, const STATES: usize> Drop
    for Lockstep<'_, P, WAVE, STATES>
{
    fn drop(&mut self) {
        // One fill each over the slots that held secrets.
        for slots in [&mut self.streams, &mut self.sums] {
            if let Some(used) = slots.get_mut(..self.used) {
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

    /// A packed block's bytes, for the checks below.
    fn bytes_of(packed: Packed) -> [u8; PACKED] {
        let mut bytes = [0; PACKED];
        packed.store(&mut bytes);
        bytes
    }

    /// The packed-block operations against plain byte arithmetic, at every length
    /// and offset: word loads of 0–8 bytes (the overlapping halves), the
    /// padding byte, the byte windows of the mask stream, the nonce's
    /// shift, and stores and XORs of every length.
    #[test]
    fn packed_blocks_match_bytes() {
        let data: Vec<u8> = (0..PACKED as u8)
            .map(|i| i.wrapping_mul(29) ^ 0x5b)
            .collect();
        for len in 0..=PACKED {
            let mut expected = [0; PACKED];
            expected[..len].copy_from_slice(&data[..len]);
            let packed = Packed::load(&data[..len]);
            assert_eq!(bytes_of(packed), expected, "load {len}");
            if len < PACKED {
                let mut padded = expected;
                padded[len] = 0x01;
                assert_eq!(
                    bytes_of(packed.xor(Packed::byte(len, 0x01))),
                    padded,
                    "byte {len}"
                );
            }
            let mut ones = [0; PACKED];
            ones[..len].fill(0xff);
            assert_eq!(bytes_of(Packed::ones(len)), ones, "ones {len}");
            assert_eq!(bytes_of(packed.and(Packed::ones(len.saturating_sub(3)))), {
                let mut cut = expected;
                cut[len.saturating_sub(3)..].fill(0);
                cut
            });
            // Stored into, and XORed onto, a shorter buffer.
            let mut stored = vec![0xee; len];
            Packed::load(&data).store(&mut stored);
            assert_eq!(stored, &data[..len], "store {len}");
            let mut block: Vec<u8> = (0..len as u8).map(|i| i ^ 0x33).collect();
            let start = block.clone();
            Packed::load(&data).xor_onto(&mut block, u64::MAX);
            for i in 0..len {
                assert_eq!(block[i], start[i] ^ data[i], "xor_onto {len}");
            }
            Packed::load(&data).xor_onto(&mut block, 0);
            for i in 0..len {
                assert_eq!(block[i], start[i] ^ data[i], "xor_onto kept {len}");
            }
        }
        let packed = Packed::load(&data);
        for offset in 0..WORD {
            let mut expected = [0; PACKED];
            expected[..PACKED - offset].copy_from_slice(&data[offset..]);
            assert_eq!(bytes_of(packed.skip(offset)), expected, "skip {offset}");
        }
        let mut expected = [0; PACKED];
        expected[NONCE_SIZE..].copy_from_slice(&data[..PACKED - NONCE_SIZE]);
        assert_eq!(bytes_of(packed.after_nonce()), expected, "after_nonce");
    }

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
            assert_eq!(Lockstep::<P, 3, 9>::new().process(messages), 0xff);
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
            let accept = Lockstep::<P, 3, 9>::new().process(messages);
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
