//! Clearing the stack that a call used, once it is done with it.
//!
//! The mode wipes the buffers it owns (masks, runs of blocks, the tag sum),
//! but the compiler is free to copy secrets elsewhere on the stack: register
//! spills in the permutations, temporaries of the transposes, a moved value's
//! old place. Rust cannot stop that, so each public call runs its work in a
//! frame of its own ([`encrypt`], [`decrypt`], [`key_setup`]) and then
//! overwrites the stack below its own frame with zeros, to a depth that
//! covers what that work was measured to use (as libsodium's
//! `sodium_stackzero` does).
//!
//! The depths are measured, not proven: `tests/stack_secrets.rs` prints the
//! depth of every case it probes (`depth:` lines, the calls and its own
//! small closure frame) and checks that no secret is left afterwards; the
//! bounds below are those depths with some margin. The depth chosen depends
//! on public lengths only, and so does the time the scrub takes.

use crate::mode;
use crate::permutation::Permutation;
use aead::Result;
use aead::inout::InOutBuf;
use core::hint::black_box;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// Bytes cleared after a call whose blocks fit in the mode's short run
/// (64-bit targets; measured at most 4.5 KiB, Dumbo and Jumbo, with the
/// 64-state portable Spongent kernel).
const SHORT_CALL: usize = 6 * 1024;

/// [`SHORT_CALL`] for a Dumbo call whose runs can hold 4 blocks or more
/// (message and AD of 2 blocks or more) on a CPU with the 64-state
/// AVX-512 Spongent-π\[160\] kernel, which takes such runs (measured at
/// most 6.4 KiB).
const SHORT_CALL_LANES: usize = 8 * 1024;

/// [`SHORT_CALL`] for Delirium, whose short calls go less deep (measured at
/// most 2.2 KiB, default and portable builds): clearing is about half of
/// what such a call costs otherwise. On aarch64 a short run of five blocks
/// or more takes the 16-state NEON kernel, whose frame takes a 100 B call
/// to 3.9 KiB (`tests/stack_secrets.rs` under qemu-aarch64).
const SHORT_CALL_KECCAK: usize = if cfg!(target_arch = "aarch64") {
    5 * 1024
} else {
    3 * 1024
};

/// Bytes cleared after a longer call (64-bit targets; measured at most
/// 20.2 KiB, Jumbo with the AVX-512 kernel in a debug build: 19.5 KiB with
/// AVX2, 10.2 KiB portable, Delirium 18.2 KiB). It was 32 KiB, sized for
/// a deeper mode: `memset`ting the 8 KiB more took 3 % of a 1500 B
/// Delirium encryption.
const LONG_CALL: usize = 24 * 1024;

/// Bytes cleared after the key expansion on 64-bit targets (one
/// permutation: a few hundred bytes of stack).
const KEY_EXPANSION: usize = 1024;

/// On 32-bit targets (firmware), where the mode walks one block at a time
/// and a call's depth does not depend on the lengths, clears exactly the
/// depth of the call's own frames below the one that clears, per instance
/// (told apart by block size), so that clearing adds next to nothing to the
/// peak stack. The depths are the firmware benchmark's: its peak stack for
/// a call with these clears off (Dumbo 392 B, Jumbo 416 B, Delirium 464 B,
/// the deepest of encryption and decryption), less the frames above (88,
/// 88 and 104 B), rounded up to [`zero_stack`]'s 32-byte rows: with them,
/// every peak it measures is 8–40 B deeper than without, so the clearing
/// reaches past the call's deepest byte (Dumbo 424/416 B, Jumbo 424/416 B,
/// Delirium 504/488 B). For the key expansion, the permutation's own frame
/// (96, 120 and 152 B) and the call into it, plus at least 16 B. With
/// these, its scan of the dead stack after every call finds no secret. The
/// firmware Keccak-f\[200\] leaves its state for these to clear.
#[inline(always)]
fn zero_stack_32<P: Permutation>(key_expansion: bool) {
    match (P::BLOCK_SIZE, key_expansion) {
        (20, false) => zero_stack::<{ chunks(320) }>(),
        (22, false) => zero_stack::<{ chunks(320) }>(),
        (_, false) => zero_stack::<{ chunks(384) }>(),
        (20, true) => zero_stack::<{ chunks(128) }>(),
        (22, true) => zero_stack::<{ chunks(160) }>(),
        (_, true) => zero_stack::<{ chunks(192) }>(),
    }
}

