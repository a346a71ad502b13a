//! The test harness every permutation backend goes through: random blocks
//! of every batch length up to twice a backend's width, compared block by
//! block with the `const fn` reference.

// Tests may panic; test data truncates on purpose.
#![allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]

use hex_literal::hex;

/// `00 01 02 …` as a block.
pub(crate) const fn counting<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = i as u8;
        i += 1;
    }
    out
}

/// The spec's test values of Spongent-π\[160\]: (input, output).
pub(crate) const SPONGENT_160_VECTORS: [([u8; 20], [u8; 20]); 3] = [
    ([0; 20], hex!("e80c0086a2cb8286a162c50ede3ed1b95f74edca")),
    (counting(), hex!("7c800edf9a560df7cc19f1a2262c7d73267bf77b")),
    ([0xff; 20], hex!("34d15c4568726710ed65c61ad66ba32eefd3ce73")),
];

/// The spec's test values of Spongent-π\[176\]: (input, output).
pub(crate) const SPONGENT_176_VECTORS: [([u8; 22], [u8; 22]); 3] = [
    (
        [0; 22],
        hex!("7cc4ce71e12103a7601e25ff8970fb10bf32793c2379"),
    ),
    (
        counting(),
        hex!("d26976eb3534b585cdd061e7c6e49b5beed9e8d86626"),
    ),
    (
        [0xff; 22],
        hex!("d430dd0c8c0e5d52eadabe84aab76b73265f5284795c"),
    ),
];

/// The spec's test values of Keccak-f\[200\]: (input, output).
pub(crate) const KECCAK_200_VECTORS: [([u8; 25], [u8; 25]); 3] = [
    (
        [0; 25],
        hex!("3c2826841cb35c171eaae9b811134ceaa3852c69d2c5abafea"),
    ),
    (
        counting(),
        hex!("7f0340bd5ef9a9ce6c77d141ea9123772d83f040bf231ca51c"),
    ),
    (
        [0xff; 25],
        hex!("abb5ffdb767e089992e64fd66fed8ec992844560df6994c556"),
    ),
];

/// `count` pseudo-random blocks from a xorshift generator seeded by `seed`.
pub(crate) fn random_blocks<const N: usize>(count: usize, seed: u64) -> Vec<[u8; N]> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..count)
        .map(|_| {
            core::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
        })
        .collect()
}

/// Batch lengths to try for a backend of `width` blocks: all of
/// 0..=2·width; under Miri, which is slow (every kernel call is a full
/// 18–90 rounds), a few that still reach an empty, a single and a padded
/// call.
pub(crate) fn lengths(width: usize) -> Vec<usize> {
    if cfg!(miri) {
        let mut few = vec![0, 1, width.min(5)];
        few.dedup();
        few
    } else {
        (0..=2 * width).collect()
    }
}

/// Runs `backend` over random batches of every test length, in calls of at
/// most `width` blocks, and compares every block with `reference`.
///
/// The batches are windows of one pool of random blocks, each length's at
/// its own offset, so the slow reference runs once per pool block rather
/// than once per block of every batch (quadratic in the width).
pub(crate) fn check<const N: usize>(
    name: &str,
    width: usize,
    reference: fn([u8; N]) -> [u8; N],
    backend: impl Fn(&mut [[u8; N]]),
) {
    let lengths = lengths(width);
    let longest = lengths.iter().copied().max().unwrap_or(0);
    let pool = random_blocks::<N>(2 * longest + 1, N as u64);
    let permuted: Vec<_> = pool.iter().map(|b| reference(*b)).collect();
    for len in lengths {
        let start = (len * 7) % (longest + 1);
        let mut blocks = pool[start..start + len].to_vec();
        for chunk in blocks.chunks_mut(width) {
            backend(chunk);
        }
        assert_eq!(blocks, permuted[start..start + len], "{name}, {len} blocks");
    }
}

