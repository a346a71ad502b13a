#![cfg_attr(not(test), no_std)]
//! Elephant v2 authenticated encryption (Dumbo, Jumbo, Delirium) on the
//! RustCrypto `aead` traits: the API at a glance, then the README.
//!
//! ## The API at a glance
//!
//! - The ciphers: [`Dumbo`], [`Jumbo`] and [`Delirium`], all [`Elephant`]
//!   over a [`Permutation`]. Create one with [`KeyInit::new`], then use
//!   [`AeadInOut`] (in place, detached tags, no heap) or, with `alloc`,
//!   `aead::Aead` (returns a `Vec<u8>`).
//! - Their inputs: [`Key`], [`Nonce`] and [`Tag`], each generic over the
//!   instance, as in `aead` and `ascon-aead`: `Key<Dumbo>`. Keys are 16 bytes
//!   and nonces 12 for all three; tags are 8 bytes for Dumbo and Jumbo and 16
//!   for Delirium, so `Tag<Delirium>` and `Tag<Dumbo>` are different types.
//! - Failures: every error is the opaque [`Error`]; a rejected decryption
//!   leaves the buffer as it was.
//! - Limits per call: [`MAX_MESSAGE_LEN`] and [`MAX_ASSOCIATED_DATA_LEN`].
//! - Many messages in one call, each with its own key, nonce and AD, their
//!   permutations batched together (for gateways and servers):
//!   [`batch::seal`] and [`batch::open`] over [`batch::Packet`]s.
//! - The bare permutations, as `const fn`s: [`permutation`].
//! - The traits and sizes re-exported from `aead`, as chacha20poly1305 does:
//!   [`AeadCore`], [`AeadInOut`], [`KeyInit`], [`KeySizeUser`], [`consts`],
//!   and the crate itself as [`aead`].
//!
// Then the README, so that the repository, crates.io and docs.rs say the
// same thing. Its examples are complete programs that rustdoc tests; they
// use the default features (`Aead` needs `alloc`, `Generate` needs
// `getrandom`), so without those a short note stands in.
#![cfg_attr(
    all(feature = "alloc", feature = "getrandom"),
    doc = include_str!("../README.md")
)]
#![cfg_attr(
    not(all(feature = "alloc", feature = "getrandom")),
    doc = "The README, with its examples, is the rest of this page in builds \
           with the default features `alloc` and `getrandom`."
)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// The project's lint policy, in one place. The library must not panic on
// any input: no unwrap, no unchecked indexing or arithmetic. Where an
// invariant holds by construction, the code says so in a scoped
// `#[expect(.., reason = ..)]` (with a `debug_assert!` where it can be
// checked) instead of hiding it behind a silent default or saturation:
// - a module whose counts and offsets are bounded by the length limits
//   checked at the entry (or by slice lengths) says so once, in a line of
//   its doc and a module-level `#![expect(clippy::arithmetic_side_effects,
//   reason = ..)]`, and then uses plain operators (saturation only
//   for a deliberate clamp);
// - slicing that cannot fail on the 64-bit path may index, panicking on a
//   broken invariant, under a scoped `#[expect(clippy::indexing_slicing)]`;
// - code the firmware builds reach keeps `get`: they must link no panic
//   (`.ci/footprint`); plain arithmetic is fine there, with overflow
//   checks off in release.
// Every `unsafe` block states its safety argument. (Tests, examples and
// benchmarks are crates of their own: they may panic and index.)
#![deny(
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
#![warn(
    missing_docs,
    missing_debug_implementations,
    unused_qualifications,
    trivial_casts,
    clippy::cast_lossless,
    clippy::cast_possible_truncation,
    clippy::semicolon_if_nothing_returned,
    clippy::must_use_candidate
)]

pub use aead::{self, AeadCore, AeadInOut, Error, KeyInit, KeySizeUser, consts};

pub mod batch;
pub mod permutation;

mod instance;
mod mode;
mod scrub;

