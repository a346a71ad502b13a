//! Encrypts a 4 MiB input in 64 KiB segments with the STREAM construction
//! of `aead-stream` over Dumbo, decrypts it, and shows that dropping the
//! last segment is detected.
//!
//! Run with `cargo run --release --example streaming`.

use aead_stream::{DecryptorBE32, EncryptorBE32, Nonce};
use elephant_aead::Dumbo;
use elephant_aead::aead::{Error, KeyInit};

const SEGMENT: usize = 64 << 10;

fn main() -> Result<(), Error> {
    // Never use a fixed key, or the same nonce prefix twice with one key.
    let key = *b"an example key!!";
    let nonce = Nonce::<Dumbo, aead_stream::StreamBE32<Dumbo>>::from(*b"prefix7");
    let input: Vec<u8> = (0..4u32 << 20).map(|i| (i % 251) as u8).collect();

    let mut encryptor = EncryptorBE32::from_aead(Dumbo::new(&key.into()), &nonce);
    let mut segments = input.chunks(SEGMENT).peekable();
    let mut sealed = Vec::new();
    while let Some(segment) = segments.next() {
        if segments.peek().is_some() {
            sealed.push(encryptor.encrypt_next(segment)?);
        } else {
            sealed.push(encryptor.encrypt_last(segment)?);
            break;
        }
    }

    let open = |sealed: &[Vec<u8>]| -> Result<Vec<u8>, Error> {
        let mut decryptor = DecryptorBE32::from_aead(Dumbo::new(&key.into()), &nonce);
        let (last, rest) = sealed.split_last().ok_or(Error)?;
        let mut output = Vec::with_capacity(input.len());
        for segment in rest {
            output.extend(decryptor.decrypt_next(segment.as_slice())?);
        }
        output.extend(decryptor.decrypt_last(last.as_slice())?);
        Ok(output)
    };

    assert_eq!(open(&sealed)?, input);
    let truncated = open(&sealed[..sealed.len() - 1]);
    assert!(truncated.is_err());
    println!(
        "{} B in {} segments: decrypted OK; a truncated stream is rejected",
        input.len(),
        sealed.len()
    );
    Ok(())
}
