//! Statistical timing test of tag verification (dudect: Welch's t-test on
//! the running times of two input classes). Run on demand, on a quiet
//! machine: `cargo run --release --manifest-path tools/ct-check/Cargo.toml
//! --bin tag_timing` (add `-- --continuous near_miss_vs_random_tag` to keep
//! sampling).
//! A |t| that stays below about 5 as samples grow means no timing difference
//! was found; a leak makes |t| grow without bound.

use dudect_bencher::rand::{Rng, RngCore};
use dudect_bencher::{BenchRng, Class, CtRunner, ctbench_main};
use elephant_aead::Dumbo;
use elephant_aead::aead::{AeadInOut, KeyInit, Nonce, Tag};

const SAMPLES: usize = 100_000;

/// A cipher, a nonce, AD and a sealed message of `len` bytes with its tag.
fn sealed(rng: &mut BenchRng, len: usize) -> (Dumbo, Nonce<Dumbo>, Vec<u8>, Vec<u8>, Tag<Dumbo>) {
    let mut key = [0u8; 16];
    rng.fill_bytes(&mut key);
    let cipher = Dumbo::new(&key.into());
    let nonce = Nonce::<Dumbo>::default();
    let mut ad = vec![0u8; 16];
    rng.fill_bytes(&mut ad);
    let mut message = vec![0u8; len];
    rng.fill_bytes(&mut message);
    let tag = cipher
        .encrypt_inout_detached(&nonce, &ad, message.as_mut_slice().into())
        .unwrap_or_default();
    (cipher, nonce, ad, message, tag)
}

/// A near miss, the correct tag with its last bit flipped (left), against a
/// random wrong tag (right). Both are rejected, so the outcome is the same;
/// a comparison that leaked how much of the tag matched would differ.
///
/// (Correct against wrong tags differ by design: an accepted tag goes on to
/// decrypt, which is the public verdict, not a leak.)
fn near_miss_vs_random_tag(runner: &mut CtRunner, rng: &mut BenchRng) {
    let (cipher, nonce, ad, _, tag) = sealed(rng, 0);
    for _ in 0..SAMPLES {
        let (class, tag) = if rng.r#gen::<bool>() {
            let mut near_miss = tag;
            if let Some(byte) = near_miss.last_mut() {
                *byte ^= 1;
            }
            (Class::Left, near_miss)
        } else {
            let mut wrong = Tag::<Dumbo>::default();
            rng.fill_bytes(&mut wrong);
            (Class::Right, wrong)
        };
        runner.run_one(class, || {
            cipher.decrypt_inout_detached(&nonce, &ad, (&mut [][..]).into(), &tag)
        });
    }
}

/// A tag wrong in its first byte (left) against one wrong only in its last
/// byte (right): an early-exit comparison would take longer on the right.
fn wrong_tag_position(runner: &mut CtRunner, rng: &mut BenchRng) {
    let (cipher, nonce, ad, ciphertext, tag) = sealed(rng, 64);
    for _ in 0..SAMPLES {
        let mut wrong = tag;
        let class = if rng.r#gen::<bool>() {
            if let Some(byte) = wrong.first_mut() {
                *byte ^= 0x80;
            }
            Class::Left
        } else {
            if let Some(byte) = wrong.last_mut() {
                *byte ^= 0x80;
            }
            Class::Right
        };
        runner.run_one(class, || {
            // The same copy in both classes; a rejected tag leaves it as is.
            let mut buffer = [0u8; 64];
            buffer.copy_from_slice(&ciphertext);
            cipher.decrypt_inout_detached(&nonce, &ad, buffer.as_mut_slice().into(), &wrong)
        });
    }
}

ctbench_main!(near_miss_vs_random_tag, wrong_tag_position);
