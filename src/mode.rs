//! Elephant itself: masks, padding, the keystream, the tag sum, and
//! verify-then-decrypt. Generic over the permutation; it never knows how a
//! permutation is computed, only that it can take a run of blocks.
//!
//! Each call starts with its [`plan`]: from the public lengths, which
//! driver takes it and how deep the stack is cleared after it. A
//! single-message call walks its message as a [`Call`] on a run of its
//! own; the multi-message API (`crate::batch`) drives many calls on one
//! shared run (`schedule`), and short messages in `lockstep` (fixed stages,
//! one loop over a wave of messages each). The one-block mode (firmware)
//! takes a single message through `sequential`: one block and one
//! permutation at a time.

mod call;
mod data;
mod jobs;
mod keystream;
mod limits;
pub(crate) mod lockstep;
mod masks;
#[cfg(feature = "rayon")]
mod parallel;
pub(crate) mod plan;
mod run;
pub(crate) mod schedule;
// The one-block mode's driver (on other builds, for its tests).
#[cfg(any(test, not(elephant_batch)))]
mod sequential;
pub(crate) mod tag;
mod xor;

pub(crate) use call::Call;
pub use limits::{MAX_ASSOCIATED_DATA_LEN, MAX_MESSAGE_LEN};
pub(crate) use limits::{NONCE_SIZE, check_lengths};
pub(crate) use plan::{BatchPlan, Scheduler, in_lockstep};
use plan::{Path, Plan};
pub(crate) use run::Run;

use crate::permutation::{Permutation, Tiers};
use crate::scrub;
use aead::Result;
use aead::array::Array;
use aead::inout::InOutBuf;

/// The tag of instance `P`.
pub(crate) type TagOf<P> = Array<u8, <P as Permutation>::TagSize>;

/// How many blocks the mode hands to [`Permutation::permute_batch`] at once.
///
/// Wide enough to fill the widest batch backend; a target without batch
/// backends keeps the stack small instead.
pub(crate) const RUN_BLOCKS: usize = if cfg!(elephant_batch) { 256 } else { 1 };

/// Bytes of mask window a call needs to fill runs of `run_blocks`: the
/// masks of the blocks whose tag terms are queued after their keystream
/// (up to a run), of the next run, and a block with its lookahead.
pub(crate) const fn window_for(run_blocks: usize) -> usize {
    run_blocks.saturating_mul(2).saturating_add(32)
}

/// Runs `call` to its end on a run of its own.
#[cfg(any(test, elephant_batch, feature = "rayon"))]
pub(crate) fn run_to_end<P: Permutation, const N: usize, const W: usize>(
    call: &mut Call<'_, P, W>,
) {
    let mut run = Run::<P, N>::new();
    while !call.is_done() {
        call.queue(&mut run);
        run.evaluate();
        call.take(&mut run);
        run.clear();
    }
}

/// Encrypts the buffer (input side to output side) and returns the tag,
/// in a frame of its own whose stack is cleared afterwards.
#[inline(always)]
pub(crate) fn encrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> Result<TagOf<P>> {
    let plan = Plan::single::<P>(Tiers::detect(), true, associated_data.len(), buffer.len());
    let result = seal::<P>(plan.path, expanded_key, nonce, associated_data, buffer);
    scrub::clear(plan.depth);
    result
}

