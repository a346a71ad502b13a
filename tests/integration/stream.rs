//! Large data in segments with `aead-stream` (STREAM, big-endian 32-bit
//! counter): every instance encrypts and decrypts a multi-megabyte input,
//! and truncation, reordering and a flipped bit are each detected.

use aead_stream::{DecryptorBE32, EncryptorBE32, Nonce as StreamNonce, StreamBE32};
use elephant_aead::aead::consts::U12;
use elephant_aead::aead::{AeadInOut, KeyInit};
use elephant_aead::{Delirium, Dumbo, Jumbo};

/// The 7-byte STREAM nonce prefix (the 12-byte Elephant nonce less the
/// 4-byte counter and the 1-byte last-segment flag).
const NONCE_PREFIX: [u8; 7] = *b"stream!";

fn encrypt_segments<A: AeadInOut<NonceSize = U12> + KeyInit>(
    key: &[u8; 16],
    segments: &[&[u8]],
) -> Vec<Vec<u8>> {
    let nonce = StreamNonce::<A, StreamBE32<A>>::try_from(&NONCE_PREFIX[..]).unwrap();
    let mut encryptor = EncryptorBE32::<A>::from_aead(A::new_from_slice(key).unwrap(), &nonce);
    let (last, rest) = segments.split_last().unwrap();
    let mut sealed: Vec<Vec<u8>> = rest
        .iter()
        .map(|segment| encryptor.encrypt_next(*segment).unwrap())
        .collect();
    sealed.push(encryptor.encrypt_last(*last).unwrap());
    sealed
}

/// Decrypts segments in the order given; `None` if any segment fails.
fn decrypt_segments<A: AeadInOut<NonceSize = U12> + KeyInit>(
    key: &[u8; 16],
    sealed: &[Vec<u8>],
) -> Option<Vec<u8>> {
    let nonce = StreamNonce::<A, StreamBE32<A>>::try_from(&NONCE_PREFIX[..]).unwrap();
    let mut decryptor = DecryptorBE32::<A>::from_aead(A::new_from_slice(key).unwrap(), &nonce);
    let (last, rest) = sealed.split_last()?;
    let mut plaintext = Vec::new();
    for segment in rest {
        plaintext.extend(decryptor.decrypt_next(segment.as_slice()).ok()?);
    }
    plaintext.extend(decryptor.decrypt_last(last.as_slice()).ok()?);
    Some(plaintext)
}

fn stream_roundtrip_and_tampering<A: AeadInOut<NonceSize = U12> + KeyInit>() {
    let key = *b"a stream key 16B";
    // 2 MiB + a ragged tail, in 64 KiB segments.
    let input: Vec<u8> = (0..(2 << 20) + 1234u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let segments: Vec<&[u8]> = input.chunks(64 << 10).collect();
    let sealed = encrypt_segments::<A>(&key, &segments);
    assert_eq!(sealed.len(), 33);
    assert_eq!(decrypt_segments::<A>(&key, &sealed).unwrap(), input);

    // Small segments make the tampering checks cheap.
    let small: Vec<&[u8]> = input[..4000].chunks(1000).collect();
    let sealed = encrypt_segments::<A>(&key, &small);
    assert_eq!(decrypt_segments::<A>(&key, &sealed).unwrap(), input[..4000]);

    // Truncation: dropping the last segment leaves a non-last segment last.
    assert!(decrypt_segments::<A>(&key, &sealed[..3]).is_none());
    // Reordering two segments.
    let mut swapped = sealed.clone();
    swapped.swap(1, 2);
    assert!(decrypt_segments::<A>(&key, &swapped).is_none());
    // One flipped bit in a middle segment.
    let mut flipped = sealed.clone();
    flipped[2][500] ^= 0x10;
    assert!(decrypt_segments::<A>(&key, &flipped).is_none());
    // A different key.
    assert!(decrypt_segments::<A>(b"another key 16 B", &sealed).is_none());
}

#[test]
fn dumbo_streams() {
    stream_roundtrip_and_tampering::<Dumbo>();
}

#[test]
fn jumbo_streams() {
    stream_roundtrip_and_tampering::<Jumbo>();
}

#[test]
fn delirium_streams() {
    stream_roundtrip_and_tampering::<Delirium>();
}