pub use permutation::{Keccak200, Permutation, Spongent160, Spongent176};

use aead::common::InvalidLength;
use aead::consts::{U12, U16};
use aead::inout::InOutBuf;
use aead::{Result, TagPosition};
use core::fmt;
use core::marker::PhantomData;
use zeroize::ZeroizeOnDrop;

pub use mode::{MAX_ASSOCIATED_DATA_LEN, MAX_MESSAGE_LEN};

/// The stack depths cleared after each kind of call, for the dead-stack
/// tests only: not part of the API.
#[doc(hidden)]
pub use scrub::depth as stack_clearing;

/// The most blocks one permutation batch of a single-message call of
/// these lengths holds on this CPU, for the benchmarks (which name the
/// kernels a call runs: [`Permutation::kernels_for`]): not part of the
/// API.
#[doc(hidden)]
#[must_use]
pub fn longest_batch<P: Permutation>(
    sealing: bool,
    associated_data_len: usize,
    message_len: usize,
) -> usize {
    mode::plan::longest_batch::<P>(
        permutation::Tiers::detect(),
        sealing,
        associated_data_len,
        message_len,
    )
}

/// A key for the instance `C`: 16 bytes for [`Dumbo`], [`Jumbo`] and
/// [`Delirium`] alike (the same type as `aead::Key<C>`).
///
/// Generic over the instance, like [`Nonce`] and [`Tag`], because the tag
/// size differs between instances; all three work the same way:
///
/// ```
/// use elephant_aead::consts::U16;
/// use elephant_aead::{AeadInOut, Delirium, Dumbo, Error, Key, KeyInit, Nonce, Tag};
///
/// fn main() -> Result<(), Error> {
///     let key = Key::<Delirium>::from([7; 16]);
///     let cipher = Delirium::new(&key);
///     let nonce = Nonce::<Delirium>::from([0; 12]);
///     let mut message = *b"hello";
///     let tag: Tag<Delirium> =
///         cipher.encrypt_inout_detached(&nonce, b"", message.as_mut_slice().into())?;
///     assert_eq!(tag.len(), 16);
///     assert_eq!(Tag::<Dumbo>::default().len(), 8);
///     // Keys and nonces have one size for every instance.
///     let _: Key<Dumbo> = key;
///     let _: elephant_aead::aead::array::Array<u8, U16> = tag;
///     Ok(())
/// }
/// ```
pub type Key<C> = aead::Key<C>;

/// A nonce for the instance `C`: 12 bytes for every instance (the same type
/// as `aead::Nonce<C>`). Never use one nonce twice with one key.
pub type Nonce<C> = aead::Nonce<C>;

/// An authentication tag of the instance `C`: 8 bytes for [`Dumbo`] and
/// [`Jumbo`], 16 bytes for [`Delirium`] (the same type as `aead::Tag<C>`).
pub type Tag<C> = aead::Tag<C>;

/// Elephant v2 authenticated encryption over the permutation `P`.
///
/// Use it through the aliases [`Dumbo`], [`Jumbo`] and [`Delirium`]. It holds
/// only the expanded key `L = P(K ‖ 0)`, which is computed once by
/// [`KeyInit`] and wiped when the value is dropped.
//
// Word-aligned: firmware then copies it (built, and returned by
// `KeyInit::new`) with a few `ldm`/`stm` instead of a `memcpy` call.
#[repr(align(4))]
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
        mode::key_setup::<P, _>(|| Self::expand(key))
    }

    fn new_from_slice(key: &[u8]) -> core::result::Result<Self, InvalidLength> {
        let key = <&Key<Self>>::try_from(key).map_err(|_| InvalidLength)?;
        mode::key_setup::<P, _>(|| Ok(Self::expand(key)))
    }
}

