//! Differential: the crate (batched, SIMD and runtime-dispatched backends)
//! against the plain one-block-at-a-time reference of the integration tests
//! (`tests/common`, built on the `const fn` permutations), for arbitrary key,
//! nonce, AD and message; then decryption must give the message back, and a
//! flipped bit anywhere in the output must be rejected.
//!
//! Input layout: instance (1 B), key (16 B), nonce (12 B), AD length (2 B),
//! AD, message; short inputs are padded with zeros.

#![no_main]

#[path = "../../../tests/common/mod.rs"]
mod common;

use common::{Instance, reference_encrypt};
use elephant_aead::aead::{Aead, KeyInit, Payload};
use elephant_aead::{Delirium, Dumbo, Jumbo};
use libfuzzer_sys::fuzz_target;

fn check<C: Aead + KeyInit>(
    instance: Instance,
    key: &[u8],
    nonce: &[u8],
    ad: &[u8],
    msg: &[u8],
    flip: usize,
) {
    let expected = reference_encrypt(
        instance,
        key.try_into().unwrap(),
        nonce.try_into().unwrap(),
        ad,
        msg,
    );
    let cipher = C::new_from_slice(key).unwrap();
    let nonce = nonce.try_into().unwrap();
    let sealed = cipher.encrypt(&nonce, Payload { msg, aad: ad }).unwrap();
    assert_eq!(
        sealed, expected,
        "{instance:?}: encryption differs from the reference"
    );
    let opened = cipher
        .decrypt(
            &nonce,
            Payload {
                msg: &sealed,
                aad: ad,
            },
        )
        .unwrap();
    assert_eq!(
        opened, msg,
        "{instance:?}: decryption did not give the message back"
    );

    let mut forged = sealed;
    let bit = flip % (forged.len() * 8);
    forged[bit / 8] ^= 1 << (bit % 8);
    assert!(
        cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: &forged,
                    aad: ad
                }
            )
            .is_err(),
        "{instance:?}: accepted a flipped bit"
    );
}

fuzz_target!(|data: &[u8]| {
    let mut header = [0u8; 31];
    let take = data.len().min(header.len());
    header[..take].copy_from_slice(&data[..take]);
    let rest = &data[take..];
    let key = &header[1..17];
    let nonce = &header[17..29];
    let ad_len = usize::from(u16::from_le_bytes([header[29], header[30]]));
    let (ad, msg) = rest.split_at(ad_len.min(rest.len()));
    let flip = usize::from(header[0] >> 2) * 131 + msg.len();
    match header[0] % 3 {
        0 => check::<Dumbo>(Instance::Dumbo, key, nonce, ad, msg, flip),
        1 => check::<Jumbo>(Instance::Jumbo, key, nonce, ad, msg, flip),
        _ => check::<Delirium>(Instance::Delirium, key, nonce, ad, msg, flip),
    }
});
