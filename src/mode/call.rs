//! One message's walk ([`super::jobs`]) as a resumable executor, so that a
//! single-message call and the multi-message scheduler drive the same code.
//!
//! A call keeps a cursor per kind of job and, at each step, fills the room
//! it is given on a [`Run`] (which other calls may share) from them, in one
//! fixed order: keystream, ciphertext terms, associated data terms, as far
//! as the mask window reaches; the tag once every term is in; then, when
//! opening, the keystream again from `mask_0`. Each kind goes on the run as
//! one segment, noted in a [`SegmentLog`]; [`Call::take`] reads the log to
//! route the results back (keystream into the message, terms into the
//! sum), so it never redoes the step's decisions.
//!
//! Invariants: sealing queues ciphertext term `j` only once block `j` is
//! written (a padding-only last term needs nothing written); opening writes
//! keystream only through the verdict's mask ([`tag::accept_mask`]):
//! plaintext if the tag matched, the output's own bytes if not, with no
//! branch on it. Every index a step queues lies within the mask window
//! from the oldest cursor still at work.
//!
//! Block counts and byte offsets come from lengths checked against the
//! limits at the entry: their arithmetic cannot overflow, and is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "block counts and offsets are bounded by the length limits (see the module doc)"
)]

use super::data::Data;
use super::jobs::{Jobs, SegmentLog};
use super::keystream::{self, copied_in};
use super::masks::MaskWindow;
use super::run::Run;
#[cfg(feature = "rayon")]
use super::tag::padded_blocks;
use super::tag::{self, TagSum};
use super::xor::{xor_masked, xor_words};
use super::{NONCE_SIZE, TagOf};
use crate::permutation::Permutation;
use aead::inout::InOutBuf;

/// A part of a long message and the work on it (feature `rayon`).
#[cfg(feature = "rayon")]
#[derive(Debug)]
pub(crate) enum Part<'a> {
    /// Plaintext (already in the output): keystream, then the tag terms of
    /// the ciphertext written.
    Seal(&'a mut [u8]),
    /// Ciphertext: its tag terms.
    Verify(&'a [u8]),
    /// Ciphertext (already in the output), once the tag matched: the
    /// keystream.
    Decrypt(&'a mut [u8]),
}

/// Where a call stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The keystream (sealing) and the terms.
    Walk,
    /// `P(T ⊕ L)`; opening adds the first keystream blocks to its step.
    Tag,
    /// Opening, after the tag: the rest of the keystream.
    Keystream,
    /// Finished: sealed, opened, or rejected.
    Done,
}

/// The next job of each kind to queue, and how far sealing has written.
#[derive(Clone, Copy, Debug)]
struct Cursors {
    keystream: usize,
    terms: usize,
    associated_data: usize,
    /// Sealing: ciphertext blocks written, whose terms may be queued.
    written: usize,
}

impl Cursors {
    /// At the start (associated data block 0 starts the sum).
    const START: Self = Self {
        keystream: 0,
        terms: 0,
        associated_data: 1,
        written: 0,
    };
}

/// What a message's call is given when it starts (besides the nonce).
struct Start<'a, P: Permutation> {
    expanded_key: &'a P::Block,
    /// `mask_0`: `L` for a whole message, a part's first mask otherwise.
    first_mask: &'a P::Block,
    associated_data: &'a [u8],
    sealing: bool,
    received: Option<&'a TagOf<P>>,
    jobs: Jobs,
    /// Whether the call ends with the tag (a part of a long message does
    /// not).
    finalize: bool,
    hold_keystream: bool,
}

/// One message's walk (see the module doc); `W` bytes of mask window.
pub(crate) struct Call<'a, P: Permutation, const W: usize> {
    expanded_key: &'a P::Block,
    /// `mask_0`: `L` for a whole message, a part's first mask otherwise.
    first_mask: &'a P::Block,
    nonce: P::Block,
    associated_data: &'a [u8],
    data: Data<'a>,
    /// Whether the call seals (else it opens).
    sealing: bool,
    /// The tag to check when opening a whole message.
    received: Option<&'a TagOf<P>>,
    jobs: Jobs,
    finalize: bool,
    /// Opening in one step: the keystream goes along with the terms and
    /// its results stay on the run until the verdict.
    hold_keystream: bool,
    masks: MaskWindow<P, W>,
    sum: TagSum<P>,
    phase: Phase,
    next: Cursors,
    /// What the last [`Self::queue`] put on the run.
    log: SegmentLog,
    /// The tag, once sealed.
    tag: TagOf<P>,
    /// Opening: `0xff` if the tag matched, else 0 ([`tag::accept_mask`]).
    accept: u8,
}

