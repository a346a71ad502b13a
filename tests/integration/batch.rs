//! The multi-message API (`elephant_aead::batch`) against the
//! single-message one: every packet of a mix must come out exactly as if it
//! had been sealed or opened on its own, with its own outcome, and a
//! rejected packet must be left exactly as it was.
//!
//! The mixes cross what the scheduler could get wrong: counts around its
//! wave sizes (16 and 256 packets in flight), lengths around block and run
//! boundaries, AD longer than the message, empty messages, keys shared by
//! several packets, and tampered packets next to good ones.

use elephant_aead::batch::{self, Outcome, Packet};
use elephant_aead::{
    AeadInOut, Dumbo, Elephant, Keccak200, KeyInit, Nonce, Permutation, Spongent160, Spongent176,
    Tag,
};
use proptest::prelude::*;

/// A small deterministic generator (xorshift64*): the mixes are
/// reproducible from their seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// One packet's inputs, owned.
struct Input<P: Permutation> {
    cipher: Elephant<P>,
    nonce: Nonce<Elephant<P>>,
    ad: Vec<u8>,
    message: Vec<u8>,
}

/// How a packet is tampered with before opening.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tamper {
    None,
    Tag,
    Ciphertext,
    AssociatedData,
    Nonce,
}

/// A mix of `count` packets: mostly short messages, some long ones (up to
/// 5000 B), AD of 0..=100 B, and every third key shared with another
/// packet.
fn mix<P: Permutation>(count: usize, seed: u64) -> Vec<Input<P>> {
    let mut rng = Rng(seed | 1);
    let keys: Vec<[u8; 16]> = (0..count.div_ceil(3) + 1)
        .map(|_| rng.bytes(16).try_into().unwrap())
        .collect();
    (0..count)
        .map(|i| {
            let key = if i % 3 == 0 {
                let shared = rng.below(keys.len());
                keys[shared]
            } else {
                rng.bytes(16).try_into().unwrap()
            };
            let len = match rng.below(10) {
                0 => rng.below(5001),
                1 => P::BLOCK_SIZE * rng.below(4),
                _ => rng.below(64),
            };
            let ad_len = rng.below(101);
            Input {
                cipher: Elephant::<P>::new(&key.into()),
                nonce: Nonce::<Elephant<P>>::try_from(rng.bytes(12).as_slice()).unwrap(),
                ad: rng.bytes(ad_len),
                message: rng.bytes(len),
            }
        })
        .collect()
}

/// Seals `inputs` in one batch; returns the buffers and tags.
fn seal_all<P: Permutation>(inputs: &[Input<P>]) -> (Vec<Vec<u8>>, Vec<Tag<Elephant<P>>>) {
    let mut buffers: Vec<Vec<u8>> = inputs.iter().map(|input| input.message.clone()).collect();
    let mut tags = vec![Tag::<Elephant<P>>::default(); inputs.len()];
    let mut packets: Vec<Packet<'_, Elephant<P>>> = inputs
        .iter()
        .zip(buffers.iter_mut().zip(tags.iter_mut()))
        .map(|(input, (buffer, tag))| {
            Packet::new(&input.cipher, &input.nonce, &input.ad, buffer, tag)
        })
        .collect();
    assert!(
        packets
            .iter()
            .all(|packet| packet.outcome() == Outcome::Pending)
    );
    batch::seal(&mut packets).expect("lengths within the limits");
    assert!(
        packets
            .iter()
            .all(|packet| packet.outcome() == Outcome::Done)
    );
    drop(packets);
    (buffers, tags)
}

