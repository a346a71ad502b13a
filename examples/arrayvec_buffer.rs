//! In-place encryption into a fixed-capacity `ArrayVec` (feature
//! `arrayvec`): the tag is appended without any heap allocation.
//! (`heapless::Vec` has no `aead::Buffer` impl in aead 0.6.1.)
//!
//! Run with `cargo run --example arrayvec_buffer --features arrayvec`.

use elephant_aead::Delirium;
use elephant_aead::aead::arrayvec::ArrayVec;
use elephant_aead::aead::{AeadInOut, Error, KeyInit, Nonce};

fn main() -> Result<(), Error> {
    // Never use a fixed key or reuse a nonce with one key in real use.
    let cipher = Delirium::new(b"an example key!!".into());
    let nonce = Nonce::<Delirium>::from(*b"packet 00042");

    // Room for a 32-byte message and Delirium's 16-byte tag.
    let mut packet: ArrayVec<u8, 48> = ArrayVec::new();
    packet
        .try_extend_from_slice(b"valve=open;pressure=3.2bar")
        .map_err(|_| Error)?;
    cipher.encrypt_in_place(&nonce, b"v1", &mut packet)?;
    println!("{} B sealed: {:02x?}", packet.len(), packet.as_slice());

    cipher.decrypt_in_place(&nonce, b"v1", &mut packet)?;
    assert_eq!(packet.as_slice(), b"valve=open;pressure=3.2bar");
    println!("decrypted OK");
    Ok(())
}
