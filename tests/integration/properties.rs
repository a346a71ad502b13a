//! Property tests: roundtrips, tampering of any single bit, agreement of
//! every trait path, and the batched permutation entry point against the
//! single-block one.

#![allow(deprecated)] // `AeadInPlace` is deprecated in aead 0.6 but still offered.

use elephant_aead::aead::array::typenum::Unsigned;
use elephant_aead::aead::inout::InOutBuf;
use elephant_aead::aead::{Aead, AeadInOut, AeadInPlace, KeyInit, Nonce, Payload, Tag};
use elephant_aead::permutation::{keccak_f200, spongent_pi_160, spongent_pi_176};
use elephant_aead::{Delirium, Dumbo, Jumbo, Keccak200, Permutation, Spongent160, Spongent176};
use proptest::prelude::*;

/// A random key, nonce, AD (0..=300 B) and message (0..=2000 B).
fn inputs() -> impl Strategy<Value = ([u8; 16], [u8; 12], Vec<u8>, Vec<u8>)> {
    (
        any::<[u8; 16]>(),
        any::<[u8; 12]>(),
        prop::collection::vec(any::<u8>(), 0..=300),
        prop::collection::vec(any::<u8>(), 0..=2000),
    )
}

/// Roundtrip through every trait path, all agreeing; then a flipped bit in
/// the AD, ciphertext, tag or nonce (picked by `pick`) must be rejected.
fn check_paths<C: AeadInOut + KeyInit>(
    key: &[u8; 16],
    nonce: &[u8; 12],
    ad: &[u8],
    msg: &[u8],
    pick: u64,
) -> Result<(), TestCaseError> {
    let cipher = C::new_from_slice(key).unwrap();
    let nonce = Nonce::<C>::try_from(&nonce[..]).unwrap();
    let tag_len = C::TagSize::USIZE;

    // `Aead` (alloc).
    let sealed = cipher.encrypt(&nonce, Payload { msg, aad: ad }).unwrap();
    prop_assert_eq!(sealed.len(), msg.len() + tag_len);
    prop_assert_eq!(
        &cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: &sealed,
                    aad: ad
                }
            )
            .unwrap(),
        msg
    );
    let (ciphertext, tag) = sealed.split_at(msg.len());
    let tag = Tag::<C>::try_from(tag).unwrap();

    // `AeadInOut` in place.
    let mut buffer = msg.to_vec();
    let detached = cipher
        .encrypt_inout_detached(&nonce, ad, buffer.as_mut_slice().into())
        .unwrap();
    prop_assert_eq!(&buffer, ciphertext);
    prop_assert_eq!(&detached, &tag);
    cipher
        .decrypt_inout_detached(&nonce, ad, buffer.as_mut_slice().into(), &tag)
        .unwrap();
    prop_assert_eq!(&buffer, msg);

    // `AeadInOut` with separate input and output buffers.
    let mut out = vec![0u8; msg.len()];
    let detached = cipher
        .encrypt_inout_detached(&nonce, ad, InOutBuf::new(msg, &mut out).unwrap())
        .unwrap();
    prop_assert_eq!(&out, ciphertext);
    prop_assert_eq!(&detached, &tag);
    let mut back = vec![0u8; msg.len()];
    cipher
        .decrypt_inout_detached(
            &nonce,
            ad,
            InOutBuf::new(ciphertext, &mut back).unwrap(),
            &tag,
        )
        .unwrap();
    prop_assert_eq!(&back, msg);

    // `AeadInPlace` (legacy, by aead's blanket impl).
    let mut buffer = msg.to_vec();
    AeadInPlace::encrypt_in_place(&cipher, &nonce, ad, &mut buffer).unwrap();
    prop_assert_eq!(&buffer, &sealed);
    AeadInPlace::decrypt_in_place(&cipher, &nonce, ad, &mut buffer).unwrap();
    prop_assert_eq!(&buffer, msg);
    let mut buffer = msg.to_vec();
    let detached =
        AeadInPlace::encrypt_in_place_detached(&cipher, &nonce, ad, &mut buffer).unwrap();
    prop_assert_eq!(&detached, &tag);

    // One flipped bit anywhere is rejected, and the buffer is left as it was.
    let mut ad = ad.to_vec();
    let mut nonce = nonce;
    let mut sealed = sealed;
    let target = pick % 4;
    let ad_bits = ad.len() * 8;
    let (place, bits) = match target {
        0 if !ad.is_empty() => (ad.as_mut_slice(), ad_bits),
        1 if !msg.is_empty() => (&mut sealed[..msg.len()], msg.len() * 8),
        2 => (nonce.as_mut_slice(), 96),
        _ => (&mut sealed[msg.len()..], tag_len * 8),
    };
    let bit = (pick / 4) as usize % bits;
    place[bit / 8] ^= 1 << (bit % 8);
    let mut buffer = sealed.clone();
    prop_assert!(AeadInOut::decrypt_in_place(&cipher, &nonce, &ad, &mut buffer).is_err());
    prop_assert_eq!(&buffer, &sealed);
    let (ciphertext, tag) = sealed.split_at(msg.len());
    let mut out = vec![0xa5u8; msg.len()];
    let tag = Tag::<C>::try_from(tag).unwrap();
    prop_assert!(
        cipher
            .decrypt_inout_detached(
                &nonce,
                &ad,
                InOutBuf::new(ciphertext, &mut out).unwrap(),
                &tag
            )
            .is_err()
    );
    prop_assert!(
        out.iter().all(|&b| b == 0xa5),
        "a rejected decryption wrote output"
    );
    Ok(())
}

