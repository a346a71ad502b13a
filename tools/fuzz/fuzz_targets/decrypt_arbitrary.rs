//! Decryption of arbitrary bytes under an arbitrary key, nonce and AD, with
//! every instance and through both the attached-tag and detached-tag paths:
//! it must never panic and never accept (a random forgery succeeds with
//! probability 2^-64 or less, which a fuzzer will not reach).
//!
//! Input layout: key (16 B), nonce (12 B), AD length (1 B), AD, then the
//! ciphertext with its tag; short inputs are padded with zeros.

#![no_main]

use elephant_aead::aead::array::typenum::Unsigned;
use elephant_aead::aead::{Aead, AeadInOut, KeyInit, Payload};
use elephant_aead::{Delirium, Dumbo, Jumbo};
use libfuzzer_sys::fuzz_target;

fn must_reject<C: Aead + AeadInOut + KeyInit>(key: &[u8], nonce: &[u8], ad: &[u8], sealed: &[u8]) {
    let cipher = C::new_from_slice(key).unwrap();
    let nonce = nonce.try_into().unwrap();
    let opened = cipher.decrypt(
        &nonce,
        Payload {
            msg: sealed,
            aad: ad,
        },
    );
    assert!(opened.is_err(), "accepted a ciphertext nobody sealed");

    // The detached path with an in-place buffer must leave the buffer as it was.
    let tag_len = <C as elephant_aead::aead::AeadCore>::TagSize::USIZE;
    if let Some(split) = sealed.len().checked_sub(tag_len) {
        let (ciphertext, tag) = sealed.split_at(split);
        let tag = tag.try_into().unwrap();
        let mut buffer = ciphertext.to_vec();
        let result = cipher.decrypt_inout_detached(&nonce, ad, buffer.as_mut_slice().into(), &tag);
        assert!(result.is_err(), "accepted a detached tag nobody made");
        assert_eq!(
            buffer, ciphertext,
            "a rejected decryption changed the buffer"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let mut header = [0u8; 29];
    let take = data.len().min(header.len());
    header[..take].copy_from_slice(&data[..take]);
    let rest = &data[take..];
    let (key, nonce, ad_len) = (&header[..16], &header[16..28], usize::from(header[28]));
    let (ad, sealed) = rest.split_at(ad_len.min(rest.len()));
    must_reject::<Dumbo>(key, nonce, ad, sealed);
    must_reject::<Jumbo>(key, nonce, ad, sealed);
    must_reject::<Delirium>(key, nonce, ad, sealed);
});
