//! Clearing the stack that a call used, once it is done with it.
//!
//! The mode wipes the buffers it owns (masks, runs of blocks, the tag sum),
//! but the compiler is free to copy secrets elsewhere on the stack: register
//! spills in the permutations, temporaries of the transposes, a moved value's
//! old place. Rust cannot stop that, so each public call runs its work in a
//! frame of its own ([`encrypt`], [`decrypt`], [`expand_key`]) and then
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

/// Bytes cleared after a call whose blocks fit in the mode's short run
/// (64-bit targets; measured at most 4.5 KiB, Dumbo and Jumbo, with the
/// 64-state portable Spongent kernel).
const SHORT_CALL: usize = 6 * 1024;

/// Bytes cleared after a longer call (64-bit targets; measured at most
/// 24.8 KiB, Jumbo with the AVX2 kernel).
const LONG_CALL: usize = 32 * 1024;

/// Bytes cleared after any call on 32-bit targets (firmware), whose mode
/// takes one block at a time: the firmware benchmark measures a peak of
/// about 500 B for a whole call with key setup, and its scan of the dead
/// stack finds nothing after it with this bound. Kept close to the call's
/// own depth, so that the scrub adds little to the peak stack.
const CALL_32: usize = 640;

/// Bytes cleared after the key expansion (one permutation: a few hundred
/// bytes of stack).
const KEY_EXPANSION: usize = if cfg!(target_pointer_width = "64") {
    1024
} else {
    384
};

/// Overwrites the `N` bytes of stack just below the caller's frame with
/// zeros.
///
/// The array is this frame, so it lies where the calls made just before
/// from the same frame had theirs. `black_box` hands it to code the
/// optimiser cannot see into, so the zeros must really be written (a
/// volatile write per byte would be as certain and many times slower: this
/// is one `memset`).
#[inline(never)]
fn zero_stack<const N: usize>() {
    let mut region = [0u8; N];
    black_box(&mut region);
}

/// Clears the stack after a call on `associated_data_len` and `message_len`
/// bytes, to the depth measured for its path.
#[inline(always)]
fn after_call<P: Permutation>(associated_data_len: usize, message_len: usize) {
    if cfg!(not(target_pointer_width = "64")) {
        zero_stack::<CALL_32>();
    } else if mode::is_short::<P>(associated_data_len, message_len) {
        zero_stack::<SHORT_CALL>();
    } else {
        zero_stack::<LONG_CALL>();
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

/// `L = P(K ‖ 0)` computed in place in `block` (which holds `K ‖ 0`), in
/// a frame of its own, then the stack the permutation used cleared.
#[inline(always)]
pub(crate) fn expand_key<P: Permutation>(block: &mut P::Block) {
    permute_in_own_frame::<P>(block);
    zero_stack::<KEY_EXPANSION>();
}

#[inline(never)]
fn permute_in_own_frame<P: Permutation>(block: &mut P::Block) {
    P::permute(block);
}
