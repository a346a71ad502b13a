//! Many messages in one call: sealing and opening a slice of packets, each
//! with its own cipher (so its own key), nonce, associated data, buffer and
//! tag, so that the permutations of all of them run in shared batches.
//!
//! One message cannot fill a SIMD unit (its tag waits for its ciphertext,
//! which waits for its keystream), but a gateway that receives packets from
//! thousands of devices has the parallelism a single call lacks. [`seal`]
//! and [`open`] walk all packets at once: each step queues the next
//! permutation inputs of every packet in flight and evaluates them together.
//! Short packets (message and `nonce ‖ AD` within two blocks each, a public
//! property) go in lockstep, a wave at a time through the same fixed
//! stages; the others through the general scheduler.
//!
//! Each packet gets exactly what the single-message calls
//! ([`AeadInOut`](crate::AeadInOut)) would give it, with the same
//! guarantees: constant time in the secrets (packet counts and lengths are
//! public), the tag verified before any plaintext is written, every secret
//! temporary wiped. No allocation; the stack used is bounded (see
//! [`seal`]) whatever the number of packets.
//!
//! An example with a forged packet: [`open`].

use crate::mode::lockstep::{Lockstep, MAX_PER_STAGE};
use crate::mode::plan::{SMALL_WAVE, WAVE};
use crate::mode::schedule::{Message, TagSlot, interleave};
use crate::mode::{self, BatchPlan, Scheduler, check_lengths, tag, window_for};
use crate::scrub;
use crate::{AeadCore, Elephant, Nonce, Permutation, Tag};
use aead::{Error, Result};
use core::borrow::Borrow;
use core::fmt;

/// One message of a batch: its cipher (key), nonce, associated data, the
/// buffer that is encrypted or decrypted in place, and its tag `T`.
///
/// Named by its cipher, like [`Key`](crate::Key), [`Nonce`] and [`Tag`]:
/// `Packet<'_, Delirium>` holds a [`Delirium`](crate::Delirium) and a
/// `&mut Tag<Delirium>`.
///
/// The tag is borrowed as each call needs it: [`seal`] writes it, so it
/// takes packets holding a `&mut Tag` (the default `T`); [`open`] only
/// reads it, so it takes any `T` that borrows a tag: `&Tag`, `&mut Tag`
/// or the tag itself.
pub struct Packet<'a, C: AeadCore, T = &'a mut Tag<C>> {
    cipher: &'a C,
    nonce: &'a Nonce<C>,
    associated_data: &'a [u8],
    buffer: &'a mut [u8],
    tag: T,
    /// `None` until a call processes the packet; then what the mode wrote.
    verdict: Option<Result<()>>,
}

/// What became of a [`Packet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// No call has processed the packet yet.
    Pending,
    /// Sealed by [`seal`] (ciphertext and tag written), or opened by
    /// [`open`] (the tag matched, the plaintext written).
    Done,
    /// Refused, its buffer and tag left as they were: its lengths were
    /// above [`MAX_MESSAGE_LEN`](crate::MAX_MESSAGE_LEN) or
    /// [`MAX_ASSOCIATED_DATA_LEN`](crate::MAX_ASSOCIATED_DATA_LEN), or,
    /// when opening, its tag did not match (forged or corrupted).
    Rejected,
}

impl<'a, P: Permutation, T: Borrow<Tag<Elephant<P>>>> Packet<'a, Elephant<P>, T> {
    /// A packet; its [`outcome`](Self::outcome) is [`Outcome::Pending`]
    /// until a call processes it.
    pub fn new(
        cipher: &'a Elephant<P>,
        nonce: &'a Nonce<Elephant<P>>,
        associated_data: &'a [u8],
        buffer: &'a mut [u8],
        tag: T,
    ) -> Self {
        Self {
            cipher,
            nonce,
            associated_data,
            buffer,
            tag,
            verdict: None,
        }
    }

    /// The tag: written by [`seal`], read by [`open`].
    #[must_use]
    pub fn tag(&self) -> &Tag<Elephant<P>> {
        self.tag.borrow()
    }
}

impl<C: AeadCore, T> Packet<'_, C, T> {
    /// What the last [`seal`] or [`open`] did with this packet.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        match self.verdict {
            None => Outcome::Pending,
            Some(Ok(())) => Outcome::Done,
            Some(Err(Error)) => Outcome::Rejected,
        }
    }

    /// The buffer: ciphertext after [`seal`], plaintext after a
    /// successful [`open`].
    #[must_use]
    pub fn buffer(&self) -> &[u8] {
        self.buffer
    }

    /// The packet's lengths (associated data, buffer): public.
    fn lengths(&self) -> (usize, usize) {
        (self.associated_data.len(), self.buffer.len())
    }
}

