//! Messages and associated data far longer than any KAT covers, checked
//! against the plain one-block-at-a-time reference in `common`: lengths at
//! and around every block boundary, every run of the batched mode, every
//! chunk of the multi-core path (feature `rayon`), and random lengths up to
//! 256 KiB (six chunks of that path; the reference, a `const fn`
//! permutation a block at a time, makes longer ones slow to check).

use crate::common;

use common::{Instance, reference_encrypt};
use elephant_aead::aead::{Aead, AeadInOut, KeyInit, Nonce, Payload};
use elephant_aead::{Delirium, Dumbo, Jumbo};

/// The batched mode hands at most this many blocks to the permutation at
/// once (on 64-bit targets); lengths around its multiples cross runs.
const RUN_BLOCKS: usize = 256;

/// With the `rayon` feature, buffers from 64 KiB on are cut into chunks of
/// this many blocks, one task each; lengths around its multiples cross tasks.
const CHUNK_BLOCKS: usize = 2048;

/// Deterministic test bytes (xorshift), so failures reproduce.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// Lengths at and around multiples of `block` that matter to the mode.
fn boundary_lengths(block: usize) -> Vec<usize> {
    let mut lengths: Vec<usize> = (0..=3 * block + 1).collect();
    for blocks in [
        7,
        8,
        63,
        64,
        65,
        127,
        128,
        129,
        RUN_BLOCKS - 1,
        RUN_BLOCKS,
        RUN_BLOCKS + 1,
        2 * RUN_BLOCKS,
        3 * RUN_BLOCKS + 5,
    ] {
        for delta in [-1i64, 0, 1] {
            lengths.push((blocks as i64 * block as i64 + delta) as usize);
        }
    }
    lengths
}

fn check<C: AeadInOut + KeyInit>(instance: Instance, ad_len: usize, msg_len: usize, seed: u64) {
    let key: [u8; 16] = bytes(seed, 16).try_into().unwrap();
    let nonce: [u8; 12] = bytes(seed + 1, 12).try_into().unwrap();
    let ad = bytes(seed + 2, ad_len);
    let msg = bytes(seed + 3, msg_len);
    let expected = reference_encrypt(instance, &key, &nonce, &ad, &msg);

    let cipher = C::new_from_slice(&key).unwrap();
    let nonce = Nonce::<C>::try_from(&nonce[..]).unwrap();
    let sealed = cipher
        .encrypt(
            &nonce,
            Payload {
                msg: &msg,
                aad: &ad,
            },
        )
        .unwrap();
    assert!(
        sealed == expected,
        "{instance:?}: encryption differs, AD {ad_len} B, message {msg_len} B"
    );
    let opened = cipher
        .decrypt(
            &nonce,
            Payload {
                msg: &sealed,
                aad: &ad,
            },
        )
        .unwrap();
    assert!(
        opened == msg,
        "{instance:?}: decryption differs, AD {ad_len} B, message {msg_len} B"
    );

    // A flipped bit is rejected, and the buffer is left as it was (whether
    // the keystream was computed with the tag terms or after them).
    let mut tampered = sealed.clone();
    let bit = (seed as usize).wrapping_mul(7919) % (tampered.len() * 8);
    tampered[bit / 8] ^= 1 << (bit % 8);
    let mut buffer = tampered.clone();
    assert!(
        AeadInOut::decrypt_in_place(&cipher, &nonce, &ad, &mut buffer).is_err(),
        "{instance:?}: flipped bit {bit} accepted, AD {ad_len} B, message {msg_len} B"
    );
    assert!(
        buffer == tampered,
        "{instance:?}: rejected buffer changed, AD {ad_len} B, message {msg_len} B"
    );
}

fn check_instance<C: AeadInOut + KeyInit>(instance: Instance) {
    let m = instance.block_size();
    for (i, len) in boundary_lengths(m).into_iter().enumerate() {
        check::<C>(instance, 5, len, i as u64);
        // AD blocks follow the 12-byte nonce: shift so the boundaries land on AD blocks.
        check::<C>(instance, len.saturating_sub(12), 3, 1000 + i as u64);
    }
    for seed in 0..6u64 {
        let msg_len = bytes(seed, 3)
            .iter()
            .fold(0usize, |acc, b| acc << 8 | *b as usize)
            % (64 << 10);
        let ad_len = bytes(seed + 50, 2)
            .iter()
            .fold(0usize, |acc, b| acc << 8 | *b as usize)
            % 8192;
        check::<C>(instance, ad_len, msg_len, 2000 + seed);
    }
    check::<C>(instance, 3 * RUN_BLOCKS * m + 1, 64 << 10, 3000);
    // The multi-core path: around 64 KiB, where it starts, and around its
    // chunk boundaries, for the message and for the AD.
    for (i, len) in [
        (64 << 10) - 1,
        64 << 10,
        2 * CHUNK_BLOCKS * m - 1,
        2 * CHUNK_BLOCKS * m,
        2 * CHUNK_BLOCKS * m + 1,
        3 * CHUNK_BLOCKS * m + m - 1,
    ]
    .into_iter()
    .enumerate()
    {
        check::<C>(instance, 5, len, 4000 + i as u64);
        check::<C>(instance, len, 1, 4100 + i as u64);
    }
    // One random length from 128 to 256 KiB, and 256 KiB.
    let len = bytes(5000, 3)
        .iter()
        .fold(0usize, |acc, b| acc << 8 | *b as usize)
        % (1 << 18);
    check::<C>(instance, 1 << 10, len.max(1 << 17), 5000);
    check::<C>(instance, 5, 1 << 18, 5001);
}

#[test]
fn dumbo_long_messages() {
    check_instance::<Dumbo>(Instance::Dumbo);
}

#[test]
fn jumbo_long_messages() {
    check_instance::<Jumbo>(Instance::Jumbo);
}

#[test]
fn delirium_long_messages() {
    check_instance::<Delirium>(Instance::Delirium);
}