/// Starting a call, and what a finished one gives.
impl<'a, P: Permutation, const W: usize> Call<'a, P, W> {
    /// A call with nothing to do, to be started with `begin_seal` or
    /// `begin_open` (the multi-message scheduler keeps such calls in its
    /// slots and starts each in place, for one message after another).
    pub(crate) fn idle(expanded_key: &'a P::Block) -> Self {
        Self {
            expanded_key,
            first_mask: expanded_key,
            nonce: P::Block::default(),
            associated_data: &[],
            data: Data::InPlace(&mut []),
            sealing: true,
            received: None,
            jobs: Jobs::NONE,
            finalize: false,
            hold_keystream: false,
            masks: MaskWindow::new(),
            sum: TagSum::new(),
            phase: Phase::Done,
            next: Cursors::START,
            log: SegmentLog::EMPTY,
            tag: TagOf::<P>::default(),
            accept: 0,
        }
    }

    /// Starts the call on a message, in place: every field is written
    /// where it is (no call value is built and moved). What a previous
    /// message left is overwritten, or wiped when the call is dropped. The
    /// caller has set `data` (directly: built elsewhere and moved in, its
    /// pieces' stores would stall the wide loads of the move).
    #[cfg_attr(elephant_batch, inline(always))]
    fn begin(&mut self, nonce: &[u8; NONCE_SIZE], start: Start<'a, P>) {
        self.expanded_key = start.expanded_key;
        self.first_mask = start.first_mask;
        keystream::write_nonce_block::<P>(&mut self.nonce, nonce);
        self.associated_data = start.associated_data;
        self.sealing = start.sealing;
        self.received = start.received;
        self.jobs = start.jobs;
        self.finalize = start.finalize;
        self.hold_keystream = start.hold_keystream;
        // The previous message's masks are overwritten or, past this one's
        // reach, wiped with the window (it wipes every byte ever used).
        self.masks.restart(start.first_mask);
        if start.jobs.associated_data > 0 {
            self.sum.start(nonce, start.associated_data);
        } else {
            self.sum.clear();
        }
        self.phase = Phase::Walk;
        self.next = Cursors::START;
        self.log = SegmentLog::EMPTY;
        self.accept = 0;
        self.end_phase_if_finished();
    }

