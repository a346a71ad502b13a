#![cfg_attr(not(test), no_std)]
#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
// Library code must not panic on any input: no unchecked indexing or
// arithmetic (the few justified exceptions say why where they are allowed).
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

pub use aead;

pub mod permutation;

mod mode;

pub use permutation::{Keccak200, Permutation, Spongent160, Spongent176};

use aead::consts::{U12, U16};
use aead::inout::InOutBuf;
use aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Result, Tag, TagPosition};
use core::fmt;
use core::marker::PhantomData;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Longest message (plaintext or ciphertext without tag) one call accepts,
/// in bytes: 2^50 − 1, the NIST lightweight call's minimum. Longer input is
/// an [`aead::Error`].
pub const MAX_MESSAGE_LEN: u64 = (1 << 50) - 1;

/// Longest associated data one call accepts, in bytes: 2^50 − 1. Longer
/// input is an [`aead::Error`].
pub const MAX_ASSOCIATED_DATA_LEN: u64 = (1 << 50) - 1;

/// Elephant v2 authenticated encryption over the permutation `P`.
///
/// Use it through the aliases [`Dumbo`], [`Jumbo`] and [`Delirium`]. It holds
/// only the expanded key `L = P(K ‖ 0)`, which is computed once by
/// [`KeyInit`] and wiped when the value is dropped.
pub struct Elephant<P: Permutation> {
    expanded_key: P::Block,
    permutation: PhantomData<P>,
}

/// Elephant-Spongent-π\[160\], the primary member: 8-byte tags.
pub type Dumbo = Elephant<Spongent160>;

/// Elephant-Spongent-π\[176\]: 8-byte tags.
pub type Jumbo = Elephant<Spongent176>;

/// Elephant-Keccak-f\[200\]: 16-byte tags.
pub type Delirium = Elephant<Keccak200>;

impl<P: Permutation> KeySizeUser for Elephant<P> {
    type KeySize = U16;
}

impl<P: Permutation> KeyInit for Elephant<P> {
    fn new(key: &Key<Self>) -> Self {
        let mut expanded_key = P::Block::default();
        for (to, from) in expanded_key.as_mut().iter_mut().zip(key) {
            *to = *from;
        }
        P::permute(&mut expanded_key);
        Self {
            expanded_key,
            permutation: PhantomData,
        }
    }
}

impl<P: Permutation> AeadCore for Elephant<P> {
    type NonceSize = U12;
    type TagSize = P::TagSize;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

impl<P: Permutation> AeadInOut for Elephant<P> {
    /// Encrypts the buffer in place and appends the tag.
    ///
    /// Unlike aead's default, room for the tag is made *before* encrypting, so
    /// a buffer that cannot grow (a full `ArrayVec`) gives an error with the
    /// message still in it, never a tagless ciphertext.
    fn encrypt_in_place(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: &mut dyn aead::Buffer,
    ) -> Result<()> {
        let message_len = buffer.len();
        buffer.extend_from_slice(&Tag::<Self>::default())?;
        let (message, tag_space) = buffer.as_mut().split_at_mut(message_len);
        match self.encrypt_inout_detached(nonce, associated_data, message.into()) {
            Ok(tag) => {
                tag_space.copy_from_slice(&tag);
                Ok(())
            }
            Err(error) => {
                buffer.truncate(message_len);
                Err(error)
            }
        }
    }

    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> Result<Tag<Self>> {
        mode::encrypt::<P>(&self.expanded_key, &nonce.0, associated_data, buffer)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> Result<()> {
        mode::decrypt::<P>(&self.expanded_key, &nonce.0, associated_data, buffer, tag)
    }
}

impl<P: Permutation> Clone for Elephant<P> {
    fn clone(&self) -> Self {
        Self {
            expanded_key: self.expanded_key,
            permutation: PhantomData,
        }
    }
}

impl<P: Permutation> fmt::Debug for Elephant<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(P::INSTANCE).finish_non_exhaustive()
    }
}

impl<P: Permutation> Drop for Elephant<P> {
    fn drop(&mut self) {
        self.expanded_key.zeroize();
    }
}

impl<P: Permutation> ZeroizeOnDrop for Elephant<P> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one place a test needs `unsafe`: to look at a value after its
    /// destructor ran, which is the only way to see what `Drop` left behind.
    #[test]
    fn dropping_wipes_the_expanded_key() {
        let mut cipher = core::mem::ManuallyDrop::new(Dumbo::new(&[0x42; 16].into()));
        assert_ne!(cipher.expanded_key, [0; 20]);
        // SAFETY: the destructor runs exactly once, and afterwards only the
        // plain byte array inside the `ManuallyDrop` is read: its memory is
        // still owned here and initialised (zeroize wrote zeros into it).
        unsafe { core::mem::ManuallyDrop::drop(&mut cipher) };
        assert_eq!(cipher.expanded_key, [0; 20]);
    }
}
