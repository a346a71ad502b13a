//! Clearing the stack that a call used, once it is done with it.
//!
//! The mode wipes the buffers it owns (masks, runs of blocks, the tag sum),
//! but the compiler is free to copy secrets elsewhere on the stack: register
//! spills in the permutations, temporaries of the transposes, a moved value's
//! old place. Rust cannot stop that, so each public call runs its work in a
//! frame of its own ([`in_own_frame`], [`key_setup`], or a function of the
//! mode's) and then overwrites the stack below its own frame with zeros, to
//! a depth that covers what that work was measured to use (as libsodium's
//! `sodium_stackzero` does).
//!
//! The depths are measured, not proven, and a user's build is not ours:
//! inlining and spills differ with codegen units, LTO and the opt-level.
//! So each depth ([`depth`]) covers the deepest that
//! `tests/stack_secrets.rs` measured for its kind of call under cargo's
//! defaults, one codegen unit with fat LTO and opt-levels 1, 2 and "s",
//! on the AVX-512 and the AVX2-only tiers, with at least 23 % margin; the
//! probe fails where a call goes deeper than the depth cleared after it,
//! and `bash .ci/stack-probe all` runs it under every profile a user may
//! set (CI under several). Which depth a call
//! takes is the plan's (`mode::plan`), from public lengths only, and so is
//! the time the clearing takes. The measured depths: DESIGN.md, "Stack
//! clearing".
//!
//! Depths are constants of at most tens of KiB and offsets lie within a
//! block: their arithmetic cannot overflow, and is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "depths are small constants, offsets lie within a block (see the module doc)"
)]

use crate::permutation::Instance;
use core::hint::black_box;
use core::mem::MaybeUninit;
use zeroize::Zeroize;

/// The depths cleared after each kind of call, in bytes (the plan,
/// `mode::plan`, picks the kind; `tests/stack_secrets.rs` checks them).
#[doc(hidden)]
pub mod depth {
    use crate::mode::plan::{BatchPlan, Plan};
    use crate::permutation::{Permutation, Tiers};

    /// After a call whose blocks fit in the mode's short run, Dumbo or
    /// Jumbo (deeper on aarch64, whose one-state NEON Spongent-π kernel
    /// has the deepest frame with one codegen unit).
    pub const SHORT_CALL: usize = if cfg!(target_arch = "aarch64") {
        10 * 1024
    } else {
        6 * 1024
    };

    /// [`SHORT_CALL`] where the call's runs can hold 4 blocks or more
    /// (message and AD of 2 blocks or more) on a CPU with a 64-state
    /// Spongent-π kernel, which takes such runs.
    pub const SHORT_CALL_LANES: usize = 14 * 1024;

    /// [`SHORT_CALL`] for Delirium.
    pub const SHORT_CALL_KECCAK: usize = 5 * 1024;

    /// After sealing a medium message on runs of 64 blocks (the plan's
    /// medium path).
    pub const MEDIUM_CALL: usize = 16 * 1024;

    /// After a longer call, Dumbo or Jumbo (the widest Spongent-π kernels
    /// have the deepest frames).
    pub const LONG_CALL: usize = 32 * 1024;

    /// [`LONG_CALL`] for Delirium. Why not deeper: DESIGN.md, "Stack
    /// clearing".
    pub const LONG_CALL_KECCAK: usize = 24 * 1024;

    /// After the key expansion (one permutation: a few hundred bytes).
    pub const KEY_EXPANSION: usize = 1024;

    /// After a multi-message call of a few short packets on a 32-block
    /// run, or of up to 16 in lockstep.
    pub const SHORT_BATCH: usize = 28 * 1024;
    /// After up to 16 packets on a full run.
    pub const SMALL_BATCH: usize = 40 * 1024;
    /// After more than 16 packets: up to 256 in flight on the general
    /// scheduler, or waves of 256 in lockstep (their state and a run of
    /// 768 blocks), whatever the number of waves.
    pub const LARGE_BATCH: usize = 152 * 1024;

    /// The bytes cleared after sealing (`sealing`) or opening one message
    /// of these lengths with `P`: the plan's choice, for the dead-stack
    /// probe. Not part of the API.
    #[must_use]
    pub fn after_call<P: Permutation>(
        sealing: bool,
        associated_data_len: usize,
        message_len: usize,
    ) -> usize {
        Plan::single::<P>(Tiers::detect(), sealing, associated_data_len, message_len)
            .depth
            .bytes()
    }