    /// Starts sealing a whole message: encrypts the buffer (input side to
    /// output side) and computes the tag.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(crate) fn begin_seal(
        &mut self,
        expanded_key: &'a P::Block,
        nonce: &[u8; NONCE_SIZE],
        associated_data: &'a [u8],
        buffer: InOutBuf<'a, 'a, u8>,
    ) {
        let jobs = Jobs::of::<P>(associated_data.len(), buffer.len());
        self.data = Data::InPlace(copied_in(buffer));
        let start = Start {
            expanded_key,
            first_mask: expanded_key,
            associated_data,
            sealing: true,
            received: None,
            jobs,
            finalize: true,
            hold_keystream: false,
        };
        self.begin(nonce, start);
    }

    /// Starts opening a whole message: verifies `tag` over the input side
    /// and, only if it matches, decrypts into the output side.
    /// `hold_keystream`: the walk and the keystream fit in one step of the
    /// run ([`super::plan::Plan::hold_keystream`]), which takes them together.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(crate) fn begin_open(
        &mut self,
        expanded_key: &'a P::Block,
        nonce: &[u8; NONCE_SIZE],
        associated_data: &'a [u8],
        buffer: InOutBuf<'a, 'a, u8>,
        tag: &'a TagOf<P>,
        hold_keystream: bool,
    ) {
        let jobs = Jobs::of::<P>(associated_data.len(), buffer.len());
        self.data = Data::in_place_or_not(buffer);
        let start = Start {
            expanded_key,
            first_mask: expanded_key,
            associated_data,
            sealing: false,
            received: Some(tag),
            jobs,
            finalize: true,
            hold_keystream: cfg!(elephant_batch) && hold_keystream,
        };
        self.begin(nonce, start);
    }

    /// A part of a long message, for one core (feature `rayon`): the
    /// blocks of `data`, which start at the mask `first_mask`, without the
    /// associated data and the tag. `last`: whether `data` ends the message
    /// (and so carries the padding); otherwise it is whole blocks.
    #[cfg(feature = "rayon")]
    pub(crate) fn part(
        first_mask: &'a P::Block,
        nonce: &[u8; NONCE_SIZE],
        part: Part<'a>,
        last: bool,
    ) -> Self {
        let (len, sealing, decrypting) = match &part {
            Part::Seal(data) => (data.len(), true, false),
            Part::Verify(data) => (data.len(), false, false),
            Part::Decrypt(data) => (data.len(), false, true),
        };
        let whole = len / P::BLOCK_SIZE;
        debug_assert!(last || whole * P::BLOCK_SIZE == len);
        let terms = if last { padded_blocks::<P>(len) } else { whole };
        let jobs = Jobs {
            keystream: len.div_ceil(P::BLOCK_SIZE),
            terms: if decrypting { 0 } else { terms },
            associated_data: 0,
            whole,
        };
        let mut call = Self::idle(first_mask);
        call.data = match part {
            Part::Seal(data) | Part::Decrypt(data) => Data::InPlace(data),
            Part::Verify(data) => Data::ReadOnly(data),
        };
        let start = Start {
            expanded_key: first_mask,
            first_mask,
            associated_data: &[],
            sealing,
            received: None,
            jobs,
            finalize: false,
            hold_keystream: false,
        };
        call.begin(nonce, start);
        if decrypting {
            call.accept = 0xff;
            call.phase = Phase::Keystream;
            call.end_phase_if_finished();
        }
        call
    }

    /// The associated data and the tag of a message whose blocks are done
    /// in [`Self::part`]s (feature `rayon`), whose sums go in with
    /// [`Self::add_to_sum`]: sealing if `tag` is `None`, else checking it
    /// (the caller decrypts the parts once [`Self::accept_mask`] says it matched).
    #[cfg(feature = "rayon")]
    pub(crate) fn associated_data_and_tag(
        expanded_key: &'a P::Block,
        nonce: &[u8; NONCE_SIZE],
        associated_data: &'a [u8],
        tag: Option<&'a TagOf<P>>,
    ) -> Self {
        let jobs = Jobs {
            keystream: 0,
            terms: 0,
            whole: 0,
            ..Jobs::of::<P>(associated_data.len(), 0)
        };
        let mut call = Self::idle(expanded_key);
        let start = Start {
            expanded_key,
            first_mask: expanded_key,
            associated_data,
            sealing: tag.is_none(),
            received: tag,
            jobs,
            finalize: true,
            hold_keystream: false,
        };
        call.begin(nonce, start);
        call
    }

    /// Adds a part's tag sum (feature `rayon`), before the call is driven.
    #[cfg(feature = "rayon")]
    pub(crate) fn add_to_sum(&mut self, part: &[u8]) {
        self.sum.add(part);
    }

    /// The tag sum of a finished part (feature `rayon`).
    #[cfg(feature = "rayon")]
    pub(crate) fn sum(&self) -> &[u8] {
        self.sum.as_bytes()
    }

    /// Whether the call has finished (sealed, opened or rejected).
    pub(crate) fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The tag of a sealed message.
    pub(crate) fn tag(&self) -> TagOf<P> {
        debug_assert!(self.is_done() && self.sealing);
        self.tag.clone()
    }

    /// Opening: `0xff` if the tag matched (and the plaintext was
    /// written), 0 if not; [`tag::verdict`] makes it a `Result`.
    pub(crate) fn accept_mask(&self) -> u8 {
        debug_assert!(self.is_done() && !self.sealing);
        self.accept
    }
}