/// Runs `backend` over random batches of each of `lengths` (in one call
/// each) and compares every block with `reference`.
pub(crate) fn check_at<const N: usize>(
    name: &str,
    lengths: &[usize],
    reference: fn([u8; N]) -> [u8; N],
    backend: impl Fn(&mut [[u8; N]]),
) {
    let longest = lengths.iter().copied().max().unwrap_or(0);
    let pool = random_blocks::<N>(longest, N as u64 + 1);
    let permuted: Vec<_> = pool.iter().map(|b| reference(*b)).collect();
    for &len in lengths {
        let mut blocks = pool[..len].to_vec();
        backend(&mut blocks);
        let wrong = blocks
            .iter()
            .zip(&permuted)
            .position(|(got, want)| got != want);
        assert_eq!(wrong, None, "{name}, {len} blocks: block {wrong:?} differs");
    }
}

/// The AVX2 token, or `None` if this CPU lacks AVX2; a CI machine known to
/// have AVX2 sets `ELEPHANT_REQUIRE_AVX2=1`, and then a failed detection
/// fails the test instead of skipping the AVX2 checks.
#[cfg(elephant_x86)]
#[allow(clippy::panic)] // Failing is the point.
pub(crate) fn avx2_or_fail() -> Option<super::cpu::Avx2> {
    let token = super::cpu::Avx2::detect();
    if token.is_none() && std::env::var("ELEPHANT_REQUIRE_AVX2").as_deref() == Ok("1") {
        panic!("ELEPHANT_REQUIRE_AVX2=1 but this CPU has no AVX2");
    }
    token
}

/// The fast-`pext` token; with `ELEPHANT_REQUIRE_PEXT=1` (set where the
/// CPU is known to have a fast `pext`: CI reads the vendor and family from
/// `/proc/cpuinfo`, a check of [`super::cpu::FastPext`]'s decision) or
/// `ELEPHANT_REQUIRE_AVX512=1` (every AVX-512 CPU has one, and so does the
/// Miri step with the features enabled), a failed detection fails the test
/// instead of skipping the check.
#[cfg(elephant_x86)]
#[allow(clippy::panic)] // Failing is the point.
pub(crate) fn fast_pext_or_fail() -> Option<super::cpu::FastPext> {
    let token = super::cpu::FastPext::detect();
    for variable in ["ELEPHANT_REQUIRE_PEXT", "ELEPHANT_REQUIRE_AVX512"] {
        if token.is_none() && std::env::var(variable).as_deref() == Ok("1") {
            panic!("{variable}=1 but this CPU has no fast pext");
        }
    }
    token
}

/// The AVX-512 + GFNI token, or `None` if this CPU lacks them; a CI machine
/// known to have them sets `ELEPHANT_REQUIRE_AVX512=1`, and then a failed
/// detection fails the test instead of skipping the AVX-512 checks. (Under
/// Miri with the features enabled by `-C target-feature`, detection
/// succeeds and the intrinsics are emulated.)
#[cfg(elephant_avx512)]
#[allow(clippy::panic)] // Failing is the point.
pub(crate) fn avx512_gfni_or_fail() -> Option<super::cpu::Avx512Gfni> {
    let token = super::cpu::Avx512Gfni::detect();
    if token.is_none() && std::env::var("ELEPHANT_REQUIRE_AVX512").as_deref() == Ok("1") {
        panic!("ELEPHANT_REQUIRE_AVX512=1 but this CPU lacks AVX-512F, GFNI or AVX2");
    }
    token
}

/// The AVX-512 VBMI token (the single-state Keccak-f\[200\] kernel), or
/// `None` if this CPU lacks a feature it needs; with
/// `ELEPHANT_REQUIRE_AVX512=1` a failed detection fails the test instead of
/// skipping the check. (Under Miri with the features enabled by
/// `-C target-feature`, detection succeeds and the intrinsics are emulated.)
#[cfg(elephant_avx512)]
#[allow(clippy::panic)] // Failing is the point.
pub(crate) fn avx512_vbmi_or_fail() -> Option<super::cpu::Avx512Vbmi> {
    let token = super::cpu::Avx512Vbmi::detect();
    if token.is_none() && std::env::var("ELEPHANT_REQUIRE_AVX512").as_deref() == Ok("1") {
        panic!("ELEPHANT_REQUIRE_AVX512=1 but this CPU lacks AVX-512BW, AVX-512VBMI or GFNI");
    }
    token
}