/// The whole check for one mix: batch sealing equals single-message
/// sealing; batch opening, with `tampers` applied, accepts exactly the
/// untouched packets (decrypting them) and leaves the others as they were.
fn check_mix<P: Permutation>(inputs: &mut [Input<P>], tampers: &[Tamper]) {
    let (mut buffers, mut tags) = seal_all(inputs);
    for (i, input) in inputs.iter().enumerate() {
        let mut single = input.message.clone();
        let tag = input
            .cipher
            .encrypt_inout_detached(&input.nonce, &input.ad, single.as_mut_slice().into())
            .unwrap();
        assert_eq!(buffers[i], single, "{} packet {i}: ciphertext", P::INSTANCE);
        assert_eq!(tags[i], tag, "{} packet {i}: tag", P::INSTANCE);
    }

    for (i, tamper) in tampers.iter().enumerate() {
        let input = &mut inputs[i];
        match tamper {
            Tamper::None => {}
            Tamper::Tag => {
                let at = i % tags[i].len();
                tags[i][at] ^= 0x10;
            }
            Tamper::Ciphertext if !buffers[i].is_empty() => {
                let at = i % buffers[i].len();
                buffers[i][at] ^= 0x01;
            }
            Tamper::AssociatedData if !input.ad.is_empty() => {
                let at = i % input.ad.len();
                input.ad[at] ^= 0x80;
            }
            // An empty ciphertext or AD: the nonce instead.
            Tamper::Nonce | Tamper::Ciphertext | Tamper::AssociatedData => input.nonce[i % 12] ^= 4,
        }
    }
    let sent = buffers.clone();
    let all_good = tampers.iter().all(|&tamper| tamper == Tamper::None);
    // Opening only reads the tags: shared borrows.
    let mut packets: Vec<Packet<'_, Elephant<P>, &Tag<Elephant<P>>>> = inputs
        .iter()
        .zip(buffers.iter_mut().zip(&tags))
        .map(|(input, (buffer, tag))| {
            Packet::new(&input.cipher, &input.nonce, &input.ad, buffer, tag)
        })
        .collect();
    assert!(
        packets
            .iter()
            .all(|packet| packet.outcome() == Outcome::Pending)
    );
    assert_eq!(
        batch::open(&mut packets).is_ok(),
        all_good,
        "{}",
        P::INSTANCE
    );
    for (i, packet) in packets.iter().enumerate() {
        let expected = if tampers[i] == Tamper::None {
            Outcome::Done
        } else {
            Outcome::Rejected
        };
        assert_eq!(
            packet.outcome(),
            expected,
            "{} packet {i} ({:?})",
            P::INSTANCE,
            tampers[i]
        );
    }
    drop(packets);
    for (i, input) in inputs.iter().enumerate() {
        if tampers[i] == Tamper::None {
            assert_eq!(
                buffers[i],
                input.message,
                "{} packet {i}: plaintext",
                P::INSTANCE
            );
        } else {
            assert_eq!(
                buffers[i],
                sent[i],
                "{} packet {i}: rejected, yet written",
                P::INSTANCE
            );
        }
    }
}

/// Every fifth packet tampered with, the kinds in turn.
fn scattered_tampers(count: usize, seed: u64) -> Vec<Tamper> {
    let mut rng = Rng(seed.wrapping_mul(7) | 1);
    let kinds = [
        Tamper::Tag,
        Tamper::Ciphertext,
        Tamper::AssociatedData,
        Tamper::Nonce,
    ];
    (0..count)
        .map(|_| match rng.below(5) {
            0 => {
                let kind = rng.below(4);
                kinds[kind]
            }
            _ => Tamper::None,
        })
        .collect()
}

/// Counts around the scheduler's wave sizes (16 and 256 in flight) and up
/// to 1000 packets; fewer on 32-bit targets, which run under emulation.
fn counts() -> &'static [usize] {
    if cfg!(target_pointer_width = "64") {
        &[1, 2, 15, 16, 17, 255, 256, 257, 1000]
    } else {
        &[1, 2, 16, 17, 40]
    }
}

