//! A downstream program that links every entry point of elephant-aead:
//! one message of each instance sealed and opened, and `batch::seal` and
//! `batch::open` of each, at lengths that reach every tier (16 B, 1500 B,
//! 16 KiB, and 256 packets of 16 B). `.ci/inline-check` builds it under a
//! given release profile and reads its disassembly; running it only checks
//! that each message round-trips.

use elephant_aead::aead::{AeadInOut, KeyInit};
use elephant_aead::batch::{self, Packet};
use elephant_aead::{Elephant, Keccak200, Key, Nonce, Permutation, Spongent160, Spongent176, Tag};
use std::hint::black_box;

/// One-message lengths: short, packet-sized and long (every driver).
const LENGTHS: [usize; 3] = [16, 1500, 16 * 1024];
/// The batch: many short packets (the lockstep driver at full width).
const PACKETS: usize = 256;
const PACKET_LEN: usize = 16;

/// Seals and opens one message of each length and one batch with `P`.
fn exercise<P: Permutation>() {
    // black_box: the lengths and contents are the caller's, unknown to the
    // compiler, as in a real program.
    let cipher = Elephant::<P>::new(&black_box(Key::<Elephant<P>>::default()));
    let nonce = black_box(Nonce::<Elephant<P>>::default());
    let associated_data = black_box([7u8; 16]);
    for &length in &LENGTHS {
        let length = black_box(length);
        let mut buffer = vec![0x5a; length];
        let tag = cipher
            .encrypt_inout_detached(&nonce, &associated_data, buffer.as_mut_slice().into())
            .expect("sealed");
        cipher
            .decrypt_inout_detached(&nonce, &associated_data, buffer.as_mut_slice().into(), &tag)
            .expect("opened");
        assert!(buffer.iter().all(|&byte| byte == 0x5a));
    }

    let mut buffers = vec![[0xa5u8; PACKET_LEN]; black_box(PACKETS)];
    let mut tags = vec![Tag::<Elephant<P>>::default(); PACKETS];
    let mut packets: Vec<Packet<'_, Elephant<P>>> = buffers
        .iter_mut()
        .zip(tags.iter_mut())
        .map(|(buffer, tag)| Packet::new(&cipher, &nonce, &associated_data, buffer, tag))
        .collect();
    batch::seal(&mut packets).expect("batch sealed");
    drop(packets);
    let mut packets: Vec<Packet<'_, Elephant<P>, &Tag<Elephant<P>>>> = buffers
        .iter_mut()
        .zip(tags.iter())
        .map(|(buffer, tag)| Packet::new(&cipher, &nonce, &associated_data, buffer, tag))
        .collect();
    batch::open(&mut packets).expect("batch opened");
    drop(packets);
    assert!(buffers.iter().flatten().all(|&byte| byte == 0xa5));
}

fn main() {
    // Dumbo, Jumbo, Delirium.
    exercise::<Spongent160>();
    exercise::<Spongent176>();
    exercise::<Keccak200>();
    println!("every entry point round-trips");
}