/// Overwrites the `CHUNKS` × 32 bytes of stack just below the caller's
/// frame with zeros.
///
/// The array is this frame, so it lies where the calls made just before
/// from the same frame had theirs. `black_box` hands it to code the
/// optimiser cannot see into, so the zeros must really be written (a
/// volatile write per byte would be as certain and many times slower).
///
/// On 64-bit targets the array is a `[0; N]`, which LLVM fills with a call
/// to `memset` (the C library's, with 32- or 64-byte stores or `rep stosb`
/// on x86-64): measured on a Zen 4, clearing the 32 KiB after a long call
/// this way instead of with the loop below made a 1500 B Dumbo encryption
/// 3 % faster (11.15 µs against 11.5 µs, minimum of 2,000 calls); `memset`
/// runs below this frame and leaves nothing of the call's. On 32-bit
/// targets the zero is opaque and the array uninitialised before a loop, so
/// that LLVM writes it with 8-byte stores (on a Cortex-M4 9 instructions
/// per 32 bytes, against 12 and a call's set-up for the `memset`; 16-byte
/// rows take 7 per 16 bytes).
#[inline(never)]
fn zero_stack<const CHUNKS: usize>() {
    if cfg!(target_pointer_width = "64") {
        let region = [[0u64; 4]; CHUNKS];
        black_box(&region);
    } else {
        let zero = black_box(0u64);
        let mut region = [const { [MaybeUninit::<u64>::uninit(); 4] }; CHUNKS];
        for [a, b, c, d] in &mut region {
            a.write(zero);
            b.write(zero);
            c.write(zero);
            d.write(zero);
        }
        black_box(&region);
    }
}

/// [`zero_stack`]'s count of 32-byte chunks for at least `bytes` bytes.
const fn chunks(bytes: usize) -> usize {
    bytes.div_ceil(32)
}

/// Clears the stack after a call on `associated_data_len` and `message_len`
/// bytes, to the depth measured for its path.
#[inline(always)]
fn after_call<P: Permutation>(associated_data_len: usize, message_len: usize) {
    if cfg!(not(target_pointer_width = "64")) {
        zero_stack_32::<P>(false);
    } else if mode::is_short::<P>(associated_data_len, message_len) {
        let lanes = P::narrow_batch().is_some()
            && associated_data_len.saturating_add(message_len) >= P::BLOCK_SIZE.saturating_mul(2);
        if P::BLOCK_SIZE == 25 {
            zero_stack::<{ chunks(SHORT_CALL_KECCAK) }>();
        } else if lanes {
            zero_stack::<{ chunks(SHORT_CALL_LANES) }>();
        } else {
            zero_stack::<{ chunks(SHORT_CALL) }>();
        }
    } else {
        zero_stack::<{ chunks(LONG_CALL) }>();
    }
}

/// [`mode::encrypt`] in a frame of its own, then the stack it used cleared.
#[inline(always)]
pub(crate) fn encrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; mode::NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> Result<mode::TagOf<P>> {
    let message_len = buffer.len();
    let result = encrypt_in_own_frame::<P>(expanded_key, nonce, associated_data, buffer);
    after_call::<P>(associated_data.len(), message_len);
    result
}

#[inline(never)]
fn encrypt_in_own_frame<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; mode::NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> Result<mode::TagOf<P>> {
    mode::encrypt::<P>(expanded_key, nonce, associated_data, buffer)
}

/// [`mode::decrypt`] in a frame of its own, then the stack it used cleared.
#[inline(always)]
pub(crate) fn decrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; mode::NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &mode::TagOf<P>,
) -> Result<()> {
    let message_len = buffer.len();
    let result = decrypt_in_own_frame::<P>(expanded_key, nonce, associated_data, buffer, tag);
    after_call::<P>(associated_data.len(), message_len);
    result
}

#[inline(never)]
fn decrypt_in_own_frame<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; mode::NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &mode::TagOf<P>,
) -> Result<()> {
    mode::decrypt::<P>(expanded_key, nonce, associated_data, buffer, tag)
}

/// Runs `work`, a key setup that returns the new cipher, in a frame of its
/// own, then clears the stack it used.
///
/// The result is the caller's return value, written by `work` straight
/// into the caller's return place (a call in tail position), and the
/// clearing runs from a guard's `Drop` after it: so neither this frame nor
/// the caller's ever holds `L`, inlined or not, in any build profile. What
/// `work` leaves in its own frames (the block it expands in, the
/// permutation's state) lies below this frame, where the guard clears.
#[inline(always)]
pub(crate) fn key_setup<P: Permutation, R>(work: impl FnOnce() -> R) -> R {
    let _clear = ClearAfterKeySetup::<P>(PhantomData);
    run_in_own_frame(work)
}

