//! Each instance's entry points into the mode: the functions that
//! `Elephant<P>` and `batch::seal` call, written once per instance.
//!
//! Why: they are not generic, so each instance's mode is compiled once, in
//! this crate, and a crate using the cipher links to it instead of
//! compiling it again (every test, example and application would otherwise
//! build its own copy at full optimisation, whatever its profile).
//!
//! How: the generic functions here put their arguments in a value of a
//! [`Family`] and hand it to [`Permutation::by_instance`], which gives it
//! back as the same value for the concrete instance; the match on that
//! calls the instance's function. The match and the wrapping are all that
//! a caller's crate compiles.
//!
//! Invariant: the permutation layer names nothing of this module (nor of
//! the mode or `batch`); this module only dispatches, it decides nothing.

use crate::Elephant;
use crate::batch::{self, Packet};
use crate::mode::{self, NONCE_SIZE, TagOf};
use crate::permutation::{ByInstance, Family, Keccak200, Permutation, Spongent160, Spongent176};
use aead::Result;
use aead::inout::InOutBuf;

/// The arguments of an encryption by `P`, and where its tag goes.
struct Sealing<'a, 'b: 'a, P: Permutation> {
    expanded_key: &'a P::Block,
    nonce: &'a [u8; NONCE_SIZE],
    associated_data: &'a [u8],
    buffer: InOutBuf<'a, 'b, u8>,
    tag: &'a mut TagOf<P>,
}

/// The family of [`Sealing`].
struct Seal;

impl Family for Seal {
    type Of<'a, 'b: 'a, P: Permutation> = Sealing<'a, 'b, P>;
}

/// The arguments of a decryption by `P`.
struct Opening<'a, 'b: 'a, P: Permutation> {
    expanded_key: &'a P::Block,
    nonce: &'a [u8; NONCE_SIZE],
    associated_data: &'a [u8],
    buffer: InOutBuf<'a, 'b, u8>,
    tag: &'a TagOf<P>,
}

/// The family of [`Opening`].
struct Open;

impl Family for Open {
    type Of<'a, 'b: 'a, P: Permutation> = Opening<'a, 'b, P>;
}

/// The packets of a multi-message sealing by `P`.
struct SealPackets;

impl Family for SealPackets {
    type Of<'a, 'b: 'a, P: Permutation> = &'a mut [Packet<'b, Elephant<P>>];
}

/// [`mode::encrypt`] by the instance's function.
#[inline]
pub(crate) fn encrypt<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> Result<TagOf<P>> {
    let mut tag = TagOf::<P>::default();
    let sealing = Sealing {
        expanded_key,
        nonce,
        associated_data,
        buffer,
        tag: &mut tag,
    };
    match P::by_instance::<Seal>(sealing) {
        ByInstance::Dumbo(sealing) => encrypt_dumbo(sealing),
        ByInstance::Jumbo(sealing) => encrypt_jumbo(sealing),
        ByInstance::Delirium(sealing) => encrypt_delirium(sealing),
    }
    .map(|()| tag)
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
    let opening = Opening {
        expanded_key,
        nonce,
        associated_data,
        buffer,
        tag,
    };
    match P::by_instance::<Open>(opening) {
        ByInstance::Dumbo(opening) => decrypt_dumbo(opening),
        ByInstance::Jumbo(opening) => decrypt_jumbo(opening),
        ByInstance::Delirium(opening) => decrypt_delirium(opening),
    }
}

/// [`batch::seal_packets`] by the instance's function.
#[inline]
pub(crate) fn seal_packets<P: Permutation>(packets: &mut [Packet<'_, Elephant<P>>]) -> Result<()> {
    match P::by_instance::<SealPackets>(packets) {
        ByInstance::Dumbo(packets) => seal_packets_dumbo(packets),
        ByInstance::Jumbo(packets) => seal_packets_jumbo(packets),
        ByInstance::Delirium(packets) => seal_packets_delirium(packets),
    }
}

/// Writes each instance's three entry points.
macro_rules! entry_points {
    ($($permutation:ty: $encrypt:ident, $decrypt:ident, $seal_packets:ident;)+) => {$(
        /// [`mode::encrypt`] for this instance, the tag written to its
        /// place.
        fn $encrypt(sealing: Sealing<'_, '_, $permutation>) -> Result<()> {
            let Sealing { expanded_key, nonce, associated_data, buffer, tag } = sealing;
            *tag = mode::encrypt::<$permutation>(expanded_key, nonce, associated_data, buffer)?;
            Ok(())
        }

        /// [`mode::decrypt`] for this instance.
        fn $decrypt(opening: Opening<'_, '_, $permutation>) -> Result<()> {
            let Opening { expanded_key, nonce, associated_data, buffer, tag } = opening;
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