/// The executor: each step queues the ready jobs and logs them; `take`
/// routes their results back by the log.
impl<P: Permutation, const W: usize> Call<'_, P, W> {
    /// Whether the walk's keystream is queued in it: sealing's, or opening's
    /// when held.
    fn walk_has_keystream(&self) -> bool {
        self.sealing || self.hold_keystream
    }

    /// Queues the next jobs that are ready, as many as fit on `run` and in
    /// the mask window, and logs them for [`Self::take`].
    pub(crate) fn queue<const N: usize>(&mut self, run: &mut Run<P, N>) {
        self.log = SegmentLog::EMPTY;
        match self.phase {
            Phase::Walk => self.queue_walk(run),
            Phase::Tag => {
                if run.room() > 0 {
                    self.sum.queue_final(run, self.expanded_key);
                    self.log.tag = true;
                    if !self.sealing && !self.hold_keystream {
                        self.queue_keystream(run);
                    }
                }
            }
            Phase::Keystream => self.queue_keystream(run),
            Phase::Done => {}
        }
    }

    /// The walk's jobs: keystream (sealing, or held), ciphertext terms,
    /// associated data terms, each from its cursor up to what is ready, the
    /// room left and the mask window's reach.
    fn queue_walk<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let (jobs, next) = (self.jobs, self.next);
        let keystream_end = if self.walk_has_keystream() {
            jobs.keystream
        } else {
            0
        };
        // Sealing: terms of written ciphertext, and the padding-only last
        // term once every block is written.
        let terms_ready = if !self.sealing || next.written == jobs.keystream {
            jobs.terms
        } else {
            next.written
        };
        let pending = |cursor: usize, end: usize| if cursor < end { cursor } else { usize::MAX };
        let oldest = pending(next.keystream, keystream_end)
            .min(pending(next.terms, jobs.terms))
            .min(pending(next.associated_data, jobs.associated_data));
        if oldest == usize::MAX {
            return;
        }
        let reach = MaskWindow::<P, W>::reach_from(oldest);
        let mut room = run.room();
        // A kind that is done (or absent: a part's associated data) has its
        // cursor at or past its end: none of it.
        let mut take = |cursor: usize, end: usize| {
            let count = end.min(reach).saturating_sub(cursor).min(room);
            room -= count;
            count
        };
        let keystream = take(next.keystream, keystream_end);
        let terms = take(next.terms, terms_ready);
        let associated_data = take(next.associated_data, jobs.associated_data);
        let end = (next.keystream + keystream)
            .max(next.terms + terms)
            .max(next.associated_data + associated_data);
        self.masks.prepare(oldest, end);

        // The keystream first: held, its results then stay at the front of
        // the run.
        self.queue_keystream_blocks(run, next.keystream, keystream);
        self.queue_ciphertext_terms(run, next.terms, terms);
        for index in next.associated_data..next.associated_data + associated_data {
            // Block `index` of `N ‖ A ‖ 01 ‖ 00…`, past the nonce.
            let data = (self.associated_data, index * P::BLOCK_SIZE - NONCE_SIZE);
            self.sum.queue_term(run, &self.masks, data, index, false);
        }
        self.log = SegmentLog {
            keystream_first: next.keystream,
            keystream,
            held: self.hold_keystream,
            terms,
            associated_data_terms: associated_data,
            ..SegmentLog::EMPTY
        };
        self.next.keystream += keystream;
        self.next.terms += terms;
        self.next.associated_data += associated_data;
    }

    /// Opening's keystream from the cursor on, as many blocks as fit.
    fn queue_keystream<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let first = self.next.keystream;
        let end = self
            .jobs
            .keystream
            .min(first + run.room())
            .min(MaskWindow::<P, W>::reach_from(first));
        self.masks.prepare(first, end);
        self.queue_keystream_blocks(run, first, end - first);
        self.log.keystream_first = first;
        self.log.keystream = end - first;
        self.next.keystream = end;
    }

    /// Queues keystream blocks `first .. first + count`.
    fn queue_keystream_blocks<const N: usize>(
        &self,
        run: &mut Run<P, N>,
        first: usize,
        count: usize,
    ) {
        if cfg!(elephant_batch) {
            keystream::queue_blocks(run, &self.nonce, &self.masks, first, count);
        } else {
            for index in first..first + count {
                keystream::queue(run, &self.nonce, &self.masks, index);
            }
        }
    }

    /// Queues the terms of ciphertext blocks `first .. first + count`: the
    /// whole blocks in one loop, the padded last one on its own.
    fn queue_ciphertext_terms<const N: usize>(
        &mut self,
        run: &mut Run<P, N>,
        first: usize,
        count: usize,
    ) {
        let end = first + count;
        let whole_end = end.min(self.jobs.whole).max(first);
        if cfg!(elephant_batch) && whole_end > first {
            self.queue_whole_terms(run, first, whole_end);
        }
        let from = if cfg!(elephant_batch) {
            whole_end
        } else {
            first
        };
        for index in from..end {
            let data = (self.data.read(), index * P::BLOCK_SIZE);
            self.sum.queue_term(run, &self.masks, data, index, true);
        }
    }

    /// The terms of the whole ciphertext blocks `from .. to`, in one loop
    /// (not inlined: short calls, which have none, stay small).
    #[inline(never)]
    #[expect(
        clippy::indexing_slicing,
        reason = "`to` is at most the message's whole blocks (`Jobs::whole`)"
    )]
    fn queue_whole_terms<const N: usize>(&mut self, run: &mut Run<P, N>, from: usize, to: usize) {
        let blocks = &self.data.read()[from * P::BLOCK_SIZE..to * P::BLOCK_SIZE];
        self.sum.queue_whole_terms(run, &self.masks, blocks, from);
    }

    /// Takes back the results of what the last [`Self::queue`] put on the
    /// run, segment by segment, in the order its log gives.
    pub(crate) fn take<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let log = self.log;
        if log.tag {
            self.take_tag(run);
        }
        if log.held {
            run.hold_front(log.keystream);
        } else if log.keystream > 0 {
            let accept = if self.sealing { 0xff } else { self.accept };
            self.apply_keystream_blocks(run, log.keystream_first, log.keystream, accept);
            if self.sealing {
                self.next.written = log.keystream_first + log.keystream;
            }
        }
        // Both kinds of terms go into the sum.
        self.sum
            .add_results(run, log.terms + log.associated_data_terms);
        self.end_phase_if_finished();
    }

    /// The tag's result: sealing keeps it; opening compares it, and with
    /// the keystream held writes it through the verdict's mask.
    fn take_tag<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let Some(result) = run.take() else { return };
        let mut expected = tag::tag_from::<P>(result, self.expanded_key);
        match self.received {
            None => {
                self.tag = expected;
                self.phase = Phase::Done;
            }
            Some(received) => {
                // The keystream goes on either way; only what it writes
                // depends on the verdict.
                self.accept = tag::accept_mask::<P>(&mut expected, received);
                self.phase = Phase::Keystream;
                if self.hold_keystream {
                    self.apply_held_keystream(run);
                }
            }
        }
    }

    /// Opening in one step: the keystream held on the run since the walk.
    fn apply_held_keystream<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let blocks = self.jobs.keystream;
        self.masks.prepare(0, blocks);
        for index in 0..blocks {
            if let Some(keystream) = run.held_mut(index) {
                self.apply_keystream(keystream, index, self.accept);
            }
        }
        run.release_held();
        self.next.keystream = blocks;
    }

    /// Keystream blocks `first .. first + count`, the next results on the
    /// run, into the message (see [`Self::apply_keystream`] for `accept`):
    /// the whole blocks of a message rewritten in place in one loop, the
    /// others one by one.
    fn apply_keystream_blocks<const N: usize>(
        &mut self,
        run: &mut Run<P, N>,
        first: usize,
        count: usize,
        accept: u8,
    ) {
        let end = first + count;
        let mut from = first;
        if cfg!(elephant_batch) {
            let whole_end = end.min(self.jobs.whole);
            if let (Data::InPlace(data), true) = (&mut self.data, whole_end > first) {
                let blocks = data.get_mut(first * P::BLOCK_SIZE..whole_end * P::BLOCK_SIZE);
                debug_assert!(blocks.is_some(), "blocks {first}..{whole_end} are whole");
                let blocks = blocks.unwrap_or_default();
                keystream::apply_blocks(run, &self.masks, first, blocks, accept);
                from = whole_end;
            }
        }
        for index in from..end {
            if let Some(keystream) = run.take_mut() {
                self.apply_keystream(keystream, index, accept);
            }
        }
    }

    /// Keystream block `index` from its permutation result (the run state,
    /// used as scratch space) into the message: the output becomes
    /// `input ⊕ keystream` where `accept` is `0xff` (sealing, or a tag
    /// that matched), and stays as it was where it is 0.
    #[cfg_attr(elephant_batch, inline(always))]
    fn apply_keystream(&mut self, permuted: &mut P::Block, index: usize, accept: u8) {
        let start = index * P::BLOCK_SIZE;
        let masks = self.masks.keystream_masks(index);
        if cfg!(elephant_batch) {
            // One pass from the permutation's result into the message
            // (firmware keeps the smaller code below).
            if let Data::InPlace(data) = &mut self.data {
                let end = (start + P::BLOCK_SIZE).min(data.len());
                if let Some(block) = data.get_mut(start..end) {
                    let sources = [permuted.as_ref(), masks[0], masks[1]];
                    if self.sealing {
                        xor_words(block, true, sources);
                    } else {
                        xor_masked(block, sources, accept);
                    }
                }
                return;
            }
        }
        self.data.xor_block(start, permuted.as_mut(), masks, accept);
    }

    /// Moves to the next phase once nothing is left of this one.
    fn end_phase_if_finished(&mut self) {
        let (jobs, next) = (self.jobs, self.next);
        match self.phase {
            Phase::Walk => {
                let keystream_done = !self.walk_has_keystream() || next.keystream >= jobs.keystream;
                if keystream_done
                    && next.terms >= jobs.terms
                    && next.associated_data >= jobs.associated_data
                {
                    self.phase = if self.finalize {
                        Phase::Tag
                    } else {
                        Phase::Done
                    };
                    if !self.sealing && !self.hold_keystream {
                        // Opening's keystream starts over at mask_0.
                        self.masks.restart(self.first_mask);
                        self.next.keystream = 0;
                    }
                }
            }
            Phase::Keystream => {
                if next.keystream >= jobs.keystream {
                    self.phase = Phase::Done;
                }
            }
            Phase::Tag | Phase::Done => {}
        }
    }
}
