//! Helpers shared by the integration tests: hex parsing and an independent,
//! deliberately plain Elephant built from the spec note and the public
//! `const fn` permutations, one block at a time.

#![allow(dead_code)]

use elephant_aead::permutation::{keccak_f200, spongent_pi_160, spongent_pi_176};

/// Decodes a hex string (either case); panics on bad input, which in a test
/// means a broken data file.
pub fn hex(text: &str) -> Vec<u8> {
    assert!(text.len() % 2 == 0, "odd-length hex: {text:?}");
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// One Elephant instance described the plain way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instance {
    Dumbo,
    Jumbo,
    Delirium,
}

impl Instance {
    pub const ALL: [Instance; 3] = [Instance::Dumbo, Instance::Jumbo, Instance::Delirium];

    pub fn block_size(self) -> usize {
        match self {
            Instance::Dumbo => 20,
            Instance::Jumbo => 22,
            Instance::Delirium => 25,
        }
    }

    pub fn tag_size(self) -> usize {
        match self {
            Instance::Delirium => 16,
            _ => 8,
        }
    }

    /// The permutation through the public `const fn`s.
    pub fn permute(self, block: &[u8]) -> Vec<u8> {
        match self {
            Instance::Dumbo => spongent_pi_160(block.try_into().unwrap()).to_vec(),
            Instance::Jumbo => spongent_pi_176(block.try_into().unwrap()).to_vec(),
            Instance::Delirium => keccak_f200(block.try_into().unwrap()).to_vec(),
        }
    }

    /// φ, written from the spec note.
    pub fn phi(self, x: &[u8]) -> Vec<u8> {
        let last = match self {
            Instance::Dumbo => x[0].rotate_left(3) ^ (x[3] << 7) ^ (x[13] >> 7),
            Instance::Jumbo => x[0].rotate_left(1) ^ (x[3] << 7) ^ (x[19] >> 7),
            Instance::Delirium => x[0].rotate_left(1) ^ x[2].rotate_left(1) ^ (x[13] << 1),
        };
        let mut y = x[1..].to_vec();
        y.push(last);
        y
    }
}

/// Byte-wise XOR over the shorter length.
pub fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// `data ‖ 01 ‖ 00…` cut into blocks of `m`.
pub fn pad(data: &[u8], m: usize) -> Vec<Vec<u8>> {
    let mut padded = data.to_vec();
    padded.push(1);
    while padded.len() % m != 0 {
        padded.push(0);
    }
    padded.chunks(m).map(<[u8]>::to_vec).collect()
}

/// Plain Elephant encryption: returns ciphertext ‖ tag.
pub fn reference_encrypt(
    instance: Instance,
    key: &[u8; 16],
    nonce: &[u8; 12],
    ad: &[u8],
    msg: &[u8],
) -> Vec<u8> {
    let m = instance.block_size();
    let mut k = key.to_vec();
    k.resize(m, 0);
    let l = instance.permute(&k);
    let blocks = msg.len().div_ceil(m);
    let ad_blocks = 1 + (12 + ad.len()) / m;
    let c_blocks = 1 + msg.len() / m;
    let mut masks = vec![l.clone()];
    while masks.len() < blocks.max(ad_blocks).max(c_blocks) + 2 {
        let next = instance.phi(masks.last().unwrap());
        masks.push(next);
    }
    let mut n0 = nonce.to_vec();
    n0.resize(m, 0);
    let mut out = Vec::with_capacity(msg.len() + instance.tag_size());
    for (j, chunk) in msg.chunks(m).enumerate() {
        let delta = xor(&masks[j], &masks[j + 1]);
        let keystream = xor(&instance.permute(&xor(&n0, &delta)), &delta);
        out.extend(xor(chunk, &keystream));
    }
    let mut nad = nonce.to_vec();
    nad.extend_from_slice(ad);
    let a = pad(&nad, m);
    let mut t = a[0].clone();
    for (j, block) in a.iter().enumerate().skip(1) {
        t = xor(
            &t,
            &xor(&instance.permute(&xor(block, &masks[j])), &masks[j]),
        );
    }
    for (j, block) in pad(&out, m).iter().enumerate() {
        let mask = xor(&masks[j], &masks[j + 2]);
        t = xor(&t, &xor(&instance.permute(&xor(block, &mask)), &mask));
    }
    let tag = xor(&instance.permute(&xor(&t, &l)), &l);
    out.extend_from_slice(&tag[..instance.tag_size()]);
    out
}
