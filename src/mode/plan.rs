//! The one decision per call: from public lengths and counts (and the
//! CPU's tier), which driver takes the call, with which run length, and
//! how deep the stack is cleared after it.
//!
//! The single-message call (`mode::encrypt`, `mode::decrypt`), the
//! multi-message scheduler (`crate::batch`) and the clearing
//! (`crate::scrub`) read the plan; none of them decides again. Only public
//! values go in (lengths, and the CPU's tiers as the permutation layer
//! reports them), so the path a call takes reveals nothing secret.

#[cfg(elephant_batch)]
use super::jobs::Jobs;
#[cfg(elephant_batch)]
use super::masks::MaskWindow;
#[cfg(elephant_batch)]
use super::window_for;
use super::{RUN_BLOCKS, lockstep};
use crate::permutation::{Instance, Permutation, SHORT_BATCH_MAX, Tiers};
use crate::scrub::Depth;

/// Run length for short single-message calls, whose blocks fit in one
/// such run: setting up (and wiping) a full run would cost more than the
/// permutations. The longest batch that reaches no wide kernel of either
/// permutation, as the permutation layer exports it: a short call's runs
/// stay in the kernels its clearing was measured with.
pub(crate) const SHORT_RUN: usize = SHORT_BATCH_MAX;

// A short run reaches no wide kernel, and holds a message of a block or
// two (the plan's short path and its depths assume so).
const _: () = assert!(SHORT_RUN <= SHORT_BATCH_MAX && SHORT_RUN >= 4);

/// The most blocks a short call with less than two blocks of message and
/// associated data together queues in one step (its keystream, or its tag
/// terms): below that, no lanes kernel is reached
/// ([`Permutation::lanes_batch`]), and the call clears less.
const UNDER_TWO_BLOCKS_RUN: usize = 3;

/// Run length for sealing a medium message where the permutation has a
/// narrow kernel of a width that divides it ([`Permutation::narrow_batch`]).
#[cfg(any(all(test, elephant_batch), elephant_x86))]
pub(super) const MEDIUM_RUN: usize = 64;

/// Permutations a medium message may need at most: three runs of
/// [`MEDIUM_RUN`], three narrow calls where [`RUN_BLOCKS`] would take two
/// wide ones (keystream, then tag terms) that each cost about two.
#[cfg(elephant_x86)]
const MEDIUM_PERMUTATIONS: usize = 3 * MEDIUM_RUN;

/// Which driver takes a single message. Builds without batch kernels
/// have one path only (plus the cores' one, with `rayon`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// Split across cores (`parallel`).
    #[cfg(feature = "rayon")]
    Parallel,
    /// One block and one permutation at a time (`sequential`).
    #[cfg(not(elephant_batch))]
    OneBlock,
    /// The walk on a run of [`SHORT_RUN`] blocks.
    #[cfg(elephant_batch)]
    Short,
    /// The walk on runs of [`MEDIUM_RUN`] blocks (sealing only; the narrow
    /// kernels it is for are x86's).
    #[cfg(elephant_x86)]
    Medium,
    /// The walk on runs of [`RUN_BLOCKS`].
    #[cfg(elephant_batch)]
    Long,
}

/// A single-message call's plan.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// The driver.
    pub(crate) path: Path,
    /// How deep to clear after the call.
    pub(crate) depth: Depth,
    /// Opening: the walk and the keystream fit in one step of the run, so
    /// the keystream goes with the terms and waits on the run for the
    /// verdict (one batch less, which matters for the wide SIMD batches).
    #[cfg_attr(not(elephant_batch), allow(dead_code))]
    pub(crate) hold_keystream: bool,
}

