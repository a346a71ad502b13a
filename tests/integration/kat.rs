//! The official Elephant v2 known-answer tests, every entry through the
//! public API, with tampering of tag, ciphertext, AD and nonce rejected.

use crate::common;

use common::hex;
use elephant_aead::aead::array::typenum::Unsigned;
use elephant_aead::aead::{Aead, AeadInOut, KeyInit, Nonce, Payload, Tag};
use elephant_aead::{Delirium, Dumbo, Jumbo};

/// One entry of a KAT file.
struct Entry {
    count: usize,
    key: Vec<u8>,
    nonce: Vec<u8>,
    plaintext: Vec<u8>,
    associated_data: Vec<u8>,
    ciphertext: Vec<u8>,
}

/// Reads `kats/<name>.txt`; a missing or malformed file fails the test.
fn read_kats(name: &str) -> Vec<Entry> {
    let path = format!("{}/kats/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("KAT file {path} is required and could not be read: {e}"));
    let entries: Vec<Entry> = text
        .split("\n\n")
        .filter(|chunk| !chunk.trim().is_empty())
        .map(|chunk| {
            let field = |name: &str| -> String {
                chunk
                    .lines()
                    .find_map(|line| {
                        let (key, value) = line.split_once('=')?;
                        (key.trim() == name).then(|| value.trim().to_owned())
                    })
                    .unwrap_or_else(|| panic!("{path}: entry without {name}: {chunk:?}"))
            };
            Entry {
                count: field("Count").parse().expect("Count is a number"),
                key: hex(&field("Key")),
                nonce: hex(&field("Nonce")),
                plaintext: hex(&field("PT")),
                associated_data: hex(&field("AD")),
                ciphertext: hex(&field("CT")),
            }
        })
        .collect();
    assert_eq!(entries.len(), 1089, "{path} must hold 1089 entries");
    for (i, entry) in entries.iter().enumerate() {
        assert_eq!(entry.count, i + 1, "{path}: entries out of order");
    }
    entries
}

/// Flips bit `bit` of `bytes`.
fn flip(bytes: &mut [u8], bit: usize) {
    bytes[bit / 8] ^= 1 << (bit % 8);
}

/// Decrypts `ciphertext ‖ tag` in place, detached; on failure asserts the
/// buffer was left exactly as it was.
fn open_detached<C: AeadInOut>(
    cipher: &C,
    nonce: &Nonce<C>,
    associated_data: &[u8],
    sealed: &[u8],
) -> Option<Vec<u8>> {
    let (ciphertext, tag) = sealed.split_at(sealed.len() - C::TagSize::USIZE);
    let tag = Tag::<C>::try_from(tag).expect("tag length");
    let mut buffer = ciphertext.to_vec();
    match cipher.decrypt_inout_detached(nonce, associated_data, buffer.as_mut_slice().into(), &tag)
    {
        Ok(()) => Some(buffer),
        Err(_) => {
            assert_eq!(
                buffer, ciphertext,
                "a rejected decryption changed the buffer"
            );
            None
        }
    }
}

fn check_file<C: AeadInOut + KeyInit>(name: &str) {
    let tag_bits = C::TagSize::USIZE * 8;
    for entry in read_kats(name) {
        let id = format!("{name} Count = {}", entry.count);
        let cipher = C::new_from_slice(&entry.key).expect("16-byte key");
        let nonce = Nonce::<C>::try_from(entry.nonce.as_slice()).expect("12-byte nonce");
        let ad = entry.associated_data.as_slice();

        let sealed = cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: &entry.plaintext,
                    aad: ad,
                },
            )
            .expect("encryption");
        assert_eq!(sealed, entry.ciphertext, "{id}: encryption");

        let opened = cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: &entry.ciphertext,
                    aad: ad,
                },
            )
            .expect("decryption of the official ciphertext");
        assert_eq!(opened, entry.plaintext, "{id}: decryption");
        assert_eq!(
            open_detached(&cipher, &nonce, ad, &entry.ciphertext),
            Some(entry.plaintext.clone())
        );

        // Every tampering is rejected and leaves the buffer as it was.
        let ct_bits = (entry.ciphertext.len() * 8) - tag_bits;
        let mut tampered = entry.ciphertext.clone();
        let tag_bit = ct_bits + (entry.count * 7) % tag_bits;
        flip(&mut tampered, tag_bit);
        assert_eq!(
            open_detached(&cipher, &nonce, ad, &tampered),
            None,
            "{id}: tag bit flip"
        );
        if ct_bits > 0 {
            let mut tampered = entry.ciphertext.clone();
            flip(&mut tampered, (entry.count * 13) % ct_bits);
            assert_eq!(
                open_detached(&cipher, &nonce, ad, &tampered),
                None,
                "{id}: ciphertext flip"
            );
        }
        if !ad.is_empty() {
            let mut ad = ad.to_vec();
            let bits = ad.len() * 8;
            flip(&mut ad, (entry.count * 11) % bits);
            assert_eq!(
                open_detached(&cipher, &nonce, &ad, &entry.ciphertext),
                None,
                "{id}: AD flip"
            );
        }
        let mut nonce = nonce.clone();
        flip(&mut nonce, entry.count % 96);
        assert_eq!(
            open_detached(&cipher, &nonce, ad, &entry.ciphertext),
            None,
            "{id}: nonce flip"
        );
    }
}

#[test]
fn dumbo_kats() {
    check_file::<Dumbo>("dumbo");
}

#[test]
fn jumbo_kats() {
    check_file::<Jumbo>("jumbo");
}

#[test]
fn delirium_kats() {
    check_file::<Delirium>("delirium");
}

#[test]
fn reference_model_agrees_with_the_kats() {
    for (instance, name) in common::Instance::ALL
        .into_iter()
        .zip(["dumbo", "jumbo", "delirium"])
    {
        for entry in read_kats(name).iter().step_by(17) {
            let sealed = common::reference_encrypt(
                instance,
                entry.key.as_slice().try_into().unwrap(),
                entry.nonce.as_slice().try_into().unwrap(),
                &entry.associated_data,
                &entry.plaintext,
            );
            assert_eq!(sealed, entry.ciphertext, "{name} Count = {}", entry.count);
        }
    }
}
