//! The per-call core: one message's walk through Elephant, resumable, so
//! that a single-message call and the multi-message scheduler drive the
//! same code.
//!
//! A call owns what its message needs: `L`, the nonce block, a window of
//! the mask stream, and the tag sum. It is driven in steps on a [`Run`]
//! that may be shared with other calls: [`Call::queue`] puts the next
//! permutation inputs that are ready on the run, the driver evaluates the
//! run, and [`Call::take`] takes the results back in the same order.
//!
//! The walk goes through block indices `j = 0, 1, …` once; at each index
//! it queues what that index needs, with the masks `mask_j`, `mask_{j+1}`,
//! `mask_{j+2}` at hand:
//!
//! - sealing: keystream block `j`; when its result comes back, ciphertext
//!   block `j` is written (once), and its tag term is queued in the next
//!   step (it needs the ciphertext);
//! - opening: ciphertext block `j`'s tag term (the ciphertext is there);
//! - both: associated data block `j`'s tag term (`j ≥ 1`; block 0 starts
//!   the sum).
//!
//! Then the tag `P(T ⊕ L)`. Opening puts the first keystream blocks into
//! that same step (or, on a run of its own that holds everything, into the
//! walk's), and from the tag on writes the keystream through the verdict's
//! mask: plaintext if the tag matched, the output's own bytes if not, with
//! no branch on the verdict; the rest of the keystream follows, from `L`
//! again.

use super::data::Data;
use super::keystream::{self, copied_in};
use super::masks::MaskWindow;
use super::run::Run;
use super::tag::{self, TagSum, padded_blocks};
use super::xor::{xor_masked, xor_words};
use super::{NONCE_SIZE, TagOf};
use crate::permutation::Permutation;
use aead::inout::InOutBuf;

/// The bytes of blocks `from .. to` of a message.
fn block_range<P: Permutation>(from: usize, to: usize) -> core::ops::Range<usize> {
    from.saturating_mul(P::BLOCK_SIZE)..to.saturating_mul(P::BLOCK_SIZE)
}

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
    /// The walk over the blocks: keystream (sealing) and tag terms.
    Walk,
    /// `P(T ⊕ L)`; opening adds the first keystream blocks to its step.
    Tag,
    /// Opening, after the tag: the rest of the keystream, written through
    /// the verdict's mask.
    Keystream,
    /// Finished: sealed, opened, or rejected.
    Done,
}

/// A position in the walk: block `index`, before or after its message
/// item (the associated data's item comes second).
#[derive(Clone, Copy, Debug)]
struct Cursor {
    index: usize,
    message_done: bool,
}

impl Cursor {
    const START: Self = Self {
        index: 0,
        message_done: false,
    };
}

/// What a call covers: its blocks and whether it has the associated data
/// and the tag (a part of a long message split across cores has neither).
#[derive(Clone, Copy)]
struct Extent {
    /// Keystream blocks: `⌈|M| / block⌉`.
    keystream_blocks: usize,
    /// Ciphertext tag terms: `1 + ⌊|C| / block⌋` for a message's end (the
    /// padding), `|C| / block` for a part of whole blocks.
    term_blocks: usize,
    /// Padded blocks of `N ‖ A` (0 if the call has no associated data).
    associated_data_blocks: usize,
    /// Whether the call ends with the tag.
    finalize: bool,
    /// Opening in one step: the keystream goes along with the tag terms,
    /// and its results are held on the run until the verdict.
    hold_keystream: bool,
    /// Whole blocks of the message, `⌊|M| / block⌋`: the reach of the
    /// loops over many blocks (see `Call::steady_end`).
    whole_blocks: usize,
}