impl Plan {
    /// The plan for sealing (`sealing`) or opening a message of
    /// `message_len` bytes with `associated_data_len` bytes of associated
    /// data, on a CPU with `tiers`.
    #[inline(always)]
    pub(crate) fn single<P: Permutation>(
        tiers: Tiers,
        sealing: bool,
        associated_data_len: usize,
        message_len: usize,
    ) -> Self {
        let short = is_short::<P>(associated_data_len, message_len);
        let path = path::<P>(tiers, sealing, short, associated_data_len, message_len);
        Self {
            path,
            #[cfg(elephant_batch)]
            hold_keystream: !sealing
                && holds_keystream::<P>(path, associated_data_len, message_len),
            #[cfg(not(elephant_batch))]
            hold_keystream: false,
            depth: if cfg!(not(elephant_batch)) {
                Depth::OneBlockCall(P::ID)
            } else if is_medium_path(path) {
                Depth::MediumCall
            } else if !short && P::ID == Instance::Delirium {
                Depth::LongCallKeccak
            } else if !short {
                Depth::LongCall
            } else if P::ID == Instance::Delirium {
                Depth::ShortCallKeccak
            } else if P::lanes_batch(tiers).is_some_and(|fewest| {
                // The most blocks one of the call's runs may hold.
                let longest = if associated_data_len.saturating_add(message_len)
                    >= P::BLOCK_SIZE.saturating_mul(2)
                {
                    SHORT_RUN
                } else {
                    UNDER_TWO_BLOCKS_RUN
                };
                longest >= fewest
            }) {
                Depth::ShortCallLanes
            } else {
                Depth::ShortCall
            },
        }
    }
}

/// The most blocks one batch of a single-message call of these lengths
/// holds on a CPU with `tiers`: its runs' length, or the call's
/// permutations if fewer (its keystream and tag terms). For the
/// benchmarks, which name the kernels a call runs.
pub(crate) fn longest_batch<P: Permutation>(
    tiers: Tiers,
    sealing: bool,
    associated_data_len: usize,
    message_len: usize,
) -> usize {
    let run = match Plan::single::<P>(tiers, sealing, associated_data_len, message_len).path {
        #[cfg(feature = "rayon")]
        Path::Parallel => RUN_BLOCKS,
        #[cfg(not(elephant_batch))]
        Path::OneBlock => 1,
        #[cfg(elephant_batch)]
        Path::Short => SHORT_RUN,
        #[cfg(elephant_x86)]
        Path::Medium => MEDIUM_RUN,
        #[cfg(elephant_batch)]
        Path::Long => RUN_BLOCKS,
    };
    run.min(permutations::<P>(associated_data_len, message_len))
}

/// The permutations of a message's walk but the tag, about: its keystream
/// and tag terms, two a block, and the padded blocks of `N ‖ A`. On lengths
/// not yet checked against the limits (the plan comes first), so saturating.
fn permutations<P: Permutation>(associated_data_len: usize, message_len: usize) -> usize {
    let header_blocks = associated_data_len
        .saturating_add(super::NONCE_SIZE)
        .saturating_add(1)
        .div_ceil(P::BLOCK_SIZE);
    message_len
        .div_ceil(P::BLOCK_SIZE)
        .saturating_mul(2)
        .saturating_add(header_blocks)
}

/// [`Plan::single`]'s driver.
#[inline(always)]
// Without narrow kernels the path depends on `short` only, and the
// one-block mode has one path whatever the lengths.
#[cfg_attr(
    not(elephant_x86),
    allow(unused_variables, clippy::extra_unused_type_parameters)
)]
fn path<P: Permutation>(
    tiers: Tiers,
    sealing: bool,
    short: bool,
    associated_data_len: usize,
    message_len: usize,
) -> Path {
    #[cfg(feature = "rayon")]
    if super::parallel::worth_it(message_len) {
        return Path::Parallel;
    }
    #[cfg(not(elephant_batch))]
    return Path::OneBlock;
    #[cfg(elephant_x86)]
    if !short && sealing && is_medium::<P>(tiers, associated_data_len, message_len) {
        return Path::Medium;
    }
    #[cfg(elephant_batch)]
    if short { Path::Short } else { Path::Long }
}