/// Clears the stack below the frame that holds it when dropped, to the depth
/// of a key setup: on 64-bit targets [`KEY_EXPANSION`], on 32-bit targets
/// the depth measured per instance.
struct ClearAfterKeySetup<P: Permutation>(PhantomData<P>);

impl<P: Permutation> Drop for ClearAfterKeySetup<P> {
    #[inline(always)]
    fn drop(&mut self) {
        if cfg!(target_pointer_width = "64") {
            zero_stack::<{ chunks(KEY_EXPANSION) }>();
        } else {
            zero_stack_32::<P>(true);
        }
    }
}

/// Bytes cleared after a multi-message call on 64-bit targets: a few short
/// packets on a 32-block run, with up to 16 in lockstep (measured at most
/// 8.2 KiB on the general scheduler; for sixteen in lockstep, whose stages
/// take the AVX-512 kernels on a Zen 4, 15.6 KiB for Delirium and 18.1 KiB
/// for Jumbo, 12.7 KiB with AVX2: the 12 KiB cleared before left
/// Delirium's secrets), up to 16 packets on a full run (measured at most
/// 27.8 KiB, Jumbo, AVX-512 Spongent kernel), 256 in flight on the general
/// scheduler (measured at most 101 KiB: the 256 calls take about 85 KiB),
/// or more than 16 packets all in lockstep ([`LOCKSTEP_BATCH`]).
/// `tests/stack_secrets.rs` checks that no call goes deeper.
const SHORT_BATCH: usize = 24 * 1024;
const SMALL_BATCH: usize = 40 * 1024;
const LARGE_BATCH: usize = 128 * 1024;

/// Bytes cleared after a multi-message call of more than 16 packets that
/// all go in lockstep (64-bit targets): waves of 256 packets, whose state
/// (their messages, mask streams and tag sums, and a run of 768 blocks)
/// and the batched permutation calls under it were measured at most
/// 94.7 KiB deep (Jumbo, AVX-512 Spongent kernels; 81.8 KiB with AVX2,
/// 72.7 KiB portable), whatever the number of waves; a release build with
/// the byte-column way into the wide Spongent kernel goes 113.1 KiB deep
/// (Jumbo, 256 or 4,096 packets), past the 112 KiB cleared before.
const LOCKSTEP_BATCH: usize = 128 * 1024;

/// Which scheduler configuration a multi-message call ran (public: it
/// depends on the packet count and lengths only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wave {
    /// Up to 16 packets whose blocks fit in a 32-block run.
    Short,
    /// Up to 16 packets.
    Small,
    /// More.
    Large,
    /// More than 16 packets, all in lockstep (short).
    Lockstep,
}

/// Bytes cleared after a multi-message call on 32-bit targets (one
/// message at a time: the depth of a single-message call, and the calls
/// of the scheduler around it).
const BATCH_32: usize = 2 * 1024;

/// Runs `work`, a multi-message call's scheduler, in a frame of its own,
/// then clears the stack it used.
#[inline(always)]
pub(crate) fn batch<R>(wave: Wave, work: impl FnOnce() -> R) -> R {
    let result = run_in_own_frame(work);
    if cfg!(not(target_pointer_width = "64")) {
        zero_stack::<{ chunks(BATCH_32) }>();
    } else {
        match wave {
            Wave::Short => zero_stack::<{ chunks(SHORT_BATCH) }>(),
            Wave::Small => zero_stack::<{ chunks(SMALL_BATCH) }>(),
            Wave::Large => zero_stack::<{ chunks(LARGE_BATCH) }>(),
            Wave::Lockstep => zero_stack::<{ chunks(LOCKSTEP_BATCH) }>(),
        }
    }
    result
}

/// Runs `work`, a rayon task's share of a long call, in a frame of its
/// own on its worker thread, then clears the stack it used there (the
/// depth of a whole long call, which bounds a task's).
#[cfg(feature = "rayon")]
pub(crate) fn in_worker<R>(work: impl FnOnce() -> R) -> R {
    let result = run_in_own_frame(work);
    zero_stack::<{ chunks(LONG_CALL) }>();
    result
}

#[inline(never)]
fn run_in_own_frame<R>(work: impl FnOnce() -> R) -> R {
    work()
}