/// `permute_batch` on `count` random blocks equals `permute` and the
/// `const fn` on each block.
fn check_batch<P: Permutation>(
    seed: &[u8],
    count: usize,
    reference: impl Fn(&P::Block) -> P::Block,
) -> Result<(), TestCaseError> {
    let mut blocks = vec![P::Block::default(); count];
    for (i, block) in blocks.iter_mut().enumerate() {
        for (j, byte) in block.as_mut().iter_mut().enumerate() {
            *byte = seed[(i * 31 + j) % seed.len()] ^ (i as u8).wrapping_mul(j as u8 | 1);
        }
    }
    let expected: Vec<P::Block> = blocks.iter().map(&reference).collect();
    let mut single = blocks.clone();
    single.iter_mut().for_each(P::permute);
    P::permute_batch(&mut blocks);
    for i in 0..count {
        prop_assert_eq!(
            blocks[i].as_ref(),
            expected[i].as_ref(),
            "batch of {} block {}",
            count,
            i
        );
        prop_assert_eq!(
            single[i].as_ref(),
            expected[i].as_ref(),
            "single block {}",
            i
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn dumbo_paths((key, nonce, ad, msg) in inputs(), pick in any::<u64>()) {
        check_paths::<Dumbo>(&key, &nonce, &ad, &msg, pick)?;
    }

    #[test]
    fn jumbo_paths((key, nonce, ad, msg) in inputs(), pick in any::<u64>()) {
        check_paths::<Jumbo>(&key, &nonce, &ad, &msg, pick)?;
    }

    #[test]
    fn delirium_paths((key, nonce, ad, msg) in inputs(), pick in any::<u64>()) {
        check_paths::<Delirium>(&key, &nonce, &ad, &msg, pick)?;
    }

    #[test]
    fn keccak_f200_matches_the_keccak_crate(state in any::<[u8; 25]>()) {
        let mut theirs = state;
        keccak::Keccak::new().with_f200(|f200| f200(&mut theirs));
        prop_assert_eq!(keccak_f200(state), theirs);
    }
}

/// Batch sizes to check: every size up to a little over one 64-state word,
/// then both sides of every wider batch width up to twice the widest.
fn batch_sizes() -> impl Iterator<Item = usize> {
    let edges = [127, 128, 129, 255, 256, 257, 300, 511, 512, 513];
    (0..=66).chain(edges)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2))]

    #[test]
    fn batches_of_every_size_match_single_blocks(seed in prop::collection::vec(any::<u8>(), 64)) {
        for count in batch_sizes() {
            check_batch::<Spongent160>(&seed, count, |b| spongent_pi_160(*b))?;
            check_batch::<Spongent176>(&seed, count, |b| spongent_pi_176(*b))?;
            check_batch::<Keccak200>(&seed, count, |b| keccak_f200(*b))?;
        }
    }
}