/// Whether opening on `path` holds its keystream ([`Plan::hold_keystream`]):
/// every job of the walk fits on the path's run, and in the mask window
/// from `mask_0`.
#[cfg(elephant_batch)]
#[expect(
    clippy::arithmetic_side_effects,
    reason = "block counts of slices, at most isize::MAX bytes"
)]
fn holds_keystream<P: Permutation>(
    path: Path,
    associated_data_len: usize,
    message_len: usize,
) -> bool {
    let jobs = Jobs::of::<P>(associated_data_len, message_len);
    let fits = |run: usize, reach: usize| {
        jobs.keystream + jobs.terms + jobs.associated_data <= run
            && jobs.terms.max(jobs.associated_data) <= reach
    };
    match path {
        Path::Short => fits(
            SHORT_RUN,
            MaskWindow::<P, { window_for(SHORT_RUN) }>::reach_from(0),
        ),
        Path::Long => fits(
            RUN_BLOCKS,
            MaskWindow::<P, { window_for(RUN_BLOCKS) }>::reach_from(0),
        ),
        #[cfg(elephant_x86)]
        Path::Medium => false,
        #[cfg(feature = "rayon")]
        Path::Parallel => false,
    }
}

/// Whether `path` is `Path::Medium` (builds without narrow kernels have
/// no such path).
#[cfg_attr(not(elephant_x86), allow(unused_variables))]
fn is_medium_path(path: Path) -> bool {
    #[cfg(elephant_x86)]
    return path == Path::Medium;
    #[cfg(not(elephant_x86))]
    false
}

/// How deep to clear after a key setup (the key expansion).
#[inline(always)]
pub(crate) fn key_expansion<P: Permutation>() -> Depth {
    if cfg!(elephant_batch) {
        Depth::KeyExpansion
    } else {
        Depth::OneBlockKey(P::ID)
    }
}

/// Whether a call is short enough for a [`SHORT_RUN`]-block run: its
/// message and AD together fit in that many blocks. Only speed depends on
/// it (a longer call would just take more, smaller batches).
fn is_short<P: Permutation>(associated_data_len: usize, message_len: usize) -> bool {
    RUN_BLOCKS > SHORT_RUN
        && associated_data_len.saturating_add(message_len) < SHORT_RUN.saturating_mul(P::BLOCK_SIZE)
}

/// Whether sealing takes [`MEDIUM_RUN`]-block runs: not short, the
/// permutation has a narrow kernel of that width (or of a width that
/// divides it: two 32-state Keccak passes a run), and the keystream, the
/// tag terms of the message and those of the nonce and AD fit in
/// [`MEDIUM_PERMUTATIONS`]. (Opening does its terms and keystream in one
/// wide run, which narrow runs would not beat.)
#[cfg(elephant_x86)]
fn is_medium<P: Permutation>(tiers: Tiers, associated_data_len: usize, message_len: usize) -> bool {
    RUN_BLOCKS > MEDIUM_RUN
        && permutations::<P>(associated_data_len, message_len) <= MEDIUM_PERMUTATIONS
        && P::narrow_batch(tiers).is_some_and(|width| MEDIUM_RUN.checked_rem(width) == Some(0))
}

/// Messages in flight at once for up to this many packets of a
/// multi-message call (and lockstep waves of this many).
pub(crate) const SMALL_WAVE: usize = 16;

/// Messages in flight at once for more packets (enough 16-byte messages to
/// fill the widest batch kernel), and lockstep waves of this many.
pub(crate) const WAVE: usize = 256;

/// Few packets whose blocks all fit in one run of this length: a short
/// run (and a shallow stack to clear), as a short single-message call.
pub(crate) const SHORT_BATCH_RUN: usize = 32;

/// Blocks each call of a [`Scheduler::Small`] may put into a step (the
/// span of its mask window): half a run, so that a few long messages still
/// fill the run as a single-message call does.
#[cfg(elephant_batch)]
pub(crate) const SMALL_CALL_BLOCKS: usize = RUN_BLOCKS / 2;