impl<C: AeadCore, T> fmt::Debug for Packet<'_, C, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Packet")
            .field("associated_data_len", &self.associated_data.len())
            .field("buffer_len", &self.buffer.len())
            .field("outcome", &self.outcome())
            .finish_non_exhaustive()
    }
}

/// Encrypts every packet's buffer in place and writes its tag.
///
/// Returns an error if any packet was not sealed (its lengths above
/// [`MAX_MESSAGE_LEN`](crate::MAX_MESSAGE_LEN) or
/// [`MAX_ASSOCIATED_DATA_LEN`](crate::MAX_ASSOCIATED_DATA_LEN)); such a
/// packet is left as it was, and the others are sealed.
///
/// Stack: on 64-bit targets and wasm32 at most 40 KiB for up to 16 packets
/// and 152 KiB for more (the depths cleared after the call; BENCHMARKS.md
/// lists them with the deepest measured); on other 32-bit targets one
/// message at a time, about as deep as a single-message call. It is cleared before the call
/// returns.
pub fn seal<P: Permutation>(packets: &mut [Packet<'_, Elephant<P>>]) -> Result<()> {
    crate::instance::seal_packets::<P>(packets)
}

/// [`seal`]'s work, reached through `crate::instance`: compiled once per
/// instance, in this crate. (Opening is generic over the tag's borrow, so
/// a caller's crate compiles its own.)
pub(crate) fn seal_packets<P: Permutation>(packets: &mut [Packet<'_, Elephant<P>>]) -> Result<()> {
    let (accept, lengths_ok) = run_all(packets, |tag| TagSlot::Seal(&mut **tag));
    debug_assert_eq!(accept, 0xff, "sealing always succeeds");
    if lengths_ok { Ok(()) } else { Err(Error) }
}

/// Verifies every packet's tag and decrypts the buffers of those that
/// match, in place.
///
/// Returns an error if any packet was rejected; each packet's
/// [`outcome`](Packet::outcome) says which. A rejected packet's buffer is
/// left exactly as it was (also one whose lengths are above the limits).
/// Stack as for [`seal`].
///
/// Two readings sealed in one call, then opened in another with one tag
/// forged:
///
/// ```
/// use elephant_aead::batch::{self, Outcome, Packet};
/// use elephant_aead::{Dumbo, Key, KeyInit, Nonce, Tag};
///
/// let devices = [Dumbo::new(&Key::<Dumbo>::from([1; 16])), Dumbo::new(&Key::<Dumbo>::from([2; 16]))];
/// let nonces = [Nonce::<Dumbo>::from([7; 12]), Nonce::<Dumbo>::from([8; 12])];
/// let mut buffers = [*b"reading 21.5 C", *b"reading 19.0 C"];
/// let mut tags = [Tag::<Dumbo>::default(); 2];
///
/// // Seal both readings in one call (each tag borrowed mutably: written) ...
/// let mut packets: Vec<Packet<'_, _>> = devices
///     .iter()
///     .zip(&nonces)
///     .zip(buffers.iter_mut().zip(tags.iter_mut()))
///     .map(|((cipher, nonce), (buffer, tag))| Packet::new(cipher, nonce, b"", buffer, tag))
///     .collect();
/// assert_eq!(packets[0].outcome(), Outcome::Pending);
/// batch::seal(&mut packets).expect("lengths within the limits");
/// assert!(packets.iter().all(|packet| packet.outcome() == Outcome::Done));
/// drop(packets);
///
/// // ... and open them in another (each tag only read); a forged tag is
/// // caught on its own.
/// tags[1][0] ^= 1;
/// let mut packets: Vec<Packet<'_, _, _>> = devices
///     .iter()
///     .zip(&nonces)
///     .zip(buffers.iter_mut().zip(&tags))
///     .map(|((cipher, nonce), (buffer, tag))| Packet::new(cipher, nonce, b"", buffer, tag))
///     .collect();
/// assert!(batch::open(&mut packets).is_err());
/// assert_eq!(packets[0].outcome(), Outcome::Done);
/// assert_eq!(packets[1].outcome(), Outcome::Rejected);
/// assert_eq!(packets[0].buffer(), b"reading 21.5 C");
/// ```
pub fn open<P: Permutation, T: Borrow<Tag<Elephant<P>>>>(
    packets: &mut [Packet<'_, Elephant<P>, T>],
) -> Result<()> {
    let (accept, lengths_ok) = run_all(packets, |tag| TagSlot::Open((*tag).borrow()));
    // Public: the caller learns every packet's verdict anyway.
    if lengths_ok && tag::verdict(accept).is_ok() {
        Ok(())
    } else {
        Err(Error)
    }
}

/// Whether `packet` goes in lockstep with the other short ones (the
/// plan's choice, from its public lengths).
fn in_lockstep<P: Permutation, T>(packet: &Packet<'_, Elephant<P>, T>) -> bool {
    let (associated_data, buffer) = packet.lengths();
    mode::in_lockstep::<P>(associated_data, buffer)
}

/// `packet` as the mode sees it, its tag lent by `slot` (for sealing or
/// opening); its verdict reset to a rejection, which the mode overwrites
/// when it has processed the packet.
fn message<'p, P: Permutation, T>(
    packet: &'p mut Packet<'_, Elephant<P>, T>,
    slot: fn(&'p mut T) -> TagSlot<'p, P>,
) -> Message<'p, P> {
    let Packet {
        cipher,
        nonce,
        associated_data,
        buffer,
        tag,
        verdict,
    } = packet;
    Message {
        expanded_key: &cipher.expanded_key,
        nonce: &nonce.0,
        associated_data,
        buffer,
        tag: slot(tag),
        outcome: verdict.insert(Err(Error)),
    }
}

/// Seals or opens (as the tag's `slot` says) every packet whose lengths
/// are within the limits, and marks the others as rejected; returns the
/// AND of the accept masks and whether every packet's lengths were within
/// the limits.
///
/// Short packets go in lockstep ([`Lockstep`]), the others through the
/// general scheduler ([`interleave`]), one after the other in one frame
/// whose stack is cleared afterwards.
fn run_all<P: Permutation, T>(
    packets: &mut [Packet<'_, Elephant<P>, T>],
    slot: for<'p> fn(&'p mut T) -> TagSlot<'p, P>,
) -> (u8, bool) {
    let plan = BatchPlan::for_lengths::<P>(packets.iter().map(Packet::lengths));
    let mut lengths_ok = true;
    let work = || {
        let mut accept = 0xff;
        if plan.lockstep > 0 {
            let messages = packets
                .iter_mut()
                .filter(|packet| in_lockstep(packet))
                .map(|packet| message(packet, slot));
            accept &= lockstep(plan.small_waves, messages);
        }
        if plan.general > 0 {
            let messages = packets
                .iter_mut()
                .filter(|packet| !in_lockstep(packet))
                .filter_map(|packet| {
                    let (associated_data, buffer) = packet.lengths();
                    let within = check_lengths(associated_data, buffer).is_ok();
                    lengths_ok &= within;
                    if !within {
                        packet.verdict = Some(Err(Error));
                    }
                    within.then(|| message(packet, slot))
                });
            accept &= schedule(plan.scheduler, messages);
        }
        accept
    };
    let accept = scrub::in_own_frame(plan.depth, work);
    (accept, lengths_ok)
}

/// Runs short messages in lockstep, in small waves or full ones as the
/// plan says; returns the AND of their accept masks. The caller clears
/// the stack.
fn lockstep<'p, P: Permutation>(
    small_waves: bool,
    messages: impl Iterator<Item = Message<'p, P>>,
) -> u8 {
    if small_waves {
        in_lockstep_waves::<P, SMALL_WAVE, { SMALL_WAVE * MAX_PER_STAGE }>(messages)
    } else {
        in_lockstep_waves::<P, WAVE, { WAVE * MAX_PER_STAGE }>(messages)
    }
}

/// Runs short messages in lockstep, `WAVE` at a time on a run of
/// `STATES`. A frame of its own (as each configuration of the general
/// scheduler): the stack holds one configuration at a time.
#[inline(never)]
fn in_lockstep_waves<'p, P: Permutation, const WAVE: usize, const STATES: usize>(
    messages: impl Iterator<Item = Message<'p, P>>,
) -> u8 {
    Lockstep::<P, WAVE, STATES>::new().process(messages)
}

/// Runs messages through the general scheduler in the plan's
/// configuration; returns the AND of their accept masks. The caller clears
/// the stack.
fn schedule<'p, P: Permutation>(
    scheduler: Scheduler,
    messages: impl Iterator<Item = Message<'p, P>>,
) -> u8 {
    match scheduler {
        #[cfg(not(elephant_batch))]
        Scheduler::OneBlock => interleave::<P, 1, 1, { window_for(1) }>(messages),
        #[cfg(elephant_batch)]
        Scheduler::Short => interleave::<
            P,
            SMALL_WAVE,
            { mode::plan::SHORT_BATCH_RUN },
            { window_for(mode::plan::SHORT_BATCH_RUN) },
        >(messages),
        #[cfg(elephant_batch)]
        Scheduler::Small => interleave::<
            P,
            SMALL_WAVE,
            { mode::RUN_BLOCKS },
            { window_for(mode::plan::SMALL_CALL_BLOCKS) },
        >(messages),
        #[cfg(elephant_batch)]
        Scheduler::Large => {
            interleave::<P, WAVE, { mode::RUN_BLOCKS }, { window_for(mode::plan::LARGE_CALL_BLOCKS) }>(
                messages,
            )
        }
    }
}
