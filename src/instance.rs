//! Each instance's entry points into the mode: the functions that
//! `Elephant<P>` and `batch::seal` call, written once per instance.
//!
//! Why: they are not generic, so each instance's mode is compiled once, in
//! this crate, and a crate using the cipher links to it instead of
//! compiling it again (every test, example and application would otherwise
//! build its own copy at full optimisation, whatever its profile).
//!
//! How: the generic functions here hand the three instances' functions,
//! each typed for its instance, to [`Permutation::from_instance`], which
//! gives back the one of `P` typed for `P`, a constant: the caller's crate
//! compiles a direct call, nothing else.
//!
//! Invariant: the permutation layer names nothing of this module (nor of
//! the mode or `batch`); this module only dispatches, it decides nothing.

use crate::Elephant;
use crate::batch::{self, Packet};
use crate::mode::{self, NONCE_SIZE, TagOf};
use crate::permutation::{ByInstance, Family, Keccak200, Permutation, Spongent160, Spongent176};
use aead::inout::InOutBuf;
use aead::{Error, Result};

/// An instance's encryption entry point.
struct EncryptFn;

impl Family for EncryptFn {
    type Of<'a, 'b: 'a, P: Permutation> =
        fn(&P::Block, &[u8; NONCE_SIZE], &[u8], InOutBuf<'_, '_, u8>) -> Result<TagOf<P>>;
}

/// An instance's decryption entry point.
struct DecryptFn;

impl Family for DecryptFn {
    type Of<'a, 'b: 'a, P: Permutation> =
        fn(&P::Block, &[u8; NONCE_SIZE], &[u8], InOutBuf<'_, '_, u8>, &TagOf<P>) -> Result<()>;
}

/// An instance's multi-message sealing entry point.
struct SealPacketsFn;

impl Family for SealPacketsFn {
    type Of<'a, 'b: 'a, P: Permutation> = fn(&mut [Packet<'_, Elephant<P>>]) -> Result<()>;
}

/// `P`'s function of the family `F`, out of the three instances' ones.
/// Resolved at compile time: each [`Permutation::from_instance`] is a
/// constant for a given `P`, so the call that follows is a direct call,
/// with the arguments and the result as the function has them (no value
/// typed per instance waits in the caller's frame, whose stack is the
/// firmware's peak).
#[inline(always)]
fn entry<'a, 'b: 'a, P: Permutation, F: Family>(
    dumbo: F::Of<'a, 'b, Spongent160>,
    jumbo: F::Of<'a, 'b, Spongent176>,
    delirium: F::Of<'a, 'b, Keccak200>,
) -> Option<F::Of<'a, 'b, P>> {
    P::from_instance(ByInstance::<F>::Dumbo(dumbo))
        .or_else(|| P::from_instance(ByInstance::<F>::Jumbo(jumbo)))
        .or_else(|| P::from_instance(ByInstance::<F>::Delirium(delirium)))
}

/// [`mode::encrypt`] by the instance's function.
#[inline]
pub(crate) fn encrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> Result<TagOf<P>> {
    match entry::<P, EncryptFn>(encrypt_dumbo, encrypt_jumbo, encrypt_delirium) {
        Some(encrypt) => encrypt(expanded_key, nonce, associated_data, buffer),
        None => Err(Error),
    }
}

/// [`mode::decrypt`] by the instance's function.
#[inline]
pub(crate) fn decrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &TagOf<P>,
) -> Result<()> {
    match entry::<P, DecryptFn>(decrypt_dumbo, decrypt_jumbo, decrypt_delirium) {
        Some(decrypt) => decrypt(expanded_key, nonce, associated_data, buffer, tag),
        None => Err(Error),
    }
}

/// [`batch::seal_packets`] by the instance's function.
#[inline]
pub(crate) fn seal_packets<P: Permutation>(packets: &mut [Packet<'_, Elephant<P>>]) -> Result<()> {
    match entry::<P, SealPacketsFn>(
        seal_packets_dumbo,
        seal_packets_jumbo,
        seal_packets_delirium,
    ) {
        Some(seal_packets) => seal_packets(packets),
        None => Err(Error),
    }
}

/// Writes each instance's three entry points.
macro_rules! entry_points {
    ($($permutation:ty: $encrypt:ident, $decrypt:ident, $seal_packets:ident;)+) => {$(
        /// [`mode::encrypt`] for this instance.
        fn $encrypt(
            expanded_key: &<$permutation as Permutation>::Block,
            nonce: &[u8; NONCE_SIZE],
            associated_data: &[u8],
            buffer: InOutBuf<'_, '_, u8>,
        ) -> Result<TagOf<$permutation>> {
            mode::encrypt::<$permutation>(expanded_key, nonce, associated_data, buffer)
        }

        /// [`mode::decrypt`] for this instance.
        fn $decrypt(
            expanded_key: &<$permutation as Permutation>::Block,
            nonce: &[u8; NONCE_SIZE],
            associated_data: &[u8],
            buffer: InOutBuf<'_, '_, u8>,
            tag: &TagOf<$permutation>,
        ) -> Result<()> {
            mode::decrypt::<$permutation>(expanded_key, nonce, associated_data, buffer, tag)
        }

        /// [`batch::seal_packets`] for this instance.
        fn $seal_packets(packets: &mut [Packet<'_, Elephant<$permutation>>]) -> Result<()> {
            batch::seal_packets::<$permutation>(packets)
        }
    )+};
}

entry_points! {
    Spongent160: encrypt_dumbo, decrypt_dumbo, seal_packets_dumbo;
    Spongent176: encrypt_jumbo, decrypt_jumbo, seal_packets_jumbo;
    Keccak200: encrypt_delirium, decrypt_delirium, seal_packets_delirium;
}