/// [`encrypt`]'s work, by the plan's `path`, in a frame of its own: what
/// it leaves on the stack lies where [`scrub::clear`] clears.
#[inline(never)]
fn seal<P: Permutation>(
    path: Path,
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> Result<TagOf<P>> {
    check_lengths(associated_data.len(), buffer.len())?;
    Ok(match path {
        #[cfg(feature = "rayon")]
        Path::Parallel => parallel::encrypt::<P>(expanded_key, nonce, associated_data, buffer),
        #[cfg(not(elephant_batch))]
        Path::OneBlock => sequential::seal::<P>(expanded_key, nonce, associated_data, buffer),
        #[cfg(elephant_batch)]
        Path::Short => seal_with::<P, { plan::SHORT_RUN }, { window_for(plan::SHORT_RUN) }>(
            expanded_key,
            nonce,
            associated_data,
            buffer,
        ),
        #[cfg(elephant_x86)]
        Path::Medium => seal_with::<P, { plan::MEDIUM_RUN }, { window_for(plan::MEDIUM_RUN) }>(
            expanded_key,
            nonce,
            associated_data,
            buffer,
        ),
        #[cfg(elephant_batch)]
        Path::Long => seal_with::<P, RUN_BLOCKS, { window_for(RUN_BLOCKS) }>(
            expanded_key,
            nonce,
            associated_data,
            buffer,
        ),
    })
}

/// [`encrypt`] with runs of `N` blocks.
// Not inlined: a short call then does not pay (in
// stack, and in the scrub after it) for the long path's run.
#[cfg(any(test, elephant_batch))]
#[inline(never)]
fn seal_with<P: Permutation, const N: usize, const W: usize>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> TagOf<P> {
    // Started in place: on firmware a call built and returned would be
    // copied, and its frame counted twice.
    let mut call = Call::<P, W>::idle(expanded_key);
    call.begin_seal(expanded_key, nonce, associated_data, buffer);
    run_to_end::<P, N, W>(&mut call);
    call.tag()
}

/// Verifies `tag` over the input side of the buffer in constant time and,
/// only if it matches, decrypts into the output side. On failure nothing is
/// written. In a frame of its own whose stack is cleared afterwards.
#[inline(always)]
pub(crate) fn decrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &TagOf<P>,
) -> Result<()> {
    let plan = Plan::single::<P>(Tiers::detect(), false, associated_data.len(), buffer.len());
    let result = open::<P>(plan, expanded_key, nonce, associated_data, buffer, tag);
    scrub::clear(plan.depth);
    result
}

/// [`decrypt`]'s work, by the plan's `path`, in a frame of its own (as
/// [`seal`]).
#[inline(never)]
fn open<P: Permutation>(
    plan: Plan,
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &TagOf<P>,
) -> Result<()> {
    check_lengths(associated_data.len(), buffer.len())?;
    match plan.path {
        #[cfg(feature = "rayon")]
        Path::Parallel => parallel::decrypt::<P>(expanded_key, nonce, associated_data, buffer, tag),
        #[cfg(not(elephant_batch))]
        Path::OneBlock => sequential::open::<P>(expanded_key, nonce, associated_data, buffer, tag),
        #[cfg(elephant_batch)]
        Path::Short => open_with::<P, { plan::SHORT_RUN }, { window_for(plan::SHORT_RUN) }>(
            expanded_key,
            nonce,
            associated_data,
            buffer,
            tag,
            plan.hold_keystream,
        ),
        // Opening does its terms and keystream in one wide run, which
        // medium runs would not beat: the plan gives it no medium path.
        #[cfg(elephant_batch)]
        _ => open_with::<P, RUN_BLOCKS, { window_for(RUN_BLOCKS) }>(
            expanded_key,
            nonce,
            associated_data,
            buffer,
            tag,
            plan.hold_keystream,
        ),
    }
}

/// Runs `work`, a key setup for `P` that returns the new cipher, through
/// [`scrub::key_setup`] with the plan's depth: in a frame of its own,
/// whose stack is cleared afterwards.
#[inline(always)]
pub(crate) fn key_setup<P: Permutation, R>(work: impl FnOnce() -> R) -> R {
    scrub::key_setup(plan::key_expansion::<P>(), work)
}