impl<P: Permutation> Elephant<P> {
    /// The cipher for `key`: `L = P(K ‖ 0)`, expanded in a block of this
    /// frame and copied into the return place. Called only through
    /// [`mode::key_setup`], whose stack clearing overwrites this frame and
    /// the permutation's, so the block is not wiped here as well.
    fn expand(key: &Key<Self>) -> Self {
        let mut expanded_key = P::Block::default();
        // Word by word, written out: LLVM then sees the zeros under the
        // key overwritten and clears only the rest, with a few stores (a
        // loop would become `memcpy`, and `memclr` the whole block).
        let block = expanded_key.as_mut();
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "`at` is a word's offset in the 16-byte key"
        )]
        let mut word = |at: usize| {
            let range = at..at + 4;
            if let (Some(to), Some(from)) = (block.get_mut(range.clone()), key.get(range)) {
                to.copy_from_slice(from);
            }
        };
        word(0);
        word(4);
        word(8);
        word(12);
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
    ///
    /// # Errors
    ///
    /// [`Error`] if the message or the associated data is too long, if the
    /// buffer cannot grow by a tag, or if it misreports its length (a `len()`
    /// that disagrees with its slice). Nothing is encrypted then. A buffer
    /// that misreports its length before the call is refused untouched; one
    /// that fails to grow (even after growing) or whose length is wrong only
    /// after growing is truncated back to the message's length by its own
    /// [`truncate`](aead::Buffer::truncate). So
    /// a buffer whose `len()`, slice and `truncate` agree holds the message
    /// as it was.
    fn encrypt_in_place(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: &mut dyn aead::Buffer,
    ) -> Result<()> {
        let message_len = buffer.len();
        if buffer.as_mut().len() != message_len {
            return Err(Error);
        }
        let tag_len = Tag::<Self>::default().len();
        // A buffer that fails to grow (having grown or not), says it grew
        // but did not, shrank, or whose slice disagrees with its length is
        // an error before anything is encrypted: it is truncated back to
        // the message, which is left as it was, never half processed.
        let grown = buffer.extend_from_slice(&Tag::<Self>::default()).is_ok();
        let parts = if grown && Some(buffer.len()) == message_len.checked_add(tag_len) {
            buffer
                .as_mut()
                .split_at_mut_checked(message_len)
                .filter(|(_, tag_space)| tag_space.len() == tag_len)
        } else {
            None
        };
        let result = match parts {
            Some((message, tag_space)) => self
                .encrypt_inout_detached(nonce, associated_data, message.into())
                .map(|tag| {
                    for (to, from) in tag_space.iter_mut().zip(&tag) {
                        *to = *from;
                    }
                }),
            None => Err(Error),
        };
        if result.is_err() {
            buffer.truncate(message_len);
        }
        result
    }

    /// Verifies the tag at the end of the buffer, then decrypts the rest in
    /// place and removes the tag.
    ///
    /// # Errors
    ///
    /// [`Error`] if the tag does not match, if the buffer is shorter than a
    /// tag or too long, or if it misreports its length (a `len()` that
    /// disagrees with its slice). The buffer is then left as it was: no
    /// plaintext is written before the tag is verified.
    fn decrypt_in_place(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: &mut dyn aead::Buffer,
    ) -> Result<()> {
        let len = buffer.len();
        let contents = buffer.as_mut();
        if contents.len() != len {
            return Err(Error);
        }
        let message_len = len.checked_sub(Tag::<Self>::default().len()).ok_or(Error)?;
        let (message, tag) = contents.split_at_mut_checked(message_len).ok_or(Error)?;
        let tag = Tag::<Self>::try_from(&*tag).map_err(|_| Error)?;
        self.decrypt_inout_detached(nonce, associated_data, message.into(), &tag)?;
        buffer.truncate(message_len);
        Ok(())
    }

    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> Result<Tag<Self>> {
        instance::encrypt::<P>(&self.expanded_key, &nonce.0, associated_data, buffer)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> Result<()> {
        instance::decrypt::<P>(&self.expanded_key, &nonce.0, associated_data, buffer, tag)
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
        scrub::wipe_block(self.expanded_key.as_mut());
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