fn random_mixes<P: Permutation>(seed: u64) {
    for (n, &count) in counts().iter().enumerate() {
        let seed = seed.wrapping_add(n as u64 * 1000);
        let mut inputs = mix::<P>(count, seed);
        let tampers = scattered_tampers(count, seed);
        check_mix(&mut inputs, &tampers);
        // And all of them untouched: the call as a whole succeeds.
        let mut inputs = mix::<P>(count, seed ^ 0xff);
        check_mix(&mut inputs, &vec![Tamper::None; count]);
    }
}

#[test]
fn random_mixes_match_the_single_message_calls_dumbo() {
    random_mixes::<Spongent160>(1);
}

#[test]
fn random_mixes_match_the_single_message_calls_jumbo() {
    random_mixes::<Spongent176>(2);
}

#[test]
fn random_mixes_match_the_single_message_calls_delirium() {
    random_mixes::<Keccak200>(3);
}

/// The results do not depend on how the packets are ordered or split into
/// calls.
/// Packets on both sides of the lockstep bound (message and
/// `nonce ‖ AD` within two blocks each: the short-packet path) in one
/// call, so that both paths run in it, with tampered packets among them;
/// counts for the small and the large configuration.
fn around_the_lockstep_bound<P: Permutation>(seed: u64) {
    let bound = 2 * P::BLOCK_SIZE;
    let message_lens = [0, 1, 16, P::BLOCK_SIZE, bound - 1, bound, bound + 1, 200];
    let ad_lens = [0, 5, bound - 13, bound - 12, bound - 11, 60];
    for count in [12, 300] {
        let mut rng = Rng(seed ^ count as u64);
        let mut inputs: Vec<Input<P>> = (0..count)
            .map(|i| {
                let len = message_lens[i % message_lens.len()];
                let ad_len = ad_lens[(i / message_lens.len()) % ad_lens.len()];
                let key: [u8; 16] = rng.bytes(16).try_into().unwrap();
                Input {
                    cipher: Elephant::<P>::new(&key.into()),
                    nonce: Nonce::<Elephant<P>>::try_from(rng.bytes(12).as_slice()).unwrap(),
                    ad: rng.bytes(ad_len),
                    message: rng.bytes(len),
                }
            })
            .collect();
        let mut tampers = scattered_tampers(count, seed);
        // Two short packets forged at least.
        tampers[1] = Tamper::Tag;
        tampers[2] = Tamper::Ciphertext;
        check_mix(&mut inputs, &tampers);
    }
}

#[test]
fn short_and_long_packets_in_one_call() {
    around_the_lockstep_bound::<Spongent160>(11);
    around_the_lockstep_bound::<Spongent176>(12);
    around_the_lockstep_bound::<Keccak200>(13);
}

#[test]
fn order_and_split_do_not_matter() {
    let inputs = mix::<Spongent160>(300, 42);
    let (buffers, tags) = seal_all(&inputs);
    let reversed: Vec<Input<Spongent160>> = inputs
        .iter()
        .rev()
        .map(|input| Input {
            cipher: input.cipher.clone(),
            nonce: input.nonce,
            ad: input.ad.clone(),
            message: input.message.clone(),
        })
        .collect();
    let (reversed_buffers, reversed_tags) = seal_all(&reversed);
    for i in 0..inputs.len() {
        assert_eq!(reversed_buffers[inputs.len() - 1 - i], buffers[i]);
        assert_eq!(reversed_tags[inputs.len() - 1 - i], tags[i]);
    }
    let (first, second) = inputs.split_at(7);
    let (buffers_a, tags_a) = seal_all(first);
    let (buffers_b, tags_b) = seal_all(second);
    assert_eq!([buffers_a, buffers_b].concat(), buffers);
    assert_eq!([tags_a, tags_b].concat(), tags);
}