impl Extent {
    /// A whole message of `message_len` bytes with `associated_data_len`
    /// bytes of associated data, ending with the tag.
    fn whole<P: Permutation>(associated_data_len: usize, message_len: usize) -> Self {
        Self {
            keystream_blocks: message_len.div_ceil(P::BLOCK_SIZE),
            term_blocks: padded_blocks::<P>(message_len),
            associated_data_blocks: padded_blocks::<P>(
                NONCE_SIZE.saturating_add(associated_data_len),
            ),
            finalize: true,
            hold_keystream: false,
            whole_blocks: message_len.checked_div(P::BLOCK_SIZE).unwrap_or_default(),
        }
    }
}

/// Sealing: the ciphertext blocks `start..end` are written and their tag
/// terms not yet queued (`start <= end`). The walk queues them oldest
/// first, before its next keystream, as room on the run allows.
#[derive(Clone, Copy, Debug)]
struct Backlog {
    start: usize,
    end: usize,
}

impl Backlog {
    const EMPTY: Self = Self { start: 0, end: 0 };

    fn is_empty(self) -> bool {
        self.start >= self.end
    }

    /// The oldest `count` blocks at most, now queued: taken off the backlog.
    fn take(&mut self, count: usize) -> core::ops::Range<usize> {
        let count = count.min(self.end.saturating_sub(self.start));
        let taken = self.start..self.start.saturating_add(count);
        self.start = taken.end;
        taken
    }
}

/// What the last [`Call::queue`] put on the run, for [`Call::take`] to take
/// back in the same order: `terms` tag terms of the backlog, then the
/// tag if `tag`, then the items of `phase` from the cursor `from` up to
/// the call's cursor.
#[derive(Clone, Copy, Debug)]
struct Queued {
    phase: Phase,
    terms: usize,
    tag: bool,
    from: Cursor,
}

impl Queued {
    /// Nothing on the run.
    const NOTHING: Self = Self {
        phase: Phase::Done,
        terms: 0,
        tag: false,
        from: Cursor::START,
    };
}

/// What [`Call::begin`] starts a call with (besides the nonce).
struct Start<'a, P: Permutation> {
    expanded_key: &'a P::Block,
    /// `mask_0`: `L` for a whole message, a part's first mask otherwise.
    first_mask: &'a P::Block,
    associated_data: &'a [u8],
    sealing: bool,
    received: Option<&'a TagOf<P>>,
    extent: Extent,
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
    extent: Extent,
    masks: MaskWindow<P, W>,
    sum: TagSum<P>,
    phase: Phase,
    /// The next item to queue.
    next: Cursor,
    /// Sealing: ciphertext written whose tag terms are not queued.
    backlog: Backlog,
    /// What the last [`Self::queue`] put on the run.
    queued: Queued,
    /// The tag, once sealed.
    tag: TagOf<P>,
    /// Opening: `0xff` if the tag matched, else 0 ([`tag::accept_mask`]).
    accept: u8,
}