/// Blocks each call of a [`Scheduler::Large`] may put into a step: few, so
/// that its slot stays small; the other messages fill the run.
#[cfg(elephant_batch)]
pub(crate) const LARGE_CALL_BLOCKS: usize = 16;

/// Which configuration of the general scheduler takes a multi-message
/// call's packets that do not go in lockstep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scheduler {
    /// One message at a time, one block at a time.
    #[cfg(not(elephant_batch))]
    OneBlock,
    /// Up to [`SMALL_WAVE`] messages on a run of [`SHORT_BATCH_RUN`].
    #[cfg(elephant_batch)]
    Short,
    /// Up to [`SMALL_WAVE`] messages on a full run.
    #[cfg(elephant_batch)]
    Small,
    /// [`WAVE`] messages on a full run.
    #[cfg(elephant_batch)]
    Large,
}

/// A multi-message call's plan.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BatchPlan {
    /// Packets that go in lockstep.
    pub(crate) lockstep: usize,
    /// Packets that go through the general scheduler.
    pub(crate) general: usize,
    /// Lockstep waves of [`SMALL_WAVE`] packets (else of [`WAVE`]).
    pub(crate) small_waves: bool,
    /// The general scheduler's configuration.
    pub(crate) scheduler: Scheduler,
    /// How deep to clear after the call.
    pub(crate) depth: Depth,
}

impl BatchPlan {
    /// The plan for packets of these `(associated data, message)` lengths:
    /// which go in lockstep ([`in_lockstep`]), and how many permutations
    /// the others need between them.
    #[inline(always)]
    pub(crate) fn for_lengths<P: Permutation>(
        lengths: impl Iterator<Item = (usize, usize)>,
    ) -> Self {
        let (mut count, mut lockstep, mut blocks) = (0usize, 0usize, 0usize);
        for (associated_data, message) in lengths {
            count = count.saturating_add(1);
            if in_lockstep::<P>(associated_data, message) {
                lockstep = lockstep.saturating_add(1);
            } else {
                // Its blocks, keystream and tag terms (public lengths).
                let bytes = message.saturating_add(associated_data);
                let packet_blocks = bytes
                    .div_ceil(P::BLOCK_SIZE)
                    .saturating_mul(2)
                    .saturating_add(2);
                blocks = blocks.saturating_add(packet_blocks);
            }
        }
        Self::new(count, lockstep, blocks)
    }

    /// The plan for `count` packets of which `lockstep` go in lockstep,
    /// with `blocks` permutations between the others.
    #[inline(always)]
    fn new(count: usize, lockstep: usize, blocks: usize) -> Self {
        let general = count.saturating_sub(lockstep);
        #[cfg(not(elephant_batch))]
        let scheduler = Scheduler::OneBlock;
        #[cfg(elephant_batch)]
        let scheduler = if general <= SMALL_WAVE && blocks <= SHORT_BATCH_RUN {
            Scheduler::Short
        } else if general <= SMALL_WAVE {
            Scheduler::Small
        } else {
            Scheduler::Large
        };
        let depth = if cfg!(not(elephant_batch)) {
            Depth::OneBlockBatch
        } else if count > SMALL_WAVE {
            Depth::LargeBatch
        } else if blocks <= SHORT_BATCH_RUN {
            Depth::ShortBatch
        } else {
            Depth::SmallBatch
        };
        Self {
            lockstep,
            general,
            small_waves: count <= SMALL_WAVE,
            scheduler,
            depth,
        }
    }
}

/// Whether a packet with these (public) lengths goes in lockstep with the
/// other short ones (builds with batch kernels: the one-block mode takes
/// one message at a time).
pub(crate) fn in_lockstep<P: Permutation>(associated_data_len: usize, message_len: usize) -> bool {
    cfg!(elephant_batch) && lockstep::fits::<P>(associated_data_len, message_len)
}