/// No packets: nothing to do, and nothing failed.
#[test]
fn an_empty_batch_is_ok() {
    let mut packets: [Packet<'_, Dumbo>; 0] = [];
    assert!(batch::seal(&mut packets).is_ok());
    assert!(batch::open(&mut packets).is_ok());
}

/// A packet is pending until a call has processed it; then done or
/// rejected.
#[test]
fn outcomes_are_pending_then_done_or_rejected() {
    let cipher = Elephant::<Keccak200>::new(&[1; 16].into());
    let nonce = Nonce::<Elephant<Keccak200>>::default();
    let mut buffer = *b"four";
    let mut tag = Tag::<Elephant<Keccak200>>::default();
    let mut packets = [Packet::new(&cipher, &nonce, b"", &mut buffer, &mut tag)];
    assert_eq!(packets[0].outcome(), Outcome::Pending);
    assert!(format!("{:?}", packets[0]).contains("Pending"));
    batch::seal(&mut packets).unwrap();
    assert_eq!(packets[0].outcome(), Outcome::Done);
    let sealed_tag = *packets[0].tag();
    let sent = buffer;

    // A forged tag (owned: opening takes any borrow of a tag) is rejected,
    // the buffer left as it was; the right one opens it.
    let mut forged = sealed_tag;
    forged[3] ^= 0x40;
    let mut packets = [Packet::new(&cipher, &nonce, b"", &mut buffer, forged)];
    assert_eq!(packets[0].outcome(), Outcome::Pending);
    assert!(batch::open(&mut packets).is_err());
    assert_eq!(packets[0].outcome(), Outcome::Rejected);
    assert_eq!(packets[0].buffer(), &sent);
    let mut packets = [Packet::new(&cipher, &nonce, b"", &mut buffer, &sealed_tag)];
    batch::open(&mut packets).unwrap();
    assert_eq!(packets[0].outcome(), Outcome::Done);
    assert_eq!(packets[0].buffer(), b"four");
    assert_eq!(packets[0].tag(), &sealed_tag);
}

/// One packet's key, nonce, AD and message, as proptest makes them.
type Drawn = ([u8; 16], [u8; 12], Vec<u8>, Vec<u8>);

/// A mix for the properties: up to 40 packets of up to 300 B, AD up to
/// 40 B.
fn small_mix() -> impl Strategy<Value = Vec<Drawn>> {
    prop::collection::vec(
        (
            any::<[u8; 16]>(),
            any::<[u8; 12]>(),
            prop::collection::vec(any::<u8>(), 0..=40),
            prop::collection::vec(any::<u8>(), 0..=300),
        ),
        1..=40,
    )
}

fn inputs_of<P: Permutation>(mix: &[Drawn]) -> Vec<Input<P>> {
    mix.iter()
        .map(|(key, nonce, ad, message)| Input {
            cipher: Elephant::<P>::new(&(*key).into()),
            nonce: (*nonce).into(),
            ad: ad.clone(),
            message: message.clone(),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Batch sealing equals single-message sealing, and batch opening
    /// gives every message back.
    #[test]
    fn sealing_and_opening_round_trip(mix in small_mix()) {
        let mut dumbo = inputs_of::<Spongent160>(&mix);
        check_mix(&mut dumbo, &vec![Tamper::None; mix.len()]);
        let mut delirium = inputs_of::<Keccak200>(&mix);
        check_mix(&mut delirium, &vec![Tamper::None; mix.len()]);
    }

    /// One tampered packet is rejected, alone, whatever its place.
    #[test]
    fn one_tampered_packet_is_rejected_alone(mix in small_mix(), pick in any::<u64>()) {
        let target = (pick % mix.len() as u64) as usize;
        let kinds = [Tamper::Tag, Tamper::Ciphertext, Tamper::AssociatedData, Tamper::Nonce];
        let mut tampers = vec![Tamper::None; mix.len()];
        tampers[target] = kinds[(pick >> 32) as usize % 4];
        let mut jumbo = inputs_of::<Spongent176>(&mix);
        check_mix(&mut jumbo, &tampers);
    }
}