impl<'a, P: Permutation, const W: usize> Call<'a, P, W> {
    /// A call with nothing to do, to be started with one of the `begin_`
    /// methods (the multi-message scheduler keeps such calls in its slots
    /// and starts each in place, for one message after another).
    pub(crate) fn idle(expanded_key: &'a P::Block) -> Self {
        Self {
            expanded_key,
            first_mask: expanded_key,
            nonce: P::Block::default(),
            associated_data: &[],
            data: Data::InPlace(&mut []),
            sealing: true,
            received: None,
            extent: Extent {
                keystream_blocks: 0,
                term_blocks: 0,
                associated_data_blocks: 0,
                finalize: false,
                hold_keystream: false,
                whole_blocks: 0,
            },
            masks: MaskWindow::new(),
            sum: TagSum::new(),
            phase: Phase::Done,
            next: Cursor::START,
            backlog: Backlog::EMPTY,
            queued: Queued::NOTHING,
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
        let Start {
            expanded_key,
            first_mask,
            associated_data,
            sealing,
            received,
            extent,
        } = start;
        self.expanded_key = expanded_key;
        self.first_mask = first_mask;
        keystream::write_nonce_block::<P>(&mut self.nonce, nonce);
        self.associated_data = associated_data;
        self.sealing = sealing;
        self.received = received;
        self.extent = extent;
        // The previous message's masks are overwritten or, past this one's
        // reach, wiped with the window (it wipes every byte ever used).
        self.masks.restart(first_mask);
        if extent.associated_data_blocks > 0 {
            self.sum.start(nonce, associated_data);
        } else {
            self.sum.clear();
        }
        self.phase = Phase::Walk;
        self.next = Cursor::START;
        self.backlog = Backlog::EMPTY;
        self.queued = Queued::NOTHING;
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
        let extent = Extent::whole::<P>(associated_data.len(), buffer.len());
        self.data = Data::InPlace(copied_in(buffer));
        self.begin(
            nonce,
            Start {
                expanded_key,
                first_mask: expanded_key,
                associated_data,
                sealing: true,
                received: None,
                extent,
            },
        );
    }

    /// Starts opening a whole message: verifies `tag` over the input side
    /// and, only if it matches, decrypts into the output side.
    #[cfg_attr(elephant_batch, inline(always))]
    pub(crate) fn begin_open(
        &mut self,
        expanded_key: &'a P::Block,
        nonce: &[u8; NONCE_SIZE],
        associated_data: &'a [u8],
        buffer: InOutBuf<'a, 'a, u8>,
        tag: &'a TagOf<P>,
    ) {
        let extent = Extent::whole::<P>(associated_data.len(), buffer.len());
        self.data = Data::in_place_or_not(buffer);
        self.begin(
            nonce,
            Start {
                expanded_key,
                first_mask: expanded_key,
                associated_data,
                sealing: false,
                received: Some(tag),
                extent,
            },
        );
    }

    /// A part of a long message, for one core (feature `rayon`): the
    /// blocks of `data`, which start at the mask `first_mask`, without the
    /// associated data and the tag. `last`: whether `data` ends the message
    /// (and so carries the padding); otherwise it is whole blocks.
    #[cfg(feature = "rayon")]
    pub(crate) fn part(
        first_mask: &'a P::Block,
        nonce: &[u8; NONCE_SIZE],
        data: Part<'a>,
        last: bool,
    ) -> Self {
        let (len, sealing, decrypting) = match &data {
            Part::Seal(data) => (data.len(), true, false),
            Part::Verify(data) => (data.len(), false, false),
            Part::Decrypt(data) => (data.len(), false, true),
        };
        let whole_blocks = len.checked_div(P::BLOCK_SIZE).unwrap_or_default();
        debug_assert!(last || whole_blocks.saturating_mul(P::BLOCK_SIZE) == len);
        let term_blocks = if last {
            padded_blocks::<P>(len)
        } else {
            whole_blocks
        };
        let extent = Extent {
            keystream_blocks: len.div_ceil(P::BLOCK_SIZE),
            term_blocks: if decrypting { 0 } else { term_blocks },
            associated_data_blocks: 0,
            finalize: false,
            hold_keystream: false,
            whole_blocks,
        };
        let data = match data {
            Part::Seal(data) | Part::Decrypt(data) => Data::InPlace(data),
            Part::Verify(data) => Data::ReadOnly(data),
        };
        let mut call = Self::idle(first_mask);
        call.data = data;
        call.begin(
            nonce,
            Start {
                expanded_key: first_mask,
                first_mask,
                associated_data: &[],
                sealing,
                received: None,
                extent,
            },
        );
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
        let extent = Extent::whole::<P>(associated_data.len(), 0);
        let mut call = Self::idle(expanded_key);
        call.begin(
            nonce,
            Start {
                expanded_key,
                first_mask: expanded_key,
                associated_data,
                sealing: tag.is_none(),
                received: tag,
                extent: Extent {
                    keystream_blocks: 0,
                    term_blocks: 0,
                    ..extent
                },
            },
        );
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

    /// For opening on a run of its own with room for `run_blocks`: if the
    /// whole walk and the keystream fit in one step, computes the
    /// keystream in that step and holds it on the run until the verdict
    /// (one batch less, which matters for the wide SIMD batches).
    #[cfg(elephant_batch)]
    pub(crate) fn hold_keystream_if_one_step(&mut self, run_blocks: usize) {
        let items = self
            .extent
            .term_blocks
            .saturating_add(self.extent.associated_data_blocks)
            .saturating_add(self.extent.keystream_blocks);
        self.extent.hold_keystream = !self.sealing
            && self.phase == Phase::Walk
            && items <= run_blocks
            && self.walk_end() <= MaskWindow::<P, W>::reach_from(0);
    }

    /// Whether opening holds its keystream on the run (64-bit targets
    /// only, so that firmware links none of it).
    fn holds_keystream(&self) -> bool {
        cfg!(elephant_batch) && self.extent.hold_keystream
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

    /// The first index past the walk.
    fn walk_end(&self) -> usize {
        self.extent
            .term_blocks
            .max(self.extent.associated_data_blocks)
    }

    /// Queues the next permutation inputs that are ready, as many as fit
    /// on `run` and in the mask window.
    pub(crate) fn queue<const N: usize>(&mut self, run: &mut Run<P, N>) {
        self.queued = Queued {
            phase: self.phase,
            from: self.next,
            ..Queued::NOTHING
        };
        match self.phase {
            Phase::Walk => self.queue_walk(run),
            Phase::Tag => {
                if run.room() > 0 {
                    self.sum.queue_final(run, self.expanded_key);
                    self.queued.tag = true;
                    if !self.sealing && !self.holds_keystream() {
                        self.queue_keystream(run);
                    }
                }
            }
            Phase::Keystream => self.queue_keystream(run),
            Phase::Done => {}
        }
    }

    /// The walk's items: first the tag terms of ciphertext just written,
    /// then the items of the next indices.
    fn queue_walk<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let oldest = if self.backlog.is_empty() {
            self.next.index
        } else {
            self.backlog.start
        };
        // Each index up to `end` takes one item or more, but the current
        // one may have none left.
        let end = self
            .walk_end()
            .min(self.next.index.saturating_add(run.room()).saturating_add(1))
            .min(MaskWindow::<P, W>::reach_from(oldest));
        self.masks.prepare(oldest, end.max(self.backlog.end));

        // Sealing queues keystream first: the tag terms of ciphertext
        // already written can wait (within the window), so that every run
        // of a long message is full. Terms first would give a run of terms
        // after each run of keystream, and part-empty runs for the last
        // keystream blocks and their terms (a 16 KiB Dumbo message took
        // eight runs of 256 blocks or fewer; it now takes seven, the
        // fewest its 1,640 permutations fit in).
        let keystream_ready = if cfg!(elephant_batch) && self.sealing {
            self.extent
                .keystream_blocks
                .min(end)
                .saturating_sub(self.next.index)
        } else {
            0
        };
        let pending = self
            .backlog
            .take(run.room().saturating_sub(keystream_ready));
        let mut first_left = pending.start;
        let whole_end = pending.end.min(self.extent.whole_blocks);
        if cfg!(elephant_batch) && whole_end > first_left {
            // The whole blocks in one loop, as in `queue_steady`.
            self.queue_whole_pending(run, first_left, whole_end);
            first_left = whole_end;
        }
        self.queued.terms = pending.len();
        for index in first_left..pending.end {
            self.queue_ciphertext_term(run, index);
        }
        self.queued.from = self.next;

        // An index's items are queued when there is room for them; one
        // without items is passed over even on a full run, so that a call
        // whose last item just filled the run still ends its walk. Where
        // the steady state starts, it takes over (`take_walk` checks at the
        // same places).
        while self.next.index < end {
            let limit = end.min(self.next.index.saturating_add(run.room()));
            if let Some(steady_end) = self.steady_end(self.next, limit) {
                if steady_end > self.next.index {
                    self.queue_steady(run, steady_end);
                }
                if self.next.index >= end {
                    break;
                }
            }
            let index = self.next.index;
            if self.next.message_done {
                let has_item = index >= 1 && index < self.extent.associated_data_blocks;
                if has_item && run.room() == 0 {
                    break;
                }
                if has_item {
                    // Block `index` of `N ‖ A ‖ 01 ‖ 00…`, past the nonce.
                    let start = index
                        .saturating_mul(P::BLOCK_SIZE)
                        .saturating_sub(NONCE_SIZE);
                    let data = (self.associated_data, start);
                    self.sum.queue_term(run, &self.masks, data, index, false);
                }
                self.next = Cursor {
                    index: index.saturating_add(1),
                    message_done: false,
                };
            } else {
                let items = if self.sealing && index < self.extent.keystream_blocks {
                    1
                } else if index < self.extent.term_blocks {
                    1usize.saturating_add(usize::from(
                        self.holds_keystream() && index < self.extent.keystream_blocks,
                    ))
                } else {
                    0
                };
                if run.room() < items {
                    break;
                }
                if self.sealing && index < self.extent.keystream_blocks {
                    keystream::queue(run, &self.nonce, &self.masks, index);
                } else if index < self.extent.term_blocks {
                    // Opening, or sealing's last term that is padding only.
                    self.queue_ciphertext_term(run, index);
                    if self.holds_keystream() && index < self.extent.keystream_blocks {
                        keystream::queue(run, &self.nonce, &self.masks, index);
                    }
                }
                self.next.message_done = true;
            }
        }
    }

    /// The walk's steady state, in one loop (64-bit targets; firmware
    /// keeps the general loop, its smaller code): from the cursor to
    /// `steady_end` (see [`Self::steady_end`]), the whole blocks past the
    /// associated data, whose only item is the message's (a keystream
    /// block when sealing, a ciphertext tag term when opening). The general
    /// loop of [`Self::queue_walk`] goes through each index's two halves
    /// and the cases of the walk's ends; a long message's blocks take none
    /// of that. Not inlined, so that the general loop stays as small as
    /// short calls want it.
    #[inline(never)]
    fn queue_steady<const N: usize>(&mut self, run: &mut Run<P, N>, steady_end: usize) {
        let index = self.next.index;
        let count = steady_end.saturating_sub(index);
        if self.sealing {
            keystream::queue_blocks(run, &self.nonce, &self.masks, index, count);
        } else {
            self.queue_whole_pending(run, index, steady_end);
        }
        self.next.index = steady_end;
    }

    /// The tag terms of the whole ciphertext blocks `from .. to` (when
    /// sealing, those written in the last step), in one loop (not inlined,
    /// as `queue_steady`).
    #[inline(never)]
    #[expect(
        clippy::indexing_slicing,
        reason = "`to` is at most the message's whole blocks (`Extent::whole_blocks`)"
    )]
    fn queue_whole_pending<const N: usize>(&mut self, run: &mut Run<P, N>, from: usize, to: usize) {
        let blocks = &self.data.read()[block_range::<P>(from, to)];
        self.sum.queue_whole_terms(run, &self.masks, blocks, from);
    }