/// [`decrypt`] with runs of `N` blocks.
#[cfg(elephant_batch)]
#[inline(never)]
fn open_with<P: Permutation, const N: usize, const W: usize>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &TagOf<P>,
    hold_keystream: bool,
) -> Result<()> {
    let mut call = Call::<P, W>::idle(expanded_key);
    call.begin_open(
        expanded_key,
        nonce,
        associated_data,
        buffer,
        tag,
        hold_keystream,
    );
    run_to_end::<P, N, W>(&mut call);
    tag::verdict(call.accept_mask())
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;
    use crate::{Keccak200, Spongent160};

    /// How many steps (permutation batches, empty ones included) one call
    /// takes on a run of `N` blocks of its own.
    fn steps<P: Permutation, const N: usize>(sealing: bool, message_len: usize) -> usize {
        steps_in::<P, N, 64>(sealing, message_len)
    }

    /// [`steps`] with a window of `W` bytes.
    fn steps_in<P: Permutation, const N: usize, const W: usize>(
        sealing: bool,
        message_len: usize,
    ) -> usize {
        steps_holding::<P, N, W>(sealing, false, message_len)
    }

    /// [`steps_in`], opening with the keystream held if `hold`.
    fn steps_holding<P: Permutation, const N: usize, const W: usize>(
        sealing: bool,
        hold: bool,
        message_len: usize,
    ) -> usize {
        let key = P::Block::default();
        let mut data = vec![0u8; message_len];
        let tag = TagOf::<P>::default();
        let nonce = [0; NONCE_SIZE];
        let ad = [0; 5];
        let buffer = data.as_mut_slice().into();
        let mut call = Call::<P, W>::idle(&key);
        if sealing {
            call.begin_seal(&key, &nonce, &ad, buffer);
        } else {
            call.begin_open(&key, &nonce, &ad, buffer, &tag, hold);
        }
        let mut run = Run::<P, N>::new();
        let mut steps = 0;
        while !call.is_done() {
            call.queue(&mut run);
            run.evaluate();
            call.take(&mut run);
            run.clear();
            steps += 1;
        }
        steps
    }

    /// A 16-byte message is three dependent permutations (keystream, tag
    /// term, tag): three steps, also when each item fills the run. (A call
    /// once needed a fourth, empty step when its item filled the run.)
    #[test]
    fn a_short_message_takes_three_steps_even_when_it_fills_the_run() {
        assert_eq!(steps::<Spongent160, 1>(true, 16), 3);
        assert_eq!(steps::<Keccak200, 1>(true, 16), 3);
        assert_eq!(steps::<Spongent160, 8>(true, 16), 3);
        // Opening: tag terms, then the tag with the keystream.
        assert_eq!(steps::<Spongent160, 8>(false, 16), 2);
        assert_eq!(steps::<Spongent160, 1>(false, 16), 3);
        // 40 bytes: two keystream blocks, three tag terms (the padding
        // block among them) and the tag, one at a time.
        assert_eq!(steps::<Spongent160, 1>(true, 40), 6);
    }

    /// Opening holds its keystream on the run exactly when the plan finds
    /// that its walk fits in one step: two steps then, the terms with the
    /// keystream, and the tag alone (one wide batch, not two). The KATs
    /// and the API tests check what it writes, through `decrypt`.
    #[cfg(elephant_batch)]
    #[test]
    fn opening_holds_its_keystream_when_its_walk_fits_one_step() {
        const N: usize = RUN_BLOCKS;
        const W: usize = window_for(RUN_BLOCKS);
        let holds =
            |len| Plan::single::<Spongent160>(Tiers::detect(), false, 5, len).hold_keystream;
        assert!(holds(16) && holds(1_500));
        assert!(!holds(16_384));
        assert!(!Plan::single::<Spongent160>(Tiers::detect(), true, 5, 1_500).hold_keystream);
        assert_eq!(steps_holding::<Spongent160, N, W>(false, true, 1_500), 2);
        // 1,500 bytes: 75 keystream blocks, 76 terms and one block of
        // `N ‖ A`; 2,600 bytes (130 + 131 + 1) no longer fit one run.
        assert!(!holds(2_600));
    }

    /// Sealing in medium runs gives the ciphertext and tag of the wide
    /// runs, for every instance (Delirium's medium runs are two 32-state
    /// passes), message lengths across the medium bound (and short ones)
    /// and three AD lengths; and a 1,500-byte Dumbo message takes three
    /// medium runs and the tag's step, where wide runs take two and the tag.
    /// (64-bit targets: firmware's runs are one block. Under Miri, Dumbo
    /// only, one short length and no step counts, which cost it over a
    /// minute.)
    #[cfg(elephant_batch)]
    #[test]
    fn medium_runs_seal_as_wide_runs() {
        const M: usize = plan::MEDIUM_RUN;
        const N: usize = RUN_BLOCKS;
        fn check<P: Permutation>() {
            let mut key = P::Block::default();
            key.as_mut().fill(0x3c);
            let nonce = *b"medium nonce";
            let (ad_lens, message_lens): (&[usize], Vec<usize>) = if cfg!(miri) {
                (&[5], vec![100])
            } else {
                let lens = (0..2_400).step_by(97).chain([1_280, 1_500, 1_900]);
                (&[0, 5, 40], lens.collect())
            };
            for &ad_len in ad_lens {
                let ad: Vec<u8> = (0..ad_len).map(|i| i.to_le_bytes()[0]).collect();
                for &message_len in &message_lens {
                    let message: Vec<u8> =
                        (0..message_len).map(|i| (i * 7).to_le_bytes()[0]).collect();
                    let (mut medium, mut wide) = (message.clone(), message.clone());
                    let medium_tag = seal_with::<P, M, { window_for(M) }>(
                        &key,
                        &nonce,
                        &ad,
                        medium.as_mut_slice().into(),
                    );
                    let wide_tag = seal_with::<P, N, { window_for(N) }>(
                        &key,
                        &nonce,
                        &ad,
                        wide.as_mut_slice().into(),
                    );
                    let what = format!("{} {message_len} B, AD {ad_len} B", P::INSTANCE);
                    assert_eq!(medium, wide, "{what}");
                    assert_eq!(medium_tag, wide_tag, "{what}");
                }
            }
        }
        check::<Spongent160>();
        if !cfg!(miri) {
            check::<crate::Spongent176>();
            check::<Keccak200>();
            assert_eq!(
                steps_in::<Spongent160, M, { window_for(M) }>(true, 1_500),
                4
            );
            assert_eq!(
                steps_in::<Spongent160, N, { window_for(N) }>(true, 1_500),
                3
            );
        }
    }

    /// A long message's runs are full: sealing queues keystream before the
    /// tag terms of ciphertext already written, so its permutations take
    /// the fewest runs they fit in, and one step more for the tag. (With
    /// the terms first, a 16 KiB Dumbo message took a step more: a run of
    /// 52 keystream blocks, then one of their 52 terms.) Only on 64-bit
    /// targets: the keystream-first order is theirs, and firmware's runs
    /// are one block long. Under Miri only the 6,000-byte case, the
    /// shortest that takes several full runs (the three cost it minutes).
    #[cfg(elephant_batch)]
    #[test]
    fn a_long_message_fills_its_runs() {
        const N: usize = RUN_BLOCKS;
        const W: usize = window_for(RUN_BLOCKS);
        let cases: &[(usize, usize)] = if cfg!(miri) {
            &[(6_000, 300)]
        } else {
            &[(16_384, 820), (6_000, 300), (1_500, 75)]
        };
        for &(message_len, blocks) in cases {
            // Keystream and terms, the associated data's term, then the tag.
            let permutations: usize = 2 * blocks + 1;
            let fewest = permutations.div_ceil(N).max(2) + 1;
            assert_eq!(steps_in::<Spongent160, N, W>(true, message_len), fewest);
        }
    }
}
