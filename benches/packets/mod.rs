//! Inputs shared by the benchmarks (`benches/summary.rs` and the criterion
//! suite, which include this file): deterministic filler bytes, and many
//! packets each with its own key, sealed one call each or listed for one
//! multi-message call.

use elephant_aead::aead::{AeadInOut, KeyInit, Nonce, Tag};
use elephant_aead::{Elephant, Permutation, batch};

/// Deterministic filler bytes.
pub fn filler(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// `count` packets of `size` bytes, each with its own key, nonce and 5 B of
/// AD: keys, buffers and tags made outside the timed part.
pub struct Packets<C: KeyInit + AeadInOut> {
    ciphers: Vec<C>,
    nonces: Vec<Nonce<C>>,
    ads: Vec<[u8; 5]>,
    /// The packets' buffers: plaintext, then ciphertext once sealed.
    pub buffers: Vec<Vec<u8>>,
    tags: Vec<Tag<C>>,
}

impl<C: KeyInit + AeadInOut> Packets<C> {
    pub fn new(count: usize, size: usize) -> Self {
        let ciphers = (0..count)
            .map(|i| C::new_from_slice(&filler(C::key_size(), i as u8)).unwrap())
            .collect();
        let nonce_len = Nonce::<C>::default().len();
        let nonces = (0..count)
            .map(|i| {
                Nonce::<C>::try_from(&filler(nonce_len, (i >> 8) as u8 ^ i as u8)[..]).unwrap()
            })
            .collect();
        Self {
            ciphers,
            nonces,
            ads: (0..count).map(|i| [i as u8; 5]).collect(),
            buffers: (0..count).map(|i| filler(size, i as u8)).collect(),
            tags: vec![Default::default(); count],
        }
    }

    /// Every packet sealed with the single-message call, one after another.
    pub fn seal_one_at_a_time(&mut self) {
        for (((cipher, nonce), ad), (buffer, tag)) in self
            .ciphers
            .iter()
            .zip(&self.nonces)
            .zip(&self.ads)
            .zip(self.buffers.iter_mut().zip(self.tags.iter_mut()))
        {
            *tag = cipher
                .encrypt_inout_detached(nonce, ad, buffer.as_mut_slice().into())
                .unwrap();
        }
    }
}

impl<P: Permutation> Packets<Elephant<P>> {
    /// The packets of one multi-message call.
    pub fn list(&mut self) -> Vec<batch::Packet<'_, Elephant<P>>> {
        self.ciphers
            .iter()
            .zip(&self.nonces)
            .zip(&self.ads)
            .zip(self.buffers.iter_mut().zip(self.tags.iter_mut()))
            .map(|(((cipher, nonce), ad), (buffer, tag))| {
                batch::Packet::new(cipher, nonce, ad, buffer, tag)
            })
            .collect()
    }
}