    /// Where the steady state that starts at `at` ends, at most at `limit`
    /// (`None` if `at` is not in it): the whole blocks past the associated
    /// data, while the call does not hold its keystream.
    fn steady_end(&self, at: Cursor, limit: usize) -> Option<usize> {
        // The cheapest test first: short calls (no whole block left) are
        // out after one comparison.
        let steady = cfg!(elephant_batch)
            && at.index < self.extent.whole_blocks
            && !at.message_done
            && at.index >= self.extent.associated_data_blocks.max(1)
            && !self.holds_keystream();
        steady.then(|| limit.min(self.extent.whole_blocks).max(at.index))
    }

    /// Queues ciphertext block `index`'s tag term (padded if it is the last).
    #[cfg_attr(elephant_batch, inline(always))]
    fn queue_ciphertext_term<const N: usize>(&mut self, run: &mut Run<P, N>, index: usize) {
        let start = index.saturating_mul(P::BLOCK_SIZE);
        let data = (self.data.read(), start);
        self.sum.queue_term(run, &self.masks, data, index, true);
    }

    /// Keystream blocks from the cursor on, as many as fit.
    fn queue_keystream<const N: usize>(&mut self, run: &mut Run<P, N>) {
        self.queued.from = self.next;
        let end = self
            .extent
            .keystream_blocks
            .min(self.next.index.saturating_add(run.room()))
            .min(MaskWindow::<P, W>::reach_from(self.next.index));
        self.masks.prepare(self.next.index, end);
        let index = self.next.index;
        if cfg!(elephant_batch) {
            let count = end.saturating_sub(index);
            keystream::queue_blocks(run, &self.nonce, &self.masks, index, count);
        } else {
            for index in index..end {
                keystream::queue(run, &self.nonce, &self.masks, index);
            }
        }
        self.next.index = end;
    }

