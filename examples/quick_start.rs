//! Encrypts and decrypts one message with each Elephant instance, and shows
//! that a tampered ciphertext is rejected.
//!
//! Run with `cargo run --example quick_start`.

use elephant_aead::aead::{Aead, Error, KeyInit, Nonce, Payload};
use elephant_aead::{Delirium, Dumbo, Jumbo};

fn demo<C: Aead + KeyInit>(name: &str) -> Result<(), Error> {
    // Never use a fixed key or reuse a nonce with one key in real use.
    let cipher = C::new_from_slice(b"an example key!!").map_err(|_| Error)?;
    let nonce = Nonce::<C>::try_from(&b"unique nonce"[..]).map_err(|_| Error)?;
    let message = b"Elephant: a permutation-based AEAD for small devices".as_slice();
    let header = b"header 1".as_slice();

    let sealed = cipher.encrypt(
        &nonce,
        Payload {
            msg: message,
            aad: header,
        },
    )?;
    let opened = cipher.decrypt(
        &nonce,
        Payload {
            msg: &sealed,
            aad: header,
        },
    )?;
    assert_eq!(opened, message);

    let mut tampered = sealed.clone();
    tampered[0] ^= 1;
    let rejected = cipher
        .decrypt(
            &nonce,
            Payload {
                msg: &tampered,
                aad: header,
            },
        )
        .is_err();
    assert!(rejected);

    println!(
        "{name:8} {} B message -> {} B ciphertext+tag, decrypted OK, tampering rejected",
        message.len(),
        sealed.len()
    );
    Ok(())
}

fn main() -> Result<(), Error> {
    demo::<Dumbo>("Dumbo")?;
    demo::<Jumbo>("Jumbo")?;
    demo::<Delirium>("Delirium")?;
    Ok(())
}