    /// The bytes cleared after a multi-message call of packets with these
    /// `(associated data, message)` lengths with `P`: the plan's choice,
    /// for the dead-stack probe. Not part of the API.
    #[must_use]
    pub fn after_batch<P: Permutation>(lengths: &[(usize, usize)]) -> usize {
        BatchPlan::for_lengths::<P>(lengths.iter().copied())
            .depth
            .bytes()
    }
}

use depth::*;

/// How deep to clear after a call; see [`depth`] for the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Depth {
    /// [`KEY_EXPANSION`].
    KeyExpansion,
    /// [`SHORT_CALL`].
    ShortCall,
    /// [`SHORT_CALL_LANES`].
    ShortCallLanes,
    /// [`SHORT_CALL_KECCAK`].
    ShortCallKeccak,
    /// [`MEDIUM_CALL`].
    MediumCall,
    /// [`LONG_CALL`].
    LongCall,
    /// [`LONG_CALL_KECCAK`].
    LongCallKeccak,
    /// [`SHORT_BATCH`].
    ShortBatch,
    /// [`SMALL_BATCH`].
    SmallBatch,
    /// [`LARGE_BATCH`].
    LargeBatch,
    /// A call of the one-block mode, per instance ([`one_block`]).
    OneBlockCall(Instance),
    /// The key expansion of the one-block mode, per instance.
    OneBlockKey(Instance),
    /// A multi-message call of the one-block mode ([`ONE_BLOCK_BATCH`]).
    OneBlockBatch,
}

impl Depth {
    /// The bytes [`clear`] overwrites for this depth (rounded up to whole
    /// chunks).
    fn bytes(self) -> usize {
        chunks(match self {
            Depth::KeyExpansion => KEY_EXPANSION,
            Depth::ShortCall => SHORT_CALL,
            Depth::ShortCallLanes => SHORT_CALL_LANES,
            Depth::ShortCallKeccak => SHORT_CALL_KECCAK,
            Depth::MediumCall => MEDIUM_CALL,
            Depth::LongCall => LONG_CALL,
            Depth::LongCallKeccak => LONG_CALL_KECCAK,
            Depth::ShortBatch => SHORT_BATCH,
            Depth::SmallBatch => SMALL_BATCH,
            Depth::LargeBatch => LARGE_BATCH,
            Depth::OneBlockCall(instance) => one_block_bytes(instance, false),
            Depth::OneBlockKey(instance) => one_block_bytes(instance, true),
            Depth::OneBlockBatch => ONE_BLOCK_BATCH,
        }) * CHUNK
    }
}

/// In the one-block mode (firmware), where a call's depth does not depend
/// on the lengths, clears exactly the depth of the call's own frames below
/// the one that clears, per instance, so that clearing adds next to
/// nothing to the peak stack. The depths are the firmware benchmark's
/// peak stack for a call with these clears off (Dumbo 392 B, Jumbo 416 B,
/// Delirium 464 B, the deepest of encryption and decryption), less the
/// frames above (88, 88 and 104 B), rounded up to [`zero_stack`]'s
/// 32-byte rows; for the key expansion, the permutation's own frame (96,
/// 120 and 152 B) and the call into it, plus at least 16 B. With these,
/// its scan of the dead stack after every call finds no secret. The
/// firmware Keccak-f\[200\] leaves its state for these to clear.
#[inline(always)]
fn one_block(instance: Instance, key_expansion: bool) {
    use Instance::{Delirium, Dumbo, Jumbo};
    match (instance, key_expansion) {
        (Dumbo | Jumbo, false) => zero_stack::<{ chunks(one_block_bytes(Dumbo, false)) }>(),
        (Delirium, false) => zero_stack::<{ chunks(one_block_bytes(Delirium, false)) }>(),
        (Dumbo, true) => zero_stack::<{ chunks(one_block_bytes(Dumbo, true)) }>(),
        (Jumbo, true) => zero_stack::<{ chunks(one_block_bytes(Jumbo, true)) }>(),
        (Delirium, true) => zero_stack::<{ chunks(one_block_bytes(Delirium, true)) }>(),
    }
}

