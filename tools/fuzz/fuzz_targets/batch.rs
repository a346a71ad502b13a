//! The multi-message API against the single-message one, on mixes of
//! packets the fuzzer shapes: each packet sealed in one `batch::seal` call
//! must equal its single-message encryption; then some packets are
//! tampered with, and one `batch::open` call must accept exactly the
//! others, decrypt them, and leave the tampered ones as they were.
//!
//! Input layout: instance (1 B), then packets while input lasts, each:
//! header (4 B: message length (2 B, up to 4095), AD length (1 B), key
//! index and tamper (1 B)), then AD, then message. Keys are taken from a
//! small set, so several packets share one.

#![no_main]

use elephant_aead::aead::{AeadInOut, KeyInit, Nonce, Tag};
use elephant_aead::batch::{self, Outcome, Packet};
use elephant_aead::{Elephant, Keccak200, Permutation, Spongent160, Spongent176};
use libfuzzer_sys::fuzz_target;

/// One packet drawn from the input.
struct Drawn {
    key: usize,
    nonce: [u8; 12],
    ad: Vec<u8>,
    message: Vec<u8>,
    /// 0: untouched; 1: tag; 2: ciphertext; 3: AD.
    tamper: u8,
}

fn packets(mut data: &[u8]) -> Vec<Drawn> {
    let mut drawn = Vec::new();
    while data.len() >= 4 && drawn.len() < 600 {
        let message_len = usize::from(u16::from_le_bytes([data[0], data[1]]) & 0x0fff);
        let ad_len = usize::from(data[2] % 64);
        let key = usize::from(data[3] & 0x0f);
        let tamper = data[3] >> 6;
        data = &data[4..];
        let ad_len = ad_len.min(data.len());
        let (ad, rest) = data.split_at(ad_len);
        let message_len = message_len.min(rest.len());
        let (message, rest) = rest.split_at(message_len);
        data = rest;
        let mut nonce = [0u8; 12];
        nonce[..8].copy_from_slice(&(drawn.len() as u64).to_le_bytes());
        drawn.push(Drawn {
            key,
            nonce,
            ad: ad.to_vec(),
            message: message.to_vec(),
            tamper,
        });
    }
    drawn
}

fn check<P: Permutation>(drawn: &mut [Drawn]) {
    let ciphers: Vec<Elephant<P>> = (0..16u8)
        .map(|k| Elephant::<P>::new(&[k.wrapping_mul(37) ^ 0x5a; 16].into()))
        .collect();
    let nonces: Vec<Nonce<Elephant<P>>> = drawn.iter().map(|d| d.nonce.into()).collect();
    let mut buffers: Vec<Vec<u8>> = drawn.iter().map(|d| d.message.clone()).collect();
    let mut tags = vec![Tag::<Elephant<P>>::default(); drawn.len()];
    {
        let mut list: Vec<Packet<'_, Elephant<P>>> = drawn
            .iter()
            .zip(&nonces)
            .zip(buffers.iter_mut().zip(tags.iter_mut()))
            .map(|((d, nonce), (buffer, tag))| {
                Packet::new(&ciphers[d.key], nonce, &d.ad, buffer, tag)
            })
            .collect();
        assert!(batch::seal(&mut list).is_ok());
        assert!(list.iter().all(|packet| packet.outcome() == Outcome::Done));
    }
    for (i, d) in drawn.iter().enumerate() {
        let mut single = d.message.clone();
        let tag = ciphers[d.key]
            .encrypt_inout_detached(&nonces[i], &d.ad, single.as_mut_slice().into())
            .unwrap();
        assert_eq!(buffers[i], single, "packet {i}: ciphertext differs");
        assert_eq!(tags[i], tag, "packet {i}: tag differs");
    }

    // Tamper; a packet whose chosen part is empty is left untouched.
    let mut tampered = vec![false; drawn.len()];
    for (i, d) in drawn.iter_mut().enumerate() {
        tampered[i] = match d.tamper {
            1 => {
                tags[i][0] ^= 1;
                true
            }
            2 if !buffers[i].is_empty() => {
                buffers[i][0] ^= 1;
                true
            }
            3 if !d.ad.is_empty() => {
                d.ad[0] ^= 1;
                true
            }
            _ => false,
        };
    }
    let sent = buffers.clone();
    let mut list: Vec<Packet<'_, Elephant<P>, &Tag<Elephant<P>>>> = drawn
        .iter()
        .zip(&nonces)
        .zip(buffers.iter_mut().zip(&tags))
        .map(|((d, nonce), (buffer, tag))| Packet::new(&ciphers[d.key], nonce, &d.ad, buffer, tag))
        .collect();
    assert!(
        list.iter()
            .all(|packet| packet.outcome() == Outcome::Pending)
    );
    let all = batch::open(&mut list);
    assert_eq!(all.is_ok(), !tampered.contains(&true));
    for (i, packet) in list.iter().enumerate() {
        let expected = if tampered[i] {
            Outcome::Rejected
        } else {
            Outcome::Done
        };
        assert_eq!(packet.outcome(), expected, "packet {i}: wrong verdict");
    }
    drop(list);
    for (i, d) in drawn.iter().enumerate() {
        let expected = if tampered[i] { &sent[i] } else { &d.message };
        assert_eq!(
            &buffers[i], expected,
            "packet {i}: wrong buffer after opening"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&instance, rest)) = data.split_first() else {
        return;
    };
    let mut drawn = packets(rest);
    match instance % 3 {
        0 => check::<Spongent160>(&mut drawn),
        1 => check::<Spongent176>(&mut drawn),
        _ => check::<Keccak200>(&mut drawn),
    }
});