    /// Takes back the results of what the last [`Self::queue`] put on the
    /// run, in the same order.
    pub(crate) fn take<const N: usize>(&mut self, run: &mut Run<P, N>) {
        self.sum.add_results(run, self.queued.terms);
        if self.queued.tag {
            self.take_tag(run);
        }
        match self.queued.phase {
            Phase::Walk => self.take_walk(run),
            Phase::Tag | Phase::Keystream => self.take_keystream(run),
            Phase::Done => {}
        }
        self.queued = Queued {
            from: self.queued.from,
            ..Queued::NOTHING
        };
        self.end_phase_if_finished();
    }

    /// The results of the walk's items from `queued.from` to the cursor.
    fn take_walk<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let sealing = self.sealing;
        let mut at = self.queued.from;
        let next = self.next;
        let more = |at: Cursor| {
            at.index < next.index
                || (at.index == next.index && !at.message_done && next.message_done)
        };
        while more(at) {
            if let Some(steady_end) = self.steady_end(at, next.index) {
                if steady_end > at.index {
                    self.take_steady(run, at.index, steady_end);
                    at.index = steady_end;
                }
                if !more(at) {
                    break;
                }
            }
            let index = at.index;
            if at.message_done {
                if index >= 1 && index < self.extent.associated_data_blocks {
                    if let Some(result) = run.take() {
                        self.sum.add(result.as_ref());
                    }
                }
                at = Cursor {
                    index: index.saturating_add(1),
                    message_done: false,
                };
            } else {
                if sealing && index < self.extent.keystream_blocks {
                    if let Some(keystream) = run.take_mut() {
                        self.apply_keystream(keystream, index, 0xff);
                    }
                    // Its tag term goes into the next step.
                    self.backlog.end = index.saturating_add(1);
                } else if index < self.extent.term_blocks {
                    if let Some(result) = run.take() {
                        self.sum.add(result.as_ref());
                    }
                    if self.holds_keystream() && index < self.extent.keystream_blocks {
                        run.take();
                        run.hold_taken();
                    }
                }
                at.message_done = true;
            }
        }
    }

    /// The results of [`Self::queue_steady`]'s items on blocks `index ..
    /// steady_end`, in one loop (not inlined, as it).
    #[inline(never)]
    fn take_steady<const N: usize>(
        &mut self,
        run: &mut Run<P, N>,
        index: usize,
        steady_end: usize,
    ) {
        if self.sealing {
            let applied = self.apply_whole_keystream(run, index, steady_end, 0xff);
            debug_assert!(applied, "sealing writes in place (`begin_seal`, `part`)");
            // Their tag terms go into the next step.
            self.backlog.end = steady_end;
        } else {
            self.sum.add_results(run, steady_end.saturating_sub(index));
        }
    }

    /// The tag's result: sealing keeps it; opening compares it.
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
                if self.holds_keystream() {
                    self.apply_held_keystream(run);
                }
            }
        }
    }

    /// Opening in one step: the keystream held on the run since the walk.
    fn apply_held_keystream<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let blocks = self.extent.keystream_blocks;
        self.masks.prepare(0, blocks);
        for index in 0..blocks {
            if let Some(keystream) = run.held_mut(index) {
                self.apply_keystream(keystream, index, self.accept);
            }
        }
        run.release_held();
        self.next.index = blocks;
        // Nothing of the keystream is in flight.
        self.queued.from = self.next;
    }

    /// Opening's keystream results from `queued.from` to the cursor:
    /// each block's plaintext is written if the tag matched, and the
    /// output's own bytes again if not (so it is left as it was), without
    /// a branch on the verdict.
    fn take_keystream<const N: usize>(&mut self, run: &mut Run<P, N>) {
        let mut first_left = self.queued.from.index;
        // The whole blocks in one loop, as in `take_steady`.
        let whole_end = self.next.index.min(self.extent.whole_blocks);
        if cfg!(elephant_batch)
            && whole_end > first_left
            && self.apply_whole_keystream(run, first_left, whole_end, self.accept)
        {
            first_left = whole_end;
        }
        for index in first_left..self.next.index {
            if let Some(keystream) = run.take_mut() {
                self.apply_keystream(keystream, index, self.accept);
            }
        }
    }

    /// Keystream blocks `from .. to` (whole blocks), the next results on
    /// the run, into a message rewritten in place, in one loop (see
    /// [`Self::apply_keystream`] for `accept`); `false`, with nothing
    /// taken, if the message has separate sides.
    fn apply_whole_keystream<const N: usize>(
        &mut self,
        run: &mut Run<P, N>,
        from: usize,
        to: usize,
        accept: u8,
    ) -> bool {
        let Data::InPlace(data) = &mut self.data else {
            return false;
        };
        let blocks = data.get_mut(block_range::<P>(from, to));
        debug_assert!(blocks.is_some(), "blocks {from}..{to} are whole");
        keystream::apply_blocks(run, &self.masks, from, blocks.unwrap_or_default(), accept);
        true
    }

    /// Keystream block `index` from its permutation result (the run state,
    /// used as scratch space) into the message: the output becomes
    /// `input ⊕ keystream` where `accept` is `0xff` (sealing, or a tag
    /// that matched), and stays as it was where it is 0.
    #[cfg_attr(elephant_batch, inline(always))]
    fn apply_keystream(&mut self, permuted: &mut P::Block, index: usize, accept: u8) {
        let start = index.saturating_mul(P::BLOCK_SIZE);
        let masks = self.masks.keystream_masks(index);
        if cfg!(elephant_batch) {
            // One pass from the permutation's result into the message
            // (firmware keeps the smaller code below).
            if let Data::InPlace(data) = &mut self.data {
                let end = start.saturating_add(P::BLOCK_SIZE).min(data.len());
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
        match self.phase {
            Phase::Walk => {
                if self.next.index >= self.walk_end() && self.backlog.is_empty() {
                    self.phase = if self.extent.finalize {
                        Phase::Tag
                    } else {
                        Phase::Done
                    };
                    if !self.sealing {
                        // Opening's keystream starts over at mask_0.
                        self.masks.restart(self.first_mask);
                        self.next = Cursor::START;
                    }
                }
            }
            Phase::Keystream => {
                if self.next.index >= self.extent.keystream_blocks {
                    self.phase = Phase::Done;
                }
            }
            Phase::Tag | Phase::Done => {}
        }
    }
}