/// [`one_block`]'s depths, in bytes.
const fn one_block_bytes(instance: Instance, key_expansion: bool) -> usize {
    match (instance, key_expansion) {
        (Instance::Dumbo | Instance::Jumbo, false) => 320,
        (Instance::Delirium, false) => 384,
        (Instance::Dumbo, true) => 128,
        (Instance::Jumbo, true) => 160,
        (Instance::Delirium, true) => 192,
    }
}

/// After a multi-message call in the one-block mode (one message at a
/// time: the depth of a single-message call, and the calls of the
/// scheduler around it).
const ONE_BLOCK_BATCH: usize = 2 * 1024;

/// Runs `work` in a frame of its own, then clears `depth` bytes of the
/// stack below (the frame `work` had, and whatever it called).
#[inline(always)]
pub(crate) fn in_own_frame<R>(depth: Depth, work: impl FnOnce() -> R) -> R {
    let result = run_in_own_frame(work);
    clear(depth);
    result
}

/// Runs `work`, a key setup that returns the new cipher, in a frame of its
/// own, then clears `depth` bytes of the stack below.
///
/// The result is the caller's return value, written by `work` straight
/// into the caller's return place (a call in tail position), and the
/// clearing runs from a guard's `Drop` after it: so neither this frame nor
/// the caller's ever holds `L`, inlined or not, in any build profile. What
/// `work` leaves in its own frames (the block it expands in, the
/// permutation's state) lies below this frame, where the guard clears.
#[inline(always)]
pub(crate) fn key_setup<R>(depth: Depth, work: impl FnOnce() -> R) -> R {
    let _clear = ClearOnDrop(depth);
    run_in_own_frame(work)
}

/// Clears its depth of the stack below the frame that holds it when
/// dropped ([`key_setup`]).
struct ClearOnDrop(Depth);

impl Drop for ClearOnDrop {
    #[inline(always)]
    fn drop(&mut self) {
        clear(self.0);
    }
}

/// Clears `depth` bytes of the stack below the caller's frame: call it
/// right after the call to clean up after, made from the same frame.
#[inline(always)]
pub(crate) fn clear(depth: Depth) {
    match depth {
        Depth::KeyExpansion => zero_words::<{ words(KEY_EXPANSION) }>(),
        Depth::ShortCall => zero_words::<{ words(SHORT_CALL) }>(),
        Depth::ShortCallLanes => zero_words::<{ words(SHORT_CALL_LANES) }>(),
        Depth::ShortCallKeccak => zero_words::<{ words(SHORT_CALL_KECCAK) }>(),
        Depth::MediumCall => zero_words::<{ words(MEDIUM_CALL) }>(),
        Depth::LongCall => zero_words::<{ words(LONG_CALL) }>(),
        Depth::LongCallKeccak => zero_words::<{ words(LONG_CALL_KECCAK) }>(),
        Depth::ShortBatch => zero_words::<{ words(SHORT_BATCH) }>(),
        Depth::SmallBatch => zero_words::<{ words(SMALL_BATCH) }>(),
        Depth::LargeBatch => zero_words::<{ words(LARGE_BATCH) }>(),
        Depth::OneBlockCall(instance) => one_block(instance, false),
        Depth::OneBlockKey(instance) => one_block(instance, true),
        Depth::OneBlockBatch => zero_stack::<{ chunks(ONE_BLOCK_BATCH) }>(),
    }
}

#[inline(never)]
fn run_in_own_frame<R>(work: impl FnOnce() -> R) -> R {
    work()
}

/// Overwrites the `WORDS` × 8 bytes of stack just below the caller's
/// frame with zeros: the clearing after a call of the batch mode.
///
/// The array is this frame, so it lies where the calls made just before
/// from the same frame had theirs. `black_box` hands it to code the
/// optimiser cannot see into, so the zeros must really be written (a
/// volatile write per byte would be as certain and many times slower).
/// A flat array of words, which rustc fills with one call to `memset`
/// whatever the profile (an array of rows is a loop, which LLVM made a
/// `memset` in some profiles only). Why: DESIGN.md, "Stack clearing".
#[inline(never)]
fn zero_words<const WORDS: usize>() {
    let region = [0u64; WORDS];
    black_box(&region);
}

