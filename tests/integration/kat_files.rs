//! The committed known-answer files are the official ones, byte for byte.
//!
//! `kats/` holds copies of the designers' published v2 vectors so that a
//! plain clone (and the published crate) can run `tests/integration/kat.rs`. A copy can
//! drift (an edit, a line-ending conversion, a truncated download), so the
//! SHA-256 of each file is pinned here, as the specification note lists
//! them. Where the project's shared folder sits beside the repository
//! (`../shared`, on the project's machines and in CI), the copies are also
//! compared with the shared originals and the pinned hashes with the
//! specification note itself.
//!
//! The hashes come from a small SHA-256 written for this test (checked
//! against the FIPS 180-4 examples below), so the test build needs no extra
//! dependency.

use std::path::{Path, PathBuf};

/// The official files and their SHA-256, as listed in the specification
/// note (`shared/spec/elephant-v2.md`, "Known-answer test files").
const PINNED: [(&str, &str); 3] = [
    (
        "dumbo.txt",
        "540321e90100b84c476e4ee2f433285f840956dac79760f0f987c11c1065e6e2",
    ),
    (
        "jumbo.txt",
        "12af21e8de60b2741b6d65fab596cef854c95385d832d52f09a48f458633c08a",
    ),
    (
        "delirium.txt",
        "5a9a1ad4a249ae18ca888d2987d53037e15654e5ce8724489da31cf10d5c5d5d",
    ),
];

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The project's shared folder beside the repository, if this machine has it.
fn shared() -> Option<PathBuf> {
    let shared = repository().join("../shared");
    shared.join("kats").is_dir().then_some(shared)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{} could not be read: {e}", path.display()))
}

#[test]
fn sha256_matches_the_fips_180_examples() {
    assert_eq!(
        sha256::hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256::hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    // 56 bytes: the length no longer fits in the first block's padding.
    assert_eq!(
        sha256::hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    // A million bytes: many blocks, and a length above 2^16 bits.
    assert_eq!(
        sha256::hex(&[b'a'; 1_000_000]),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    );
}

#[test]
fn committed_kat_files_have_the_official_hashes() {
    for (name, expected) in PINNED {
        let path = repository().join("kats").join(name);
        assert_eq!(
            sha256::hex(&read(&path)),
            expected,
            "{} is not the official file: restore it from the designers' \
             published vectors (or ../shared/kats)",
            path.display()
        );
    }
}

#[test]
fn committed_kat_files_match_the_shared_originals_where_present() {
    let Some(shared) = shared() else {
        // Nothing to compare with on a machine without the project's shared
        // folder; the pinned hashes above still check the committed copies.
        eprintln!("../shared/kats not found: compared with the pinned hashes only");
        return;
    };
    for (name, _) in PINNED {
        let committed = sha256::hex(&read(&repository().join("kats").join(name)));
        let original = sha256::hex(&read(&shared.join("kats").join(name)));
        assert_eq!(
            committed, original,
            "kats/{name} differs from ../shared/kats/{name}"
        );
    }
    // The pinned hashes are the ones the specification note lists.
    let spec = String::from_utf8(read(&shared.join("spec/elephant-v2.md"))).unwrap();
    for (name, expected) in PINNED {
        let instance = name.trim_end_matches(".txt");
        assert!(
            spec.contains(&format!("{instance} `{expected}`")),
            "the specification note does not list {expected} for {name}"
        );
    }
}

/// SHA-256 (FIPS 180-4), one-shot, for test data only: plain rather than
/// fast, and not constant-time.
mod sha256 {
    const ROUND_CONSTANTS: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];

    const INITIAL_STATE: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];

    /// The digest of `data` as 64 lowercase hex digits.
    pub fn hex(data: &[u8]) -> String {
        digest(data).iter().map(|b| format!("{b:02x}")).collect()
    }

    fn digest(data: &[u8]) -> [u8; 32] {
        // Padding: one 1 bit, zeros up to 56 mod 64 bytes, then the message
        // length in bits as a big-endian u64.
        let mut padded = data.to_vec();
        padded.push(0x80);
        while padded.len() % 64 != 56 {
            padded.push(0);
        }
        let bit_len = u64::try_from(data.len()).unwrap() * 8;
        padded.extend_from_slice(&bit_len.to_be_bytes());

        let mut state = INITIAL_STATE;
        for block in padded.chunks_exact(64) {
            compress(&mut state, block);
        }
        let mut out = [0; 32];
        for (bytes, word) in out.chunks_exact_mut(4).zip(state) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
        out
    }

    fn compress(state: &mut [u32; 8], block: &[u8]) {
        let mut schedule = [0u32; 64];
        for (word, bytes) in schedule.iter_mut().zip(block.chunks_exact(4)) {
            *word = u32::from_be_bytes(bytes.try_into().unwrap());
        }
        for t in 16..64 {
            let w15 = schedule[t - 15];
            let w2 = schedule[t - 2];
            let sigma0 = w15.rotate_right(7) ^ w15.rotate_right(18) ^ (w15 >> 3);
            let sigma1 = w2.rotate_right(17) ^ w2.rotate_right(19) ^ (w2 >> 10);
            schedule[t] = schedule[t - 16]
                .wrapping_add(sigma0)
                .wrapping_add(schedule[t - 7])
                .wrapping_add(sigma1);
        }

        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
        for (k, w) in ROUND_CONSTANTS.iter().zip(schedule) {
            let big_sigma1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let choose = (e & f) ^ (!e & g);
            let t1 = h
                .wrapping_add(big_sigma1)
                .wrapping_add(choose)
                .wrapping_add(*k)
                .wrapping_add(w);
            let big_sigma0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let majority = (a & b) ^ (a & c) ^ (b & c);
            let t2 = big_sigma0.wrapping_add(majority);
            h = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (word, add) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *word = word.wrapping_add(add);
        }
    }
}
