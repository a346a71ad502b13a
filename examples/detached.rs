//! Encryption without a heap: a plain slice is encrypted in place and the
//! tag is kept apart, as firmware would do with a radio frame.
//!
//! Run with `cargo run --example detached`.

use elephant_aead::Jumbo;
use elephant_aead::aead::{AeadInOut, Error, KeyInit, Nonce};

fn main() -> Result<(), Error> {
    // Never use a fixed key or reuse a nonce with one key in real use.
    let cipher = Jumbo::new(b"an example key!!".into());
    let nonce = Nonce::<Jumbo>::from(*b"frame 000001");
    let header = b"dst=7";
    let mut frame = *b"temperature=21.5C";

    let tag = cipher.encrypt_inout_detached(&nonce, header, frame.as_mut_slice().into())?;
    println!(
        "ciphertext {:02x?}\ntag        {:02x?}",
        frame,
        tag.as_slice()
    );

    cipher.decrypt_inout_detached(&nonce, header, frame.as_mut_slice().into(), &tag)?;
    assert_eq!(&frame, b"temperature=21.5C");

    // A wrong header is rejected and the buffer is left as it was.
    let before = frame;
    let wrong = cipher.decrypt_inout_detached(&nonce, b"dst=8", frame.as_mut_slice().into(), &tag);
    assert!(wrong.is_err() && frame == before);
    println!("decrypted OK; a wrong header is rejected");
    Ok(())
}
