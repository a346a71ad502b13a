//! A gateway that opens 10,000 sensor packets from 1,000 devices in one
//! call, some of them forged, and reports which ones it rejected.
//!
//! Each device has its own key (here derived from its id for the demo;
//! real keys come from provisioning and live in secure storage), numbers
//! its packets (the nonce is the device id and its packet counter, so no
//! nonce repeats under one key) and sends its id as associated data, so a
//! packet replayed under another id is rejected too.
//!
//! `batch::open` checks every packet on its own: a forged packet is
//! reported and left as it was, the others are decrypted, and the
//! permutations of all of them run in shared batches.
//!
//! Run with `cargo run --release --example gateway`.

use elephant_aead::batch::{self, Outcome, Packet};
use elephant_aead::{Dumbo, Error, Key, KeyInit, Nonce, Tag};

const DEVICES: u32 = 1_000;
const PACKETS: u32 = 10_000;

/// A packet as it arrives on the radio: device id (sent in clear, also
/// the associated data), packet counter, encrypted reading, tag.
struct Received {
    device: u32,
    counter: u32,
    reading: Vec<u8>,
    tag: Tag<Dumbo>,
}

/// The demo's key of a device: a fixed pattern mixed with its id.
fn device_key(device: u32) -> Key<Dumbo> {
    let mut key = [0x5c; 16];
    key[..4].copy_from_slice(&device.to_le_bytes());
    key.into()
}

/// The nonce of a device's packet: its id and counter, zero-padded.
fn nonce(device: u32, counter: u32) -> Nonce<Dumbo> {
    let mut nonce = [0; 12];
    nonce[..4].copy_from_slice(&device.to_le_bytes());
    nonce[4..8].copy_from_slice(&counter.to_le_bytes());
    nonce.into()
}

/// What device `device` measured for its packet `counter`.
fn reading(device: u32, counter: u32) -> Vec<u8> {
    let tenths = (device * 7 + counter * 13) % 400;
    format!("t={}.{}C", tenths / 10, tenths % 10).into_bytes()
}

fn main() -> Result<(), Error> {
    let ciphers: Vec<Dumbo> = (0..DEVICES).map(|d| Dumbo::new(&device_key(d))).collect();

    // The devices' side: each sealed its packets (here all at once, with
    // the same multi-message call).
    let mut air: Vec<Received> = (0..PACKETS)
        .map(|i| Received {
            device: i % DEVICES,
            counter: i / DEVICES,
            reading: reading(i % DEVICES, i / DEVICES),
            tag: Tag::<Dumbo>::default(),
        })
        .collect();
    let nonces: Vec<Nonce<Dumbo>> = air.iter().map(|p| nonce(p.device, p.counter)).collect();
    let ids: Vec<[u8; 4]> = air.iter().map(|p| p.device.to_le_bytes()).collect();
    let mut packets: Vec<Packet<'_, _>> = air
        .iter_mut()
        .zip(&nonces)
        .zip(&ids)
        .map(|((p, nonce), id)| {
            Packet::new(
                &ciphers[p.device as usize],
                nonce,
                id,
                &mut p.reading,
                &mut p.tag,
            )
        })
        .collect();
    // Fails only for lengths above the limits, far beyond these readings.
    batch::seal(&mut packets)?;
    drop(packets);

    // An attacker forges some of them on the way: a changed reading, a
    // guessed tag, and a packet replayed under another device's id.
    let forged = [17, 4_242, 9_999];
    air[17].reading[0] ^= 0x01;
    air[4_242].tag = Tag::<Dumbo>::from([0xaa; 8]);
    let replay_id = ((air[9_999].device + 1) % DEVICES).to_le_bytes();

    // The gateway: every packet opened in one call, each with the key of
    // the device it claims to come from.
    let claimed_ids: Vec<[u8; 4]> = (0..air.len())
        .map(|i| if i == 9_999 { replay_id } else { ids[i] })
        .collect();
    // Opening only reads the tags: each packet borrows its tag shared.
    let mut packets: Vec<Packet<'_, _, &Tag<Dumbo>>> = air
        .iter_mut()
        .zip(&nonces)
        .zip(&claimed_ids)
        .map(|((p, nonce), id)| {
            Packet::new(
                &ciphers[p.device as usize],
                nonce,
                id,
                &mut p.reading,
                &p.tag,
            )
        })
        .collect();
    let all_good = batch::open(&mut packets).is_ok();
    let rejected: Vec<usize> = packets
        .iter()
        .enumerate()
        .filter(|(_, packet)| packet.outcome() == Outcome::Rejected)
        .map(|(i, _)| i)
        .collect();
    drop(packets);

    println!(
        "opened {} packets from {DEVICES} devices: {} accepted, {} rejected {rejected:?}",
        air.len(),
        air.len() - rejected.len(),
        rejected.len()
    );
    assert!(
        !all_good,
        "forged packets must make the call report an error"
    );
    assert_eq!(rejected, forged, "exactly the forged packets are rejected");
    for (i, p) in air.iter().enumerate() {
        if !forged.contains(&i) {
            assert_eq!(p.reading, reading(p.device, p.counter), "packet {i}");
        }
    }
    println!(
        "every accepted packet decrypted to its reading, e.g. device {}: {}",
        air[0].device,
        String::from_utf8_lossy(&air[0].reading)
    );
    Ok(())
}
