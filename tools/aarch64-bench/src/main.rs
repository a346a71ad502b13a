//! One benchmark case, run a given number of times: `.ci/aarch64-bench`
//! counts the instructions QEMU executes for two call counts and takes the
//! difference, so start-up and set-up cancel out.
//!
//! Usage: `elephant-aarch64-bench <cipher> <case> <calls>`, where `<cipher>`
//! is Dumbo, Jumbo, Delirium, ChaCha20-Poly1305 or Ascon-AEAD128 and
//! `<case>` a message length in bytes or `batch` (256 packets of 16 bytes
//! per `batch::seal`, each with its own key; Elephant only).

use ascon_aead::AsconAead128;
use chacha20poly1305::ChaCha20Poly1305;
use elephant_aead::aead::{AeadInOut, KeyInit, Nonce, Tag};
use elephant_aead::batch::{self, Packet};
use elephant_aead::{Delirium, Dumbo, Elephant, Jumbo, Permutation};
use std::hint::black_box;
use std::process::ExitCode;

/// Associated data of every message.
const AD: &[u8; 5] = b"hdr=7";
/// Packets per multi-message call.
const PACKETS: usize = 256;
/// Bytes per packet of a multi-message call.
const PACKET_BYTES: usize = 16;

/// `calls` encryptions of a `len`-byte message, one call each.
fn one_at_a_time<C: AeadInOut + KeyInit>(len: usize, calls: usize) {
    let cipher = C::new(&Default::default());
    let nonce = Nonce::<C>::default();
    let mut message = vec![0x5a; len];
    for _ in 0..calls {
        let tag = cipher.encrypt_inout_detached(
            black_box(&nonce),
            black_box(AD),
            black_box(message.as_mut_slice()).into(),
        );
        black_box(tag.ok());
    }
    black_box(&message);
}

/// `calls` multi-message calls of 256 packets of 16 bytes, each packet with
/// its own key.
fn batches<P: Permutation>(calls: usize) {
    let ciphers: Vec<Elephant<P>> = (0..PACKETS)
        .map(|i| {
            let mut key = [0u8; 16];
            key[..8].copy_from_slice(&(i as u64).to_le_bytes());
            Elephant::new(&key.into())
        })
        .collect();
    let nonce = Nonce::<Elephant<P>>::default();
    let mut buffers = vec![[0x5a; PACKET_BYTES]; PACKETS];
    let mut tags = vec![Tag::<Elephant<P>>::default(); PACKETS];
    let mut packets: Vec<Packet<'_, Elephant<P>>> = ciphers
        .iter()
        .zip(buffers.iter_mut().zip(tags.iter_mut()))
        .map(|(cipher, (buffer, tag))| Packet::new(cipher, &nonce, AD, buffer, tag))
        .collect();
    for _ in 0..calls {
        black_box(batch::seal(black_box(&mut packets)).ok());
    }
    drop(packets);
    black_box((&buffers, &tags));
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(cipher), Some(case), Some(Ok(calls))) = (
        args.get(1),
        args.get(2),
        args.get(3).map(|calls| calls.parse::<usize>()),
    ) else {
        eprintln!("usage: elephant-aarch64-bench <cipher> <bytes | batch> <calls>");
        return ExitCode::FAILURE;
    };
    match (cipher.as_str(), case.parse::<usize>()) {
        ("Dumbo", Ok(len)) => one_at_a_time::<Dumbo>(len, calls),
        ("Jumbo", Ok(len)) => one_at_a_time::<Jumbo>(len, calls),
        ("Delirium", Ok(len)) => one_at_a_time::<Delirium>(len, calls),
        ("ChaCha20-Poly1305", Ok(len)) => one_at_a_time::<ChaCha20Poly1305>(len, calls),
        ("Ascon-AEAD128", Ok(len)) => one_at_a_time::<AsconAead128>(len, calls),
        ("Dumbo", Err(_)) if case == "batch" => batches::<elephant_aead::Spongent160>(calls),
        ("Jumbo", Err(_)) if case == "batch" => batches::<elephant_aead::Spongent176>(calls),
        ("Delirium", Err(_)) if case == "batch" => batches::<elephant_aead::Keccak200>(calls),
        _ => {
            eprintln!("unknown case: {cipher} {case}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