/// Overwrites the `CHUNKS` × [`CHUNK`] bytes of stack just below the
/// caller's frame with zeros: the clearing after a call of the one-block
/// mode (firmware), as [`zero_words`] does for the batch mode.
///
/// The zero is opaque and the array uninitialised, so that LLVM writes it
/// with 8-byte stores, row by row written out up to [`UNROLLED_CHUNKS`]
/// rows (a loop beyond). Why: DESIGN.md, "Stack clearing".
#[inline(never)]
fn zero_stack<const CHUNKS: usize>() {
    // Built for 32-bit targets, where a chunk is four words.
    const { assert!(CHUNK == 32 || cfg!(elephant_batch)) };
    let zero = black_box(0u64);
    let mut region = [const { [MaybeUninit::<u64>::uninit(); 4] }; CHUNKS];
    let mut rows = region.iter_mut();
    let mut row = || {
        if let Some([a, b, c, d]) = rows.next() {
            a.write(zero);
            b.write(zero);
            c.write(zero);
            d.write(zero);
        }
    };
    if CHUNKS <= UNROLLED_CHUNKS {
        // Written out: LLVM does not unroll a loop at opt-level "s".
        // One call per row up to the bound, which this ties them to.
        const { assert!(UNROLLED_CHUNKS == 12) };
        row();
        row();
        row();
        row();
        row();
        row();
        row();
        row();
        row();
        row();
        row();
        row();
    } else {
        for _ in 0..CHUNKS {
            row();
        }
    }
    black_box(&region);
}

/// The most 32-byte rows [`zero_stack`] writes out without a loop: the
/// one-block mode's call and key depths (at most 384 B). A row takes 4
/// stores there against 9 instructions a row in the loop on a Cortex-M4
/// (a 16-byte Delirium encryption with key setup: 90 instructions fewer).
const UNROLLED_CHUNKS: usize = 12;

/// Zeroes a block of the mode (at most 28 bytes, as every instance's
/// block is) and keeps the stores, as `zeroize` does.
///
/// On 64-bit targets that is `zeroize`. In the one-block mode `zeroize`'s
/// fill calls `memclr`, 45 instructions for a 25-byte block on a
/// Cortex-M4; this writes it out a word at a time (an opaque zero, so
/// that LLVM cannot merge the stores back into that call), fully unrolled
/// for the block's fixed length: 7 stores and the zero's set-up.
#[inline(always)]
pub(crate) fn wipe_block(bytes: &mut [u8]) {
    debug_assert!(bytes.len() <= 28, "a block");
    if cfg!(elephant_batch) {
        bytes.zeroize();
        return;
    }
    let zero = black_box(0u8);
    let mut word = |offset: usize| {
        if let Some(word) = bytes.get_mut(offset..offset + 4) {
            word.copy_from_slice(&[zero; 4]);
        } else if let Some(rest) = bytes.get_mut(offset..) {
            // The last one to three bytes (unrolled: at most three).
            if let Some(byte) = rest.get_mut(0) {
                *byte = zero;
            }
            if let Some(byte) = rest.get_mut(1) {
                *byte = zero;
            }
            if let Some(byte) = rest.get_mut(2) {
                *byte = zero;
            }
        }
    };
    word(0);
    word(4);
    word(8);
    word(12);
    word(16);
    word(20);
    word(24);
    zeroize::optimization_barrier(bytes);
}

/// Bytes of one chunk, the unit every depth is rounded up to (and
/// [`zero_stack`]'s row): on aarch64 LLVM writes a 128-byte chunk with
/// four `stp` of two vector registers a loop step (a 32-byte one took
/// five instructions for one `stp`); elsewhere 32.
const CHUNK: usize = if cfg!(target_arch = "aarch64") {
    128
} else {
    32
};

/// [`zero_stack`]'s count of chunks for at least `bytes` bytes.
const fn chunks(bytes: usize) -> usize {
    bytes.div_ceil(CHUNK)
}

/// [`zero_words`]'s count of words for at least `bytes` bytes, in whole
/// chunks.
const fn words(bytes: usize) -> usize {
    chunks(bytes) * (CHUNK / 8)
}

/// Runs `work`, a rayon task's share of a long call, in a frame of its
/// own on its worker thread, then clears the stack it used there (the
/// depth of a whole long call, which bounds a task's).
#[cfg(feature = "rayon")]
pub(crate) fn in_worker<R>(work: impl FnOnce() -> R) -> R {
    in_own_frame(Depth::LongCall, work)
}
